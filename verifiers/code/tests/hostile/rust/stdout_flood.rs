// expect: output_limit
use std::io::Write;
fn main() {
    let mut out = std::io::stdout().lock();
    let line = [b'x'; 4096];
    loop {
        if out.write_all(&line).is_err() {
            break;
        }
    }
}
