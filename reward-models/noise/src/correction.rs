//! Per-item reward corrections: the backward (unbiased) reward and the forward weight.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

use crate::{NoiseModel, NoiseSource};

/// When corrections are refused.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CorrectionPolicy {
    /// The lowest acceptable lower end of J = 1 − ρ0 − ρ1's 95% interval. Below it the verdicts
    /// may carry too little signal to invert: the backward reward divides by J.
    #[serde(default = "CorrectionPolicy::default_j_floor")]
    pub j_floor: f64,
}

impl CorrectionPolicy {
    /// The default floor on J's lower bound.
    pub const DEFAULT_J_FLOOR: f64 = 0.2;

    fn default_j_floor() -> f64 {
        Self::DEFAULT_J_FLOOR
    }
}

impl Default for CorrectionPolicy {
    fn default() -> Self {
        CorrectionPolicy { j_floor: Self::DEFAULT_J_FLOOR }
    }
}

/// The backward-corrected reward R̂ = (R̃ − ρ0) / (1 − ρ0 − ρ1), whose expectation given the
/// true label R is R. Meaningless unless ρ0 + ρ1 < 1.
pub fn backward_reward(raw: f64, rho0: f64, rho1: f64) -> f64 {
    (raw - rho0) / (1.0 - rho0 - rho1)
}

/// The forward weight w = R̃ − (1 − ρ1): ρ1 for a verdict 1, ρ1 − 1 for a verdict 0. Weighting
/// score-function terms by it gives an update along the clean gradient scaled by J.
pub fn forward_weight(raw: f64, rho1: f64) -> f64 {
    raw - (1.0 - rho1)
}

/// One binary verdict with its corrections: the `details.reward` of a scored item.
///
/// It carries the point estimates the corrections used; their intervals, J and the counts
/// behind them are in the noise model (`GET /v1/noise/{verifier}`), so every scored item
/// stays small.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RewardCorrection {
    /// The verdict as a reward, 0 or 1.
    pub raw: f64,
    /// The backward-corrected reward; null when refused.
    pub backward: Option<f64>,
    /// The forward weight; null when refused.
    pub forward_weight: Option<f64>,
    /// The ρ0 estimate used.
    pub rho0: f64,
    /// The ρ1 estimate used.
    pub rho1: f64,
    /// Where the rates came from.
    pub source: NoiseSource,
    /// Why no correction was made; present only when none was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

impl NoiseModel {
    /// Why this model may not correct rewards under `policy`, or `None` when it may.
    ///
    /// Refused when J's lower bound is under the floor (or not a number), and when J's point
    /// estimate is not positive, where the backward reward would flip or blow up.
    pub fn refusal(&self, policy: &CorrectionPolicy) -> Option<String> {
        let j = self.youden_j;
        if j.estimate.is_nan() || j.estimate <= 0.0 {
            return Some(format!(
                "J = 1 − ρ0 − ρ1 = {:.4} is not positive: the verdicts carry no usable signal",
                j.estimate
            ));
        }
        if j.interval.lower.is_nan() || policy.j_floor.is_nan() || j.interval.lower < policy.j_floor {
            return Some(format!(
                "the lower bound {:.4} of J = 1 − ρ0 − ρ1 is below the floor {}: the rates are too uncertain to \
                 correct with",
                j.interval.lower, policy.j_floor
            ));
        }
        None
    }

    /// The corrections of one binary verdict (`true` = reward 1), or the reason they are
    /// refused. Uses the point estimates of ρ0 and ρ1.
    pub fn correct(&self, verdict: bool, policy: &CorrectionPolicy) -> RewardCorrection {
        let raw = if verdict { 1.0 } else { 0.0 };
        let refused = self.refusal(policy);
        let (backward, forward) = match refused {
            Some(_) => (None, None),
            None => (
                Some(backward_reward(raw, self.rho0.estimate, self.rho1.estimate)),
                Some(forward_weight(raw, self.rho1.estimate)),
            ),
        };
        RewardCorrection {
            raw,
            backward,
            forward_weight: forward,
            rho0: self.rho0.estimate,
            rho1: self.rho1.estimate,
            source: self.source,
            refused,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConfiguredRates, Interval, NoiseError};

    fn model(rho0: f64, rho1: f64, rho1_interval: Option<Interval>) -> Result<NoiseModel, NoiseError> {
        NoiseModel::configured(ConfiguredRates { rho0, rho1, rho0_interval: None, rho1_interval })
    }

    #[test]
    fn backward_reward_is_unbiased_given_the_label() {
        let (rho0, rho1) = (0.05, 0.2);
        // E[R̂ | R = 1] = (1 − ρ1)·R̂(1) + ρ1·R̂(0); E[R̂ | R = 0] = ρ0·R̂(1) + (1 − ρ0)·R̂(0).
        let (one, zero) = (backward_reward(1.0, rho0, rho1), backward_reward(0.0, rho0, rho1));
        assert!(((1.0 - rho1) * one + rho1 * zero - 1.0).abs() < 1e-12);
        assert!((rho0 * one + (1.0 - rho0) * zero).abs() < 1e-12);
        assert!((one - 0.95 / 0.75).abs() < 1e-12);
    }

    #[test]
    fn forward_weight_vanishes_on_true_positives() {
        let (rho0, rho1) = (0.05, 0.2);
        let (one, zero) = (forward_weight(1.0, rho1), forward_weight(0.0, rho1));
        assert!((one - 0.2).abs() < 1e-12 && (zero + 0.8).abs() < 1e-12);
        // E[w | R = 1] = 0 and E[w | R = 0] = −J.
        assert!(((1.0 - rho1) * one + rho1 * zero).abs() < 1e-12);
        assert!((rho0 * one + (1.0 - rho0) * zero + (1.0 - rho0 - rho1)).abs() < 1e-12);
    }

    #[test]
    fn corrections_carry_the_rates_and_source() -> Result<(), NoiseError> {
        let model = model(0.05, 0.2, None)?;
        let corrected = model.correct(false, &CorrectionPolicy::default());
        assert_eq!(corrected.raw, 0.0);
        assert_eq!(corrected.refused, None);
        assert_eq!(corrected.backward, Some(backward_reward(0.0, 0.05, 0.2)));
        assert_eq!(corrected.forward_weight, Some(forward_weight(0.0, 0.2)));
        assert_eq!(corrected.rho1, model.rho1.estimate);
        assert_eq!(corrected.source, NoiseSource::Configured);
        Ok(())
    }

    #[test]
    fn uncertain_rates_are_refused_with_a_reason() -> Result<(), NoiseError> {
        // J's point is 0.75 but ρ1 may be as high as 0.9, so J's lower bound is 0.05.
        let uncertain = model(0.05, 0.2, Some(Interval { lower: 0.0, upper: 0.9 }))?;
        let corrected = uncertain.correct(true, &CorrectionPolicy::default());
        assert_eq!(corrected.raw, 1.0);
        assert_eq!((corrected.backward, corrected.forward_weight), (None, None));
        let reason = corrected.refused.unwrap_or_default();
        assert!(reason.contains("below the floor 0.2"), "{reason}");
        // A lower floor accepts the same model.
        assert_eq!(uncertain.refusal(&CorrectionPolicy { j_floor: 0.0 }), None);
        Ok(())
    }

    #[test]
    fn non_positive_j_is_always_refused() -> Result<(), NoiseError> {
        let useless = model(0.6, 0.5, None)?;
        let reason = useless.refusal(&CorrectionPolicy { j_floor: -1.0 }).unwrap_or_default();
        assert!(reason.contains("not positive"), "{reason}");
        let nan_floor = CorrectionPolicy { j_floor: f64::NAN };
        assert!(model(0.05, 0.2, None)?.refusal(&nan_floor).is_some());
        Ok(())
    }

    #[test]
    fn correction_serialises_as_details_reward() -> Result<(), Box<dyn std::error::Error>> {
        let corrected = model(0.05, 0.2, None)?.correct(true, &CorrectionPolicy::default());
        let json = serde_json::to_value(&corrected)?;
        let mut keys: Vec<&str> = json.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
        keys.sort_unstable();
        assert_eq!(keys, ["backward", "forward_weight", "raw", "rho0", "rho1", "source"]);
        assert_eq!(json["source"], "configured");
        assert_eq!(json["rho0"], 0.05);
        let back: RewardCorrection = serde_json::from_value(json)?;
        assert_eq!(back, corrected);
        Ok(())
    }

    #[test]
    fn policy_defaults_when_deserialised_empty() -> Result<(), serde_json::Error> {
        let policy: CorrectionPolicy = serde_json::from_str("{}")?;
        assert_eq!(policy, CorrectionPolicy::default());
        assert_eq!(policy.j_floor, 0.2);
        Ok(())
    }
}
