//! The noise model of one verifier: its false-positive and false-negative rates with intervals.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

use crate::{BinomialInterval, Interval, NoiseError, Proportion, VerdictTally};

/// Where a noise model's rates came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoiseSource {
    /// Set by hand.
    Configured,
    /// Counted from gold labels a person uploaded.
    Audit,
    /// Inferred from a stronger checker re-checking a sample of the verifier's verdicts online.
    Appeal,
}

impl NoiseSource {
    /// The wire name, as in JSON (and as a database column value).
    pub fn as_str(self) -> &'static str {
        match self {
            NoiseSource::Configured => "configured",
            NoiseSource::Audit => "audit",
            NoiseSource::Appeal => "appeal",
        }
    }
}

/// How a rate's interval was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum IntervalMethod {
    /// Wilson score interval of a counted proportion.
    Wilson,
    /// Jeffreys interval of a counted proportion.
    Jeffreys,
    /// Clopper–Pearson (exact) interval of a counted proportion.
    ClopperPearson,
    /// Percentiles of seeded Monte Carlo draws from the posteriors of the component proportions.
    MonteCarlo,
    /// Youden's J bounded by the ends of the ρ0 and ρ1 intervals (conservative).
    RateBounds,
    /// Given by hand (a point when no interval was given).
    Configured,
}

impl From<BinomialInterval> for IntervalMethod {
    fn from(method: BinomialInterval) -> Self {
        match method {
            BinomialInterval::Wilson => IntervalMethod::Wilson,
            BinomialInterval::Jeffreys => IntervalMethod::Jeffreys,
            BinomialInterval::ClopperPearson => IntervalMethod::ClopperPearson,
        }
    }
}

/// A rate's point estimate with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RateEstimate {
    /// The point estimate.
    pub estimate: f64,
    /// The 95% interval.
    pub interval: Interval,
    /// How the interval was obtained.
    pub method: IntervalMethod,
}

impl RateEstimate {
    /// The estimate and interval of a counted proportion; `what` names it in the error when
    /// there are no trials.
    pub fn from_proportion(
        proportion: Proportion,
        method: BinomialInterval,
        what: &'static str,
    ) -> Result<Self, NoiseError> {
        match (proportion.estimate(), proportion.interval(method)) {
            (Some(estimate), Some(interval)) => Ok(RateEstimate { estimate, interval, method: method.into() }),
            _ => Err(NoiseError::Empty { what }),
        }
    }
}

/// Rates set by hand: the body of a `PUT` on a verifier's noise model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfiguredRates {
    /// ρ0, the false-positive rate P(verdict 1 | truly 0).
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub rho0: f64,
    /// ρ1, the false-negative rate P(verdict 0 | truly 1).
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub rho1: f64,
    /// A 95% interval for ρ0; without one the rate is taken as exact.
    #[serde(default)]
    pub rho0_interval: Option<Interval>,
    /// A 95% interval for ρ1; without one the rate is taken as exact.
    #[serde(default)]
    pub rho1_interval: Option<Interval>,
}

/// A verifier's noise channel: ρ0 = P(verdict 1 | truly 0) and ρ1 = P(verdict 0 | truly 1), each
/// with a 95% interval, Youden's J = 1 − ρ0 − ρ1 (how much signal the verdicts carry), the
/// counts behind them and their source.
///
/// Built by [`configured`](Self::configured), [`from_audit`](Self::from_audit) or
/// [`from_appeals`](Self::from_appeals); turned into per-item corrections by
/// [`correct`](Self::correct).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NoiseModel {
    /// ρ0, the false-positive rate P(verdict 1 | truly 0).
    pub rho0: RateEstimate,
    /// ρ1, the false-negative rate P(verdict 0 | truly 1).
    pub rho1: RateEstimate,
    /// Youden's J = 1 − ρ0 − ρ1; corrections are refused when its lower bound is too low.
    pub youden_j: RateEstimate,
    /// Where the rates came from.
    pub source: NoiseSource,
    /// The counts behind the rates (all zero when configured).
    pub counts: VerdictTally,
}

impl NoiseModel {
    /// A model from rates set by hand. Fails on rates or intervals outside [0, 1] and on an
    /// interval that does not contain its rate.
    pub fn configured(rates: ConfiguredRates) -> Result<Self, NoiseError> {
        let rho0 = configured_rate("rho0", rates.rho0, rates.rho0_interval)?;
        let rho1 = configured_rate("rho1", rates.rho1, rates.rho1_interval)?;
        Ok(NoiseModel {
            rho0,
            rho1,
            youden_j: youden_j_from_bounds(&rho0, &rho1),
            source: NoiseSource::Configured,
            counts: VerdictTally::default(),
        })
    }

    /// A model counted from gold-labelled verdicts: ρ0 is the share of truly-0 items the
    /// verifier passed, ρ1 the share of truly-1 items it failed, each with a `method` interval.
    ///
    /// The audited items must be picked without regard to the verdict (e.g. a random sample
    /// of rollouts). Fails when the audit holds no truly-0 or no truly-1 item.
    pub fn from_audit(tally: &VerdictTally, method: BinomialInterval) -> Result<Self, NoiseError> {
        tally.validate()?;
        let rho0 = RateEstimate::from_proportion(tally.false_positive_rate(), method, "audited items labelled 0")?;
        let rho1 = RateEstimate::from_proportion(tally.false_negative_rate(), method, "audited items labelled 1")?;
        Ok(NoiseModel {
            rho0,
            rho1,
            youden_j: youden_j_from_bounds(&rho0, &rho1),
            source: NoiseSource::Audit,
            counts: *tally,
        })
    }

    /// The lower end of J's 95% interval, which decides whether corrections are refused.
    pub fn youden_j_lower(&self) -> f64 {
        self.youden_j.interval.lower
    }
}

fn configured_rate(field: &'static str, rate: f64, interval: Option<Interval>) -> Result<RateEstimate, NoiseError> {
    let in_unit = |x: f64| (0.0..=1.0).contains(&x);
    if !in_unit(rate) {
        return Err(NoiseError::invalid(field, format!("{rate} is not a rate in [0, 1]")));
    }
    let interval = interval.unwrap_or(Interval { lower: rate, upper: rate });
    if !in_unit(interval.lower) || !in_unit(interval.upper) || !interval.contains(rate) {
        return Err(NoiseError::invalid(
            field,
            format!("interval [{}, {}] must lie in [0, 1] and contain {rate}", interval.lower, interval.upper),
        ));
    }
    Ok(RateEstimate { estimate: rate, interval, method: IntervalMethod::Configured })
}

/// J's interval when ρ0 and ρ1 are estimated separately: its ends pair the ends of their
/// intervals. Each rate's interval covers with 95%, so this covers with at least 90% and is
/// usually wider than a joint interval, which errs on the side of refusing corrections.
fn youden_j_from_bounds(rho0: &RateEstimate, rho1: &RateEstimate) -> RateEstimate {
    RateEstimate {
        estimate: 1.0 - rho0.estimate - rho1.estimate,
        interval: Interval {
            lower: 1.0 - rho0.interval.upper - rho1.interval.upper,
            upper: 1.0 - rho0.interval.lower - rho1.interval.lower,
        },
        method: IntervalMethod::RateBounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GoldLabel;

    fn rates(rho0: f64, rho1: f64) -> ConfiguredRates {
        ConfiguredRates { rho0, rho1, rho0_interval: None, rho1_interval: None }
    }

    #[test]
    fn configured_rates_are_points_without_intervals() -> Result<(), NoiseError> {
        let model = NoiseModel::configured(rates(0.05, 0.2))?;
        assert_eq!(model.source, NoiseSource::Configured);
        assert_eq!(model.rho0.interval, Interval { lower: 0.05, upper: 0.05 });
        assert!((model.youden_j.estimate - 0.75).abs() < 1e-12);
        assert!((model.youden_j_lower() - 0.75).abs() < 1e-12);
        assert_eq!(model.counts, VerdictTally::default());
        Ok(())
    }

    #[test]
    fn configured_intervals_widen_j() -> Result<(), NoiseError> {
        let model = NoiseModel::configured(ConfiguredRates {
            rho0_interval: Some(Interval { lower: 0.0, upper: 0.1 }),
            rho1_interval: Some(Interval { lower: 0.1, upper: 0.3 }),
            ..rates(0.05, 0.2)
        })?;
        assert!((model.youden_j_lower() - 0.6).abs() < 1e-12);
        assert!((model.youden_j.interval.upper - 0.9).abs() < 1e-12);
        Ok(())
    }

    #[test]
    fn configured_rates_out_of_range_are_rejected() {
        assert!(matches!(NoiseModel::configured(rates(-0.1, 0.2)), Err(NoiseError::Invalid { field: "rho0", .. })));
        assert!(matches!(NoiseModel::configured(rates(0.1, f64::NAN)), Err(NoiseError::Invalid { field: "rho1", .. })));
        let outside = ConfiguredRates { rho1_interval: Some(Interval { lower: 0.3, upper: 0.4 }), ..rates(0.1, 0.2) };
        assert!(matches!(NoiseModel::configured(outside), Err(NoiseError::Invalid { field: "rho1", .. })));
    }

    #[test]
    fn audit_counts_rates_directly() -> Result<(), NoiseError> {
        // 40 truly-0 items with 2 passed; 60 truly-1 items with 12 failed.
        let mut labels = vec![GoldLabel { verdict: true, gold: false }; 2];
        labels.extend(vec![GoldLabel { verdict: false, gold: false }; 38]);
        labels.extend(vec![GoldLabel { verdict: false, gold: true }; 12]);
        labels.extend(vec![GoldLabel { verdict: true, gold: true }; 48]);
        let tally = VerdictTally::from_gold_labels(&labels);
        let model = NoiseModel::from_audit(&tally, BinomialInterval::Jeffreys)?;
        assert_eq!(model.source, NoiseSource::Audit);
        assert!((model.rho0.estimate - 0.05).abs() < 1e-12);
        assert!((model.rho1.estimate - 0.2).abs() < 1e-12);
        assert_eq!(model.rho0.method, IntervalMethod::Jeffreys);
        let jeffreys = Proportion { successes: 2, trials: 40 }.jeffreys();
        assert_eq!(Some(model.rho0.interval), jeffreys);
        assert!(model.youden_j.interval.contains(0.75));
        assert_eq!(model.youden_j.interval.lower, 1.0 - model.rho0.interval.upper - model.rho1.interval.upper);
        let wilson = NoiseModel::from_audit(&tally, BinomialInterval::Wilson)?;
        assert_eq!(wilson.rho1.method, IntervalMethod::Wilson);
        assert_eq!(Some(wilson.rho1.interval), Proportion { successes: 12, trials: 60 }.wilson());
        Ok(())
    }

    #[test]
    fn audit_without_one_class_is_an_error() {
        let only_positive = VerdictTally::from_gold_labels(&[GoldLabel { verdict: true, gold: true }]);
        assert_eq!(
            NoiseModel::from_audit(&only_positive, BinomialInterval::Jeffreys),
            Err(NoiseError::Empty { what: "audited items labelled 0" })
        );
        assert!(NoiseModel::from_audit(&VerdictTally::default(), BinomialInterval::Wilson).is_err());
    }

    #[test]
    fn model_round_trips_through_json() -> Result<(), Box<dyn std::error::Error>> {
        let model = NoiseModel::configured(rates(0.05, 0.2))?;
        let json = serde_json::to_value(model)?;
        assert_eq!(json["source"], "configured");
        assert_eq!(json["rho1"]["method"], "configured");
        let back: NoiseModel = serde_json::from_value(json)?;
        assert_eq!(back, model);
        Ok(())
    }
}
