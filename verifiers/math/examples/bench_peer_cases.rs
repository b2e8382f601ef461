//! Scores a labelled JSONL file (rows with `gold`, `pred`, `expected`) one pair at a time on
//! one thread and prints accuracy, pairs per second and the slowest pair as one JSON object.
//!
//! `cargo run --release -p referee-math --example bench_peer_cases -- [FILE] [PASSES]`
//! (defaults: `verifiers/math/tests/data/peer_cases.jsonl`, 20 passes).

use std::time::{Duration, Instant};

use referee_core::Budget;
use referee_math::{MathOptions, judge};
use serde::Deserialize;

#[derive(Deserialize)]
struct Row {
    gold: String,
    pred: String,
    expected: bool,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("verifiers/math/tests/data/peer_cases.jsonl", String::as_str);
    let passes: u32 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(20).max(1);
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<Row>(line) {
            Ok(r) => rows.push(r),
            Err(e) => {
                eprintln!("{path}:{}: {e}", i + 1);
                std::process::exit(2);
            }
        }
    }
    let opts = MathOptions::default();
    let mut right = 0usize;
    let mut false_accepts = 0usize;
    let mut worst = (Duration::ZERO, 0usize);
    let mut total = Duration::ZERO;
    let mut per_row: Vec<Vec<Duration>> = vec![Vec::with_capacity(passes as usize); rows.len()];
    for pass in 0..passes {
        for (i, row) in rows.iter().enumerate() {
            let start = Instant::now();
            let j = judge(&row.pred, &row.gold, &opts, &Budget::unlimited());
            let took = start.elapsed();
            total += took;
            per_row[i].push(took);
            if took > worst.0 {
                worst = (took, i + 1);
            }
            if pass == 0 {
                let got = j.is_correct();
                right += usize::from(got == row.expected);
                false_accepts += usize::from(got && !row.expected);
            }
        }
    }
    let pairs = rows.len() as f64 * f64::from(passes);
    // A row's cost is its median over the passes, so a preempted run does not count as slow.
    let medians: Vec<Duration> = per_row
        .iter_mut()
        .map(|times| {
            times.sort();
            times.get(times.len() / 2).copied().unwrap_or_default()
        })
        .collect();
    let mut slowest: Vec<(usize, Duration)> = medians.iter().copied().enumerate().collect();
    slowest.sort_by_key(|(_, d)| std::cmp::Reverse(*d));
    let top: Vec<serde_json::Value> =
        slowest.iter().take(5).map(|(i, d)| serde_json::json!({"row": i + 1, "ms": d.as_secs_f64() * 1e3})).collect();
    let report = serde_json::json!({
        "pairs": rows.len(),
        "passes": passes,
        "accuracy": right as f64 / rows.len().max(1) as f64,
        "false_accepts": false_accepts,
        "pairs_per_second": pairs / total.as_secs_f64().max(f64::MIN_POSITIVE),
        "mean_us": total.as_secs_f64() * 1e6 / pairs,
        // The rate a quiet machine would see: each row at its median time.
        "pairs_per_second_from_medians": rows.len() as f64 / medians.iter().map(Duration::as_secs_f64).sum::<f64>().max(f64::MIN_POSITIVE),
        "worst_pair_median_ms": slowest.first().map_or(0.0, |(_, d)| d.as_secs_f64() * 1e3),
        "worst_pair_median_row": slowest.first().map_or(0, |(i, _)| i + 1),
        "worst_single_run_ms": worst.0.as_secs_f64() * 1e3,
        "worst_single_run_row": worst.1,
        "slowest_rows": top,
    });
    println!("{report}");
}
