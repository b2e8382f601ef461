//! Scoring a batch: rubrics resolved and compiled once per batch, rule criteria on the rayon
//! pool, each verifier criterion's items as one batch of that verifier, all judge calls of the
//! batch at once under the client's concurrency limit, then aggregation and vetoes.

use std::collections::HashMap;
use std::sync::Arc;

use futures::future::join_all;
use rayon::prelude::*;
use referee_core::{Budget, Description, RewardModel, Status, Verdict};
use referee_model_client::truncate;
use serde_json::{Map, Value, json};

use crate::compile::{CompileError, CompiledRubric, Method, RUBRIC_ID, compile};
use crate::judge::{Asked, ChatMessage, JudgeClient, JudgeError, Subject, parse_principle_reply, parse_rubric_reply};
use crate::model::{Aggregation, Criterion, CriterionKind, PrincipleScore};
use crate::{Backing, RubricInput, VerifierSet};

/// How much of a judge reply the details keep.
const REPLY_CHARS: usize = 2000;

/// The rubric reward model, registered as `rubric`.
#[derive(Debug, Clone)]
pub struct RubricScorer {
    verifiers: VerifierSet,
    judge: JudgeClient,
    backing: Backing,
}

impl RubricScorer {
    /// A scorer whose verifier criteria call `verifiers`, whose judge criteria ask `judge`, and
    /// whose stored rubrics come from `backing` once it is connected.
    pub fn new(verifiers: VerifierSet, judge: JudgeClient, backing: Backing) -> RubricScorer {
        RubricScorer { verifiers, judge, backing }
    }

    /// Checks and compiles a rubric against this scorer's verifiers.
    pub fn compile(
        &self,
        definition: &crate::RubricDefinition,
        stored: Option<(String, u32)>,
    ) -> Result<CompiledRubric, CompileError> {
        compile(definition, stored, &|id| self.verifiers.knows(id))
    }

    /// The rubric of each input, compiled once per distinct rubric of the batch.
    async fn resolve(&self, inputs: &[RubricInput]) -> Vec<Result<Arc<CompiledRubric>, Verdict>> {
        let mut memo: HashMap<String, Result<Arc<CompiledRubric>, Verdict>> = HashMap::new();
        let mut out = Vec::with_capacity(inputs.len());
        for input in inputs {
            let key = match (&input.rubric, &input.rubric_id) {
                (Some(definition), None) if input.rubric_version.is_none() => {
                    format!("inline:{}", serde_json::to_string(definition).unwrap_or_default())
                }
                (None, Some(id)) => format!("stored:{id}@{:?}", input.rubric_version),
                _ => {
                    out.push(Err(Verdict::invalid_input(
                        "give exactly one of `rubric` (inline) and `rubric_id` (stored, with an optional `rubric_version`)",
                    )));
                    continue;
                }
            };
            if let Some(done) = memo.get(&key) {
                out.push(done.clone());
                continue;
            }
            let resolved = match (&input.rubric, &input.rubric_id) {
                (Some(definition), _) => self
                    .compile(definition, None)
                    .map(Arc::new)
                    .map_err(|e| Verdict::invalid_input(format!("invalid rubric: {e}"))),
                (None, Some(id)) => self.load(id, input.rubric_version).await,
                (None, None) => Err(Verdict::invalid_input("no rubric")),
            };
            memo.insert(key, resolved.clone());
            out.push(resolved);
        }
        out
    }

    async fn load(&self, id: &str, version: Option<u32>) -> Result<Arc<CompiledRubric>, Verdict> {
        let store = self
            .backing
            .rubrics()
            .ok_or_else(|| Verdict::internal_error("stored rubrics are not available until the database is open"))?;
        let shown = match version {
            Some(v) => format!("`{id}` version {v}"),
            None => format!("`{id}`"),
        };
        match store.load(id, version).await {
            Ok(Some((version, definition))) => self
                .compile(&definition, Some((id.to_owned(), version)))
                .map(Arc::new)
                .map_err(|e| Verdict::invalid_input(format!("stored rubric {shown} no longer compiles: {e}"))),
            Ok(None) => Err(Verdict::invalid_input(format!("no stored rubric {shown}; GET /v1/rubrics lists them"))),
            Err(error) => Err(Verdict::internal_error(format!("cannot read stored rubric {shown}: {error}"))),
        }
    }
}

/// One item on its way through the phases.
#[derive(Debug, Default)]
struct Item {
    scores: Vec<Option<f64>>,
    raw: Vec<Option<Value>>,
    judge_calls: Vec<Value>,
    failure: Option<Verdict>,
    /// A rule criterion marked `veto` failed: the verdict is the veto floor whatever the other
    /// criteria say, so verifier criteria and judge calls are not made.
    decided: bool,
}

impl Item {
    fn fail(&mut self, verdict: Verdict) {
        if self.failure.is_none() {
            self.failure = Some(verdict);
        }
    }

    /// True when nothing more needs to be computed for the item.
    fn settled(&self) -> bool {
        self.failure.is_some() || self.decided
    }
}

/// True when `score` passes `criterion`. A principle scored as a logit passes when its
/// P(Yes), the logistic of the logit, reaches the threshold, so `pass_threshold` means the same
/// for both forms.
fn passes(criterion: &Criterion, score: f64) -> bool {
    if matches!(criterion.kind, CriterionKind::Principle { score: PrincipleScore::Logit }) {
        1.0 / (1.0 + (-score).exp()) >= criterion.pass_threshold
    } else {
        score >= criterion.pass_threshold
    }
}

/// One call to the judge: the item, the criteria it answers, and the messages.
struct Call {
    item: usize,
    criteria: Vec<usize>,
    principle: bool,
    messages: Vec<ChatMessage>,
}

impl RewardModel for RubricScorer {
    type Input = RubricInput;

    fn description(&self) -> Description {
        Description {
            id: RUBRIC_ID,
            version: "1",
            summary: "Scores a response against a rubric: weighted rule criteria (patterns, keywords, length, JSON \
                      and JSON Schema, language, sections, formats, BLEU/ROUGE-L/fuzzy similarity), registered \
                      verifiers as criteria, and LLM-judge criteria (score, label, ordered choices, RLBFF binary \
                      principles scored P(yes)); weighted mean or formula aggregation, with vetoes.",
        }
    }

    /// An item naming a stored rubric without a version is scored by whatever version is latest,
    /// so its verdict must not be reused after the rubric changes.
    fn result_cacheable(&self, input: &Value) -> bool {
        let names_stored = input.get("rubric_id").is_some_and(|id| !id.is_null());
        let pinned = input.get("rubric_version").is_some_and(|v| !v.is_null());
        !names_stored || pinned
    }

    async fn score_batch(&self, inputs: Vec<RubricInput>, budget: Budget) -> Vec<Verdict> {
        let rubrics = self.resolve(&inputs).await;
        let inputs = Arc::new(inputs);
        let rubrics = Arc::new(rubrics);

        // Rules: CPU work, off the async workers.
        let rule_phase = {
            let (inputs, rubrics) = (Arc::clone(&inputs), Arc::clone(&rubrics));
            tokio::task::spawn_blocking(move || {
                (0..inputs.len()).into_par_iter().map(|i| score_rules(&inputs[i], &rubrics[i])).collect()
            })
        };
        let mut items: Vec<Item> = match rule_phase.await {
            Ok(items) => items,
            Err(_) => {
                return vec![Verdict::internal_error("the rule criteria's worker ended unexpectedly"); inputs.len()];
            }
        };

        // Verifier criteria and judge calls run at the same time.
        let calls = self.plan_judge_calls(&inputs, &rubrics, &items);
        let judged = join_all(calls.iter().map(|call| self.ask(call, &rubrics, budget)));
        let ((), answers) = futures::join!(self.score_verifiers(&inputs, &rubrics, &mut items, budget), judged);
        for (call, answer) in calls.iter().zip(answers) {
            let item = &mut items[call.item];
            match answer {
                Ok((scores, detail)) => {
                    for (criterion, (score, raw)) in call.criteria.iter().zip(scores) {
                        item.scores[*criterion] = Some(score);
                        item.raw[*criterion] = Some(raw);
                    }
                    item.judge_calls.push(detail);
                }
                Err((verdict, detail)) => {
                    item.judge_calls.push(detail);
                    item.fail(verdict);
                }
            }
        }

        items
            .into_iter()
            .zip(rubrics.iter())
            .map(|(item, rubric)| match rubric {
                Ok(rubric) => finish(item, rubric),
                Err(verdict) => verdict.clone(),
            })
            .collect()
    }
}

fn score_rules(input: &RubricInput, rubric: &Result<Arc<CompiledRubric>, Verdict>) -> Item {
    let Ok(rubric) = rubric else { return Item::default() };
    let count = rubric.methods.len();
    let mut item = Item { scores: vec![None; count], raw: vec![None; count], ..Item::default() };
    for (i, method) in rubric.methods.iter().enumerate() {
        if let Method::Rule(rule) = method {
            let criterion = &rubric.definition.criteria[i];
            match rule.score(&input.response, input.reference.as_deref()) {
                Ok(score) => {
                    item.scores[i] = Some(score);
                    if criterion.veto && !passes(criterion, score) {
                        item.decided = true;
                    }
                }
                Err((status, reason)) => {
                    let name = &criterion.name;
                    item.fail(Verdict::failure(status, format!("criterion `{name}`: {reason}")));
                }
            }
        }
    }
    item
}

impl RubricScorer {
    /// Runs every verifier criterion: one batch per verifier across all items.
    async fn score_verifiers(
        &self,
        inputs: &[RubricInput],
        rubrics: &[Result<Arc<CompiledRubric>, Verdict>],
        items: &mut [Item],
        budget: Budget,
    ) {
        let mut batches: HashMap<&str, Vec<(usize, usize, Value)>> = HashMap::new();
        for (i, (input, rubric)) in inputs.iter().zip(rubrics).enumerate() {
            let Ok(rubric) = rubric else { continue };
            if items[i].settled() {
                continue;
            }
            for (c, method) in rubric.methods.iter().enumerate() {
                if let Method::Verifier { id, input: extra } = method {
                    let mut fields = Map::new();
                    fields.insert("response".to_owned(), Value::String(input.response.clone()));
                    if let Some(reference) = &input.reference {
                        fields.insert("reference".to_owned(), Value::String(reference.clone()));
                    }
                    fields.extend(extra.clone());
                    batches.entry(id.as_str()).or_default().push((i, c, Value::Object(fields)));
                }
            }
        }
        let runs = batches.into_iter().map(|(id, batch)| async move {
            let (places, values): (Vec<(usize, usize)>, Vec<Value>) =
                batch.into_iter().map(|(i, c, value)| ((i, c), value)).unzip();
            let count = values.len();
            let verdicts = match self.verifiers.get(id) {
                Some(scorer) => scorer.score_values(values, budget).await,
                None => vec![Verdict::internal_error(format!("verifier `{id}` is not available")); count],
            };
            (id, places, verdicts)
        });
        for (id, places, verdicts) in join_all(runs).await {
            for ((i, c), verdict) in places.into_iter().zip(verdicts) {
                let name = match &rubrics[i] {
                    Ok(rubric) => rubric.definition.criteria[c].name.clone(),
                    Err(_) => continue,
                };
                let item = &mut items[i];
                match verdict.status {
                    Status::InvalidInput | Status::InternalError | Status::Timeout => {
                        let reason = verdict.details.get("error").and_then(Value::as_str).unwrap_or("no reason given");
                        let message = format!("criterion `{name}`: verifier `{id}` could not judge: {reason}");
                        item.fail(Verdict::failure(verdict.status, message));
                    }
                    Status::Correct
                    | Status::Partial
                    | Status::Incorrect
                    | Status::Unparseable
                    | Status::ResourceLimit => {
                        item.scores[c] = Some(verdict.score.clamp(0.0, 1.0));
                        item.raw[c] = Some(json!({"status": verdict.status, "details": verdict.details}));
                    }
                }
            }
        }
    }

    /// The judge calls of the batch: per item, the rubric-template criteria in groups of
    /// `max_criteria_per_call`, and one call per principle.
    fn plan_judge_calls(
        &self,
        inputs: &[RubricInput],
        rubrics: &[Result<Arc<CompiledRubric>, Verdict>],
        items: &[Item],
    ) -> Vec<Call> {
        let per_call = self.judge.config().max_criteria_per_call;
        let templates = self.judge.templates();
        let mut calls = Vec::new();
        for (i, (input, rubric)) in inputs.iter().zip(rubrics).enumerate() {
            let Ok(rubric) = rubric else { continue };
            if items[i].settled() {
                continue;
            }
            let subject = Subject {
                prompt: input.prompt.as_deref(),
                reference: input.reference.as_deref(),
                response: &input.response,
            };
            let criteria = &rubric.definition.criteria;
            let mut grouped = Vec::new();
            for (c, method) in rubric.methods.iter().enumerate() {
                if !matches!(method, Method::Judge) {
                    continue;
                }
                if matches!(criteria[c].kind, CriterionKind::Principle { .. }) {
                    // A principle without a description is asked by its name, as rubric criteria are.
                    let text = &criteria[c].description;
                    let principle = if text.trim().is_empty() { &criteria[c].name } else { text };
                    let messages = templates.principle(&subject, principle);
                    calls.push(Call { item: i, criteria: vec![c], principle: true, messages });
                } else {
                    grouped.push(c);
                }
            }
            for group in grouped.chunks(per_call) {
                let asked: Vec<Asked<'_>> = group
                    .iter()
                    .map(|&c| Asked {
                        name: &criteria[c].name,
                        description: &criteria[c].description,
                        kind: &criteria[c].kind,
                    })
                    .collect();
                let messages = templates.rubric(&subject, &asked);
                calls.push(Call { item: i, criteria: group.to_vec(), principle: false, messages });
            }
        }
        calls
    }

    /// Makes one judge call and parses it: the criteria's scores and raw verdicts, and the
    /// call's details; or the item's failure verdict.
    async fn ask(
        &self,
        call: &Call,
        rubrics: &[Result<Arc<CompiledRubric>, Verdict>],
        budget: Budget,
    ) -> Result<(Vec<(f64, Value)>, Value), (Verdict, Value)> {
        let Ok(rubric) = &rubrics[call.item] else {
            return Err((Verdict::internal_error("no rubric"), Value::Null));
        };
        let criteria = &rubric.definition.criteria;
        let names: Vec<&str> = call.criteria.iter().map(|&c| criteria[c].name.as_str()).collect();
        let reply = match self.judge.ask(&call.messages, call.principle, budget.deadline).await {
            Ok(reply) => reply,
            Err(error) => {
                let status = match error {
                    JudgeError::Timeout(_) => Status::Timeout,
                    JudgeError::Failed(_) => Status::InternalError,
                };
                let detail = json!({"criteria": names, "error": error.to_string()});
                return Err((Verdict::failure(status, format!("criteria {}: {error}", names.join(", "))), detail));
            }
        };
        let mut detail = json!({
            "criteria": names,
            "reply": truncate(&reply.content, REPLY_CHARS),
            "cached": reply.cached,
        });
        let parsed: Result<Vec<(f64, Value)>, String> = if call.principle {
            let form = if let CriterionKind::Principle { score } = criteria[call.criteria[0]].kind {
                score
            } else {
                PrincipleScore::PYes
            };
            parse_principle_reply(&reply.content, &reply.tokens).and_then(|reading| {
                let mut judged = json!({
                    "answer": if reading.yes { "yes" } else { "no" },
                    "p_yes": reading.p_yes,
                    "source": reading.source(),
                });
                if let Some(logit) = reading.logit {
                    judged["logit"] = json!(logit);
                    judged["clamped"] = json!(reading.clamped);
                }
                if let Some(reason) = &reading.fallback {
                    judged["fallback"] = json!(reason);
                }
                let score = match (form, reading.logit) {
                    (PrincipleScore::PYes, _) => reading.p_yes,
                    (PrincipleScore::Logit, Some(logit)) => logit,
                    (PrincipleScore::Logit, None) => {
                        let why = reading.fallback.as_deref().unwrap_or("the judge returned no log-probs");
                        return Err(format!(
                            "`score: logit` needs the judge's log-probs at its answer, and {why} (the text \
                             answered {})",
                            judged["answer"]
                        ));
                    }
                };
                Ok(vec![(score, judged)])
            })
        } else {
            let asked: Vec<Asked<'_>> = call
                .criteria
                .iter()
                .map(|&c| Asked {
                    name: &criteria[c].name,
                    description: &criteria[c].description,
                    kind: &criteria[c].kind,
                })
                .collect();
            parse_rubric_reply(&reply.content, &asked)
                .map(|parsed| parsed.into_iter().map(|p| (p.score, p.raw)).collect())
        };
        match parsed {
            Ok(scores) => {
                self.judge.remember(&reply).await;
                Ok((scores, detail))
            }
            Err(reason) => {
                metrics::counter!("referee_judge_unreadable_replies_total").increment(1);
                detail["error"] = Value::String(reason.clone());
                let message = format!("criteria {}: the judge's reply cannot be read: {reason}", names.join(", "));
                Err((Verdict::internal_error(message), detail))
            }
        }
    }
}

/// Aggregates an item whose criteria were all scored, or returns its failure.
fn finish(item: Item, rubric: &CompiledRubric) -> Verdict {
    let criteria = &rubric.definition.criteria;
    let mut listed = Vec::with_capacity(criteria.len());
    let mut vetoed = Vec::new();
    let mut values = Vec::with_capacity(criteria.len());
    for (c, criterion) in criteria.iter().enumerate() {
        let score = item.scores.get(c).copied().flatten();
        let mut entry = json!({"name": criterion.name, "score": score, "weight": criterion.weight});
        if score.is_none() && item.decided {
            entry["skipped"] = Value::Bool(true);
        }
        if let Some(score) = score {
            let passed = passes(criterion, score);
            entry["passed"] = Value::Bool(passed);
            if criterion.veto && !passed {
                vetoed.push(criterion.name.clone());
            }
        }
        if let Some(Some(raw)) = item.raw.get(c) {
            entry["judged"] = raw.clone();
        }
        listed.push(entry);
        values.push(score);
    }
    let source = match &rubric.stored {
        Some((id, version)) => json!({"id": id, "version": version}),
        None => json!({"inline": true}),
    };
    let with_details = |verdict: Verdict| {
        let verdict = verdict.with("rubric", &source).with("criteria", &listed);
        if item.judge_calls.is_empty() { verdict } else { verdict.with("judge_calls", &item.judge_calls) }
    };
    if let Some(failure) = item.failure {
        return with_details(failure);
    }
    let Some(values) = values.into_iter().collect::<Option<Vec<f64>>>() else {
        if !vetoed.is_empty() {
            // A rule veto decided the item before the other criteria were asked.
            let verdict = Verdict::new(rubric.definition.veto_floor, Status::Incorrect);
            return with_details(verdict.with("aggregate", Value::Null).with("vetoed", &vetoed));
        }
        return with_details(Verdict::internal_error("a criterion was left unscored"));
    };
    let aggregate = match (&rubric.definition.aggregation, &rubric.formula) {
        (Aggregation::Formula { .. }, Some(formula)) => formula.evaluate(&values),
        _ => {
            let total: f64 = criteria.iter().map(|c| c.weight).sum();
            criteria.iter().zip(&values).map(|(c, v)| c.weight * v).sum::<f64>() / total
        }
    };
    if !aggregate.is_finite() {
        return with_details(Verdict::invalid_input(format!("the aggregation evaluated to {aggregate}")));
    }
    let (score, status) = if vetoed.is_empty() {
        let status = if aggregate >= 1.0 {
            Status::Correct
        } else if aggregate <= 0.0 {
            Status::Incorrect
        } else {
            Status::Partial
        };
        (aggregate, status)
    } else {
        (rubric.definition.veto_floor, Status::Incorrect)
    };
    with_details(Verdict::new(score, status).with("aggregate", aggregate).with("vetoed", &vetoed))
}
