// expect: memory_limit
fn main() {
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    loop {
        chunks.push(vec![1u8; 16 << 20]);
    }
}
