//! Each text verifier on every row of the shared anatomy fixture, one verdict per line. The
//! reference is the row's answer as the fixture states it (the trimmed final text where the row
//! has no marked answer), so a change in what a verifier reads from a response shows up as a
//! changed line.

use referee_core::anatomy::fixtures::{FixtureRow, rows};
use referee_core::{Budget, Verifier};
use referee_text::{ExactMatch, MultipleChoice, RegexMatch};
use serde_json::{Value, json};

/// The extraction modes of `exact-match` and `regex-match`, in the order of their documentation.
const EXTRACTIONS: [&str; 6] = ["none", "answer_tag", "boxed", "answer_line", "gsm8k_marker", "auto"];

fn reference(row: &FixtureRow) -> String {
    row.answer.clone().unwrap_or_else(|| row.final_text.trim().to_owned())
}

/// Judges JSON items as the server's inputs, one line per item: `label: verdict`.
fn verdicts<V: Verifier>(verifier: &V, labelled: Vec<(String, Value)>) -> String {
    let inputs: Vec<V::Input> = labelled
        .iter()
        .map(|(label, item)| serde_json::from_value(item.clone()).unwrap_or_else(|e| panic!("{label}: {e}")))
        .collect();
    let judged = verifier.verify_batch(&inputs, &Budget::unlimited());
    assert_eq!(judged.len(), labelled.len());
    labelled
        .iter()
        .zip(&judged)
        .map(|((label, _), verdict)| format!("{label}: {}\n", verdict.snapshot_line()))
        .collect()
}

#[test]
fn exact_match_on_every_row_and_extraction() {
    let mut items = Vec::new();
    for row in rows() {
        for extract in EXTRACTIONS {
            let item = json!({"response": row.response, "reference": reference(&row), "extract": extract});
            items.push((format!("{} / {extract}", row.name), item));
        }
    }
    insta::assert_snapshot!("exact_match", verdicts(&ExactMatch, items));
}

#[test]
fn regex_match_on_every_row_and_extraction() {
    let mut items = Vec::new();
    for row in rows() {
        for extract in EXTRACTIONS {
            let item = json!({"response": row.response, "pattern": r"[0-9]+", "extract": extract});
            items.push((format!("{} / {extract}", row.name), item));
        }
    }
    insta::assert_snapshot!("regex_match", verdicts(&RegexMatch, items));
}

/// The row's answer is option B's text, so a response that reads as the fixture says chooses B.
#[test]
fn multiple_choice_on_every_row() {
    let items = rows()
        .into_iter()
        .map(|row| {
            let options = ["none of the others".to_owned(), reference(&row)];
            let item = json!({"response": row.response, "reference": "B", "options": options});
            (row.name, item)
        })
        .collect();
    insta::assert_snapshot!("multiple_choice", verdicts(&MultipleChoice, items));
}
