// expect: runtime_error
use std::net::TcpStream;
fn main() {
    let stream = TcpStream::connect("127.0.0.1:5432").unwrap();
    println!("{stream:?}");
}
