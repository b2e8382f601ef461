//! Starting and stopping the HTTP server.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use referee_code::{CodeVerifier, Sandbox};
use referee_rlpr::RlprModel;
use referee_rubric::{Backing, JudgeClient};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::engine::{Engine, Persistence};
use crate::features::episodes::Episodes;
use crate::features::episodes::store::EpisodeStore;
use crate::features::jobs::handlers::JobsHandle;
use crate::features::jobs::{JobStore, JobWorkers, Wakeup, spawn_workers};
use crate::features::noise::{NoiseLayer, NoiseTasks};
use crate::features::rlpr::LoadedSource;
use crate::features::rubrics::{JudgeCacheTable, RubricRepository};
use crate::features::runs::{RunRecorder, RunTasks};
use crate::http::auth::ApiKeys;
use crate::http::{self, AppState, Attached, Limits, Readiness};
use crate::registry::Registry;
use crate::store::retention::{RetentionTask, spawn_retention};
use crate::store::{Storage, Writer, WriterLimits, spawn_writer};
use crate::telemetry;

/// A server accepting connections, and what is needed to stop it cleanly.
#[derive(Debug)]
pub struct RunningServer {
    addr: SocketAddr,
    /// The application the listener serves, for calls in the same process.
    router: axum::Router,
    readiness: Arc<Readiness>,
    storage: Storage,
    stop: oneshot::Sender<()>,
    serving: JoinHandle<std::io::Result<()>>,
    workers: JobWorkers,
    noise: NoiseTasks,
    runs: RunTasks,
    writer: Writer,
    retention: RetentionTask,
    /// Ends idle episodes.
    episode_reaper: JoinHandle<()>,
    grace: Duration,
}

/// Connections the kernel completes and queues for `accept` (capped by `net.core.somaxconn`).
/// Well above tokio's default of 1,024: a thousand clients connecting at once while the cores are
/// busy otherwise overflow the queue, and the kernel resets connections the clients think open.
const LISTEN_BACKLOG: u32 = 8192;

/// The `code` verifier on this server's sandbox, made from `[sandbox]`; its runtimes are set
/// up later (in the background at start unless `sandbox.check_at_start` is off, or by the
/// first item that needs them).
fn code_verifier(config: &Config) -> anyhow::Result<CodeVerifier> {
    let sandbox = Sandbox::new(crate::startup::sandbox_config(config)).context("cannot start the code sandbox")?;
    let capacity =
        config.code.max_pending_items.unwrap_or_else(|| CodeVerifier::capacity_for(sandbox.config().workers));
    Ok(CodeVerifier::with_capacity(capacity, config.server.retry_after_secs).in_sandbox(Arc::new(sandbox)))
}

/// Scoring threads run nicer than the threads that answer connections
/// ([`referee_core::threads`]): the rayon pool's threads from their start, the blocking tasks'
/// as they take scoring work (the sandbox's threads keep the process's priority). The first server of a process sets the rayon pool
/// up; a process that already used rayon keeps its pool as it is.
fn set_thread_priorities(niceness: i32) {
    referee_core::threads::set_scoring_niceness(niceness);
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|index| format!("referee-score-{index}"))
        .start_handler(|_| referee_core::threads::mark_scoring_thread())
        .build_global();
}

fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    // As std and tokio's own bind do on Unix: a restarted server can bind while old connections
    // linger in TIME_WAIT.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Binds, starts serving (answering 503 until ready), opens and migrates the database, then
/// marks the server ready. The first log line names the bound address.
pub async fn start(config: &Config) -> anyhow::Result<RunningServer> {
    set_thread_priorities(config.server.scoring_niceness);
    let keys = ApiKeys::from_config(&config.auth)?;
    let listener = bind(config.server.listen).with_context(|| format!("cannot listen on {}", config.server.listen))?;
    let addr = listener.local_addr()?;
    tracing::info!("listening on http://{addr}");
    for note in config.deprecations() {
        tracing::warn!("{note}");
    }

    let readiness = Arc::new(Readiness::default());
    let backing = Backing::default();
    let judge = JudgeClient::new(config.judge.clone(), backing.clone()).map_err(anyhow::Error::msg)?;
    let code = code_verifier(config)?;
    let rlpr_source = crate::features::rlpr::build_source(&config.rlpr)?;
    let rlpr = RlprModel::new(rlpr_source.clone(), config.rlpr.baseline_cache_entries);
    let registry = Arc::new(Registry::builtin_with(judge, backing.clone(), code, rlpr.clone()));
    let registry_environments = registry.environments().to_vec();
    let engine = Arc::new(Engine::new(Arc::clone(&registry)));
    let keys = Arc::new(keys);
    let state = AppState {
        engine: Arc::clone(&engine),
        readiness: Arc::clone(&readiness),
        keys: Arc::clone(&keys),
        metrics: telemetry::prometheus(),
        limits: Limits::from_config(&config.server, config.jobs.max_upload_bytes, config.jobs.max_concurrent_uploads),
        features: Attached::default(),
    };
    let features = state.features.clone();
    features.attach(Arc::new(config.openrlhf.clone()));
    if let Some(source) = rlpr_source {
        features.attach(LoadedSource(source));
    }
    let (stop, stopped) = oneshot::channel::<()>();
    let app = crate::routes::app(state);
    let router = app.clone();
    let connections = http::ConnectionLimits {
        max_connections: crate::machine::connections_allowed(config.server.max_connections),
        header_read_timeout: Duration::from_millis(config.server.header_read_timeout_ms),
        max_header_bytes: config.server.max_header_bytes,
    };
    let serving = tokio::spawn(http::serve(listener, app, connections, async move {
        let _ = stopped.await;
    }));

    let url = config.effective_database_url();
    let storage =
        crate::startup::open_database(&url, config.database.max_connections, crate::startup::DatabaseRetry::default())
            .await?;
    tracing::info!(backend = ?storage.backend(), "database open and migrated");
    keys.count_quotas_in(storage.clone());
    let (queue, writer) = spawn_writer(
        storage.clone(),
        WriterLimits {
            capacity: config.scoring_log.queue_capacity,
            flush_interval: Duration::from_millis(config.scoring_log.flush_interval_ms),
            enqueue_timeout: Duration::from_millis(config.scoring_log.enqueue_timeout_ms),
            retry_window: Duration::from_millis(config.scoring_log.retry_window_ms),
        },
    );
    engine.attach(Persistence {
        storage: storage.clone(),
        queue,
        log: config.scoring_log.clone(),
        cache: config.cache.enabled,
    });
    let (noise_layer, noise) =
        NoiseLayer::start(storage.clone(), registry, &config.noise).await.context("cannot load the noise models")?;
    let (run_recorder, runs) = RunRecorder::start(storage.clone(), config.runs.clone());
    // Run statistics first: they record the verdicts' own scores, before any noise correction.
    engine.attach_hooks(vec![
        Arc::clone(&run_recorder) as Arc<dyn crate::engine::ScoringHook>,
        Arc::clone(&noise_layer) as Arc<dyn crate::engine::ScoringHook>,
    ]);
    features.attach(Arc::clone(&run_recorder));
    features.attach(noise_layer);
    backing.connect(Arc::new(RubricRepository::new(storage.clone())), Arc::new(JudgeCacheTable::new(storage.clone())));
    rlpr.connect_baselines(Arc::new(crate::features::rlpr::BaselineTable::new(storage.clone())));
    let store = JobStore::new(storage.clone(), &config.jobs);
    let wakeup = Arc::new(Wakeup::default());
    let workers = spawn_workers(store.clone(), Arc::clone(&engine), &config.jobs, Arc::clone(&wakeup), &url);
    features.attach(JobsHandle {
        store,
        wakeup,
        chunk_size: config.jobs.chunk_size,
        allowed_paths: config.jobs.allowed_paths.clone(),
    });
    let episodes = Episodes::new(
        registry_environments.as_slice(),
        config.episodes.clone(),
        config.server.retry_after_secs,
        EpisodeStore::new(storage.clone()),
        Arc::clone(&run_recorder),
    );
    let episode_reaper = episodes.spawn_reaper();
    features.attach(episodes);
    let retention = spawn_retention(storage.clone(), config.retention.clone());
    readiness.set_ready();
    tracing::info!(verifiers = engine.registry().entries().len(), "ready to serve");
    // Off the start-up path: the first Python load precompiles the runtime. Without the check
    // (`sandbox.check_at_start = false`) each language is set up by its first item.
    if config.sandbox.check_at_start {
        let checked = Arc::clone(&engine);
        tokio::task::spawn_blocking(move || crate::startup::log_availability(checked.registry()));
    } else {
        tracing::info!(
            "languages not checked at start (sandbox.check_at_start = false): each is set up by its first item"
        );
    }
    Ok(RunningServer {
        addr,
        router,
        readiness,
        storage,
        stop,
        serving,
        workers,
        noise,
        runs,
        writer,
        retention,
        episode_reaper,
        grace: Duration::from_millis(config.server.shutdown_grace_ms),
    })
}

impl RunningServer {
    /// The application with every layer the listener serves, to call in the same process
    /// (`tower::ServiceExt::oneshot`) where a test is about the API rather than the connection.
    pub fn router(&self) -> axum::Router {
        self.router.clone()
    }

    /// The bound address (with the real port when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The database the server writes to.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// Serves until one of `signals` arrives, then shuts down gracefully.
    pub async fn run_until_signal(self, mut signals: ShutdownSignals) -> anyhow::Result<()> {
        signals.received().await;
        tracing::info!("shutdown requested; draining in-flight requests");
        self.shutdown().await
    }

    /// Flips readiness to draining, stops accepting connections, lets in-flight requests finish,
    /// lets job workers finish their chunks, writes the noise tallies, then writes every queued
    /// log and cache row: all of it within the grace period (`server.shutdown_grace_ms`). The
    /// last quarter of the grace (at most 1 s) is kept for the writes; connections still open
    /// when requests and workers have had their share are dropped, and a chunk whose worker is
    /// stopped unfinished is taken over under its lease.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        let started = tokio::time::Instant::now();
        let writes_deadline = started + self.grace;
        let deadline = writes_deadline - (self.grace / 4).min(FINAL_WRITES_SHARE);
        self.readiness.set_draining();
        // Retention stops after its current statement; it is awaited with the writes.
        self.retention.stop();
        self.episode_reaper.abort();
        let _ = self.stop.send(());
        let mut serving = self.serving;
        let served = match tokio::time::timeout_at(deadline, &mut serving).await {
            Ok(Ok(result)) => result.context("server error"),
            Ok(Err(join)) => Err(join).context("server task failed"),
            Err(_) => {
                tracing::warn!(grace = ?self.grace, "in-flight requests outlived the grace period; closing them");
                serving.abort();
                Ok(())
            }
        };
        if tokio::time::timeout_at(deadline, self.workers.finish()).await.is_err() {
            tracing::warn!(grace = ?self.grace, "job workers outlived the grace period; their chunks wait for takeover");
        }
        let writes = async {
            self.retention.finish().await;
            self.noise.finish().await;
            self.runs.finish().await;
            self.writer.finish().await;
        };
        if tokio::time::timeout_at(writes_deadline, writes).await.is_err() {
            tracing::error!(grace = ?self.grace, "queued tallies or scoring-log rows were not all written in the grace period");
        }
        if tokio::time::timeout_at(writes_deadline, self.storage.close()).await.is_err() {
            tracing::warn!("database connections still busy at the end of the grace period");
        }
        tracing::info!(elapsed = ?started.elapsed(), "stopped");
        served
    }
}

/// At most this much of the grace period is kept for writing queued rows at shutdown.
const FINAL_WRITES_SHARE: Duration = Duration::from_secs(1);

/// SIGTERM and SIGINT (Ctrl-C), each listened for from the moment the value is made. `serve`
/// makes it before the server starts, so that a signal sent at any time after that (right after
/// "ready to serve" too) stops the server gracefully instead of killing the process. Servers
/// started inside a test process never make one: the process keeps its default signal actions.
#[derive(Debug)]
pub struct ShutdownSignals {
    #[cfg(unix)]
    streams: Vec<tokio::signal::unix::Signal>,
}

impl ShutdownSignals {
    pub fn listen() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let streams = [SignalKind::terminate(), SignalKind::interrupt()]
                .into_iter()
                .filter_map(|kind| {
                    signal(kind)
                        .map_err(|error| tracing::warn!(%error, signal = ?kind, "cannot listen for a signal"))
                        .ok()
                })
                .collect();
            ShutdownSignals { streams }
        }
        #[cfg(not(unix))]
        ShutdownSignals {}
    }

    /// Resolves at the first signal (never, when none could be listened for).
    async fn received(&mut self) {
        #[cfg(unix)]
        {
            if self.streams.is_empty() {
                return std::future::pending().await;
            }
            let waits = self.streams.iter_mut().map(|stream| Box::pin(stream.recv()));
            futures::future::select_all(waits).await;
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel reports a listening socket's backlog as its Send-Q (`ss -ltn`): it is ours,
    /// capped by `net.core.somaxconn`, not tokio's 1,024.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_listen_backlog_is_ours() -> anyhow::Result<()> {
        let listener = bind(SocketAddr::from(([127, 0, 0, 1], 0)))?;
        let port = listener.local_addr()?.port();
        let somaxconn: u32 = std::fs::read_to_string("/proc/sys/net/core/somaxconn")?.trim().parse()?;
        let ss = match std::process::Command::new("ss").args(["-ltnH", &format!("sport = :{port}")]).output() {
            Ok(output) if output.status.success() => String::from_utf8(output.stdout)?,
            _ => {
                eprintln!("SKIPPED: `ss` (iproute2) is not available to read the listen backlog");
                return Ok(());
            }
        };
        let backlog: u32 = ss.split_whitespace().nth(2).unwrap_or_default().parse()?;
        assert_eq!(backlog, LISTEN_BACKLOG.min(somaxconn), "{ss}");
        assert!(backlog > 1024 || somaxconn <= 1024, "{ss}");
        Ok(())
    }
}
