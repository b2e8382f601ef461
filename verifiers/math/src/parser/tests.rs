use super::parse;
use crate::ast::{ListKind, Node};

fn shape(s: &str) -> String {
    match parse(s, false) {
        Ok(n) => n.to_string(),
        Err(e) => format!("error: {}", e.0),
    }
}

#[test]
fn latex_fractions_roots_and_powers() {
    assert_eq!(shape("\\frac12"), "(1 / 2)");
    assert_eq!(shape("\\dfrac{3}{4}"), "(3 / 4)");
    assert_eq!(shape("\\sqrt3"), "sqrt(3)");
    assert_eq!(shape("\\sqrt[3]{x}"), "root(x, 3)");
    assert_eq!(shape("x^23"), "((x)^(2) * 3)");
    assert_eq!(shape("2^{10}"), "(2)^(10)");
}

#[test]
fn implicit_multiplication_and_functions() {
    assert_eq!(shape("2x"), "(2 * x)");
    assert_eq!(shape("2\\sin b \\cos a"), "(2 * sin(b) * cos(a))");
    assert_eq!(shape("\\sin^2 x"), "(sin(x))^(2)");
    assert_eq!(shape("f(x)"), "f(x)");
    assert_eq!(shape("x(x+1)"), "(x * (x + 1))");
    assert_eq!(shape("\\log_2 8"), "log(8, 2)");
}

#[test]
fn numbers_in_their_written_forms() {
    assert_eq!(shape("1,000,000"), "1000000");
    assert_eq!(parse("2,75", true).map(|n| n.to_string()), Ok("(11/4)".to_owned()));
    assert_eq!(parse("2,5", true).map(|n| n.to_string()), Ok("2, 5".to_owned()));
    assert_eq!(shape("0.\\overline{3}"), "(1/3)");
    assert_eq!(shape("204_5"), "54");
    assert_eq!(shape("3\\frac{1}{2}"), "(3 + (1 / 2))");
    assert!(shape("29_2").starts_with("error"));
}

#[test]
fn structures() {
    assert!(matches!(parse("1, 2, 3", false), Ok(Node::List(v, ListKind::Comma)) if v.len() == 3));
    assert!(matches!(parse("(1, 2]", false), Ok(Node::Interval { lo_closed: false, hi_closed: true, .. })));
    assert!(matches!(parse("\\{1, 2\\}", false), Ok(Node::Set(v)) if v.len() == 2));
    assert!(matches!(parse("(1, 2)", false), Ok(Node::Tuple(v)) if v.len() == 2));
    assert!(matches!(parse("[0,1) \\cup (2, 3]", false), Ok(Node::Union(v)) if v.len() == 2));
    assert!(
        matches!(parse("\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}", false), Ok(Node::Matrix(r)) if r.len() == 2)
    );
    assert!(matches!(parse("a < b \\le c", false), Ok(Node::Relation { ops, .. }) if ops.len() == 2));
    assert!(matches!(parse("1 and 2", false), Ok(Node::List(v, ListKind::Alternatives)) if v.len() == 2));
    assert!(matches!(parse("\\text{odd}", false), Ok(Node::Text(t)) if t == "odd"));
}

#[test]
fn units_percent_and_degrees_are_read_off() {
    assert_eq!(shape("15\\text{ cm}^2"), "15");
    assert_eq!(shape("28\\%"), "28%");
    assert_eq!(shape("28 percent"), "28%");
    assert_eq!(shape("90^\\circ"), "90°");
}

#[test]
fn prose_and_nesting_are_refused() {
    assert!(parse("we find that x is 3", false).is_err());
    let deep = format!("{}1{}", "(".repeat(200), ")".repeat(200));
    assert!(parse(&deep, false).is_err());
    assert!(parse(&"1+".repeat(5000), false).is_err());
}
