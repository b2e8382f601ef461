// expect: compile_error
#include <unistd.h>
int main(void) { fork(); return 0; }
