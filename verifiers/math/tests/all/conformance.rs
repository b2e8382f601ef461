//! Scores the public peer cases (Math-Verify, lighteval, rllm test suites) with the default
//! options and holds the verifier to the accuracy and false-accept bars. Every row's verdict is
//! pinned in `snapshots/all__conformance__peer_cases.snap`.

use std::collections::BTreeMap;

use referee_core::Budget;
use referee_math::{MathOptions, judge};
use serde::Deserialize;

use super::snapshot;

#[derive(Deserialize)]
struct Case {
    gold: String,
    pred: String,
    expected: bool,
    category: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/peer_cases.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("row {}: {e}", i + 1)))
        .collect()
}

#[derive(Default)]
struct Tally {
    rows: usize,
    right: usize,
    false_accepts: usize,
    false_rejects: usize,
}

#[test]
fn peer_cases_meet_the_bars() {
    let cases = cases();
    assert_eq!(cases.len(), 324, "the conformance file changed size");
    let opts = MathOptions::default();
    let mut by_category: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut verdicts = String::new();
    for (i, case) in cases.iter().enumerate() {
        let j = judge(&case.pred, &case.gold, &opts, &Budget::unlimited());
        verdicts += &format!(
            "row {} [{}] expected {}: {}\n",
            i + 1,
            case.category,
            snapshot::expected(case.expected),
            j.clone().into_verdict().snapshot_line()
        );
        let got = j.is_correct();
        let t = by_category.entry(&case.category).or_default();
        t.rows += 1;
        if got == case.expected {
            t.right += 1;
        } else {
            if got {
                t.false_accepts += 1;
            } else {
                t.false_rejects += 1;
            }
            misses.push(format!(
                "row {:>3} [{}] expected {} got {:?} rule={:?} reason={:?}\n      gold={:?}\n      extracted={:?} parsed={:?} ref_parsed={:?}",
                i + 1,
                case.category,
                case.expected,
                j.status,
                j.rule,
                j.reason,
                case.gold.chars().take(120).collect::<String>(),
                j.extracted.as_deref().map(|s| s.chars().take(120).collect::<String>()),
                j.parsed,
                j.reference_parsed,
            ));
        }
    }
    let total: Tally = by_category.values().fold(Tally::default(), |mut acc, t| {
        acc.rows += t.rows;
        acc.right += t.right;
        acc.false_accepts += t.false_accepts;
        acc.false_rejects += t.false_rejects;
        acc
    });
    println!("{:<28} {:>5} {:>5} {:>9} {:>7} {:>7}", "category", "rows", "right", "accuracy", "f.acc", "f.rej");
    for (name, t) in &by_category {
        println!(
            "{:<28} {:>5} {:>5} {:>9.3} {:>7} {:>7}",
            name,
            t.rows,
            t.right,
            t.right as f64 / t.rows as f64,
            t.false_accepts,
            t.false_rejects
        );
    }
    let accuracy = total.right as f64 / total.rows as f64;
    let false_accept_rate = total.false_accepts as f64 / total.rows as f64;
    println!(
        "{:<28} {:>5} {:>5} {:>9.3} {:>7} {:>7}",
        "TOTAL", total.rows, total.right, accuracy, total.false_accepts, total.false_rejects
    );
    for m in &misses {
        println!("{m}");
    }
    assert!(accuracy >= 0.97, "accuracy {accuracy:.3} is below 0.97");
    assert!(false_accept_rate <= 0.01, "false accepts {false_accept_rate:.3} exceed 1% of rows");
    insta::assert_snapshot!("peer_cases", verdicts);
}

/// The registry path the server uses (`ErasedVerifier::verify_json` on JSON items) gives the
/// same verdicts as the library, row for row.
#[test]
fn json_batch_path_matches_the_library() {
    use referee_core::ErasedVerifier;
    use referee_math::MathVerifier;

    let cases = cases();
    let items: Vec<serde_json::Value> =
        cases.iter().map(|c| serde_json::json!({"response": c.pred, "reference": c.gold})).collect();
    let verdicts = MathVerifier::new().verify_json(&items, &Budget::unlimited());
    assert_eq!(verdicts.len(), cases.len());
    for (i, (case, verdict)) in cases.iter().zip(&verdicts).enumerate() {
        let direct = judge(&case.pred, &case.gold, &MathOptions::default(), &Budget::unlimited()).into_verdict();
        assert_eq!(verdict, &direct, "row {}", i + 1);
    }
    let info = MathVerifier::new().info();
    assert_eq!(info.description.id, "math");
    let schema = serde_json::to_string(&info.input.schema).unwrap_or_default();
    assert!(schema.contains("response") && schema.contains("reference"), "{schema}");
    let malformed = MathVerifier::new().verify_json(&[serde_json::json!({"response": 1})], &Budget::unlimited());
    assert_eq!(malformed[0].status, referee_core::Status::InvalidInput);
}
