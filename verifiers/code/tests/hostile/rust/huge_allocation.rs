// expect: memory_limit
// One allocation over the cap: the allocator's failure aborts the program.
fn main() {
    let big = vec![7u8; 1 << 30];
    println!("{}", big[12345]);
}
