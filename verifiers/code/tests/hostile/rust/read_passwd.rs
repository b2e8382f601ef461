// expect: runtime_error
fn main() {
    let text = std::fs::read_to_string("/etc/passwd").unwrap();
    println!("{}", text.len());
}
