// expect: compile_error
#include </etc/shadow>
int main(void) { return 0; }
