//! Noise rates inferred from appeals: a stronger checker re-checks a random sample of the
//! verifier's verdicts, and Bayes' rule turns the per-verdict overturn rates into ρ0 and ρ1.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Beta, Distribution};
use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

use crate::proportion::TAIL_95;
use crate::{Interval, IntervalMethod, NoiseError, NoiseModel, NoiseSource, Proportion, RateEstimate, VerdictTally};

/// Which share of each verdict class is sent to the stronger checker.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealRates {
    /// The probability that a verdict 0 is re-checked.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub negatives: f64,
    /// The probability that a verdict 1 is re-checked.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub positives: f64,
}

impl Default for AppealRates {
    fn default() -> Self {
        AppealRates { negatives: 0.1, positives: 0.1 }
    }
}

impl AppealRates {
    /// Fails unless both rates lie in [0, 1].
    pub fn validate(&self) -> Result<(), NoiseError> {
        for (field, rate) in [("negatives", self.negatives), ("positives", self.positives)] {
            if !(0.0..=1.0).contains(&rate) {
                return Err(NoiseError::invalid(field, format!("appeal rate {rate} is not in [0, 1]")));
            }
        }
        Ok(())
    }

    /// Whether a verdict is appealed, given a uniform draw in [0, 1) made for it. The draw is
    /// the caller's so that it can come from the request's own random source or a hash.
    pub fn selects(&self, verdict: bool, uniform: f64) -> bool {
        uniform < if verdict { self.positives } else { self.negatives }
    }
}

/// Settings of the Monte Carlo that turns component posteriors into intervals for ρ0, ρ1 and J.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MonteCarlo {
    /// Posterior draws; the 2.5% and 97.5% percentiles of these are the interval ends.
    pub draws: u32,
    /// The seed, so that the same tally always yields the same interval.
    pub seed: u64,
}

impl Default for MonteCarlo {
    fn default() -> Self {
        MonteCarlo { draws: 10_000, seed: 0x5eed }
    }
}

impl MonteCarlo {
    /// The fewest draws accepted: fewer put the 2.5% percentile among the first handful.
    pub const MIN_DRAWS: u32 = 200;
    /// The most draws accepted, so that one request cannot pin a CPU for seconds.
    pub const MAX_DRAWS: u32 = 1_000_000;
}

/// ρ0 and ρ1 from the observed positive rate π̃, the precision PPV of verdicts 1 and the
/// overturn rate q of verdicts 0 (see `docs/noise.md` for the derivation):
/// π1 = π̃·PPV + (1 − π̃)·q, ρ1 = (1 − π̃)·q / π1, ρ0 = π̃·(1 − PPV) / (1 − π1).
///
/// Returns `None` when π1 is 0 (ρ1 undefined: nothing is truly 1) or 1 (ρ0 undefined).
pub fn rates_from_appeal_components(positive_rate: f64, precision: f64, overturn_rate: f64) -> Option<(f64, f64)> {
    let truly_positive = positive_rate * precision + (1.0 - positive_rate) * overturn_rate;
    if !(truly_positive > 0.0 && truly_positive < 1.0) {
        return None;
    }
    let rho1 = (1.0 - positive_rate) * overturn_rate / truly_positive;
    let rho0 = positive_rate * (1.0 - precision) / (1.0 - truly_positive);
    Some((rho0, rho1))
}

/// ρ1 when ρ0 is known rather than estimated, from the observed positive rate π̃ and the
/// overturn rate q of verdicts 0 (no re-checked positives needed; see `docs/noise.md`):
/// π1 = (π̃ − ρ0 + (1 − π̃)·q) / (1 − ρ0) and ρ1 = (1 − π̃)·q / π1. With ρ0 = 0 this is
/// (1 − π̃)q / (π̃ + (1 − π̃)q), overturned negatives over all true positives.
///
/// Returns `None` when ρ0 is not in [0, 1), when π1 is not positive (nothing is truly 1), or
/// when the counts are inconsistent with ρ0 (ρ1 would exceed 1: fewer verdicts 1 than the
/// assumed false positives alone would give).
pub fn false_negative_rate_with_fixed_rho0(positive_rate: f64, overturn_rate: f64, rho0: f64) -> Option<f64> {
    if !(0.0..1.0).contains(&rho0) {
        return None;
    }
    let overturned = (1.0 - positive_rate) * overturn_rate;
    let truly_positive = (positive_rate - rho0 + overturned) / (1.0 - rho0);
    if truly_positive.is_nan() || truly_positive <= 0.0 {
        return None;
    }
    let rho1 = overturned / truly_positive;
    (rho1 <= 1.0).then_some(rho1)
}

impl NoiseModel {
    /// A model from appeals of verdicts 0 only, with ρ0 fixed at `rho0` rather than estimated:
    /// the set-up of Cai et al. (2025), where a stronger checker re-checks the negatives of a
    /// rule-based verifier assumed never to pass a wrong answer (`rho0` = 0).
    ///
    /// ρ1 is [`false_negative_rate_with_fixed_rho0`] at the counted π̃ and q; its interval and
    /// J's are the 2.5% and 97.5% percentiles over `monte_carlo.draws` draws from the Jeffreys
    /// posteriors of π̃ and q. ρ0 is reported as the configured point. Re-checked positives,
    /// if any, are not used. Fails without observed verdicts or re-checked negatives, and when
    /// the counts give no defined ρ1.
    pub fn from_negative_appeals(
        tally: &VerdictTally,
        rho0: f64,
        monte_carlo: &MonteCarlo,
    ) -> Result<Self, NoiseError> {
        tally.validate()?;
        check_draws(monte_carlo)?;
        if !(0.0..1.0).contains(&rho0) {
            return Err(NoiseError::invalid("fixed_rho0", format!("{rho0} is not a rate in [0, 1)")));
        }
        let positive_rate = point(tally.observed_positive_rate(), "observed verdicts")?;
        let overturn_rate = point(tally.overturn_rate(), "re-checked negatives")?;
        let Some(rho1) = false_negative_rate_with_fixed_rho0(positive_rate, overturn_rate, rho0) else {
            return Err(NoiseError::degenerate(format!(
                "with ρ0 fixed at {rho0}, π̃ = {positive_rate:.4} and q = {overturn_rate:.4} leave no verdict truly 1 \
                 or fewer verdicts 1 than the false positives alone, so ρ1 is undefined"
            )));
        };
        let positive_posterior = jeffreys_posterior(tally.observed_positive_rate())?;
        let overturn_posterior = jeffreys_posterior(tally.overturn_rate())?;
        let mut rng = ChaCha8Rng::seed_from_u64(monte_carlo.seed);
        let capacity = monte_carlo.draws as usize;
        let mut rho1_draws = Vec::with_capacity(capacity);
        for _ in 0..monte_carlo.draws {
            let (p, q) = (positive_posterior.sample(&mut rng), overturn_posterior.sample(&mut rng));
            // A draw with π̃ under ρ0 (possible when both are small) has no defined ρ1.
            if let Some(rho1) = false_negative_rate_with_fixed_rho0(p, q, rho0) {
                rho1_draws.push(rho1);
            }
        }
        if rho1_draws.len() < capacity / 2 {
            return Err(NoiseError::degenerate(format!(
                "only {} of {} posterior draws gave a defined ρ1 with ρ0 fixed at {rho0}",
                rho1_draws.len(),
                capacity
            )));
        }
        let rho1_interval =
            Interval { lower: percentile(&mut rho1_draws, TAIL_95), upper: percentile(&mut rho1_draws, 1.0 - TAIL_95) };
        Ok(NoiseModel {
            rho0: RateEstimate {
                estimate: rho0,
                interval: Interval { lower: rho0, upper: rho0 },
                method: IntervalMethod::Configured,
            },
            rho1: RateEstimate { estimate: rho1, interval: rho1_interval, method: IntervalMethod::MonteCarlo },
            // J = 1 − ρ0 − ρ1 is monotone in ρ1 with ρ0 fixed, so its percentiles are ρ1's mirrored.
            youden_j: RateEstimate {
                estimate: 1.0 - rho0 - rho1,
                interval: Interval { lower: 1.0 - rho0 - rho1_interval.upper, upper: 1.0 - rho0 - rho1_interval.lower },
                method: IntervalMethod::MonteCarlo,
            },
            source: NoiseSource::Appeal,
            counts: *tally,
        })
    }

    /// A model inferred from appeals.
    ///
    /// The point estimates plug the counted proportions π̃, PPV and q into
    /// [`rates_from_appeal_components`]. The intervals are the 2.5% and 97.5% percentiles of
    /// the same formulas over `monte_carlo.draws` joint draws from the three Jeffreys
    /// posteriors Beta(k + ½, n − k + ½); J's interval comes from the same draws, so it keeps the
    /// correlation between ρ0 and ρ1.
    ///
    /// Fails without observed verdicts, without re-checked verdicts of either class, or when
    /// the counts put π1 at 0 or 1.
    pub fn from_appeals(tally: &VerdictTally, monte_carlo: &MonteCarlo) -> Result<Self, NoiseError> {
        tally.validate()?;
        check_draws(monte_carlo)?;
        let positive_rate = point(tally.observed_positive_rate(), "observed verdicts")?;
        let precision = point(tally.precision(), "re-checked positives")?;
        let overturn_rate = point(tally.overturn_rate(), "re-checked negatives")?;
        let Some((rho0, rho1)) = rates_from_appeal_components(positive_rate, precision, overturn_rate) else {
            let truly_positive = positive_rate * precision + (1.0 - positive_rate) * overturn_rate;
            return Err(NoiseError::degenerate(if truly_positive <= 0.0 {
                "no verdict is truly 1 (no positives confirmed, no negatives overturned), so ρ1 is undefined"
            } else {
                "every verdict is truly 1 (all positives confirmed, all negatives overturned), so ρ0 is undefined"
            }));
        };
        let draws = posterior_draws(tally, monte_carlo)?;
        let interval = |values: &mut Vec<f64>| Interval {
            lower: percentile(values, TAIL_95),
            upper: percentile(values, 1.0 - TAIL_95),
        };
        let (mut rho0_draws, mut rho1_draws, mut j_draws) = draws;
        let estimate =
            |estimate: f64, interval: Interval| RateEstimate { estimate, interval, method: IntervalMethod::MonteCarlo };
        Ok(NoiseModel {
            rho0: estimate(rho0, interval(&mut rho0_draws)),
            rho1: estimate(rho1, interval(&mut rho1_draws)),
            youden_j: estimate(1.0 - rho0 - rho1, interval(&mut j_draws)),
            source: NoiseSource::Appeal,
            counts: *tally,
        })
    }
}

fn check_draws(monte_carlo: &MonteCarlo) -> Result<(), NoiseError> {
    if !(MonteCarlo::MIN_DRAWS..=MonteCarlo::MAX_DRAWS).contains(&monte_carlo.draws) {
        return Err(NoiseError::invalid(
            "draws",
            format!(
                "{} Monte Carlo draws; use {} to {}",
                monte_carlo.draws,
                MonteCarlo::MIN_DRAWS,
                MonteCarlo::MAX_DRAWS
            ),
        ));
    }
    Ok(())
}

fn point(proportion: Proportion, what: &'static str) -> Result<f64, NoiseError> {
    proportion.estimate().ok_or(NoiseError::Empty { what })
}

fn jeffreys_posterior(proportion: Proportion) -> Result<Beta<f64>, NoiseError> {
    let (a, b) = proportion.jeffreys_posterior();
    Beta::new(a, b).map_err(|e| NoiseError::invalid("counts", format!("posterior Beta({a}, {b}): {e}")))
}

type Draws = (Vec<f64>, Vec<f64>, Vec<f64>);

/// Draws of (ρ0, ρ1, J) from the joint posterior of (π̃, PPV, q).
fn posterior_draws(tally: &VerdictTally, monte_carlo: &MonteCarlo) -> Result<Draws, NoiseError> {
    let positive_rate = jeffreys_posterior(tally.observed_positive_rate())?;
    let precision = jeffreys_posterior(tally.precision())?;
    let overturn_rate = jeffreys_posterior(tally.overturn_rate())?;
    let mut rng = ChaCha8Rng::seed_from_u64(monte_carlo.seed);
    let capacity = monte_carlo.draws as usize;
    let (mut rho0s, mut rho1s, mut js) =
        (Vec::with_capacity(capacity), Vec::with_capacity(capacity), Vec::with_capacity(capacity));
    for _ in 0..monte_carlo.draws {
        let sample = (positive_rate.sample(&mut rng), precision.sample(&mut rng), overturn_rate.sample(&mut rng));
        // Beta draws lie strictly inside (0, 1), so π1 does too unless a draw underflows; such
        // a draw carries no information about the interval's ends and is dropped.
        if let Some((rho0, rho1)) = rates_from_appeal_components(sample.0, sample.1, sample.2) {
            rho0s.push(rho0);
            rho1s.push(rho1);
            js.push(1.0 - rho0 - rho1);
        }
    }
    if rho0s.len() < capacity / 2 {
        return Err(NoiseError::degenerate(format!(
            "only {} of {} posterior draws gave a defined π1",
            rho0s.len(),
            capacity
        )));
    }
    Ok((rho0s, rho1s, js))
}

/// The `p`-percentile by linear interpolation between order statistics (R's type 7); sorts
/// `values` in place. `values` must not be empty.
fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let Some(last) = values.len().checked_sub(1) else {
        return f64::NAN;
    };
    let h = p * last as f64;
    let below = h.floor() as usize;
    let above = (below + 1).min(last);
    values[below] + (h - below as f64) * (values[above] - values[below])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(observed: (u64, u64), positives: (u64, u64), negatives: (u64, u64)) -> VerdictTally {
        VerdictTally {
            observed_positive: observed.0,
            observed_negative: observed.1,
            checked_positive: positives.0,
            overturned_positive: positives.1,
            checked_negative: negatives.0,
            overturned_negative: negatives.1,
        }
    }

    #[test]
    fn components_invert_the_channel() {
        // Truth: π1 = 0.4, ρ0 = 0.05, ρ1 = 0.2. Then π̃ = 0.4·0.8 + 0.6·0.05 = 0.35,
        // PPV = 0.32 / 0.35 and q = 0.08 / 0.65.
        let (rho0, rho1) = rates_from_appeal_components(0.35, 0.32 / 0.35, 0.08 / 0.65).unwrap_or((f64::NAN, f64::NAN));
        assert!((rho0 - 0.05).abs() < 1e-12, "{rho0}");
        assert!((rho1 - 0.2).abs() < 1e-12, "{rho1}");
    }

    #[test]
    fn components_with_no_true_class_are_undefined() {
        assert_eq!(rates_from_appeal_components(0.0, 1.0, 0.0), None);
        assert_eq!(rates_from_appeal_components(1.0, 1.0, 0.5), None);
        assert_eq!(rates_from_appeal_components(0.5, 1.0, 1.0), None);
    }

    #[test]
    fn appeals_give_point_estimates_inside_their_intervals() -> Result<(), NoiseError> {
        // 3500 positives (100 re-checked, 9 overturned), 6500 negatives (200 re-checked, 25 overturned).
        let tally = tally((3_500, 6_500), (100, 9), (200, 25));
        let model = NoiseModel::from_appeals(&tally, &MonteCarlo::default())?;
        assert_eq!(model.source, NoiseSource::Appeal);
        let (rho0, rho1) = rates_from_appeal_components(0.35, 0.91, 0.125).unwrap_or((f64::NAN, f64::NAN));
        assert!((model.rho0.estimate - rho0).abs() < 1e-12);
        assert!((model.rho1.estimate - rho1).abs() < 1e-12);
        for rate in [model.rho0, model.rho1, model.youden_j] {
            assert_eq!(rate.method, IntervalMethod::MonteCarlo);
            assert!(rate.interval.contains(rate.estimate), "{rate:?}");
            assert!(rate.interval.width() > 0.0);
        }
        Ok(())
    }

    #[test]
    fn appeals_are_reproducible_for_a_seed() -> Result<(), NoiseError> {
        let tally = tally((3_500, 6_500), (100, 9), (200, 25));
        let a = NoiseModel::from_appeals(&tally, &MonteCarlo::default())?;
        let b = NoiseModel::from_appeals(&tally, &MonteCarlo::default())?;
        assert_eq!(a, b);
        let other = NoiseModel::from_appeals(&tally, &MonteCarlo { seed: 7, ..MonteCarlo::default() })?;
        assert_ne!(a.rho1.interval, other.rho1.interval);
        Ok(())
    }

    #[test]
    fn more_rechecks_narrow_the_intervals() -> Result<(), NoiseError> {
        let small = NoiseModel::from_appeals(&tally((3_500, 6_500), (50, 5), (100, 12)), &MonteCarlo::default())?;
        let large = NoiseModel::from_appeals(&tally((3_500, 6_500), (500, 50), (1_000, 120)), &MonteCarlo::default())?;
        assert!(large.rho1.interval.width() < small.rho1.interval.width());
        assert!(large.rho0.interval.width() < small.rho0.interval.width());
        Ok(())
    }

    #[test]
    fn missing_rechecks_are_named() {
        let settings = MonteCarlo::default();
        let no_negatives = tally((10, 10), (5, 0), (0, 0));
        assert_eq!(
            NoiseModel::from_appeals(&no_negatives, &settings),
            Err(NoiseError::Empty { what: "re-checked negatives" })
        );
        let no_positives = tally((10, 10), (0, 0), (5, 1));
        assert_eq!(
            NoiseModel::from_appeals(&no_positives, &settings),
            Err(NoiseError::Empty { what: "re-checked positives" })
        );
        assert_eq!(
            NoiseModel::from_appeals(&VerdictTally::default(), &settings),
            Err(NoiseError::Empty { what: "observed verdicts" })
        );
    }

    #[test]
    fn degenerate_counts_are_errors_not_nan() {
        let settings = MonteCarlo::default();
        // Nothing observed positive and no negative overturned: nothing is truly 1.
        let nothing_true = tally((0, 100), (1, 1), (50, 0));
        assert!(matches!(NoiseModel::from_appeals(&nothing_true, &settings), Err(NoiseError::Degenerate { .. })));
        // Every negative overturned and every positive confirmed: everything is truly 1.
        let everything_true = tally((50, 50), (10, 0), (10, 10));
        assert!(matches!(NoiseModel::from_appeals(&everything_true, &settings), Err(NoiseError::Degenerate { .. })));
    }

    #[test]
    fn bad_settings_and_tallies_are_rejected() {
        let good = tally((3_500, 6_500), (100, 9), (200, 25));
        let few = MonteCarlo { draws: 10, ..MonteCarlo::default() };
        assert!(matches!(NoiseModel::from_appeals(&good, &few), Err(NoiseError::Invalid { field: "draws", .. })));
        let impossible = tally((3_500, 6_500), (100, 101), (200, 25));
        assert!(NoiseModel::from_appeals(&impossible, &MonteCarlo::default()).is_err());
    }

    #[test]
    fn negatives_only_appeals_estimate_rho1_with_rho0_fixed() -> Result<(), NoiseError> {
        // Cai et al.'s set-up: only verdicts 0 re-checked, none of the verdicts 1. The general
        // estimator has no PPV and so no model.
        let negatives_only = tally((3_500, 6_500), (0, 0), (650, 80));
        assert_eq!(
            NoiseModel::from_appeals(&negatives_only, &MonteCarlo::default()),
            Err(NoiseError::Empty { what: "re-checked positives" })
        );
        // With ρ0 = 0: ρ1 = (1 − π̃)q / (π̃ + (1 − π̃)q) = 0.65·(80/650) / (0.35 + 0.08) = 0.08/0.43.
        let model = NoiseModel::from_negative_appeals(&negatives_only, 0.0, &MonteCarlo::default())?;
        assert!((model.rho1.estimate - 0.08 / 0.43).abs() < 1e-12, "{:?}", model.rho1);
        assert_eq!(model.rho0.estimate, 0.0);
        assert_eq!(model.rho0.interval, Interval { lower: 0.0, upper: 0.0 });
        assert_eq!(model.rho0.method, IntervalMethod::Configured);
        assert_eq!(model.source, NoiseSource::Appeal);
        assert!(model.rho1.interval.contains(model.rho1.estimate) && model.rho1.interval.width() > 0.0);
        assert!((model.youden_j.estimate - (1.0 - 0.08 / 0.43)).abs() < 1e-12);
        assert!((model.youden_j.interval.lower - (1.0 - model.rho1.interval.upper)).abs() < 1e-15);
        // The same channel as `components_invert_the_channel` (π1 = 0.4, ρ0 = 0.05, ρ1 = 0.2)
        // with ρ0 known gives back ρ1 from π̃ and q alone.
        let rho1 = false_negative_rate_with_fixed_rho0(0.35, 0.08 / 0.65, 0.05).unwrap_or(f64::NAN);
        assert!((rho1 - 0.2).abs() < 1e-12, "{rho1}");
        // It agrees with the general estimator when PPV is 1.
        let (_, general) = rates_from_appeal_components(0.35, 1.0, 80.0 / 650.0).unwrap_or((f64::NAN, f64::NAN));
        assert!((general - model.rho1.estimate).abs() < 1e-12);
        Ok(())
    }

    #[test]
    fn negatives_only_appeals_name_what_is_missing() {
        let settings = MonteCarlo::default();
        assert_eq!(
            NoiseModel::from_negative_appeals(&tally((10, 10), (5, 0), (0, 0)), 0.0, &settings),
            Err(NoiseError::Empty { what: "re-checked negatives" })
        );
        // No verdict 1 and no overturn: nothing is truly 1.
        let nothing = tally((0, 100), (0, 0), (50, 0));
        assert!(matches!(
            NoiseModel::from_negative_appeals(&nothing, 0.0, &settings),
            Err(NoiseError::Degenerate { .. })
        ));
        // Fewer verdicts 1 (1%) than an assumed ρ0 of 30% alone would give.
        let inconsistent = tally((10, 990), (0, 0), (100, 0));
        assert!(matches!(
            NoiseModel::from_negative_appeals(&inconsistent, 0.3, &settings),
            Err(NoiseError::Degenerate { .. })
        ));
        assert!(matches!(
            NoiseModel::from_negative_appeals(&tally((10, 10), (0, 0), (5, 1)), 1.0, &settings),
            Err(NoiseError::Invalid { field: "fixed_rho0", .. })
        ));
    }

    #[test]
    fn appeal_rates_select_by_verdict() {
        let rates = AppealRates { negatives: 0.5, positives: 0.0 };
        assert!(rates.validate().is_ok());
        assert!(rates.selects(false, 0.49));
        assert!(!rates.selects(false, 0.5));
        assert!(!rates.selects(true, 0.0));
        assert!(AppealRates { negatives: 1.5, positives: 0.1 }.validate().is_err());
    }

    #[test]
    fn percentile_interpolates() {
        let mut values = vec![4.0, 1.0, 3.0, 2.0, 5.0];
        assert_eq!(percentile(&mut values, 0.0), 1.0);
        assert_eq!(percentile(&mut values, 0.5), 3.0);
        assert_eq!(percentile(&mut values, 1.0), 5.0);
        assert!((percentile(&mut values, 0.125) - 1.5).abs() < 1e-12);
    }
}
