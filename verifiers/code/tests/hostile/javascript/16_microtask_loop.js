// expect: time_limit
function again() {
    Promise.resolve().then(again);
}
again();
