// expect: time_limit
int main(void) { volatile unsigned long i = 0; for (;;) i++; }
