//! Referee's noisy-reward layer.
//!
//! A binary verifier is a noisy channel: it passes a truly wrong response with probability ρ0
//! (the false-positive rate) and fails a truly right one with probability ρ1 (the
//! false-negative rate). This crate
//!
//! - estimates ρ0 and ρ1 with 95% intervals from gold-labelled audits
//!   ([`NoiseModel::from_audit`]) or from appeals, where a stronger checker re-checks a sample
//!   of the verdicts ([`VerdictTally`], [`NoiseModel::from_appeals`]), or takes them as
//!   configured ([`NoiseModel::configured`]);
//! - corrects each binary verdict into the backward (unbiased) reward and the forward weight,
//!   refusing when Youden's J = 1 − ρ0 − ρ1 may be too small ([`NoiseModel::correct`]);
//! - estimates ρ1 alone from appeals of verdicts 0 with ρ0 fixed
//!   ([`NoiseModel::from_negative_appeals`]), and forgets old counts over training steps
//!   ([`CountWindow`]);
//! - computes group-normalised advantages and the dynamic-sampling filter for GRPO-style
//!   trainers ([`group_advantages`]).
//!
//! `docs/noise.md` derives the formulas and says when a correction changes the gradient.

mod appeal;
mod beta;
mod correction;
mod error;
mod groups;
mod model;
mod proportion;
mod tally;
mod window;

pub use appeal::{AppealRates, MonteCarlo, false_negative_rate_with_fixed_rho0, rates_from_appeal_components};
pub use correction::{CorrectionPolicy, RewardCorrection, backward_reward, forward_weight};
pub use error::NoiseError;
pub use groups::{
    AdvantageRequest, AdvantageResponse, GroupAdvantages, MAX_ABS_REWARD, Normalisation, RewardBasis, RewardGroup,
    SingleRollout, StdEstimator, group_advantages,
};
pub use model::{ConfiguredRates, IntervalMethod, NoiseModel, NoiseSource, RateEstimate};
pub use proportion::{BinomialInterval, Interval, Proportion, Z_95};
pub use tally::{GoldLabel, VerdictTally};
pub use window::CountWindow;

use referee_core::Status;

/// The binary verdict a status stands for, when it stands for one: `correct` is 1, and
/// `incorrect` and `unparseable` are 0 (a stronger checker may well overturn a parse failure).
///
/// `partial` is not binary, and timeouts, resource limits and failures say nothing about the
/// response's correctness, so none of them enters a tally or gets a correction.
pub fn binary_verdict(status: Status) -> Option<bool> {
    match status {
        Status::Correct => Some(true),
        Status::Incorrect | Status::Unparseable => Some(false),
        Status::Partial | Status::Timeout | Status::ResourceLimit | Status::InvalidInput | Status::InternalError => {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_core::utoipa::{self, OpenApi};

    #[derive(OpenApi)]
    #[openapi(components(schemas(
        NoiseModel,
        ConfiguredRates,
        GoldLabel,
        AppealRates,
        MonteCarlo,
        CorrectionPolicy,
        RewardCorrection,
        AdvantageRequest,
        AdvantageResponse
    )))]
    struct NoiseApi;

    #[test]
    fn public_types_have_openapi_schemas() -> Result<(), serde_json::Error> {
        let spec = serde_json::to_value(NoiseApi::openapi())?;
        let schemas = &spec["components"]["schemas"];
        for name in ["NoiseModel", "RateEstimate", "VerdictTally", "NoiseSource", "RewardCorrection", "GroupAdvantages"]
        {
            assert!(schemas.get(name).is_some(), "no schema for {name}");
        }
        assert_eq!(schemas["NoiseSource"]["enum"], serde_json::json!(["configured", "audit", "appeal"]));
        Ok(())
    }

    #[test]
    fn only_judging_binary_statuses_have_verdicts() {
        let binary: Vec<Status> = Status::ALL.into_iter().filter(|s| binary_verdict(*s).is_some()).collect();
        assert_eq!(binary, [Status::Correct, Status::Incorrect, Status::Unparseable]);
        assert_eq!(binary_verdict(Status::Correct), Some(true));
        assert_eq!(binary_verdict(Status::Unparseable), Some(false));
    }
}
