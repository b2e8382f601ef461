//! Counting verdicts and their checks: the evidence behind every estimated noise model.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

use crate::{NoiseError, Proportion};

/// One verdict of the noisy verifier next to the true label a person (or a trusted checker)
/// assigned to the same response: an audit row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GoldLabel {
    /// The verifier's binary verdict R̃ (true = reward 1).
    pub verdict: bool,
    /// The true label R.
    pub gold: bool,
}

/// Counts of verdicts seen and of verdicts checked against a stronger label, split by the
/// verdict: the accumulator behind audits and appeals alike.
///
/// For appeals the server calls [`observe`](Self::observe) for every binary verdict the
/// verifier returns and [`record_check`](Self::record_check) as re-checks come back, possibly
/// much later; tallies from several workers or time windows combine with
/// [`merge`](Self::merge). For audits every gold-labelled row is both observed and checked
/// ([`record_gold`](Self::record_gold)).
///
/// Sampling negatives and positives for re-checking at different rates is fine: the appeal
/// estimator uses only the rates within each verdict class and the observed positive rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
pub struct VerdictTally {
    /// Verdicts 1 seen.
    pub observed_positive: u64,
    /// Verdicts 0 seen.
    pub observed_negative: u64,
    /// Verdicts 1 that were checked.
    pub checked_positive: u64,
    /// Checked verdicts 1 whose check said 0: false positives found.
    pub overturned_positive: u64,
    /// Verdicts 0 that were checked.
    pub checked_negative: u64,
    /// Checked verdicts 0 whose check said 1: false negatives found.
    pub overturned_negative: u64,
}

impl VerdictTally {
    /// The six counts in field order (`observed_positive`, `observed_negative`,
    /// `checked_positive`, `overturned_positive`, `checked_negative`, `overturned_negative`).
    pub fn counts(&self) -> [u64; 6] {
        [
            self.observed_positive,
            self.observed_negative,
            self.checked_positive,
            self.overturned_positive,
            self.checked_negative,
            self.overturned_negative,
        ]
    }

    /// The tally of six counts in [`VerdictTally::counts`]' order.
    pub fn from_counts([op, on, cp, xp, cn, xn]: [u64; 6]) -> Self {
        VerdictTally {
            observed_positive: op,
            observed_negative: on,
            checked_positive: cp,
            overturned_positive: xp,
            checked_negative: cn,
            overturned_negative: xn,
        }
    }

    /// A tally of gold-labelled audit rows.
    pub fn from_gold_labels<'a>(labels: impl IntoIterator<Item = &'a GoldLabel>) -> Self {
        let mut tally = VerdictTally::default();
        for label in labels {
            tally.record_gold(*label);
        }
        tally
    }

    /// Counts one verdict the verifier returned.
    pub fn observe(&mut self, verdict: bool) {
        if verdict {
            self.observed_positive = self.observed_positive.saturating_add(1);
        } else {
            self.observed_negative = self.observed_negative.saturating_add(1);
        }
    }

    /// Counts one check: the verifier said `verdict`, the stronger checker said `truth`.
    pub fn record_check(&mut self, verdict: bool, truth: bool) {
        let overturned = u64::from(verdict != truth);
        if verdict {
            self.checked_positive = self.checked_positive.saturating_add(1);
            self.overturned_positive = self.overturned_positive.saturating_add(overturned);
        } else {
            self.checked_negative = self.checked_negative.saturating_add(1);
            self.overturned_negative = self.overturned_negative.saturating_add(overturned);
        }
    }

    /// Counts one audit row: observed and checked at once.
    pub fn record_gold(&mut self, label: GoldLabel) {
        self.observe(label.verdict);
        self.record_check(label.verdict, label.gold);
    }

    /// Adds another tally's counts to this one.
    pub fn merge(&mut self, other: &VerdictTally) {
        self.observed_positive = self.observed_positive.saturating_add(other.observed_positive);
        self.observed_negative = self.observed_negative.saturating_add(other.observed_negative);
        self.checked_positive = self.checked_positive.saturating_add(other.checked_positive);
        self.overturned_positive = self.overturned_positive.saturating_add(other.overturned_positive);
        self.checked_negative = self.checked_negative.saturating_add(other.checked_negative);
        self.overturned_negative = self.overturned_negative.saturating_add(other.overturned_negative);
    }

    /// All verdicts seen.
    pub fn observed(&self) -> u64 {
        self.observed_positive.saturating_add(self.observed_negative)
    }

    /// All verdicts checked.
    pub fn checked(&self) -> u64 {
        self.checked_positive.saturating_add(self.checked_negative)
    }

    /// Rejects tallies that cannot come from counting (more overturns than checks), as a
    /// deserialised or hand-edited tally might.
    pub fn validate(&self) -> Result<(), NoiseError> {
        if self.overturned_positive > self.checked_positive {
            return Err(NoiseError::invalid(
                "overturned_positive",
                format!("{} overturns of only {} checked positives", self.overturned_positive, self.checked_positive),
            ));
        }
        if self.overturned_negative > self.checked_negative {
            return Err(NoiseError::invalid(
                "overturned_negative",
                format!("{} overturns of only {} checked negatives", self.overturned_negative, self.checked_negative),
            ));
        }
        Ok(())
    }

    /// π̃: verdicts 1 among all verdicts seen.
    pub fn observed_positive_rate(&self) -> Proportion {
        Proportion { successes: self.observed_positive, trials: self.observed() }
    }

    /// q: checked verdicts 0 that the check overturned (the complement of the negative
    /// predictive value).
    pub fn overturn_rate(&self) -> Proportion {
        Proportion { successes: self.overturned_negative, trials: self.checked_negative }
    }

    /// PPV: checked verdicts 1 that the check confirmed.
    pub fn precision(&self) -> Proportion {
        Proportion {
            successes: self.checked_positive - self.overturned_positive.min(self.checked_positive),
            trials: self.checked_positive,
        }
    }

    /// ρ0 counted directly: false positives among the checked items that are truly 0.
    ///
    /// Only an unbiased estimate when the checked items were picked without regard to the
    /// verdict (an audit of random rollouts); verdict-stratified samples need the appeal
    /// estimator instead.
    pub fn false_positive_rate(&self) -> Proportion {
        let true_negatives = self.checked_negative - self.overturned_negative.min(self.checked_negative);
        Proportion {
            successes: self.overturned_positive,
            trials: self.overturned_positive.saturating_add(true_negatives),
        }
    }

    /// ρ1 counted directly: false negatives among the checked items that are truly 1 (same
    /// caveat as [`false_positive_rate`](Self::false_positive_rate)).
    pub fn false_negative_rate(&self) -> Proportion {
        let true_positives = self.checked_positive - self.overturned_positive.min(self.checked_positive);
        Proportion {
            successes: self.overturned_negative,
            trials: self.overturned_negative.saturating_add(true_positives),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(verdict: bool, gold: bool) -> GoldLabel {
        GoldLabel { verdict, gold }
    }

    #[test]
    fn gold_labels_fill_the_confusion_counts() {
        // 3 true positives, 1 false positive, 4 true negatives, 2 false negatives.
        let mut labels = vec![label(true, true); 3];
        labels.push(label(true, false));
        labels.extend(vec![label(false, false); 4]);
        labels.extend(vec![label(false, true); 2]);
        let tally = VerdictTally::from_gold_labels(&labels);
        assert_eq!(tally.observed_positive, 4);
        assert_eq!(tally.observed_negative, 6);
        assert_eq!(tally.checked_positive, 4);
        assert_eq!(tally.overturned_positive, 1);
        assert_eq!(tally.checked_negative, 6);
        assert_eq!(tally.overturned_negative, 2);
        assert_eq!(tally.false_positive_rate(), Proportion { successes: 1, trials: 5 });
        assert_eq!(tally.false_negative_rate(), Proportion { successes: 2, trials: 5 });
        assert_eq!(tally.precision(), Proportion { successes: 3, trials: 4 });
        assert_eq!(tally.overturn_rate(), Proportion { successes: 2, trials: 6 });
        assert_eq!(tally.observed_positive_rate(), Proportion { successes: 4, trials: 10 });
    }

    #[test]
    fn observing_and_checking_are_separate() {
        let mut tally = VerdictTally::default();
        for _ in 0..10 {
            tally.observe(false);
        }
        tally.observe(true);
        tally.record_check(false, true);
        assert_eq!(tally.observed(), 11);
        assert_eq!(tally.checked(), 1);
        assert_eq!(tally.overturned_negative, 1);
    }

    #[test]
    fn merge_adds_counts() {
        let mut a = VerdictTally::from_gold_labels(&[label(true, false), label(false, false)]);
        let b = VerdictTally::from_gold_labels(&[label(false, true)]);
        a.merge(&b);
        assert_eq!(a.observed(), 3);
        assert_eq!(a.checked_negative, 2);
        assert_eq!(a.overturned_negative, 1);
        assert_eq!(a.overturned_positive, 1);
    }

    #[test]
    fn impossible_tallies_are_rejected() {
        let tally = VerdictTally { checked_negative: 2, overturned_negative: 3, ..VerdictTally::default() };
        assert!(matches!(tally.validate(), Err(NoiseError::Invalid { field: "overturned_negative", .. })));
        let tally = VerdictTally { checked_positive: 0, overturned_positive: 1, ..VerdictTally::default() };
        assert!(tally.validate().is_err());
        assert!(VerdictTally::default().validate().is_ok());
    }
}
