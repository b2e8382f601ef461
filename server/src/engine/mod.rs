//! The scoring engine: reads each item's envelope, groups a request's items by scorer, admits
//! the groups ([`admission`]), runs each as one batch with the result cache and the scoring log
//! around the scorer ([`batch`]), enforces the deadline, puts the verdicts back in item order,
//! and lets the hooks ([`hooks`]) finish the request. The HTTP handlers, jobs and
//! `referee score` all call it.

mod admission;
mod batch;
mod envelope;
mod hash;
mod hold;
pub mod hooks;
mod result;

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use futures::future::join_all;
use referee_core::{Budget, Busy, Status, Verdict};
use serde_json::Value;

use self::admission::{Admit, Refuse, Wait, WaitUntil};
pub use self::batch::run_scorer;
use self::batch::{Batch, ResultCache, ScoringLog};
use self::envelope::Envelope;
pub use self::envelope::{ItemShape, MAX_TAG_BYTES, apply_run_defaults, run_tag};
pub use self::hash::input_hash;
pub use self::hold::hold_while_working;
pub use self::hooks::{Correction, Observed, RequestHook, RunTag, ScoringHook};
use self::result::unscored;
pub use self::result::{ScoreResult, SharedJson};
use crate::registry::{Entry, Registry};
use crate::store::settings::{LogMode, ScoringLogConfig};
use crate::store::{Storage, WriteQueue};

/// Where verdicts go after scoring, when a database is configured.
#[derive(Debug, Clone)]
pub struct Persistence {
    pub storage: Storage,
    pub queue: WriteQueue,
    pub log: ScoringLogConfig,
    pub cache: bool,
}

impl Persistence {
    /// Whether inputs are hashed: the cache and the log key rows by the hash.
    fn hashes(&self) -> bool {
        self.cache || self.log.mode != LogMode::Off
    }
}

/// Scores batches of items through the registry.
#[derive(Debug, Clone)]
pub struct Engine {
    registry: Arc<Registry>,
    /// Set once the database is open; until then nothing is logged or cached.
    persistence: OnceLock<Persistence>,
    /// Set once the features that work on verdicts have started (the noise layer loads its
    /// models from the database); until then no verdict is corrected or appealed.
    hooks: OnceLock<Vec<Arc<dyn ScoringHook>>>,
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

impl Engine {
    /// An engine over `registry` that persists nothing until [`Engine::attach`].
    pub fn new(registry: Arc<Registry>) -> Engine {
        Engine { registry, persistence: OnceLock::new(), hooks: OnceLock::new(), waiting_line: Arc::default() }
    }

    /// Starts logging and caching through `persistence`; only the first call has an effect.
    pub fn attach(&self, persistence: Persistence) {
        let _ = self.persistence.set(persistence);
    }

    /// Runs `hooks` around every request from now on, in this order; only the first call has
    /// an effect (the server attaches every feature's hook at once, when they have started).
    pub fn attach_hooks(&self, hooks: Vec<Arc<dyn ScoringHook>>) {
        let _ = self.hooks.set(hooks);
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
    /// noise model get `details.reward` (through the hooks), and `correction` says whether it
    /// replaces `score`.
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
        let mut hooks: Vec<Box<dyn RequestHook>> =
            self.hooks.get().into_iter().flatten().filter_map(|hook| Arc::clone(hook).begin()).collect();
        let labels: Vec<Option<String>> =
            if hooks.is_empty() { Vec::new() } else { envelopes.iter().map(|e| e.label.clone()).collect() };
        let mut run_tags: Vec<Option<RunTag>> = Vec::with_capacity(if hooks.is_empty() { 0 } else { envelopes.len() });
        let mut results: Vec<Option<ScoreResult>> = vec![None; envelopes.len()];
        let mut groups: Vec<Vec<(usize, Value)>> = vec![Vec::new(); self.registry.entries().len()];
        let mut names: Vec<(Option<String>, Option<String>)> = Vec::with_capacity(envelopes.len());
        for (position, envelope) in envelopes.into_iter().enumerate() {
            match envelope.target {
                Ok((index, input)) => {
                    let verifier = self.registry.at(index).id();
                    for hook in &mut hooks {
                        hook.observe(Observed {
                            position,
                            verifier,
                            label: envelope.label.as_deref(),
                            run: envelope.run.as_ref(),
                            input: &input,
                        });
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
            if !hooks.is_empty() {
                run_tags.push(envelope.run);
            }
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
        for hook in hooks {
            hook.finish(&mut results, &labels, &run_tags, correction, budget).await;
        }
        Ok(results)
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
    /// Scores one verifier's items as a batch: the cache answers what it holds, the scorer the
    /// rest under the deadline, and the log records every verdict.
    async fn run_group(
        &self,
        entry: &Entry,
        group: Vec<(usize, Value)>,
        budget: Budget,
        request_id: RequestKey<'_>,
    ) -> Vec<(usize, Verdict, u64)> {
        let persistence = self.persistence.get();
        let mut batch = Batch::new(entry, group, persistence.is_some_and(Persistence::hashes));
        let cache = persistence.filter(|p| p.cache).map(ResultCache);
        if let Some(cache) = &cache {
            cache.answer(&mut batch).await;
        }
        batch.score_pending(budget).await;
        if let Some(cache) = &cache {
            cache.keep(&batch);
        }
        batch.count();
        if let Some(persistence) = persistence.filter(|p| p.log.mode != LogMode::Off) {
            ScoringLog { persistence, request: request_id }.record(&batch).await;
        }
        batch.into_verdicts()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use referee_core::{Admission, Scorer};
    use serde_json::json;
    use utoipa::ToSchema;

    use super::*;

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
