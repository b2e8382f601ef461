// expect: output_limit
for (;;) console.error("x".repeat(1000));
