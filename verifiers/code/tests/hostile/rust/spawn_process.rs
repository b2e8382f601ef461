// expect: runtime_error
fn main() {
    let out = std::process::Command::new("/bin/sh").arg("-c").arg("touch /tmp/referee-pwned").output().unwrap();
    println!("{}", out.status);
}
