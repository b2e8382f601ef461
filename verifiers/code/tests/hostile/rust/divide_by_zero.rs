// expect: runtime_error
fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let zero = line.len() as i32;
    println!("{}", 10 / zero);
}
