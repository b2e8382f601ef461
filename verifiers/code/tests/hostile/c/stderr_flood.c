// expect: output_limit
#include <stdio.h>
int main(void) { for (;;) fputs("eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\n", stderr); }
