//! `composite` over `math`, R-Horizon style: the MATH-500 test set composed three problems at a
//! time, each composed response the three reference solutions in order (so three boxed answers
//! among the text), scored once against the three answers (every item should be `correct`) and
//! once against the answers rotated by one (every item should be `incorrect`).
//!
//! `cargo run --release -p referee-composite --example bench_composite -- [MATH500] [PASSES] [ITEMS_OUT]`
//!
//! Scores every item of the file as one batch per pass (the server's path: one `math` call for
//! all parts), prints one JSON object with items per second and the agreement with the
//! expected verdicts, and writes the items to ITEMS_OUT (JSONL) for `bench/composite/naive.py`.

use std::io::Write as _;
use std::time::Instant;

use referee_composite::{CompositeInput, CompositeScorer};
use referee_core::{Budget, RewardModel, Scorer, Status};
use referee_math::MathVerifier;
use serde_json::{Value, json};

const PER_ITEM: usize = 3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("verifiers/math/tests/data/math500_test.jsonl", String::as_str);
    let passes: u32 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(20).max(1);
    let rows: Vec<Value> = std::fs::read_to_string(path)?
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let mut items = Vec::new();
    for group in rows.chunks_exact(PER_ITEM) {
        let response = group.iter().filter_map(|row| row["solution"].as_str()).collect::<Vec<_>>().join("\n\n");
        let answers: Vec<&str> = group.iter().filter_map(|row| row["answer"].as_str()).collect();
        for rotate in [0, 1] {
            let parts: Vec<Value> = (0..PER_ITEM)
                .map(|k| json!({"verifier": "math", "input": {"reference": answers[(k + rotate) % PER_ITEM]}}))
                .collect();
            items.push((json!({"response": response, "parts": parts}), rotate == 0));
        }
    }
    if let Some(out) = args.get(2) {
        let mut file = std::fs::File::create(out)?;
        for (item, expected) in &items {
            writeln!(file, "{}", json!({"input": item, "expected": expected}))?;
        }
    }
    let inputs: Vec<CompositeInput> =
        items.iter().map(|(item, _)| serde_json::from_value(item.clone())).collect::<Result<_, _>>()?;
    let composite = CompositeScorer::new(&[Scorer::verifier(MathVerifier::new())]);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let verdicts = runtime.block_on(composite.score_batch(inputs.clone(), Budget::unlimited()));
    let agree =
        verdicts.iter().zip(&items).filter(|(v, (_, expected))| (v.status == Status::Correct) == *expected).count();
    let started = Instant::now();
    for _ in 0..passes {
        runtime.block_on(composite.score_batch(inputs.clone(), Budget::unlimited()));
    }
    let seconds = started.elapsed().as_secs_f64() / f64::from(passes);
    println!(
        "{}",
        json!({
            "runner": "referee-composite",
            "items": items.len(),
            "parts": items.len() * PER_ITEM,
            "agreement": agree as f64 / items.len() as f64,
            "seconds_per_pass": seconds,
            "items_per_second": items.len() as f64 / seconds,
            "threads": std::thread::available_parallelism().map_or(1, usize::from),
        })
    );
    Ok(())
}
