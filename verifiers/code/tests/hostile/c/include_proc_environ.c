// expect: compile_error
#include "/proc/1/environ"
int main(void) { return 0; }
