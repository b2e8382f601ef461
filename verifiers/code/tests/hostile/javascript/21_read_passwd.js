// expect: runtime_error
console.log(require("fs").readFileSync("/etc/passwd", "utf8"));
