use std::sync::{Arc, Mutex};
use std::time::Instant;

use sha2::{Digest, Sha256};

use wasmtime::Store;
use wasmtime::component::{
    ComponentExportIndex, ComponentType, Func, Instance, InstancePre, Lift, Linker, ResourceTable,
};

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

/// Why the guest's `compile` export returned no code object.
#[derive(ComponentType, Lift, Debug, Clone, Copy, PartialEq, Eq)]
#[component(enum)]
#[repr(u8)]
#[expect(dead_code, reason = "the variants are made by lifting the guest's answer, which the lint does not see")]
enum NotCompiled {
    /// The source does not compile, or compiling it warned: its run compiles it.
    #[component(name = "in-run")]
    InRun,
    /// Compiling it ran out of memory or stack in that instance.
    #[component(name = "exhausted")]
    Exhausted,
}

/// What the guest's `compile` export returns.
type CompileResult = (Result<Vec<u8>, NotCompiled>,);

/// Compiled harnesses kept: at most this many,
const HARNESS_ENTRIES: usize = 1024;
/// and at most this many bytes of them.
const HARNESS_BYTES: usize = 64 << 20;
/// Compiled programs kept. The tests of one item run one after another and share their program's
/// code; across items a program recurs only when rollouts repeat one, so fewer are kept.
const PROGRAM_ENTRIES: usize = 256;
const PROGRAM_BYTES: usize = 32 << 20;

/// What a compile may use, whatever the limits of the run it is for, so that whether a source
/// compiles depends on the source alone: fuel for about a second of interpreter CPU (a HumanEval
/// check program takes about 2·10^6), the default memory cap, and a wall-clock backstop far past
/// any compile, so that the machine's load never decides.
const COMPILE_FUEL: u64 = 10_000_000_000;
const COMPILE_MEMORY: usize = 512 << 20;
const COMPILE_WALL_TIME: std::time::Duration = std::time::Duration::from_secs(60);

/// The limits a compile runs under: those above, with the output caps of `output`.
fn compile_limits(output: &Limits) -> Limits {
    Limits { fuel: COMPILE_FUEL, memory_bytes: COMPILE_MEMORY, wall_time: COMPILE_WALL_TIME, ..*output }
}

/// A kept compiler is replaced after this many compiles, or once its memory has grown past
/// this size, so that what earlier compiles left behind never adds up.
const COMPILER_USES: u32 = 1000;
const COMPILER_MEMORY: usize = 64 << 20;

/// Compiled sources (`marshal`'s format) by the SHA-256 of their source; `None` for one that its
/// run compiles.
type CodeCache = Lru<[u8; 32], Option<Arc<Vec<u8>>>>;

/// What a source is compiled as: the file name its code carries, the cache it is kept in, and
/// whether the warnings of its compile are its run's (a program's are, a harness's are not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Program,
    Harness,
}

impl Source {
    fn file_name(self) -> &'static str {
        match self {
            Source::Program => "<program>",
            Source::Harness => "<harness>",
        }
    }
}

/// An instance of the runtime kept to compile source after source, so that a compile does not
/// cost an instance of its own. CPython's compiler leaves nothing in the interpreter that changes
/// the code it makes, so the code is byte for byte what a fresh instance makes (a test holds it
/// to that).
struct Compiler {
    store: Store<RunState>,
    compile: Func,
    pipes: Pipes,
    uses: u32,
}

/// A Python program to run: its source, and its code when it was compiled ahead of its runs
/// ([`PythonRuntime::compile`]). One made from a source alone is compiled in each of its runs.
#[derive(Debug, Clone)]
pub struct PythonProgram {
    source: Arc<str>,
    code: Option<Arc<Vec<u8>>>,
}

impl PythonProgram {
    /// The program's source.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether its runs get its compiled code, rather than compiling it themselves: false for
    /// a program made from a source alone, and for one that does not compile, or whose compile
    /// warns (its runs report the error, or show the warnings).
    pub fn is_compiled(&self) -> bool {
        self.code.is_some()
    }
}

impl From<String> for PythonProgram {
    fn from(source: String) -> Self {
        PythonProgram { source: source.into(), code: None }
    }
}

impl From<&str> for PythonProgram {
    fn from(source: &str) -> Self {
        PythonProgram { source: source.into(), code: None }
    }
}

/// CPython 3.14 as a pre-initialised WASI component (built by `scripts/build-runtimes` with
/// componentize-py), instantiated afresh for every run.
///
/// A harness (the test program that runs after a program) is compiled before its run, in an
/// instance where nothing else runs, and kept by its source's hash: the rollouts of one problem
/// share their harness, and compiling it is most of a HumanEval check's time. Every run with a
/// harness gets the compiled code, whether it came from the cache or not, so a run's fuel never
/// depends on what ran before it. A program that runs several times (the tests of one item) can
/// be compiled once the same way ([`PythonRuntime::compile`]); a program run from its source
/// alone is compiled in its run, and its fuel counts the compile.
pub struct PythonRuntime {
    pre: InstancePre<RunState>,
    /// The `run` export, resolved once instead of by name on every run.
    run_export: ComponentExportIndex,
    /// The `compile` export.
    compile_export: ComponentExportIndex,
    harnesses: Mutex<CodeCache>,
    programs: Mutex<CodeCache>,
    /// Compilers between uses: at most one per worker.
    compilers: Mutex<Vec<Compiler>>,
    workers: usize,
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
            compile_export: export("compile")?,
            harnesses: Mutex::new(Lru::new(HARNESS_ENTRIES, HARNESS_BYTES)),
            programs: Mutex::new(Lru::new(PROGRAM_ENTRIES, PROGRAM_BYTES)),
            compilers: Mutex::new(Vec::new()),
            workers: host.config().workers.max(1),
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

    /// `program` compiled once for runs to share: from the cache of compiled programs (by the
    /// source's SHA-256), or by an instance that compiles and runs nothing else, under limits
    /// of its own whatever the runs' (10^10 fuel, 512 MiB), so that whether a program compiles
    /// depends on its source alone. Its runs' fuel does not count the compile, and is the same
    /// whether the code came from the cache or not.
    pub async fn compile(&self, program: &str) -> Result<PythonProgram, SandboxError> {
        let code = self.compiled(Source::Program, program, &Limits::default()).await?;
        Ok(PythonProgram { source: program.into(), code })
    }

    /// Like [`PythonRuntime::compile`], on the worker threads of `host` (the one it was loaded in).
    pub async fn compile_on(self: Arc<Self>, host: &Host, program: String) -> Result<PythonProgram, SandboxError> {
        host.spawn(async move { self.compile(&program).await }).await?
    }

    /// Runs `program` with `stdin`, then `harness` (if any) in the same namespace, under `limits`.
    ///
    /// `seed` seeds the guest's `random` module and WASI's insecure random source. Errors are
    /// failures of the sandbox; everything the program does is in the returned [`Execution`].
    pub async fn run(
        &self,
        program: &PythonProgram,
        stdin: &[u8],
        harness: Option<&str>,
        seed: u64,
        limits: &Limits,
    ) -> Result<(Execution, GuestOutcome), SandboxError> {
        let started = Instant::now();
        let harness_code = match harness {
            Some(harness) => self.compiled(Source::Harness, harness, limits).await?,
            None => None,
        };
        let pipes = Pipes::new(limits);
        let (mut store, instance) = self.instantiate(&pipes, seed, limits).await?;
        let run = instance
            .get_typed_func::<(&str, Option<&[u8]>, &[u8], Option<&str>, Option<&[u8]>, u64), (Outcome,)>(
                &mut store,
                &self.run_export,
            )
            .map_err(|e| SandboxError::Entry { export: "run", source: wasmtime_cause(e) })?;

        let program_code = program.code.as_deref().map(Vec::as_slice);
        let harness_code = harness_code.as_deref().map(Vec::as_slice);
        let arguments = (program.source(), program_code, stdin, harness, harness_code, seed);
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

    /// `source` compiled as `kind`, from its cache or by a compiler under the compile limits
    /// above (the output caps of `limits`); `None` when its run is to compile it (it does not
    /// compile, a program's compile warns, or it cannot be compiled within those limits: the run
    /// then meets its own limit or error and reports it).
    async fn compiled(
        &self,
        kind: Source,
        source: &str,
        limits: &Limits,
    ) -> Result<Option<Arc<Vec<u8>>>, SandboxError> {
        let cache = match kind {
            Source::Program => &self.programs,
            Source::Harness => &self.harnesses,
        };
        let key: [u8; 32] = Sha256::digest(source.as_bytes()).into();
        if let Some(compiled) = cache.lock().ok().and_then(|mut cache| cache.get(&key).cloned()) {
            return Ok(compiled);
        }
        let limits = compile_limits(limits);
        // A kept compiler's answer stands when it has one; anything else (a trap, its memory
        // or stack used up) is asked again of a fresh instance, whose answer depends on the
        // source alone.
        let kept = self.compilers.lock().ok().and_then(|mut compilers| compilers.pop());
        let mut compiler = match kept {
            Some(compiler) => compiler,
            None => self.compiler(&limits).await?,
        };
        let mut compiled = compiler.compile(kind, source, &limits).await;
        if compiled.is_err() && compiler.uses > 1 {
            compiler = self.compiler(&limits).await?;
            compiled = compiler.compile(kind, source, &limits).await;
        }
        let reusable = compiler.uses < COMPILER_USES && compiler.store.data().limiter.peak <= COMPILER_MEMORY;
        if compiled.is_ok()
            && reusable
            && let Ok(mut compilers) = self.compilers.lock()
            && compilers.len() < self.workers
        {
            compilers.push(compiler);
        }
        let compiled = compiled.ok().flatten().map(Arc::new);
        if let Ok(mut cache) = cache.lock() {
            let bytes = compiled.as_ref().map_or(0, |code| code.len()) + key.len();
            cache.insert(key, compiled.clone(), bytes);
        }
        Ok(compiled)
    }

    /// A compiler in an instance of its own.
    async fn compiler(&self, limits: &Limits) -> Result<Compiler, SandboxError> {
        let pipes = Pipes::new(limits);
        let (mut store, instance) = self.instantiate(&pipes, 0, limits).await?;
        let compile = *instance
            .get_typed_func::<(&str, &str, bool), CompileResult>(&mut store, &self.compile_export)
            .map_err(|e| SandboxError::Entry { export: "compile", source: wasmtime_cause(e) })?
            .func();
        Ok(Compiler { store, compile, pipes, uses: 0 })
    }

    /// Like [`PythonRuntime::run`], on the worker threads of `host` (the one it was loaded in).
    pub async fn run_on(
        self: Arc<Self>,
        host: &Host,
        program: impl Into<PythonProgram>,
        stdin: Vec<u8>,
        harness: Option<String>,
        seed: u64,
        limits: Limits,
    ) -> Result<(Execution, GuestOutcome), SandboxError> {
        let program = program.into();
        host.spawn(async move { self.run(&program, &stdin, harness.as_deref(), seed, &limits).await }).await?
    }
}

impl Compiler {
    /// `source` compiled as `kind`: `Ok(None)` when its run is to compile it, an error when this
    /// instance could not answer (it trapped, or ran out of memory or stack).
    async fn compile(&mut self, kind: Source, source: &str, limits: &Limits) -> Result<Option<Vec<u8>>, ()> {
        self.uses += 1;
        self.pipes.reset(limits);
        self.store.data_mut().limiter.refused = false;
        self.store.set_fuel(limits.fuel).map_err(drop)?;
        let compile = self.compile.typed::<(&str, &str, bool), CompileResult>(&self.store).map_err(drop)?;
        let arguments = (source, kind.file_name(), kind == Source::Program);
        let called = tokio::time::timeout(limits.wall_time, compile.call_async(&mut self.store, arguments));
        match called.await {
            Ok(Ok((Ok(code),))) => Ok(Some(code)),
            Ok(Ok((Err(NotCompiled::InRun),))) => Ok(None),
            Ok(Ok((Err(NotCompiled::Exhausted),))) | Ok(Err(_)) | Err(_) => {
                // A trap or a dropped call leaves the instance unusable.
                self.uses = COMPILER_USES;
                Err(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Sandbox, SandboxConfig};

    /// Every HumanEval prompt with its canonical solution, and every check program: sources
    /// nobody here wrote, with docstrings, literals of every kind, nested functions and classes.
    fn corpus() -> Vec<(Source, String)> {
        include_str!("../../verifiers/code/tests/data/HumanEval.jsonl")
            .lines()
            .flat_map(|line| {
                let row: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
                let field = |name: &str| row[name].as_str().unwrap_or_default().to_owned();
                let program = format!("{}{}", field("prompt"), field("canonical_solution"));
                let harness = format!("{}\ncheck({})\n", field("test"), field("entry_point"));
                [(Source::Program, program), (Source::Harness, harness)]
            })
            .collect()
    }

    /// A kept compiler gives every source the code a fresh instance gives it, byte for byte, after
    /// any number of other compiles: what makes a run's fuel independent of which compiler, and
    /// what it compiled before, made its code.
    #[tokio::test]
    async fn a_kept_compiler_makes_the_code_a_fresh_instance_makes() -> Result<(), SandboxError> {
        let sandbox = Sandbox::new(SandboxConfig { workers: 1, ..SandboxConfig::default() })?;
        let python = sandbox.python()?;
        let limits = compile_limits(&Limits::default());
        let corpus = corpus();
        assert_eq!(corpus.len(), 2 * 164, "the HumanEval rows are all there");
        let mut kept = python.compiler(&limits).await?;
        for (at, (kind, source)) in corpus.iter().enumerate() {
            let warm = kept.compile(*kind, source, &limits).await;
            let fresh = python.compiler(&limits).await?.compile(*kind, source, &limits).await;
            let warm = warm.unwrap_or_else(|()| panic!("source {at} could not be compiled by the kept compiler"));
            let fresh = fresh.unwrap_or_else(|()| panic!("source {at} could not be compiled in a fresh instance"));
            assert!(warm.is_some(), "source {at} compiles");
            assert!(warm == fresh, "source {at}: a kept compiler made other code than a fresh instance");
        }
        assert_eq!(kept.uses, 2 * 164);
        Ok(())
    }

    /// Sources that do not compile, and programs whose compile warns, are left to their run
    /// (which reports the error or shows the warnings); a harness that warns is compiled (its
    /// warnings are not the program's). The compiler stays usable after all of them.
    #[tokio::test]
    async fn errors_and_warnings_are_left_to_the_run() -> Result<(), SandboxError> {
        let sandbox = Sandbox::new(SandboxConfig { workers: 1, ..SandboxConfig::default() })?;
        let python = sandbox.python()?;
        let limits = Limits::default();
        let mut compiler = python.compiler(&limits).await?;
        for source in ["def f(:\n", "x = 1\0\n", "print('\\d')\n", "assert (1, 'always true')\n", "if x is 1: pass\n"] {
            assert_eq!(compiler.compile(Source::Program, source, &limits).await, Ok(None), "{source:?}");
        }
        for source in ["print('\\d')\n", "if x is 1: pass\n"] {
            let code = compiler.compile(Source::Harness, source, &limits).await;
            assert!(code.is_ok_and(|code| code.is_some()), "{source:?}");
        }
        assert_eq!(compiler.compile(Source::Harness, "def f(:\n", &limits).await, Ok(None));
        let code = compiler.compile(Source::Program, "print(1)\n", &limits).await;
        assert!(code.is_ok_and(|code| code.is_some()));
        Ok(())
    }
}
