//! The scoring engine: groups a request's items by scorer, runs each group as one batch (CPU
//! verifiers on the blocking pool, async scorers on the runtime), enforces the deadline, and puts
//! the verdicts back in item order. The HTTP handlers and `referee score` both call it.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use futures::future::join_all;
use referee_core::{Admission, Budget, Busy, Scorer, Status, Verdict};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::config::{LogMode, ScoringLogConfig};
use crate::features::noise::{Correction, NoiseLayer};
use crate::registry::{Entry, Registry};
use crate::store::{CacheRow, LogRow, Storage, WriteQueue};

/// The verdict of one item, as returned by the API.
#[derive(Debug, Clone, PartialEq, ToSchema)]
pub struct ScoreResult {
    /// The item's `id`, echoed; null when the item had none.
    pub id: Option<String>,
    /// The verifier that judged the item; null when the item named none.
    pub verifier: Option<String>,
    /// The reward. Finite; 0 for every non-judging status.
    pub score: f64,
    /// The outcome class.
    pub status: Status,
    /// Verifier-specific details; error verdicts carry their reason under `error`.
    #[schema(value_type = Object)]
    pub details: Map<String, Value>,
    /// `details.reward`, the noise layer's corrections: serialised once per noise model and
    /// shared by every verdict it corrects, then written into `details` on output.
    #[schema(ignore)]
    pub reward: Option<SharedJson>,
    /// Microseconds the item's verifier batch took (0 for cached and malformed items).
    pub elapsed_us: u64,
}

/// A JSON value serialised once and shared.
#[derive(Debug, Clone)]
pub struct SharedJson(Arc<RawValue>);

impl SharedJson {
    /// Serialises `value` once.
    pub fn new(value: &impl Serialize) -> serde_json::Result<SharedJson> {
        Ok(SharedJson(Arc::from(serde_json::value::to_raw_value(value)?)))
    }
}

impl PartialEq for SharedJson {
    fn eq(&self, other: &SharedJson) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Serialize for ScoreResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut result = serializer.serialize_struct("ScoreResult", 6)?;
        result.serialize_field("id", &self.id)?;
        result.serialize_field("verifier", &self.verifier)?;
        result.serialize_field("score", &self.score)?;
        result.serialize_field("status", &self.status)?;
        result.serialize_field("details", &Details { fields: &self.details, reward: self.reward.as_ref() })?;
        result.serialize_field("elapsed_us", &self.elapsed_us)?;
        result.end()
    }
}

/// `details` with the shared `reward` added.
struct Details<'a> {
    fields: &'a Map<String, Value>,
    reward: Option<&'a SharedJson>,
}

impl Serialize for Details<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let Some(reward) = self.reward else {
            return self.fields.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(self.fields.len() + 1))?;
        for (name, value) in self.fields.iter().filter(|(name, _)| *name != "reward") {
            map.serialize_entry(name, value)?;
        }
        map.serialize_entry("reward", &*reward.0)?;
        map.end()
    }
}

/// Where verdicts go after scoring, when a database is configured.
#[derive(Debug, Clone)]
pub struct Persistence {
    pub storage: Storage,
    pub queue: WriteQueue,
    pub log: ScoringLogConfig,
    pub cache: bool,
}

/// Scores batches of items through the registry.
#[derive(Debug, Clone)]
pub struct Engine {
    registry: Arc<Registry>,
    /// Set once the database is open; until then nothing is logged or cached.
    persistence: OnceLock<Persistence>,
    /// Set once the noise models are loaded; until then no verdict is corrected or appealed.
    noise: OnceLock<Arc<NoiseLayer>>,
    /// Requests that wait for admission queue here, first come first served, so that under
    /// sustained load the oldest waiter is admitted next and none waits past its deadline
    /// while newer ones go through.
    waiting_line: Arc<tokio::sync::Mutex<()>>,
}

/// The request id scoring-log rows carry, and whether the same items may be scored again
/// under it (then each row gets a unique key: `{id}/{position}`).
#[derive(Debug, Clone, Copy)]
enum RequestKey<'a> {
    Request(&'a str),
    Replayable(&'a str),
}

/// One item after its envelope (`id`, `verifier`, `input`) has been read.
struct Envelope {
    id: Option<String>,
    verifier: Option<String>,
    /// The task/source label that selects a noise model.
    label: Option<String>,
    /// The registry position of the verifier and the input, or why the item is invalid.
    target: Result<(usize, Value), String>,
}

/// What scoring does when a scorer's queue is full, and so what it can fail with.
trait Admit {
    /// What a full queue turns into: [`Busy`], or nothing for a policy that never refuses.
    type Refusal;

    /// `Some` refuses the request; `None` waits and asks again. `now` is when the queue was
    /// found full.
    fn refuse(&self, busy: Busy, now: Instant) -> Option<Self::Refusal>;

    /// When waiting ends, if ever: no sleep reaches past it.
    fn until(&self) -> Option<Instant> {
        None
    }
}

/// Refuse the whole request (HTTP 429 or 503 with `Retry-After`).
struct Refuse;

impl Admit for Refuse {
    type Refusal = Busy;

    fn refuse(&self, busy: Busy, _: Instant) -> Option<Busy> {
        Some(busy)
    }
}

/// Wait and ask again, without limit: background work must never fail or lose items to load.
struct Wait;

impl Admit for Wait {
    type Refusal = std::convert::Infallible;

    fn refuse(&self, _: Busy, _: Instant) -> Option<std::convert::Infallible> {
        None
    }
}

/// Wait and ask again until an instant, then refuse with 503: trainer-facing requests, whose
/// clients retry blindly or drop the reward, are held rather than refused while there is time.
struct WaitUntil(Instant);

impl Admit for WaitUntil {
    type Refusal = Busy;

    fn refuse(&self, busy: Busy, now: Instant) -> Option<Busy> {
        (now >= self.0).then(|| Busy {
            status: referee_core::BusyStatus::Unavailable,
            message: format!("{}; no room came within the request deadline", busy.message),
            ..busy
        })
    }

    fn until(&self) -> Option<Instant> {
        Some(self.0)
    }
}

/// The first and the longest wait between two admission attempts of background work.
const ADMISSION_BACKOFF_MIN: Duration = Duration::from_millis(10);
const ADMISSION_BACKOFF_MAX: Duration = Duration::from_millis(500);

/// Which envelope fields an item may have.
#[derive(Debug, Clone, Copy)]
pub enum ItemShape<'a> {
    /// `{id?, verifier, input, label?}`, as in `POST /v1/score`.
    Named,
    /// `{id?, input, label?}` for the given verifier, as in `POST /v1/verifiers/{id}/score`.
    For(&'a str),
}

impl Engine {
    /// An engine over `registry` that persists nothing until [`Engine::attach`].
    pub fn new(registry: Arc<Registry>) -> Engine {
        Engine { registry, persistence: OnceLock::new(), noise: OnceLock::new(), waiting_line: Arc::default() }
    }

    /// Starts logging and caching through `persistence`; only the first call has an effect.
    pub fn attach(&self, persistence: Persistence) {
        let _ = self.persistence.set(persistence);
    }

    /// Starts correcting and appealing verdicts through `noise`; only the first call has an
    /// effect.
    pub fn attach_noise(&self, noise: Arc<NoiseLayer>) {
        let _ = self.noise.set(noise);
    }

    /// The noise layer, once attached.
    pub fn noise(&self) -> Option<&Arc<NoiseLayer>> {
        self.noise.get()
    }

    /// The registry this engine scores through.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The storage, when configured.
    pub fn storage(&self) -> Option<&Storage> {
        self.persistence.get().map(|p| &p.storage)
    }

    /// Scores `items`, one result per item in order. Never fails as a whole: malformed items,
    /// unknown verifiers, panics and timeouts become per-item verdicts. Binary verdicts with a
    /// noise model get `details.reward`, and `correction` says whether it replaces `score`.
    ///
    /// A scorer whose queue is full is waited for (see [`Wait`]): this is the entry of
    /// background work (jobs, `referee score`). Requests answered synchronously use
    /// [`Engine::try_score`].
    pub async fn score(
        &self,
        items: Vec<Value>,
        shape: ItemShape<'_>,
        correction: Correction,
        budget: Budget,
        request_id: &str,
    ) -> Vec<ScoreResult> {
        match self.score_admitted(&Wait, items, shape, correction, budget, RequestKey::Request(request_id)).await {
            Ok(results) => results,
            Err(never) => match never {},
        }
    }

    /// Like [`Engine::score`], but refuses the whole request with [`Busy`] when a scorer it
    /// needs cannot take its items now; nothing is scored then.
    pub async fn try_score(
        &self,
        items: Vec<Value>,
        shape: ItemShape<'_>,
        correction: Correction,
        budget: Budget,
        request_id: &str,
    ) -> Result<Vec<ScoreResult>, Busy> {
        self.score_admitted(&Refuse, items, shape, correction, budget, RequestKey::Request(request_id)).await
    }

    /// Like [`Engine::score`], but waits for room in a full scorer queue only until `until`;
    /// then the whole request is refused with a 503 [`Busy`] and nothing is scored. Waiters
    /// are admitted in arrival order. The budget starts once the items are admitted.
    pub async fn score_waiting(
        &self,
        items: Vec<Value>,
        shape: ItemShape<'_>,
        correction: Correction,
        budget: Budget,
        request_id: &str,
        until: Instant,
    ) -> Result<Vec<ScoreResult>, Busy> {
        self.score_admitted(&WaitUntil(until), items, shape, correction, budget, RequestKey::Request(request_id)).await
    }

    async fn score_admitted<A: Admit>(
        &self,
        policy: &A,
        items: Vec<Value>,
        shape: ItemShape<'_>,
        correction: Correction,
        mut budget: Budget,
        request_id: RequestKey<'_>,
    ) -> Result<Vec<ScoreResult>, A::Refusal> {
        let envelopes: Vec<Envelope> = items.into_iter().map(|item| self.open_envelope(item, shape)).collect();
        let noise = self.noise.get().map(|layer| (layer, layer.snapshot())).filter(|(_, s)| !s.is_empty());
        let mut candidates = Vec::new();
        let mut labels = Vec::new();
        if noise.is_some() {
            candidates.resize_with(envelopes.len(), || None);
            labels = envelopes.iter().map(|e| e.label.clone()).collect();
        }
        let mut results: Vec<Option<ScoreResult>> = vec![None; envelopes.len()];
        let mut groups: Vec<Vec<(usize, Value)>> = vec![Vec::new(); self.registry.entries().len()];
        let mut names: Vec<(Option<String>, Option<String>)> = Vec::with_capacity(envelopes.len());
        for (position, envelope) in envelopes.into_iter().enumerate() {
            match envelope.target {
                Ok((index, input)) => {
                    if let Some((layer, snapshot)) = &noise {
                        candidates[position] =
                            layer.candidate(snapshot, self.registry.at(index).id(), envelope.label.as_deref(), &input);
                    }
                    groups[index].push((position, input));
                }
                Err(reason) => {
                    results[position] = Some(ScoreResult {
                        id: envelope.id.clone(),
                        verifier: envelope.verifier.clone(),
                        ..unscored(Status::InvalidInput, &reason)
                    });
                }
            }
            names.push((envelope.id, envelope.verifier));
        }

        let admissions = self.admit(policy, &groups, &mut budget).await?;
        let runs = groups
            .into_iter()
            .enumerate()
            .filter(|(_, group)| !group.is_empty())
            .map(|(index, group)| self.run_group(self.registry.at(index), group, budget, request_id));
        for group in join_all(runs).await {
            for (position, verdict, elapsed_us) in group {
                let (id, verifier) = &names[position];
                results[position] = Some(ScoreResult {
                    id: id.clone(),
                    verifier: verifier.clone(),
                    score: verdict.score,
                    status: verdict.status,
                    details: verdict.details,
                    reward: None,
                    elapsed_us,
                });
            }
        }
        drop(admissions);
        let mut results: Vec<ScoreResult> = results
            .into_iter()
            .map(|r| r.unwrap_or_else(|| unscored(Status::InternalError, "the item was not scored")))
            .collect();
        if let Some((layer, snapshot)) = noise {
            layer.after_scoring(&snapshot, &mut results, &labels, candidates, correction, budget).await;
        }
        Ok(results)
    }

    /// Reserves each scorer's capacity for its group of items (in registry order). When one
    /// refuses, what was reserved is released; then [`Refuse`] answers [`Busy`], and [`Wait`]
    /// and [`WaitUntil`] join the waiting line and, at its head, retry after a short backoff.
    /// The budget's deadline moves by the time spent waiting, so that queueing never turns
    /// into `timeout` verdicts.
    async fn admit<A: Admit>(
        &self,
        policy: &A,
        groups: &[Vec<(usize, Value)>],
        budget: &mut Budget,
    ) -> Result<Vec<Admission>, A::Refusal> {
        let started = Instant::now();
        let mut backoff = ADMISSION_BACKOFF_MIN;
        let mut place_in_line = None;
        loop {
            let reserved: Result<Vec<Admission>, Busy> = groups
                .iter()
                .enumerate()
                .filter(|(_, group)| !group.is_empty())
                .map(|(index, group)| self.registry.at(index).scorer.admit(group.len()))
                .collect();
            let busy = match reserved {
                Ok(admissions) => {
                    if let Some(deadline) = budget.deadline.as_mut() {
                        *deadline += started.elapsed();
                    }
                    return Ok(admissions);
                }
                Err(busy) => busy,
            };
            let now = Instant::now();
            if let Some(refusal) = policy.refuse(busy, now) {
                metrics::counter!("referee_admissions_refused_total").increment(1);
                return Err(refusal);
            }
            if place_in_line.is_none() {
                // Wait for the head of the line, then ask again at once.
                let line = self.waiting_line.lock();
                match policy.until() {
                    None => place_in_line = Some(line.await),
                    Some(until) => {
                        if let Ok(guard) = tokio::time::timeout_at(until.into(), line).await {
                            place_in_line = Some(guard);
                        }
                    }
                }
                continue;
            }
            let pause = policy.until().map_or(backoff, |until| backoff.min(until.saturating_duration_since(now)));
            tokio::time::sleep(pause).await;
            backoff = (backoff * 2).min(ADMISSION_BACKOFF_MAX);
        }
    }

    /// Scores lines of a JSONL input: parsed items are scored as one batch, lines that were not
    /// JSON (`Err` with the reason) get `invalid_input` in their place.
    pub async fn score_lines(
        &self,
        lines: Vec<Result<Value, String>>,
        budget: Budget,
        request_id: &str,
    ) -> Vec<ScoreResult> {
        let mut failures = Vec::with_capacity(lines.len());
        let mut items = Vec::with_capacity(lines.len());
        for line in lines {
            match line {
                Ok(item) => {
                    items.push(item);
                    failures.push(None);
                }
                Err(reason) => failures.push(Some(reason)),
            }
        }
        // The same lines may be scored again (a job chunk taken over after its worker died):
        // their log rows are keyed so that the second scoring adds none.
        let key = RequestKey::Replayable(request_id);
        let mut scored = match self.score_admitted(&Wait, items, ItemShape::Named, Correction::None, budget, key).await
        {
            Ok(results) => results.into_iter(),
            Err(never) => match never {},
        };
        failures
            .into_iter()
            .map(|failure| match failure {
                Some(reason) => unscored(Status::InvalidInput, &reason),
                None => scored.next().unwrap_or_else(|| unscored(Status::InternalError, "the item was not scored")),
            })
            .collect()
    }

    fn open_envelope(&self, item: Value, shape: ItemShape<'_>) -> Envelope {
        let Value::Object(mut fields) = item else {
            return Envelope {
                id: None,
                verifier: None,
                label: None,
                target: Err("an item must be a JSON object".to_owned()),
            };
        };
        let id = match fields.remove("id") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(id)) => Ok(Some(id)),
            Some(_) => Err("`id` must be a string".to_owned()),
        };
        let verifier = match shape {
            ItemShape::Named => match fields.remove("verifier") {
                Some(Value::String(name)) => Ok(name),
                Some(_) => Err("`verifier` must be a string".to_owned()),
                None => Err("missing `verifier`".to_owned()),
            },
            ItemShape::For(name) => Ok(name.to_owned()),
        };
        let label = match fields.remove("label") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(label)) => Ok(Some(label)),
            Some(_) => Err("`label` must be a string".to_owned()),
        };
        let input = fields.remove("input");
        let extra: Vec<String> = fields.keys().map(|k| format!("`{k}`")).collect();
        let verifier_name = verifier.as_ref().ok().cloned();
        let target = (|| {
            if let Err(reason) = &id {
                return Err(reason.clone());
            }
            if let Err(reason) = &label {
                return Err(reason.clone());
            }
            let name = verifier?;
            if !extra.is_empty() {
                return Err(format!(
                    "unknown item field(s) {}; an item has `id`, `verifier`, `input` and `label`",
                    extra.join(", ")
                ));
            }
            let index = self
                .registry
                .index_of(&name)
                .ok_or_else(|| format!("no verifier is registered as `{name}`; GET /v1/verifiers lists them"))?;
            let input = input.ok_or_else(|| "missing `input`".to_owned())?;
            Ok((index, input))
        })();
        Envelope { id: id.ok().flatten(), verifier: verifier_name, label: label.ok().flatten(), target }
    }

    /// Scores one verifier's items as a batch: cache first, then the scorer under the deadline.
    async fn run_group(
        &self,
        entry: &Entry,
        group: Vec<(usize, Value)>,
        budget: Budget,
        request_id: RequestKey<'_>,
    ) -> Vec<(usize, Verdict, u64)> {
        let persistence = self.persistence.get();
        let wants_hash = persistence.is_some_and(|p| p.cache || p.log.mode != LogMode::Off);
        let hashes: Vec<String> = if wants_hash {
            group.iter().map(|(_, input)| input_hash(entry.id(), input)).collect()
        } else {
            Vec::new()
        };

        // Items whose verdict depends on more than their input (a stored rubric named without a
        // version) are neither answered from the result cache nor written to it.
        let caching = persistence.is_some_and(|p| p.cache);
        let cacheable_inputs: Vec<bool> = if caching {
            group.iter().map(|(_, input)| entry.scorer.result_cacheable(input)).collect()
        } else {
            Vec::new()
        };
        let lookup: Vec<String> = hashes
            .iter()
            .zip(&cacheable_inputs)
            .filter(|(_, cacheable)| **cacheable)
            .map(|(hash, _)| hash.clone())
            .collect();

        let mut done: Vec<(usize, Verdict, u64, Option<String>)> = Vec::with_capacity(group.len());
        let mut pending: Vec<(usize, Value, bool)> = Vec::with_capacity(group.len());
        let mut pending_hashes: Vec<Option<String>> = Vec::with_capacity(group.len());
        let cached = match persistence.filter(|p| p.cache && !lookup.is_empty()) {
            Some(p) => lookup_cache(p, entry, &lookup).await,
            None => Default::default(),
        };
        for (i, (position, input)) in group.into_iter().enumerate() {
            let hash = hashes.get(i).cloned();
            let cacheable_input = cacheable_inputs.get(i).copied().unwrap_or(false);
            match hash.as_ref().filter(|_| cacheable_input).and_then(|h| cached.get(h)) {
                Some(verdict) => {
                    done.push((position, verdict.clone().with("cached", true), 0, hash));
                    metrics::counter!("referee_cache_hits_total", "verifier" => entry.id()).increment(1);
                }
                None => {
                    pending.push((position, input, cacheable_input));
                    pending_hashes.push(hash);
                }
            }
        }

        if !pending.is_empty() {
            let mut positions = Vec::with_capacity(pending.len());
            let mut inputs = Vec::with_capacity(pending.len());
            let mut storable = Vec::with_capacity(pending.len());
            for (position, input, cacheable_input) in pending {
                positions.push(position);
                inputs.push(input);
                storable.push(cacheable_input);
            }
            let started = Instant::now();
            let verdicts = run_scorer(&entry.scorer, inputs, budget).await;
            let mut cache_rows = Vec::new();
            let elapsed = started.elapsed();
            let elapsed_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
            metrics::histogram!("referee_verifier_batch_seconds", "verifier" => entry.id())
                .record(elapsed.as_secs_f64());
            for (((position, verdict), hash), cacheable_input) in
                positions.into_iter().zip(verdicts).zip(pending_hashes).zip(storable)
            {
                let verdict = sanitize(verdict);
                if let (Some(p), Some(hash)) = (persistence, &hash)
                    && p.cache
                    && cacheable_input
                    && cacheable(verdict.status)
                {
                    cache_rows.push(CacheRow {
                        verifier: entry.id(),
                        verifier_version: entry.version(),
                        input_hash: hash.clone(),
                        score: verdict.score,
                        status: verdict.status.as_str(),
                        details: Value::Object(verdict.details.clone()).to_string(),
                    });
                }
                done.push((position, verdict, elapsed_us, hash));
            }
            if let Some(p) = persistence {
                p.queue.cache(cache_rows);
            }
        }

        let mut per_status = [0u64; Status::ALL.len()];
        for (_, verdict, _, _) in &done {
            per_status[verdict.status as usize] += 1;
        }
        for (status, count) in Status::ALL.iter().zip(per_status).filter(|(_, count)| *count > 0) {
            metrics::counter!("referee_items_total", "verifier" => entry.id(), "status" => status.as_str())
                .increment(count);
        }
        if let Some(p) = persistence.filter(|p| p.log.mode != LogMode::Off) {
            let (id, replayable) = match request_id {
                RequestKey::Request(id) => (id, false),
                RequestKey::Replayable(id) => (id, true),
            };
            let rows: Vec<LogRow> = done
                .iter()
                .filter(|_| should_log(&p.log))
                .map(|(position, verdict, elapsed_us, hash)| LogRow {
                    request_id: id.to_owned(),
                    row_key: replayable.then(|| format!("{id}/{position}")),
                    item_index: i64::try_from(*position).unwrap_or(i64::MAX),
                    item_hash: hash.clone().unwrap_or_default(),
                    verifier: entry.id(),
                    verifier_version: entry.version(),
                    score: verdict.score,
                    status: verdict.status.as_str(),
                    latency_us: i64::try_from(*elapsed_us).unwrap_or(i64::MAX),
                })
                .collect();
            // Waits (boundedly) when the writer is behind: back-pressure instead of silent loss.
            // Rows of replayable input are written before the caller commits its results, so a
            // kill between the two leaves the input to be scored again, never results without rows.
            if replayable {
                p.queue.log_durably(rows).await;
            } else {
                p.queue.log(rows).await;
            }
        }
        done.into_iter().map(|(position, verdict, elapsed_us, _)| (position, verdict, elapsed_us)).collect()
    }
}

/// A result for an item that never reached a verifier.
fn unscored(status: Status, reason: &str) -> ScoreResult {
    ScoreResult {
        id: None,
        verifier: None,
        score: 0.0,
        status,
        details: Verdict::failure(status, reason).details,
        reward: None,
        elapsed_us: 0,
    }
}

/// Runs a scorer on its inputs, turning an overrun deadline into `timeout` verdicts.
pub(crate) async fn run_scorer(scorer: &Scorer, inputs: Vec<Value>, budget: Budget) -> Vec<Verdict> {
    let count = inputs.len();
    // The scorer sees the deadline itself; this margin covers answering the items it finished.
    let limit = budget.remaining().map(|left| left + Duration::from_millis(50));
    let run = async move {
        match scorer {
            Scorer::Blocking(verifier) => {
                // The blocking pool parks idle threads; a batch large enough to split fans out
                // from there onto the rayon pool (`verify_each`), whose idle threads spin.
                let verifier = Arc::clone(verifier);
                tokio::task::spawn_blocking(move || verifier.verify_json(&inputs, &budget))
                    .await
                    .unwrap_or_else(|_| vec![Verdict::internal_error("verifier thread ended without a verdict"); count])
            }
            Scorer::Async(model) => Arc::clone(model).score_json(inputs, budget).await,
        }
    };
    match limit {
        Some(limit) => tokio::time::timeout(limit, run).await.unwrap_or_else(|_| vec![Verdict::timeout(); count]),
        None => run.await,
    }
}

/// Replaces a verdict whose score is not a finite number: trainers must never see NaN.
fn sanitize(verdict: Verdict) -> Verdict {
    if verdict.score.is_finite() {
        verdict
    } else {
        Verdict::internal_error(format!("scorer returned the non-finite score {}", verdict.score))
    }
}

/// Verdicts that depend only on the input, not on load or the scorer's health.
fn cacheable(status: Status) -> bool {
    match status {
        Status::Correct | Status::Partial | Status::Incorrect | Status::Unparseable => true,
        Status::Timeout | Status::ResourceLimit | Status::InvalidInput | Status::InternalError => false,
    }
}

fn should_log(log: &ScoringLogConfig) -> bool {
    match log.mode {
        LogMode::Off => false,
        LogMode::All => true,
        LogMode::Sampled => rand::random::<f64>() < log.sample_rate,
    }
}

async fn lookup_cache(p: &Persistence, entry: &Entry, hashes: &[String]) -> std::collections::HashMap<String, Verdict> {
    match p.storage.cached(entry.id(), entry.version(), hashes).await {
        Ok(rows) => rows
            .into_iter()
            .filter_map(|(hash, score, status, details)| {
                let status: Status = serde_json::from_value(Value::String(status)).ok()?;
                let details = match serde_json::from_str(&details) {
                    Ok(Value::Object(map)) => map,
                    _ => Map::new(),
                };
                Some((hash, Verdict { score, status, details }))
            })
            .collect(),
        Err(error) => {
            // A cache that cannot be read is a miss, never a failed request.
            metrics::counter!("referee_cache_errors_total").increment(1);
            tracing::warn!(%error, "result cache lookup failed");
            Default::default()
        }
    }
}

/// SHA-256 of the verifier id and the input in a canonical form (object keys sorted), hex.
pub fn input_hash(verifier: &str, input: &Value) -> String {
    let mut hasher = Sha256::new();
    hasher.update(verifier.as_bytes());
    hasher.update([0]);
    feed_canonical(&mut hasher, input);
    hex::encode(hasher.finalize())
}

fn feed_canonical(hasher: &mut Sha256, value: &Value) {
    match value {
        Value::Null => hasher.update(b"n"),
        Value::Bool(b) => hasher.update(if *b { b"t" } else { b"f" }),
        Value::Number(n) => {
            hasher.update(b"#");
            hasher.update(n.to_string().as_bytes());
            hasher.update(b";");
        }
        Value::String(s) => feed_string(hasher, s),
        Value::Array(items) => {
            hasher.update(b"[");
            for item in items {
                feed_canonical(hasher, item);
            }
            hasher.update(b"]");
        }
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            hasher.update(b"{");
            for key in keys {
                feed_string(hasher, key);
                feed_canonical(hasher, &fields[key]);
            }
            hasher.update(b"}");
        }
    }
}

fn feed_string(hasher: &mut Sha256, s: &str) {
    hasher.update(b"\"");
    hasher.update((s.len() as u64).to_le_bytes());
    hasher.update(s.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hash_ignores_key_order_but_not_content() {
        let a = json!({"response": "x", "reference": "y", "opts": {"a": 1, "b": [1, 2]}});
        let b = json!({"opts": {"b": [1, 2], "a": 1}, "reference": "y", "response": "x"});
        assert_eq!(input_hash("exact-match", &a), input_hash("exact-match", &b));
        assert_ne!(input_hash("exact-match", &a), input_hash("regex-match", &a));
        let c = json!({"response": "x", "reference": "y", "opts": {"a": 1, "b": [2, 1]}});
        assert_ne!(input_hash("exact-match", &a), input_hash("exact-match", &c));
        assert_ne!(input_hash("v", &json!(["ab", "c"])), input_hash("v", &json!(["a", "bc"])));
    }

    /// A reward model of one slot: `admit` refuses while the slot is taken.
    struct OneSlot(Arc<tokio::sync::Semaphore>);

    #[derive(serde::Deserialize, ToSchema)]
    struct SlotInput {
        #[allow(dead_code)]
        response: String,
    }

    impl referee_core::RewardModel for OneSlot {
        type Input = SlotInput;

        fn description(&self) -> referee_core::Description {
            referee_core::Description { id: "one-slot", version: "1", summary: "Correct, one item at a time." }
        }

        async fn score_batch(&self, inputs: Vec<SlotInput>, _: Budget) -> Vec<Verdict> {
            inputs.iter().map(|_| Verdict::correct()).collect()
        }

        fn admit(&self, _: usize) -> Result<Admission, Busy> {
            Arc::clone(&self.0).try_acquire_owned().map(Admission::holding).map_err(|_| Busy {
                status: referee_core::BusyStatus::TooManyRequests,
                retry_after_secs: 1,
                message: "the slot is taken".to_owned(),
            })
        }
    }

    fn one_slot() -> (Engine, Arc<tokio::sync::Semaphore>) {
        let slot = Arc::new(tokio::sync::Semaphore::new(1));
        let registry = Registry::new(vec![Scorer::reward_model(OneSlot(Arc::clone(&slot)))]);
        (Engine::new(Arc::new(registry)), slot)
    }

    fn slot_items() -> Vec<Value> {
        vec![json!({"input": {"response": "x"}})]
    }

    #[tokio::test]
    async fn waiting_admission_refuses_with_503_at_its_deadline() {
        let (engine, slot) = one_slot();
        let taken = Arc::clone(&slot).try_acquire_owned().unwrap_or_else(|e| panic!("{e}"));
        let shape = ItemShape::For("one-slot");
        let refused = engine.try_score(slot_items(), shape, Correction::None, Budget::unlimited(), "").await;
        assert_eq!(refused.map_err(|b| b.status), Err(referee_core::BusyStatus::TooManyRequests));
        let until = Instant::now() + Duration::from_millis(30);
        let waited = engine.score_waiting(slot_items(), shape, Correction::None, Budget::unlimited(), "", until).await;
        let busy = waited.err().unwrap_or_else(|| panic!("admitted while the slot was taken"));
        assert_eq!(busy.status, referee_core::BusyStatus::Unavailable);
        assert!(busy.message.contains("request deadline"), "{}", busy.message);
        drop(taken);
    }

    #[tokio::test]
    async fn waiting_admission_scores_once_there_is_room() {
        let (engine, slot) = one_slot();
        let taken = Arc::clone(&slot).try_acquire_owned().unwrap_or_else(|e| panic!("{e}"));
        let engine = Arc::new(engine);
        let waiter = {
            let engine = Arc::clone(&engine);
            tokio::spawn(async move {
                let until = Instant::now() + Duration::from_secs(600);
                let shape = ItemShape::For("one-slot");
                engine.score_waiting(slot_items(), shape, Correction::None, Budget::unlimited(), "", until).await
            })
        };
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiter.is_finished(), "the waiter was answered while the slot was taken");
        drop(taken);
        let results = waiter.await.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|busy| panic!("{busy}"));
        assert_eq!(results.iter().map(|r| r.status).collect::<Vec<_>>(), [Status::Correct]);
        assert_eq!(slot.available_permits(), 1, "the admission was released after scoring");
    }

    #[tokio::test]
    async fn batches_keep_order_and_isolate_bad_items() {
        let engine = Engine::new(Arc::new(Registry::builtin()));
        let items = vec![
            json!({"id": "a", "verifier": "exact-match", "input": {"response": "4", "reference": "4"}}),
            json!({"id": "b", "verifier": "nope", "input": {}}),
            json!("not an object"),
            json!({"id": "d", "verifier": "regex-match", "input": {"response": "abc", "pattern": "b"}}),
            json!({"id": "e", "verifier": "exact-match", "input": {"response": "4"}}),
            json!({"id": "f", "verifier": "exact-match", "input": {"response": "5", "reference": "4"}, "extra": 1}),
            json!({"id": "g", "verifier": "exact-match", "input": {"response": "5", "reference": "4"}}),
        ];
        let results = engine.score(items, ItemShape::Named, Correction::None, Budget::unlimited(), "t").await;
        let statuses: Vec<Status> = results.iter().map(|r| r.status).collect();
        assert_eq!(
            statuses,
            [
                Status::Correct,
                Status::InvalidInput,
                Status::InvalidInput,
                Status::Correct,
                Status::InvalidInput,
                Status::InvalidInput,
                Status::Incorrect
            ]
        );
        let ids: Vec<Option<&str>> = results.iter().map(|r| r.id.as_deref()).collect();
        assert_eq!(ids, [Some("a"), Some("b"), None, Some("d"), Some("e"), Some("f"), Some("g")]);
        assert!(results[1].details["error"].as_str().is_some_and(|e| e.contains("nope")));
    }

    #[tokio::test]
    async fn an_expired_budget_times_items_out() {
        let engine = Engine::new(Arc::new(Registry::builtin()));
        let items: Vec<Value> = (0..40)
            .map(|i| json!({"verifier": "exact-match", "input": {"response": i.to_string(), "reference": "1"}}))
            .collect();
        let results =
            engine.score(items, ItemShape::Named, Correction::None, Budget::with_timeout(Duration::ZERO), "t").await;
        assert!(results.iter().all(|r| r.status == Status::Timeout), "{results:?}");
    }
}
