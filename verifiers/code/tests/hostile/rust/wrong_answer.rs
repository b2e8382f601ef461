// expect: wrong_answer
fn main() {
    println!("not ok");
}
