// expect: compile_error
// Read at compile time: the compiler's confinement shows it an empty /etc.
const PASSWD: &str = include_str!("/etc/passwd");
fn main() {
    println!("{}", PASSWD.len());
}
