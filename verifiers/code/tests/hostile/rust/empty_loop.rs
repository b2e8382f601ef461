// expect: time_limit
#[allow(clippy::empty_loop)]
fn main() {
    loop {}
}
