// The C++ runtime linked into every C++ submission: what a `throw` does without unwinding.
//
// Debian's wasm32 libc++abi is built without exceptions (no `__cxa_throw`, no personality
// routine, no libunwind), and wasmtime 48 runs only the new exception-handling encoding, which
// clang 14 does not emit. Submissions are therefore compiled with `-fignore-exceptions`: `throw`
// compiles (to `__cxa_allocate_exception` and `__cxa_throw`, defined here) and `try`/`catch`
// compile, but handlers are dropped. Every throw ends the program as an uncaught exception does
// under libstdc++, on standard error:
//
//   terminate called after throwing an instance of 'std::runtime_error'
//     what():  bad
//
// then `abort()` (a trap: a `runtime_error` verdict, like a failed `assert`).
//
// The definitions of `operator new` here are weak, so a program's own replace them.
#include <cxxabi.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <typeinfo>

namespace __cxxabiv1 {
// Same layout as libc++abi's private_typeinfo.h: only used to reach the virtual can_catch()
// that the real personality routine uses to match a handler (derived-to-base, pointers, ...).
class __shim_type_info : public std::type_info {
public:
    ~__shim_type_info() override;
    virtual void noop1() const;
    virtual void noop2() const;
    virtual bool can_catch(const __shim_type_info* thrown_type, void*& adjusted) const = 0;
};
}  // namespace __cxxabiv1

namespace {
void say(const char* s) { fputs(s, stderr); }

[[noreturn]] void die() {
    fflush(stdout);  // keep what the program printed before the throw
    fflush(stderr);
    abort();
}

// The std::exception base of the thrown object, or null when the type does not derive from it.
const std::exception* as_exception(void* thrown, const std::type_info* type) {
    using __cxxabiv1::__shim_type_info;
    void* adjusted = thrown;
    auto& target = static_cast<const __shim_type_info&>(typeid(std::exception));
    if (target.can_catch(static_cast<const __shim_type_info*>(type), adjusted))
        return static_cast<const std::exception*>(adjusted);
    return nullptr;
}
}  // namespace

extern "C" {

void* __cxa_allocate_exception(size_t size) throw() {
    void* p = calloc(1, size ? size : 1);
    if (!p) {
        say("terminate called after throwing an exception: out of memory\n");
        die();
    }
    return p;
}

void __cxa_free_exception(void* thrown) throw() { free(thrown); }

void __cxa_throw(void* thrown, std::type_info* type, void (*)(void*)) {
    static bool throwing = false;  // a throw from what() itself
    say("terminate called after throwing an instance of '");
    int status = -1;
    char* name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
    say(status == 0 && name ? name : type->name());
    say("'\n");
    if (!throwing) {
        throwing = true;
        if (const std::exception* e = as_exception(thrown, type)) {
            say("  what():  ");
            say(e->what());
            say("\n");
        }
    }
    die();
}

void __cxa_rethrow() {
    say("terminate called without an active exception\n");
    die();
}

}  // extern "C"

// libc++abi's no-exceptions operator new returns nullptr when malloc fails (the program then
// writes through address 0, which is valid wasm memory). Report std::bad_alloc instead.
__attribute__((weak)) void* operator new(size_t size) {
    if (size == 0) size = 1;
    void* p;
    while (!(p = malloc(size))) {
        std::new_handler handler = std::get_new_handler();
        if (!handler) throw std::bad_alloc();
        handler();
    }
    return p;
}
__attribute__((weak)) void* operator new[](size_t size) { return ::operator new(size); }
__attribute__((weak)) void* operator new(size_t size, const std::nothrow_t&) noexcept { return malloc(size ? size : 1); }
__attribute__((weak)) void* operator new[](size_t size, const std::nothrow_t&) noexcept { return malloc(size ? size : 1); }
