//! The std filter (`RayPPOTrainer.filter` and the EMA update in `fit`): a group of rollouts of
//! one prompt is kept when the standard deviation of its rewards reaches β times an
//! exponential moving average of the step's mean standard deviation.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The unbiased (N − 1) standard deviation of a group's rewards; NaN for fewer than two.
pub fn group_std(rewards: &[f64]) -> f64 {
    let n = rewards.len();
    if n < 2 {
        return f64::NAN;
    }
    let mean = rewards.iter().sum::<f64>() / n as f64;
    (rewards.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
}

/// What a group of a single rollout counts as.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = FilterSingleRollout)]
pub enum SingleRollout {
    /// Its std is 1, as RLPR's GRPO advantage (`compute_grpo_outcome_advantage`) sets it: it
    /// enters the step's mean std and is kept while 1 reaches the threshold.
    #[default]
    StdOne,
    /// It has no std: left out of the mean and dropped once filtering.
    Drop,
}

/// The filter's settings. The defaults are the reference scripts' for Qwen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct StdFilter {
    /// β: a group is kept when its std is at least β·EMA (0.5 Qwen, 0.9 Llama, 1.0 Gemma).
    #[schema(minimum = 0.0)]
    pub beta: f64,
    /// The EMA's weight on its previous value, in [0, 1).
    #[schema(minimum = 0.0, exclusive_maximum = 1.0)]
    pub ratio: f64,
    /// The first step (1-based) whose mean std enters the warm-up average.
    #[schema(minimum = 1)]
    pub ema_start_step: u64,
    /// The first step that filters, not before `ema_start_step`; the EMA starts from the
    /// warm-up average then.
    #[schema(minimum = 1)]
    pub filter_start_step: u64,
    /// A group of one rollout: `std_one` (RLPR: std 1) or `drop`.
    pub single_rollout: SingleRollout,
}

impl Default for StdFilter {
    fn default() -> StdFilter {
        StdFilter {
            beta: 0.5,
            ratio: 0.99,
            ema_start_step: 6,
            filter_start_step: 11,
            single_rollout: SingleRollout::StdOne,
        }
    }
}

/// The step being decided, between its first round and its close.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct OpenStep {
    /// The step number (1-based).
    pub step: u64,
    /// Rounds decided so far.
    pub rounds: u64,
    /// β·EMA, fixed when the step opened; every round of the step uses it (0: keep all).
    pub threshold: f64,
    /// Whether the step filters (the threshold applies).
    pub filtering: bool,
    /// The sum of the rollouts' group stds over the step's rounds, and the rollouts counted.
    pub std_sum: f64,
    pub rollouts: u64,
}

impl OpenStep {
    /// The mean std over the step's rollouts so far; none before a rollout with a std.
    pub fn mean_std(&self) -> Option<f64> {
        (self.rollouts > 0).then(|| self.std_sum / self.rollouts as f64)
    }
}

/// What a training run's filter remembers between steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StdFilterState {
    /// Steps closed so far.
    pub step: u64,
    /// The moving average, once filtering has started.
    pub ema: Option<f64>,
    /// The sum and number of warm-up steps' mean stds.
    pub warmup_sum: f64,
    pub warmup_steps: u64,
    /// The step whose rounds are being decided, until it is closed.
    #[serde(default)]
    pub open: Option<OpenStep>,
}

/// One group's standard deviation and whether it is kept.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GroupDecision {
    /// The group's unbiased std (1 for a single rollout under [`SingleRollout::StdOne`]); NaN
    /// for a single rollout under [`SingleRollout::Drop`].
    pub std: f64,
    pub keep: bool,
}

/// One round's decisions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepDecision {
    /// The step number (1-based).
    pub step: u64,
    /// The round within the step (1-based).
    pub round: u64,
    /// β·EMA in force for this step; 0 before filtering starts.
    pub threshold: f64,
    /// The mean std over the step's rollouts so far, every round included (each rollout
    /// weighted by its group), NaN and infinite stds left out; what the step adds to the EMA
    /// when it closes.
    pub mean_std: Option<f64>,
    pub groups: Vec<GroupDecision>,
}

impl StdFilter {
    /// Why these settings cannot be used, if they cannot.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.beta.is_finite() && self.beta >= 0.0) {
            return Err(format!("beta must be a finite number ≥ 0, got {}", self.beta));
        }
        if !(0.0..1.0).contains(&self.ratio) {
            return Err(format!("ratio must be in [0, 1), got {}", self.ratio));
        }
        if self.ema_start_step == 0 || self.filter_start_step < self.ema_start_step {
            return Err("steps count from 1, and filtering cannot start before the EMA".to_owned());
        }
        Ok(())
    }

    /// A group's std under these settings.
    pub fn std_of(&self, rewards: &[f64]) -> f64 {
        match (rewards.len(), self.single_rollout) {
            (1, SingleRollout::StdOne) => 1.0,
            _ => group_std(rewards),
        }
    }

    /// Decides one step in one round and closes it: [`StdFilter::round`] then
    /// [`StdFilter::close`].
    pub fn step(&self, state: &mut StdFilterState, groups: &[Vec<f64>]) -> StepDecision {
        let decision = self.round(state, groups);
        self.close(state);
        decision
    }

    /// Decides one round of the open step, opening the next step first when none is open. The
    /// threshold is fixed when a step opens, from the EMA of the steps before it, so every
    /// round of a step uses the same one; the round's stds join the step's mean, which moves
    /// the EMA once, at [`StdFilter::close`].
    pub fn round(&self, state: &mut StdFilterState, groups: &[Vec<f64>]) -> StepDecision {
        let mut open = match state.open.take() {
            Some(open) => open,
            None => self.open(state),
        };
        let stds: Vec<f64> = groups.iter().map(|g| self.std_of(g)).collect();
        for (group, std) in groups.iter().zip(&stds).filter(|(_, std)| std.is_finite()) {
            open.std_sum += std * group.len() as f64;
            open.rollouts += group.len() as u64;
        }
        open.rounds += 1;
        let keep = |std: f64| !open.filtering || (std.is_finite() && std >= open.threshold);
        let decision = StepDecision {
            step: open.step,
            round: open.rounds,
            threshold: open.threshold,
            mean_std: open.mean_std(),
            groups: stds.iter().map(|&std| GroupDecision { std, keep: keep(std) }).collect(),
        };
        state.open = Some(open);
        decision
    }

    /// Opens the step after the last closed one: its threshold from the EMA so far (started
    /// from the warm-up average at the first filtering step).
    fn open(&self, state: &mut StdFilterState) -> OpenStep {
        let step = state.step + 1;
        let filtering = step >= self.filter_start_step;
        if filtering && state.ema.is_none() && state.warmup_steps > 0 {
            state.ema = Some(state.warmup_sum / state.warmup_steps as f64);
        }
        let (filtering, threshold) = match (filtering, state.ema) {
            (true, Some(ema)) => (true, self.beta * ema),
            _ => (false, 0.0),
        };
        OpenStep { step, rounds: 0, threshold, filtering, std_sum: 0.0, rollouts: 0 }
    }

    /// Closes the open step: its mean std over every round's rollouts updates the EMA,
    /// `EMA ← ratio·EMA + (1 − ratio)·mean_std` (or enters the warm-up average). Returns the
    /// closed step's mean std; nothing happens when no step is open.
    pub fn close(&self, state: &mut StdFilterState) -> Option<f64> {
        let open = state.open.take()?;
        let mean = open.mean_std();
        if let Some(mean) = mean {
            match state.ema {
                Some(ema) => state.ema = Some(self.ratio * ema + (1.0 - self.ratio) * mean),
                None if open.step >= self.filter_start_step => state.ema = Some(mean),
                None if open.step >= self.ema_start_step => {
                    state.warmup_sum += mean;
                    state.warmup_steps += 1;
                }
                None => {}
            }
        }
        state.step = open.step;
        mean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_std_is_unbiased() {
        assert!((group_std(&[1.0, 0.0, 1.0, 0.0]) - (1.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(group_std(&[0.5, 0.5, 0.5]), 0.0);
        assert!(group_std(&[1.0]).is_nan());
    }

    #[test]
    fn filtering_starts_after_warm_up_from_the_warm_up_average() {
        let filter =
            StdFilter { beta: 0.5, ratio: 0.9, ema_start_step: 2, filter_start_step: 4, ..StdFilter::default() };
        let mut state = StdFilterState::default();
        let wide = vec![0.0, 1.0]; // std √0.5
        let flat = vec![0.3, 0.3]; // std 0
        let steps: Vec<StepDecision> = (0..5).map(|_| filter.step(&mut state, &[wide.clone(), flat.clone()])).collect();
        let s = 0.5f64.sqrt();
        // Steps 1–3 keep everything; steps 2 and 3 feed the warm-up average (s/2 each).
        for decision in &steps[..3] {
            assert!(decision.groups.iter().all(|g| g.keep));
            assert_eq!(decision.threshold, 0.0);
        }
        assert!((steps[0].mean_std.unwrap_or_default() - s / 2.0).abs() < 1e-12);
        // Step 4 starts the EMA at s/2: threshold β·s/2; the flat group is dropped.
        assert!((steps[3].threshold - 0.5 * s / 2.0).abs() < 1e-12);
        assert_eq!(steps[3].groups.iter().map(|g| g.keep).collect::<Vec<_>>(), [true, false]);
        // The EMA then moves toward each step's mean std; this one is constant, so it stays.
        assert!((steps[4].threshold - 0.5 * s / 2.0).abs() < 1e-12);
        assert_eq!(state.step, 5);
    }

    #[test]
    fn the_ema_follows_the_previous_steps() {
        let filter =
            StdFilter { beta: 1.0, ratio: 0.5, ema_start_step: 1, filter_start_step: 2, ..StdFilter::default() };
        let mut state = StdFilterState::default();
        filter.step(&mut state, &[vec![0.0, 2.0]]); // std √2: warm-up
        let second = filter.step(&mut state, &[vec![0.0, 0.0]]); // EMA from warm-up: √2
        assert!((second.threshold - 2.0f64.sqrt()).abs() < 1e-12);
        assert!(!second.groups[0].keep);
        let third = filter.step(&mut state, &[vec![0.0, 1.0]]); // EMA = 0.5·√2 + 0.5·0
        assert!((third.threshold - 0.5 * 2.0f64.sqrt()).abs() < 1e-12);
        assert!(third.groups[0].keep, "std √0.5 ≥ threshold √0.5");
    }

    #[test]
    fn singleton_groups_are_dropped_once_filtering_when_asked() {
        let filter = StdFilter {
            ema_start_step: 1,
            filter_start_step: 2,
            single_rollout: SingleRollout::Drop,
            ..StdFilter::default()
        };
        let mut state = StdFilterState::default();
        filter.step(&mut state, &[vec![0.0, 1.0]]);
        let decision = filter.step(&mut state, &[vec![1.0], vec![0.0, 1.0]]);
        assert!(decision.groups[0].std.is_nan() && !decision.groups[0].keep);
        assert!(decision.groups[1].keep);
    }

    #[test]
    fn a_single_rollout_has_std_one_and_is_kept_as_rlpr_does() {
        // RLPR's GRPO advantage gives a one-rollout group σ = 1, and the filter reads that σ.
        let filter =
            StdFilter { beta: 1.0, ratio: 0.5, ema_start_step: 1, filter_start_step: 2, ..StdFilter::default() };
        let mut state = StdFilterState::default();
        let first = filter.step(&mut state, &[vec![0.0, 1.0], vec![0.3]]);
        assert_eq!(first.groups[1].std, 1.0);
        // The mean over the three rollouts: (2·√0.5 + 1) / 3.
        let mean = (2.0 * 0.5f64.sqrt() + 1.0) / 3.0;
        assert!((first.mean_std.unwrap_or_default() - mean).abs() < 1e-12);
        let second = filter.step(&mut state, &[vec![0.7], vec![0.0, 1.0]]);
        assert!((second.threshold - mean).abs() < 1e-12);
        assert!(second.groups[0].keep, "σ 1 ≥ threshold {}", second.threshold);
        assert!(!second.groups[1].keep, "σ √0.5 < threshold {}", second.threshold);
    }

    #[test]
    fn every_round_of_a_step_uses_one_threshold_and_the_ema_moves_once_per_step() {
        let filter =
            StdFilter { beta: 1.0, ratio: 0.5, ema_start_step: 1, filter_start_step: 2, ..StdFilter::default() };
        let mut state = StdFilterState::default();
        filter.step(&mut state, &[vec![0.0, 2.0]]); // warm-up: mean √2, the EMA at step 2
        let s2 = 2.0f64.sqrt();
        let first = filter.round(&mut state, &[vec![0.0, 0.0]]);
        let second = filter.round(&mut state, &[vec![0.0, 4.0, 0.0, 4.0]]);
        assert_eq!((first.step, first.round, second.step, second.round), (2, 1, 2, 2));
        assert!((first.threshold - s2).abs() < 1e-12 && first.threshold == second.threshold);
        assert_eq!(state.ema, Some(s2), "the EMA waits for the step to close");
        assert_eq!(state.step, 1);
        // The step's mean is over both rounds' six rollouts: (2·0 + 4·√(16/3)) / 6.
        let mean = 4.0 * (16.0f64 / 3.0).sqrt() / 6.0;
        assert!((second.mean_std.unwrap_or_default() - mean).abs() < 1e-12);
        assert_eq!(filter.close(&mut state), second.mean_std);
        assert!((state.ema.unwrap_or_default() - (0.5 * s2 + 0.5 * mean)).abs() < 1e-12);
        assert_eq!((state.step, state.open.is_none()), (2, true));
        assert_eq!(filter.close(&mut state), None, "closing twice does nothing");
        let third = filter.round(&mut state, &[vec![0.0, 1.0]]);
        assert_eq!((third.step, third.round), (3, 1));
        assert!((third.threshold - (0.5 * s2 + 0.5 * mean)).abs() < 1e-12);
    }

    #[test]
    fn settings_are_checked() {
        assert!(StdFilter::default().validate().is_ok());
        assert!(StdFilter { ratio: 1.0, ..StdFilter::default() }.validate().is_err());
        assert!(StdFilter { beta: f64::NAN, ..StdFilter::default() }.validate().is_err());
        assert!(StdFilter { filter_start_step: 3, ema_start_step: 5, ..StdFilter::default() }.validate().is_err());
    }
}
