// expect: time_limit
let x = 3n;
for (;;) x = x * x + 1n;
