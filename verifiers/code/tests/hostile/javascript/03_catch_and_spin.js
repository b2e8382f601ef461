// expect: time_limit
for (;;) {
    try {
        for (;;) {}
    } catch (e) {}
}
