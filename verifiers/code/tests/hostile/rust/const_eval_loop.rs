// expect: compile_error
// Endless work at compile time: rustc's const evaluator gives up (or the compiler meets its CPU
// limit); either way the source does not compile.
const fn spin() -> u64 {
    let mut i: u64 = 0;
    loop {
        i = i.wrapping_add(1);
        if i == 0 {
            return i;
        }
    }
}
const N: u64 = spin();
fn main() {
    println!("{N}");
}
