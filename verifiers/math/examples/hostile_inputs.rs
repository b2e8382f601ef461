//! Judges responses built by repeating one hostile piece (runs of backslashes, unclosed braces
//! and boxes, nested fractions, digits, delimiters...) up to a size, against the reference `1`,
//! and prints each shape's time and counted work as one JSON object per line. Each shape is
//! judged three times on one thread; the fastest run is reported, so a preempted run does not
//! count (a single-threaded run's wall time bounds its CPU time).
//!
//! `cargo run --release -p referee-math --example hostile_inputs -- [BYTES] [SHAPE]`
//! (defaults: 250,000 bytes, every shape).

use std::time::Instant;

use referee_core::Budget;
use referee_math::{MathOptions, judge, work};

/// The repeated pieces; every response is one piece repeated, then cut to the size.
const SHAPES: &[(&str, &str)] = &[
    ("backslashes", "\\"),
    ("unclosed_fractions", "\\frac{1}{"),
    ("nested_fractions", "\\frac{\\frac{1}{2}}{"),
    ("unclosed_boxes", "\\boxed{"),
    ("closed_boxes", "\\boxed{1} and "),
    ("open_braces", "{"),
    ("close_braces", "}"),
    ("braced_commas", "{,}"),
    ("dollars", "$"),
    ("double_dollars", "$$"),
    ("dollar_backslash", "$\\"),
    ("paren_math", "\\("),
    ("bracket_math", "\\["),
    ("digits", "1"),
    ("grouped_digits", "1,000,"),
    ("decimals", "1.1."),
    ("joined_numbers", "1 and "),
    ("joined_formulas", "$1$ and "),
    ("answer_words", "answer "),
    ("final_answer", "The final answer is "),
    ("answer_colons", "Answer: 1\n"),
    ("bold", "**1**"),
    ("stars", "*"),
    ("colons", ":"),
    ("answer_tags", "<answer>"),
    ("think_tags", "<think></think>"),
    ("gsm8k_lines", "#### 1\n"),
    ("double_escapes", "\\\\frac"),
    ("text_commands", "\\text{"),
    ("newlines", "\n"),
    ("spaces", " "),
    ("letters", "x"),
    ("minus_digits", "-1"),
    ("fraction_numbers", "\\frac{1}{2}"),
    ("thin_space_commas", ",\\!"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bytes: usize = args.first().and_then(|b| b.parse().ok()).unwrap_or(250_000);
    let only = args.get(1);
    let opts = MathOptions::default();
    for (name, piece) in SHAPES.iter().filter(|(name, _)| only.is_none_or(|o| o == name)) {
        let mut response = piece.repeat(bytes / piece.len() + 1);
        response.truncate(bytes);
        let mut runs = Vec::new();
        for _ in 0..3 {
            let started = Instant::now();
            let (judgement, steps) = work::counted(|| judge(&response, "1", &opts, &Budget::unlimited()));
            runs.push((started.elapsed(), steps, judgement));
        }
        runs.sort_by_key(|run| run.0);
        let Some((wall, steps, judgement)) = runs.into_iter().next() else { continue };
        let report = serde_json::json!({
            "shape": name,
            "bytes": response.len(),
            "wall_ms": wall.as_secs_f64() * 1e3,
            "steps": steps,
            "status": judgement.status.as_str(),
        });
        println!("{report}");
    }
}
