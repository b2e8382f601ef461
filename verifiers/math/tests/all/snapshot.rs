//! The one-line form of a verdict that the snapshot files hold: status, score and details, with
//! the details' keys sorted so that the text does not depend on the map's order.

use referee_core::Verdict;
use serde_json::Value;

/// `status score {details}`, the details left out when there are none.
pub fn line(verdict: &Verdict) -> String {
    if verdict.details.is_empty() {
        return format!("{} {}", verdict.status, verdict.score);
    }
    let details = sorted(&Value::Object(verdict.details.clone()));
    format!("{} {} {details}", verdict.status, verdict.score)
}

/// The status a row's label asks for.
pub fn expected(credited: bool) -> &'static str {
    if credited { "correct" } else { "incorrect" }
}

fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|key| (key.clone(), sorted(&map[key.as_str()]))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => value.clone(),
    }
}
