// expect: memory_limit
// operator new throws std::bad_alloc at the memory cap instead of returning null.
#include <vector>
int main() { std::vector<std::vector<char>> keep; for (;;) keep.emplace_back(1 << 20, 1); }
