//! `[runs]`: what the server records of training runs.

use serde::{Deserialize, Serialize};

/// Run statistics and per-prompt pass rates (`[runs]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunsConfig {
    /// Records items that name a `run`; with `false` they are scored and nothing is recorded.
    pub enabled: bool,
    /// How often recorded items are written, in milliseconds: statistics and pass rates lag
    /// scoring by at most this (plus the write).
    pub flush_interval_ms: u64,
    /// Items recorded but not yet written (merged in memory; they pile up only while writes
    /// fail); beyond it, further items' statistics are dropped (counted in
    /// `referee_runs_dropped_items_total`) while their pass-rate counts are still kept.
    pub max_pending_items: usize,
    /// Most items one `GET /v1/runs/{run}/stats` reads; a wider step range is refused with the
    /// count, to be narrowed with `from_step` and `to_step`.
    pub max_stats_items: u64,
    /// Bootstrap resamples behind the intervals of `GET /v1/runs/{run}/stats` (fewer for very
    /// large ranges, stated in the response).
    pub bootstrap_resamples: usize,
}

impl Default for RunsConfig {
    fn default() -> Self {
        RunsConfig {
            enabled: true,
            flush_interval_ms: 500,
            max_pending_items: 200_000,
            max_stats_items: 2_000_000,
            bootstrap_resamples: 2000,
        }
    }
}

impl RunsConfig {
    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.flush_interval_ms == 0 || self.max_pending_items == 0 || self.max_stats_items == 0 {
            return Err(
                "runs.flush_interval_ms, runs.max_pending_items and runs.max_stats_items must be at least 1".to_owned()
            );
        }
        if !(100..=100_000).contains(&self.bootstrap_resamples) {
            return Err("runs.bootstrap_resamples must be between 100 and 100000".to_owned());
        }
        Ok(())
    }
}
