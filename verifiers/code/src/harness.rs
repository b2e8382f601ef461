//! The Python harnesses that run after the program, in its namespace.
//!
//! A harness reports through `__referee_report__`, never through standard output, so what the
//! program prints cannot forge a result. Returned values are serialised to JSON in the guest and
//! compared on the host.

use serde_json::Value;

/// Whether `name` is a plain Python identifier (ASCII), safe to splice into a harness.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Calls `entry_point(*args)` for each case and reports `[{"value": v} | {"error": "..."}]`, or
/// `{"missing": true}` when the program defines no such function.
pub fn function_calls(entry_point: &str, cases: &[Vec<Value>]) -> String {
    let cases = serde_json::to_string(&serde_json::to_string(cases).unwrap_or_default()).unwrap_or_default();
    format!(
        r#"
def __referee_harness():
    import json as _json
    def plain(value):
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        if isinstance(value, dict):
            return {{str(k): plain(v) for k, v in value.items()}}
        return value
    def encode(value):
        try:
            return {{"value": _json.loads(_json.dumps(plain(value), allow_nan=False))}}
        except BaseException:
            try:
                return {{"repr": repr(value)[:200]}}
            except BaseException:
                return {{"repr": "<unprintable>"}}
    def describe(error):
        try:
            return (type(error).__name__ + ": " + str(error))[:300]
        except BaseException:
            return type(error).__name__
    function = globals().get({entry:?})
    if not callable(function):
        return _json.dumps({{"missing": True}})
    results = []
    for args in _json.loads({cases}):
        try:
            value = function(*args)
        except BaseException as error:
            results.append({{"error": describe(error)}})
            continue
        results.append(encode(value))
    return _json.dumps(results)
__referee_report__ = __referee_harness()
"#,
        entry = entry_point,
    )
}

/// Runs a HumanEval-style `check(candidate)` on the entry point; the run passes when it returns.
pub fn check_program(check: &str, entry_point: &str) -> String {
    format!("{check}\n\ncheck(globals()[{entry_point:?}])\n__referee_report__ = 'checked'\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert!(is_identifier("has_close_elements"));
        assert!(is_identifier("_f2"));
        assert!(!is_identifier("2f"));
        assert!(!is_identifier("f(); import os"));
        assert!(!is_identifier(""));
    }
}
