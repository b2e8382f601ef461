// expect: compile_error
// A 256 MiB zero-initialised array: clang writes it out as a data segment, which runs into the
// compiler's 64 MiB output-file limit, so the compile fails at a limit instead of filling the
// disk. The volatile pointer keeps clang from removing the array.
static char big[1u << 28];
int main(void) { volatile char *p = big; p[12345] = 1; return p[0]; }
