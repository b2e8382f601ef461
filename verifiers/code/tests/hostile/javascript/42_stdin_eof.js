// expect: runtime_error
const input = require("fs").readFileSync(0, "utf8");
const [a, b] = JSON.parse(input);
console.log(a + b);
