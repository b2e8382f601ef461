//! `referee score`: score a JSONL file through the registry in this process, no server.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressStyle};
use referee_core::{Budget, Status};
use serde_json::Value;

use crate::engine::Engine;
use crate::registry::Registry;

/// Counts of a finished local run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub items: usize,
    pub correct: usize,
    pub invalid: usize,
}

/// Options of a local run.
#[derive(Debug, Clone)]
pub struct LocalOptions {
    /// Items per engine call.
    pub batch_size: usize,
    /// Budget of one batch.
    pub timeout: Duration,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

/// Scores every line of `input` (one score item per line, as in `POST /v1/score`) with the
/// scorers of `registry` and writes one result per line to `output` in the same order, as each
/// batch finishes. A line that is not JSON, or holds a key twice in one object, becomes that
/// line's `invalid_input` result.
pub async fn score_file(
    registry: Registry,
    input: &Path,
    output: Option<&Path>,
    options: &LocalOptions,
) -> anyhow::Result<Summary> {
    let total = count_lines(input)?;
    let reader =
        BufReader::new(std::fs::File::open(input).with_context(|| format!("cannot open {}", input.display()))?);
    let mut writer: Box<dyn Write> = match output {
        Some(path) => Box::new(BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let bar = if options.progress { ProgressBar::new(total as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} items  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let engine = Engine::new(Arc::new(registry));
    let mut summary = Summary::default();
    let mut batch: Vec<Result<Value, String>> = Vec::with_capacity(options.batch_size);
    let mut lines = reader.lines().enumerate();
    loop {
        batch.clear();
        for (number, line) in lines.by_ref() {
            let line = line.with_context(|| format!("cannot read line {} of {}", number + 1, input.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            batch.push(crate::http::json::parse_item(&line, format_args!("line {}", number + 1)));
            if batch.len() == options.batch_size {
                break;
            }
        }
        if batch.is_empty() {
            break;
        }
        let results =
            engine.score_lines(std::mem::take(&mut batch), Budget::with_timeout(options.timeout), "local").await;
        for result in &results {
            serde_json::to_writer(&mut writer, result)?;
            writer.write_all(b"\n")?;
            summary.items += 1;
            summary.correct += usize::from(result.status == Status::Correct);
            summary.invalid += usize::from(result.status == Status::InvalidInput);
        }
        writer.flush()?;
        bar.inc(results.len() as u64);
    }
    bar.finish_and_clear();
    Ok(summary)
}

fn count_lines(path: &Path) -> anyhow::Result<usize> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut count = 0;
    for line in BufReader::new(file).lines() {
        count += usize::from(!line?.trim().is_empty());
    }
    Ok(count)
}
