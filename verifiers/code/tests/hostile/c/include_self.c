// expect: compile_error
#include "/tmp/source"
int main(void) { return 0; }
