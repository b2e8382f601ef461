//! The noisy-reward layer: per-verifier noise models from configured rates, audits and
//! appeals; the correction of every binary verdict that has one; and the background appeals
//! that re-check a sample of verdicts with a stronger checker.
//!
//! The request path reads an immutable [`Snapshot`] of the compiled models and adds to
//! in-memory tallies. A maintenance task writes the tallies to the database and re-reads every
//! model from it at `noise.refresh_interval_ms`, so replicas sharing one database converge.

mod appeals;
mod compile;
pub(crate) mod handlers;
mod hook;
mod models;
pub mod settings;
mod store;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;
use referee_core::Budget;
use referee_noise::{
    AppealRates, CorrectionPolicy, CountWindow, MonteCarlo, NoiseModel, NoiseSource, VerdictTally, binary_verdict,
};
use serde_json::{Map, Value};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

pub use self::models::{AppealSettings, AuditUpload, NoiseKey, NoiseList, NoiseSettings, NoiseStatus, SourceModel};
use self::settings::NoiseConfig;
pub use crate::engine::Correction;
use crate::engine::{ScoreResult, SharedJson};
use crate::registry::Registry;
use crate::store::Storage;
pub use appeals::AppealTask;
use appeals::record_appeal;
use store::Stored as StoredRows;
pub use store::{NoiseStore, Overturn, OverturnList, TallyKind};

/// A noise model compiled for the request path.
#[derive(Debug)]
pub struct Compiled {
    key: NoiseKey,
    status: NoiseStatus,
    /// `details.reward` for a verdict 0 and a verdict 1, when a model is in use, serialised
    /// once here rather than for every item.
    rewards: Option<[SharedJson; 2]>,
    /// The backward-corrected reward of a verdict 0 and 1, when the model allows correcting.
    backward: [Option<f64>; 2],
    appeal: Option<CompiledAppeal>,
    /// The step whose bucket new counts go to.
    step: u64,
}

#[derive(Debug)]
struct CompiledAppeal {
    /// The checker's registry position.
    checker: usize,
    patch: Option<Value>,
    rates: AppealRates,
    overturn: bool,
}

impl CompiledAppeal {
    fn rate(&self, verdict: bool) -> f64 {
        if verdict { self.rates.positives } else { self.rates.negatives }
    }

    fn max_rate(&self) -> f64 {
        self.rates.positives.max(self.rates.negatives)
    }
}

/// The compiled models by verifier and label.
#[derive(Debug, Default)]
pub struct Snapshot {
    models: HashMap<String, HashMap<String, Arc<Compiled>>>,
}

impl Snapshot {
    /// True when no verifier has a noise model or appeals: scoring can skip the layer.
    pub fn is_empty(&self) -> bool {
        self.models.is_empty()
    }

    /// The model for an item: its label's, else the verifier-wide one.
    fn lookup(&self, verifier: &str, label: Option<&str>) -> Option<&Arc<Compiled>> {
        let labels = self.models.get(verifier)?;
        label.and_then(|l| labels.get(l)).or_else(|| labels.get(""))
    }

    fn exact(&self, key: &NoiseKey) -> Option<&Arc<Compiled>> {
        self.models.get(&key.verifier)?.get(&key.label)
    }
}

/// An item chosen as an appeal candidate before scoring: its uniform draw and its input.
#[derive(Debug)]
pub struct Candidate {
    draw: f64,
    input: Value,
}

/// Counts and overturns not yet written to the database.
#[derive(Debug, Default)]
struct Pending {
    /// Appeal counts by model and step.
    tallies: HashMap<(NoiseKey, u64), VerdictTally>,
    overturns: Vec<store::OverturnRow>,
    /// Appeals whose outcome is in `tallies` (or that were undecided).
    appealed: u64,
}

/// What the database holds for one model, as `reload` gathers it.
#[derive(Debug, Default)]
struct Stored {
    settings: Option<NoiseSettings>,
    step: u64,
    audit: Vec<(u64, VerdictTally)>,
    appeal: Vec<(u64, VerdictTally)>,
}

/// An appeal model with the tally and fixed ρ0 it was computed from.
type AppealModel = (VerdictTally, Option<u64>, Result<NoiseModel, String>);

/// The noisy-reward layer of one server.
#[derive(Debug)]
pub struct NoiseLayer {
    store: NoiseStore,
    registry: Arc<Registry>,
    config: NoiseConfig,
    policy: CorrectionPolicy,
    snapshot: RwLock<Arc<Snapshot>>,
    pending: Mutex<Pending>,
    appeals: mpsc::Sender<AppealTask>,
    /// Appeal models by key with the tally they were computed from: the Monte Carlo runs
    /// again only when the tally changed.
    appeal_models: Mutex<HashMap<NoiseKey, AppealModel>>,
    /// Serialises reloads, so that a slower one never replaces a newer snapshot.
    reloading: tokio::sync::Mutex<()>,
    /// The seeded source of appeal draws, when `noise.appeal_seed` is set.
    seeded: Option<Mutex<ChaCha8Rng>>,
    /// Appeals queued whose outcome is not yet in the snapshot.
    outstanding: AtomicU64,
}

/// The background tasks of the layer.
#[derive(Debug)]
pub struct NoiseTasks {
    stop: oneshot::Sender<()>,
    maintenance: JoinHandle<()>,
    appeals: JoinHandle<()>,
}

/// What can go wrong changing a noise model.
#[derive(Debug, thiserror::Error)]
pub enum NoiseSettingsError {
    #[error("{0}")]
    Invalid(String),
    #[error("noise storage: {0}")]
    Storage(#[from] sqlx::Error),
}

impl NoiseLayer {
    /// Opens the layer over `storage`, loads every model, and starts the appeal runner and the
    /// maintenance task.
    pub async fn start(
        storage: Storage,
        registry: Arc<Registry>,
        config: &NoiseConfig,
    ) -> Result<(Arc<NoiseLayer>, NoiseTasks), sqlx::Error> {
        let (appeals, queue) = mpsc::channel(config.appeal_queue);
        let layer = Arc::new(NoiseLayer {
            store: NoiseStore::new(storage),
            registry,
            config: config.clone(),
            policy: CorrectionPolicy { j_floor: config.j_floor },
            snapshot: RwLock::new(Arc::new(Snapshot::default())),
            pending: Mutex::new(Pending::default()),
            appeals,
            appeal_models: Mutex::new(HashMap::new()),
            reloading: tokio::sync::Mutex::new(()),
            seeded: config.appeal_seed.map(|seed| Mutex::new(ChaCha8Rng::seed_from_u64(seed))),
            outstanding: AtomicU64::new(0),
        });
        layer.reload().await?;
        let (stop, stopped) = oneshot::channel();
        let maintenance = tokio::spawn(appeals::maintain(Arc::clone(&layer), stopped));
        let appeals = tokio::spawn(appeals::run(Arc::clone(&layer), queue));
        Ok((layer, NoiseTasks { stop, maintenance, appeals }))
    }

    /// The models in force now.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        Arc::clone(&self.snapshot.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The key of a verifier's model for this server's version of it.
    pub fn key(&self, verifier: &str, label: Option<&str>) -> Option<NoiseKey> {
        let entry = self.registry.get(verifier)?;
        Some(NoiseKey {
            verifier: entry.id().to_owned(),
            version: entry.version().to_owned(),
            label: label.unwrap_or_default().to_owned(),
        })
    }

    /// The state of one noise model (an empty one when nothing was set or counted).
    pub fn status(&self, key: &NoiseKey) -> NoiseStatus {
        match self.snapshot().exact(key) {
            Some(compiled) => compiled.status.clone(),
            None => self.compile(key.clone(), None, VerdictTally::default(), VerdictTally::default(), 0).status,
        }
    }

    /// Every noise model, ordered by verifier and label.
    pub fn list(&self) -> NoiseList {
        let snapshot = self.snapshot();
        let mut models: Vec<NoiseStatus> =
            snapshot.models.values().flat_map(|labels| labels.values().map(|c| c.status.clone())).collect();
        models.sort_by(|a, b| (&a.verifier, &a.label).cmp(&(&b.verifier, &b.label)));
        NoiseList { models, appeals_outstanding: self.outstanding.load(Ordering::SeqCst) }
    }

    /// The model in use for a verifier and label (falling back to the verifier-wide one).
    pub fn model_for(&self, verifier: &str, label: Option<&str>) -> Option<NoiseModel> {
        self.snapshot().lookup(verifier, label).and_then(|c| c.status.model)
    }

    /// The floor on J's lower bound.
    pub fn policy(&self) -> &CorrectionPolicy {
        &self.policy
    }

    /// Replaces what was set by hand for a model.
    pub async fn put_settings(
        &self,
        key: &NoiseKey,
        settings: NoiseSettings,
    ) -> Result<NoiseStatus, NoiseSettingsError> {
        self.validate(key, &settings)?;
        self.store.put_settings(key, &settings).await?;
        self.reload().await?;
        Ok(self.status(key))
    }

    /// Forgets a model: its settings, tallies and overturns.
    pub async fn delete(&self, key: &NoiseKey) -> Result<(), sqlx::Error> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner).tallies.retain(|(pending, _), _| pending != key);
        self.store.delete(key).await?;
        self.reload().await
    }

    /// Adds gold-labelled verdicts to a model's audit tally (or replaces it).
    pub async fn audit(&self, key: &NoiseKey, upload: &AuditUpload) -> Result<NoiseStatus, NoiseSettingsError> {
        if upload.labels.is_empty() {
            return Err(NoiseSettingsError::Invalid("`labels` is empty".to_owned()));
        }
        let tally = VerdictTally::from_gold_labels(&upload.labels);
        self.store.add_tally(key, TallyKind::Audit, &tally, upload.replace).await?;
        self.reload().await?;
        Ok(self.status(key))
    }

    /// Moves a model's current step forward to `step` (a smaller one changes nothing).
    pub async fn advance_step(&self, key: &NoiseKey, step: u64) -> Result<NoiseStatus, sqlx::Error> {
        self.store.advance_step(key, step).await?;
        self.reload().await?;
        Ok(self.status(key))
    }

    /// The most recent overturns of a model, newest first.
    pub async fn overturns(&self, key: &NoiseKey, limit: u32) -> Result<OverturnList, sqlx::Error> {
        self.store.overturns(key, limit).await
    }

    fn validate(&self, key: &NoiseKey, settings: &NoiseSettings) -> Result<(), NoiseSettingsError> {
        let invalid = |message: String| Err(NoiseSettingsError::Invalid(message));
        if let Some(rates) = settings.configured
            && let Err(error) = NoiseModel::configured(rates)
        {
            return invalid(format!("configured: {error}"));
        }
        if let Some(window) = settings.window
            && let Err(error) = window.validate()
        {
            return invalid(format!("window: {error}"));
        }
        if let Some(appeal) = &settings.appeal {
            if let Err(error) = appeal.rates.validate() {
                return invalid(format!("appeal.rates: {error}"));
            }
            match appeal.fixed_rho0 {
                Some(rho0) if !(0.0..1.0).contains(&rho0) => {
                    return invalid(format!("appeal.fixed_rho0: {rho0} is not a rate in [0, 1)"));
                }
                None if appeal.rates.positives == 0.0 => {
                    return invalid(
                        "appeal: with `rates.positives` 0 no verdict 1 is re-checked, so ρ0 cannot be estimated; set \
                         `fixed_rho0` (0 when the verifier never passes a wrong answer) to estimate ρ1 alone"
                            .to_owned(),
                    );
                }
                _ => {}
            }
            if self.registry.get(&appeal.checker).is_none() {
                return invalid(format!(
                    "appeal.checker: no verifier is registered as `{}`; GET /v1/verifiers lists them",
                    appeal.checker
                ));
            }
            match &appeal.input_patch {
                None if appeal.checker == key.verifier => {
                    return invalid(
                        "appeal: the checker is the verifier itself with the same input, so it would repeat every \
                         verdict; give an `input_patch` or another checker"
                            .to_owned(),
                    );
                }
                Some(patch) if !patch.is_object() => {
                    return invalid("appeal.input_patch must be a JSON object".to_owned());
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Re-reads every model from the database and swaps in the new snapshot.
    pub async fn reload(&self) -> Result<(), sqlx::Error> {
        let _guard = self.reloading.lock().await;
        let stored: StoredRows = self.store.load().await?;
        let mut keys: HashMap<NoiseKey, Stored> = HashMap::new();
        for (key, value) in stored.settings {
            keys.entry(key).or_default().settings = Some(value);
        }
        for (key, step) in stored.steps {
            keys.entry(key).or_default().step = step;
        }
        for (key, kind, step, tally) in stored.counts {
            let entry = keys.entry(key).or_default();
            match kind {
                TallyKind::Audit => entry.audit.push((step, tally)),
                TallyKind::Appeal => entry.appeal.push((step, tally)),
            }
        }
        let mut snapshot = Snapshot::default();
        for (key, stored) in keys {
            // Models of other versions of a verifier stay in the database but do not apply.
            if self.registry.get(&key.verifier).is_none_or(|e| e.version() != key.version) {
                continue;
            }
            let window = stored.settings.as_ref().and_then(|s| s.window).unwrap_or(CountWindow::All);
            let combine = |buckets: &[(u64, VerdictTally)]| {
                window.combine(buckets.iter().map(|(step, tally)| (*step, tally)), stored.step)
            };
            let (audit, appeal) = (combine(&stored.audit), combine(&stored.appeal));
            let compiled = self.compile(key, stored.settings, audit, appeal, stored.step);
            snapshot
                .models
                .entry(compiled.key.verifier.clone())
                .or_default()
                .insert(compiled.key.label.clone(), Arc::new(compiled));
        }
        *self.snapshot.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(snapshot);
        Ok(())
    }

    /// Draws, before scoring, whether an item may be appealed, and keeps its input if so. The
    /// draw is compared with its verdict class's rate once the verdict is known, so the
    /// re-checked verdicts are a uniform sample within each class.
    pub fn candidate(
        &self,
        snapshot: &Snapshot,
        verifier: &str,
        label: Option<&str>,
        input: &Value,
    ) -> Option<Candidate> {
        let appeal = snapshot.lookup(verifier, label)?.appeal.as_ref()?;
        let draw: f64 = match &self.seeded {
            Some(rng) => rng.lock().unwrap_or_else(PoisonError::into_inner).random(),
            None => rand::random(),
        };
        (draw < appeal.max_rate()).then(|| Candidate { draw, input: input.clone() })
    }

    /// Adds `details.reward` to every binary verdict with a noise model (replacing `score`
    /// with the backward reward when asked), counts the verdicts of appealed verifiers, and
    /// queues the sampled ones for their appeal; sampled ones whose appeal overturns are
    /// re-checked now, within `budget`, and answered with the checker's verdict.
    pub async fn after_scoring(
        &self,
        snapshot: &Snapshot,
        results: &mut [ScoreResult],
        labels: &[Option<String>],
        mut candidates: Vec<Option<Candidate>>,
        correction: Correction,
        budget: Budget,
    ) {
        let mut counts: HashMap<(&NoiseKey, u64), VerdictTally> = HashMap::new();
        let mut tasks = Vec::new();
        let mut inline = Vec::new();
        for (position, result) in results.iter_mut().enumerate() {
            let Some(verdict) = binary_verdict(result.status) else { continue };
            let Some(verifier) = result.verifier.as_deref() else { continue };
            let label = labels.get(position).and_then(Option::as_deref);
            let Some(compiled) = snapshot.lookup(verifier, label) else { continue };
            let class = usize::from(verdict);
            if let Some(rewards) = &compiled.rewards {
                result.reward = Some(rewards[class].clone());
                if let (Correction::Backward, Some(backward)) = (correction, compiled.backward[class]) {
                    result.score = backward;
                }
            }
            let Some(appeal) = &compiled.appeal else { continue };
            counts.entry((&compiled.key, compiled.step)).or_default().observe(verdict);
            if let Some(candidate) = candidates.get_mut(position).and_then(Option::take)
                && candidate.draw < appeal.rate(verdict)
            {
                let task = AppealTask {
                    compiled: Arc::clone(compiled),
                    verdict,
                    item_id: result.id.clone(),
                    verdict_status: result.status,
                    verdict_score: result.score,
                    input: candidate.input,
                };
                if appeal.overturn {
                    inline.push((position, task));
                } else {
                    tasks.push(task);
                }
            }
        }
        if !counts.is_empty() {
            let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
            for ((key, step), tally) in counts {
                pending.tallies.entry((key.clone(), step)).or_default().merge(&tally);
            }
        }
        for task in tasks {
            let verifier = task.compiled.key.verifier.clone();
            if self.appeals.try_send(task).is_ok() {
                self.outstanding.fetch_add(1, Ordering::SeqCst);
                metrics::counter!("referee_noise_appeals_queued_total", "verifier" => verifier).increment(1);
            } else {
                metrics::counter!("referee_noise_appeals_dropped_total", "verifier" => verifier).increment(1);
            }
        }
        if !inline.is_empty() {
            self.appeal_now(results, inline, budget).await;
        }
    }

    /// Records the checker's verdicts on appealed items.
    fn record_appeals(&self, checker: &str, tasks: Vec<AppealTask>, verdicts: Vec<referee_core::Verdict>) {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        pending.appealed += tasks.len() as u64;
        for (task, verdict) in tasks.into_iter().zip(verdicts) {
            record_appeal(&mut pending, checker, task, verdict);
        }
    }

    /// Writes pending tallies and overturns, and returns how many appeals they settled. On
    /// failure they are kept for the next attempt.
    async fn flush(&self) -> u64 {
        let Pending { tallies, overturns, appealed } =
            std::mem::take(&mut *self.pending.lock().unwrap_or_else(PoisonError::into_inner));
        if tallies.is_empty() && overturns.is_empty() {
            return appealed;
        }
        // One transaction: on failure nothing was written, and everything is kept for the next
        // attempt without counting anything twice.
        if let Err(error) = self.store.write_pending(&tallies, &overturns, self.config.overturns_kept).await {
            tracing::warn!(%error, "cannot write noise tallies; keeping them for the next attempt");
            let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
            for (key, tally) in tallies {
                pending.tallies.entry(key).or_default().merge(&tally);
            }
            pending.overturns.extend(overturns);
            pending.appealed += appealed;
            return 0;
        }
        appealed
    }

    /// Marks appeals as settled once their outcome is in the snapshot.
    fn settled(&self, appeals: u64) {
        self.outstanding.fetch_sub(appeals, Ordering::SeqCst);
    }

    fn refresh_interval(&self) -> Duration {
        Duration::from_millis(self.config.refresh_interval_ms)
    }
}

impl NoiseTasks {
    /// Stops the appeal runner, then the maintenance task after a last write of the tallies.
    pub async fn finish(self) {
        // Appeals still queued are samples, not results: they are dropped, and what was
        // recorded so far is written.
        self.appeals.abort();
        let _ = self.appeals.await;
        let _ = self.stop.send(());
        let _ = self.maintenance.await;
    }
}

/// Applies a JSON merge patch (RFC 7396) to `target`.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(fields) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(target) = target {
        for (name, value) in fields {
            if value.is_null() {
                target.remove(name);
            } else {
                merge_patch(target.entry(name.clone()).or_insert(Value::Null), value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_patch_follows_rfc_7396() {
        let mut target = json!({"a": "b", "c": {"d": "e", "f": "g"}});
        merge_patch(&mut target, &json!({"a": "z", "c": {"f": null}}));
        assert_eq!(target, json!({"a": "z", "c": {"d": "e"}}));
        let mut target = json!({"options": {"accept_rounded": false}, "response": "x"});
        merge_patch(&mut target, &json!({"options": {"accept_rounded": true, "percent": "either"}}));
        assert_eq!(target, json!({"options": {"accept_rounded": true, "percent": "either"}, "response": "x"}));
        let mut target = json!([1, 2]);
        merge_patch(&mut target, &json!({"a": 1}));
        assert_eq!(target, json!({"a": 1}));
    }
}
