const input = require("fs").readFileSync(0).toString().trim().split("\n");
const [n, xs, words] = [parseInt(input[0]), input[1].split(" ").map(BigInt), input[2].split(" ")];
console.log(String(xs.reduce((a, b) => a * b * 12345678901234567890n, 1n)));
console.log(words.map((w) => w.toUpperCase()).join("-"), n);
