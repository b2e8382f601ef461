// expect: wrong_answer
// The compiler runs in its own PID namespace, so /proc/1 is the confined compiler's own shell
// (environment: PATH only), and clang reads /proc files as empty: the include adds nothing and
// the program compiles, prints nothing and fails the test. Nothing of the host's leaks.
#include "/proc/1/environ"
int main(void) { return 0; }
