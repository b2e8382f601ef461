// expect: time_limit
setTimeout(() => console.log("ok"), 1e9);
