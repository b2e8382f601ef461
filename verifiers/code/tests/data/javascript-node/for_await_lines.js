const readline = require("node:readline");
async function main() {
    const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    let count = 0;
    for await (const line of rl) count += line.length;
    console.log("characters:", count);
}
main();
