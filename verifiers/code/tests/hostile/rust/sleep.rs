// expect: time_limit
fn main() {
    std::thread::sleep(std::time::Duration::from_secs(3600));
    println!("ok");
}
