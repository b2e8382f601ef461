//! `grounding`: a long-context answer that cites the context chunks it relied on, rewarded for
//! the answer and for citing the right chunks, as LongRLVR trains (Chen, Shieh and Bing, "LongRLVR:
//! Long-Context Reinforcement Learning Requires Verifiable Context Rewards", ICLR 2026,
//! arXiv:2603.02146).
//!
//! The response's cited chunk ids and its answer are read in a declared [`Format`]; the
//! citations are scored against the gold chunks with an F-score `F_β` (LongRLVR: β = 2, recall
//! four times as important as precision); the answer is checked by a named scorer (`math`,
//! `exact-match`, `rubric` for an LLM judge as LongRLVR uses, ...). The reward is LongRLVR's
//!
//! ```text
//! r = r_ans + c·F_β + j·r_ans·F_β        (c = 0.1, j = 0.9)
//! ```
//!
//! so a wrong answer earns at most `c` for its citations and a right one `1 + (c + j)·F_β`: 1 to
//! 2 with the defaults. `normalize` divides by `1 + c + j` for a reward in [0, 1].

mod cite;

use std::collections::{BTreeMap, HashMap, HashSet};

use rayon::prelude::*;
use referee_core::utoipa::{self, ToSchema};
use referee_core::{Budget, Description, RewardModel, Scorer, Status, Verdict, on_pool, score_by_scorer};
use serde::Deserialize;
use serde_json::{Map, Value, json};

pub use cite::{Citations, Format, MAX_CITATIONS, Reading, Unreadable, read, score_citations};

/// The scorer id.
pub const GROUNDING_ID: &str = "grounding";
/// Scorers that may not check the answer: those that hand parts to other scorers.
const NOT_AN_ANSWER_CHECK: [&str; 2] = [GROUNDING_ID, "composite"];
/// The most gold chunk ids one item may name.
pub const MAX_GOLD: usize = 4096;
/// The longest answer shown in the details, in characters.
const SHOWN_ANSWER: usize = 200;
/// The most cited ids listed in the details.
const SHOWN_IDS: usize = 64;

/// One `grounding` item.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "response": "<useful_chunks>\n<CHUNK_3> <CHUNK_17>\n</useful_chunks>\n<answer>Normandy is in France.</answer>",
    "gold_chunks": [3, 17],
    "context_chunks": 40,
    "answer": {"verifier": "exact-match", "input": {"reference": "Normandy is in France."}}
}))]
pub struct GroundingInput {
    /// The model's response.
    pub response: String,
    /// The ids of the chunks that hold the evidence (1 to 4,096 ids; repeats count once).
    pub gold_chunks: Vec<u64>,
    /// How many chunks the context had (ids 0 to `context_chunks - 1`); cited ids outside are
    /// counted and reported. Optional: without it every id is taken as inside.
    #[serde(default)]
    pub context_chunks: Option<u64>,
    /// The scorer that checks the answer and the rest of its input.
    pub answer: AnswerCheck,
    /// How the response cites chunks and states its answer (default `chunk_tags`, LongRLVR's).
    #[serde(default)]
    pub format: Format,
    /// The F-score's β: recall counts β² times as much as precision (default 2, LongRLVR's).
    #[serde(default = "default_beta")]
    pub beta: f64,
    /// `c`: the weight of the citations' F-score alone (default 0.1).
    #[serde(default = "default_context_weight")]
    pub context_weight: f64,
    /// `j`: the weight of the F-score when the answer is right (default 0.9).
    #[serde(default = "default_joint_weight")]
    pub joint_weight: f64,
    /// Divide the reward by `1 + c + j`, its most, for a reward in [0, 1] (default false: the
    /// reward LongRLVR trains with).
    #[serde(default)]
    pub normalize: bool,
}

fn default_beta() -> f64 {
    2.0
}

fn default_context_weight() -> f64 {
    0.1
}

fn default_joint_weight() -> f64 {
    0.9
}

/// The scorer that checks the answer.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = GroundingAnswer)]
pub struct AnswerCheck {
    /// Any registered scorer but `grounding` and `composite`: `exact-match`, `math`,
    /// `multiple-choice`, `rubric` (an LLM judge, as LongRLVR's answer reward), ...
    pub verifier: String,
    /// That scorer's input without `response`, which is the answer read from the response.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub input: Map<String, Value>,
}

/// The `grounding` reward model over the scorers that may check answers.
#[derive(Debug, Clone)]
pub struct GroundingScorer {
    scorers: HashMap<String, Scorer>,
}

/// One item read: its citations scored, and its answer's input for the answer scorer, or the
/// item's verdict when no answer is to be checked.
struct Plan {
    reading: Reading,
    citations: Citations,
    answer_input: Value,
}

impl GroundingScorer {
    /// A grounding reward over these scorers (by their ids; `grounding` and `composite` are left out).
    pub fn new(scorers: &[Scorer]) -> GroundingScorer {
        let scorers = scorers
            .iter()
            .map(|scorer| (scorer.info().description.id.to_owned(), scorer.clone()))
            .filter(|(id, _)| !NOT_AN_ANSWER_CHECK.contains(&id.as_str()))
            .collect();
        GroundingScorer { scorers }
    }

    fn plan(&self, input: &GroundingInput) -> Result<Plan, Verdict> {
        let check = &input.answer;
        if NOT_AN_ANSWER_CHECK.contains(&check.verifier.as_str()) {
            return Err(invalid(format!("`{}` cannot check the answer", check.verifier)));
        }
        if !self.scorers.contains_key(&check.verifier) {
            return Err(invalid(format!("unknown verifier `{}` in `answer`", check.verifier)));
        }
        if check.input.contains_key("response") {
            return Err(invalid(
                "`answer.input.response` is not allowed: the answer read from the response goes there".to_owned(),
            ));
        }
        if input.gold_chunks.is_empty() || input.gold_chunks.len() > MAX_GOLD {
            return Err(invalid(format!(
                "`gold_chunks` must hold 1 to {MAX_GOLD} ids, not {}",
                input.gold_chunks.len()
            )));
        }
        if let Some(n) = input.context_chunks
            && let Some(id) = input.gold_chunks.iter().find(|&&id| id >= n)
        {
            return Err(invalid(format!("gold chunk {id} is outside the context of {n} chunks (`context_chunks`)")));
        }
        if !(input.beta.is_finite() && input.beta > 0.0) {
            return Err(invalid("`beta` must be a finite number > 0".to_owned()));
        }
        for (name, weight) in [("context_weight", input.context_weight), ("joint_weight", input.joint_weight)] {
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(invalid(format!("`{name}` must be a finite number ≥ 0")));
            }
        }
        let reading = read(&input.response, input.format).map_err(|unreadable| {
            Verdict::failure(Status::Unparseable, unreadable.to_string()).with("format", input.format.as_str())
        })?;
        let gold: HashSet<u64> = input.gold_chunks.iter().copied().collect();
        let mut citations = score_citations(&reading.cited, &gold, input.context_chunks, input.beta);
        if reading.too_many {
            citations.f_beta = 0.0;
        }
        let mut fields = check.input.clone();
        fields.insert("response".to_owned(), Value::String(reading.answer.clone()));
        Ok(Plan { reading, citations, answer_input: Value::Object(fields) })
    }
}

fn invalid(message: String) -> Verdict {
    Verdict::invalid_input(message)
}

impl RewardModel for GroundingScorer {
    type Input = GroundingInput;

    fn description(&self) -> Description {
        Description {
            id: GROUNDING_ID,
            version: "1",
            summary: "A long-context answer citing the context chunks it used (LongRLVR): the cited ids are scored \
                      against the gold chunks with an F-score (β = 2), the answer by a named scorer, combined as \
                      r = r_ans + 0.1·F + 0.9·r_ans·F.",
        }
    }

    /// Reads the items and combines their verdicts on the rayon pool, in parallel; the answers
    /// go to their scorers in one call per scorer.
    async fn score_batch(&self, inputs: Vec<GroundingInput>, budget: Budget) -> Vec<Verdict> {
        let count = inputs.len();
        let failed = || vec![Verdict::internal_error("a grounding thread ended without a verdict"); count];
        let this = self.clone();
        let planned = on_pool(move || {
            let plans: Vec<Result<Plan, Verdict>> = inputs.par_iter().map(|input| this.plan(input)).collect();
            (inputs, plans)
        });
        let Some((inputs, plans)) = planned.await else { return failed() };
        let mut calls: BTreeMap<&str, Vec<(usize, Value)>> = BTreeMap::new();
        for (i, plan) in plans.iter().enumerate() {
            if let Ok(plan) = plan {
                calls.entry(inputs[i].answer.verifier.as_str()).or_default().push((i, plan.answer_input.clone()));
            }
        }
        let mut answers: HashMap<usize, Verdict> = score_by_scorer(&self.scorers, calls, budget).await;
        let answers: Vec<Option<Verdict>> = (0..count).map(|i| answers.remove(&i)).collect();
        let combined = on_pool(move || {
            inputs
                .par_iter()
                .zip(plans)
                .zip(answers)
                .map(|((input, plan), answer)| match plan {
                    Err(verdict) => verdict,
                    Ok(plan) => {
                        let answer =
                            answer.unwrap_or_else(|| Verdict::internal_error("the answer's verdict is missing"));
                        combine(input, &plan, answer)
                    }
                })
                .collect()
        });
        combined.await.unwrap_or_else(failed)
    }

    fn result_cacheable(&self, input: &Value) -> bool {
        let Some(check) = input.get("answer") else { return true };
        let scorer = check.get("verifier").and_then(Value::as_str).and_then(|id| self.scorers.get(id));
        let answer_input = check.get("input").cloned().unwrap_or_else(|| json!({}));
        scorer.is_none_or(|scorer| scorer.result_cacheable(&answer_input))
    }
}

/// The item's verdict from its citations and its answer's verdict. An answer that could not be
/// judged (`invalid_input`, `internal_error`, `timeout`) makes the item so.
fn combine(input: &GroundingInput, plan: &Plan, answer: Verdict) -> Verdict {
    if matches!(answer.status, Status::InvalidInput | Status::InternalError | Status::Timeout) {
        let reason = answer.details.get("error").and_then(Value::as_str).unwrap_or("no reason given");
        return Verdict::failure(answer.status, format!("answer (`{}`): {reason}", input.answer.verifier));
    }
    let r_ans = answer.score.clamp(0.0, 1.0);
    let f = plan.citations.f_beta;
    let (c, j) = (input.context_weight, input.joint_weight);
    let raw = r_ans + c * f + j * r_ans * f;
    let score = if input.normalize { raw / (1.0 + c + j) } else { raw };
    let status = if answer.status == Status::Correct && f == 1.0 {
        Status::Correct
    } else if score > 0.0 {
        Status::Partial
    } else {
        Status::Incorrect
    };
    let citations = &plan.citations;
    let shown: Vec<Value> = plan.reading.cited.iter().take(SHOWN_IDS).map(|id| json!(id)).collect();
    let answer_text: String = plan.reading.answer.chars().take(SHOWN_ANSWER).collect();
    let mut verdict = Verdict::new(score, status)
        .with("format", input.format.as_str())
        .with("answer_reward", r_ans)
        .with("context_reward", f)
        .with("precision", citations.precision)
        .with("recall", citations.recall)
        .with("cited", shown)
        .with("cited_count", citations.cited)
        .with("distinct", citations.distinct)
        .with("duplicates", citations.duplicates)
        .with("outside_context", citations.outside)
        .with("matched", citations.matched)
        .with("gold", input.gold_chunks.iter().collect::<HashSet<_>>().len())
        .with(
            "answer",
            json!({
                "verifier": input.answer.verifier,
                "text": answer_text,
                "score": answer.score,
                "status": answer.status,
                "details": answer.details,
            }),
        );
    if plan.reading.too_many {
        verdict = verdict.with("citations_refused", format!("more than {MAX_CITATIONS} ids cited: no context reward"));
    }
    verdict
}
