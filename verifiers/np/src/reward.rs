//! Reward modes and the quality ratio.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};

/// Whether smaller or larger objective values are better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Smaller is better; ratio `ref / obj`.
    Minimize,
    /// Larger is better; ratio `obj / ref`.
    Maximize,
    /// Smaller is better and 0 is a common optimum (partition difference, bisection cut); ratio
    /// `(ref + 1) / (obj + 1)`, defined everywhere.
    MinimizeShifted,
}

impl Direction {
    /// True when `a` is at least as good as `b`.
    pub fn at_least_as_good(self, a: i64, b: i64) -> bool {
        match self {
            Direction::Minimize | Direction::MinimizeShifted => a <= b,
            Direction::Maximize => a >= b,
        }
    }

    /// The quality ratio of `obj` against `reference`: 1 at the reference, below 1 when worse,
    /// above 1 when better. A zero denominator gives 1 if both are 0 and 0 otherwise (the
    /// NP-Engine/verl convention).
    pub fn ratio(self, obj: i64, reference: i64) -> f64 {
        let (num, den) = match self {
            Direction::Maximize => (obj, reference),
            Direction::Minimize => (reference, obj),
            Direction::MinimizeShifted => (reference + 1, obj + 1),
        };
        if den == 0 {
            return if num == 0 { 1.0 } else { 0.0 };
        }
        num as f64 / den as f64
    }
}

/// How a verdict's score is computed from the judged answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RewardMode {
    /// 0 if unparsable; `infeasible_reward` (default 0.1) if infeasible; else
    /// `0.3 + 0.7·clip((q − q_b)/(1 − q_b), 0, 1)`, plus 0.1 when a proven optimum is reached.
    #[default]
    Quality,
    /// NP-Engine/verl: (+1 if the response contains `Answer:`, else −1) + (q if feasible, else −1.5).
    Forge,
    /// q (capped at 1) if feasible, else 0.
    Ratio,
    /// 1 if feasible and at least as good as the reference, else 0.
    Binary,
}

/// What the verifier established about one answer, the input to every reward mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judgement {
    /// The answer parsed into the task's shape.
    pub parsed: bool,
    /// The objective, when the answer is feasible.
    pub objective: Option<i64>,
    /// The response contains the literal `Answer:` (for `forge`).
    pub has_answer_marker: bool,
}

/// The numbers the rewards are made of, all reported in details.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quality {
    /// q: the answer's ratio against the reference (uncapped).
    pub ratio: f64,
    /// q_b: the baseline's ratio against the reference.
    pub baseline_ratio: f64,
    /// clip((q − q_b)/(1 − q_b), 0, 1); when the baseline already reaches the reference, 1 if the
    /// answer does too, else 0.
    pub gap_closed: f64,
    /// The answer is at least as good as a reference that is a proven optimum.
    pub proven_optimal: bool,
    /// The answer is at least as good as the reference.
    pub reaches_reference: bool,
}

/// Quality numbers of a feasible objective.
pub fn quality(direction: Direction, objective: i64, reference: i64, baseline: i64, reference_proven: bool) -> Quality {
    let ratio = direction.ratio(objective, reference);
    let baseline_ratio = direction.ratio(baseline, reference);
    let reaches_reference = direction.at_least_as_good(objective, reference);
    let gap_closed = if baseline_ratio >= 1.0 {
        if reaches_reference { 1.0 } else { 0.0 }
    } else {
        ((ratio - baseline_ratio) / (1.0 - baseline_ratio)).clamp(0.0, 1.0)
    };
    Quality {
        ratio,
        baseline_ratio,
        gap_closed,
        proven_optimal: reference_proven && reaches_reference,
        reaches_reference,
    }
}

/// The score of one judged answer under `mode`.
pub fn reward(mode: RewardMode, judgement: &Judgement, quality: Option<&Quality>, infeasible_reward: f64) -> f64 {
    match mode {
        RewardMode::Quality => match (judgement.parsed, quality) {
            (false, _) => 0.0,
            (true, None) => infeasible_reward,
            (true, Some(q)) => 0.3 + 0.7 * q.gap_closed + if q.proven_optimal { 0.1 } else { 0.0 },
        },
        RewardMode::Forge => {
            let format = if judgement.has_answer_marker { 1.0 } else { -1.0 };
            format + quality.map_or(-1.5, |q| q.ratio)
        }
        RewardMode::Ratio => quality.map_or(0.0, |q| q.ratio.min(1.0)),
        RewardMode::Binary => {
            if quality.is_some_and(|q| q.reaches_reference) {
                1.0
            } else {
                0.0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_zero_rules() {
        assert_eq!(Direction::Maximize.ratio(3, 4), 0.75);
        assert_eq!(Direction::Minimize.ratio(8, 6), 0.75);
        assert_eq!(Direction::MinimizeShifted.ratio(3, 0), 0.25);
        assert_eq!(Direction::Minimize.ratio(0, 0), 1.0);
        assert_eq!(Direction::Maximize.ratio(2, 0), 0.0);
    }

    #[test]
    fn quality_formula() {
        // Baseline ratio 0.5, answer ratio 0.75: half the gap closed.
        let q = quality(Direction::Maximize, 75, 100, 50, true);
        assert!((q.gap_closed - 0.5).abs() < 1e-12);
        let j = Judgement { parsed: true, objective: Some(75), has_answer_marker: true };
        assert!((reward(RewardMode::Quality, &j, Some(&q), 0.1) - 0.65).abs() < 1e-12);
        assert!((reward(RewardMode::Forge, &j, Some(&q), 0.1) - 1.75).abs() < 1e-12);
        assert_eq!(reward(RewardMode::Binary, &j, Some(&q), 0.1), 0.0);
        let best = quality(Direction::Maximize, 100, 100, 50, true);
        assert!((reward(RewardMode::Quality, &j, Some(&best), 0.1) - 1.1).abs() < 1e-12);
        let heuristic = quality(Direction::Maximize, 100, 100, 50, false);
        assert!((reward(RewardMode::Quality, &j, Some(&heuristic), 0.1) - 1.0).abs() < 1e-12);
        let beaten = quality(Direction::Maximize, 110, 100, 50, false);
        assert!((reward(RewardMode::Ratio, &j, Some(&beaten), 0.1) - 1.0).abs() < 1e-12);
        // Worse than the baseline still earns the feasibility floor.
        let poor = quality(Direction::Maximize, 10, 100, 50, true);
        assert!((reward(RewardMode::Quality, &j, Some(&poor), 0.1) - 0.3).abs() < 1e-12);
        let infeasible = Judgement { parsed: true, objective: None, has_answer_marker: false };
        assert_eq!(reward(RewardMode::Quality, &infeasible, None, 0.1), 0.1);
        assert_eq!(reward(RewardMode::Forge, &infeasible, None, 0.1), -2.5);
        let unparsed = Judgement { parsed: false, objective: None, has_answer_marker: true };
        assert_eq!(reward(RewardMode::Quality, &unparsed, None, 0.1), 0.0);
        assert_eq!(reward(RewardMode::Forge, &unparsed, None, 0.1), -0.5);
        // A baseline that is already optimal: only reaching the reference counts.
        let flat = quality(Direction::Minimize, 12, 10, 10, true);
        assert_eq!(flat.gap_closed, 0.0);
    }
}
