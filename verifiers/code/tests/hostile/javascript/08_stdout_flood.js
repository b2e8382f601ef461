// expect: output_limit
for (;;) console.log("x".repeat(1000));
