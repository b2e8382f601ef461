// expect: wrong_answer
// A run has no environment variables and no arguments.
fn main() {
    let seen: Vec<String> = std::env::vars().map(|(k, v)| format!("{k}={v}")).chain(std::env::args()).collect();
    println!("{seen:?}");
}
