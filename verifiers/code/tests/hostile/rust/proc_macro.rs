// expect: compile_error
// A procedural macro runs inside the compiler; a program cannot define one (it would need a
// crate of its own, and the build has only this file).
extern crate proc_macro;
use proc_macro::TokenStream;
#[proc_macro]
pub fn make_answer(_item: TokenStream) -> TokenStream {
    "fn answer() -> u32 { 42 }".parse().unwrap()
}
fn main() {
    println!("ok");
}
