//! The background side of the layer: the appeal runner, which re-checks sampled verdicts with
//! the stronger checker, and the maintenance task, which writes tallies and reloads models.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use referee_core::{Budget, Status};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::{Compiled, NoiseLayer, merge_patch};
use crate::scoring::run_scorer;

/// A sampled verdict waiting for its appeal.
#[derive(Debug)]
pub struct AppealTask {
    pub(super) compiled: Arc<Compiled>,
    pub(super) verdict: bool,
    pub(super) item_id: Option<String>,
    pub(super) verdict_status: Status,
    pub(super) verdict_score: f64,
    pub(super) input: Value,
}

/// Re-checks queued verdicts, one checker batch at a time, until the queue closes.
pub(super) async fn run(layer: Arc<NoiseLayer>, mut queue: mpsc::Receiver<AppealTask>) {
    let batch = layer.config.appeal_batch;
    let timeout = Duration::from_millis(layer.config.appeal_timeout_ms);
    let mut received = Vec::with_capacity(batch);
    while queue.recv_many(&mut received, batch).await > 0 {
        let mut by_checker: BTreeMap<usize, Vec<AppealTask>> = BTreeMap::new();
        for task in received.drain(..) {
            if let Some(appeal) = &task.compiled.appeal {
                by_checker.entry(appeal.checker).or_default().push(task);
            }
        }
        for (checker, tasks) in by_checker {
            let inputs: Vec<Value> = tasks
                .iter()
                .map(|task| {
                    let mut input = task.input.clone();
                    if let Some(patch) = task.compiled.appeal.as_ref().and_then(|a| a.patch.as_ref()) {
                        merge_patch(&mut input, patch);
                    }
                    input
                })
                .collect();
            let entry = layer.registry.at(checker);
            let verdicts = run_scorer(&entry.scorer, inputs, Budget::with_timeout(timeout)).await;
            layer.record_appeals(entry.id(), tasks, verdicts);
        }
    }
}

/// Every refresh interval: writes pending tallies and overturns, then reloads the models, so
/// that this replica sees what others counted and set. On stop, writes a last time.
pub(super) async fn maintain(layer: Arc<NoiseLayer>, mut stop: oneshot::Receiver<()>) {
    let mut ticks = tokio::time::interval(layer.refresh_interval());
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            _ = &mut stop => {
                layer.flush().await;
                return;
            }
        }
        let settled = layer.flush().await;
        if let Err(error) = layer.reload().await {
            // The counts are written; a later reload shows them.
            tracing::warn!(%error, "cannot reload noise models; keeping the current ones");
        }
        layer.settled(settled);
    }
}
