// expect: runtime_error
// Address 0 is ordinary memory in WebAssembly; a write far past the end of memory traps.
fn main() {
    let p = usize::MAX - 7;
    unsafe { std::ptr::write_volatile(p as *mut u64, 1) };
    println!("ok");
}
