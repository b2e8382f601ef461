// expect: runtime_error
console.log("ok");
setTimeout(() => {
    throw new Error("in a timer");
}, 1);
