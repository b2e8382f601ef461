//! The `rlpr` verifier for trainers that run their own forward pass: the item carries the
//! policy's log-probs of the reference-answer tokens, and the reward is computed here with the
//! same formulas as every other mode.

use referee_core::{Budget, Description, Status, Verdict, Verifier, verify_each};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::format::substitute;
use crate::reward::RewardOptions;

/// An RLPR item scored from log-probs the trainer computed.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RlprInput {
    /// The generated response, without padding.
    pub response: String,
    /// The policy's log-probs (natural log, temperature 1) of the reference-answer tokens of
    /// the substituted sequence, in order: the tokens its scoring mask selects. Empty when the
    /// response has no answer structure.
    pub logprobs: Vec<f64>,
    /// The log-probs of the reference-answer tokens of the no-reasoning baseline (prompt, then
    /// the reference alone), when debiasing from them.
    #[serde(default)]
    pub baseline_logprobs: Option<Vec<f64>>,
    /// The baseline score itself, when the trainer keeps it (RLPR computes it once, with the
    /// initial policy); instead of `baseline_logprobs`.
    #[serde(default)]
    pub score_a: Option<f64>,
    /// The score reduction, format mode, debiasing, format weight, rounding and repetition
    /// penalty.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: RewardOptions,
}

/// The `rlpr` verifier.
#[derive(Debug, Clone, Copy, Default)]
pub struct RlprVerifier;

/// Log-probs above 0 by more than this are not log-probs.
const LOGPROB_SLACK: f64 = 1e-6;

fn check_logprobs(name: &str, values: &[f64]) -> Result<(), String> {
    match values.iter().position(|x| !x.is_finite() || *x > LOGPROB_SLACK) {
        Some(at) => Err(format!("`{name}[{at}]` = {} is not a log-probability (finite and ≤ 0)", values[at])),
        None => Ok(()),
    }
}

fn score(options: &RewardOptions, logprobs: &[f64]) -> f64 {
    options.score.of(logprobs.iter().copied())
}

fn judge(input: &RlprInput) -> Verdict {
    let options = &input.options;
    if let Err(reason) = options.validate() {
        return Verdict::invalid_input(format!("options: {reason}"));
    }
    if let Err(reason) = check_logprobs("logprobs", &input.logprobs) {
        return Verdict::invalid_input(reason);
    }
    let score_a = match (&input.baseline_logprobs, input.score_a) {
        (Some(_), Some(_)) => return Verdict::invalid_input("give `baseline_logprobs` or `score_a`, not both"),
        (Some(baseline), None) => match check_logprobs("baseline_logprobs", baseline) {
            Ok(()) => Some(score(options, baseline)),
            Err(reason) => return Verdict::invalid_input(reason),
        },
        (None, Some(a)) if !a.is_finite() => return Verdict::invalid_input("`score_a` must be a finite number"),
        (None, a) => a,
    };
    if options.debias && score_a.is_none() {
        return Verdict::invalid_input(
            "debiasing needs `baseline_logprobs` or `score_a`; set `options.debias` to false to score without",
        );
    }
    let structured = substitute(&input.response, "", "", options.format_mode).is_some();
    if !structured && !input.logprobs.is_empty() {
        return Verdict::invalid_input(
            "the response has no answer structure, so no token is scored, yet `logprobs` is not empty",
        );
    }
    let parts = options.reward(&input.response, score(options, &input.logprobs), score_a);
    let status = if structured { Status::Partial } else { Status::Unparseable };
    let verdict = Verdict::new(parts.reward, status).with("rlpr", &parts).with("tokens", input.logprobs.len());
    if structured {
        verdict
    } else {
        verdict.with("error", "no answer structure for the format mode: nothing was scored")
    }
}

impl Verifier for RlprVerifier {
    type Input = RlprInput;

    fn description(&self) -> Description {
        Description {
            id: "rlpr",
            version: "1",
            summary: "RLPR probability reward from trainer-supplied log-probs of the reference-answer tokens: \
                      mean token probability (or mean log-prob, geometric mean, product), debiased against the \
                      no-reasoning baseline, mixed with the format term, with the repetition penalty.",
        }
    }

    fn verify_batch(&self, inputs: &[RlprInput], budget: &Budget) -> Vec<Verdict> {
        verify_each(inputs, budget, |input, _| judge(input))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(value: serde_json::Value) -> Result<RlprInput, serde_json::Error> {
        serde_json::from_value(value)
    }

    #[test]
    fn the_reward_comes_from_the_supplied_log_probs() -> Result<(), serde_json::Error> {
        let item = input(serde_json::json!({
            "response": "<think>r</think><answer>4</answer>",
            "logprobs": [-0.1, -0.2],
            "baseline_logprobs": [-1.0, -2.0],
            "options": {"round_bf16": false}
        }))?;
        let verdict = judge(&item);
        let b = ((-0.1f64).exp() + (-0.2f64).exp()) / 2.0;
        let a = ((-1.0f64).exp() + (-2.0f64).exp()) / 2.0;
        assert_eq!(verdict.status, Status::Partial);
        assert!((verdict.score - (0.9 * (b - a) + 0.1)).abs() < 1e-12, "{verdict:?}");
        assert_eq!(verdict.details["tokens"], 2);
        Ok(())
    }

    #[test]
    fn unstructured_responses_score_nothing() -> Result<(), serde_json::Error> {
        let item = input(serde_json::json!({"response": "4", "logprobs": [], "score_a": 0.2}))?;
        let verdict = judge(&item);
        assert_eq!((verdict.status, verdict.score), (Status::Unparseable, 0.0));
        let item = input(serde_json::json!({"response": "4", "logprobs": [-0.1], "score_a": 0.2}))?;
        assert_eq!(judge(&item).status, Status::InvalidInput);
        Ok(())
    }

    #[test]
    fn bad_items_are_invalid_input() -> Result<(), serde_json::Error> {
        let good = "<think>r</think><answer>4</answer>";
        for value in [
            serde_json::json!({"response": good, "logprobs": [0.5], "score_a": 0.1}),
            serde_json::json!({"response": good, "logprobs": [-0.5]}),
            serde_json::json!({"response": good, "logprobs": [-0.5], "score_a": 0.1, "baseline_logprobs": [-1.0]}),
            serde_json::json!({"response": good, "logprobs": [-0.5], "baseline_logprobs": [1.0]}),
            serde_json::json!({"response": good, "logprobs": [-0.5], "score_a": 0.1, "options": {"format_coefficient": 2.0}}),
        ] {
            let verdict = judge(&input(value.clone())?);
            assert_eq!(verdict.status, Status::InvalidInput, "{value}");
            assert!(verdict.details["error"].as_str().is_some_and(|e| !e.is_empty()));
        }
        Ok(())
    }
}
