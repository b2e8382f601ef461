//! Closed-loop HTTP load generator for `POST /v1/score` with `exact-match` items, or with a
//! request read from a file (`--body`).
//!
//! Each of `--connections` tasks owns one keep-alive HTTP/1.1 connection and sends the same
//! request body again as soon as the previous response has been read. The body holds
//! `--batch-size` exact-match items with deterministic content: even-numbered items are correct
//! once whitespace is normalised, odd-numbered items are not. Before the run a single request
//! checks that the server scores every item as expected, so a benchmark never measures a server
//! that answers quickly but wrongly.
//!
//! The run has a warm-up phase whose requests are not counted, then a measured phase. Only
//! responses completed inside the measured phase count towards throughput and latency. Any
//! non-2xx response or transport failure, warm-up included, is an error, and a run with errors
//! exits with status 1. The human-readable report goes to stderr and one JSON line to stdout.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, anyhow, bail, ensure};
use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{CONTENT_TYPE, HOST};
use hyper::{Method, Request, Uri};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// Command-line options of the load generator.
#[derive(Debug, Parser)]
#[command(name = "loadgen", about = "Closed-loop load generator for POST /v1/score")]
struct Options {
    /// Full URL of the scoring endpoint, for example `http://127.0.0.1:8080/v1/score`.
    #[arg(long)]
    url: String,

    /// Number of concurrent keep-alive connections, each with one request in flight.
    #[arg(long, default_value_t = 1)]
    connections: usize,

    /// Number of exact-match items in every request.
    #[arg(long, default_value_t = 1)]
    batch_size: usize,

    /// Length of the measured phase in seconds.
    #[arg(long, default_value_t = 5.0)]
    duration_secs: f64,

    /// Length of the uncounted warm-up phase in seconds.
    #[arg(long, default_value_t = 1.0)]
    warmup_secs: f64,

    /// Seconds after which a single request counts as failed.
    #[arg(long, default_value_t = 30.0)]
    request_timeout_secs: f64,

    /// Worker threads of the load generator's own runtime.
    #[arg(long, default_value_t = 1)]
    threads: usize,

    /// Free-form label copied into the JSON report (for example the server's name).
    #[arg(long, default_value = "")]
    label: String,

    /// A JSON file with the score request to send instead of the generated exact-match batch.
    /// The check before the run then requires one result per item, each `correct`,
    /// `incorrect` or `unparseable`; `--batch-size` is ignored.
    #[arg(long)]
    body: Option<std::path::PathBuf>,
}

/// Where to send requests: the socket address plus the `Host` header and path of the URL.
#[derive(Debug, Clone)]
struct Target {
    addr: SocketAddr,
    host_header: String,
    path: String,
}

impl Target {
    /// Parses an `http://host:port/path` URL and resolves the host once, up front.
    async fn from_url(url: &str) -> anyhow::Result<Self> {
        let uri: Uri = url.parse().with_context(|| format!("invalid URL {url:?}"))?;
        ensure!(uri.scheme_str() == Some("http"), "only http:// URLs are supported, got {url:?}");
        let authority = uri.authority().ok_or_else(|| anyhow!("URL {url:?} has no host"))?;
        let port = authority.port_u16().unwrap_or(80);
        let addr = tokio::net::lookup_host((authority.host(), port))
            .await
            .with_context(|| format!("cannot resolve {}", authority.host()))?
            .next()
            .ok_or_else(|| anyhow!("{} resolves to no address", authority.host()))?;
        let path = uri.path_and_query().map_or_else(|| "/".to_owned(), |path| path.as_str().to_owned());
        Ok(Self { addr, host_header: authority.as_str().to_owned(), path })
    }

    /// Opens a fresh HTTP/1.1 connection and returns its request sender.
    async fn connect(&self) -> anyhow::Result<SendRequest<Full<Bytes>>> {
        let stream = TcpStream::connect(self.addr).await.with_context(|| format!("cannot connect to {}", self.addr))?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move {
            // The connection ends when the sender is dropped or the peer closes it; a failure
            // surfaces again on the next `send_request`, where it is counted.
            let _closed = connection.await;
        });
        Ok(sender)
    }

    /// Builds one POST request carrying `body`.
    fn request(&self, body: &Bytes) -> anyhow::Result<Request<Full<Bytes>>> {
        Ok(Request::builder()
            .method(Method::POST)
            .uri(self.path.as_str())
            .header(HOST, self.host_header.as_str())
            .header(CONTENT_TYPE, "application/json")
            .body(Full::new(body.clone()))?)
    }
}

/// The answer item `index` carries in its reference, deterministic and varied across items.
fn answer_for(index: usize) -> usize {
    (index * 7919 + 17) % 100_003
}

/// Whether item `index` of the generated batch should be scored as correct.
fn expected_correct(index: usize) -> bool {
    index.is_multiple_of(2)
}

/// Builds the request body: `batch_size` exact-match items, half correct and half not.
///
/// Correct responses differ from their reference only in surrounding and repeated whitespace,
/// so the server's default trimming and whitespace collapsing is exercised on every item.
fn score_request_body(batch_size: usize) -> anyhow::Result<Bytes> {
    let items: Vec<Value> = (0..batch_size)
        .map(|index| {
            let answer = answer_for(index);
            let reference = format!("The final answer is x = {answer}.");
            let given = if expected_correct(index) { answer } else { answer + 1 };
            let response = format!("  The final  answer is\tx =  {given}.\n");
            json!({
                "id": format!("item-{index}"),
                "verifier": "exact-match",
                "input": {
                    "response": response,
                    "reference": reference,
                    "operation": "eq",
                },
            })
        })
        .collect();
    Ok(Bytes::from(serde_json::to_vec(&json!({ "items": items }))?))
}

/// Sends the body once and returns its results.
async fn check_request(target: &Target, body: &Bytes, batch_size: usize) -> anyhow::Result<Vec<Value>> {
    let mut sender = target.connect().await?;
    let response = sender.send_request(target.request(body)?).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    ensure!(status.is_success(), "check request got HTTP {status}: {}", String::from_utf8_lossy(&bytes));
    let mut parsed: Value = serde_json::from_slice(&bytes).context("check response is not JSON")?;
    let results = match parsed.get_mut("results").map(Value::take) {
        Some(Value::Array(results)) => results,
        _ => bail!("check response has no `results` array"),
    };
    ensure!(results.len() == batch_size, "expected {batch_size} results, got {}", results.len());
    Ok(results)
}

/// Checks that every result of a request from `--body` was judged.
async fn check_judged(target: &Target, body: &Bytes, batch_size: usize) -> anyhow::Result<()> {
    for (index, result) in check_request(target, body, batch_size).await?.iter().enumerate() {
        let status = result.get("status").and_then(Value::as_str);
        ensure!(
            matches!(status, Some("correct" | "incorrect" | "unparseable")),
            "result {index} was not judged: {result}"
        );
    }
    Ok(())
}

/// Sends the body once and checks that every result has the expected id, score and status.
async fn check_server_scores(target: &Target, body: &Bytes, batch_size: usize) -> anyhow::Result<()> {
    let results = check_request(target, body, batch_size).await?;
    for (index, result) in results.iter().enumerate() {
        let expected_id = format!("item-{index}");
        let (expected_score, expected_status) =
            if expected_correct(index) { (1.0, "correct") } else { (0.0, "incorrect") };
        let id = result.get("id").and_then(Value::as_str);
        let score = result.get("score").and_then(Value::as_f64);
        let status = result.get("status").and_then(Value::as_str);
        if id != Some(expected_id.as_str()) || score != Some(expected_score) || status != Some(expected_status) {
            bail!(
                "result {index} should be id {expected_id:?}, score {expected_score}, \
                 status {expected_status:?}; got {result}"
            );
        }
    }
    Ok(())
}

/// The phase boundaries shared by every connection task.
#[derive(Debug, Clone, Copy)]
struct Schedule {
    measure_start: Instant,
    measure_end: Instant,
    request_timeout: Duration,
}

/// What one connection task observed.
#[derive(Debug, Default)]
struct ConnectionStats {
    /// Latency of every successful response completed in the measured phase, in microseconds.
    latencies_us: Vec<u64>,
    /// Count of non-2xx responses by status code, over the whole run.
    error_statuses: BTreeMap<u16, u64>,
    /// Connection failures, broken responses and timeouts, over the whole run.
    transport_errors: u64,
    /// Connections opened after the first one, because the previous one failed or closed.
    reconnects: u64,
    /// How often each kind of transport failure happened, keyed by its message.
    transport_error_kinds: BTreeMap<String, u64>,
}

impl ConnectionStats {
    fn merge(&mut self, other: Self) {
        self.latencies_us.extend(other.latencies_us);
        for (status, count) in other.error_statuses {
            *self.error_statuses.entry(status).or_default() += count;
        }
        self.transport_errors += other.transport_errors;
        self.reconnects += other.reconnects;
        for (kind, count) in other.transport_error_kinds {
            *self.transport_error_kinds.entry(kind).or_default() += count;
        }
    }

    /// Counts one transport failure under its message, keeping a bounded number of kinds.
    fn record_transport_error(&mut self, message: String) {
        self.transport_errors += 1;
        let kinds = self.transport_error_kinds.len();
        if let Some(count) = self.transport_error_kinds.get_mut(&message) {
            *count += 1;
        } else if kinds < MAX_ERROR_KINDS {
            self.transport_error_kinds.insert(message, 1);
        }
    }

    fn errors(&self) -> u64 {
        self.transport_errors + self.error_statuses.values().sum::<u64>()
    }
}

/// Distinct transport failure messages kept for the report.
const MAX_ERROR_KINDS: usize = 8;

/// Outcome of one request.
enum Exchange {
    Completed { status: u16, finished: Instant },
    Failed(String),
}

/// Sends one request and reads the whole response body.
async fn exchange(sender: &mut SendRequest<Full<Bytes>>, target: &Target, body: &Bytes) -> anyhow::Result<u16> {
    sender.ready().await?;
    let response = sender.send_request(target.request(body)?).await?;
    let status = response.status().as_u16();
    response.into_body().collect().await?;
    Ok(status)
}

/// Runs one closed-loop connection until the end of the measured phase.
///
/// A request still in flight when the measured phase ends is abandoned, which keeps the run's
/// length bounded whatever the server's latency.
async fn drive_connection(target: Target, body: Bytes, schedule: Schedule) -> ConnectionStats {
    let mut stats = ConnectionStats::default();
    let mut sender: Option<SendRequest<Full<Bytes>>> = None;
    let mut opened_before = false;
    while Instant::now() < schedule.measure_end {
        let mut current = match sender.take() {
            Some(current) => current,
            None => {
                if opened_before {
                    stats.reconnects += 1;
                }
                opened_before = true;
                match target.connect().await {
                    Ok(fresh) => fresh,
                    Err(error) => {
                        stats.record_transport_error(format!("connect: {error:#}"));
                        // Avoid a tight reconnect loop against a server that refuses connections.
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                }
            }
        };
        let sent = Instant::now();
        let outcome = tokio::select! {
            result = tokio::time::timeout(
                schedule.request_timeout,
                exchange(&mut current, &target, &body),
            ) => match result {
                Ok(Ok(status)) => Exchange::Completed { status, finished: Instant::now() },
                Ok(Err(error)) => Exchange::Failed(format!("{error:#}")),
                Err(_) => Exchange::Failed("request timed out".to_owned()),
            },
            () = tokio::time::sleep_until(schedule.measure_end) => break,
        };
        match outcome {
            Exchange::Completed { status, finished } => {
                if (200..300).contains(&status) {
                    if finished >= schedule.measure_start && finished < schedule.measure_end {
                        let micros = finished.duration_since(sent).as_micros();
                        stats.latencies_us.push(u64::try_from(micros).unwrap_or(u64::MAX));
                    }
                } else {
                    *stats.error_statuses.entry(status).or_default() += 1;
                }
                if !current.is_closed() {
                    sender = Some(current);
                }
            }
            Exchange::Failed(message) => stats.record_transport_error(message),
        }
    }
    stats
}

/// The value at percentile `percentile` (0–100) of sorted samples, by the nearest-rank method.
fn percentile(sorted: &[u64], percentile: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (percentile / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn micros_to_ms(micros: u64) -> f64 {
    micros as f64 / 1000.0
}

/// Runs the whole benchmark and returns the merged statistics of every connection.
async fn run(options: &Options) -> anyhow::Result<ConnectionStats> {
    let target = Target::from_url(&options.url).await?;
    match &options.body {
        Some(path) => {
            let body = Bytes::from(std::fs::read(path)?);
            check_judged(&target, &body, options.batch_size).await.context("the server did not judge every item")?;
            drive(options, &target, body).await
        }
        None => {
            let body = score_request_body(options.batch_size)?;
            check_server_scores(&target, &body, options.batch_size)
                .await
                .context("the server's scores differ from the expected ones")?;
            drive(options, &target, body).await
        }
    }
}

/// Drives every connection through the warm-up and measured phases.
async fn drive(options: &Options, target: &Target, body: Bytes) -> anyhow::Result<ConnectionStats> {
    let start = Instant::now();
    let measure_start = start + Duration::from_secs_f64(options.warmup_secs);
    let schedule = Schedule {
        measure_start,
        measure_end: measure_start + Duration::from_secs_f64(options.duration_secs),
        request_timeout: Duration::from_secs_f64(options.request_timeout_secs),
    };
    let tasks: Vec<_> = (0..options.connections)
        .map(|_| tokio::spawn(drive_connection(target.clone(), body.clone(), schedule)))
        .collect();
    let mut total = ConnectionStats::default();
    for task in tasks {
        total.merge(task.await?);
    }
    Ok(total)
}

/// Prints the human-readable report to stderr and the JSON line to stdout.
fn report(options: &Options, mut stats: ConnectionStats) -> bool {
    stats.latencies_us.sort_unstable();
    let requests = stats.latencies_us.len() as u64;
    let items = requests * options.batch_size as u64;
    let requests_per_s = requests as f64 / options.duration_secs;
    let items_per_s = items as f64 / options.duration_secs;
    let p50 = micros_to_ms(percentile(&stats.latencies_us, 50.0));
    let p99 = micros_to_ms(percentile(&stats.latencies_us, 99.0));
    let max = micros_to_ms(stats.latencies_us.last().copied().unwrap_or(0));
    let mean = if stats.latencies_us.is_empty() {
        0.0
    } else {
        micros_to_ms(stats.latencies_us.iter().sum::<u64>()) / requests as f64
    };
    let errors = stats.errors();

    eprintln!(
        "{} connections={} batch={} warmup={}s duration={}s threads={}",
        options.url,
        options.connections,
        options.batch_size,
        options.warmup_secs,
        options.duration_secs,
        options.threads
    );
    eprintln!("  requests: {requests} ({requests_per_s:.1}/s)  items: {items} ({items_per_s:.1}/s)");
    eprintln!("  latency: p50 {p50:.3} ms  p99 {p99:.3} ms  mean {mean:.3} ms  max {max:.3} ms");
    eprintln!(
        "  errors: {errors} (HTTP {:?}, transport {})  reconnects: {}",
        stats.error_statuses, stats.transport_errors, stats.reconnects
    );
    for (kind, count) in &stats.transport_error_kinds {
        eprintln!("    {count} × {kind}");
    }
    if errors > 0 {
        eprintln!("  INVALID RUN: every response must be 2xx");
    }

    let error_statuses: serde_json::Map<String, Value> =
        stats.error_statuses.iter().map(|(status, count)| (status.to_string(), json!(count))).collect();
    let line = json!({
        "label": options.label,
        "url": options.url,
        "connections": options.connections,
        "batch_size": options.batch_size,
        "warmup_s": options.warmup_secs,
        "duration_s": options.duration_secs,
        "threads": options.threads,
        "requests": requests,
        "items": items,
        "requests_per_s": requests_per_s,
        "items_per_s": items_per_s,
        "latency_ms": { "p50": p50, "p99": p99, "mean": mean, "max": max },
        "errors": errors,
        "error_statuses": error_statuses,
        "transport_errors": stats.transport_errors,
        "transport_error_kinds": stats.transport_error_kinds,
        "reconnects": stats.reconnects,
        "valid": errors == 0,
    });
    println!("{line}");
    errors == 0
}

fn main() -> anyhow::Result<()> {
    let mut options = Options::parse();
    if let Some(path) = &options.body {
        let text = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let request: Value = serde_json::from_slice(&text).context("--body is not JSON")?;
        let items = request["items"].as_array().ok_or_else(|| anyhow!("--body has no `items` array"))?;
        options.batch_size = items.len();
    }
    ensure!(options.connections > 0, "--connections must be at least 1");
    ensure!(options.batch_size > 0, "--batch-size must be at least 1");
    ensure!(options.threads > 0, "--threads must be at least 1");
    for (name, seconds) in [
        ("--duration-secs", options.duration_secs),
        ("--warmup-secs", options.warmup_secs),
        ("--request-timeout-secs", options.request_timeout_secs),
    ] {
        ensure!(seconds.is_finite() && (0.0..=3600.0).contains(&seconds), "{name} must be between 0 and 3600 seconds");
    }
    ensure!(options.duration_secs > 0.0, "--duration-secs must be positive");

    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(options.threads).enable_all().build()?;
    let stats = runtime.block_on(run(&options))?;
    if report(&options, stats) {
        Ok(())
    } else {
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_uses_nearest_rank() {
        let samples: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&samples, 50.0), 50);
        assert_eq!(percentile(&samples, 99.0), 99);
        assert_eq!(percentile(&samples, 100.0), 100);
        assert_eq!(percentile(&[7], 99.0), 7);
        assert_eq!(percentile(&[], 50.0), 0);
    }

    #[test]
    fn body_holds_half_correct_exact_match_items() -> anyhow::Result<()> {
        let body: Value = serde_json::from_slice(&score_request_body(4)?)?;
        let items = body["items"].as_array().ok_or_else(|| anyhow!("no items array"))?;
        assert_eq!(items.len(), 4);
        for (index, item) in items.iter().enumerate() {
            assert_eq!(item["verifier"], "exact-match");
            assert_eq!(item["id"], format!("item-{index}"));
            let normalised = item["input"]["response"]
                .as_str()
                .ok_or_else(|| anyhow!("no response"))?
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let matches = normalised == item["input"]["reference"];
            assert_eq!(matches, expected_correct(index), "item {index}");
        }
        Ok(())
    }
}
