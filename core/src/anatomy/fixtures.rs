//! The shared fixture of responses and their expected anatomy (`core/tests/fixtures/anatomy.jsonl`),
//! read by every verifier's tests so that all of them are held to the same reading.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Anatomy, Marker};

/// One response and the anatomy the policy gives it. Expected values are written by hand.
#[derive(Debug, Clone, Deserialize)]
pub struct FixtureRow {
    /// What the row shows.
    pub name: String,
    /// The model's response.
    pub response: String,
    /// The reasoning text, when there is a reasoning block.
    pub reasoning: Option<String>,
    /// True when the reasoning never closed.
    pub unclosed: bool,
    /// The final text.
    #[serde(rename = "final")]
    pub final_text: String,
    /// The text of each marker's candidate, untrimmed; absent markers are absent.
    pub candidates: BTreeMap<Marker, String>,
    /// The answer a verifier that accepts every marker reads: the highest-priority candidate,
    /// trimmed (an answer line's first line). `None` when there is no candidate.
    pub answer: Option<String>,
}

/// Every row of the fixture file.
pub fn rows() -> Vec<FixtureRow> {
    const FILE: &str = include_str!("../../tests/fixtures/anatomy.jsonl");
    FILE.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .map(|(i, line)| serde_json::from_str(line).unwrap_or_else(|e| panic!("anatomy.jsonl line {}: {e}", i + 1)))
        .collect()
}

/// The answer text of the highest-priority candidate among `markers`, read as [`FixtureRow::answer`]
/// is: trimmed, an answer line's first line.
pub fn answer_among<'a>(anatomy: &Anatomy<'a>, markers: &[Marker]) -> Option<&'a str> {
    let found = anatomy.first_of(markers)?;
    Some(found.answer().trim())
}
