//! How a sequence's token log-probs become its score.

use serde::{Deserialize, Serialize};

/// The reduction of a sequence's token log-probs `logp_1..logp_n` to one score. An empty
/// sequence (no scored token) scores 0 under every kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreKind {
    /// `(1/n) Σ exp(logp_i)`, the mean token probability: RLPR's reward.
    #[default]
    MeanProb,
    /// `(1/n) Σ logp_i`.
    MeanLogprob,
    /// `exp((1/n) Σ logp_i)`, the geometric mean of the token probabilities.
    GeoMean,
    /// `exp(Σ logp_i)`, the probability of the whole sequence.
    Product,
}

impl ScoreKind {
    /// The kernels' integer code for this kind.
    pub fn code(self) -> u32 {
        match self {
            ScoreKind::MeanProb => 0,
            ScoreKind::MeanLogprob => 1,
            ScoreKind::GeoMean => 2,
            ScoreKind::Product => 3,
        }
    }

    /// The score of a sequence from its tokens' log-probs: the CPU reduction.
    pub fn of(self, logprobs: impl IntoIterator<Item = f64>) -> f64 {
        let (n, sum_logprob, sum_prob) =
            logprobs.into_iter().fold((0, 0.0f64, 0.0f64), |(n, l, p), x| (n + 1, l + x, p + x.exp()));
        self.finish(n, sum_logprob, sum_prob)
    }

    /// The score of a sequence from its count `n`, `Σ logp_i` and `Σ exp(logp_i)`. The CPU and
    /// CUDA reductions both end here (the CUDA source repeats it line for line).
    pub fn finish(self, n: usize, sum_logprob: f64, sum_prob: f64) -> f64 {
        if n == 0 {
            return 0.0;
        }
        let n = n as f64;
        match self {
            ScoreKind::MeanProb => sum_prob / n,
            ScoreKind::MeanLogprob => sum_logprob / n,
            ScoreKind::GeoMean => (sum_logprob / n).exp(),
            ScoreKind::Product => sum_logprob.exp(),
        }
    }
}
