// expect: memory_limit
const a = new Array(1e9).fill(0);
console.log(a.length);
