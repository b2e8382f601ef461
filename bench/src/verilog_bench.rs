//! The `verilog` verifier against Icarus Verilog on VerilogEval v2's spec-to-RTL problems, in
//! the same job: for each problem its reference renamed `TopModule` (equivalent) and two mutants
//! (its first operator or one-bit constant flipped; its first one-line assignment inverted; where
//! it has them), from the test suite's `verilog_eval.rs`. Referee proves each candidate
//! equivalent to the reference or finds a counterexample (two Yosys runs in the sandbox, and
//! random simulation where the proof runs out of fuel); the peer is what simulation-based
//! checkers do: compile the problem's testbench with the reference and the candidate
//! (`iverilog -g2012`) and run its random stimulus (`vvp`), one process pair per candidate.
//!
//! Both sides run `--workers` candidates at a time. The report: checks per second of each, the
//! ratio, and the median and worst time of one check. The canonical candidates Referee does not
//! judge equivalent are listed, and so are the testbenches that fail their own reference under
//! Icarus. The report goes to stderr as a table and to stdout as one JSON line.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::ensure;
use clap::Parser;
use referee_code::{CodeVerifier, Sandbox, SandboxConfig, VerilogInput};
use referee_core::{Budget, RewardModel as _, Status};
use serde_json::{Value, json};

/// Command-line options of the Verilog benchmark.
#[derive(Debug, Parser)]
#[command(name = "verilog-bench", about = "The verilog verifier against Icarus Verilog's testbench simulation")]
struct Options {
    /// Candidates checked at a time on each side.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    workers: usize,
    /// Every how many problems one is taken (1: all 156).
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// The runtimes folder (`scripts/build-runtimes`'s).
    #[arg(long, default_value = "runtimes/build")]
    runtimes: std::path::PathBuf,
}

#[path = "../../verifiers/code/tests/all/verilog_eval.rs"]
mod verilog_eval;

use verilog_eval::{Problem, as_candidate, flipped, negated};

struct Candidate {
    problem: Arc<Problem>,
    canonical: bool,
    program: String,
}

/// Every `every`th problem: its two mutants, where it has them, and its reference.
fn candidates(every: usize) -> anyhow::Result<Vec<Candidate>> {
    let mut out = Vec::new();
    for problem in verilog_eval::problems()?.into_iter().step_by(every.max(1)) {
        let problem = Arc::new(problem);
        for program in [flipped(&problem.reference), negated(&problem.reference)].into_iter().flatten() {
            out.push(Candidate { problem: Arc::clone(&problem), canonical: false, program });
        }
        let program = as_candidate(&problem.reference);
        out.push(Candidate { problem, canonical: true, program });
    }
    Ok(out)
}

/// Icarus Verilog on one candidate: whether the testbench reports no mismatch.
fn icarus(candidate: &Candidate) -> anyhow::Result<bool> {
    let dir = tempfile::tempdir()?;
    Ok(verilog_eval::icarus(dir.path(), "check", &candidate.problem, &candidate.program)?.0)
}

/// Runs `check` on every candidate, `workers` at a time: each one's outcome and time.
async fn timed<F, Fut>(candidates: &Arc<Vec<Candidate>>, workers: usize, check: F) -> Vec<(bool, Duration)>
where
    F: Fn(Arc<Vec<Candidate>>, usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = bool> + Send,
{
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let tasks: Vec<_> = (0..workers.max(1))
        .map(|_| {
            let (candidates, next, check) = (Arc::clone(candidates), Arc::clone(&next), check.clone());
            tokio::spawn(async move {
                let mut done = Vec::new();
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if index >= candidates.len() {
                        break done;
                    }
                    let started = Instant::now();
                    let passed = check(Arc::clone(&candidates), index).await;
                    done.push((index, passed, started.elapsed()));
                }
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap_or_default());
    }
    all.sort_by_key(|(index, ..)| *index);
    all.into_iter().map(|(_, passed, time)| (passed, time)).collect()
}

fn summary(name: &str, results: &[(bool, Duration)], wall: Duration) -> Value {
    let mut times: Vec<f64> = results.iter().map(|(_, t)| t.as_secs_f64() * 1000.0).collect();
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let worst = times.last().copied().unwrap_or(0.0);
    let rate = results.len() as f64 / wall.as_secs_f64();
    eprintln!("{name:<32} {:>7} {rate:>10.2} {median:>10.0} {worst:>10.0}", results.len());
    json!({"checks": results.len(), "per_second": rate, "median_ms": median, "worst_ms": worst})
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = Options::parse();
    let candidates = Arc::new(candidates(options.every)?);
    let config = SandboxConfig { runtimes_dir: options.runtimes.clone(), ..SandboxConfig::default() };
    let sandbox = Arc::new(Sandbox::new(config)?);
    let verifier = CodeVerifier::new().in_sandbox(Arc::clone(&sandbox)).verilog_verifier();
    // Yosys is loaded (and compiled once) before the measurement.
    let loaded = sandbox.yosys();
    ensure!(loaded.is_ok(), "Yosys cannot be loaded: {}", loaded.err().map(|e| e.reason()).unwrap_or_default());

    let started = Instant::now();
    let referee = timed(&candidates, options.workers, move |candidates, index| {
        let verifier = verifier.clone();
        async move {
            let candidate = &candidates[index];
            let item: VerilogInput =
                serde_json::from_value(json!({"reference": candidate.problem.reference, "program": candidate.program}))
                    .unwrap_or_else(|e| panic!("{e}"));
            let verdicts = verifier.score_batch(vec![item], Budget::unlimited()).await;
            verdicts.first().is_some_and(|v| v.status == Status::Correct)
        }
    })
    .await;
    let referee_wall = started.elapsed();

    let started = Instant::now();
    let peer = timed(&candidates, options.workers, |candidates, index| async move {
        tokio::task::spawn_blocking(move || icarus(&candidates[index]).unwrap_or(false)).await.unwrap_or(false)
    })
    .await;
    let peer_wall = started.elapsed();

    let (mut unproved, mut broken) = (Vec::new(), Vec::new());
    for (candidate, (referee, peer)) in candidates.iter().zip(referee.iter().zip(&peer)) {
        if candidate.canonical {
            if !referee.0 {
                unproved.push(candidate.problem.task_id.as_str());
            }
            // A testbench that fails its own reference under Icarus (three of VerilogEval's do)
            // is the peer's problem, not a verdict on the candidate: reported, still timed.
            if !peer.0 {
                broken.push(candidate.problem.task_id.as_str());
            }
        }
    }
    eprintln!("canonical candidates not judged equivalent: {unproved:?}");
    eprintln!("testbenches that fail their own reference under Icarus: {broken:?}");
    eprintln!("{:<32} {:>7} {:>10} {:>10} {:>10}", "side", "checks", "checks/s", "median ms", "worst ms");
    let ours = summary("Referee verilog (Yosys SAT, simulation)", &referee, referee_wall);
    let theirs = summary("Icarus Verilog testbench", &peer, peer_wall);
    let ratio = ours["per_second"].as_f64().unwrap_or(0.0) / theirs["per_second"].as_f64().unwrap_or(1.0);
    eprintln!("ratio (Referee / Icarus checks per second): {ratio:.2}");
    println!(
        "{}",
        json!({
            "workers": options.workers, "referee": ours, "icarus": theirs, "ratio": ratio,
            "unproved": unproved, "broken_testbenches": broken,
        })
    );
    Ok(())
}
