// expect: runtime_error
fn main() {
    let handle = std::thread::spawn(|| 40 + 2);
    println!("{}", handle.join().unwrap());
}
