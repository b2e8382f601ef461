//! Binomial proportions and their 95% intervals.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

use crate::NoiseError;
use crate::beta::beta_quantile;

/// The two-sided standard-normal quantile for 95% coverage, Φ⁻¹(0.975).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The tail probability on each side of a 95% interval.
pub(crate) const TAIL_95: f64 = 0.025;

/// A closed interval `[lower, upper]` within [0, 1] (or within [-1, 1] for Youden's J).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Interval {
    /// The lower end.
    pub lower: f64,
    /// The upper end.
    pub upper: f64,
}

impl Interval {
    /// True when `value` lies within the interval, ends included.
    pub fn contains(&self, value: f64) -> bool {
        self.lower <= value && value <= self.upper
    }

    /// The width `upper - lower`.
    pub fn width(&self) -> f64 {
        self.upper - self.lower
    }
}

/// How a 95% interval for a binomial proportion is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BinomialInterval {
    /// The Wilson score interval.
    Wilson,
    /// The equal-tailed Jeffreys interval: quantiles of Beta(k + ½, n − k + ½), with the lower
    /// end set to 0 when k = 0 and the upper end to 1 when k = n (Brown, Cai and DasGupta's
    /// modification, which restores coverage at the boundaries).
    #[default]
    Jeffreys,
    /// The Clopper–Pearson ("exact") interval: [B(0.025; k, n − k + 1), B(0.975; k + 1, n − k)]
    /// with B the beta quantile, the lower end 0 when k = 0 and the upper end 1 when k = n. It
    /// covers at least 95% for every true rate, so it is wider than Wilson and Jeffreys.
    ClopperPearson,
}

/// `successes` out of `trials` independent Bernoulli draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Proportion {
    /// Draws that came out 1.
    pub successes: u64,
    /// All draws.
    pub trials: u64,
}

impl Proportion {
    /// `successes` of `trials`; fails when there are more successes than trials.
    pub fn new(successes: u64, trials: u64) -> Result<Self, NoiseError> {
        if successes > trials {
            return Err(NoiseError::invalid(
                "proportion",
                format!("{successes} successes out of only {trials} trials"),
            ));
        }
        Ok(Proportion { successes, trials })
    }

    /// The maximum-likelihood estimate k / n, or `None` without trials.
    pub fn estimate(&self) -> Option<f64> {
        (self.trials > 0).then(|| self.successes as f64 / self.trials as f64)
    }

    /// The 95% Wilson score interval, or `None` without trials.
    pub fn wilson(&self) -> Option<Interval> {
        let p = self.estimate()?;
        let n = self.trials as f64;
        let z2 = Z_95 * Z_95;
        let centre = p + z2 / (2.0 * n);
        let half = Z_95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        let denominator = 1.0 + z2 / n;
        Some(Interval {
            lower: ((centre - half) / denominator).max(0.0),
            upper: ((centre + half) / denominator).min(1.0),
        })
    }

    /// The 95% Jeffreys interval, or `None` without trials.
    pub fn jeffreys(&self) -> Option<Interval> {
        if self.trials == 0 {
            return None;
        }
        let (a, b) = self.jeffreys_posterior();
        let lower = if self.successes == 0 { 0.0 } else { beta_quantile(TAIL_95, a, b) };
        let upper = if self.successes == self.trials { 1.0 } else { beta_quantile(1.0 - TAIL_95, a, b) };
        Some(Interval { lower, upper })
    }

    /// The 95% Clopper–Pearson interval, or `None` without trials: the rates whose binomial
    /// tails at k are at least 2.5%, found through the beta quantiles that equal those tails.
    pub fn clopper_pearson(&self) -> Option<Interval> {
        if self.trials == 0 {
            return None;
        }
        let k = self.successes as f64;
        let n = self.trials as f64;
        let lower = if self.successes == 0 { 0.0 } else { beta_quantile(TAIL_95, k, n - k + 1.0) };
        let upper = if self.successes == self.trials { 1.0 } else { beta_quantile(1.0 - TAIL_95, k + 1.0, n - k) };
        Some(Interval { lower, upper })
    }

    /// The 95% interval by `method`, or `None` without trials.
    pub fn interval(&self, method: BinomialInterval) -> Option<Interval> {
        match method {
            BinomialInterval::Wilson => self.wilson(),
            BinomialInterval::Jeffreys => self.jeffreys(),
            BinomialInterval::ClopperPearson => self.clopper_pearson(),
        }
    }

    /// The parameters (k + ½, n − k + ½) of the posterior under the Jeffreys prior Beta(½, ½).
    pub fn jeffreys_posterior(&self) -> (f64, f64) {
        let k = self.successes as f64;
        let n = self.trials as f64;
        (k + 0.5, n - k + 0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval_of(successes: u64, trials: u64, method: BinomialInterval) -> Interval {
        match (Proportion { successes, trials }).interval(method) {
            Some(interval) => interval,
            None => panic!("{successes} of {trials} has no interval"),
        }
    }

    fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!((actual - expected).abs() < tolerance, "got {actual}, expected {expected}");
    }

    #[test]
    fn more_successes_than_trials_is_rejected() {
        assert!(Proportion::new(3, 2).is_err());
        assert!(Proportion::new(2, 2).is_ok());
    }

    #[test]
    fn empty_proportion_has_no_estimate_or_interval() {
        let empty = Proportion { successes: 0, trials: 0 };
        assert_eq!(empty.estimate(), None);
        assert_eq!(empty.wilson(), None);
        assert_eq!(empty.jeffreys(), None);
        assert_eq!(empty.clopper_pearson(), None);
    }

    #[test]
    fn wilson_matches_the_closed_form() {
        // 3 of 10: (0.49207 ± 1.96·sqrt(0.021 + 0.009604)) / 1.38415.
        let interval = interval_of(3, 10, BinomialInterval::Wilson);
        assert_close(interval.lower, 0.107_791_3, 1e-6);
        assert_close(interval.upper, 0.603_221_9, 1e-6);
        // 0 of 20: the lower end is exactly 0 and the upper end z²/(n + z²).
        let zero = interval_of(0, 20, BinomialInterval::Wilson);
        assert_close(zero.lower, 0.0, 1e-15);
        assert_close(zero.upper, Z_95 * Z_95 / (20.0 + Z_95 * Z_95), 1e-12);
    }

    #[test]
    fn jeffreys_matches_reference_values_and_boundary_rule() {
        let interval = interval_of(3, 10, BinomialInterval::Jeffreys);
        assert_close(interval.lower, 0.092_694_593_938_153_16, 1e-10);
        assert_close(interval.upper, 0.605_818_318_148_671_3, 1e-10);
        let none = interval_of(0, 10, BinomialInterval::Jeffreys);
        assert_eq!(none.lower, 0.0);
        assert_close(none.upper, 0.217_196_267_509_210_52, 1e-10);
        let all = interval_of(10, 10, BinomialInterval::Jeffreys);
        assert_close(all.lower, 0.782_803_732_490_789_4, 1e-10);
        assert_eq!(all.upper, 1.0);
    }

    #[test]
    fn clopper_pearson_matches_reference_values() {
        // The exact interval, as scipy's binomtest(k, n).proportion_ci(method="exact") gives
        // it; these ends were computed with mpmath at 40 digits as the beta quantiles
        // B(0.025; k, n − k + 1) and B(0.975; k + 1, n − k), found by bisection on betainc.
        let cases = [
            (3, 10, 0.066_739_511_177_734_47, 0.652_452_850_059_997_2),
            (1, 1_000, 2.531_748_749_129_404_5e-5, 5.558_924_279_826_672e-3),
            (50, 100, 0.398_321_129_503_300_98, 0.601_678_870_496_699),
            (12, 60, 0.107_841_122_524_362, 0.323_300_423_801_290_54),
            (400, 2_000, 0.182_669_297_918_448_38, 0.218_214_657_871_290_37),
        ];
        for (k, n, lower, upper) in cases {
            let interval = interval_of(k, n, BinomialInterval::ClopperPearson);
            assert_close(interval.lower, lower, 1e-10 * lower.max(1e-3));
            assert_close(interval.upper, upper, 1e-10);
        }
        // At the boundaries the open end is exact: 0 of n has upper end 1 − 0.025^(1/n).
        let none = interval_of(0, 10, BinomialInterval::ClopperPearson);
        assert_eq!(none.lower, 0.0);
        assert_close(none.upper, 1.0 - 0.025_f64.powf(0.1), 1e-12);
        assert_close(none.upper, 0.308_497_107_818_760_8, 1e-12);
        let all = interval_of(10, 10, BinomialInterval::ClopperPearson);
        assert_close(all.lower, 0.691_502_892_181_239_2, 1e-12);
        assert_eq!(all.upper, 1.0);
        // Exact intervals are the widest of the three.
        let jeffreys = interval_of(3, 10, BinomialInterval::Jeffreys);
        assert!(interval_of(3, 10, BinomialInterval::ClopperPearson).width() > jeffreys.width());
    }

    #[test]
    fn intervals_contain_the_estimate_and_shrink_with_samples() {
        for method in [BinomialInterval::Wilson, BinomialInterval::Jeffreys, BinomialInterval::ClopperPearson] {
            let mut previous_width = f64::INFINITY;
            for n in [10_u64, 100, 1_000, 10_000] {
                let interval = interval_of(n / 5, n, method);
                assert!(interval.contains(0.2), "{method:?} n={n}: {interval:?}");
                assert!(interval.width() < previous_width, "{method:?} n={n} did not shrink");
                previous_width = interval.width();
            }
        }
    }
}
