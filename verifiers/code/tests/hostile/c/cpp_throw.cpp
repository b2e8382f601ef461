// expect: runtime_error
// Exceptions do not unwind in the sandbox: the throw ends the program and the handler never runs.
#include <stdexcept>
int main() { try { throw std::runtime_error("x"); } catch (...) { return 1; } }
