//! The response anatomy against the shared fixture: every part of every row.

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
