console.log("sync 1");
setTimeout(() => console.log("timeout 30"), 30);
setTimeout(() => {
    console.log("timeout 0");
    Promise.resolve().then(() => console.log("promise inside timeout"));
    process.nextTick(() => console.log("tick inside timeout"));
}, 0);
Promise.resolve().then(() => console.log("promise 1")).then(() => console.log("promise 2"));
process.nextTick(() => console.log("tick 1"));
queueMicrotask(() => console.log("microtask"));
(async () => {
    console.log("async start");
    await null;
    console.log("async after await");
    await new Promise((resolve) => setTimeout(resolve, 15));
    console.log("async after 15 ms");
})();
let ticks = 0;
const id = setInterval(() => {
    console.log("interval", ++ticks);
    if (ticks === 2) clearInterval(id);
}, 50);
console.log("sync 2");
