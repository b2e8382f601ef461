//! The final reward of one rollout from its two scores (`ProbRewardManager.__call__`).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::format::{FormatMode, format_ok};
use referee_kernels::ScoreKind;

/// How scores become a reward. The defaults are the reference RLPR scripts'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RewardOptions {
    /// The reduction of the reference tokens' log-probs to a score.
    pub score: ScoreKind,
    /// The response structure, for the substitution and the format term.
    pub format_mode: FormatMode,
    /// Subtract the no-reasoning score and clip at 0: `max(0, scoreB − scoreA)`.
    pub debias: bool,
    /// The weight `c` of the format term: `(1 − c)·delta + c·format`. The value −1 means
    /// `delta` when the format holds and −1 when it does not.
    pub format_coefficient: f64,
    /// Round scoreB to bfloat16 before use, as the reference implementation does.
    pub round_bf16: bool,
    /// Add −1 when some 10-word window repeats 10 times or more.
    pub repetition_penalty: bool,
    /// Apply the repetition penalty to a reward of exactly 0 too. Off by default: the
    /// reference adds it to the reward tensor's non-zero entries only, so a zero reward stays 0.
    pub repetition_on_zero: bool,
    /// Score a response whose answer is blank (`<answer></answer>`, or nothing after
    /// `<answer>`) like any other: the reference substitutes the reference answer all the same,
    /// since the end-of-sequence text it appends makes the answer section never blank. False:
    /// such a response is `unparseable` and scores what the format and repetition terms leave.
    pub score_blank_answers: bool,
    /// Which checkpoint's baseline a model-mode item is debiased with: `first` (the one in use
    /// when the server first scored this prompt and reference, kept across reloads, as the
    /// reference computes it once with the initial policy) or `current` (rescored after every
    /// reload).
    pub baseline_checkpoint: BaselineCheckpoint,
}

/// Which checkpoint scores the no-reasoning baseline in model mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BaselineCheckpoint {
    /// The checkpoint in use when the baseline was first scored, kept across reloads.
    #[default]
    First,
    /// The checkpoint in use now.
    Current,
}

impl Default for RewardOptions {
    fn default() -> RewardOptions {
        RewardOptions {
            score: ScoreKind::MeanProb,
            format_mode: FormatMode::R1,
            debias: true,
            format_coefficient: 0.1,
            round_bf16: true,
            repetition_penalty: true,
            repetition_on_zero: false,
            score_blank_answers: true,
            baseline_checkpoint: BaselineCheckpoint::First,
        }
    }
}

/// A reward with the terms it was made of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RewardParts {
    /// The score with reasoning, after rounding.
    pub score_b: f64,
    /// The no-reasoning score subtracted, when debiasing.
    pub score_a: Option<f64>,
    /// `max(0, scoreB − scoreA)`, or scoreB without debiasing.
    pub delta: f64,
    /// Whether the response has the structure the format term asks for.
    pub format: bool,
    /// Whether the repetition penalty applied (degenerate repetition, and a non-zero reward
    /// unless `repetition_on_zero`).
    pub repetition: bool,
    /// The reward.
    pub reward: f64,
}

impl RewardOptions {
    /// Why these options cannot be used, if they cannot.
    pub fn validate(&self) -> Result<(), String> {
        let c = self.format_coefficient;
        if c != -1.0 && !(0.0..=1.0).contains(&c) {
            return Err(format!("format_coefficient must be in [0, 1] or −1, got {c}"));
        }
        Ok(())
    }

    /// The reward of a response whose reference answer scored `score_b` after its reasoning and
    /// `score_a` without it.
    pub fn reward(&self, response: &str, score_b: f64, score_a: Option<f64>) -> RewardParts {
        let score_b = if self.round_bf16 { bf16_round(score_b) } else { score_b };
        let score_a = score_a.filter(|_| self.debias);
        let delta = match score_a {
            Some(a) => (score_b - a).max(0.0),
            None => score_b,
        };
        let format = format_ok(response, self.format_mode);
        let c = self.format_coefficient;
        let mut reward = if c == -1.0 {
            if format { delta } else { -1.0 }
        } else {
            (1.0 - c) * delta + c * f64::from(u8::from(format))
        };
        let repetition =
            self.repetition_penalty && (reward != 0.0 || self.repetition_on_zero) && repetition_detected(response);
        if repetition {
            reward -= 1.0;
        }
        RewardParts { score_b, score_a, delta, format, repetition, reward }
    }
}

/// `x` rounded to the nearest bfloat16 (ties to even), as `float(torch.tensor(x).bfloat16())`.
pub fn bf16_round(x: f64) -> f64 {
    let single = x as f32;
    if !single.is_finite() {
        return f64::from(single);
    }
    let bits = single.to_bits();
    let rounded = bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) & 0xffff_0000;
    f64::from(f32::from_bits(rounded))
}

/// Words per window and repeats that count as degenerate repetition.
const WINDOW: usize = 10;
const REPEATS: usize = 10;

/// Python's `str.isspace`: Rust's whitespace and the four separator controls (U+001C–U+001F)
/// that Python also splits on.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Whether some window of 10 consecutive words occurs 10 times or more
/// (`detect_repetition_with_hash`). Words as the reference makes them: the text split on runs of
/// whitespace, then each piece split on every `_`, keeping the empty words `__` makes.
pub fn repetition_detected(text: &str) -> bool {
    let words: Vec<&str> = text.split(python_space).filter(|w| !w.is_empty()).flat_map(|w| w.split('_')).collect();
    if words.len() <= WINDOW {
        return false;
    }
    let mut seen: HashMap<&[&str], usize> = HashMap::new();
    for window in words.windows(WINDOW) {
        let count = seen.entry(window).or_default();
        *count += 1;
        if *count >= REPEATS {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "<think>r</think><answer>4</answer>";

    #[test]
    fn the_reward_is_the_debiased_score_mixed_with_the_format() {
        let options = RewardOptions { round_bf16: false, ..RewardOptions::default() };
        let parts = options.reward(GOOD, 0.8, Some(0.3));
        assert!((parts.delta - 0.5).abs() < 1e-12);
        assert!((parts.reward - (0.9 * 0.5 + 0.1)).abs() < 1e-12);
        // A baseline above the score clips the delta at 0; a broken format loses its term.
        let parts = options.reward("no tags", 0.2, Some(0.3));
        assert_eq!((parts.delta, parts.format, parts.reward), (0.0, false, 0.0));
        let strict = RewardOptions { format_coefficient: -1.0, ..options.clone() };
        assert_eq!(strict.reward("no tags", 0.9, None).reward, -1.0);
        assert!((strict.reward(GOOD, 0.9, None).reward - 0.9).abs() < 1e-12);
        let plain = RewardOptions { debias: false, ..options };
        assert_eq!(plain.reward(GOOD, 0.8, Some(0.3)).delta, 0.8);
    }

    #[test]
    fn score_b_is_rounded_to_bfloat16() {
        // bf16 keeps 8 significant bits: 0.8 → 0.80078125, 1/3 → 0.333984375.
        assert_eq!(bf16_round(0.8), 0.80078125);
        assert_eq!(bf16_round(1.0 / 3.0), 0.333984375);
        assert_eq!(bf16_round(1.0), 1.0);
        assert_eq!(bf16_round(0.0), 0.0);
        assert!(bf16_round(f64::NAN).is_nan());
        let parts = RewardOptions::default().reward(GOOD, 0.8, Some(0.5));
        assert_eq!(parts.score_b, 0.80078125);
    }

    #[test]
    fn degenerate_repetition_costs_one() {
        let loop_text = "the same ten words again and again and again here ".repeat(12);
        assert!(repetition_detected(&loop_text));
        assert!(!repetition_detected(&"the same ten words again and again and again here ".repeat(9)));
        assert!(!repetition_detected("short text"));
        let text = format!("<think>{loop_text}</think><answer>4</answer>");
        let parts = RewardOptions { round_bf16: false, ..RewardOptions::default() }.reward(&text, 0.5, None);
        assert!(parts.repetition);
        assert!((parts.reward - (0.9 * 0.5 + 0.1 - 1.0)).abs() < 1e-12);
    }

    #[test]
    fn the_repetition_penalty_spares_a_zero_reward_as_the_reference_does() {
        let loop_text = "the same ten words again and again and again here ".repeat(12);
        // Unstructured and without debiasing headroom: the reward before the penalty is 0.
        let options = RewardOptions { round_bf16: false, ..RewardOptions::default() };
        let parts = options.reward(&loop_text, 0.0, Some(0.3));
        assert_eq!((parts.reward, parts.repetition), (0.0, false));
        let always = RewardOptions { repetition_on_zero: true, ..options };
        let parts = always.reward(&loop_text, 0.0, Some(0.3));
        assert_eq!((parts.reward, parts.repetition), (-1.0, true));
    }

    #[test]
    fn words_are_split_as_python_splits_them() {
        // 18 underscores are 19 empty words in the reference: ten windows of ten, all alike.
        assert!(repetition_detected(&"_".repeat(18)));
        assert!(!repetition_detected(&"_".repeat(17)), "18 words make only nine windows");
        // Python splits on U+001F too: 19 words "p".
        assert!(repetition_detected(&"p\u{1f}".repeat(19)));
    }

    #[test]
    fn options_are_checked() {
        assert!(RewardOptions::default().validate().is_ok());
        assert!(RewardOptions { format_coefficient: 1.5, ..RewardOptions::default() }.validate().is_err());
        let parsed: Result<RewardOptions, _> = serde_json::from_str(r#"{"score": "geo_mean", "debias": false}"#);
        assert!(parsed.is_ok_and(|o| o.score == ScoreKind::GeoMean && !o.debias && o.round_bf16));
    }
}
