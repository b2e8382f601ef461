// expect: runtime_error
// Both operands are volatile, so clang cannot fold the division away; wasm's i32.div_s traps.
#include <stdio.h>
int main(void) { volatile int n = 7, z = 0; printf("%d\n", n / z); return 0; }
