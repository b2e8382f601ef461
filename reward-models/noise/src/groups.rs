//! Group-normalised advantages and the dynamic-sampling filter for GRPO-style trainers: the
//! library side of `POST /v1/groups/advantages`.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

use crate::{CorrectionPolicy, NoiseError, NoiseModel, backward_reward, forward_weight};

/// The largest reward magnitude accepted, so that a group's sums stay finite.
pub const MAX_ABS_REWARD: f64 = 1e15;

/// How rewards are turned into advantages within a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Normalisation {
    /// (r − mean) / (std + epsilon): GRPO.
    #[default]
    MeanStd,
    /// r − mean: Dr. GRPO, TRL's `scale_rewards = "none"`.
    MeanOnly,
}

/// Which standard deviation a group reports and divides by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StdEstimator {
    /// Divide by N − 1, as `torch.std` in verl's GRPO and TRL.
    #[default]
    Sample,
    /// Divide by N, as `np.std` in verl's DAPO filter.
    Population,
}

/// What a group of one rollout gets: it has no spread to estimate (and N − 1 = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = AdvantageSingleRollout)]
pub enum SingleRollout {
    /// verl's and RLPR's GRPO (`compute_grpo_outcome_advantage`): mean 0 and std 1, so the
    /// advantage is the value itself, v / (1 + epsilon) under `mean_std` and v under `mean_only`.
    #[default]
    Verl,
    /// No advantage: mean v and std 0, advantage 0 (the rollout is in effect dropped).
    Zero,
}

/// Which per-rollout value the advantages are computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RewardBasis {
    /// The rewards as given (any finite numbers).
    #[default]
    Raw,
    /// The backward-corrected rewards (binary rewards and a noise model required).
    Backward,
    /// The forward weights (binary rewards and a noise model required).
    ForwardWeight,
}

/// The rewards of the rollouts of one prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RewardGroup {
    /// The trainer's group key (verl's `uid`, a prompt id).
    pub id: String,
    /// One reward per rollout.
    pub rewards: Vec<f64>,
}

/// Rewards grouped by prompt, and how to turn them into advantages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdvantageRequest {
    /// The groups.
    pub groups: Vec<RewardGroup>,
    /// Mean and std, or mean only.
    #[serde(default)]
    pub normalisation: Normalisation,
    /// Added to the std before dividing; verl uses 1e-6, TRL 1e-4.
    #[serde(default = "AdvantageRequest::default_epsilon")]
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub epsilon: f64,
    /// Sample (N − 1) or population (N) std.
    #[serde(default)]
    pub std_estimator: StdEstimator,
    /// Raw rewards, or corrected ones.
    #[serde(default)]
    pub reward: RewardBasis,
    /// The verifier whose noise model corrects the rewards; required unless `reward` is `raw`.
    #[serde(default)]
    pub verifier: Option<String>,
    /// The task/source label of that noise model; the verifier-wide model when absent.
    #[serde(default)]
    pub label: Option<String>,
    /// What a group of one rollout gets: verl's convention (mean 0, std 1) by default.
    #[serde(default)]
    pub single_rollout: SingleRollout,
}

impl AdvantageRequest {
    /// The default epsilon, verl's.
    pub const DEFAULT_EPSILON: f64 = 1e-6;

    fn default_epsilon() -> f64 {
        Self::DEFAULT_EPSILON
    }
}

/// One group's advantages and statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GroupAdvantages {
    /// The group key, as given.
    pub id: String,
    /// The values the advantages come from: the rewards, or their corrections.
    pub values: Vec<f64>,
    /// One advantage per rollout: exactly 0 where all values agree (zero std).
    pub advantages: Vec<f64>,
    /// The baseline subtracted: the mean of `values`, or 0 for a group of one under
    /// `single_rollout: verl` (v for `zero`).
    pub mean: f64,
    /// The scale divided by (before epsilon): the std of `values` by the requested estimator, 0
    /// when all values agree, and for a group of one 1 under `single_rollout: verl` (0 for
    /// `zero`).
    pub std: f64,
    /// Whether every rollout got the same raw reward: the group teaches nothing under any
    /// group-constant correction.
    pub all_agree: bool,
    /// DAPO's dynamic-sampling rule: keep a group unless all of its several rollouts agree.
    pub keep: bool,
}

/// The advantages of every group, in request order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AdvantageResponse {
    /// The values the advantages come from.
    pub reward: RewardBasis,
    /// The normalisation applied.
    pub normalisation: Normalisation,
    /// The noise model behind corrected values.
    pub noise: Option<NoiseModel>,
    /// One entry per group.
    pub groups: Vec<GroupAdvantages>,
}

/// Computes each group's advantages from raw or corrected rewards.
///
/// Corrected bases need `noise` and binary (0 or 1) rewards, and fail with
/// [`NoiseError::Refused`] when `policy` refuses the model. Fails on an empty group, a
/// non-finite reward or an epsilon outside [0, 1], naming the group and rollout.
pub fn group_advantages(
    request: &AdvantageRequest,
    noise: Option<&NoiseModel>,
    policy: &CorrectionPolicy,
) -> Result<AdvantageResponse, NoiseError> {
    if !(0.0..=1.0).contains(&request.epsilon) {
        return Err(NoiseError::invalid("epsilon", format!("{} is not a number from 0 to 1", request.epsilon)));
    }
    let correction = match request.reward {
        RewardBasis::Raw => None,
        RewardBasis::Backward | RewardBasis::ForwardWeight => {
            let Some(model) = noise else {
                return Err(NoiseError::invalid("verifier", "corrected rewards need the verifier's noise model"));
            };
            if let Some(reason) = model.refusal(policy) {
                return Err(NoiseError::Refused { reason });
            }
            Some(model)
        }
    };
    let groups = request
        .groups
        .iter()
        .map(|group| {
            let values = group_values(group, request.reward, correction)?;
            let advantages = normalise(group, values, request);
            if !(advantages.mean.is_finite() && advantages.std.is_finite()) {
                return Err(NoiseError::invalid(
                    "rewards",
                    format!("the rewards of group {:?} are too large to average", group.id),
                ));
            }
            Ok(advantages)
        })
        .collect::<Result<Vec<_>, NoiseError>>()?;
    Ok(AdvantageResponse {
        reward: request.reward,
        normalisation: request.normalisation,
        noise: correction.copied(),
        groups,
    })
}

/// The group's rewards, checked, and corrected when asked.
fn group_values(group: &RewardGroup, basis: RewardBasis, noise: Option<&NoiseModel>) -> Result<Vec<f64>, NoiseError> {
    if group.rewards.is_empty() {
        return Err(NoiseError::invalid("groups", format!("group {:?} has no rewards", group.id)));
    }
    group
        .rewards
        .iter()
        .enumerate()
        .map(|(index, &reward)| {
            if !(-MAX_ABS_REWARD..=MAX_ABS_REWARD).contains(&reward) {
                return Err(NoiseError::invalid(
                    "rewards",
                    format!(
                        "reward {index} of group {:?} is {reward}, not a number within ±{MAX_ABS_REWARD:e}",
                        group.id
                    ),
                ));
            }
            let Some(model) = noise else {
                return Ok(reward);
            };
            if reward != 0.0 && reward != 1.0 {
                return Err(NoiseError::invalid(
                    "rewards",
                    format!("reward {index} of group {:?} is {reward}; corrections need 0 or 1", group.id),
                ));
            }
            Ok(match basis {
                RewardBasis::Raw => reward,
                RewardBasis::Backward => backward_reward(reward, model.rho0.estimate, model.rho1.estimate),
                RewardBasis::ForwardWeight => forward_weight(reward, model.rho1.estimate),
            })
        })
        .collect()
}

fn normalise(group: &RewardGroup, values: Vec<f64>, request: &AdvantageRequest) -> GroupAdvantages {
    let n = values.len() as f64;
    // Exact agreement, not a std under some threshold: a group whose values differ only in
    // rounding still carries a (tiny) signal, and agreeing values must give exactly 0, which
    // verl's (v − mean)/(0 + ε) gives only up to the rounding of the mean.
    let agree = values.windows(2).all(|pair| pair[0] == pair[1]);
    let (mean, std) = match (values.len(), request.single_rollout) {
        (1, SingleRollout::Verl) => (0.0, 1.0),
        (1, SingleRollout::Zero) => (values[0], 0.0),
        _ if agree => (values[0], 0.0),
        _ => {
            let mean = values.iter().sum::<f64>() / n;
            let squares: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
            let divisor = match request.std_estimator {
                StdEstimator::Sample => n - 1.0,
                StdEstimator::Population => n,
            };
            (mean, (squares / divisor).sqrt())
        }
    };
    let lone_verl = values.len() == 1 && request.single_rollout == SingleRollout::Verl;
    let advantages = values
        .iter()
        .map(|v| {
            if agree && !lone_verl {
                return 0.0;
            }
            match request.normalisation {
                Normalisation::MeanStd => (v - mean) / (std + request.epsilon),
                Normalisation::MeanOnly => v - mean,
            }
        })
        .collect();
    let all_agree = group.rewards.windows(2).all(|pair| pair[0] == pair[1]);
    GroupAdvantages {
        id: group.id.clone(),
        values,
        advantages,
        mean,
        std,
        all_agree,
        keep: !all_agree || group.rewards.len() == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ConfiguredRates;

    fn request(groups: &[(&str, &[f64])], normalisation: Normalisation, reward: RewardBasis) -> AdvantageRequest {
        AdvantageRequest {
            groups: groups.iter().map(|(id, r)| RewardGroup { id: (*id).to_owned(), rewards: r.to_vec() }).collect(),
            normalisation,
            epsilon: AdvantageRequest::DEFAULT_EPSILON,
            std_estimator: StdEstimator::Sample,
            reward,
            verifier: None,
            label: None,
            single_rollout: SingleRollout::Verl,
        }
    }

    fn noise() -> Result<NoiseModel, NoiseError> {
        NoiseModel::configured(ConfiguredRates { rho0: 0.05, rho1: 0.2, rho0_interval: None, rho1_interval: None })
    }

    fn close(a: &[f64], b: &[f64], tolerance: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < tolerance)
    }

    #[test]
    fn grpo_advantages_match_a_hand_computation() -> Result<(), NoiseError> {
        let req = request(&[("p", &[1.0, 0.0, 0.0, 1.0])], Normalisation::MeanStd, RewardBasis::Raw);
        let out = group_advantages(&req, None, &CorrectionPolicy::default())?;
        let group = &out.groups[0];
        // mean 0.5; sample std sqrt(4·0.25 / 3).
        let std = (1.0_f64 / 3.0).sqrt();
        assert!((group.mean - 0.5).abs() < 1e-15 && (group.std - std).abs() < 1e-15);
        let a = 0.5 / (std + 1e-6);
        assert!(close(&group.advantages, &[a, -a, -a, a], 1e-12), "{:?}", group.advantages);
        assert!(!group.all_agree && group.keep);
        Ok(())
    }

    #[test]
    fn population_std_divides_by_n() -> Result<(), NoiseError> {
        let mut req = request(&[("p", &[1.0, 0.0])], Normalisation::MeanStd, RewardBasis::Raw);
        req.std_estimator = StdEstimator::Population;
        let out = group_advantages(&req, None, &CorrectionPolicy::default())?;
        assert!((out.groups[0].std - 0.5).abs() < 1e-15);
        Ok(())
    }

    #[test]
    fn agreeing_groups_are_flagged_and_have_zero_advantage() -> Result<(), NoiseError> {
        let mut req = request(&[("same", &[1.0, 1.0, 1.0])], Normalisation::MeanStd, RewardBasis::Raw);
        req.epsilon = 0.0;
        let out = group_advantages(&req, None, &CorrectionPolicy::default())?;
        assert!(out.groups[0].all_agree && !out.groups[0].keep);
        assert_eq!(out.groups[0].advantages, [0.0, 0.0, 0.0]);
        assert_eq!(out.groups[0].std, 0.0);
        Ok(())
    }

    #[test]
    fn zero_std_groups_get_exactly_zero_advantage() -> Result<(), NoiseError> {
        // The mean of three 0.1s rounds to 0.10000000000000002, so (v − mean)/(0 + ε) is
        // −2e-11, not 0; and backward-corrected values of agreeing verdicts are agreeing
        // non-round numbers.
        let req = request(&[("tenths", &[0.1, 0.1, 0.1])], Normalisation::MeanStd, RewardBasis::Raw);
        let out = group_advantages(&req, None, &CorrectionPolicy::default())?;
        assert_eq!(out.groups[0].advantages, [0.0, 0.0, 0.0]);
        assert_eq!((out.groups[0].mean, out.groups[0].std), (0.1, 0.0));
        let req = request(&[("ones", &[1.0, 1.0, 1.0])], Normalisation::MeanStd, RewardBasis::Backward);
        let out = group_advantages(&req, Some(&noise()?), &CorrectionPolicy::default())?;
        assert_eq!(out.groups[0].advantages, [0.0, 0.0, 0.0]);
        Ok(())
    }

    #[test]
    fn a_single_rollout_follows_verl() -> Result<(), NoiseError> {
        // verl's compute_grpo_outcome_advantage: a group of one has mean 0 and std 1, so its
        // advantage is its score / (1 + ε), not 0.
        let req = request(&[("one", &[1.0]), ("zero", &[0.0])], Normalisation::MeanStd, RewardBasis::Raw);
        let out = group_advantages(&req, None, &CorrectionPolicy::default())?;
        let one = &out.groups[0];
        assert_eq!(one.advantages, [1.0 / (1.0 + 1e-6)]);
        assert_eq!((one.mean, one.std), (0.0, 1.0));
        assert!(one.all_agree && one.keep, "verl keeps a group of one");
        assert_eq!(out.groups[1].advantages, [0.0]);
        let mean_only = request(&[("one", &[0.75])], Normalisation::MeanOnly, RewardBasis::Raw);
        assert_eq!(group_advantages(&mean_only, None, &CorrectionPolicy::default())?.groups[0].advantages, [0.75]);
        // The explicit alternative: no advantage.
        let mut zero = request(&[("one", &[1.0])], Normalisation::MeanStd, RewardBasis::Raw);
        zero.single_rollout = SingleRollout::Zero;
        let out = group_advantages(&zero, None, &CorrectionPolicy::default())?;
        assert_eq!(out.groups[0].advantages, [0.0]);
        assert_eq!((out.groups[0].mean, out.groups[0].std), (1.0, 0.0));
        Ok(())
    }

    #[test]
    fn affine_corrections_cancel_under_mean_std() -> Result<(), NoiseError> {
        let model = noise()?;
        let groups: &[(&str, &[f64])] = &[("a", &[1.0, 0.0, 0.0, 1.0, 1.0]), ("b", &[0.0, 0.0, 1.0])];
        let policy = CorrectionPolicy::default();
        let raw = group_advantages(&request(groups, Normalisation::MeanStd, RewardBasis::Raw), None, &policy)?;
        for basis in [RewardBasis::Backward, RewardBasis::ForwardWeight] {
            let corrected = group_advantages(&request(groups, Normalisation::MeanStd, basis), Some(&model), &policy)?;
            for (r, c) in raw.groups.iter().zip(&corrected.groups) {
                assert!(close(&r.advantages, &c.advantages, 1e-5), "{basis:?}: {r:?} vs {c:?}");
            }
            assert_eq!(corrected.noise, Some(model));
        }
        Ok(())
    }

    #[test]
    fn backward_rescales_and_forward_cancels_under_mean_only() -> Result<(), NoiseError> {
        let model = noise()?;
        let groups: &[(&str, &[f64])] = &[("a", &[1.0, 0.0, 0.0, 1.0, 1.0])];
        let policy = CorrectionPolicy::default();
        let raw = group_advantages(&request(groups, Normalisation::MeanOnly, RewardBasis::Raw), None, &policy)?;
        let backward =
            group_advantages(&request(groups, Normalisation::MeanOnly, RewardBasis::Backward), Some(&model), &policy)?;
        let forward = group_advantages(
            &request(groups, Normalisation::MeanOnly, RewardBasis::ForwardWeight),
            Some(&model),
            &policy,
        )?;
        let scaled: Vec<f64> = raw.groups[0].advantages.iter().map(|a| a / 0.75).collect();
        assert!(close(&backward.groups[0].advantages, &scaled, 1e-12));
        assert!(close(&forward.groups[0].advantages, &raw.groups[0].advantages, 1e-12));
        assert!(close(
            &backward.groups[0].values,
            &[0.95 / 0.75, -0.05 / 0.75, -0.05 / 0.75, 0.95 / 0.75, 0.95 / 0.75],
            1e-12
        ));
        Ok(())
    }

    #[test]
    fn corrected_bases_need_a_model_binary_rewards_and_no_refusal() -> Result<(), NoiseError> {
        let policy = CorrectionPolicy::default();
        let req = request(&[("a", &[1.0, 0.0])], Normalisation::MeanStd, RewardBasis::Backward);
        assert!(matches!(group_advantages(&req, None, &policy), Err(NoiseError::Invalid { field: "verifier", .. })));
        let fractional = request(&[("a", &[1.0, 0.5])], Normalisation::MeanStd, RewardBasis::Backward);
        let Err(NoiseError::Invalid { reason, .. }) = group_advantages(&fractional, Some(&noise()?), &policy) else {
            panic!("a fractional reward was corrected");
        };
        assert!(reason.contains("reward 1 of group \"a\""), "{reason}");
        let strict = CorrectionPolicy { j_floor: 0.9 };
        assert!(matches!(group_advantages(&req, Some(&noise()?), &strict), Err(NoiseError::Refused { .. })));
        Ok(())
    }

    #[test]
    fn bad_input_is_named() {
        let policy = CorrectionPolicy::default();
        let empty = request(&[("e", &[])], Normalisation::MeanStd, RewardBasis::Raw);
        assert!(matches!(group_advantages(&empty, None, &policy), Err(NoiseError::Invalid { field: "groups", .. })));
        let nan = request(&[("n", &[0.0, f64::NAN])], Normalisation::MeanStd, RewardBasis::Raw);
        assert!(matches!(group_advantages(&nan, None, &policy), Err(NoiseError::Invalid { field: "rewards", .. })));
        let mut negative = request(&[("x", &[0.0, 1.0])], Normalisation::MeanStd, RewardBasis::Raw);
        negative.epsilon = -1.0;
        assert!(matches!(
            group_advantages(&negative, None, &policy),
            Err(NoiseError::Invalid { field: "epsilon", .. })
        ));
    }

    #[test]
    fn request_defaults_fill_in() -> Result<(), serde_json::Error> {
        let req: AdvantageRequest = serde_json::from_str(r#"{"groups": [{"id": "p", "rewards": [1, 0]}]}"#)?;
        assert_eq!(req.normalisation, Normalisation::MeanStd);
        assert_eq!(req.epsilon, 1e-6);
        assert_eq!(req.std_estimator, StdEstimator::Sample);
        assert_eq!(req.reward, RewardBasis::Raw);
        assert_eq!(req.single_rollout, SingleRollout::Verl);
        let req: AdvantageRequest = serde_json::from_str(
            r#"{"groups": [], "normalisation": "mean_only", "reward": "forward_weight", "verifier": "math"}"#,
        )?;
        assert_eq!((req.normalisation, req.reward), (Normalisation::MeanOnly, RewardBasis::ForwardWeight));
        Ok(())
    }
}
