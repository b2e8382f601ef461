// expect: output_limit
#include <stdio.h>
int main(void) { for (;;) puts("yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"); }
