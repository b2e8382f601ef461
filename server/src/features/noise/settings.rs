//! `[noise]`: the noisy-reward layer.

use serde::{Deserialize, Serialize};

/// The noisy-reward layer: corrections from per-verifier noise models, and appeals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NoiseConfig {
    /// Corrections are refused when the lower end of J = 1 − ρ0 − ρ1's 95% interval is below
    /// this floor.
    pub j_floor: f64,
    /// Sampled verdicts waiting for their appeal; further samples are dropped (and counted in
    /// metrics) while the queue is full.
    pub appeal_queue: usize,
    /// Most sampled verdicts the appeal checker receives as one batch.
    pub appeal_batch: usize,
    /// Time budget of one appeal batch, in milliseconds.
    pub appeal_timeout_ms: u64,
    /// How often tallies are written and noise models re-read from the database (so that
    /// changes made through another replica apply here), in milliseconds.
    pub refresh_interval_ms: u64,
    /// Monte Carlo draws behind the intervals of appeal estimates.
    pub monte_carlo_draws: u32,
    /// Overturns kept per noise model for `GET /v1/noise/{verifier}/appeals`.
    pub overturns_kept: u32,
    /// Seeds the draws that pick verdicts for appeal, making the sample reproducible for the
    /// same sequence of verdicts; unseeded draws when absent.
    pub appeal_seed: Option<u64>,
}

impl Default for NoiseConfig {
    fn default() -> Self {
        NoiseConfig {
            j_floor: 0.2,
            appeal_queue: 10_000,
            appeal_batch: 256,
            appeal_timeout_ms: 60_000,
            refresh_interval_ms: 1000,
            monte_carlo_draws: 10_000,
            overturns_kept: 1000,
            appeal_seed: None,
        }
    }
}
