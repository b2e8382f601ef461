// expect: compile_error
// The compiler runs with a cleared environment: the server's variables are not there to read at
// compile time.
const HOME: &str = env!("HOME");
fn main() {
    println!("{HOME}");
}
