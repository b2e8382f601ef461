// expect: compile_error
#include <stdexcept>
int main() { try { throw std::runtime_error("x"); } catch (...) { return 1; } }
