// expect: wrong_answer
#include <stdio.h>
int main(void) {
    FILE *f = fopen("/etc/passwd", "r");
    if (f) { char b[256]; while (fgets(b, sizeof b, f)) fputs(b, stdout); }
    return 0;
}
