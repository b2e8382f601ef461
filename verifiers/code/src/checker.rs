//! Output comparison. Every checker compares the whole output: a correct prefix is not a pass.

use serde_json::Value;

use crate::input::CheckerKind;

/// Tolerances of the `float` checker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    pub abs: f64,
    pub rel: f64,
}

/// Whether `output` matches `expected` under a text checker (`program` is handled by the caller).
pub fn outputs_match(kind: CheckerKind, expected: &str, output: &str, tolerance: Tolerance) -> bool {
    match kind {
        CheckerKind::Exact => expected == output,
        CheckerKind::Lines | CheckerKind::Program => lines(expected).eq(lines(output)),
        CheckerKind::Tokens => expected.split_whitespace().eq(output.split_whitespace()),
        CheckerKind::Float => {
            let (mut want, mut got) = (expected.split_whitespace(), output.split_whitespace());
            loop {
                match (want.next(), got.next()) {
                    (None, None) => return true,
                    (Some(w), Some(g)) if tokens_match(w, g, tolerance) => {}
                    (Some(_) | None, Some(_) | None) => return false,
                }
            }
        }
    }
}

/// Lines with trailing whitespace removed, trailing blank lines dropped.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let trimmed = text.trim_end();
    let mut all = trimmed.split('\n').map(str::trim_end);
    let empty = trimmed.is_empty();
    std::iter::from_fn(move || if empty { None } else { all.next() })
}

fn tokens_match(expected: &str, got: &str, tolerance: Tolerance) -> bool {
    if expected == got {
        return true;
    }
    match (expected.parse::<f64>(), got.parse::<f64>()) {
        (Ok(e), Ok(g)) => floats_match(e, g, tolerance),
        (Ok(_) | Err(_), Ok(_) | Err(_)) => false,
    }
}

fn floats_match(expected: f64, got: f64, tolerance: Tolerance) -> bool {
    if expected.is_nan() || got.is_nan() {
        return expected.is_nan() && got.is_nan();
    }
    if expected == got {
        return true;
    }
    let diff = (expected - got).abs();
    diff <= tolerance.abs || diff <= tolerance.rel * expected.abs()
}

/// Whether a returned value (as the harness serialised it) equals the expected one. Integers and
/// floats compare by value (`1 == 1.0`); with `tolerance`, floats within it are equal.
pub fn values_match(expected: &Value, got: &Value, tolerance: Option<Tolerance>) -> bool {
    match (expected, got) {
        (Value::Number(e), Value::Number(g)) => {
            if let (Some(e), Some(g)) = (e.as_i64(), g.as_i64()) {
                return e == g;
            }
            if let (Some(e), Some(g)) = (e.as_u64(), g.as_u64()) {
                return e == g;
            }
            match (e.as_f64(), g.as_f64(), tolerance) {
                (Some(e), Some(g), Some(t)) => floats_match(e, g, t),
                (Some(e), Some(g), None) => e == g,
                _ => false,
            }
        }
        (Value::Array(e), Value::Array(g)) => {
            e.len() == g.len() && e.iter().zip(g).all(|(e, g)| values_match(e, g, tolerance))
        }
        (Value::Object(e), Value::Object(g)) => {
            e.len() == g.len() && e.iter().all(|(k, v)| g.get(k).is_some_and(|gv| values_match(v, gv, tolerance)))
        }
        (Value::Null, Value::Null) => true,
        (Value::Bool(e), Value::Bool(g)) => e == g,
        (Value::String(e), Value::String(g)) => e == g,
        (
            Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_) | Value::Object(_),
            _,
        ) => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const TOL: Tolerance = Tolerance { abs: 1e-6, rel: 1e-6 };

    #[test]
    fn a_correct_prefix_is_not_a_pass() {
        for kind in [CheckerKind::Exact, CheckerKind::Lines, CheckerKind::Tokens, CheckerKind::Float] {
            assert!(!outputs_match(kind, "1\n2\n3\n", "1\n2\n", TOL), "{kind:?}");
            assert!(!outputs_match(kind, "1\n2\n", "1\n2\n3\n", TOL), "{kind:?}");
            assert!(outputs_match(kind, "1\n2\n", "1\n2\n", TOL), "{kind:?}");
        }
    }

    #[test]
    fn checkers_differ_in_what_they_forgive() {
        assert!(!outputs_match(CheckerKind::Exact, "a b\n", "a b", TOL));
        assert!(outputs_match(CheckerKind::Lines, "a b\n", "a b  \n\n", TOL));
        assert!(!outputs_match(CheckerKind::Lines, "a b\n", "a  b\n", TOL));
        assert!(!outputs_match(CheckerKind::Lines, "A\n", "a\n", TOL), "comparison is case-sensitive");
        assert!(outputs_match(CheckerKind::Tokens, "a b\n", "a\n  b", TOL));
        assert!(outputs_match(CheckerKind::Float, "0.3333333 x", "0.33333333333 x", TOL));
        assert!(!outputs_match(CheckerKind::Float, "0.3333", "0.3334", TOL));
        assert!(outputs_match(CheckerKind::Lines, "", "\n\n", TOL));
        assert!(!outputs_match(CheckerKind::Lines, "", "x", TOL));
    }

    #[test]
    fn values_compare_by_value() {
        assert!(values_match(&json!([1, [2, 3]]), &json!([1, [2, 3]]), None));
        assert!(values_match(&json!(1), &json!(1.0), None));
        assert!(!values_match(&json!([1, 2]), &json!([1, 2, 3]), None));
        assert!(!values_match(&json!(0.1), &json!(0.1000001), None));
        assert!(values_match(&json!(0.1), &json!(0.1000001), Some(TOL)));
        assert!(!values_match(&json!(true), &json!(1), None));
        assert!(!values_match(&json!("1"), &json!(1), None));
    }
}
