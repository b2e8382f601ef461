//! `composite`: one response that answers several sub-problems, each checked by a named scorer
//! against its own reference, as VAR-MATH (several instantiations of one symbolic problem; a
//! model must solve every instance) and R-Horizon (several composed problems answered in one
//! response) score them.
//!
//! The response is cut into one answer per part by a declared [`Split`] rule; each part's
//! answer becomes the `response` of that part's input to its scorer (`math`, `exact-match`,
//! `code`, ... any registered scorer but `composite` and `rubric`); the parts' scores combine by
//! [`Aggregate`]: `all` (default: 1 only when every part is right), `mean`, or `weighted`. The
//! parts of every item of a batch are scored with one call per scorer.

mod split;

use std::collections::{BTreeMap, HashMap};

use referee_core::utoipa::{self, ToSchema};
use referee_core::{Budget, Description, RewardModel, Scorer, Status, Verdict, score_by_scorer};
use serde::Deserialize;
use serde_json::{Map, Value, json};

pub use split::{Answers, Split, split};

/// The scorer id.
pub const COMPOSITE_ID: &str = "composite";
/// Scorers a part may not name: composites do not nest, and rubric criteria are not parts.
const NOT_A_PART: [&str; 2] = [COMPOSITE_ID, "rubric"];
/// The most parts one item may have.
pub const MAX_PARTS: usize = 64;
/// The longest answer shown in a part's details, in characters.
const SHOWN_ANSWER: usize = 200;

/// One `composite` item: a response answering several sub-problems in order.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "response": "1. 12\n2. 3/4",
    "parts": [
        {"verifier": "math", "input": {"reference": "12"}},
        {"verifier": "math", "input": {"reference": "0.75"}}
    ],
    "split": "numbered"
}))]
pub struct CompositeInput {
    /// The model's response.
    pub response: String,
    /// The sub-problems, in the order their answers appear (1 to 64).
    pub parts: Vec<Part>,
    /// How the response is cut into the parts' answers (default `boxes`).
    #[serde(default)]
    pub split: Split,
    /// How the parts' scores combine (default `all`).
    #[serde(default)]
    pub aggregate: Aggregate,
}

/// One sub-problem: the scorer that checks its answer and the rest of that scorer's input.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CompositePart)]
pub struct Part {
    /// The scorer that checks this part's answer (`math`, `exact-match`, `multiple-choice`,
    /// `regex-match`, `np`, `code`, `rlpr`; not `composite` or `rubric`).
    pub verifier: String,
    /// That scorer's input without `response`, which is this part's answer: e.g.
    /// `{"reference": "3/4"}` for `math`.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub input: Map<String, Value>,
    /// The part's weight under `aggregate: weighted` (a finite number ≥ 0; default 1).
    #[serde(default = "one")]
    pub weight: f64,
}

fn one() -> f64 {
    1.0
}

/// How the parts' scores combine into the item's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CompositeAggregate)]
pub enum Aggregate {
    /// 1 when every part is `correct`, else 0 (VAR-MATH's rule: every instance must be solved).
    #[default]
    All,
    /// The mean of the parts' scores.
    Mean,
    /// `Σ wᵢ·sᵢ / Σ wᵢ` with the parts' weights.
    Weighted,
}

impl Aggregate {
    fn as_str(self) -> &'static str {
        match self {
            Aggregate::All => "all",
            Aggregate::Mean => "mean",
            Aggregate::Weighted => "weighted",
        }
    }
}

/// The `composite` reward model over the scorers it may hand parts to.
#[derive(Debug, Clone)]
pub struct CompositeScorer {
    scorers: HashMap<String, Scorer>,
}

impl CompositeScorer {
    /// A composite over these scorers (by their ids; `composite` and `rubric` are left out).
    pub fn new(scorers: &[Scorer]) -> CompositeScorer {
        let scorers = scorers
            .iter()
            .map(|scorer| (scorer.info().description.id.to_owned(), scorer.clone()))
            .filter(|(id, _)| !NOT_A_PART.contains(&id.as_str()))
            .collect();
        CompositeScorer { scorers }
    }

    /// The item's parts' answers and scorer inputs, or the item's `invalid_input` verdict.
    fn plan(&self, input: &CompositeInput) -> Result<Plan, Verdict> {
        let parts = &input.parts;
        if parts.is_empty() || parts.len() > MAX_PARTS {
            return Err(invalid(format!("`parts` must hold 1 to {MAX_PARTS} parts, not {}", parts.len())));
        }
        for (k, part) in parts.iter().enumerate() {
            let number = k + 1;
            if NOT_A_PART.contains(&part.verifier.as_str()) {
                return Err(invalid(format!("part {number}: `{}` cannot check a part", part.verifier)));
            }
            if !self.scorers.contains_key(&part.verifier) {
                return Err(invalid(format!("part {number}: unknown verifier `{}`", part.verifier)));
            }
            if part.input.contains_key("response") {
                return Err(invalid(format!(
                    "part {number}: `input.response` is not allowed: the part's answer, cut from the response, goes there"
                )));
            }
            if !(part.weight.is_finite() && part.weight >= 0.0) {
                return Err(invalid(format!("part {number}: `weight` must be a finite number ≥ 0")));
            }
        }
        if input.aggregate == Aggregate::Weighted && parts.iter().map(|part| part.weight).sum::<f64>() <= 0.0 {
            return Err(invalid("`aggregate: weighted` needs a positive total weight".to_owned()));
        }
        let answers = split(&input.response, input.split, parts.len());
        let inputs = parts
            .iter()
            .zip(&answers.slots)
            .map(|(part, answer)| {
                answer.as_ref().map(|answer| {
                    let mut fields = part.input.clone();
                    fields.insert("response".to_owned(), Value::String(answer.clone()));
                    Value::Object(fields)
                })
            })
            .collect();
        Ok(Plan { answers, inputs })
    }
}

/// (item, part): where a part's verdict goes.
type Place = (usize, usize);

/// One item's answers, and for each part the input its scorer gets (`None`: no answer found).
struct Plan {
    answers: Answers,
    inputs: Vec<Option<Value>>,
}

fn invalid(message: String) -> Verdict {
    Verdict::invalid_input(message)
}

impl RewardModel for CompositeScorer {
    type Input = CompositeInput;

    fn description(&self) -> Description {
        Description {
            id: COMPOSITE_ID,
            version: "1",
            summary: "Several sub-problems answered in one response (VAR-MATH, R-Horizon): the response is cut \
                      into one answer per part (boxes, numbered lines, answer tags, a JSON array or lines), each \
                      checked by its named scorer against its own reference; `all` (default) scores 1 only when \
                      every part is correct, `mean` and `weighted` average the parts' scores.",
        }
    }

    async fn score_batch(&self, inputs: Vec<CompositeInput>, budget: Budget) -> Vec<Verdict> {
        let plans: Vec<Result<Plan, Verdict>> = inputs.iter().map(|input| self.plan(input)).collect();
        // Every answered part of every item, by scorer: one call per scorer.
        let mut calls: BTreeMap<&str, Vec<(Place, Value)>> = BTreeMap::new();
        for (i, plan) in plans.iter().enumerate() {
            let Ok(plan) = plan else { continue };
            for (k, part_input) in plan.inputs.iter().enumerate() {
                if let Some(value) = part_input {
                    calls.entry(inputs[i].parts[k].verifier.as_str()).or_default().push(((i, k), value.clone()));
                }
            }
        }
        let mut part_verdicts: HashMap<Place, Verdict> = score_by_scorer(&self.scorers, calls, budget).await;
        inputs
            .iter()
            .zip(plans)
            .enumerate()
            .map(|(i, (input, plan))| match plan {
                Err(verdict) => verdict,
                Ok(plan) => {
                    let parts = (0..input.parts.len())
                        .map(|k| {
                            part_verdicts.remove(&(i, k)).unwrap_or_else(|| {
                                Verdict::failure(
                                    Status::Unparseable,
                                    format!("no answer {} in the response (split `{}`)", k + 1, input.split.as_str()),
                                )
                            })
                        })
                        .collect();
                    combine(input, &plan.answers, parts)
                }
            })
            .collect()
    }

    fn result_cacheable(&self, input: &Value) -> bool {
        let Some(parts) = input.get("parts").and_then(Value::as_array) else { return true };
        parts.iter().all(|part| {
            let scorer = part.get("verifier").and_then(Value::as_str).and_then(|id| self.scorers.get(id));
            let part_input = part.get("input").cloned().unwrap_or_else(|| json!({}));
            scorer.is_none_or(|scorer| scorer.result_cacheable(&part_input))
        })
    }
}

/// The item's verdict from its parts' verdicts: a part that could not be judged
/// (`invalid_input`, `internal_error`, `timeout`) makes the item so, naming the part;
/// otherwise the aggregate of the scores.
fn combine(input: &CompositeInput, answers: &Answers, parts: Vec<Verdict>) -> Verdict {
    for (k, verdict) in parts.iter().enumerate() {
        if matches!(verdict.status, Status::InvalidInput | Status::InternalError | Status::Timeout) {
            let reason = verdict.details.get("error").and_then(Value::as_str).unwrap_or("no reason given");
            let verifier = &input.parts[k].verifier;
            return Verdict::failure(verdict.status, format!("part {} (`{verifier}`): {reason}", k + 1));
        }
    }
    let scores: Vec<f64> = parts.iter().map(|verdict| verdict.score.clamp(0.0, 1.0)).collect();
    let all_correct = parts.iter().all(|verdict| verdict.status == Status::Correct);
    let score = match input.aggregate {
        Aggregate::All => f64::from(u8::from(all_correct)),
        Aggregate::Mean => scores.iter().sum::<f64>() / scores.len() as f64,
        Aggregate::Weighted => {
            let total: f64 = input.parts.iter().map(|part| part.weight).sum();
            input.parts.iter().zip(&scores).map(|(part, score)| part.weight * score).sum::<f64>() / total
        }
    };
    let status = if all_correct {
        Status::Correct
    } else if parts.iter().all(|verdict| verdict.status == Status::Unparseable) {
        Status::Unparseable
    } else if score > 0.0 {
        Status::Partial
    } else {
        Status::Incorrect
    };
    let shown = parts
        .into_iter()
        .enumerate()
        .map(|(k, verdict)| {
            let answer =
                answers.slots[k].as_deref().map(|answer| answer.chars().take(SHOWN_ANSWER).collect::<String>());
            json!({
                "verifier": input.parts[k].verifier,
                "answer": answer,
                "score": verdict.score,
                "status": verdict.status,
                "details": verdict.details,
            })
        })
        .collect::<Vec<_>>();
    Verdict::new(score, status)
        .with("split", input.split.as_str())
        .with("aggregate", input.aggregate.as_str())
        .with("found", answers.found)
        .with("parts", shown)
}
