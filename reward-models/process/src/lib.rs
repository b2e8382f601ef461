//! `process`: step-level rewards. A response is cut into steps by a declared rule; each step is
//! scored, by an LLM judge reading the whole solution (the judge client of the `rubric` reward
//! model: one call per response, batched, cached) or by a verifier checking the step's
//! intermediate answer against its own reference; each step's score comes back with its
//! character offsets in the response, and the tokens it covers when the trainer sends its
//! tokens' offsets, so that a trainer can place dense rewards on tokens. The item's score
//! aggregates the steps' (`min`, `product`, `mean`, `last`, or `first_error`), as the
//! process-reward literature combines them.

pub mod judge;
mod steps;

use std::collections::{BTreeMap, HashMap};

use futures::future::join_all;
use referee_core::anatomy::Reasoning;
use referee_core::utoipa::{self, ToSchema};
use referee_core::{Budget, Description, RewardModel, Scorer, Status, Verdict, score_by_scorer};
use referee_rubric::{JudgeClient, JudgeError};
use serde::Deserialize;
use serde_json::{Map, Value, json};

pub use steps::{MAX_STEPS, Split, Step, Steps, split, token_range};

/// The scorer id.
pub const PROCESS_ID: &str = "process";
/// Scorers that may not check a step: those that hand parts to other scorers, and this one.
const NOT_A_STEP_CHECK: [&str; 4] = [PROCESS_ID, "composite", "grounding", "rubric"];
/// The longest step text shown in the details, in characters.
const SHOWN_STEP: usize = 200;
/// The longest judge reply kept in the details, in characters.
const SHOWN_REPLY: usize = 2000;

/// One `process` item.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "response": "Step 1: 3 * 4 = 12.\nStep 2: 2 + 12 = 15.\nStep 3: The answer is 15.",
    "check": {"by": "verifier", "verifier": "math", "expected": [{"reference": "12"}, {"reference": "14"}, {"reference": "14"}]},
    "aggregate": "min"
}))]
pub struct ProcessInput {
    /// The model's response.
    pub response: String,
    /// How the response is cut into steps (default `markers`: `Step k:` at a line's start).
    #[serde(default)]
    pub split: Split,
    /// Whether steps are read in the reasoning too (`keep`) or only after the last `</think>`
    /// (`drop`, default).
    #[serde(default)]
    pub reasoning: Reasoning,
    /// How each step is scored.
    pub check: Check,
    /// How the steps' scores combine into the item's (default `min`).
    #[serde(default)]
    pub aggregate: Aggregate,
    /// The trainer's tokens of `response` as `[start, end)` character offsets, in order (as a
    /// tokenizer's offset mapping gives them): each step then says which tokens it covers.
    #[serde(default)]
    pub token_offsets: Option<Vec<[usize; 2]>>,
}

/// How each step is scored.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(tag = "by", rename_all = "snake_case", deny_unknown_fields)]
#[schema(as = ProcessCheck)]
pub enum Check {
    /// The server's LLM judge (`[judge]`) reads the problem, the reference answer if given, and
    /// the numbered steps, and judges each step correct (1) or incorrect (0), in one call.
    Judge {
        /// The problem the response solves.
        problem: String,
        /// The reference answer, shown to the judge.
        #[serde(default)]
        reference: Option<String>,
    },
    /// A scorer checks steps' intermediate answers: step k's text is the `response` of the
    /// scorer's input `expected[k]` (e.g. `{"reference": "12"}` for `math`); a step whose entry
    /// is null or missing is not checked (its score is null, outside the aggregate).
    Verifier {
        /// `math`, `exact-match`, `multiple-choice`, `regex-match`, `np`, `code`, `rlpr`.
        verifier: String,
        /// One input object (without `response`) or null per step, in order.
        #[schema(value_type = Vec<serde_json::Value>)]
        expected: Vec<Option<Map<String, Value>>>,
    },
}

/// How the checked steps' scores combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ProcessAggregate)]
pub enum Aggregate {
    /// The lowest step score: a solution is as good as its worst step (default).
    #[default]
    Min,
    /// The product of the step scores.
    Product,
    /// The mean step score.
    Mean,
    /// The last checked step's score.
    Last,
    /// The share of checked steps before the first incorrect one (score < 0.5): 1 when none is.
    FirstError,
}

impl Aggregate {
    fn as_str(self) -> &'static str {
        match self {
            Aggregate::Min => "min",
            Aggregate::Product => "product",
            Aggregate::Mean => "mean",
            Aggregate::Last => "last",
            Aggregate::FirstError => "first_error",
        }
    }

    /// The aggregate of the checked scores, in step order (not empty).
    pub fn of(self, scores: &[f64]) -> f64 {
        match self {
            Aggregate::Min => scores.iter().copied().fold(f64::INFINITY, f64::min),
            Aggregate::Product => scores.iter().product(),
            Aggregate::Mean => scores.iter().sum::<f64>() / scores.len() as f64,
            Aggregate::Last => scores.last().copied().unwrap_or(0.0),
            Aggregate::FirstError => {
                let before = scores.iter().position(|&s| s < 0.5).unwrap_or(scores.len());
                before as f64 / scores.len() as f64
            }
        }
    }
}

/// The `process` reward model.
#[derive(Debug, Clone)]
pub struct ProcessScorer {
    scorers: HashMap<String, Scorer>,
    judge: JudgeClient,
}

/// (item, step): where a step's verdict goes.
type Place = (usize, usize);

/// An item ready to score: its steps' texts and places.
struct Plan {
    steps: Vec<Placed>,
    truncated: bool,
}

struct Placed {
    text: String,
    chars: (usize, usize),
    tokens: Option<(usize, usize)>,
}

/// What scored an item's steps.
enum Scored {
    /// One score (or none: unchecked) and verdict details per step, and what the judge said.
    Steps(Vec<(Option<f64>, Value)>, Value),
    /// The item could not be scored.
    Failed(Verdict),
}

impl ProcessScorer {
    /// A process reward over these scorers (for `check.by: verifier`) and this judge.
    pub fn new(scorers: &[Scorer], judge: JudgeClient) -> ProcessScorer {
        let scorers = scorers
            .iter()
            .map(|scorer| (scorer.info().description.id.to_owned(), scorer.clone()))
            .filter(|(id, _)| !NOT_A_STEP_CHECK.contains(&id.as_str()))
            .collect();
        ProcessScorer { scorers, judge }
    }

    fn plan(&self, input: &ProcessInput) -> Result<Plan, Verdict> {
        if let Check::Verifier { verifier, expected } = &input.check {
            if !self.scorers.contains_key(verifier) {
                let reason = if NOT_A_STEP_CHECK.contains(&verifier.as_str()) {
                    format!("`{verifier}` cannot check a step")
                } else {
                    format!("unknown verifier `{verifier}` in `check`")
                };
                return Err(Verdict::invalid_input(reason));
            }
            if expected.len() > MAX_STEPS {
                return Err(Verdict::invalid_input(format!("`check.expected` holds at most {MAX_STEPS} entries")));
            }
            if let Some(k) = expected.iter().position(|e| e.as_ref().is_some_and(|e| e.contains_key("response"))) {
                return Err(Verdict::invalid_input(format!(
                    "`check.expected[{k}].response` is not allowed: the step's text goes there"
                )));
            }
        }
        if let Some(tokens) = &input.token_offsets {
            check_tokens(tokens, input.response.chars().count()).map_err(Verdict::invalid_input)?;
        }
        let Steps { steps, truncated } = split(&input.response, input.split, input.reasoning);
        if steps.is_empty() {
            return Err(Verdict::failure(
                Status::Unparseable,
                format!("no steps in the response (split `{}`)", input.split.as_str()),
            )
            .with("split", input.split.as_str()));
        }
        let steps = steps
            .into_iter()
            .map(|step| Placed {
                text: step.text.to_owned(),
                chars: step.chars,
                tokens: input.token_offsets.as_deref().and_then(|tokens| token_range(step.chars, tokens)),
            })
            .collect();
        Ok(Plan { steps, truncated })
    }

    /// Asks the judge about one item's steps.
    async fn judged(&self, problem: &str, reference: Option<&str>, plan: &Plan, budget: Budget) -> Scored {
        let texts: Vec<&str> = plan.steps.iter().map(|step| step.text.as_str()).collect();
        let messages = judge::messages(problem, reference, &texts);
        let reply = match self.judge.ask(&messages, false, budget.deadline).await {
            Ok(reply) => reply,
            Err(error) => {
                let status = match error {
                    JudgeError::Timeout(_) => Status::Timeout,
                    JudgeError::Failed(_) => Status::InternalError,
                };
                return Scored::Failed(Verdict::failure(status, format!("the judge: {error}")));
            }
        };
        let said = json!({"reply": shorten(&reply.content, SHOWN_REPLY), "cached": reply.cached});
        match judge::read_reply(&reply.content, texts.len()) {
            Ok(verdicts) => {
                self.judge.remember(&reply).await;
                let scores = verdicts
                    .into_iter()
                    .map(|correct| {
                        (
                            Some(f64::from(u8::from(correct))),
                            json!({"judged": if correct { "correct" } else { "incorrect" }}),
                        )
                    })
                    .collect();
                Scored::Steps(scores, said)
            }
            Err(reason) => {
                metrics::counter!("referee_judge_unreadable_replies_total").increment(1);
                Scored::Failed(
                    Verdict::internal_error(format!("the judge's reply cannot be read: {reason}")).with("judge", said),
                )
            }
        }
    }
}

/// Token offsets must be in order, each `start <= end`, within the response.
fn check_tokens(tokens: &[[usize; 2]], length: usize) -> Result<(), String> {
    let mut previous = [0, 0];
    for (i, &[start, end]) in tokens.iter().enumerate() {
        if start > end || end > length || start < previous[0] || end < previous[1] {
            return Err(format!(
                "token_offsets[{i}] = [{start}, {end}] is not a span of the response ({length} characters) \
                 after the span before it"
            ));
        }
        previous = [start, end];
    }
    Ok(())
}

fn shorten(text: &str, most: usize) -> String {
    text.chars().take(most).collect()
}

impl RewardModel for ProcessScorer {
    type Input = ProcessInput;

    fn description(&self) -> Description {
        Description {
            id: PROCESS_ID,
            version: "1",
            summary: "Step-level rewards: the response cut into steps (markers, lines, paragraphs), each scored by \
                      the LLM judge or by a verifier on its intermediate answer, returned with character (and \
                      token) offsets; min, product, mean, last or first-error aggregate.",
        }
    }

    async fn score_batch(&self, inputs: Vec<ProcessInput>, budget: Budget) -> Vec<Verdict> {
        let plans: Vec<Result<Plan, Verdict>> = inputs.iter().map(|input| self.plan(input)).collect();
        // Verifier checks: every checked step of every item, by scorer, one call per scorer.
        let mut calls: BTreeMap<&str, Vec<(Place, Value)>> = BTreeMap::new();
        for (i, (input, plan)) in inputs.iter().zip(&plans).enumerate() {
            let (Ok(plan), Check::Verifier { verifier, expected }) = (plan, &input.check) else { continue };
            for (k, step) in plan.steps.iter().enumerate() {
                if let Some(Some(fields)) = expected.get(k) {
                    let mut fields = fields.clone();
                    fields.insert("response".to_owned(), Value::String(step.text.clone()));
                    calls.entry(verifier.as_str()).or_default().push(((i, k), Value::Object(fields)));
                }
            }
        }
        let by_scorer = score_by_scorer(&self.scorers, calls, budget);
        // Judge checks: one call per item, all at once (the judge client bounds its concurrency).
        let judged = inputs.iter().zip(&plans).enumerate().filter_map(|(i, (input, plan))| {
            let (Ok(plan), Check::Judge { problem, reference }) = (plan, &input.check) else { return None };
            Some(async move { (i, self.judged(problem, reference.as_deref(), plan, budget).await) })
        });
        let (mut step_verdicts, judged): (HashMap<Place, Verdict>, _) = futures::join!(by_scorer, join_all(judged));
        let mut judged: HashMap<usize, Scored> = judged.into_iter().collect();
        inputs
            .iter()
            .zip(plans)
            .enumerate()
            .map(|(i, (input, plan))| {
                let plan = match plan {
                    Ok(plan) => plan,
                    Err(verdict) => return verdict,
                };
                let scored = match &input.check {
                    Check::Judge { .. } => judged
                        .remove(&i)
                        .unwrap_or_else(|| Scored::Failed(Verdict::internal_error("the judge's verdict is missing"))),
                    Check::Verifier { verifier, .. } => {
                        from_verifier(verifier, (0..plan.steps.len()).map(|k| step_verdicts.remove(&(i, k))).collect())
                    }
                };
                combine(input, &plan, scored)
            })
            .collect()
    }

    fn result_cacheable(&self, input: &Value) -> bool {
        let check = input.get("check");
        match check.and_then(|c| c.get("by")).and_then(Value::as_str) {
            // The judge's replies have their own cache; a verdict that failed for the judge's
            // sake must not be answered again from the result cache.
            Some("judge") => false,
            Some("verifier") => {
                let scorer =
                    check.and_then(|c| c.get("verifier")).and_then(Value::as_str).and_then(|id| self.scorers.get(id));
                scorer.is_none_or(|scorer| scorer.result_cacheable(&json!({})))
            }
            _ => true,
        }
    }
}

/// The steps' scores from their verdicts (`None`: the step was not checked). A step its scorer
/// could not judge (`invalid_input`, `internal_error`, `timeout`) makes the item so.
fn from_verifier(verifier: &str, verdicts: Vec<Option<Verdict>>) -> Scored {
    let mut scores = Vec::with_capacity(verdicts.len());
    for (k, verdict) in verdicts.into_iter().enumerate() {
        match verdict {
            None => scores.push((None, Value::Null)),
            Some(verdict)
                if matches!(verdict.status, Status::InvalidInput | Status::InternalError | Status::Timeout) =>
            {
                let reason = verdict.details.get("error").and_then(Value::as_str).unwrap_or("no reason given");
                return Scored::Failed(Verdict::failure(
                    verdict.status,
                    format!("step {} (`{verifier}`): {reason}", k + 1),
                ));
            }
            Some(verdict) => {
                let shown = json!({"status": verdict.status, "details": verdict.details});
                scores.push((Some(verdict.score.clamp(0.0, 1.0)), shown));
            }
        }
    }
    Scored::Steps(scores, Value::Null)
}

/// The item's verdict from its steps' scores.
fn combine(input: &ProcessInput, plan: &Plan, scored: Scored) -> Verdict {
    let (scores, said) = match scored {
        Scored::Failed(verdict) => return verdict,
        Scored::Steps(scores, said) => (scores, said),
    };
    let checked: Vec<f64> = scores.iter().filter_map(|(score, _)| *score).collect();
    let first_error =
        scores.iter().filter(|(score, _)| score.is_some()).position(|(score, _)| score.is_some_and(|s| s < 0.5));
    let first_error_step = scores.iter().position(|(score, _)| score.is_some_and(|s| s < 0.5)).map(|k| k + 1);
    let steps: Vec<Value> = plan
        .steps
        .iter()
        .zip(&scores)
        .enumerate()
        .map(|(k, (step, (score, shown)))| {
            let mut entry = json!({
                "step": k + 1,
                "text": shorten(&step.text, SHOWN_STEP),
                "start": step.chars.0,
                "end": step.chars.1,
                "score": score,
            });
            if input.token_offsets.is_some() {
                entry["token_start"] = json!(step.tokens.map(|t| t.0));
                entry["token_end"] = json!(step.tokens.map(|t| t.1));
            }
            if !shown.is_null() {
                entry["verdict"] = shown.clone();
            }
            entry
        })
        .collect();
    let mut verdict = if checked.is_empty() {
        Verdict::failure(Status::Unparseable, "no step was checked: `check.expected` has no entry for any step")
    } else {
        let score = input.aggregate.of(&checked);
        let status = if first_error.is_none() && checked.iter().all(|&s| s >= 1.0) {
            Status::Correct
        } else if score > 0.0 {
            Status::Partial
        } else {
            Status::Incorrect
        };
        Verdict::new(score, status)
    };
    verdict = verdict
        .with("split", input.split.as_str())
        .with("aggregate", input.aggregate.as_str())
        .with("checked", checked.len())
        .with("first_error", first_error_step)
        .with("steps", steps);
    if plan.truncated {
        verdict =
            verdict.with("truncated", format!("the response has more than {MAX_STEPS} steps; the first are scored"));
    }
    if !said.is_null() {
        verdict = verdict.with("judge", said);
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_as_the_literature_combines_step_scores() {
        let scores = [1.0, 1.0, 0.0, 1.0];
        assert_eq!(Aggregate::Min.of(&scores), 0.0);
        assert_eq!(Aggregate::Product.of(&[0.5, 0.5]), 0.25);
        assert_eq!(Aggregate::Mean.of(&scores), 0.75);
        assert_eq!(Aggregate::Last.of(&scores), 1.0);
        assert_eq!(Aggregate::FirstError.of(&scores), 0.5, "two of four steps before the first error");
        assert_eq!(Aggregate::FirstError.of(&[1.0, 1.0]), 1.0);
        assert_eq!(Aggregate::FirstError.of(&[0.0, 1.0]), 0.0);
    }

    #[test]
    fn token_offsets_must_be_spans_in_order() {
        assert!(check_tokens(&[[0, 2], [2, 5], [5, 8]], 8).is_ok());
        assert!(check_tokens(&[[0, 2], [1, 5]], 8).is_ok(), "overlapping byte-level tokens are allowed");
        assert!(check_tokens(&[[2, 1]], 8).is_err());
        assert!(check_tokens(&[[0, 9]], 8).is_err());
        assert!(check_tokens(&[[4, 6], [0, 2]], 8).is_err());
    }
}
