// expect: time_limit
#include <unistd.h>
#include <stdio.h>
int main(void) { sleep(1000); puts("ok"); return 0; }
