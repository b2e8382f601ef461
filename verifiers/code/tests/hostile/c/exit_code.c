// expect: runtime_error
#include <stdlib.h>
int main(void) { exit(3); }
