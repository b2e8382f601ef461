// expect: memory_limit
const chunks = [];
for (;;) chunks.push(new Uint8Array(16 << 20).fill(1));
