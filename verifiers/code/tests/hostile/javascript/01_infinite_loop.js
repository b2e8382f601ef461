// expect: time_limit
for (;;) {}
