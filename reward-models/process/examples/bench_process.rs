//! `process` over `math`, step by step: generated multi-step arithmetic solutions (`Step k:
//! a op b = c` lines after a line of preamble, some steps wrong), each step's intermediate
//! result checked against its own reference, aggregated by `first_error`, with character
//! offsets; generated from a fixed seed.
//!
//! `cargo run --release -p referee-process --example bench_process -- [ITEMS] [PASSES] [OUT]`
//!
//! Scores every item as one batch per pass (the server's path: one `math` call for all steps)
//! and prints one JSON object with items per second; writes the items with Referee's scores and
//! step offsets to OUT (JSONL) for `bench/process/naive.py`.

use std::io::Write as _;
use std::time::Instant;

use referee_core::{Budget, RewardModel, Scorer};
use referee_math::MathVerifier;
use referee_process::{ProcessInput, ProcessScorer};
use referee_rubric::JudgeClient;
use serde_json::{Value, json};

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n.max(1)
    }
}

fn item(rng: &mut Rng) -> Value {
    let steps = 3 + rng.below(6) as usize;
    let mut value = 1 + rng.below(20) as i64;
    let mut lines = vec![format!("We start from {value} and apply the operations in turn.")];
    let mut expected = Vec::with_capacity(steps);
    for k in 1..=steps {
        let operand = 1 + rng.below(12) as i64;
        let (symbol, next) = match rng.below(3) {
            0 => ("+", value + operand),
            1 => ("-", value - operand),
            _ => ("\\times", value * operand),
        };
        let written = if rng.below(8) == 0 { next + 1 + rng.below(3) as i64 } else { next };
        lines.push(format!("Step {k}: ${value} {symbol} {operand} = {written}$, so the running total is {written}."));
        expected.push(json!({"reference": next.to_string()}));
        value = written;
    }
    json!({
        "response": lines.join("\n"),
        "check": {"by": "verifier", "verifier": "math", "expected": expected},
        "aggregate": "first_error",
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().and_then(|n| n.parse().ok()).unwrap_or(5_000);
    let passes: u32 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(5).max(1);
    let mut rng = Rng(20_261_128);
    let items: Vec<Value> = (0..count).map(|_| item(&mut rng)).collect();
    let inputs: Vec<ProcessInput> =
        items.iter().map(|v| serde_json::from_value(v.clone())).collect::<Result<_, _>>()?;
    let process = ProcessScorer::new(&[Scorer::verifier(MathVerifier::new())], JudgeClient::unconfigured());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let verdicts = runtime.block_on(process.score_batch(inputs.clone(), Budget::unlimited()));
    if let Some(out) = args.get(2) {
        let mut file = std::fs::File::create(out)?;
        for (item, verdict) in items.iter().zip(&verdicts) {
            let steps: Vec<Value> = verdict.details["steps"]
                .as_array()
                .map(|steps| steps.iter().map(|s| json!([s["start"], s["end"], s["score"]])).collect())
                .unwrap_or_default();
            writeln!(file, "{}", json!({"input": item, "score": verdict.score, "steps": steps}))?;
        }
    }
    let started = Instant::now();
    for _ in 0..passes {
        runtime.block_on(process.score_batch(inputs.clone(), Budget::unlimited()));
    }
    let seconds = started.elapsed().as_secs_f64() / f64::from(passes);
    let steps: usize = verdicts.iter().filter_map(|v| v.details["steps"].as_array().map(Vec::len)).sum();
    println!(
        "{}",
        json!({
            "runner": "referee-process",
            "items": count,
            "steps": steps,
            "mean_reward": verdicts.iter().map(|v| v.score).sum::<f64>() / count as f64,
            "seconds_per_pass": seconds,
            "items_per_second": count as f64 / seconds,
            "threads": std::thread::available_parallelism().map_or(1, usize::from),
        })
    );
    Ok(())
}
