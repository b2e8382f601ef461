//! Chunk workers: claim a chunk, score it through the engine, write its results, repeat.

use std::sync::Arc;
use std::time::Duration;

use referee_core::Budget;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use super::settings::JobsConfig;
use super::{Claim, JobStore};
use crate::engine::{Engine, ScoreResult};

/// Wakes idle workers when a job is stored, in this process or, through PostgreSQL's
/// `LISTEN/NOTIFY`, in another replica.
#[derive(Debug, Default)]
pub struct Wakeup(Notify);

impl Wakeup {
    /// Wakes every idle worker of this process.
    pub fn wake(&self) {
        self.0.notify_waiters();
    }
}

/// The running workers of this process.
#[derive(Debug)]
pub struct JobWorkers {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl JobWorkers {
    /// Lets each worker finish the chunk it holds, then stops them.
    pub async fn finish(self) {
        let _ = self.stop.send(true);
        for task in self.tasks {
            if let Err(error) = task.await {
                tracing::error!(%error, "a job worker ended abnormally");
            }
        }
    }
}

/// One result line of `GET /v1/jobs/{id}/results`.
#[derive(Serialize)]
struct ResultLine<'a> {
    /// The item's position in the upload, from 0.
    index: i64,
    #[serde(flatten)]
    result: &'a ScoreResult,
}

/// Starts `config.workers` workers (and, on PostgreSQL, a listener for other replicas' jobs).
pub fn spawn_workers(
    store: JobStore,
    engine: Arc<Engine>,
    config: &JobsConfig,
    wakeup: Arc<Wakeup>,
    database_url: &str,
) -> JobWorkers {
    let (stop, stopped) = watch::channel(false);
    let (reclaimed, ready) = watch::channel(false);
    let mut tasks = Vec::new();
    if config.workers > 0 && store.backend() == crate::store::Backend::Postgres {
        tasks.push(tokio::spawn(listen(database_url.to_owned(), Arc::clone(&wakeup), stopped.clone())));
    }
    let sweep = Duration::from_millis(config.lease_ms.max(1));
    tasks.push(tokio::spawn(maintain(store.clone(), reclaimed, sweep, Arc::clone(&wakeup), stopped.clone())));
    for n in 0..config.workers {
        let worker = Worker {
            store: store.clone(),
            engine: Arc::clone(&engine),
            owner: store.worker_owner(n),
            lease_ms: config.lease_ms,
            poll: Duration::from_millis(config.poll_interval_ms),
            chunk_timeout: Duration::from_millis(config.chunk_timeout_ms),
            wakeup: Arc::clone(&wakeup),
        };
        tasks.push(tokio::spawn(worker.run(ready.clone(), stopped.clone())));
    }
    JobWorkers { stop, tasks }
}

/// Takes back what a dead earlier process of this node left (before this process's workers
/// claim anything, so none of their leases can be mistaken for it), then removes expired
/// uploads once per lease period until stopped.
async fn maintain(
    store: JobStore,
    reclaimed: watch::Sender<bool>,
    period: Duration,
    wakeup: Arc<Wakeup>,
    mut stopped: watch::Receiver<bool>,
) {
    match store.reclaim_dead_predecessors().await {
        Ok(0) => {}
        Ok(_) => wakeup.wake(),
        Err(error) => {
            tracing::warn!(%error, "cannot take back a dead earlier process's chunks; they wait out their leases")
        }
    }
    let _ = reclaimed.send(true);
    loop {
        tokio::select! {
            () = tokio::time::sleep(period) => {}
            _ = stopped.changed() => return,
        }
        match store.remove_expired_uploads().await {
            Ok(0) => {}
            Ok(removed) => tracing::info!(removed, "removed uploads whose process stopped storing them"),
            Err(error) => tracing::warn!(%error, "cannot remove expired uploads"),
        }
    }
}

/// Forwards PostgreSQL notifications of new jobs to this process's workers.
async fn listen(url: String, wakeup: Arc<Wakeup>, mut stopped: watch::Receiver<bool>) {
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                if let Err(error) = listener.listen("referee_jobs").await {
                    tracing::warn!(%error, "cannot LISTEN for jobs; workers fall back to polling");
                } else {
                    loop {
                        tokio::select! {
                            notification = listener.recv() => match notification {
                                Ok(_) => wakeup.wake(),
                                Err(error) => {
                                    tracing::warn!(%error, "job notifications interrupted; reconnecting");
                                    break;
                                }
                            },
                            _ = stopped.changed() => return,
                        }
                    }
                }
            }
            Err(error) => tracing::warn!(%error, "cannot connect to LISTEN for jobs; retrying"),
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = stopped.changed() => return,
        }
    }
}

struct Worker {
    store: JobStore,
    engine: Arc<Engine>,
    owner: String,
    lease_ms: u64,
    poll: Duration,
    chunk_timeout: Duration,
    wakeup: Arc<Wakeup>,
}

impl Worker {
    async fn run(self, mut ready: watch::Receiver<bool>, mut stopped: watch::Receiver<bool>) {
        tokio::select! {
            _ = ready.wait_for(|ready| *ready) => {}
            _ = stopped.changed() => return,
        }
        while !*stopped.borrow() {
            match self.store.claim(&self.owner, self.lease_ms).await {
                Ok(Some(claim)) => {
                    if let Err(error) = self.process(&claim).await {
                        // The lease expires and the chunk is claimed again.
                        tracing::error!(%error, job = %claim.job_id, chunk = claim.chunk_index, "chunk failed");
                    }
                }
                Ok(None) => {
                    tokio::select! {
                        () = self.wakeup.0.notified() => {}
                        () = tokio::time::sleep(self.poll) => {}
                        _ = stopped.changed() => {}
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "claiming a chunk failed");
                    tokio::time::sleep(self.poll).await;
                }
            }
        }
    }

    async fn process(&self, claim: &Claim) -> Result<(), sqlx::Error> {
        let heartbeat = {
            let (store, claim, owner, lease_ms) =
                (self.store.clone(), claim.clone(), self.owner.clone(), self.lease_ms);
            tokio::spawn(async move {
                let period = Duration::from_millis((lease_ms / 3).max(1));
                loop {
                    tokio::time::sleep(period).await;
                    match store.heartbeat(&claim, &owner, lease_ms).await {
                        Ok(true) => {}
                        Ok(false) => return,
                        Err(error) => tracing::warn!(%error, "chunk heartbeat failed"),
                    }
                }
            })
        };
        let outcome = self.score(claim).await;
        heartbeat.abort();
        outcome
    }

    async fn score(&self, claim: &Claim) -> Result<(), sqlx::Error> {
        let items = self.store.items(claim).await?;
        let (indices, lines): (Vec<i64>, Vec<Result<Value, String>>) = items
            .into_iter()
            .map(|(index, payload)| {
                let parsed =
                    payload.and_then(|line| crate::http::json::parse_item(&line, format_args!("item {index}")));
                (index, parsed)
            })
            .unzip();
        let request_id = format!("{}:{}", claim.job_id, claim.chunk_index);
        let scored = self.engine.score_lines(lines, Budget::with_timeout(self.chunk_timeout), &request_id).await;
        let results: Vec<(i64, String)> = indices
            .into_iter()
            .zip(&scored)
            .map(|(index, result)| {
                let line = serde_json::to_string(&ResultLine { index, result }).unwrap_or_else(|e| {
                    let error = format!("result not serialisable: {e}");
                    serde_json::json!({"index": index, "score": 0.0, "status": "internal_error", "details": {"error": error}})
                        .to_string()
                });
                (index, line)
            })
            .collect();
        self.store.complete(claim, &self.owner, &results).await
    }
}
