// expect: compile_error
static char big[1u << 31];
int main(void) { big[12345] = 1; return big[0]; }
