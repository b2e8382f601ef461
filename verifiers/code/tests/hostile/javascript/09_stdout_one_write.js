// expect: output_limit
process.stdout.write("x".repeat(8 << 20));
