//! Times the local model's scoring: `rlpr_bench MODEL_DIR SEQUENCES_OUT [SEQUENCES] [REPEATS]`.
//!
//! Builds a deterministic batch of RLPR texts (a rendered prompt, a few hundred tokens of
//! reasoning, a reference answer of some 10–30 tokens), tokenises and masks them, writes the
//! token sequences to SEQUENCES_OUT (JSON, for `bench/rlpr/torch_bench.py` to score the same
//! batch), then scores the batch REPEATS times after one warm-up and prints one JSON line:
//! scored tokens per second and input tokens per second. `RLPR_DEVICE` (`cpu`, `cuda`,
//! `cuda:N`; default `cpu`) places the model. `bench/rlpr/run.sh` and `bench/rlpr/gpu.sh` run it.

use std::path::PathBuf;
use std::time::Instant;

use referee_rlpr::{ChatMessage, FormatMode, LocalModel, ModelDevice, ScoringText, TokenSequence, substitute};

const WORDS: &[&str] = &[
    "the",
    "sum",
    "of",
    "two",
    "numbers",
    "is",
    "then",
    "we",
    "check",
    "whether",
    "each",
    "term",
    "divides",
    "evenly",
    "so",
    "that",
    "remainder",
    "equals",
    "zero",
    "and",
    "therefore",
    "answer",
    "must",
    "be",
    "prime",
    "factor",
    "because",
    "square",
    "root",
    "triangle",
    "angle",
    "degrees",
    "area",
    "length",
    "ratio",
    "probability",
    "energy",
    "force",
    "mass",
    "velocity",
    "3",
    "17",
    "42",
    "1024",
    "x",
    "y",
    "=",
    "+",
    "-",
    "*",
    "(",
    ")",
    ",",
    ".",
];

/// A small deterministic generator (64-bit LCG).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % below as u64) as usize
    }

    /// `least` to `least + spread − 1` words.
    fn words(&mut self, least: usize, spread: usize) -> String {
        let count = least + self.next(spread.max(1));
        (0..count).map(|_| WORDS[self.next(WORDS.len())]).collect::<Vec<_>>().join(" ")
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(out)) = (args.get(1), args.get(2)) else {
        return Err("usage: rlpr_bench MODEL_DIR SEQUENCES_OUT [SEQUENCES] [REPEATS]".into());
    };
    let count: usize = args.get(3).map_or(Ok(16), |s| s.parse())?;
    let repeats: usize = args.get(4).map_or(Ok(3), |s| s.parse())?;
    let started = Instant::now();
    let device: ModelDevice = std::env::var("RLPR_DEVICE").unwrap_or_else(|_| "cpu".to_owned()).parse()?;
    let model = LocalModel::load_on(&PathBuf::from(dir), device)?;
    eprintln!("loaded on {device} in {:.1} s", started.elapsed().as_secs_f64());
    let eos = model.tokenizer().eos_token().to_owned();
    let mut rng = Lcg(2506_18254);
    let mut batch: Vec<TokenSequence> = Vec::with_capacity(count);
    for _ in 0..count {
        let question = format!("Solve: {}?", rng.words(20, 20));
        let prompt = model.tokenizer().render(
            &[
                ChatMessage {
                    role: "system".into(),
                    content: "Reason in <think> tags, answer in <answer> tags.".into(),
                },
                ChatMessage { role: "user".into(), content: question },
            ],
            true,
        )?;
        let response = format!("<think>{}</think> <answer>{}</answer>", rng.words(150, 150), rng.words(3, 1));
        let reference = rng.words(8, 14);
        let Some(sub) = substitute(&response, &reference, &eos, FormatMode::R1) else {
            return Err("the generated response lacks the answer structure".into());
        };
        let text = ScoringText {
            text: format!("{prompt}{}", sub.text),
            answer: prompt.len() + sub.answer.start..prompt.len() + sub.answer.end,
        };
        batch.push(model.prepare(&text)?);
    }
    let json: Vec<serde_json::Value> =
        batch.iter().map(|s| serde_json::json!({"ids": s.ids, "positions": s.positions})).collect();
    std::fs::write(out, serde_json::Value::Array(json).to_string())?;
    let scored: usize = batch.iter().map(|s| s.positions.len()).sum();
    let inputs: usize = batch.iter().map(|s| s.positions.last().map_or(0, |&p| p as usize)).sum();
    model.logprobs(&batch)?;
    let started = Instant::now();
    for _ in 0..repeats {
        model.logprobs(&batch)?;
    }
    let seconds = started.elapsed().as_secs_f64() / repeats as f64;
    println!(
        "{}",
        serde_json::json!({
            "runner": "referee",
            "device": device.to_string(),
            "sequences": count,
            "input_tokens": inputs,
            "scored_tokens": scored,
            "seconds": seconds,
            "scored_tokens_per_s": scored as f64 / seconds,
            "input_tokens_per_s": inputs as f64 / seconds,
        })
    );
    Ok(())
}
