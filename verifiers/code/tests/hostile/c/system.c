// expect: compile_error
#include <stdlib.h>
int main(void) { return system("id"); }
