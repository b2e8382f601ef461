// expect: runtime_error
fn main() {
    println!("ok");
    std::process::exit(3);
}
