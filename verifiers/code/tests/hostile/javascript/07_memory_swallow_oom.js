// expect: time_limit
const held = [];
for (;;) {
    try {
        held.push(new Array(1 << 20).fill(1));
    } catch (e) {}
}
