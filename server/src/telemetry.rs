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
            handle
        })
        .clone()
}

/// Installs the log subscriber; later calls (tests starting several servers) keep the first.
pub fn init_logging(config: &LogConfig) {
    let filter = EnvFilter::try_from_env("RUST_LOG").unwrap_or_else(|_| EnvFilter::new(&config.filter));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false).with_ansi(ansi);
    let _ = if config.json { builder.json().try_init() } else { builder.try_init() };
}
