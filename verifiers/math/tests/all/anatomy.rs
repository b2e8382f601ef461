//! The math verifier against the shared response-anatomy fixture, and GSM8K's `####` marker.

use referee_core::anatomy::fixtures::rows;
use referee_core::anatomy::{Anatomy, Marker};
use referee_core::{Budget, Status};
use referee_math::{MathOptions, judge};

fn status(response: &str, reference: &str) -> Status {
    judge(response, reference, &MathOptions::default(), &Budget::unlimited()).status
}

#[test]
fn marked_answers_of_the_fixture_are_read_as_the_anatomy_reads_them() {
    for row in rows() {
        let name = &row.name;
        if row.unclosed {
            // Whatever the reasoning held, an unfinished one has no answer.
            if let Some(reasoned) = row.reasoning.as_deref() {
                assert_ne!(status(&row.response, reasoned.trim()), Status::Correct, "{name}");
            }
            assert_ne!(status(&row.response, "7"), Status::Correct, "{name}");
            continue;
        }
        if Anatomy::read(&row.response).boxes().len() > 1 {
            // Several boxes follow the math verifier's own rule (docs/verifiers/math.md).
            continue;
        }
        let primary =
            [Marker::AnswerTag, Marker::Boxed, Marker::Gsm8kMarker].iter().find_map(|m| row.candidates.get(m));
        let (Some(_), Some(answer)) = (primary, row.answer.as_deref()) else { continue };
        let reference = answer.replace(',', "");
        assert_eq!(status(&row.response, &reference), Status::Correct, "{name}: {reference}");
    }
}

#[test]
fn the_gsm8k_marker_wins_over_later_numbers() {
    assert_eq!(status("48 + 24 = 72\n#### 72\nI used 2 steps.", "72"), Status::Correct);
    assert_eq!(status("48 + 24 = 72\n#### 72\nI used 2 steps.", "2"), Status::Incorrect);
    assert_eq!(status("It costs 1,000 + 250.\n#### 1,250", "1250"), Status::Correct);
    assert_eq!(status("#### $18.", "18"), Status::Correct);
}

/// Every GSM8K test-set reference solution (openai/grade-school-math, MIT; see
/// `data/README.md`) against its own final answer, and against that answer plus one: the
/// calculator annotations and the numbers of the working must not win over the `####` marker.
#[test]
fn gsm8k_reference_solutions_match_their_own_answers() {
    #[derive(serde::Deserialize)]
    struct Row {
        answer: String,
    }
    let text = include_str!("../data/gsm8k_test.jsonl");
    let mut rejected = Vec::new();
    let mut rows = 0;
    for (i, line) in text.lines().enumerate() {
        let row: Row = serde_json::from_str(line).unwrap_or_else(|e| panic!("gsm8k row {}: {e}", i + 1));
        let (_, last) = row.answer.rsplit_once("####").unwrap_or_else(|| panic!("gsm8k row {} has no ####", i + 1));
        let answer = last.trim().replace(',', "");
        rows += 1;
        if status(&row.answer, &answer) != Status::Correct {
            rejected.push(format!("row {}: {answer}", i + 1));
        }
        let wrong: i64 = answer.parse().unwrap_or_else(|e| panic!("gsm8k row {}: {answer}: {e}", i + 1));
        assert_eq!(status(&row.answer, &(wrong + 1).to_string()), Status::Incorrect, "row {}", i + 1);
    }
    assert_eq!(rows, 1319);
    assert!(rejected.is_empty(), "{} reference solutions rejected: {rejected:?}", rejected.len());
}

/// Every MATH-500 reference solution (Hendrycks et al.'s MATH, PRM800K's test subset, MIT; see
/// `data/README.md`) against its own answer: boxes in the working, restated answers and `\text{}`
/// answers must all read as the solution meant. Integer answers are also checked against the
/// answer plus one, so the test cannot pass by crediting everything.
#[test]
fn math500_reference_solutions_match_their_own_answers() {
    #[derive(serde::Deserialize)]
    struct Row {
        solution: String,
        answer: String,
    }
    let text = include_str!("../data/math500_test.jsonl");
    let mut rejected = Vec::new();
    let (mut rows, mut integers) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        let row: Row = serde_json::from_str(line).unwrap_or_else(|e| panic!("math500 row {}: {e}", i + 1));
        rows += 1;
        if status(&row.solution, &row.answer) != Status::Correct {
            rejected.push(format!("row {}: {}", i + 1, row.answer));
        }
        if let Ok(n) = row.answer.trim().parse::<i64>() {
            integers += 1;
            assert_eq!(status(&row.solution, &(n + 1).to_string()), Status::Incorrect, "row {}", i + 1);
        }
    }
    assert_eq!(rows, 500);
    assert!(integers > 200, "{integers} integer answers");
    // Each solution against the next row's answer: credited only when the two answers are
    // themselves equivalent.
    let rows: Vec<Row> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let mut false_accepts = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let other = &rows[(i + 1) % rows.len()].answer;
        let same = status(&row.answer, other) == Status::Correct;
        if !same && status(&row.solution, other) == Status::Correct {
            false_accepts.push(format!("row {}: {other}", i + 1));
        }
    }
    assert!(false_accepts.is_empty(), "{false_accepts:?}");
    assert!(rejected.is_empty(), "{} reference solutions rejected: {rejected:?}", rejected.len());
}
