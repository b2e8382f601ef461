//! One verifier's items of a request, scored as one batch, with the result cache and the scoring
//! log as layers around the scorer: the cache answers what it holds, the scorer judges the rest
//! under the deadline, the cache keeps what is new, and the log records every verdict.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use referee_core::{Budget, Scorer, Status, Verdict};
use serde_json::{Map, Value};

use super::hash::input_hash;
use super::{Persistence, RequestKey};
use crate::registry::Entry;
use crate::store::settings::{LogMode, ScoringLogConfig};
use crate::store::{CacheRow, LogRow};

/// One item of a batch: where it goes in the response, and what became of it.
struct Item {
    position: usize,
    /// Taken when the item goes to the scorer.
    input: Option<Value>,
    /// The input's hash, when the cache or the log needs it.
    hash: Option<String>,
    /// Whether the verdict depends on the input alone (a stored rubric named without a version
    /// does not), so that the cache may answer and keep it.
    cacheable: bool,
    verdict: Option<Verdict>,
    /// True when the verdict came from the cache.
    cached: bool,
    elapsed_us: u64,
}

/// One verifier's items of a request.
pub(super) struct Batch<'a> {
    entry: &'a Entry,
    items: Vec<Item>,
}

impl<'a> Batch<'a> {
    /// The items `(position, input)` of `entry`; inputs are hashed when `hashed`.
    pub(super) fn new(entry: &'a Entry, group: Vec<(usize, Value)>, hashed: bool) -> Batch<'a> {
        let items = group
            .into_iter()
            .map(|(position, input)| Item {
                position,
                hash: hashed.then(|| input_hash(entry.id(), &input)),
                input: Some(input),
                cacheable: false,
                verdict: None,
                cached: false,
                elapsed_us: 0,
            })
            .collect();
        Batch { entry, items }
    }

    /// Scores the items nothing answered yet, as one call of the scorer.
    pub(super) async fn score_pending(&mut self, budget: Budget) {
        let pending: Vec<usize> = (0..self.items.len()).filter(|&i| self.items[i].verdict.is_none()).collect();
        if pending.is_empty() {
            return;
        }
        let inputs: Vec<Value> = pending.iter().map(|&i| self.items[i].input.take().unwrap_or(Value::Null)).collect();
        let started = Instant::now();
        let verdicts = run_scorer(&self.entry.scorer, inputs, budget).await;
        let elapsed = started.elapsed();
        metrics::histogram!("referee_verifier_batch_seconds", "verifier" => self.entry.id())
            .record(elapsed.as_secs_f64());
        let elapsed_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        for (i, verdict) in pending.into_iter().zip(verdicts) {
            let item = &mut self.items[i];
            item.verdict = Some(sanitize(verdict));
            item.elapsed_us = elapsed_us;
        }
    }

    /// Counts the verdicts by status in `referee_items_total`.
    pub(super) fn count(&self) {
        let mut per_status = [0u64; Status::ALL.len()];
        for verdict in self.items.iter().filter_map(|item| item.verdict.as_ref()) {
            per_status[verdict.status as usize] += 1;
        }
        for (status, count) in Status::ALL.iter().zip(per_status).filter(|(_, count)| *count > 0) {
            metrics::counter!("referee_items_total", "verifier" => self.entry.id(), "status" => status.as_str())
                .increment(count);
        }
    }

    /// `(position, verdict, elapsed_us)` of every item.
    pub(super) fn into_verdicts(self) -> Vec<(usize, Verdict, u64)> {
        self.items
            .into_iter()
            .map(|item| {
                let verdict = item.verdict.unwrap_or_else(|| Verdict::internal_error("the item was not scored"));
                (item.position, verdict, item.elapsed_us)
            })
            .collect()
    }
}

/// The result cache, keyed by (verifier id, version, input hash).
pub(super) struct ResultCache<'p>(pub(super) &'p Persistence);

impl ResultCache<'_> {
    /// Answers the items whose verdict the cache holds.
    pub(super) async fn answer(&self, batch: &mut Batch<'_>) {
        let entry = batch.entry;
        for item in &mut batch.items {
            item.cacheable = item.input.as_ref().is_some_and(|input| entry.scorer.result_cacheable(input));
        }
        let lookup: Vec<String> =
            batch.items.iter().filter(|item| item.cacheable).filter_map(|item| item.hash.clone()).collect();
        if lookup.is_empty() {
            return;
        }
        let cached = lookup_cache(self.0, entry, &lookup).await;
        for item in batch.items.iter_mut().filter(|item| item.cacheable) {
            if let Some(verdict) = item.hash.as_ref().and_then(|hash| cached.get(hash)) {
                item.verdict = Some(verdict.clone().with("cached", true));
                item.cached = true;
                metrics::counter!("referee_cache_hits_total", "verifier" => entry.id()).increment(1);
            }
        }
    }

    /// Keeps the new verdicts that depend on their input alone.
    pub(super) fn keep(&self, batch: &Batch<'_>) {
        let entry = batch.entry;
        let rows: Vec<CacheRow> = batch
            .items
            .iter()
            .filter(|item| item.cacheable && !item.cached)
            .filter_map(|item| {
                let verdict = item.verdict.as_ref().filter(|verdict| cacheable(verdict.status))?;
                Some(CacheRow {
                    verifier: entry.id(),
                    verifier_version: entry.version(),
                    input_hash: item.hash.clone()?,
                    score: verdict.score,
                    status: verdict.status.as_str(),
                    details: Value::Object(verdict.details.clone()).to_string(),
                })
            })
            .collect();
        if !rows.is_empty() {
            self.0.queue.cache(rows);
        }
    }
}

/// The scoring log: a row per scored item (or a sample of them).
pub(super) struct ScoringLog<'p> {
    pub(super) persistence: &'p Persistence,
    pub(super) request: RequestKey<'p>,
}

impl ScoringLog<'_> {
    /// Writes the batch's rows. Waits (boundedly) when the writer is behind: back-pressure
    /// instead of silent loss. Rows of replayable input are written before the caller commits
    /// its results, so a kill between the two leaves the input to be scored again, never results
    /// without rows.
    pub(super) async fn record(&self, batch: &Batch<'_>) {
        let p = self.persistence;
        let (id, replayable) = match self.request {
            RequestKey::Request(id) => (id, false),
            RequestKey::Replayable(id) => (id, true),
        };
        let rows: Vec<LogRow> = batch
            .items
            .iter()
            .filter(|_| should_log(&p.log))
            .filter_map(|item| {
                let verdict = item.verdict.as_ref()?;
                Some(LogRow {
                    request_id: id.to_owned(),
                    row_key: replayable.then(|| format!("{id}/{}", item.position)),
                    item_index: i64::try_from(item.position).unwrap_or(i64::MAX),
                    item_hash: item.hash.clone().unwrap_or_default(),
                    verifier: batch.entry.id(),
                    verifier_version: batch.entry.version(),
                    score: verdict.score,
                    status: verdict.status.as_str(),
                    latency_us: i64::try_from(item.elapsed_us).unwrap_or(i64::MAX),
                })
            })
            .collect();
        if replayable {
            p.queue.log_durably(rows).await;
        } else {
            p.queue.log(rows).await;
        }
    }
}

/// Runs a scorer on its inputs, turning an overrun deadline into `timeout` verdicts.
///
/// A verifier's blocking work takes a share of the request's reservation
/// ([`hold_while_working`](super::hold_while_working)), so that room answered at the deadline
/// is given back only once the work has actually stopped.
pub async fn run_scorer(scorer: &Scorer, inputs: Vec<Value>, budget: Budget) -> Vec<Verdict> {
    let count = inputs.len();
    let held = super::hold::share();
    // The scorer sees the deadline itself; this margin covers answering the items it finished.
    let limit = budget.remaining().map(|left| left + Duration::from_millis(50));
    let run = async move {
        match scorer {
            Scorer::Blocking(verifier) => {
                // The blocking pool parks idle threads; a batch large enough to split fans out
                // from there onto the rayon pool (`verify_each`), whose idle threads spin.
                let verifier = Arc::clone(verifier);
                tokio::task::spawn_blocking(move || {
                    let _held = held;
                    referee_core::threads::mark_scoring_thread();
                    verifier.verify_json(&inputs, &budget)
                })
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

async fn lookup_cache(p: &Persistence, entry: &Entry, hashes: &[String]) -> HashMap<String, Verdict> {
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
