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
    /// Most stored rows one `GET /v1/runs/{run}/stats` reads (the aggregates it is computed
    /// from: a row per step, verifier and distinct score and status, per latency bucket, per
    /// group and per prompt); a wider step range is refused with the count, to be narrowed with
    /// `from_step` and `to_step`. Items with a discrete reward cost a few rows per step however
    /// many they are, so a run without steps (all at step 0) is read whole.
    pub max_stats_rows: u64,
    /// The former cap, on items rather than rows: no longer read, and reported as deprecated
    /// when set (a number of items does not translate into a number of rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_stats_items: Option<u64>,
    /// Bootstrap resamples behind the intervals of `GET /v1/runs/{run}/stats` (fewer for very
    /// large ranges, stated in the response).
    pub bootstrap_resamples: usize,
    /// Text retention (`[runs.samples]`): the response, extracted answer and details of a
    /// sample of the recorded items, for auditing verdicts. Off by default.
    pub samples: SampleConfig,
}

/// Which recorded items keep their text, and how much of it (`[runs.samples]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SampleConfig {
    /// The share of recorded items (0 to 1) whose text is kept, drawn at random; 0 keeps none.
    pub rate: f64,
    /// The share of recorded items with an alarm status (`internal_error`, `timeout`,
    /// `unparseable`) whose text is kept, when above `rate`: the verdicts worth auditing first.
    pub alarm_rate: f64,
    /// Most bytes of a response, and of an extracted answer, kept (cut at a character boundary;
    /// the sample says it was cut and how long the text was). The details are kept whole when
    /// their JSON fits in this, else with their long strings cut.
    pub max_text_bytes: usize,
    /// Samples held in memory until written; beyond, further samples are dropped (counted in
    /// `referee_runs_dropped_samples_total`).
    pub max_pending: usize,
}

impl Default for SampleConfig {
    fn default() -> Self {
        SampleConfig { rate: 0.0, alarm_rate: 0.0, max_text_bytes: 8192, max_pending: 10_000 }
    }
}

impl SampleConfig {
    /// Whether any item may keep its text.
    pub fn enabled(&self) -> bool {
        self.rate > 0.0 || self.alarm_rate > 0.0
    }
}

impl Default for RunsConfig {
    fn default() -> Self {
        RunsConfig {
            enabled: true,
            flush_interval_ms: 500,
            max_pending_items: 200_000,
            max_stats_rows: 2_000_000,
            max_stats_items: None,
            bootstrap_resamples: 2000,
            samples: SampleConfig::default(),
        }
    }
}

impl RunsConfig {
    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.flush_interval_ms == 0 || self.max_pending_items == 0 || self.max_stats_rows == 0 {
            return Err(
                "runs.flush_interval_ms, runs.max_pending_items and runs.max_stats_rows must be at least 1".to_owned()
            );
        }
        if !(100..=100_000).contains(&self.bootstrap_resamples) {
            return Err("runs.bootstrap_resamples must be between 100 and 100000".to_owned());
        }
        let samples = &self.samples;
        for (name, rate) in [("rate", samples.rate), ("alarm_rate", samples.alarm_rate)] {
            if !(0.0..=1.0).contains(&rate) {
                return Err(format!("runs.samples.{name} must be between 0 and 1"));
            }
        }
        if !(64..=1 << 20).contains(&samples.max_text_bytes) || samples.max_pending == 0 {
            return Err(
                "runs.samples.max_text_bytes must be between 64 and 1048576, runs.samples.max_pending at least 1"
                    .to_owned(),
            );
        }
        Ok(())
    }
}
