// expect: compile_error
// A 256 MiB initialised static is written out as a data segment, which runs into the compiler's
// 64 MiB output-file limit: the compile fails at a limit instead of filling the disk.
static BIG: [u8; 256 << 20] = [1; 256 << 20];
fn main() {
    println!("{}", BIG[std::env::args().count()]);
}
