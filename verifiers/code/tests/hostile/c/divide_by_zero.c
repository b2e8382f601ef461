// expect: runtime_error
#include <stdio.h>
int main(void) { volatile int z = 0; printf("%d\n", 1 / z); return 0; }
