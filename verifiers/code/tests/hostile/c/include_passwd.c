// expect: compile_error
#include "/etc/passwd"
int main(void) { return 0; }
