// expect: output_limit
fn main() {
    loop {
        eprintln!("{}", "y".repeat(4096));
    }
}
