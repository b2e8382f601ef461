use super::parse;

#[test]
fn debug_print() {
    for s in ["\\\\left(\\\\frac{1}{5},\\\\frac{1}{6}\\\\right)", "-2 \\\\le x \\\\le 7"] {
        let n = crate::latex::normalize(s);
        println!("{s} => {n} => {:?}", crate::lexer::tokenize(&n, false));
        println!("{:?}", parse(s, false));
    }
}
