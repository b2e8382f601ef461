//! The background side of the layer: the appeal runner, which re-checks sampled verdicts with
//! the stronger checker, and the maintenance task, which writes tallies and reloads models.

use std::collections::BTreeMap;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use referee_core::{Budget, Scorer, Status, Verdict};
use referee_noise::binary_verdict;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::{Compiled, NoiseLayer, Pending, merge_patch, store};
use crate::engine::{ScoreResult, SharedJson, run_scorer};

/// Items a blocking checker judges per call: below the size at which a batch fans out onto the
/// rayon pool the request path uses, so an appeal never takes those threads.
const IDLE_CHUNK: usize = 8;

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

impl AppealTask {
    /// The input the checker judges: the item's input with the appeal's patch applied.
    pub(super) fn checker_input(&self) -> Value {
        let mut input = self.input.clone();
        if let Some(patch) = self.compiled.appeal.as_ref().and_then(|a| a.patch.as_ref()) {
            merge_patch(&mut input, patch);
        }
        input
    }
}

/// A thread that runs blocking checkers only when a core would otherwise be idle, so that
/// appeals use the CPU time the request path leaves over instead of competing with it.
struct IdleThread {
    jobs: std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>,
}

impl IdleThread {
    fn spawn() -> std::io::Result<IdleThread> {
        let (jobs, queue) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        std::thread::Builder::new().name("referee-appeals".to_owned()).spawn(move || {
            lower_priority();
            // Ends when the runner drops its sender.
            while let Ok(job) = queue.recv() {
                job();
            }
        })?;
        Ok(IdleThread { jobs })
    }

    /// Judges `inputs` with a blocking checker on this thread, a few items per call.
    async fn verify(&self, scorer: &Scorer, inputs: Vec<Value>, budget: Budget) -> Vec<Verdict> {
        let count = inputs.len();
        let Scorer::Blocking(verifier) = scorer else {
            return run_scorer(scorer, inputs, budget).await;
        };
        let verifier = Arc::clone(verifier);
        let (done, verdicts) = oneshot::channel();
        let job = Box::new(move || {
            let judged: Vec<Verdict> =
                inputs.chunks(IDLE_CHUNK).flat_map(|chunk| verifier.verify_json(chunk, &budget)).collect();
            let _ = done.send(judged);
        });
        if self.jobs.send(job).is_err() {
            return vec![Verdict::internal_error("the appeal thread has stopped"); count];
        }
        verdicts.await.unwrap_or_else(|_| vec![Verdict::internal_error("the appeal thread has stopped"); count])
    }
}

/// Moves the calling thread to `SCHED_IDLE` where the kernel has it: a thread of that class
/// runs only on an otherwise idle core and is preempted as soon as a request-path thread
/// wakes, whereas a merely niced thread keeps its core until its time slice ends, which
/// delays the woken thread. Where that class is refused, the thread gets the lowest nice value.
#[cfg(target_os = "linux")]
fn lower_priority() {
    use thread_priority::{NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy};
    let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    let Err(error) =
        thread_priority::set_thread_priority_and_policy(thread_priority::thread_native_id(), ThreadPriority::Min, idle)
    else {
        return;
    };
    tracing::debug!(?error, "no SCHED_IDLE for the appeal thread; lowering its nice value instead");
    // On Linux a nice value set for a thread id applies to that thread alone.
    if let Err(error) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19) {
        tracing::warn!(%error, "cannot lower the appeal thread's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

impl NoiseLayer {
    /// Re-checks sampled items before the response, counts the outcomes like background
    /// appeals, and reports each decided one as the item's reward: `score` becomes the
    /// checker's verdict and `details.reward.appeal` names the checker and whether it overturned.
    pub(super) async fn appeal_now(
        &self,
        results: &mut [ScoreResult],
        inline: Vec<(usize, AppealTask)>,
        budget: Budget,
    ) {
        let mut by_checker: BTreeMap<usize, Vec<(usize, AppealTask)>> = BTreeMap::new();
        for (position, task) in inline {
            if let Some(appeal) = &task.compiled.appeal {
                by_checker.entry(appeal.checker).or_default().push((position, task));
            }
        }
        let timeout = Duration::from_millis(self.config.appeal_timeout_ms);
        for (checker, entries) in by_checker {
            let inputs = entries.iter().map(|(_, task)| task.checker_input()).collect();
            let entry = self.registry.at(checker);
            let verdicts = run_scorer(&entry.scorer, inputs, budget.capped(timeout)).await;
            let mut outcomes = Vec::with_capacity(entries.len());
            {
                let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
                for ((position, task), verdict) in entries.into_iter().zip(verdicts) {
                    let (compiled, verdict_class, status) = (Arc::clone(&task.compiled), task.verdict, verdict.status);
                    let truth = record_appeal(&mut pending, entry.id(), task, verdict);
                    outcomes.push((position, compiled, verdict_class, status, truth));
                }
            }
            for (position, compiled, verdict, status, truth) in outcomes {
                let Some(result) = results.get_mut(position) else { continue };
                let mut reward = match compiled.status.model {
                    Some(model) => serde_json::to_value(model.correct(verdict, &self.policy)).unwrap_or(Value::Null),
                    None => Value::Null,
                };
                if !reward.is_object() {
                    reward = serde_json::json!({"raw": if verdict { 1.0 } else { 0.0 }});
                }
                let overturned = truth.is_some_and(|truth| truth != verdict);
                if let Value::Object(fields) = &mut reward {
                    fields.insert(
                        "appeal".to_owned(),
                        serde_json::json!({"checker": entry.id(), "status": status, "overturned": overturned}),
                    );
                }
                if let Some(truth) = truth {
                    // The checker's verdict is the item's label under the appeal's own
                    // assumption (the checker is right); no correction improves on it.
                    result.score = if truth { 1.0 } else { 0.0 };
                }
                result.reward = SharedJson::new(&reward).ok().or(result.reward.take());
            }
        }
    }
}

/// Counts one appeal's outcome and keeps an overturn for inspection; returns the checker's
/// binary verdict, or `None` when it gave none (a timeout, an unreadable reference), which says
/// nothing about the response and enters no tally.
pub(super) fn record_appeal(pending: &mut Pending, checker: &str, task: AppealTask, verdict: Verdict) -> Option<bool> {
    let key = &task.compiled.key;
    let Some(truth) = binary_verdict(verdict.status) else {
        metrics::counter!("referee_noise_appeals_undecided_total", "verifier" => key.verifier.clone()).increment(1);
        return None;
    };
    pending.tallies.entry((key.clone(), task.compiled.step)).or_default().record_check(task.verdict, truth);
    if truth != task.verdict {
        metrics::counter!("referee_noise_overturns_total", "verifier" => key.verifier.clone()).increment(1);
        pending.overturns.push(store::OverturnRow {
            key: key.clone(),
            item_id: task.item_id,
            verdict_status: task.verdict_status,
            verdict_score: task.verdict_score,
            checker: checker.to_owned(),
            checker_status: verdict.status,
            checker_score: verdict.score,
            checker_details: Value::Object(verdict.details).to_string(),
            input: task.input.to_string(),
        });
    }
    Some(truth)
}

/// Re-checks queued verdicts, one checker batch at a time, until the queue closes. Blocking
/// checkers run on a thread of the lowest CPU priority; async ones on the runtime.
pub(super) async fn run(layer: Arc<NoiseLayer>, mut queue: mpsc::Receiver<AppealTask>) {
    let idle = match IdleThread::spawn() {
        Ok(idle) => idle,
        Err(error) => {
            tracing::error!(%error, "cannot start the appeal thread; appeals are off");
            return;
        }
    };
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
            let inputs: Vec<Value> = tasks.iter().map(AppealTask::checker_input).collect();
            let entry = layer.registry.at(checker);
            let verdicts = idle.verify(&entry.scorer, inputs, Budget::with_timeout(timeout)).await;
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use thread_priority::{NormalThreadSchedulePolicy, ThreadSchedulePolicy};

    #[tokio::test]
    async fn appeal_thread_runs_only_when_a_core_is_idle() -> Result<(), Box<dyn std::error::Error>> {
        let idle = IdleThread::spawn()?;
        let (done, policy) = oneshot::channel();
        idle.jobs.send(Box::new(move || {
            let _ = done.send(thread_priority::thread_schedule_policy());
        }))?;
        let policy = policy.await?.map_err(|error| format!("{error:?}"))?;
        assert_eq!(policy, ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle));
        Ok(())
    }
}
