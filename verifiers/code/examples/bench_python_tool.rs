//! `python-tool` steps and idle interpreters, for `bench/episodes/run.sh`.
//!
//! `bench_python_tool CELLS EPISODES IDLE` reads a JSON array of code cells from the file CELLS,
//! then, on a sandbox with the default configuration (runtimes from
//! `REFEREE__SANDBOX__RUNTIMES_DIR` or `runtimes/build`):
//!
//! - latency: one episode runs every cell in turn, three times over (the first pass warms up and
//!   is not counted); the median and 95th percentile of a step;
//! - throughput: EPISODES episodes run every cell, as many at once as the sandbox has workers;
//! - idle memory: IDLE episodes each run one cell and stay live; the growth of the process's
//!   resident memory per idle episode.
//!
//! Prints one JSON line.

use std::sync::Arc;
use std::time::Instant;

use referee_code::{CodeVerifier, Sandbox, SandboxConfig};
use referee_core::{Environment as _, Episode};
use serde_json::{Value, json};

fn resident_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

async fn episode(tool: &referee_code::PythonTool) -> anyhow::Result<Box<dyn Episode>> {
    let started = tool.start(json!({"max_calls": 256})).await.map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(started.episode)
}

/// Runs every cell as the next step; each cell's standard output, in order.
async fn run_cells(
    episode: &mut Box<dyn Episode>,
    cells: &[String],
    latencies: &mut Vec<f64>,
) -> anyhow::Result<Vec<Value>> {
    let mut outputs = Vec::with_capacity(cells.len());
    for cell in cells {
        let began = Instant::now();
        let step = episode.step(json!({"code": cell})).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        latencies.push(began.elapsed().as_secs_f64() * 1e3);
        anyhow::ensure!(step.observation["status"] == "ok", "cell {cell:?}: {}", step.observation);
        outputs.push(step.observation["stdout"].clone());
    }
    Ok(outputs)
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = || anyhow::anyhow!("usage: bench_python_tool CELLS EPISODES IDLE");
    let cells: Vec<String> = serde_json::from_str(&std::fs::read_to_string(args.next().ok_or_else(usage)?)?)?;
    let episodes: usize = args.next().ok_or_else(usage)?.parse()?;
    let idle: usize = args.next().ok_or_else(usage)?.parse()?;
    let mut config = SandboxConfig::default();
    if let Some(dir) = std::env::var_os("REFEREE__SANDBOX__RUNTIMES_DIR") {
        config.runtimes_dir = dir.into();
    }
    config.sessions = idle.max(episodes) + 2;
    let workers = config.workers;
    let code = CodeVerifier::new().in_sandbox(Arc::new(Sandbox::new(config)?));
    let tool = Arc::new(code.tool_environment(idle.max(episodes) + 2, &[]));
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;

    runtime.block_on(async {
        // Latency: one episode, every cell in turn.
        let mut one = episode(&tool).await?;
        let outputs = run_cells(&mut one, &cells, &mut Vec::new()).await?;
        let mut latencies = Vec::new();
        for _ in 0..2 {
            run_cells(&mut one, &cells, &mut latencies).await?;
        }
        drop(one);
        latencies.sort_by(f64::total_cmp);
        let quantile = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];

        // Throughput: EPISODES episodes, `workers` at a time.
        let began = Instant::now();
        let mut tasks = Vec::new();
        let queue = Arc::new(tokio::sync::Semaphore::new(workers));
        for _ in 0..episodes {
            let tool = Arc::clone(&tool);
            let cells = cells.clone();
            let queue = Arc::clone(&queue);
            tasks.push(tokio::spawn(async move {
                let _slot = queue.acquire_owned().await?;
                let mut episode = episode(&tool).await?;
                run_cells(&mut episode, &cells, &mut Vec::new()).await.map(drop)
            }));
        }
        for task in tasks {
            task.await??;
        }
        let seconds = began.elapsed().as_secs_f64();
        let steps = episodes * cells.len();

        // Idle memory: IDLE live episodes, each after one cell.
        let before = resident_bytes();
        let mut live = Vec::new();
        for _ in 0..idle {
            let mut episode = episode(&tool).await?;
            run_cells(&mut episode, &cells[..1], &mut Vec::new()).await?;
            live.push(episode);
        }
        let after = resident_bytes();
        let per_episode = after.saturating_sub(before) as f64 / idle.max(1) as f64;
        println!(
            "{}",
            json!({
                "workers": workers, "cells": cells.len(), "outputs": outputs,
                "latency_ms": {"p50": quantile(0.5), "p95": quantile(0.95), "samples": latencies.len()},
                "throughput": {"episodes": episodes, "steps": steps, "seconds": seconds, "steps_per_second": steps as f64 / seconds},
                "idle": {"episodes": idle, "resident_bytes_per_episode": per_episode,
                         "episodes_per_gib": (1u64 << 30) as f64 / per_episode.max(1.0)},
            })
        );
        drop(live);
        Ok::<Value, anyhow::Error>(Value::Null)
    })?;
    Ok(())
}
