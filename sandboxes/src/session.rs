//! A persistent Python interpreter: one instance of the Python runtime kept alive between cells,
//! so that variables, imports and functions defined by one cell are there for the next (the
//! interpreter a tool-using agent drives).
//!
//! Each cell is one call of the runtime's `run` export on the same instance, with a small driver
//! program (`session.py`) that keeps the session's namespace in `sys.modules` and reports a final
//! expression's value. Every cell gets its own fuel, wall-clock and output budgets; the memory cap
//! holds for the instance as a whole. A cell that ends in a trap (fuel, wall clock, memory, output
//! or stack exhausted, a crash) leaves the instance unusable: the session is then
//! [dead](PythonSession::is_alive) and its owner starts a new one.

use std::sync::Arc;
use std::time::Instant;

use serde::Deserialize;
use wasmtime::Store;
use wasmtime::component::TypedFunc;

use crate::engine::Host;
use crate::error::wasmtime_cause;
use crate::python::Outcome;
use crate::run::{Pipes, RunState, classify};
use crate::{Execution, Limits, PythonRuntime, SandboxError, Termination};

/// The driver that runs the first cell and keeps itself in the session; the cell's source is its
/// standard input.
const DRIVER: &str = include_str!("session.py");

/// The program of every later cell: the driver the first cell left in the session.
const NEXT_CELL: &str = "import sys\n__referee_report__ = sys.modules['__referee_session__'].run()\n";

type RunFunc = TypedFunc<(String, Option<Vec<u8>>, Vec<u8>, Option<String>, Option<Vec<u8>>, u64), (Outcome,)>;

/// What one cell did besides its [`Execution`] (whose output streams are the cell's own), as
/// the driver reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct CellOutcome {
    /// The cell's number in the session, from 1.
    pub cell: u64,
    /// The `repr` of the cell's final expression when it had one and its value was not `None`
    /// (at most 65,536 characters; `value_truncated` says when it was cut).
    pub value: Option<String>,
    #[serde(default)]
    pub value_truncated: bool,
    /// The exception that ended the cell, if one did (a `SyntaxError` when it did not parse).
    /// The traceback is in the cell's standard error.
    pub exception: Option<CellException>,
}

/// An exception raised by a cell.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CellException {
    /// The exception's type name (`ZeroDivisionError`).
    #[serde(rename = "type")]
    pub kind: String,
    /// `str()` of the exception.
    pub message: String,
}

/// A live Python interpreter in its own store. Send it to the sandbox's workers to run a cell
/// ([`PythonSession::run_cell_on`]); between cells it holds its instance and memory, nothing else.
pub struct PythonSession {
    store: Store<RunState>,
    run: RunFunc,
    pipes: Pipes,
    seed: u64,
    /// Cells run so far.
    cells: u64,
    alive: bool,
}

impl std::fmt::Debug for PythonSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PythonSession").field("alive", &self.alive).finish_non_exhaustive()
    }
}

impl PythonSession {
    /// A fresh interpreter: an instance of `runtime` whose memory is capped at `limits.memory_bytes`
    /// for its whole life, and whose cells may each write `limits.stdout_bytes` and
    /// `limits.stderr_bytes`. `seed` seeds `random` (cell `n` reseeds it with `seed + n`).
    pub async fn start(runtime: &PythonRuntime, seed: u64, limits: &Limits) -> Result<PythonSession, SandboxError> {
        let pipes = Pipes::new(limits);
        let (mut store, instance) = runtime.instantiate(&pipes, seed, limits).await?;
        let run = instance
            .get_typed_func::<(String, Option<Vec<u8>>, Vec<u8>, Option<String>, Option<Vec<u8>>, u64), (Outcome,)>(
                &mut store,
                runtime.run_export(),
            )
            .map_err(|e| SandboxError::Entry { export: "run", source: wasmtime_cause(e) })?;
        Ok(PythonSession { store, run, pipes, seed, cells: 0, alive: true })
    }

    /// Like [`PythonSession::start`], on the worker threads of `host` (the one `runtime` was
    /// loaded in).
    pub async fn start_on(
        runtime: Arc<PythonRuntime>,
        host: &Host,
        seed: u64,
        limits: Limits,
    ) -> Result<PythonSession, SandboxError> {
        host.spawn(async move { PythonSession::start(&runtime, seed, &limits).await }).await?
    }

    /// False once a cell ended in a trap: the instance cannot run another cell.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// The highest linear memory the interpreter has had, in bytes.
    pub fn memory_peak(&self) -> usize {
        self.store.data().limiter.peak
    }

    /// Runs `source` as the next cell under `limits` (its fuel, wall time and output caps; the
    /// memory cap is the session's). Errors are failures of the sandbox or a cell sent to a dead
    /// session; everything the cell does is in the result.
    pub async fn run_cell(&mut self, source: &str, limits: &Limits) -> Result<(Execution, CellOutcome), SandboxError> {
        if !self.alive {
            return Err(SandboxError::SessionEnded);
        }
        let started = Instant::now();
        self.pipes.reset(limits);
        self.store.data_mut().limiter.refused = false;
        self.store.set_fuel(limits.fuel).map_err(|e| SandboxError::Fuel { source: wasmtime_cause(e) })?;
        self.cells += 1;
        let cell_seed = self.seed.wrapping_add(self.cells);
        let program = if self.cells == 1 { DRIVER } else { NEXT_CELL };
        let params = (program.to_owned(), None, source.as_bytes().to_vec(), None, None, cell_seed);
        let called = tokio::time::timeout(limits.wall_time, self.run.call_async(&mut self.store, params)).await;
        let fuel_used = limits.fuel.saturating_sub(self.store.get_fuel().unwrap_or(0));
        let limiter = &self.store.data().limiter;
        let (stdout, stderr, output_exceeded) = self.pipes.take();
        // Only a cell that returned leaves the instance able to run another: a trap, or a call
        // dropped by the wall clock, leaves it mid-call.
        let returned = matches!(called, Ok(Ok(_)));
        let mut cell = CellOutcome::default();
        let termination = match called {
            Err(_elapsed) => Termination::TimedOut,
            Ok(Ok((outcome,))) if output_exceeded => {
                drop(outcome);
                Termination::OutputExceeded
            }
            Ok(Ok((outcome,))) => {
                match serde_json::from_str::<CellOutcome>(&outcome.report) {
                    Ok(reported) => cell = reported,
                    // The driver always reports; without a report the flush at the end failed
                    // (the runtime names the error).
                    Err(_) => {
                        let kind = outcome.exception.unwrap_or_else(|| "SystemError".to_owned());
                        cell.exception = Some(CellException { kind, message: String::new() });
                    }
                }
                if cell.exception.as_ref().is_some_and(|e| e.kind == "MemoryError") && limiter.refused {
                    Termination::MemoryExhausted
                } else {
                    Termination::Exited
                }
            }
            Ok(Err(error)) => {
                let (termination, _) = classify(&error, limiter);
                let crashed_writing = matches!(termination, Termination::Crashed(_) | Termination::Exited);
                if output_exceeded && crashed_writing { Termination::OutputExceeded } else { termination }
            }
        };
        if !returned {
            self.alive = false;
        }
        let execution = Execution {
            termination,
            exit_code: if returned { 0 } else { -1 },
            stdout,
            stderr,
            fuel_used,
            wall_time: started.elapsed(),
            memory_peak: self.store.data().limiter.peak,
            exit_called: false,
        };
        Ok((execution, cell))
    }

    /// Like [`PythonSession::run_cell`], on the worker threads of `host` (the one the session was
    /// started on). The session comes back with the result, alive or not.
    pub async fn run_cell_on(
        mut self,
        host: &Host,
        source: String,
        limits: Limits,
    ) -> Result<(PythonSession, Result<(Execution, CellOutcome), SandboxError>), SandboxError> {
        host.spawn(async move {
            let result = self.run_cell(&source, &limits).await;
            (self, result)
        })
        .await
    }
}
