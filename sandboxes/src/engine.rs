use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sha2::{Digest, Sha256};
use wasmtime::component::Component;
use wasmtime::{Config, Enabled, Engine, InstanceAllocationStrategy, Module, PoolingAllocationConfig};

use crate::SandboxError;
use crate::error::{Lack, wasmtime_cause};
use crate::function_cache::{FUNCTION_CACHE_BYTES, FunctionCache};
use crate::limits::MAX_TABLE_ELEMENTS;
use crate::setup::{FIRST_BACKOFF, pick_runtimes_dir, runtimes_search_order};

/// How often the epoch ticks. Each tick lets a running guest yield to the executor, so the
/// wall-clock backstop can fire even while the guest computes.
const EPOCH_TICK: Duration = Duration::from_millis(5);

/// Wasm stack a guest may use. CPython's C-level recursion (`functools.lru_cache`, `repr` of
/// nested lists) needs several MiB; the default 512 KiB traps early.
const MAX_WASM_STACK: usize = 8 << 20;

/// The largest linear memory a guest may have, whatever its run's cap: the code verifier's
/// `memory_mb` goes up to 2048. A pooled memory slot reserves this much address space (plus guard
/// pages), never this much RAM.
pub const MAX_GUEST_MEMORY: usize = 4 << 30;

/// Where the sandbox finds its guest runtimes and keeps precompiled artefacts, and how it
/// allocates guest instances. The server fills it from its `[sandbox]` configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxConfig {
    /// The folder `scripts/build-runtimes` writes (`python.wasm`); precompiled artefacts are
    /// kept in its `precompiled` subfolder when it is writable.
    pub runtimes_dir: PathBuf,
    /// More folders to look in, in order, when `runtimes_dir` holds no `python.wasm` at a set-up
    /// attempt (so runtimes built after the start are found by the next attempt).
    pub runtimes_search: Vec<PathBuf>,
    /// The wait after a failed set-up of a runtime before it is tried again; it doubles with
    /// each further failure, up to [`crate::MAX_BACKOFF`].
    pub setup_backoff: Duration,
    /// Worker threads that run guests; one per core by default.
    pub workers: usize,
    /// Runs whose instances wasmtime's pooling allocator keeps ready: their linear memories,
    /// tables and fiber stacks are reserved once and reused, so a run does not map and unmap them
    /// (see [`SandboxConfig::pool_runs_for`]). 0 allocates every instance on demand.
    pub pool_runs: usize,
    /// Live Python sessions ([`crate::PythonSession`]) the pool has room for besides its runs: a
    /// session holds its instance between cells, so each takes a slot for its whole life. More
    /// sessions than this fail to start with [`SandboxError::Instantiate`] while the pool is on.
    pub sessions: usize,
}

impl SandboxConfig {
    /// The default configuration with the runtimes folder found through
    /// [`runtimes_search_order`]: `configured` first, then beside the binary, then `runtimes/`
    /// in `data_dir`, then the source tree of the build.
    pub fn located(configured: Option<&Path>, data_dir: Option<&Path>) -> SandboxConfig {
        let runtimes_search = runtimes_search_order(configured, data_dir);
        let runtimes_dir = pick_runtimes_dir(&runtimes_search);
        SandboxConfig { runtimes_dir, runtimes_search, ..SandboxConfig::default() }
    }

    /// The default pool size for `workers` workers: at most one run per worker is in flight
    /// (the rest wait for a worker before they instantiate anything), and twice that leaves room
    /// for a run that is still being torn down while the next one starts.
    pub fn pool_runs_for(workers: usize) -> usize {
        2 * workers.max(1) + 2
    }
}

impl Default for SandboxConfig {
    /// The runtimes folder is the first of [`runtimes_search_order`] without a configured folder
    /// or data directory; one worker per available core; a pool of
    /// [`SandboxConfig::pool_runs_for`] runs.
    fn default() -> Self {
        let runtimes_search = runtimes_search_order(None, None);
        let runtimes_dir = pick_runtimes_dir(&runtimes_search);
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let pool_runs = SandboxConfig::pool_runs_for(workers);
        SandboxConfig {
            runtimes_dir,
            runtimes_search,
            setup_backoff: FIRST_BACKOFF,
            workers,
            pool_runs,
            sessions: DEFAULT_SESSIONS,
        }
    }
}

/// Sessions a default configuration's pool has room for.
pub const DEFAULT_SESSIONS: usize = 8;

/// How the engine allocates guest instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allocation {
    /// wasmtime's pooling allocator, with room for `runs` concurrent runs and `sessions` live
    /// Python sessions besides.
    Pooling { runs: usize, sessions: usize },
    /// Each instance's memories, tables and stacks are mapped when it starts and unmapped when it
    /// ends: the pool was turned off, or could not be reserved.
    OnDemand,
}

/// What every guest runs on: a wasmtime engine with its epoch ticker, and the worker threads
/// runs are queued for. A [`crate::Sandbox`] holds one, with the runtimes loaded in it.
#[derive(Debug)]
pub struct Host {
    pub(crate) engine: Engine,
    config: SandboxConfig,
    allocation: Allocation,
    workers: Workers,
    /// One permit per worker: a run starts (and its wall clock with it) only when it has a core,
    /// so a burst of runs queues instead of sharing the cores and timing out together.
    slots: Arc<tokio::sync::Semaphore>,
}

/// Raised when the caller of [`Host::spawn`] stops waiting (its future is dropped), so that a run
/// still waiting for a worker never starts.
struct Abandoned {
    flag: Arc<AtomicBool>,
    armed: bool,
}

impl Abandoned {
    /// The caller got its output: nothing to raise.
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        if self.armed {
            self.flag.store(true, Ordering::Release);
        }
    }
}

/// The worker threads guests run on. Dropping them does not wait for the threads, so a sandbox
/// (and its host) may be dropped on an async worker (a runtime dropped there blocks, which tokio refuses).
#[derive(Debug)]
struct Workers {
    handle: tokio::runtime::Handle,
    /// Taken when the workers are dropped.
    runtime: Option<tokio::runtime::Runtime>,
}

impl Workers {
    fn start(count: usize) -> Result<Workers, SandboxError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(count.max(1))
            .thread_name("referee-sandbox")
            .enable_time()
            .build()
            .map_err(|e| SandboxError::Thread { thread: "sandbox workers", source: Arc::new(e) })?;
        Ok(Workers { handle: runtime.handle().clone(), runtime: Some(runtime) })
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Ticks the engine's epoch until the engine is dropped.
pub(crate) fn start_ticker(engine: &Engine) -> Result<(), SandboxError> {
    let ticker = engine.weak();
    std::thread::Builder::new()
        .name("referee-epoch".into())
        .spawn(move || {
            while let Some(engine) = ticker.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .map(drop)
        .map_err(|e| SandboxError::Thread { thread: "epoch ticker", source: Arc::new(e) })
}

impl Host {
    /// A host with its own engine, epoch ticker and worker threads.
    ///
    /// With `config.pool_runs > 0` the engine reserves a pool for that many concurrent runs; when
    /// the pool cannot be reserved (an address-space limit, say), the sandbox logs why and
    /// allocates on demand instead.
    pub(crate) fn new(config: SandboxConfig) -> Result<Host, SandboxError> {
        // Each worker also keeps a Python instance that compiles programs (`crate::python`).
        let kept = config.sessions.saturating_add(config.workers.max(1));
        let (engine, allocation) = make_engine(config.pool_runs, kept, config.sessions)?;
        let workers = Workers::start(config.workers)?;
        start_ticker(&engine)?;
        let slots = Arc::new(tokio::sync::Semaphore::new(config.workers.max(1)));
        Ok(Host { engine, config, allocation, workers, slots })
    }

    /// The runtimes folder now: `runtimes_dir` when it holds `python.wasm`, else the first folder
    /// of `runtimes_search` that does, else `runtimes_dir`.
    pub fn runtimes_dir(&self) -> PathBuf {
        let config = &self.config;
        if config.runtimes_dir.join(crate::PYTHON_WASM).is_file() {
            return config.runtimes_dir.clone();
        }
        config
            .runtimes_search
            .iter()
            .find(|dir| dir.join(crate::PYTHON_WASM).is_file())
            .cloned()
            .unwrap_or_else(|| config.runtimes_dir.clone())
    }

    /// The configuration the sandbox was created with.
    pub fn config(&self) -> &SandboxConfig {
        &self.config
    }

    /// How the engine allocates guest instances: the pool, or on demand when the pool is off or
    /// could not be reserved.
    pub fn allocation(&self) -> Allocation {
        self.allocation
    }

    /// Runs a future on the sandbox's worker threads once a worker is free, and awaits it.
    ///
    /// The future waits for its worker slot on the worker threads themselves: a worker that
    /// finishes a run hands its slot to the next waiting run and starts it at once, instead of
    /// waking the caller's thread to send the next one over while the worker goes to sleep. A
    /// run whose caller stopped waiting before it got a slot never starts.
    pub(crate) async fn spawn<F>(&self, future: F) -> Result<F::Output, SandboxError>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let slots = Arc::clone(&self.slots);
        let abandoned = Abandoned { flag: Arc::default(), armed: true };
        let caller_left = Arc::clone(&abandoned.flag);
        let running = self.workers.handle.spawn(async move {
            let slot = slots
                .acquire_owned()
                .await
                .map_err(|e| SandboxError::QueueClosed { queue: "sandbox's run queue", source: Arc::new(e) })?;
            if caller_left.load(Ordering::Acquire) {
                return Err(SandboxError::Abandoned);
            }
            let output = future.await;
            drop(slot);
            Ok(output)
        });
        let output =
            running.await.map_err(|e| SandboxError::TaskFailed { task: "sandbox worker", source: Arc::new(e) });
        abandoned.disarm();
        output?
    }

    /// Loads a component from `wasm`, through a precompiled artefact cached next to it.
    ///
    /// The artefact's name carries the hash of the component, the wasmtime version and the
    /// engine configuration, so a changed component or engine compiles afresh.
    pub(crate) fn load_component(
        &self,
        name: &'static str,
        runtimes_dir: &Path,
        wasm: &Path,
    ) -> Result<Component, SandboxError> {
        load_precompiled(&self.engine, name, runtimes_dir, wasm)
    }

    /// Loads a core module from `wasm` like [`Host::load_component`] loads a component.
    pub(crate) fn load_module(
        &self,
        name: &'static str,
        runtimes_dir: &Path,
        wasm: &Path,
    ) -> Result<Module, SandboxError> {
        load_precompiled(&self.engine, name, runtimes_dir, wasm)
    }
}

/// Loads a component or a core module for `engine` from `wasm`, through a precompiled artefact
/// kept in `runtimes_dir/precompiled` (see [`Host::load_component`]).
pub(crate) fn load_precompiled<T: Precompiled>(
    engine: &Engine,
    name: &'static str,
    runtimes_dir: &Path,
    wasm: &Path,
) -> Result<T, SandboxError> {
    let bytes = std::fs::read(wasm).map_err(|error| SandboxError::Unavailable {
        runtime: name,
        lack: Lack::RuntimeUnreadable { path: wasm.to_owned(), source: Arc::new(error) },
    })?;
    load_precompiled_bytes(engine, name, runtimes_dir, &bytes, |e| compile_error(wasm, e))
}

/// Loads the wasm `bytes` for `engine` through the artefact `name` keeps in
/// `runtimes_dir/precompiled`: compiled and written there when no artefact has these bytes and
/// this engine's configuration in its key, deserialized otherwise. An artefact of `name` with
/// another key is deleted. `compile_error` says what a failed compile means to the caller.
pub(crate) fn load_precompiled_bytes<T: Precompiled>(
    engine: &Engine,
    name: &'static str,
    runtimes_dir: &Path,
    bytes: &[u8],
    compile_error: impl Fn(wasmtime::Error) -> SandboxError,
) -> Result<T, SandboxError> {
    let mut engine_hash = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut engine_hash);
    let mut key = Sha256::new();
    key.update(bytes);
    key.update(wasmtime_version().as_bytes());
    key.update(engine_hash.finish().to_le_bytes());
    let key = hex::encode(&key.finalize()[..KEY_HEX_DIGITS / 2]);
    let dir = runtimes_dir.join("precompiled");
    let artefact = dir.join(artefact_name(name, &key));
    let pruned = prune_stale_artefacts(&dir, name, &key);
    if pruned > 0 {
        tracing::info!(runtime = name, pruned, dir = %dir.display(), "deleted stale precompiled artefacts");
    }
    // Processes sharing the runtimes folder (a test suite's servers, replicas on one volume)
    // compile a runtime once: the first takes the lock and compiles, the others wait for it and
    // load what it wrote. Without a writable folder there is no lock, and each compiles.
    let _lock = (!artefact.exists()).then(|| lock_for(&dir, name)).flatten();
    if !artefact.exists() {
        tracing::info!(runtime = name, path = %artefact.display(), "precompiling the guest runtime");
        let compiled = T::precompile(engine, bytes).map_err(&compile_error)?;
        let partial = dir.join(format!("{name}-{key}.{}.partial", std::process::id()));
        let stored = std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&partial, &compiled))
            .and_then(|()| std::fs::rename(&partial, &artefact));
        if let Err(error) = stored {
            // A read-only runtimes folder (an image's): compile in memory on every start.
            tracing::warn!(
                runtime = name,
                dir = %dir.display(),
                %error,
                "cannot keep the precompiled runtime; it is compiled again at every start"
            );
            let _ = std::fs::remove_file(&partial);
            return T::compile(engine, bytes).map_err(compile_error);
        }
    }
    T::deserialize(engine, &artefact)
        .map_err(|e| SandboxError::Artefact { path: artefact.clone(), source: wasmtime_cause(e) })
}

/// An exclusive lock on `<dir>/<name>.lock`, held while it lives; `None` when the folder is not
/// writable or the system has no such locks.
fn lock_for(dir: &Path, name: &str) -> Option<std::fs::File> {
    std::fs::create_dir_all(dir).ok()?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(format!("{name}.lock")))
        .ok()?;
    file.lock().ok()?;
    Some(file)
}

/// What [`load_precompiled`] loads: a component or a core module.
pub(crate) trait Precompiled: Sized {
    fn precompile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Vec<u8>>;
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self>;
    /// Loads an artefact `precompile` wrote.
    fn deserialize(engine: &Engine, artefact: &Path) -> wasmtime::Result<Self>;
}

// SAFETY (both `deserialize`s): `deserialize_file` trusts the file to be wasmtime's own output.
// Only `load_precompiled_bytes` writes into the precompiled folder, by atomic rename, and the name
// keys the engine configuration; wasmtime also checks the version and configuration it records.
#[allow(unsafe_code, reason = "the artefact is one this engine wrote, under a name keyed by its configuration")]
impl Precompiled for Component {
    fn precompile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Vec<u8>> {
        engine.precompile_component(wasm)
    }
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        Component::new(engine, wasm)
    }
    fn deserialize(engine: &Engine, artefact: &Path) -> wasmtime::Result<Self> {
        unsafe { Component::deserialize_file(engine, artefact) }
    }
}

#[allow(unsafe_code, reason = "the artefact is one this engine wrote, under a name keyed by its configuration")]
impl Precompiled for Module {
    fn precompile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Vec<u8>> {
        engine.precompile_module(wasm)
    }
    fn compile(engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Self> {
        Module::new(engine, wasm)
    }
    fn deserialize(engine: &Engine, artefact: &Path) -> wasmtime::Result<Self> {
        unsafe { Module::deserialize_file(engine, artefact) }
    }
}

fn compile_error(wasm: &Path, error: wasmtime::Error) -> SandboxError {
    SandboxError::Compile { path: wasm.to_owned(), source: wasmtime_cause(error) }
}

/// Hex digits of an artefact's key.
const KEY_HEX_DIGITS: usize = 24;

/// `<runtime>-<key>.cwasm`: the file name of a precompiled artefact.
fn artefact_name(runtime: &str, key: &str) -> String {
    format!("{runtime}-{key}.cwasm")
}

/// Deletes the artefacts of `runtime` in `dir` whose key is not `current` (those of another
/// component, wasmtime version or engine configuration, which this build will never load), and
/// returns how many it deleted. Only files named exactly like an artefact of this runtime
/// (`<runtime>-<24 hex digits>.cwasm`) are touched; anything else in the folder stays, and a
/// folder that does not exist or cannot be read is left alone.
pub(crate) fn prune_stale_artefacts(dir: &Path, runtime: &str, current: &str) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut pruned = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else { continue };
        let Some(key) = file_name.strip_prefix(runtime).and_then(|rest| rest.strip_prefix('-')) else { continue };
        let Some(key) = key.strip_suffix(".cwasm") else { continue };
        let is_key = key.len() == KEY_HEX_DIGITS && key.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !is_key || key == current || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        match std::fs::remove_file(entry.path()) {
            Ok(()) => pruned += 1,
            Err(error) => tracing::warn!(path = %entry.path().display(), %error, "cannot delete a stale artefact"),
        }
    }
    pruned
}

fn wasmtime_version() -> &'static str {
    // Pinned exactly in Cargo.toml; part of the artefact key.
    "48.0.8"
}

/// Fiber stack of a run: the wasm stack plus room for the host calls it makes.
const ASYNC_STACK: usize = MAX_WASM_STACK + (2 << 20);

/// Core instances one component instance may hold. The Python runtime is a dynamically linked
/// component (CPython, libc, the WASI adapter and glue modules); C, C++ and Rust programs are one.
const CORE_INSTANCES_PER_COMPONENT: u32 = 64;
/// Memories and tables one component instance may define.
const MEMORIES_PER_COMPONENT: u32 = 8;
const TABLES_PER_COMPONENT: u32 = 16;
/// Tables one core module may define.
const TABLES_PER_MODULE: u32 = 4;
/// Bytes of a pooled linear memory that stay mapped between runs and are reset in place instead
/// of being handed back to the kernel (and faulted in again by the next run). A small Python run
/// ends with about 15.3 MiB of linear memory.
const MEMORY_KEEP_RESIDENT: usize = 16 << 20;
/// The same for a pooled table (8 bytes an element).
const TABLE_KEEP_RESIDENT: usize = 1 << 20;

/// The engine, with the pooling allocator for `pool_runs` concurrent runs and `kept` instances
/// held between calls (of them `sessions` live sessions) when `pool_runs` is not 0 and the pool
/// can be reserved, else allocating on demand.
fn make_engine(pool_runs: usize, kept: usize, sessions: usize) -> Result<(Engine, Allocation), SandboxError> {
    let functions: Arc<dyn wasmtime::CacheStore> = Arc::new(FunctionCache::new(FUNCTION_CACHE_BYTES));
    let engine_config = || -> Result<Config, SandboxError> {
        let mut config = engine_config();
        config
            .enable_incremental_compilation(Arc::clone(&functions))
            .map_err(|e| SandboxError::Engine { source: wasmtime_cause(e) })?;
        Ok(config)
    };
    if pool_runs > 0 {
        let mut config = engine_config()?;
        let instances = pool_runs.saturating_add(kept);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pooling_config(instances)));
        match Engine::new(&config) {
            Ok(engine) => {
                tracing::debug!(runs = pool_runs, sessions, "sandbox instances come from a pool");
                return Ok((engine, Allocation::Pooling { runs: pool_runs, sessions }));
            }
            Err(error) => tracing::warn!(
                runs = pool_runs,
                error = format!("{error:#}"),
                "cannot reserve the sandbox's instance pool; allocating instances on demand"
            ),
        }
    }
    let engine = Engine::new(&engine_config()?).map_err(|e| SandboxError::Engine { source: wasmtime_cause(e) })?;
    Ok((engine, Allocation::OnDemand))
}

/// The pool for `runs` concurrent runs, each one component (or core module) instance.
///
/// Memory protection keys stay off: they only shrink the guard regions between slots when
/// `max_memory_size` is far below 4 GiB, which the 2 GiB memory option rules out, they need
/// wasmtime's `call-hook` feature (a hook on every host call) and wasmtime marks them experimental.
/// Without them each memory slot reserves 4 GiB plus guard pages of address space, nothing more.
fn pooling_config(runs: usize) -> PoolingAllocationConfig {
    let runs = u32::try_from(runs).unwrap_or(u32::MAX);
    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(runs)
        .total_core_instances(runs.saturating_mul(CORE_INSTANCES_PER_COMPONENT))
        .total_memories(runs.saturating_mul(MEMORIES_PER_COMPONENT))
        .total_tables(runs.saturating_mul(TABLES_PER_COMPONENT))
        .total_stacks(runs)
        .max_core_instances_per_component(CORE_INSTANCES_PER_COMPONENT)
        .max_memories_per_component(MEMORIES_PER_COMPONENT)
        .max_tables_per_component(TABLES_PER_COMPONENT)
        .max_memories_per_module(1)
        .max_tables_per_module(TABLES_PER_MODULE)
        .max_core_instance_size(16 << 20)
        .max_component_instance_size(16 << 20)
        .max_memory_size(MAX_GUEST_MEMORY)
        .table_elements(MAX_TABLE_ELEMENTS)
        .linear_memory_keep_resident(MEMORY_KEEP_RESIDENT)
        .table_keep_resident(TABLE_KEEP_RESIDENT)
        // With `PAGEMAP_SCAN` (Linux 6.7+) only the pages a run wrote in the resident prefix are
        // reset, however many separate runs of them there are: the vendored wasmtime scans on
        // past a full buffer instead of handing the rest back to the kernel (vendor/README.md).
        // Without it the whole resident prefix is copied back from the image on every run.
        .pagemap_scan(Enabled::Auto);
    pool
}

/// The engine configuration of every guest: fuel, epochs, copy-on-write memory images, the
/// stack sizes. The GC support wasmtime is built with (for Yosys's exceptions, see
/// [`crate::YosysRuntime`]) stays off here: a pooled engine with it would reserve a GC heap slot
/// per instance, and no other guest needs it.
pub(crate) fn engine_config() -> Config {
    let mut config = Config::new();
    config
        .gc_support(false)
        .wasm_exceptions(false)
        .consume_fuel(true)
        .epoch_interruption(true)
        .memory_init_cow(true)
        .max_wasm_stack(MAX_WASM_STACK)
        .async_stack_size(ASYNC_STACK);
    config
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run whose caller stops waiting while every worker is busy never starts; the runs that
    /// are waited for start in turn as workers free up.
    #[tokio::test]
    async fn a_run_abandoned_before_it_has_a_worker_never_starts() -> Result<(), SandboxError> {
        let config = SandboxConfig { workers: 1, pool_runs: 0, ..SandboxConfig::default() };
        let host = Arc::new(Host::new(config)?);
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        let busy = {
            let host = Arc::clone(&host);
            tokio::spawn(async move { host.spawn(async move { released.await.is_ok() }).await })
        };
        // Give the first run the only worker.
        while host.slots.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        let started = Arc::new(AtomicBool::new(false));
        let abandoned = {
            let started = Arc::clone(&started);
            host.spawn(async move { started.store(true, Ordering::SeqCst) })
        };
        assert!(tokio::time::timeout(Duration::from_millis(50), abandoned).await.is_err(), "no worker was free");
        let waited = {
            let host = Arc::clone(&host);
            tokio::spawn(async move { host.spawn(async { 7 }).await })
        };
        assert!(release.send(()).is_ok());
        assert!(busy.await.is_ok_and(|run| matches!(run, Ok(true))));
        assert!(waited.await.is_ok_and(|run| matches!(run, Ok(7))));
        assert!(!started.load(Ordering::SeqCst), "the abandoned run started");
        assert_eq!(host.slots.available_permits(), 1, "every slot is back");
        Ok(())
    }

    #[test]
    fn stale_artefacts_are_deleted_and_nothing_else() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let current = "0123456789abcdef01234567";
        let stale = ["python-aaaaaaaaaaaaaaaaaaaaaaaa.cwasm", "python-0123456789abcdef01234568.cwasm"];
        let kept = [
            artefact_name("python", current),
            // Not our naming scheme, or another runtime's: left alone.
            "python-short.cwasm".to_owned(),
            "python-AAAAAAAAAAAAAAAAAAAAAAAA.cwasm".to_owned(),
            "python-aaaaaaaaaaaaaaaaaaaaaaaa.cwasm.bak".to_owned(),
            "python-aaaaaaaaaaaaaaaaaaaaaaaa.1234.partial".to_owned(),
            "other-aaaaaaaaaaaaaaaaaaaaaaaa.cwasm".to_owned(),
            "notes.txt".to_owned(),
        ];
        for name in stale.iter().copied().chain(kept.iter().map(String::as_str)) {
            std::fs::write(dir.path().join(name), b"x")?;
        }
        // A folder with an artefact's name is not a file to delete.
        std::fs::create_dir(dir.path().join("python-bbbbbbbbbbbbbbbbbbbbbbbb.cwasm"))?;
        assert_eq!(prune_stale_artefacts(dir.path(), "python", current), 2);
        for name in stale {
            assert!(!dir.path().join(name).exists(), "{name} is stale");
        }
        for name in &kept {
            assert!(dir.path().join(name).exists(), "{name} must stay");
        }
        assert!(dir.path().join("python-bbbbbbbbbbbbbbbbbbbbbbbb.cwasm").is_dir());
        assert_eq!(prune_stale_artefacts(&dir.path().join("missing"), "python", current), 0);
        Ok(())
    }
}
