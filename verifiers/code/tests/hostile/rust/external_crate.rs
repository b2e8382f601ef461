// expect: compile_error
use rand::Rng;
fn main() {
    println!("{}", rand::thread_rng().gen::<u8>());
}
