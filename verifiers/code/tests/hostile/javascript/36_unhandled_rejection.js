// expect: runtime_error
console.log("ok");
Promise.reject(new Error("late failure"));
