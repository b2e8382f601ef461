// expect: memory_limit
const held = [];
for (;;) held.push(new Array(1 << 20).fill(7));
