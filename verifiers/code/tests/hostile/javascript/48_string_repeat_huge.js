// expect: runtime_error
console.log("x".repeat(2 ** 31).length);
