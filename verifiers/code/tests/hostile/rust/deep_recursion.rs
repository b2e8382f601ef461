// expect: runtime_error
// Each level keeps a frame the next one's result is combined with, so the optimiser cannot turn
// the recursion into a loop; the stack runs out long before the depth does.
fn depth(n: u64) -> u64 {
    let mut frame = [0u64; 32];
    frame[(n % 32) as usize] = n;
    if n == 0 {
        return 0;
    }
    let below = depth(n - 1);
    below + frame[(below % 32) as usize] % 2
}
fn main() {
    println!("{}", depth(u64::MAX / 2));
}
