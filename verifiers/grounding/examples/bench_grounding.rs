//! `grounding` over `exact-match` on LongRLVR-style responses: a reasoning section, a
//! `<useful_chunks>` block and an `<answer>` block, with right, partial, repeated and outside
//! citations and right and wrong answers, generated from a fixed seed.
//!
//! `cargo run --release -p referee-grounding --example bench_grounding -- [ITEMS] [PASSES] [OUT]`
//!
//! Scores every item as one batch per pass (the server's path: one `exact-match` call for all
//! answers) and prints one JSON object with items per second; writes the items with Referee's
//! scores to OUT (JSONL) for `bench/grounding/naive.py`, which scores them with LongRLVR's code.

use std::io::Write as _;
use std::time::Instant;

use referee_core::{Budget, RewardModel, Scorer};
use referee_grounding::{GroundingInput, GroundingScorer};
use referee_text::ExactMatch;
use serde_json::{Value, json};

const ANSWERS: [&str; 4] = ["Normandy is in France.", "The treaty was signed in 1648.", "42", "Marie Curie"];

/// A small deterministic generator (SplitMix64), so that the items are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn item(rng: &mut Rng) -> Value {
    let context = 32 + rng.below(200);
    let gold: Vec<u64> = (0..1 + rng.below(6)).map(|_| rng.below(context)).collect();
    let truth = ANSWERS[rng.below(4) as usize];
    let cited: Vec<u64> = match rng.below(5) {
        0 => gold.clone(),
        1 => (0..1 + rng.below(8)).map(|_| rng.below(context)).collect(),
        2 => vec![gold[0]; 1 + rng.below(4) as usize],
        3 => gold.iter().copied().chain([context + rng.below(1000)]).collect(),
        _ => gold.iter().copied().take(1).chain((0..3).map(|_| rng.below(context))).collect(),
    };
    let ids: Vec<String> = cited.iter().map(|id| format!("<CHUNK_{id}>")).collect();
    let answer = if rng.below(10) < 6 { truth } else { ANSWERS[rng.below(4) as usize] };
    let reasoning: String = (0..20 + rng.below(40))
        .map(|k| format!("Chunk {} mentions the region; reading it again, step {k}. ", rng.below(context)))
        .collect();
    let response = format!(
        "<think>{reasoning}</think>\n<useful_chunks>\n{}\n</useful_chunks>\n<answer>\n{answer}\n</answer>",
        ids.join(" ")
    );
    json!({
        "response": response,
        "gold_chunks": gold,
        "context_chunks": context,
        "answer": {"verifier": "exact-match", "input": {"reference": truth}},
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let passes: u32 = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(10).max(1);
    let mut rng = Rng(20_261_128);
    let items: Vec<Value> = (0..count).map(|_| item(&mut rng)).collect();
    let inputs: Vec<GroundingInput> =
        items.iter().map(|v| serde_json::from_value(v.clone())).collect::<Result<_, _>>()?;
    let grounding = GroundingScorer::new(&[Scorer::verifier(ExactMatch)]);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let verdicts = runtime.block_on(grounding.score_batch(inputs.clone(), Budget::unlimited()));
    if let Some(out) = args.get(2) {
        let mut file = std::fs::File::create(out)?;
        for (item, verdict) in items.iter().zip(&verdicts) {
            writeln!(file, "{}", json!({"input": item, "score": verdict.score}))?;
        }
    }
    let started = Instant::now();
    for _ in 0..passes {
        runtime.block_on(grounding.score_batch(inputs.clone(), Budget::unlimited()));
    }
    let seconds = started.elapsed().as_secs_f64() / f64::from(passes);
    println!(
        "{}",
        json!({
            "runner": "referee-grounding",
            "items": count,
            "mean_reward": verdicts.iter().map(|v| v.score).sum::<f64>() / count as f64,
            "seconds_per_pass": seconds,
            "items_per_second": count as f64 / seconds,
            "threads": std::thread::available_parallelism().map_or(1, usize::from),
        })
    );
    Ok(())
}
