// expect: runtime_error
int f(volatile int n) { volatile char pad[256]; pad[0] = (char)n; return f(n + 1) + pad[0]; }
int main(void) { return f(0); }
