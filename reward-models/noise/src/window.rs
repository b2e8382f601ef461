//! Counts that forget: a sliding window or an exponential decay over training steps, so that a
//! rate that drifts as the policy changes is estimated from recent verdicts.
//!
//! Counts are kept per step (a bucket per step, added to by every replica), and a window
//! combines the buckets when a model is built; the buckets themselves never change, so a window
//! can be changed after the fact.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

use crate::{NoiseError, VerdictTally};

/// Which counts a noise model is estimated from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CountWindow {
    /// Every count since the tally began (the default when no window is set).
    All,
    /// The counts of the last `steps` steps, the current one included.
    Sliding {
        /// How many steps, at least 1 and at most 10^9.
        #[schema(minimum = 1, maximum = 1_000_000_000)]
        steps: u64,
    },
    /// Every count weighted by 2^(−age / `half_life_steps`), where age is how many steps ago it
    /// was made (0 in the current step). The weighted sums are rounded to whole counts.
    Decay {
        /// The age, in steps, at which a count weighs one half; more than 0.
        #[schema(exclusive_minimum = 0.0)]
        half_life_steps: f64,
    },
}

impl CountWindow {
    /// The largest half-life accepted: beyond it the decay over any real run is nil.
    pub const MAX_HALF_LIFE: f64 = 1e9;
    /// The longest sliding window accepted, in steps.
    pub const MAX_STEPS: u64 = 1_000_000_000;

    /// Fails on an empty sliding window or a half-life that is not a positive number.
    pub fn validate(&self) -> Result<(), NoiseError> {
        match *self {
            CountWindow::All => Ok(()),
            CountWindow::Sliding { steps: 0 } => {
                Err(NoiseError::invalid("window.steps", "a sliding window needs at least 1 step"))
            }
            CountWindow::Sliding { steps } if steps > Self::MAX_STEPS => Err(NoiseError::invalid(
                "window.steps",
                format!("{steps} steps is more than the longest window, {}", Self::MAX_STEPS),
            )),
            CountWindow::Sliding { .. } => Ok(()),
            CountWindow::Decay { half_life_steps }
                if !(half_life_steps > 0.0 && half_life_steps <= Self::MAX_HALF_LIFE) =>
            {
                Err(NoiseError::invalid(
                    "window.half_life_steps",
                    format!("{half_life_steps} is not a half-life in (0, {:e}] steps", Self::MAX_HALF_LIFE),
                ))
            }
            CountWindow::Decay { .. } => Ok(()),
        }
    }

    /// The weight of a count made at `step` when the current step is `current`; 0 outside the
    /// window. A count from a step after `current` (written by a replica that saw a newer step
    /// first) counts as current.
    pub fn weight(&self, step: u64, current: u64) -> f64 {
        let age = current.saturating_sub(step);
        match *self {
            CountWindow::All => 1.0,
            CountWindow::Sliding { steps } => {
                if age < steps {
                    1.0
                } else {
                    0.0
                }
            }
            CountWindow::Decay { half_life_steps } => (-(age as f64) / half_life_steps).exp2(),
        }
    }

    /// The tally a model is estimated from: the per-step tallies in `buckets`, weighted by
    /// [`weight`](Self::weight) and summed. Under decay the weighted sums are rounded to the
    /// nearest whole count; rounding each counter is monotone, so a checked count never drops
    /// below its overturns.
    pub fn combine<'a>(
        &self,
        buckets: impl IntoIterator<Item = (u64, &'a VerdictTally)>,
        current: u64,
    ) -> VerdictTally {
        let mut sums = [0.0_f64; 6];
        let mut exact = VerdictTally::default();
        let mut weighted = false;
        for (step, tally) in buckets {
            let weight = self.weight(step, current);
            if weight == 1.0 {
                exact.merge(tally);
            } else if weight > 0.0 {
                weighted = true;
                for (sum, count) in sums.iter_mut().zip(tally.counts()) {
                    *sum += weight * count as f64;
                }
            }
        }
        if !weighted {
            return exact;
        }
        for (sum, count) in sums.iter_mut().zip(exact.counts()) {
            *sum += count as f64;
        }
        // Casting a finite non-negative f64 to u64 saturates at u64::MAX.
        VerdictTally::from_counts(sums.map(|sum| sum.round() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn negatives(observed: u64, checked: u64, overturned: u64) -> VerdictTally {
        VerdictTally {
            observed_negative: observed,
            checked_negative: checked,
            overturned_negative: overturned,
            ..VerdictTally::default()
        }
    }

    #[test]
    fn all_adds_every_step() {
        let buckets = [(0, negatives(10, 5, 1)), (7, negatives(20, 10, 4))];
        let total = CountWindow::All.combine(buckets.iter().map(|(s, t)| (*s, t)), 7);
        assert_eq!(total, negatives(30, 15, 5));
    }

    #[test]
    fn windows_beyond_their_bounds_are_refused() {
        assert!(CountWindow::Sliding { steps: 0 }.validate().is_err());
        assert!(CountWindow::Sliding { steps: CountWindow::MAX_STEPS }.validate().is_ok());
        assert!(CountWindow::Sliding { steps: u64::MAX }.validate().is_err());
        assert!(CountWindow::Decay { half_life_steps: 0.0 }.validate().is_err());
    }

    #[test]
    fn sliding_window_keeps_the_last_steps() {
        // Early on the verifier missed 1 in 10 right answers; lately 1 in 2.
        let buckets = [(0, negatives(100, 100, 10)), (1, negatives(100, 100, 10)), (2, negatives(100, 100, 50))];
        let window = CountWindow::Sliding { steps: 1 };
        let recent = window.combine(buckets.iter().map(|(s, t)| (*s, t)), 2);
        assert_eq!(recent, negatives(100, 100, 50));
        let two = CountWindow::Sliding { steps: 2 }.combine(buckets.iter().map(|(s, t)| (*s, t)), 2);
        assert_eq!(two, negatives(200, 200, 60));
        // A bucket from a step this replica has not seen yet counts as current.
        let ahead = window.combine([(3, &negatives(4, 4, 4))], 2);
        assert_eq!(ahead, negatives(4, 4, 4));
    }

    #[test]
    fn decay_halves_per_half_life_and_rounds() {
        let window = CountWindow::Decay { half_life_steps: 2.0 };
        assert_eq!(window.weight(5, 5), 1.0);
        assert!((window.weight(3, 5) - 0.5).abs() < 1e-15);
        assert!((window.weight(0, 4) - 0.25).abs() < 1e-15);
        // 400 counts two half-lives ago weigh 100; 100 counts now weigh 100.
        let buckets = [(0, negatives(400, 400, 40)), (4, negatives(100, 100, 50))];
        let combined = window.combine(buckets.iter().map(|(s, t)| (*s, t)), 4);
        assert_eq!(combined, negatives(200, 200, 60));
        // Rounding keeps overturns within checks: 3 of 3 at weight 0.3 stays 1 of 1.
        let small = CountWindow::Decay { half_life_steps: 1.0 / (1.0 / 0.3_f64).log2() };
        let rounded = small.combine([(0, &negatives(3, 3, 3))], 1);
        assert_eq!(rounded, negatives(1, 1, 1));
        assert!(rounded.validate().is_ok());
    }

    #[test]
    fn windows_are_validated_and_read_from_json() -> Result<(), serde_json::Error> {
        assert!(CountWindow::Sliding { steps: 0 }.validate().is_err());
        assert!(CountWindow::Decay { half_life_steps: 0.0 }.validate().is_err());
        assert!(CountWindow::Decay { half_life_steps: f64::NAN }.validate().is_err());
        assert!(CountWindow::Decay { half_life_steps: 3.5 }.validate().is_ok());
        let window: CountWindow = serde_json::from_str(r#"{"kind": "decay", "half_life_steps": 10}"#)?;
        assert_eq!(window, CountWindow::Decay { half_life_steps: 10.0 });
        let window: CountWindow = serde_json::from_str(r#"{"kind": "sliding", "steps": 5}"#)?;
        assert_eq!(window, CountWindow::Sliding { steps: 5 });
        assert!(serde_json::from_str::<CountWindow>(r#"{"kind": "sliding", "steps": 5, "x": 1}"#).is_err());
        Ok(())
    }
}
