// expect: runtime_error
function down(n) {
    return down(n + 1) + 1;
}
down(0);
