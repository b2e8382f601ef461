// expect: wrong_answer
#include <stdio.h>
int main(void) {
    FILE *f = fopen("/tmp/referee-pwned", "w");
    if (f) { fputs("pwned", f); fclose(f); puts("ok"); }
    return 0;
}
