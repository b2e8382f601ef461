//! Judges one response against one reference and prints the verdict as JSON:
//! `cargo run -p referee-math --example judge -- '<reference>' '<response>'`.

use referee_core::Budget;
use referee_math::{MathOptions, judge};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [reference, response] = args.as_slice() else {
        eprintln!("usage: judge <reference> <response>");
        std::process::exit(2);
    };
    let start = std::time::Instant::now();
    let verdict = judge(response, reference, &MathOptions::default(), &Budget::unlimited()).into_verdict();
    eprintln!("judged in {:?}", start.elapsed());
    match serde_json::to_string_pretty(&verdict) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("cannot print the verdict: {e}"),
    }
}
