use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use sha2::{Digest, Sha256};
use wasmtime::component::Component;
use wasmtime::{Config, Engine};

use crate::{NativeRuntime, PythonRuntime, SandboxError};

/// How often the epoch ticks. Each tick lets a running guest yield to the executor, so the
/// wall-clock backstop can fire even while the guest computes.
const EPOCH_TICK: Duration = Duration::from_millis(5);

/// Wasm stack a guest may use. CPython's C-level recursion (`functools.lru_cache`, `repr` of
/// nested lists) needs several MiB; the default 512 KiB traps early.
const MAX_WASM_STACK: usize = 8 << 20;

/// Where the sandbox finds its guest runtimes and keeps precompiled artefacts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxConfig {
    /// The folder `scripts/build-runtimes` writes (`python.wasm`).
    pub runtimes_dir: PathBuf,
    /// Worker threads that run guests; one per core by default.
    pub workers: usize,
}

impl Default for SandboxConfig {
    /// `REFEREE_RUNTIMES_DIR` when set, else `runtimes/build` of the source tree this was built
    /// from; one worker per available core.
    fn default() -> Self {
        let runtimes_dir = std::env::var_os("REFEREE_RUNTIMES_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtimes/build"));
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        SandboxConfig { runtimes_dir, workers }
    }
}

/// The process's wasmtime engine, the executor guests run on and the loaded runtimes.
#[derive(Debug)]
pub struct Sandbox {
    pub(crate) engine: Engine,
    config: SandboxConfig,
    executor: tokio::runtime::Runtime,
    /// One permit per worker: a run starts (and its wall clock with it) only when it has a core,
    /// so a burst of runs queues instead of sharing the cores and timing out together.
    slots: Arc<tokio::sync::Semaphore>,
    python: OnceLock<Result<Arc<PythonRuntime>, String>>,
    native: OnceLock<Result<Arc<NativeRuntime>, String>>,
}

impl Sandbox {
    /// The sandbox of this process, created on first use with [`SandboxConfig::default`].
    pub fn global() -> Result<&'static Sandbox, SandboxError> {
        static GLOBAL: OnceLock<Result<Sandbox, String>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| Sandbox::new(SandboxConfig::default()).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| SandboxError::Setup(e.clone()))
    }

    /// A sandbox with its own engine, epoch ticker and worker threads.
    pub fn new(config: SandboxConfig) -> Result<Sandbox, SandboxError> {
        let engine = Engine::new(&engine_config()).map_err(|e| SandboxError::Setup(format!("{e:#}")))?;
        let executor = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(config.workers.max(1))
            .thread_name("referee-sandbox")
            .enable_time()
            .build()
            .map_err(|e| SandboxError::Setup(format!("cannot start the sandbox workers: {e}")))?;
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
            .map_err(|e| SandboxError::Setup(format!("cannot start the epoch ticker: {e}")))?;
        let slots = Arc::new(tokio::sync::Semaphore::new(config.workers.max(1)));
        Ok(Sandbox { engine, config, executor, slots, python: OnceLock::new(), native: OnceLock::new() })
    }

    /// The Python runtime, loaded (and precompiled if needed) on first use.
    pub fn python(&self) -> Result<Arc<PythonRuntime>, SandboxError> {
        self.python
            .get_or_init(|| PythonRuntime::load(self).map(Arc::new).map_err(|e| e.to_string()))
            .clone()
            .map_err(SandboxError::Setup)
    }

    /// The C and C++ runtime.
    pub fn native(&self) -> Result<Arc<NativeRuntime>, SandboxError> {
        self.native
            .get_or_init(|| NativeRuntime::new(self).map(Arc::new).map_err(|e| e.to_string()))
            .clone()
            .map_err(SandboxError::Setup)
    }

    /// The configuration the sandbox was created with.
    pub fn config(&self) -> &SandboxConfig {
        &self.config
    }

    /// Runs a future on the sandbox's worker threads once a worker is free, and awaits it.
    pub(crate) async fn spawn<F>(&self, future: F) -> Result<F::Output, SandboxError>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let slot = Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .map_err(|e| SandboxError::Setup(format!("the sandbox's run queue is closed: {e}")))?;
        let running = self.executor.spawn(async move {
            let output = future.await;
            drop(slot);
            output
        });
        running.await.map_err(|e| SandboxError::Setup(format!("sandbox worker failed: {e}")))
    }

    /// Loads a component from `wasm`, through a precompiled artefact cached next to it.
    ///
    /// The artefact's name carries the hash of the component, the wasmtime version and the
    /// engine configuration, so a changed component or engine compiles afresh.
    pub(crate) fn load_component(&self, name: &'static str, wasm: &Path) -> Result<Component, SandboxError> {
        let bytes = std::fs::read(wasm)
            .map_err(|_| SandboxError::RuntimeMissing { runtime: name, path: wasm.display().to_string() })?;
        let mut engine_hash = DefaultHasher::new();
        self.engine.precompile_compatibility_hash().hash(&mut engine_hash);
        let mut key = Sha256::new();
        key.update(&bytes);
        key.update(wasmtime_version().as_bytes());
        key.update(engine_hash.finish().to_le_bytes());
        let key = hex::encode(&key.finalize()[..12]);
        let dir = self.config.runtimes_dir.join("precompiled");
        let artefact = dir.join(format!("{name}-{key}.cwasm"));
        if !artefact.exists() {
            tracing::info!(runtime = name, path = %artefact.display(), "precompiling the guest runtime");
            let compiled = self
                .engine
                .precompile_component(&bytes)
                .map_err(|e| SandboxError::Setup(format!("cannot compile {}: {e:#}", wasm.display())))?;
            std::fs::create_dir_all(&dir).map_err(|e| SandboxError::Setup(format!("{}: {e}", dir.display())))?;
            let partial = dir.join(format!("{name}-{key}.{}.partial", std::process::id()));
            std::fs::write(&partial, compiled)
                .and_then(|()| std::fs::rename(&partial, &artefact))
                .map_err(|e| SandboxError::Setup(format!("{}: {e}", artefact.display())))?;
        }
        deserialize(&self.engine, &artefact)
    }
}

#[allow(unsafe_code, reason = "the artefact is one this engine wrote, under a name keyed by its configuration")]
fn deserialize(engine: &Engine, artefact: &Path) -> Result<Component, SandboxError> {
    // SAFETY: `deserialize_file` trusts the file to be wasmtime's own output. Only
    // `load_component` writes into the precompiled folder, by atomic rename, and the name keys
    // the engine configuration; wasmtime also checks the version and configuration it records.
    unsafe { Component::deserialize_file(engine, artefact) }
        .map_err(|e| SandboxError::Setup(format!("cannot load {}: {e:#}", artefact.display())))
}

fn wasmtime_version() -> &'static str {
    // Pinned exactly in Cargo.toml; part of the artefact key.
    "48.0.8"
}

fn engine_config() -> Config {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        .memory_init_cow(true)
        .max_wasm_stack(MAX_WASM_STACK)
        .async_stack_size(MAX_WASM_STACK + (2 << 20));
    config
}
