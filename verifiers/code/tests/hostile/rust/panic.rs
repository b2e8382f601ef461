// expect: runtime_error
fn main() {
    let v: Vec<i32> = Vec::new();
    let i = std::env::args().count() + 3;
    println!("{}", v[i]);
}
