use std::sync::{Arc, Mutex};
use std::time::Instant;

use sha2::{Digest, Sha256};

use wasmtime::Store;
use wasmtime::component::{ComponentExportIndex, ComponentType, Instance, InstancePre, Lift, Linker, ResourceTable};

use crate::engine::Host;
use crate::error::{Lack, wasmtime_cause};
use crate::limits::MemoryLimiter;
use crate::native::Lru;
use crate::run::{Pipes, RunState, classify, limited_store};
use crate::{Execution, GuestOutcome, Limits, SandboxError, Termination};

/// What the guest app returns from its `run` export.
#[derive(ComponentType, Lift, Debug, Clone)]
#[component(record)]
pub(crate) struct Outcome {
    #[component(name = "exit-code")]
    pub(crate) exit_code: i32,
    pub(crate) exception: Option<String>,
    #[component(name = "compile-error")]
    pub(crate) compile_error: bool,
    pub(crate) report: String,
}

/// Compiled harnesses kept: at most this many,
const HARNESS_ENTRIES: usize = 1024;
/// and at most this many bytes of them.
const HARNESS_BYTES: usize = 64 << 20;

/// What a harness's compile may use, whatever the limits of the run it is for, so that whether a
/// harness compiles depends on the harness alone: fuel for about a second of interpreter CPU (a
/// HumanEval check program takes about 2·10^6), the default memory cap, and a wall-clock backstop
/// far past any compile, so that the machine's load never decides.
const HARNESS_FUEL: u64 = 10_000_000_000;
const HARNESS_MEMORY: usize = 512 << 20;
const HARNESS_WALL_TIME: std::time::Duration = std::time::Duration::from_secs(60);

/// Compiled harnesses (`marshal`'s format) by the SHA-256 of their source; `None` for one that
/// does not compile.
type Harnesses = Lru<[u8; 32], Option<Arc<Vec<u8>>>>;

/// CPython 3.14 as a pre-initialised WASI component (built by `scripts/build-runtimes` with
/// componentize-py), instantiated afresh for every run.
///
/// A harness (the test program that runs after a program) is compiled in an instance of its own,
/// where nothing else runs, and kept by its source's hash: the rollouts of one problem share their
/// harness, and compiling it is most of a HumanEval check's time. Every run with a harness gets
/// the compiled code, whether it came from the cache or not, so a run's fuel never depends on what
/// ran before it.
pub struct PythonRuntime {
    pre: InstancePre<RunState>,
    /// The `run` export, resolved once instead of by name on every run.
    run_export: ComponentExportIndex,
    /// The `compile-harness` export.
    compile_export: ComponentExportIndex,
    harnesses: Mutex<Harnesses>,
    engine: wasmtime::Engine,
}

impl std::fmt::Debug for PythonRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PythonRuntime").finish_non_exhaustive()
    }
}

impl PythonRuntime {
    /// Loads `python.wasm` from the runtimes folder through the precompiled cache.
    pub(crate) fn load(host: &Host) -> Result<PythonRuntime, SandboxError> {
        let dir = host.runtimes_dir();
        let wasm = dir.join(crate::PYTHON_WASM);
        if !wasm.is_file() {
            let config = host.config();
            let searched = std::iter::once(&config.runtimes_dir).chain(&config.runtimes_search).cloned().collect();
            let lack = Lack::RuntimeNotFound { file: crate::PYTHON_WASM, searched };
            return Err(SandboxError::Unavailable { runtime: "python", lack });
        }
        let component = host.load_component("python", &dir, &wasm)?;
        let link = |e| SandboxError::Link { runtime: "Python", source: wasmtime_cause(e) };
        let mut linker = Linker::<RunState>::new(&host.engine);
        wasmtime_wasi::p2::add_to_linker_async(&mut linker).map_err(link)?;
        let pre = linker.instantiate_pre(&component).map_err(link)?;
        let export = |name| {
            component
                .get_export_index(None, name)
                .ok_or_else(|| SandboxError::MissingExport { path: wasm.clone(), export: name })
        };
        Ok(PythonRuntime {
            pre,
            run_export: export("run")?,
            compile_export: export("compile-harness")?,
            harnesses: Mutex::new(Lru::new(HARNESS_ENTRIES, HARNESS_BYTES)),
            engine: host.engine.clone(),
        })
    }

    /// A new instance in its own store: output captured by `pipes`, memory capped and fuel set
    /// by `limits`, yielding to the executor at every epoch tick (so the wall clock can stop it).
    pub(crate) async fn instantiate(
        &self,
        pipes: &Pipes,
        seed: u64,
        limits: &Limits,
    ) -> Result<(Store<RunState>, Instance), SandboxError> {
        let state = RunState {
            wasi: pipes.wasi(Vec::new(), seed).build(),
            table: ResourceTable::new(),
            limiter: MemoryLimiter::new(limits.memory_bytes),
        };
        let mut store = limited_store(&self.engine, state, |state| &mut state.limiter, limits)?;
        let instance = self
            .pre
            .instantiate_async(&mut store)
            .await
            .map_err(|e| SandboxError::Instantiate { source: wasmtime_cause(e) })?;
        Ok((store, instance))
    }

    /// The index of the `run` export.
    pub(crate) fn run_export(&self) -> &ComponentExportIndex {
        &self.run_export
    }

    /// Runs `program` with `stdin`, then `harness` (if any) in the same namespace, under `limits`.
    ///
    /// `seed` seeds the guest's `random` module and WASI's insecure random source. Errors are
    /// failures of the sandbox; everything the program does is in the returned [`Execution`].
    pub async fn run(
        &self,
        program: &str,
        stdin: &[u8],
        harness: Option<&str>,
        seed: u64,
        limits: &Limits,
    ) -> Result<(Execution, GuestOutcome), SandboxError> {
        let started = Instant::now();
        let harness_code = match harness {
            Some(harness) => self.compiled_harness(harness, limits).await?,
            None => None,
        };
        let pipes = Pipes::new(limits);
        let (mut store, instance) = self.instantiate(&pipes, seed, limits).await?;
        let run = instance
            .get_typed_func::<(&str, &[u8], Option<&str>, Option<&[u8]>, u64), (Outcome,)>(&mut store, &self.run_export)
            .map_err(|e| SandboxError::Entry { export: "run", source: wasmtime_cause(e) })?;

        let arguments = (program, stdin, harness, harness_code.as_deref().map(Vec::as_slice), seed);
        let called = tokio::time::timeout(limits.wall_time, run.call_async(&mut store, arguments)).await;
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        let limiter = &store.data().limiter;
        let (stdout, stderr, output_exceeded) = pipes.take();
        let (termination, exit_code, outcome) = match called {
            Err(_elapsed) => (Termination::TimedOut, -1, GuestOutcome::default()),
            Ok(Ok((outcome,))) => {
                let termination = if output_exceeded {
                    Termination::OutputExceeded
                } else if outcome.exception.as_deref() == Some("MemoryError") && limiter.refused {
                    Termination::MemoryExhausted
                } else {
                    Termination::Exited
                };
                let extra = GuestOutcome {
                    exception: outcome.exception,
                    compile_error: outcome.compile_error,
                    report: outcome.report,
                };
                (termination, outcome.exit_code, extra)
            }
            Ok(Err(error)) => {
                let (termination, code) = classify(&error, limiter);
                // A guest that dies writing past the cap ran out of output, not into a bug.
                let crashed_writing = matches!(termination, Termination::Crashed(_) | Termination::Exited);
                let termination =
                    if output_exceeded && crashed_writing { Termination::OutputExceeded } else { termination };
                (termination, code, GuestOutcome::default())
            }
        };
        let execution = Execution {
            termination,
            exit_code,
            stdout,
            stderr,
            fuel_used,
            wall_time: started.elapsed(),
            memory_peak: limiter.peak,
            exit_called: false,
        };
        Ok((execution, outcome))
    }

    /// `harness` compiled, from the cache or by the `compile-harness` export in an instance of
    /// its own under the harness limits above (the run's output caps); `None` when it does not
    /// compile there (its run compiles it, and reports the error as before).
    async fn compiled_harness(&self, harness: &str, limits: &Limits) -> Result<Option<Arc<Vec<u8>>>, SandboxError> {
        let key: [u8; 32] = Sha256::digest(harness.as_bytes()).into();
        if let Some(compiled) = self.harnesses.lock().ok().and_then(|mut cache| cache.get(&key).cloned()) {
            return Ok(compiled);
        }
        let limits =
            Limits { fuel: HARNESS_FUEL, memory_bytes: HARNESS_MEMORY, wall_time: HARNESS_WALL_TIME, ..*limits };
        let pipes = Pipes::new(&limits);
        let (mut store, instance) = self.instantiate(&pipes, 0, &limits).await?;
        let compile = instance
            .get_typed_func::<(&str,), (Option<Vec<u8>>,)>(&mut store, &self.compile_export)
            .map_err(|e| SandboxError::Entry { export: "compile-harness", source: wasmtime_cause(e) })?;
        let called = tokio::time::timeout(limits.wall_time, compile.call_async(&mut store, (harness,))).await;
        // A harness that cannot be compiled within those limits (or does not compile) is
        // compiled in its run, which then meets its own limit or error and reports it.
        let compiled = match called {
            Ok(Ok((code,))) => code.map(Arc::new),
            Ok(Err(_)) | Err(_) => return Ok(None),
        };
        if let Ok(mut cache) = self.harnesses.lock() {
            let bytes = compiled.as_ref().map_or(0, |code| code.len()) + key.len();
            cache.insert(key, compiled.clone(), bytes);
        }
        Ok(compiled)
    }

    /// Like [`PythonRuntime::run`], on the worker threads of `host` (the one it was loaded in).
    pub async fn run_on(
        self: Arc<Self>,
        host: &Host,
        program: String,
        stdin: Vec<u8>,
        harness: Option<String>,
        seed: u64,
        limits: Limits,
    ) -> Result<(Execution, GuestOutcome), SandboxError> {
        host.spawn(async move { self.run(&program, &stdin, harness.as_deref(), seed, &limits).await }).await?
    }
}
