//! Runs one small Python program many times through the sandbox and reports runs per second and
//! the mean wall time of a run: the per-run cost of a fresh instance, for profiling.
//!
//! ```sh
//! cargo run --release -p referee-sandbox --example python_runs -- 2000
//! # one worker per core the process may use: `taskset -c 0 ...` runs one
//! # a second number sets the instance pool's size (0: no pool, instances on demand)
//! cargo run --release -p referee-sandbox --example python_runs -- 2000 0
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use referee_sandbox::{Limits, Sandbox, SandboxConfig, Termination};

const PROGRAM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let runs: usize = std::env::args().nth(1).map(|n| n.parse()).transpose()?.unwrap_or(1000);
    let mut config = SandboxConfig::default();
    if let Some(pool_runs) = std::env::args().nth(2) {
        config.pool_runs = pool_runs.parse()?;
    }
    let sandbox = Arc::new(Sandbox::new(config)?);
    let python = sandbox.python()?;
    let workers = sandbox.config().workers;
    // The first runs load the runtime and warm a pool slot per worker; they are not measured.
    for _ in 0..workers {
        python.clone().run_on(sandbox.host(), PROGRAM, b"1 2\n".to_vec(), None, 7, Limits::default()).await?;
    }
    let started = Instant::now();
    let tasks: Vec<_> = (0..runs)
        .map(|i| {
            let (python, sandbox) = (python.clone(), Arc::clone(&sandbox));
            tokio::spawn(async move {
                let stdin = format!("{i} {}\n", 2 * i).into_bytes();
                let (execution, _) = python.run_on(sandbox.host(), PROGRAM, stdin, None, 7, Limits::default()).await?;
                anyhow::ensure!(execution.termination == Termination::Exited, "{:?}", execution.termination);
                anyhow::ensure!(execution.stdout == format!("{}\n", 3 * i).into_bytes(), "wrong output");
                Ok(execution.wall_time)
            })
        })
        .collect();
    let mut busy = Duration::ZERO;
    for task in tasks {
        busy += task.await??;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{runs} runs on {workers} workers ({:?}): {:.1} runs/s, {:.3} ms of wall time per run",
        sandbox.allocation(),
        runs as f64 / seconds,
        busy.as_secs_f64() * 1e3 / runs as f64
    );
    Ok(())
}
