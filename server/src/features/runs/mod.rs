//! Training runs: items scored with a `run` (and `step`, `prompt_id`, `group`) are recorded
//! through the scoring pipeline's hook, merged in memory into aggregates ([`store`]) written in
//! batches off the request path, and read back as per-prompt pass rates, sampling decisions for
//! curricula ([`prompts`]), run statistics with bootstrap intervals and comparisons across runs
//! ([`stats`]). Everything lives in the database, so every replica adds to and reads the same
//! run.

pub mod handlers;
pub mod prompts;
pub mod samples;
pub mod settings;
pub mod stats;
mod store;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::future::BoxFuture;
use referee_core::{Budget, Status};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use self::samples::{Candidate, SampleRow};
use self::settings::RunsConfig;
use self::store::Pending;
pub use self::store::{RunStore, RunSummary};
use crate::engine::{Correction, Observed, RequestHook, RunTag, ScoreResult, ScoringHook};
use crate::store::Storage;

/// Records run items and writes them in the background.
#[derive(Debug)]
pub struct RunRecorder {
    store: RunStore,
    config: RunsConfig,
    pending: Mutex<Pending>,
}

/// The background writer of a [`RunRecorder`].
#[derive(Debug)]
pub struct RunTasks {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl RunTasks {
    /// Writes what is pending once more and stops.
    pub async fn finish(self) {
        let _ = self.stop.send(());
        if let Err(error) = self.task.await {
            tracing::error!(%error, "the run statistics writer ended abnormally");
        }
    }
}

impl RunRecorder {
    /// Starts recording into `storage`, written every `config.flush_interval_ms`.
    pub fn start(storage: Storage, config: RunsConfig) -> (Arc<RunRecorder>, RunTasks) {
        let recorder =
            Arc::new(RunRecorder { store: RunStore::new(storage), config, pending: Mutex::new(Pending::default()) });
        let (stop, mut stopped) = oneshot::channel::<()>();
        let writer = Arc::clone(&recorder);
        let task = tokio::spawn(async move {
            let interval = Duration::from_millis(writer.config.flush_interval_ms);
            loop {
                tokio::select! {
                    () = tokio::time::sleep(interval) => writer.flush().await,
                    _ = &mut stopped => break,
                }
            }
            writer.flush().await;
        });
        (recorder, RunTasks { stop, task })
    }

    /// The store the handlers read.
    pub fn store(&self) -> &RunStore {
        &self.store
    }

    /// The settings in force.
    pub fn config(&self) -> &RunsConfig {
        &self.config
    }

    /// Adds a request's tagged items (positions and verifiers), with their tags and verdicts by
    /// position, to what is pending, and the candidates for text retention that are kept.
    fn record(
        &self,
        tagged: &[(usize, &'static str)],
        candidates: Vec<Candidate>,
        runs: &[Option<RunTag>],
        results: &[ScoreResult],
    ) {
        let config = &self.config.samples;
        let samples: Vec<SampleRow> = candidates
            .into_iter()
            .filter_map(|candidate| {
                let (Some(result), Some(Some(tag))) = (results.get(candidate.position), runs.get(candidate.position))
                else {
                    return None;
                };
                candidate
                    .kept(config, result.status)
                    .then(|| SampleRow::new(candidate, tag, result, config.max_text_bytes))
            })
            .collect();
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let room = config.max_pending.saturating_sub(pending.samples.len());
        let dropped_samples = samples.len().saturating_sub(room);
        pending.samples.extend(samples.into_iter().take(room));
        let mut dropped = 0_u64;
        for &(position, verifier) in tagged {
            let (Some(result), Some(Some(tag))) = (results.get(position), runs.get(position)) else { continue };
            let detailed = pending.detailed < self.config.max_pending_items;
            dropped += u64::from(!detailed);
            pending.add(tag, verifier, result.score, result.status, result.elapsed_us, detailed);
        }
        drop(pending);
        if dropped > 0 {
            metrics::counter!("referee_runs_dropped_items_total").increment(dropped);
        }
        if dropped_samples > 0 {
            metrics::counter!("referee_runs_dropped_samples_total").increment(dropped_samples as u64);
        }
    }

    /// Records one outcome judged outside the scoring pipeline (an episode's end) under `tag`:
    /// `verifier` names what judged it in the run's statistics.
    pub fn record_outcome(&self, tag: &RunTag, verifier: &'static str, score: f64, status: Status, latency_us: u64) {
        if !self.config.enabled {
            return;
        }
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let detailed = pending.detailed < self.config.max_pending_items;
        pending.add(tag, verifier, score, status, latency_us, detailed);
        drop(pending);
        if !detailed {
            metrics::counter!("referee_runs_dropped_items_total").increment(1);
        }
    }

    /// Writes what is pending; on failure it is kept for the next attempt (while writes fail,
    /// items beyond `max_pending_items` keep only their pass-rate counts, and are counted).
    async fn flush(&self) {
        let batch = std::mem::take(&mut *self.pending.lock().unwrap_or_else(PoisonError::into_inner));
        if batch.is_empty() {
            return;
        }
        let items: u64 = batch.runs.values().map(|run| run.items).sum();
        let samples = batch.samples.len() as u64;
        match self.store.write(&batch).await {
            Ok(()) => {
                metrics::counter!("referee_runs_recorded_items_total").increment(items);
                metrics::counter!("referee_runs_recorded_samples_total").increment(samples);
            }
            Err(error) => {
                tracing::warn!(%error, "cannot write run statistics; keeping them for the next attempt");
                metrics::counter!("referee_storage_write_errors_total").increment(1);
                let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
                let mut kept = batch;
                kept.merge(std::mem::take(&mut *pending));
                *pending = kept;
            }
        }
    }
}

/// The recorder on one request: the positions and verifiers of the tagged items it saw (their
/// tags come with the verdicts, without a copy), and those drawn for text retention.
struct RunRequest {
    recorder: Arc<RunRecorder>,
    tagged: Vec<(usize, &'static str)>,
    candidates: Vec<Candidate>,
}

impl ScoringHook for RunRecorder {
    fn begin(self: Arc<Self>) -> Option<Box<dyn RequestHook>> {
        self.config.enabled.then(|| {
            Box::new(RunRequest { recorder: self, tagged: Vec::new(), candidates: Vec::new() }) as Box<dyn RequestHook>
        })
    }
}

impl RequestHook for RunRequest {
    fn observe(&mut self, item: Observed<'_>) {
        if item.run.is_some() {
            self.tagged.push((item.position, item.verifier));
            let samples = &self.recorder.config.samples;
            if samples.enabled()
                && let Some(candidate) = Candidate::draw(samples, item.position, item.verifier, item.input)
            {
                self.candidates.push(candidate);
            }
        }
    }

    fn finish<'a>(
        self: Box<Self>,
        results: &'a mut [ScoreResult],
        _: &'a [Option<String>],
        runs: &'a [Option<RunTag>],
        _: Correction,
        _: Budget,
    ) -> BoxFuture<'a, ()> {
        let RunRequest { recorder, tagged, candidates } = *self;
        if !tagged.is_empty() {
            recorder.record(&tagged, candidates, runs, results);
        }
        Box::pin(std::future::ready(()))
    }
}
