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
}

impl Default for StdFilter {
    fn default() -> StdFilter {
        StdFilter { beta: 0.5, ratio: 0.99, ema_start_step: 6, filter_start_step: 11 }
    }
}

/// What a training run's filter remembers between steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StdFilterState {
    /// Steps decided so far.
    pub step: u64,
    /// The moving average, once filtering has started.
    pub ema: Option<f64>,
    /// The sum and number of warm-up steps' mean stds.
    pub warmup_sum: f64,
    pub warmup_steps: u64,
}

/// One group's standard deviation and whether it is kept.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GroupDecision {
    /// The group's unbiased std; null (NaN) for a group of fewer than two rollouts.
    pub std: f64,
    pub keep: bool,
}

/// One step's decisions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepDecision {
    /// The step number (1-based).
    pub step: u64,
    /// β·EMA in force for this step; 0 before filtering starts.
    pub threshold: f64,
    /// The mean std over the step's rollouts (each rollout weighted by its group), NaN and
    /// infinite stds left out; what this step adds to the EMA.
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

    /// Decides one step's groups (each the rewards of one prompt's rollouts) and advances
    /// `state`: the threshold uses the EMA up to the previous step; this step's mean std then
    /// updates it, `EMA ← ratio·EMA + (1 − ratio)·mean_std`.
    pub fn step(&self, state: &mut StdFilterState, groups: &[Vec<f64>]) -> StepDecision {
        let step = state.step + 1;
        let stds: Vec<f64> = groups.iter().map(|g| group_std(g)).collect();
        let (weighted, rollouts) = groups
            .iter()
            .zip(&stds)
            .filter(|(_, std)| std.is_finite())
            .fold((0.0, 0usize), |(sum, n), (group, std)| (sum + std * group.len() as f64, n + group.len()));
        let mean_std = (rollouts > 0).then(|| weighted / rollouts as f64);

        let filtering = step >= self.filter_start_step;
        if filtering && state.ema.is_none() && state.warmup_steps > 0 {
            state.ema = Some(state.warmup_sum / state.warmup_steps as f64);
        }
        let threshold = match (filtering, state.ema) {
            (true, Some(ema)) => self.beta * ema,
            _ => 0.0,
        };
        let decisions = stds
            .iter()
            .map(|&std| GroupDecision {
                std,
                keep: !filtering || state.ema.is_none() || (std.is_finite() && std >= threshold),
            })
            .collect();

        if let Some(mean) = mean_std {
            match state.ema {
                Some(ema) => state.ema = Some(self.ratio * ema + (1.0 - self.ratio) * mean),
                None if filtering => state.ema = Some(mean),
                None if step >= self.ema_start_step => {
                    state.warmup_sum += mean;
                    state.warmup_steps += 1;
                }
                None => {}
            }
        }
        state.step = step;
        StepDecision { step, threshold, mean_std, groups: decisions }
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
        let filter = StdFilter { beta: 0.5, ratio: 0.9, ema_start_step: 2, filter_start_step: 4 };
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
        let filter = StdFilter { beta: 1.0, ratio: 0.5, ema_start_step: 1, filter_start_step: 2 };
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
    fn singleton_groups_are_dropped_once_filtering() {
        let filter = StdFilter { ema_start_step: 1, filter_start_step: 2, ..StdFilter::default() };
        let mut state = StdFilterState::default();
        filter.step(&mut state, &[vec![0.0, 1.0]]);
        let decision = filter.step(&mut state, &[vec![1.0], vec![0.0, 1.0]]);
        assert!(decision.groups[0].std.is_nan() && !decision.groups[0].keep);
        assert!(decision.groups[1].keep);
    }

    #[test]
    fn settings_are_checked() {
        assert!(StdFilter::default().validate().is_ok());
        assert!(StdFilter { ratio: 1.0, ..StdFilter::default() }.validate().is_err());
        assert!(StdFilter { beta: f64::NAN, ..StdFilter::default() }.validate().is_err());
        assert!(StdFilter { filter_start_step: 3, ema_start_step: 5, ..StdFilter::default() }.validate().is_err());
    }
}
