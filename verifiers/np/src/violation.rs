//! Typed reasons an answer is rejected, each with an optional witness.

use referee_core::utoipa::{self, ToSchema};
use serde::Serialize;
use serde_json::Value;

/// Why an answer failed, as a stable machine-readable code.
///
/// The first three mean nothing usable was parsed (reward as unparsable); the rest mean the
/// answer parsed but is not a feasible solution of the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No answer region was found in the response.
    NoAnswer,
    /// The answer region holds no structure of the shape the task asks for.
    ParseError,
    /// The answer exceeds a parsing cap (bytes, elements, nesting depth, integer size).
    TooLarge,
    /// The answer has the wrong number of entries (tour length, one colour per vertex, ...).
    WrongLength,
    /// An index or label lies outside the instance (vertex 12 of 10, machine 5 of 3).
    OutOfRange,
    /// An element occurs more than once where each may occur at most once.
    Duplicate,
    /// A required element is absent (uncovered element, unvisited customer, unset variable).
    MissingElement,
    /// A problem-specific constraint fails (an edge inside an independent set, an overfull bin).
    ConstraintViolation,
}

impl ErrorKind {
    /// The wire name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::NoAnswer => "no_answer",
            ErrorKind::ParseError => "parse_error",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::WrongLength => "wrong_length",
            ErrorKind::OutOfRange => "out_of_range",
            ErrorKind::Duplicate => "duplicate",
            ErrorKind::MissingElement => "missing_element",
            ErrorKind::ConstraintViolation => "constraint_violation",
        }
    }

    /// True when the answer parsed into the task's shape (so it is infeasible, not unparsable).
    pub fn parsed(self) -> bool {
        match self {
            ErrorKind::NoAnswer | ErrorKind::ParseError | ErrorKind::TooLarge => false,
            ErrorKind::WrongLength
            | ErrorKind::OutOfRange
            | ErrorKind::Duplicate
            | ErrorKind::MissingElement
            | ErrorKind::ConstraintViolation => true,
        }
    }
}

/// One rejection: its code, a sentence for humans and, where it helps, a witness (the edge
/// inside the independent set, the overfull bin and its load, the repeated vertex).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// The error code.
    pub kind: ErrorKind,
    /// What went wrong, for logs and feedback-style environments.
    pub message: String,
    /// The smallest piece of the answer or instance that shows the failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<Value>,
}

impl Violation {
    /// A violation without a witness.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Violation { kind, message: message.into(), witness: None }
    }

    /// Attaches a witness.
    pub fn witness(mut self, witness: Value) -> Self {
        self.witness = Some(witness);
        self
    }

    /// Shorthand for a `parse_error`.
    pub fn parse(message: impl Into<String>) -> Self {
        Violation::new(ErrorKind::ParseError, message)
    }

    /// Shorthand for a `wrong_length` with expected and found counts.
    pub fn wrong_length(what: &str, expected: usize, found: usize) -> Self {
        Violation::new(ErrorKind::WrongLength, format!("expected {expected} {what}, found {found}"))
            .witness(serde_json::json!({ "expected": expected, "found": found }))
    }

    /// Shorthand for an `out_of_range` value.
    pub fn out_of_range(what: &str, value: i64, limit: usize) -> Self {
        Violation::new(ErrorKind::OutOfRange, format!("{what} {value} is outside 0..{limit}"))
            .witness(serde_json::json!({ "value": value, "limit": limit }))
    }

    /// Shorthand for a `duplicate` value.
    pub fn duplicate(what: &str, value: usize) -> Self {
        Violation::new(ErrorKind::Duplicate, format!("{what} {value} occurs more than once"))
            .witness(serde_json::json!({ "value": value }))
    }

    /// Shorthand for a `missing_element`.
    pub fn missing(what: &str, value: usize) -> Self {
        Violation::new(ErrorKind::MissingElement, format!("{what} {value} is missing"))
            .witness(serde_json::json!({ "value": value }))
    }

    /// Shorthand for a `constraint_violation` with a witness.
    pub fn constraint(message: impl Into<String>, witness: Value) -> Self {
        Violation::new(ErrorKind::ConstraintViolation, message).witness(witness)
    }
}
