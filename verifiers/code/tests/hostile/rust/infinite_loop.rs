// expect: time_limit
fn main() {
    let mut x: u64 = 0;
    loop {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        if x == 42 {
            break;
        }
    }
    println!("{x}");
}
