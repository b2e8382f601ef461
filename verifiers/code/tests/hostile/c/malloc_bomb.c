// expect: memory_limit
// The volatile global keeps clang from eliding the allocations; malloc fails at the cap.
#include <stdlib.h>
#include <string.h>
char *volatile keep;
int main(void) {
    for (;;) { char *p = malloc(1 << 20); if (!p) return 3; memset(p, 1, 1 << 20); keep = p; }
}
