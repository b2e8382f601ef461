//! `[database]`, `[scoring_log]` and `[cache]`: the connection pool, the scoring log and the result
//! cache.

use serde::{Deserialize, Serialize};

/// Connection pool settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    pub max_connections: u32,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig { max_connections: 8 }
    }
}

/// Which scored items are written to the scoring log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogMode {
    Off,
    Sampled,
    All,
}

/// The scoring log: one row per scored item, written in batches off the request path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScoringLogConfig {
    pub mode: LogMode,
    /// Fraction of items logged in `sampled` mode.
    pub sample_rate: f64,
    /// Rows queued or being written at once; a request whose rows find the queue full waits
    /// for room (`enqueue_timeout_ms`).
    pub queue_capacity: usize,
    /// Longest a row waits before its batch is written, in milliseconds.
    pub flush_interval_ms: u64,
    /// Longest a request waits for room for one verifier's rows before they are dropped (counted
    /// in `referee_scoring_log_dropped_rows_total`), in milliseconds.
    pub enqueue_timeout_ms: u64,
    /// Longest a batch that fails with a transient database error is retried, in milliseconds.
    pub retry_window_ms: u64,
}

impl Default for ScoringLogConfig {
    fn default() -> Self {
        ScoringLogConfig {
            mode: LogMode::Off,
            sample_rate: 0.01,
            queue_capacity: 100_000,
            flush_interval_ms: 200,
            enqueue_timeout_ms: 1_000,
            retry_window_ms: 30_000,
        }
    }
}

/// The result cache keyed by (verifier id, version, input hash).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CacheConfig {
    pub enabled: bool,
}
