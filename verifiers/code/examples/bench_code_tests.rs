//! `code-tests` throughput on HumanEval suites and mutants, for `bench/code_tests/run.sh`.
//!
//! `bench_code_tests DATA PASSES` scores the strong and weak suite of every problem in DATA
//! (`clients/python/tests/data/code_tests_humaneval.jsonl`) against its canonical solution and
//! mutants with the full matrix, as one batch, PASSES times, on a sandbox with the default
//! configuration (runtimes from `REFEREE__SANDBOX__RUNTIMES_DIR` or `runtimes/build`), and prints
//! one JSON line: runs, seconds, runs and items per second, and each item's detected count.

use std::sync::Arc;
use std::time::Instant;

use referee_code::{CodeTestsInput, CodeVerifier, Sandbox, SandboxConfig};
use referee_core::{Budget, RewardModel as _};
use serde_json::{Value, json};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let data = args.next().ok_or_else(|| anyhow::anyhow!("usage: bench_code_tests DATA PASSES"))?;
    let passes: usize = args.next().map_or(Ok(3), |p| p.parse())?;
    let mut items = Vec::new();
    for line in std::fs::read_to_string(&data)?.lines().filter(|l| !l.trim().is_empty()) {
        let problem: Value = serde_json::from_str(line)?;
        for suite in ["strong", "weak"] {
            items.push(json!({
                "language": "python", "format": "asserts", "full_matrix": true,
                "response": problem["suites"][suite],
                "correct_solutions": [problem["canonical"]],
                "wrong_solutions": problem["mutants"],
            }));
        }
    }
    let mut config = SandboxConfig::default();
    if let Some(dir) = std::env::var_os("REFEREE__SANDBOX__RUNTIMES_DIR") {
        config.runtimes_dir = dir.into();
    }
    let workers = config.workers;
    let verifier = CodeVerifier::new().in_sandbox(Arc::new(Sandbox::new(config)?)).tests_verifier();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let inputs = || -> anyhow::Result<Vec<CodeTestsInput>> {
        items.iter().map(|i| serde_json::from_value(i.clone()).map_err(anyhow::Error::from)).collect()
    };
    // One warm-up pass loads the runtime; it is not timed.
    let mut verdicts = runtime.block_on(verifier.score_batch(inputs()?, Budget::unlimited()));
    let started = Instant::now();
    for _ in 0..passes {
        verdicts = runtime.block_on(verifier.score_batch(inputs()?, Budget::unlimited()));
    }
    let seconds = started.elapsed().as_secs_f64();
    let runs_per_pass: usize = verdicts
        .iter()
        .map(|v| {
            ["correct", "wrong"]
                .iter()
                .flat_map(|kind| v.details["matrix"][kind].as_array().cloned().unwrap_or_default())
                .flat_map(|row| row.as_array().cloned().unwrap_or_default())
                .filter(|cell| cell != "skipped")
                .count()
        })
        .sum();
    let detected: Vec<Value> =
        verdicts.iter().map(|v| v.details.get("detected").cloned().unwrap_or(Value::Null)).collect();
    let runs = runs_per_pass * passes;
    println!(
        "{}",
        json!({
            "items": items.len() * passes, "runs": runs, "seconds": seconds, "workers": workers,
            "runs_per_second": runs as f64 / seconds, "items_per_second": (items.len() * passes) as f64 / seconds,
            "detected": detected,
        })
    );
    Ok(())
}
