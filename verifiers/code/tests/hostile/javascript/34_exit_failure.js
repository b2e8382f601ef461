// expect: runtime_error
console.log("ok");
process.exit(3);
