// expect: compile_error
function broken( {
    console.log("ok");
}
