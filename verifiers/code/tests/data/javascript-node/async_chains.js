// Long chains of promise jobs finish before the program ends, as under Node.js.
async function countDown(n) {
    if (n === 0) return "bottom";
    await null;
    return countDown(n - 1);
}
let steps = 0;
function chain(n) {
    if (n > 0) Promise.resolve().then(() => { steps++; chain(n - 1); });
    else console.log("chain of", steps, "jobs done");
}
countDown(20000).then((value) => console.log("countDown reached", value));
chain(50000);
setTimeout(() => console.log("timer after the chains"), 0);
