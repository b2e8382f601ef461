// expect: compile_error
// Exponential macro expansion: rustc's recursion limit, or the compiler's limits, stop it.
macro_rules! twice {
    () => { 1 };
    ($first:tt $($rest:tt)*) => { twice!($($rest)*) + twice!($($rest)*) };
}
fn main() {
    println!("{}", twice!(a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a));
}
