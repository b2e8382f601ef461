//! Prints generation + reference time and reference kind per task and level.

use std::time::Instant;

fn main() {
    let seeds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let only = std::env::args().nth(2);
    for info in referee_np::catalogue() {
        if only.as_deref().is_some_and(|o| o != info.task) {
            continue;
        }
        for level in &info.levels {
            let start = Instant::now();
            let mut kinds = Vec::new();
            let mut worst = 0.0f64;
            for seed in 0..seeds {
                let t = Instant::now();
                match referee_np::generate(&info.task, level.level, seed) {
                    Ok(g) => kinds.push(format!("{:?}", g.reference.kind)),
                    Err(e) => kinds.push(e.to_string()),
                }
                worst = worst.max(t.elapsed().as_secs_f64());
            }
            kinds.sort();
            kinds.dedup();
            println!(
                "{:20} L{} mean {:9.3} ms  max {:9.3} ms  {:?}",
                info.task,
                level.level,
                start.elapsed().as_secs_f64() * 1e3 / seeds as f64,
                worst * 1e3,
                kinds
            );
        }
    }
}
