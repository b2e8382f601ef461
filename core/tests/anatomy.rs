//! The response anatomy against the shared fixture: every part of every row, as the fixture
//! states it and as pinned in `snapshots/anatomy__anatomy.snap`.

use referee_core::anatomy::fixtures::{answer_among, rows};
use referee_core::anatomy::{Anatomy, Marker};

#[test]
fn every_fixture_row_reads_as_written() {
    let rows = rows();
    assert!(rows.len() >= 20, "the fixture lost rows");
    for row in rows {
        let anatomy = Anatomy::read(&row.response);
        let name = &row.name;
        assert_eq!(anatomy.reasoning(), row.reasoning.as_deref(), "{name}: reasoning");
        assert_eq!(anatomy.reasoning_unclosed(), row.unclosed, "{name}: unclosed");
        assert_eq!(anatomy.final_text(), row.final_text, "{name}: final text");
        for marker in Marker::ALL {
            let found = anatomy.get(marker).map(|c| c.text);
            assert_eq!(found, row.candidates.get(&marker).map(String::as_str), "{name}: {}", marker.as_str());
        }
        for candidate in anatomy.candidates() {
            assert_eq!(&row.response[candidate.span.clone()], candidate.text, "{name}: span");
        }
        assert_eq!(answer_among(&anatomy, &Marker::ALL), row.answer.as_deref(), "{name}: answer");
    }
}

/// Every row's reading on one line: reasoning, whether it closed, the final text, each candidate
/// with its byte range, every box with its offset, and the answer.
#[test]
fn every_fixture_row_reads_as_in_the_snapshot() {
    let mut lines = String::new();
    for row in rows() {
        let anatomy = Anatomy::read(&row.response);
        let candidates: Vec<String> = anatomy
            .candidates()
            .iter()
            .map(|c| format!("{} {:?} at {}..{}", c.marker.as_str(), c.text, c.span.start, c.span.end))
            .collect();
        let boxes: Vec<String> = anatomy.boxes().map(|(text, at)| format!("{text:?} at {at}")).collect();
        lines += &format!(
            "{}: reasoning {}{}, final {:?}, candidates [{}], boxes [{}], answer {}\n",
            row.name,
            quoted(anatomy.reasoning()),
            if anatomy.reasoning_unclosed() { " (unclosed)" } else { "" },
            anatomy.final_text(),
            candidates.join(", "),
            boxes.join(", "),
            quoted(answer_among(&anatomy, &Marker::ALL)),
        );
    }
    insta::assert_snapshot!("anatomy", lines);
}

/// The text in quotes with Rust's escapes, or `none`.
fn quoted(text: Option<&str>) -> String {
    text.map_or_else(|| "none".to_owned(), |t| format!("{t:?}"))
}
