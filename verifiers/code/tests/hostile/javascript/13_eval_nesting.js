// expect: runtime_error
eval("(".repeat(1000000) + ")".repeat(1000000));
