// expect: compile_error
#![feature(never_type)]
fn main() {
    println!("ok");
}
