// expect: time_limit
const start = Date.now();
while (Date.now() - start < 1e9) {}
console.log("ok");
