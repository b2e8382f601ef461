const rl = require("readline").createInterface({ input: process.stdin });
const lines = [];
rl.on("line", (line) => lines.push(line));
rl.on("close", () => {
    const n = Number(lines[0]);
    const xs = lines[1].split(" ").map(Number);
    console.log(n, xs.reduce((a, b) => a + b, 0), lines.slice(2));
});
