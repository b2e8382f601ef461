//! Per-prompt pass rates and the sampling policies built on them. The store keeps, per run,
//! prompt and step, the attempts, successes and summed score; a pass rate is read from those
//! counts under a decay chosen at read time, so one store serves every policy.

use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::http::integers::{integer, optional_integer};

/// One prompt's counts at one step.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptStep {
    pub prompt_id: String,
    pub step: i64,
    pub attempts: u64,
    pub successes: u64,
    pub score_sum: f64,
}

/// How older steps count in a pass rate. `S` is the run's latest step.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PassRateDecay {
    /// Every step counts fully.
    #[default]
    None,
    /// Only the last `steps` steps count: those after `S - steps`.
    Window {
        #[serde(deserialize_with = "integer")]
        #[schema(minimum = 1)]
        steps: u64,
    },
    /// A step `s` counts with weight `0.5^((S - s) / half_life)`.
    Exponential {
        #[schema(exclusive_minimum = 0.0)]
        half_life: f64,
    },
    /// Both: only the last `steps` steps count, each with the exponential weight.
    WindowedExponential {
        #[serde(deserialize_with = "integer")]
        #[schema(minimum = 1)]
        steps: u64,
        #[schema(exclusive_minimum = 0.0)]
        half_life: f64,
    },
}

impl PassRateDecay {
    /// Checks the parameters; the message names the bad one.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            PassRateDecay::None => Ok(()),
            PassRateDecay::Window { steps } if steps == 0 || i64::try_from(steps).is_err() => {
                Err(format!("decay window `steps` must be from 1 to {}", i64::MAX))
            }
            PassRateDecay::Window { .. } => Ok(()),
            PassRateDecay::Exponential { half_life } if !(half_life.is_finite() && half_life > 0.0) => {
                Err(format!("decay `half_life` must be a positive number of steps, got {half_life}"))
            }
            PassRateDecay::Exponential { .. } => Ok(()),
            PassRateDecay::WindowedExponential { steps, half_life } => {
                PassRateDecay::Window { steps }.validate()?;
                PassRateDecay::Exponential { half_life }.validate()
            }
        }
    }

    /// The weight of counts at `step` when the run's latest step is `latest`.
    pub fn weight(&self, step: i64, latest: i64) -> f64 {
        let age = latest.saturating_sub(step).max(0);
        match *self {
            PassRateDecay::None => 1.0,
            PassRateDecay::Window { steps } => {
                if u64::try_from(age).is_ok_and(|age| age < steps) {
                    1.0
                } else {
                    0.0
                }
            }
            PassRateDecay::Exponential { half_life } => 0.5_f64.powf(age as f64 / half_life),
            PassRateDecay::WindowedExponential { steps, half_life } => {
                PassRateDecay::Window { steps }.weight(step, latest)
                    * PassRateDecay::Exponential { half_life }.weight(step, latest)
            }
        }
    }
}

/// A prompt's pass rate as the store and a decay give it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PromptRate {
    pub prompt_id: String,
    /// Every attempt and success recorded, whatever the decay.
    pub attempts: u64,
    pub successes: u64,
    /// Mean score of the attempts.
    pub mean_score: f64,
    /// The last step the prompt was scored at, with its attempts and successes there (its last
    /// group: what DAPO's dynamic sampling looks at).
    pub last_step: i64,
    pub last_attempts: u64,
    pub last_successes: u64,
    /// Attempts and successes weighted by the decay.
    pub weighted_attempts: f64,
    pub weighted_successes: f64,
    /// `weighted_successes / weighted_attempts`; absent when no attempt has weight.
    pub pass_rate: Option<f64>,
}

/// Folds a run's per-step counts into one rate per prompt; `latest` is the run's latest step.
pub fn rates(rows: &[PromptStep], decay: PassRateDecay, latest: i64) -> Vec<PromptRate> {
    let mut by_prompt: HashMap<&str, PromptRate> = HashMap::new();
    for row in rows {
        let rate = by_prompt.entry(row.prompt_id.as_str()).or_insert_with(|| PromptRate {
            prompt_id: row.prompt_id.clone(),
            attempts: 0,
            successes: 0,
            mean_score: 0.0,
            last_step: row.step,
            last_attempts: 0,
            last_successes: 0,
            weighted_attempts: 0.0,
            weighted_successes: 0.0,
            pass_rate: None,
        });
        rate.attempts += row.attempts;
        rate.successes += row.successes;
        rate.mean_score += row.score_sum;
        if row.step > rate.last_step {
            (rate.last_step, rate.last_attempts, rate.last_successes) = (row.step, 0, 0);
        }
        if row.step == rate.last_step {
            rate.last_attempts += row.attempts;
            rate.last_successes += row.successes;
        }
        let weight = decay.weight(row.step, latest);
        rate.weighted_attempts += weight * row.attempts as f64;
        rate.weighted_successes += weight * row.successes as f64;
    }
    let mut rates: Vec<PromptRate> = by_prompt
        .into_values()
        .map(|mut rate| {
            rate.mean_score = if rate.attempts > 0 { rate.mean_score / rate.attempts as f64 } else { 0.0 };
            rate.pass_rate = (rate.weighted_attempts > 0.0).then(|| rate.weighted_successes / rate.weighted_attempts);
            rate
        })
        .collect();
    rates.sort_unstable_by(|a, b| a.prompt_id.cmp(&b.prompt_id));
    rates
}

/// A named sampling policy over candidate prompts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum SamplingPolicy {
    /// DAPO's dynamic sampling (Yu et al., "DAPO: An Open-Source LLM Reinforcement Learning
    /// System at Scale", 2025): a group whose attempts all succeeded or all failed has zero
    /// advantage under group normalisation, so a prompt whose last group was all-1 or all-0 is
    /// dropped. Kept: `0 < last_successes < last_attempts`, and prompts never scored.
    Dapo,
    /// A target pass-rate band (online difficulty filtering, Bae et al., "Online Difficulty
    /// Filtering for Reasoning Oriented Reinforcement Learning", 2025): kept when
    /// `low <= pass_rate <= high` (so nothing scored is kept when `low > high`), and prompts with
    /// fewer than `min_attempts` weighted attempts.
    Band {
        #[schema(minimum = 0.0, maximum = 1.0)]
        low: f64,
        #[schema(minimum = 0.0, maximum = 1.0)]
        high: f64,
        #[serde(default = "one")]
        #[schema(minimum = 0.0)]
        min_attempts: f64,
    },
    /// Difficulty-weighted sampling by learnability (Foster and Foerster, "Learning to Reason
    /// at the Frontier of Learnability", 2025): weight `p (1 - p)` with the smoothed pass rate
    /// `p = (weighted_successes + prior) / (weighted_attempts + 2 prior)`, so an unseen prompt
    /// has `p = 0.5` and the largest weight; weights are normalised to sum to 1. With `count`,
    /// that many prompts (all of them when there are fewer) are drawn without replacement in
    /// proportion to their weights.
    Difficulty {
        #[serde(default = "one")]
        #[schema(exclusive_minimum = 0.0)]
        prior: f64,
        #[serde(default, deserialize_with = "optional_integer")]
        count: Option<usize>,
        /// Seeds the draw; the same seed and counts give the same sample.
        #[serde(default, deserialize_with = "integer")]
        seed: u64,
    },
}

fn one() -> f64 {
    1.0
}

impl SamplingPolicy {
    /// Checks the parameters; the message names the bad one.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            SamplingPolicy::Dapo => Ok(()),
            SamplingPolicy::Band { low, high, min_attempts } => {
                if !(0.0..=1.0).contains(&low) || !(0.0..=1.0).contains(&high) {
                    return Err(format!("band needs low and high from 0 to 1, got low {low} and high {high}"));
                }
                if !(min_attempts.is_finite() && min_attempts >= 0.0) {
                    return Err(format!("band `min_attempts` must be at least 0, got {min_attempts}"));
                }
                Ok(())
            }
            SamplingPolicy::Difficulty { prior, count, seed } => {
                if !(prior.is_finite() && prior > 0.0) {
                    return Err(format!("difficulty `prior` must be positive, got {prior}"));
                }
                if i64::try_from(seed).is_err() || count.is_some_and(|count| i64::try_from(count).is_err()) {
                    return Err(format!("difficulty `seed` and `count` must be at most {}", i64::MAX));
                }
                Ok(())
            }
        }
    }
}

/// The decision on one candidate prompt.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SamplingDecision {
    pub prompt_id: String,
    pub keep: bool,
    /// The prompt's sampling weight: 1 or 0 for the filters, the normalised weight for
    /// `difficulty`.
    pub weight: f64,
    /// The pass rate the decision read; absent for a prompt never scored.
    pub pass_rate: Option<f64>,
    pub attempts: u64,
    /// Why, in words.
    pub reason: String,
}

/// Decides on each candidate (in the order given) and, for a drawing policy, draws a sample.
pub fn decide(
    policy: &SamplingPolicy,
    candidates: &[String],
    rates: &HashMap<&str, &PromptRate>,
) -> (Vec<SamplingDecision>, Option<Vec<String>>) {
    let decision = |prompt: &String, keep: bool, weight: f64, reason: String| {
        let rate = rates.get(prompt.as_str());
        SamplingDecision {
            prompt_id: prompt.clone(),
            keep,
            weight,
            pass_rate: rate.and_then(|r| r.pass_rate),
            attempts: rate.map_or(0, |r| r.attempts),
            reason,
        }
    };
    match *policy {
        SamplingPolicy::Dapo => {
            let decisions = candidates
                .iter()
                .map(|prompt| match rates.get(prompt.as_str()).filter(|r| r.last_attempts > 0) {
                    None => decision(prompt, true, 1.0, "never scored".to_owned()),
                    Some(rate) if rate.last_successes == 0 => decision(
                        prompt,
                        false,
                        0.0,
                        format!("all {} attempts failed at step {}", rate.last_attempts, rate.last_step),
                    ),
                    Some(rate) if rate.last_successes == rate.last_attempts => decision(
                        prompt,
                        false,
                        0.0,
                        format!("all {} attempts succeeded at step {}", rate.last_attempts, rate.last_step),
                    ),
                    Some(rate) => decision(
                        prompt,
                        true,
                        1.0,
                        format!(
                            "{} of {} attempts succeeded at step {}",
                            rate.last_successes, rate.last_attempts, rate.last_step
                        ),
                    ),
                })
                .collect();
            (decisions, None)
        }
        SamplingPolicy::Band { low, high, min_attempts } => {
            let decisions = candidates
                .iter()
                .map(|prompt| {
                    let rate = rates.get(prompt.as_str());
                    match rate.and_then(|r| r.pass_rate.filter(|_| r.weighted_attempts >= min_attempts)) {
                        None => decision(prompt, true, 1.0, format!("fewer than {min_attempts} weighted attempts")),
                        Some(p) if p < low => decision(prompt, false, 0.0, format!("pass rate {p:.4} is below {low}")),
                        Some(p) if p > high => {
                            decision(prompt, false, 0.0, format!("pass rate {p:.4} is above {high}"))
                        }
                        Some(p) => decision(prompt, true, 1.0, format!("pass rate {p:.4} is in [{low}, {high}]")),
                    }
                })
                .collect();
            (decisions, None)
        }
        SamplingPolicy::Difficulty { prior, count, seed } => {
            let raw: Vec<f64> = candidates
                .iter()
                .map(|prompt| {
                    let rate = rates.get(prompt.as_str());
                    let (s, n) = rate.map_or((0.0, 0.0), |r| (r.weighted_successes, r.weighted_attempts));
                    let p = (s + prior) / (n + 2.0 * prior);
                    p * (1.0 - p)
                })
                .collect();
            let total: f64 = raw.iter().sum();
            let weights: Vec<f64> = raw.iter().map(|w| if total > 0.0 { w / total } else { 0.0 }).collect();
            let sample = count.map(|count| draw(candidates, &weights, count, seed));
            let decisions = candidates
                .iter()
                .zip(&weights)
                .zip(&raw)
                .map(|((prompt, &weight), &learnability)| {
                    let keep = sample.as_ref().is_none_or(|s| s.contains(prompt));
                    decision(prompt, keep, weight, format!("learnability p(1-p) = {learnability:.4}"))
                })
                .collect();
            (decisions, sample)
        }
    }
}

/// Draws `count` distinct candidates with probability proportional to their weights
/// (successive draws without replacement; Efraimidis and Spirakis's keys `u^(1/w)`).
fn draw(candidates: &[String], weights: &[f64], count: usize, seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut keyed: Vec<(f64, usize)> = weights
        .iter()
        .enumerate()
        .map(|(index, &weight)| {
            let u: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
            // ln(u) / w: the larger the key, the earlier drawn; a zero weight is drawn last.
            let key = if weight > 0.0 { u.ln() / weight } else { f64::NEG_INFINITY };
            (key, index)
        })
        .collect();
    keyed.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().take(count).map(|(_, index)| candidates[index].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(prompt: &str, step: i64, attempts: u64, successes: u64) -> PromptStep {
        PromptStep { prompt_id: prompt.to_owned(), step, attempts, successes, score_sum: successes as f64 }
    }

    #[test]
    fn decay_weights_older_steps_less() {
        let rows = [step("a", 1, 4, 4), step("a", 9, 4, 0), step("a", 10, 4, 2)];
        let plain = rates(&rows, PassRateDecay::None, 10);
        assert_eq!(plain[0].pass_rate, Some(6.0 / 12.0));
        assert_eq!((plain[0].last_step, plain[0].last_attempts, plain[0].last_successes), (10, 4, 2));
        let window = rates(&rows, PassRateDecay::Window { steps: 2 }, 10);
        assert_eq!(window[0].pass_rate, Some(2.0 / 8.0), "steps 9 and 10 only");
        let halving = rates(&rows, PassRateDecay::Exponential { half_life: 1.0 }, 10);
        // Weights 2^-9, 1/2, 1: (4/512 + 0 + 2) / (4/512 + 2 + 4).
        let expected = (4.0 / 512.0 + 2.0) / (4.0 / 512.0 + 2.0 + 4.0);
        assert!((halving[0].pass_rate.unwrap_or(0.0) - expected).abs() < 1e-12);
        assert!(PassRateDecay::Window { steps: 0 }.validate().is_err());
        assert!(PassRateDecay::Exponential { half_life: -1.0 }.validate().is_err());
    }

    fn decided(
        policy: SamplingPolicy,
        rows: &[PromptStep],
        candidates: &[&str],
    ) -> (Vec<SamplingDecision>, Option<Vec<String>>) {
        let rates = rates(rows, PassRateDecay::None, 10);
        let by_id: HashMap<&str, &PromptRate> = rates.iter().map(|r| (r.prompt_id.as_str(), r)).collect();
        let candidates: Vec<String> = candidates.iter().map(|c| (*c).to_owned()).collect();
        decide(&policy, &candidates, &by_id)
    }

    #[test]
    fn dapo_drops_prompts_whose_last_group_had_no_variance() {
        let rows = [
            step("solved", 3, 8, 8),
            step("hopeless", 3, 8, 0),
            step("mixed", 3, 8, 3),
            step("was", 1, 8, 8),
            step("was", 2, 8, 1),
        ];
        let (decisions, sample) = decided(SamplingPolicy::Dapo, &rows, &["solved", "hopeless", "mixed", "was", "new"]);
        let kept: Vec<bool> = decisions.iter().map(|d| d.keep).collect();
        assert_eq!(kept, [false, false, true, true, true]);
        assert_eq!(sample, None);
    }

    #[test]
    fn a_band_keeps_prompts_inside_it() {
        let rows = [step("easy", 1, 10, 10), step("hard", 1, 10, 1), step("mid", 1, 10, 5)];
        let policy = SamplingPolicy::Band { low: 0.2, high: 0.8, min_attempts: 1.0 };
        let (decisions, _) = decided(policy, &rows, &["easy", "hard", "mid", "new"]);
        assert_eq!(decisions.iter().map(|d| d.keep).collect::<Vec<_>>(), [false, false, true, true]);
        assert!(SamplingPolicy::Band { low: 0.9, high: 1.1, min_attempts: 1.0 }.validate().is_err());
        let empty = SamplingPolicy::Band { low: 0.9, high: 0.1, min_attempts: 1.0 };
        let (decisions, _) = decided(empty, &rows, &["easy", "hard", "mid", "new"]);
        assert_eq!(decisions.iter().map(|d| d.keep).collect::<Vec<_>>(), [false, false, false, true]);
    }

    #[test]
    fn difficulty_weights_by_learnability_and_draws_repeatably() {
        let rows = [step("easy", 1, 8, 8), step("mid", 1, 8, 4)];
        let policy = SamplingPolicy::Difficulty { prior: 1.0, count: Some(2), seed: 3 };
        let (decisions, sample) = decided(policy.clone(), &rows, &["easy", "mid", "new"]);
        // p: easy 9/10, mid 5/10, new 1/2; p(1-p): 0.09, 0.25, 0.25.
        let total = 0.09 + 0.25 + 0.25;
        for (decision, raw) in decisions.iter().zip([0.09, 0.25, 0.25]) {
            assert!((decision.weight - raw / total).abs() < 1e-12, "{decision:?}");
        }
        let sample = sample.unwrap_or_default();
        assert_eq!(sample.len(), 2);
        assert_eq!(decided(policy, &rows, &["easy", "mid", "new"]).1, Some(sample), "seeded");
        assert!(SamplingPolicy::Difficulty { prior: 0.0, count: None, seed: 0 }.validate().is_err());
        let all = SamplingPolicy::Difficulty { prior: 1.0, count: Some(9), seed: 0 };
        assert_eq!(decided(all, &rows, &["easy", "mid", "new"]).1.map(|s| s.len()), Some(3), "at most every candidate");
    }

    #[test]
    fn weighted_draws_follow_the_weights() {
        let candidates: Vec<String> = ["a", "b"].iter().map(|c| (*c).to_owned()).collect();
        let firsts = (0..4000).filter(|&seed| draw(&candidates, &[0.8, 0.2], 1, seed)[0] == "a").count();
        // P(a first) = 0.8: 3200 expected, far outside this band only with negligible chance.
        assert!((3000..3400).contains(&firsts), "{firsts}");
        assert_eq!(draw(&candidates, &[0.0, 1.0], 2, 1), ["b", "a"], "a zero weight is drawn last");
    }
}
