//! The `rlpr` reward model. An item is scored in one of two modes:
//!
//! - **supplied**: the trainer ran its own forward pass and sends the log-probs of the
//!   reference-answer tokens (`logprobs`, and `baseline_logprobs` or `score_a`);
//! - **model**: the item sends the prompt (`prompt`, rendered, or `messages`, rendered by the
//!   source's chat template) and the `reference`, and the configured [`LogprobSource`] scores
//!   the substituted response and, when debiasing without `score_a`, the no-reasoning baseline.
//!   All the texts of one request go to the source in one call.
//!
//! Both modes end in the same formula code ([`RewardOptions::reward`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use referee_core::{Admission, Budget, Busy, BusyStatus, Description, RewardModel, Status, Verdict};
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::baselines::{BaselineCache, BaselineKey, BaselineStore, check_run};
use crate::format::{FormatMode, Substituted, baseline, substitute, substitute_any};
use crate::reward::{BaselineCheckpoint, RewardOptions};
use crate::source::{ChatMessage, LogprobSource, ScoringText, SourceError};

/// An RLPR item: the response, and either the log-probs the trainer computed (`logprobs`) or
/// what the server's model needs to compute them (`prompt` or `messages`, and `reference`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RlprInput {
    /// The generated response, without padding.
    pub response: String,
    /// Supplied mode: the policy's log-probs (natural log, at the temperature the trainer scores
    /// with: RLPR's scripts use the rollout temperature, 1 for Qwen and 0.6 for Llama and Gemma)
    /// of the reference-answer tokens of the substituted sequence, in order: the tokens its
    /// scoring mask selects. Empty when the response has no answer structure.
    #[serde(default)]
    pub logprobs: Option<Vec<f64>>,
    /// Supplied mode: the log-probs of the reference-answer tokens of the no-reasoning baseline
    /// (prompt, then the reference alone), when debiasing from them.
    #[serde(default)]
    pub baseline_logprobs: Option<Vec<f64>>,
    /// The baseline score itself, when the trainer keeps it (RLPR computes it once, with the
    /// initial policy); instead of `baseline_logprobs`, or in model mode instead of scoring the
    /// baseline text.
    #[serde(default)]
    pub score_a: Option<f64>,
    /// Model mode: the prompt already rendered with the chat template, up to and including the
    /// opening of the assistant's turn; instead of `messages`.
    #[serde(default)]
    pub prompt: Option<String>,
    /// Model mode: the prompt as chat messages, rendered by the model's chat template (a
    /// source without one refuses them); instead of `prompt`.
    #[serde(default)]
    pub messages: Option<Vec<ChatMessage>>,
    /// Model mode: the reference answer substituted into the response.
    #[serde(default)]
    pub reference: Option<String>,
    /// Model mode: the training run (1 to 256 bytes) whose no-reasoning baselines are kept in
    /// the server's database: the first baseline scored for a prompt and reference is stored and
    /// used for every later rollout of it, across restarts, reloads and replicas, as RLPR
    /// computes it once with the initial policy. Without it, baselines are kept in a bounded
    /// in-memory cache.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 256)]
    pub run: Option<String>,
    /// The score reduction, format mode, debiasing, format weight, rounding and repetition
    /// penalty.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: RewardOptions,
}

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

/// Whether the response has the answer structure its format mode asks for (a blank answer
/// counts when `score_blank_answers`).
fn structured(input: &RlprInput) -> bool {
    substitute_scored(&input.response, "", "", input.options.format_mode, input.options.score_blank_answers).is_some()
}

/// [`substitute`] as an item asks for it: with `blank_answers` (`score_blank_answers`, the
/// default) a response whose answer is blank is substituted like any other, as the reference
/// does; without, it is not scored.
pub(crate) fn substitute_scored(
    response: &str,
    reference: &str,
    eos: &str,
    mode: FormatMode,
    blank_answers: bool,
) -> Option<Substituted> {
    if blank_answers {
        substitute_any(response, reference, eos, mode)
    } else {
        substitute(response, reference, eos, mode)
    }
}

/// The verdict of a response from its scored tokens' log-probs and the baseline score: the
/// one place both modes compute the reward.
fn finish(input: &RlprInput, structured: bool, logprobs: &[f64], score_a: Option<f64>) -> Verdict {
    let options = &input.options;
    let parts = options.reward(&input.response, score(options, logprobs), score_a);
    let status = if structured { Status::Partial } else { Status::Unparseable };
    let verdict = Verdict::new(parts.reward, status).with("rlpr", &parts).with("tokens", logprobs.len());
    if structured {
        verdict
    } else {
        verdict.with("error", "no answer structure for the format mode: nothing was scored")
    }
}

/// The scored text: the rendered prompt, then the substituted response, with the reference's
/// bytes shifted past the prompt.
pub(crate) fn after_prompt(prompt: &str, substituted: Substituted) -> ScoringText {
    ScoringText {
        text: format!("{prompt}{}", substituted.text),
        answer: substituted.answer.start + prompt.len()..substituted.answer.end + prompt.len(),
    }
}

/// Supplied mode: the reward from the trainer's log-probs.
fn judge_supplied(input: &RlprInput, logprobs: &[f64]) -> Verdict {
    let options = &input.options;
    if let Err(reason) = check_logprobs("logprobs", logprobs) {
        return Verdict::invalid_input(reason);
    }
    let score_a = match (&input.baseline_logprobs, input.score_a) {
        (Some(_), Some(_)) => return Verdict::invalid_input("give `baseline_logprobs` or `score_a`, not both"),
        (Some(baseline), None) => match check_logprobs("baseline_logprobs", baseline) {
            Ok(()) => Some(score(options, baseline)),
            Err(reason) => return Verdict::invalid_input(reason),
        },
        (None, a) => a,
    };
    if options.debias && score_a.is_none() {
        return Verdict::invalid_input(
            "debiasing needs `baseline_logprobs` or `score_a`; set `options.debias` to false to score without",
        );
    }
    let structured = structured(input);
    if !structured && !logprobs.is_empty() {
        return Verdict::invalid_input(
            "the response has no answer structure, so no token is scored, yet `logprobs` is not empty",
        );
    }
    finish(input, structured, logprobs, score_a)
}

/// The model-mode items left to score once their runs' stored baselines are looked up, and the
/// items that failed (their position and why).
#[derive(Debug)]
struct Looked {
    pending: Vec<Pending>,
    failed: Vec<(usize, String)>,
}

/// What a model-mode item needs from the source.
#[derive(Debug)]
struct Pending {
    /// The item's position in the request.
    item: usize,
    /// The substituted text's index among the texts sent.
    scored: usize,
    /// Where the baseline score comes from.
    baseline: Baseline,
}

#[derive(Debug)]
enum Baseline {
    /// No baseline: not debiasing, `score_a` given, or nothing scored.
    Unused,
    /// Log-probs of the baseline text already known: from the in-memory cache, or stored for
    /// the item's run.
    Cached(Vec<f64>),
    /// The baseline text's index among the texts sent, and its cache key.
    Sent(usize, BaselineKey),
}

/// The `rlpr` reward model: supplied log-probs, or a [`LogprobSource`] when one is configured.
#[derive(Clone)]
pub struct RlprModel {
    source: Option<Arc<dyn LogprobSource>>,
    cache: Arc<Mutex<BaselineCache>>,
    /// Where the baselines of items with a `run` are kept; connected once the database is open.
    store: Arc<OnceLock<Arc<dyn BaselineStore>>>,
}

impl std::fmt::Debug for RlprModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RlprModel").field("source", &self.source.as_ref().map(|s| s.name())).finish()
    }
}

impl Default for RlprModel {
    fn default() -> Self {
        RlprModel::new(None, 0)
    }
}

/// The prompt of a model-mode or prepared item: `prompt` as given, or `messages` rendered by
/// the source's chat template. Exactly one of the two must be given.
pub(crate) fn rendered_prompt(
    source: &dyn LogprobSource,
    prompt: Option<&str>,
    messages: Option<&[ChatMessage]>,
) -> Result<String, SourceError> {
    match (prompt, messages) {
        (Some(_), Some(_)) => Err(SourceError::Input("give `prompt` or `messages`, not both".to_owned())),
        (Some(prompt), None) => Ok(prompt.to_owned()),
        (None, Some(messages)) => source.render(messages),
        (None, None) => Err(SourceError::Input("give `prompt` or `messages`".to_owned())),
    }
}

/// Why a model-mode item cannot be sent to the source.
fn model_mode_error(input: &RlprInput) -> Option<&'static str> {
    if input.baseline_logprobs.is_some() {
        return Some(
            "`baseline_logprobs` go with `logprobs`; in model mode send `score_a` or let the model score the baseline",
        );
    }
    if input.reference.is_none() {
        return Some("model mode needs `reference`, the reference answer (or send `logprobs` to score from your own)");
    }
    match (&input.prompt, &input.messages) {
        (Some(_), Some(_)) => Some("give `prompt` or `messages`, not both"),
        (None, None) => Some("model mode needs `prompt` (rendered up to the assistant's turn) or `messages`"),
        _ => None,
    }
}

impl RlprModel {
    /// A reward model scoring model-mode items with `source` (none: only supplied log-probs),
    /// keeping the baseline log-probs of up to `baseline_cache` (checkpoint, prompt, reference)
    /// triples.
    pub fn new(source: Option<Arc<dyn LogprobSource>>, baseline_cache: usize) -> RlprModel {
        let cache = BaselineCache::with_capacity(baseline_cache);
        RlprModel { source, cache: Arc::new(Mutex::new(cache)), store: Arc::new(OnceLock::new()) }
    }

    /// Keeps the baselines of items that name their `run` in `store` (every clone of this model
    /// shares it). Only the first store connected counts.
    pub fn connect_baselines(&self, store: Arc<dyn BaselineStore>) {
        let _ = self.store.set(store);
    }

    /// The configured source, if any.
    pub fn source(&self) -> Option<&Arc<dyn LogprobSource>> {
        self.source.as_ref()
    }

    /// Scores every input; one verdict per input, in order.
    pub async fn score(&self, inputs: Vec<RlprInput>, budget: Budget) -> Vec<Verdict> {
        let mut verdicts: Vec<Option<Verdict>> = vec![None; inputs.len()];
        let mut texts: Vec<ScoringText> = Vec::new();
        let mut sent_baselines: HashMap<BaselineKey, usize> = HashMap::new();
        let mut pending: Vec<Pending> = Vec::new();
        for (item, input) in inputs.iter().enumerate() {
            match self.plan(input, item, &mut texts, &mut sent_baselines) {
                Ok(Some(plan)) => pending.push(plan),
                Ok(None) => verdicts[item] = Some(judge_supplied(input, input.logprobs.as_deref().unwrap_or_default())),
                Err(verdict) => verdicts[item] = Some(verdict),
            }
        }
        let waiting: Vec<usize> = pending.iter().map(|plan| plan.item).collect();
        let lookup = self.stored_baselines(pending, &mut texts, &sent_baselines);
        let Some(stored) = within(budget, lookup).await else {
            for item in waiting {
                verdicts[item] = Some(Verdict::timeout());
            }
            return finished(verdicts);
        };
        for (item, reason) in stored.failed {
            verdicts[item] = Some(Verdict::internal_error(reason));
        }
        if !stored.pending.is_empty() {
            self.score_pending(&inputs, stored.pending, texts, budget, &mut verdicts).await;
        }
        finished(verdicts)
    }

    /// Checks one item; for a model-mode item, queues its texts and returns what it waits for.
    /// `Ok(None)`: a supplied-mode item.
    fn plan(
        &self,
        input: &RlprInput,
        item: usize,
        texts: &mut Vec<ScoringText>,
        sent: &mut HashMap<BaselineKey, usize>,
    ) -> Result<Option<Pending>, Verdict> {
        let options = &input.options;
        options.validate().map_err(|reason| Verdict::invalid_input(format!("options: {reason}")))?;
        if input.score_a.is_some_and(|a| !a.is_finite()) {
            return Err(Verdict::invalid_input("`score_a` must be a finite number"));
        }
        if let Some(run) = &input.run {
            check_run(run).map_err(Verdict::invalid_input)?;
            if input.logprobs.is_some() {
                return Err(Verdict::invalid_input(
                    "`run` keeps the baselines model mode scores; in supplied mode send `baseline_logprobs` or \
                     `score_a`",
                ));
            }
            if options.baseline_checkpoint == BaselineCheckpoint::Current {
                return Err(Verdict::invalid_input(
                    "`run` keeps the first checkpoint's baseline for the whole run; it does not go with \
                     `baseline_checkpoint: \"current\"`",
                ));
            }
        }
        if input.logprobs.is_some() {
            if input.prompt.is_some() || input.messages.is_some() || input.reference.is_some() {
                return Err(Verdict::invalid_input(
                    "an item is scored either from `logprobs` (supplied mode) or from `prompt`/`messages` and \
                     `reference` by the server's model (model mode), not both",
                ));
            }
            return Ok(None);
        }
        if input.prompt.is_none() && input.messages.is_none() && input.reference.is_none() {
            return Err(Verdict::invalid_input(
                "send `logprobs` (log-probs of the reference-answer tokens from your own forward pass), or \
                 `prompt` or `messages` with `reference` to have the server's model score the response",
            ));
        }
        if let Some(reason) = model_mode_error(input) {
            return Err(Verdict::invalid_input(reason));
        }
        let Some(source) = &self.source else {
            return Err(Verdict::invalid_input(
                "no model is configured to score `rlpr` items: set `rlpr.source` in the server configuration, or \
                 send `logprobs` computed by your own forward pass",
            ));
        };
        let reference = input.reference.as_deref().unwrap_or_default();
        let substituted = substitute_scored(
            &input.response,
            reference,
            source.eos(),
            options.format_mode,
            options.score_blank_answers,
        );
        let Some(substituted) = substituted else {
            // Nothing is scored, so neither text goes to the model.
            return Err(finish(input, false, &[], input.score_a));
        };
        let prompt = rendered_prompt(source.as_ref(), input.prompt.as_deref(), input.messages.as_deref())
            .map_err(|e| source_verdict(source.name(), e))?;
        let scored = texts.len();
        texts.push(after_prompt(&prompt, substituted));
        let baseline = if options.debias && input.score_a.is_none() {
            let text = baseline(&prompt, reference, source.eos());
            let generation = match options.baseline_checkpoint {
                BaselineCheckpoint::First => None,
                BaselineCheckpoint::Current => Some(source.generation()),
            };
            if input.run.is_some() && self.store.get().is_none() {
                return Err(Verdict::invalid_input(
                    "this server keeps no run baselines (no database is connected): leave out `run`",
                ));
            }
            let key = BaselineKey { run: input.run.clone(), generation, text: text.text.clone() };
            // A run's baselines live in the store, which replicas share: never in this memory.
            let cached = match key.run {
                Some(_) => None,
                None => self.cache.lock().ok().and_then(|mut cache| cache.get(&key)),
            };
            match cached {
                Some(logprobs) => Baseline::Cached(logprobs),
                None => {
                    let index = *sent.entry(key.clone()).or_insert_with(|| {
                        texts.push(ScoringText { text: text.text, answer: text.answer });
                        texts.len() - 1
                    });
                    Baseline::Sent(index, key)
                }
            }
        } else {
            Baseline::Unused
        };
        Ok(Some(Pending { item, scored, baseline }))
    }

    /// Looks up the baselines of the items that name a run in the store: those found are not
    /// sent to the source (their texts leave `texts`, and the other items' indices follow); the
    /// items of a run whose baselines cannot be read fail, rather than be debiased with a
    /// baseline the run never kept.
    async fn stored_baselines(
        &self,
        pending: Vec<Pending>,
        texts: &mut Vec<ScoringText>,
        sent: &HashMap<BaselineKey, usize>,
    ) -> Looked {
        let Some(store) = self.store.get() else { return Looked { pending, failed: Vec::new() } };
        let mut by_run: HashMap<&str, Vec<&BaselineKey>> = HashMap::new();
        for key in sent.keys() {
            if let Some(run) = &key.run {
                by_run.entry(run).or_default().push(key);
            }
        }
        if by_run.is_empty() {
            return Looked { pending, failed: Vec::new() };
        }
        let mut found: HashMap<BaselineKey, Vec<f64>> = HashMap::new();
        let mut broken: HashMap<String, String> = HashMap::new();
        for (run, keys) in by_run {
            let wanted: Vec<String> = keys.iter().map(|key| key.text.clone()).collect();
            match store.get(run, &wanted).await {
                Ok(mut stored) => {
                    for key in keys {
                        if let Some(logprobs) = stored.remove(&key.text) {
                            found.insert(key.clone(), logprobs);
                        }
                    }
                }
                Err(error) => {
                    broken
                        .insert(run.to_owned(), format!("the stored baselines of run `{run}` cannot be read: {error}"));
                }
            }
        }
        let failing = |plan: &Pending| match &plan.baseline {
            Baseline::Sent(_, key) => key.run.as_ref().and_then(|run| broken.get(run)).cloned(),
            Baseline::Unused | Baseline::Cached(_) => None,
        };
        let mut dropped = vec![false; texts.len()];
        for plan in &pending {
            if failing(plan).is_some() {
                dropped[plan.scored] = true;
            }
            if let Baseline::Sent(index, key) = &plan.baseline
                && (found.contains_key(key) || failing(plan).is_some())
            {
                dropped[*index] = true;
            }
        }
        let mut moved = vec![None; texts.len()];
        let kept: Vec<ScoringText> = std::mem::take(texts)
            .into_iter()
            .zip(&dropped)
            .enumerate()
            .filter(|(_, (_, dropped))| !**dropped)
            .map(|(old, (text, _))| {
                moved[old] = Some(moved.iter().flatten().count());
                text
            })
            .collect();
        *texts = kept;
        let mut looked = Looked { pending: Vec::with_capacity(pending.len()), failed: Vec::new() };
        for plan in pending {
            if let Some(reason) = failing(&plan) {
                looked.failed.push((plan.item, reason));
                continue;
            }
            // Every rollout of a prompt shares its baseline's key, so a found baseline is
            // copied to each, never taken by the first.
            let baseline = match plan.baseline {
                Baseline::Sent(index, key) => match (found.get(&key), moved[index]) {
                    (Some(logprobs), _) => Baseline::Cached(logprobs.clone()),
                    (None, Some(index)) => Baseline::Sent(index, key),
                    (None, None) => {
                        looked.failed.push((plan.item, "the item's baseline was dropped before scoring".to_owned()));
                        continue;
                    }
                },
                other @ (Baseline::Unused | Baseline::Cached(_)) => other,
            };
            match moved[plan.scored] {
                Some(scored) => looked.pending.push(Pending { item: plan.item, scored, baseline }),
                None => looked.failed.push((plan.item, "the item's text was dropped before scoring".to_owned())),
            }
        }
        looked
    }

    /// Stores the baselines just scored for items that name a run; what each run keeps (the
    /// first stored, which another replica may have written) is what its items are debiased
    /// with. `Err` for the keys whose run could not store them.
    async fn keep_baselines(
        &self,
        pending: &[Pending],
        answers: &[Result<Vec<f64>, SourceError>],
    ) -> HashMap<BaselineKey, Result<Vec<f64>, String>> {
        let mut kept = HashMap::new();
        let Some(store) = self.store.get() else { return kept };
        let mut by_run: HashMap<&str, HashMap<&BaselineKey, Vec<f64>>> = HashMap::new();
        for plan in pending {
            if let Baseline::Sent(index, key) = &plan.baseline
                && let Some(run) = &key.run
                && let Some(Ok(logprobs)) = answers.get(*index)
                && check_logprobs("logprobs", logprobs).is_ok()
            {
                by_run.entry(run).or_default().insert(key, logprobs.clone());
            }
        }
        for (run, entries) in by_run {
            let keys: Vec<BaselineKey> = entries.keys().map(|&key| key.clone()).collect();
            let sent = entries.into_iter().map(|(key, logprobs)| (key.text.clone(), logprobs)).collect();
            match store.put(run, sent).await {
                Ok(mut stored) => {
                    for key in keys {
                        let value = stored
                            .remove(&key.text)
                            .ok_or_else(|| format!("run `{run}` did not keep the baseline it was sent"));
                        kept.insert(key, value);
                    }
                }
                Err(error) => {
                    for key in keys {
                        kept.insert(key, Err(format!("the baseline of run `{run}` cannot be stored: {error}")));
                    }
                }
            }
        }
        kept
    }

    /// Sends the queued texts in one call and turns the answers into the items' verdicts.
    async fn score_pending(
        &self,
        inputs: &[RlprInput],
        pending: Vec<Pending>,
        texts: Vec<ScoringText>,
        budget: Budget,
        verdicts: &mut [Option<Verdict>],
    ) {
        let Some(source) = &self.source else { return };
        let name = source.name();
        let count = texts.len();
        let call = source.logprobs(texts);
        let answers = match budget.deadline {
            Some(deadline) => match tokio::time::timeout_at(deadline.into(), call).await {
                Ok(answers) => answers,
                Err(_) => {
                    for plan in pending {
                        verdicts[plan.item] = Some(Verdict::timeout());
                    }
                    return;
                }
            },
            None => call.await,
        };
        if answers.len() != count {
            let reason = format!("the `{name}` source answered {} results for {count} texts", answers.len());
            for plan in pending {
                verdicts[plan.item] = Some(Verdict::internal_error(reason.clone()));
            }
            return;
        }
        let Some(kept) = within(budget, self.keep_baselines(&pending, &answers)).await else {
            for plan in pending {
                verdicts[plan.item] = Some(Verdict::timeout());
            }
            return;
        };
        for plan in pending {
            let input = &inputs[plan.item];
            let verdict = self.model_verdict(input, &plan, &answers, &kept, name).unwrap_or_else(|error| error);
            verdicts[plan.item] = Some(verdict);
        }
    }

    /// A model-mode item's verdict from the source's answers; `Err` holds a failure verdict.
    fn model_verdict(
        &self,
        input: &RlprInput,
        plan: &Pending,
        answers: &[Result<Vec<f64>, SourceError>],
        kept: &HashMap<BaselineKey, Result<Vec<f64>, String>>,
        name: &str,
    ) -> Result<Verdict, Verdict> {
        let checked = |index: usize| -> Result<&Vec<f64>, Verdict> {
            match &answers[index] {
                Ok(logprobs) => match check_logprobs("logprobs", logprobs) {
                    Ok(()) => Ok(logprobs),
                    Err(reason) => Err(Verdict::internal_error(format!("the `{name}` source returned {reason}"))),
                },
                Err(error) => Err(source_verdict(name, error.clone())),
            }
        };
        let scored = checked(plan.scored)?;
        let score_a = match &plan.baseline {
            Baseline::Unused => input.score_a,
            Baseline::Cached(logprobs) => Some(score(&input.options, logprobs)),
            Baseline::Sent(index, key) if key.run.is_some() => {
                checked(*index)?;
                match kept.get(key) {
                    Some(Ok(logprobs)) => Some(score(&input.options, logprobs)),
                    Some(Err(reason)) => return Err(Verdict::internal_error(reason.clone())),
                    None => return Err(Verdict::internal_error("the run's baseline was not stored")),
                }
            }
            Baseline::Sent(index, key) => {
                let logprobs = checked(*index)?;
                if let Ok(mut cache) = self.cache.lock() {
                    cache.put(key.clone(), logprobs.clone());
                }
                Some(score(&input.options, logprobs))
            }
        };
        Ok(finish(input, true, scored, score_a).with("source", name))
    }
}

/// `future`'s output, or `None` when the request's deadline passes first.
async fn within<T>(budget: Budget, future: impl Future<Output = T>) -> Option<T> {
    match budget.deadline {
        Some(deadline) => tokio::time::timeout_at(deadline.into(), future).await.ok(),
        None => Some(future.await),
    }
}

/// One verdict per item; an item nothing decided is an internal error.
fn finished(verdicts: Vec<Option<Verdict>>) -> Vec<Verdict> {
    verdicts.into_iter().map(|v| v.unwrap_or_else(|| Verdict::internal_error("the item was left unscored"))).collect()
}

/// A source's refusal as the item's verdict: the item's fault is `invalid_input`; a failing
/// or busy model is `internal_error`, which a trainer masks.
fn source_verdict(name: &str, error: SourceError) -> Verdict {
    match error {
        SourceError::Input(reason) => Verdict::invalid_input(reason),
        SourceError::Backend(reason) => Verdict::internal_error(format!("the `{name}` source failed: {reason}")),
        SourceError::Busy(reason) => Verdict::internal_error(format!(
            "the `{name}` source is busy ({reason}); retry the item later or send smaller batches"
        )),
    }
}

impl RewardModel for RlprModel {
    type Input = RlprInput;

    fn description(&self) -> Description {
        Description {
            id: "rlpr",
            version: "1",
            summary: "RLPR probability reward: the mean probability (or mean log-prob, geometric mean, product) of \
                      the reference answer's tokens after the response's reasoning, debiased against the \
                      no-reasoning baseline, mixed with the format term, with the repetition penalty. Scored from \
                      log-probs the trainer supplies, or by the configured model (local or a remote completions \
                      server) from the prompt and the reference.",
        }
    }

    fn score_batch(&self, inputs: Vec<RlprInput>, budget: Budget) -> impl Future<Output = Vec<Verdict>> + Send {
        self.score(inputs, budget)
    }

    /// Refused (503, `Retry-After: 1`) while the source's queue has no room for the batch's
    /// texts: at most two per item (the scored text and its baseline), or the whole queue for a
    /// batch larger than it. The room is checked, not held: a request admitted together with
    /// another may still find the queue full, and its items are then `internal_error`.
    fn admit(&self, items: usize) -> Result<Admission, Busy> {
        let Some(source) = &self.source else { return Ok(Admission::granted()) };
        let texts = items.saturating_mul(2);
        let wanted = source.queue_capacity().map_or(texts, |capacity| texts.min(capacity));
        if source.has_room(wanted) {
            return Ok(Admission::granted());
        }
        Err(Busy {
            status: BusyStatus::Unavailable,
            retry_after_secs: 1,
            message: format!("the rlpr model's queue has no room for {wanted} more texts; retry after 1 s"),
        })
    }

    /// Model-mode verdicts depend on the checkpoint in use, so only supplied-mode items are
    /// answered from the result cache.
    fn result_cacheable(&self, input: &Value) -> bool {
        input.get("logprobs").is_some_and(|l| !l.is_null())
    }
}

#[cfg(test)]
mod tests {
    use futures::FutureExt;
    use futures::future::BoxFuture;

    use super::*;

    fn input(value: Value) -> Result<RlprInput, serde_json::Error> {
        serde_json::from_value(value)
    }

    fn judge(model: &RlprModel, item: RlprInput) -> Verdict {
        let verdicts = model.score(vec![item], Budget::unlimited()).now_or_never();
        verdicts.and_then(|v| v.into_iter().next()).unwrap_or_else(|| Verdict::internal_error("pending"))
    }

    #[test]
    fn the_reward_comes_from_the_supplied_log_probs() -> Result<(), serde_json::Error> {
        let item = input(serde_json::json!({
            "response": "<think>r</think><answer>4</answer>",
            "logprobs": [-0.1, -0.2],
            "baseline_logprobs": [-1.0, -2.0],
            "options": {"round_bf16": false}
        }))?;
        let verdict = judge(&RlprModel::default(), item);
        let b = ((-0.1f64).exp() + (-0.2f64).exp()) / 2.0;
        let a = ((-1.0f64).exp() + (-2.0f64).exp()) / 2.0;
        assert_eq!(verdict.status, Status::Partial);
        assert!((verdict.score - (0.9 * (b - a) + 0.1)).abs() < 1e-12, "{verdict:?}");
        assert_eq!(verdict.details["tokens"], 2);
        Ok(())
    }

    #[test]
    fn unstructured_responses_score_nothing() -> Result<(), serde_json::Error> {
        let model = RlprModel::default();
        let item = input(serde_json::json!({"response": "4", "logprobs": [], "score_a": 0.2}))?;
        let verdict = judge(&model, item);
        assert_eq!((verdict.status, verdict.score), (Status::Unparseable, 0.0));
        let item = input(serde_json::json!({"response": "4", "logprobs": [-0.1], "score_a": 0.2}))?;
        assert_eq!(judge(&model, item).status, Status::InvalidInput);
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
            serde_json::json!({"response": good, "logprobs": [-0.5], "score_a": 0.1, "reference": "4"}),
            serde_json::json!({"response": good}),
            serde_json::json!({"response": good, "prompt": "p", "reference": "4"}),
            serde_json::json!({"response": good, "prompt": "p"}),
            serde_json::json!({"response": good, "prompt": "p", "messages": [], "reference": "4"}),
        ] {
            let verdict = judge(&RlprModel::default(), input(value.clone())?);
            assert_eq!(verdict.status, Status::InvalidInput, "{value}");
            assert!(verdict.details["error"].as_str().is_some_and(|e| !e.is_empty()));
        }
        Ok(())
    }

    /// A source that scores each text's answer bytes as one token each, with log-prob
    /// −(answer bytes)/10, and counts the texts it is sent.
    #[derive(Debug, Default)]
    struct ByteSource {
        sent: Mutex<Vec<String>>,
        generation: std::sync::atomic::AtomicU64,
    }

    impl LogprobSource for ByteSource {
        fn name(&self) -> &'static str {
            "bytes"
        }

        fn eos(&self) -> &str {
            "<eos>"
        }

        fn generation(&self) -> u64 {
            self.generation.load(std::sync::atomic::Ordering::SeqCst)
        }

        fn logprobs(&self, batch: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<Vec<f64>, SourceError>>> {
            if let Ok(mut sent) = self.sent.lock() {
                sent.extend(batch.iter().map(|t| t.text.clone()));
            }
            let answers = batch
                .iter()
                .map(|t| {
                    let n = t.answer.len();
                    Ok(vec![-(n as f64) / 10.0; n])
                })
                .collect();
            std::future::ready(answers).boxed()
        }
    }

    #[test]
    fn model_mode_sends_every_text_once_and_caches_the_baseline() -> Result<(), serde_json::Error> {
        let source = Arc::new(ByteSource::default());
        let model = RlprModel::new(Some(source.clone() as Arc<dyn LogprobSource>), 16);
        let item = |response: &str| {
            input(serde_json::json!({
                "response": response, "prompt": "Q:", "reference": "42", "options": {"round_bf16": false}
            }))
        };
        let items = vec![item("<think>a</think><answer>1</answer>")?, item("<think>b</think><answer>2</answer>")?];
        let verdicts = model.score(items, Budget::unlimited()).now_or_never().unwrap_or_default();
        let sent = source.sent.lock().map(|s| s.clone()).unwrap_or_default();
        assert_eq!(
            sent,
            [
                "Q:<think>a</think><answer> 42 </answer><eos>",
                "Q: 42 <eos>",
                "Q:<think>b</think><answer> 42 </answer><eos>"
            ],
            "one baseline for the two rollouts of one prompt"
        );
        // Both texts score two tokens at −0.2 each: delta 0, reward 0.1 (the format term).
        assert!(verdicts.iter().all(|v| v.status == Status::Partial && (v.score - 0.1).abs() < 1e-12), "{verdicts:?}");
        // The baseline now comes from the cache; unstructured responses send nothing.
        let again = vec![item("<think>c</think><answer>3</answer>")?, item("no structure")?];
        let verdicts = model.score(again, Budget::unlimited()).now_or_never().unwrap_or_default();
        assert_eq!(source.sent.lock().map(|s| s.len()).unwrap_or_default(), 4);
        assert_eq!(verdicts[1].status, Status::Unparseable);
        // Without a chat template, `messages` are the item's fault.
        let with_messages = input(serde_json::json!({
            "response": "<think>a</think><answer>1</answer>", "reference": "4",
            "messages": [{"role": "user", "content": "Q"}]}))?;
        let verdict = judge(&model, with_messages);
        assert_eq!(verdict.status, Status::InvalidInput);
        assert!(verdict.details["error"].as_str().is_some_and(|e| e.contains("chat template")), "{verdict:?}");
        Ok(())
    }
}
