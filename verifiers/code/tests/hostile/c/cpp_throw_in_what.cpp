// expect: runtime_error
// what() itself throws while the runtime reports the first exception.
#include <exception>
struct Nasty : std::exception {
    const char* what() const noexcept override { throw Nasty(); }
};
int main() { throw Nasty(); }
