// expect: runtime_error
fn main() {
    std::fs::write("/tmp/referee-pwned", b"pwned").unwrap();
    println!("ok");
}
