//! Logs and metrics set-up, once per process.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tracing_subscriber::EnvFilter;

use crate::config::LogConfig;

/// Latency buckets in seconds: 50 µs to 60 s.
const LATENCY_BUCKETS: [f64; 18] = [
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 15.0,
    60.0,
];

/// Size buckets of the RLPR batcher's passes (sequences and tokens): powers of 4, 1 to 4^10.
const SIZE_BUCKETS: [f64; 11] = [1.0, 4.0, 16.0, 64.0, 256.0, 1024.0, 4096.0, 16384.0, 65536.0, 262_144.0, 1_048_576.0];

/// The process's Prometheus recorder, installed on first use.
pub fn prometheus() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &LATENCY_BUCKETS)
                .and_then(|b| {
                    b.set_buckets_for_metric(Matcher::Prefix("referee_rlpr_batch_".to_owned()), &SIZE_BUCKETS)
                })
                .map(PrometheusBuilder::build_recorder)
                .unwrap_or_else(|_| PrometheusBuilder::new().build_recorder());
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics shows only this one's series");
            }
            describe_series();
            handle
        })
        .clone()
}

/// The counters and gauges that dashboards and alerts watch for rare events, with their help
/// text: each is registered at zero when the recorder is installed, so that `/metrics` lists
/// it (and a query on it, e.g. deploy/grafana/referee.json's, finds a series) before the
/// first event. A labelled one is registered with every value the server gives its label.
const DESCRIBED: [Described; 18] = [
    Described::gauge("referee_http_requests_in_flight", "HTTP requests being served."),
    Described::gauge("referee_trainer_requests_waiting", "Trainer requests waiting for room to be served."),
    Described::gauge("referee_rlpr_queue_depth", "Sequences queued for the local RLPR model."),
    Described::counter("referee_requests_shed_total", "Requests refused with 503 overloaded."),
    Described::counter("referee_admissions_refused_total", "Scoring requests a bounded scorer refused with 429 busy."),
    Described::counter("referee_trainer_requests_refused_total", "Trainer requests refused while waiting for room.")
        .labelled("reason", &["waiting_full", "deadline"]),
    Described::counter("referee_auth_failures_total", "Requests refused for a missing or unknown API key."),
    Described::counter("referee_scoring_log_waits_total", "Requests that waited for room in the scoring-log queue."),
    Described::counter("referee_scoring_log_dropped_rows_total", "Scoring-log rows dropped, by reason.")
        .labelled("reason", &["queue_full", "retries_exhausted", "write_failed", "closed"]),
    Described::counter("referee_cache_dropped_rows_total", "Result-cache rows dropped (queue full or write failed)."),
    Described::counter("referee_storage_rows_written_total", "Scoring-log and result-cache rows written."),
    Described::counter("referee_storage_write_errors_total", "Batch writes to the database that failed."),
    Described::counter("referee_storage_write_retries_total", "Batch writes retried after a transient error."),
    Described::counter("referee_cache_errors_total", "Result-cache reads that failed."),
    Described::counter("referee_jobs_created_total", "Batch jobs created."),
    Described::counter("referee_job_items_total", "Items of the batch jobs created."),
    Described::counter("referee_job_chunks_done_total", "Job chunks scored."),
    Described::counter("referee_job_chunks_reclaimed_total", "Job chunks taken back from a dead earlier process."),
];

/// A series registered at start-up: see [`DESCRIBED`].
#[derive(Debug, Clone, Copy)]
struct Described {
    name: &'static str,
    gauge: bool,
    help: &'static str,
    label: Option<(&'static str, &'static [&'static str])>,
}

impl Described {
    const fn counter(name: &'static str, help: &'static str) -> Described {
        Described { name, gauge: false, help, label: None }
    }

    const fn gauge(name: &'static str, help: &'static str) -> Described {
        Described { name, gauge: true, help, label: None }
    }

    const fn labelled(self, key: &'static str, values: &'static [&'static str]) -> Described {
        Described { label: Some((key, values)), ..self }
    }
}

/// Describes and registers [`DESCRIBED`] on the installed recorder.
fn describe_series() {
    for series in DESCRIBED {
        let label_sets: Vec<Vec<metrics::Label>> = match series.label {
            Some((key, values)) => values.iter().map(|&value| vec![metrics::Label::new(key, value)]).collect(),
            None => vec![Vec::new()],
        };
        if series.gauge {
            metrics::describe_gauge!(series.name, series.help);
        } else {
            metrics::describe_counter!(series.name, series.help);
        }
        for labels in label_sets {
            if series.gauge {
                metrics::gauge!(series.name, labels).increment(0.0);
            } else {
                metrics::counter!(series.name, labels).increment(0);
            }
        }
    }
}

/// Installs the log subscriber; later calls (tests starting several servers) keep the first.
pub fn init_logging(config: &LogConfig) {
    let filter = EnvFilter::try_from_env("RUST_LOG").unwrap_or_else(|_| EnvFilter::new(&config.filter));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).with_ansi(ansi);
    let _ = if config.json { builder.json().try_init() } else { builder.try_init() };
}
