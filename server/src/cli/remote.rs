//! `referee score --server URL`: submit a JSONL file as a batch job to a running server, follow
//! its progress, and write its results.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

use super::local::Summary;

/// Options of a remote run.
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    /// Items per chunk; the server's default when `None`.
    pub chunk_size: Option<usize>,
    /// Sent as `Authorization: Bearer <key>`.
    pub api_key: Option<String>,
    /// How often to ask for progress.
    pub poll: Duration,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

fn authorized(request: reqwest::RequestBuilder, key: Option<&str>) -> reqwest::RequestBuilder {
    match key {
        Some(key) => request.bearer_auth(key),
        None => request,
    }
}

async fn json_or_error(response: reqwest::Response, what: &str) -> anyhow::Result<Value> {
    let status = response.status();
    let body: Value = response.json().await.with_context(|| format!("{what}: the server's answer is not JSON"))?;
    if !status.is_success() {
        bail!("{what}: {status}: {}", body["message"].as_str().unwrap_or("no message"));
    }
    Ok(body)
}

/// Submits `input` to `server`, waits for the job, and writes its results (JSONL, input order)
/// to `output` or standard output.
pub async fn score_remote(
    server: &str,
    input: &Path,
    output: Option<&Path>,
    options: &RemoteOptions,
) -> anyhow::Result<Summary> {
    let base = server.trim_end_matches('/');
    let body = tokio::fs::read(input).await.with_context(|| format!("cannot read {}", input.display()))?;
    let client = reqwest::Client::builder().build()?;
    let key = options.api_key.as_deref();
    let mut url = format!("{base}/v1/jobs");
    if let Some(size) = options.chunk_size {
        url.push_str(&format!("?chunk_size={size}"));
    }
    let submitted = authorized(client.post(&url), key)
        .header("content-type", "application/x-ndjson")
        .body(body)
        .send()
        .await
        .with_context(|| format!("cannot reach {base}"))?;
    let job = json_or_error(submitted, "submitting the job").await?;
    let id = job["id"].as_str().context("the server returned no job id")?.to_owned();
    let total = job["total_items"].as_u64().unwrap_or(0);
    let bar = if options.progress { ProgressBar::new(total) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} items  {per_sec}  eta {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(id.clone());
    loop {
        let status =
            json_or_error(authorized(client.get(format!("{base}/v1/jobs/{id}")), key).send().await?, "progress")
                .await?;
        bar.set_position(status["scored_items"].as_u64().unwrap_or(0));
        match status["state"].as_str() {
            Some("done") => break,
            Some("cancelled") => bail!("job {id} was cancelled"),
            _ => tokio::time::sleep(options.poll).await,
        }
    }
    bar.finish_and_clear();

    let mut response = authorized(client.get(format!("{base}/v1/jobs/{id}/results")), key).send().await?;
    if !response.status().is_success() {
        bail!("fetching results of {id}: {}", response.status());
    }
    let mut writer: Box<dyn Write> = match output {
        Some(path) => Box::new(BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let mut summary = Summary::default();
    let mut pending = Vec::new();
    while let Some(bytes) = response.chunk().await? {
        pending.extend_from_slice(&bytes);
        while let Some(end) = pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            let result: Value = serde_json::from_slice(&line)?;
            summary.items += 1;
            summary.correct += usize::from(result["status"] == "correct");
            summary.invalid += usize::from(result["status"] == "invalid_input");
            writer.write_all(&line)?;
        }
    }
    writer.flush()?;
    Ok(summary)
}
