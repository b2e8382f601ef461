//! Scores `data/held_out.jsonl`, cases written for this crate that no peer suite holds
//! (rounding traps, units, degrees, text answers, GSM8K- and AIME-style integers, olympiad
//! expressions), and holds the default options to the same bars as the peer cases. Every row's
//! verdict is pinned in `snapshots/all__held_out__held_out.snap`.

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

#[test]
fn held_out_cases_meet_the_bars() {
    let cases: Vec<Case> = include_str!("../data/held_out.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("row {}: {e}", i + 1)))
        .collect();
    assert!(cases.len() >= 100, "the held-out file lost rows");
    let mut by_category: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    let (mut right, mut false_accepts) = (0, 0);
    let mut verdicts = String::new();
    for (i, case) in cases.iter().enumerate() {
        let j = judge(&case.pred, &case.gold, &MathOptions::default(), &Budget::unlimited());
        verdicts += &format!(
            "row {} [{}] expected {}: {}\n",
            i + 1,
            case.category,
            snapshot::expected(case.expected),
            j.clone().into_verdict().snapshot_line()
        );
        let entry = by_category.entry(&case.category).or_default();
        entry.0 += 1;
        if j.is_correct() == case.expected {
            entry.1 += 1;
            right += 1;
        } else {
            if j.is_correct() {
                entry.2 += 1;
                false_accepts += 1;
            }
            misses.push(format!(
                "row {} [{}] {:?} vs {:?}: expected {}, got {j:?}",
                i + 1,
                case.category,
                case.gold,
                case.pred,
                case.expected
            ));
        }
    }
    println!("{:<22} {:>5} {:>5} {:>7}", "category", "rows", "right", "f.acc");
    for (name, (rows, ok, fa)) in &by_category {
        println!("{name:<22} {rows:>5} {ok:>5} {fa:>7}");
    }
    let accuracy = right as f64 / cases.len() as f64;
    let false_accept_rate = false_accepts as f64 / cases.len() as f64;
    println!(
        "TOTAL {} rows, accuracy {accuracy:.3}, false accepts {false_accepts} ({false_accept_rate:.3})",
        cases.len()
    );
    for m in &misses {
        println!("{m}");
    }
    assert!(accuracy >= 0.97, "accuracy {accuracy:.3} is below 0.97");
    assert!(false_accept_rate <= 0.01, "false accepts {false_accept_rate:.3} exceed 1% of rows");
    insta::assert_snapshot!("held_out", verdicts);
}
