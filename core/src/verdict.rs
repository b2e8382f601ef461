use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// The outcome class of one scored item.
///
/// Trainers use it to tell a wrong answer (`incorrect`) from an item the scorer could not judge
/// (`invalid_input`, `internal_error`), and to mask the latter instead of training on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The answer is right.
    Correct,
    /// The answer earns part of the reward (e.g. a feasible but sub-optimal solution).
    Partial,
    /// The answer was understood and is wrong.
    Incorrect,
    /// No answer could be extracted or parsed from the response.
    Unparseable,
    /// The item ran out of time.
    Timeout,
    /// The item exceeded a memory, fuel, output or size limit.
    ResourceLimit,
    /// The item itself is malformed: unknown verifier, missing field, bad option.
    InvalidInput,
    /// The scorer failed; the item says nothing about the response.
    InternalError,
}

impl Status {
    /// Every status, in declaration order (for metrics and documentation).
    pub const ALL: [Status; 8] = [
        Status::Correct,
        Status::Partial,
        Status::Incorrect,
        Status::Unparseable,
        Status::Timeout,
        Status::ResourceLimit,
        Status::InvalidInput,
        Status::InternalError,
    ];

    /// The wire name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Correct => "correct",
            Status::Partial => "partial",
            Status::Incorrect => "incorrect",
            Status::Unparseable => "unparseable",
            Status::Timeout => "timeout",
            Status::ResourceLimit => "resource_limit",
            Status::InvalidInput => "invalid_input",
            Status::InternalError => "internal_error",
        }
    }

    /// True when the verdict judges the response (as opposed to the item or the scorer failing).
    pub fn is_judgement(self) -> bool {
        match self {
            Status::Correct
            | Status::Partial
            | Status::Incorrect
            | Status::Unparseable
            | Status::Timeout
            | Status::ResourceLimit => true,
            Status::InvalidInput | Status::InternalError => false,
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The judgement of one item: a score, a status and scorer-specific details.
///
/// `details` is always a JSON object; error verdicts carry their reason under `"error"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub score: f64,
    pub status: Status,
    pub details: Map<String, Value>,
}

impl Verdict {
    /// A verdict with the given score and status and no details.
    pub fn new(score: f64, status: Status) -> Self {
        Verdict { score, status, details: Map::new() }
    }

    /// Score 1, `correct`.
    pub fn correct() -> Self {
        Verdict::new(1.0, Status::Correct)
    }

    /// Score 0, `incorrect`.
    pub fn incorrect() -> Self {
        Verdict::new(0.0, Status::Incorrect)
    }

    /// Score 1 when `ok`, else 0.
    pub fn binary(ok: bool) -> Self {
        if ok { Verdict::correct() } else { Verdict::incorrect() }
    }

    /// Score 0 with a non-judging status and the reason under `details.error`.
    pub fn failure(status: Status, reason: impl Into<String>) -> Self {
        Verdict::new(0.0, status).with("error", reason.into())
    }

    /// An `invalid_input` verdict with the reason.
    pub fn invalid_input(reason: impl Into<String>) -> Self {
        Verdict::failure(Status::InvalidInput, reason)
    }

    /// An `internal_error` verdict with the reason.
    pub fn internal_error(reason: impl Into<String>) -> Self {
        Verdict::failure(Status::InternalError, reason)
    }

    /// An `unparseable` verdict with the reason.
    pub fn unparseable(reason: impl Into<String>) -> Self {
        Verdict::failure(Status::Unparseable, reason)
    }

    /// A `timeout` verdict.
    pub fn timeout() -> Self {
        Verdict::failure(Status::Timeout, "the item's time budget ran out")
    }

    /// Adds one detail; values that fail to serialise are recorded as their error text.
    pub fn with(mut self, key: &str, value: impl Serialize) -> Self {
        let value = serde_json::to_value(value).unwrap_or_else(|e| Value::String(e.to_string()));
        self.details.insert(key.to_owned(), value);
        self
    }

    /// True when the score is finite and within [lo, hi].
    pub fn score_in(&self, lo: f64, hi: f64) -> bool {
        self.score.is_finite() && self.score >= lo && self.score <= hi
    }
}

#[cfg(feature = "fixtures")]
impl Verdict {
    /// The one-line form of this verdict that the crates' snapshot files hold: `status score
    /// {details}` (the details left out when there are none), the details' keys sorted so that
    /// the text does not depend on the map's order.
    pub fn snapshot_line(&self) -> String {
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
        if self.details.is_empty() {
            return format!("{} {}", self.status, self.score);
        }
        format!("{} {} {}", self.status, self.score, sorted(&Value::Object(self.details.clone())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_status_at_its_discriminant() {
        for (i, status) in Status::ALL.iter().enumerate() {
            assert_eq!(*status as usize, i);
            let json = serde_json::to_value(status).unwrap_or_default();
            assert_eq!(json, status.as_str());
        }
    }
}
