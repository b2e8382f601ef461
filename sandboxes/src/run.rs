use std::time::Duration;

use wasmtime::Trap;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{I32Exit, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

use crate::Limits;
use crate::limits::MemoryLimiter;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Termination {
    /// The program finished by itself (see [`Execution::exit_code`]).
    Exited,
    /// The fuel budget ran out.
    OutOfFuel,
    /// The wall-clock backstop fired.
    TimedOut,
    /// The guest ran out of memory under the cap and could not go on.
    MemoryExhausted,
    /// Standard output or standard error went past its cap.
    OutputExceeded,
    /// The guest's native stack overflowed.
    StackOverflow,
    /// Any other trap: the guest crashed.
    Crashed(String),
}

/// The result of one run.
#[derive(Debug, Clone)]
pub struct Execution {
    pub termination: Termination,
    /// The exit status when the program exited (0 on success); -1 when it did not exit.
    pub exit_code: i32,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Fuel spent by the run.
    pub fuel_used: u64,
    /// Wall time of the run, instantiation included.
    pub wall_time: Duration,
    /// Peak linear memory of the guest, in bytes.
    pub memory_peak: usize,
}

/// The per-run state of a store.
pub(crate) struct RunState {
    pub(crate) wasi: WasiCtx,
    pub(crate) table: ResourceTable,
    pub(crate) limiter: MemoryLimiter,
}

impl std::fmt::Debug for RunState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunState").field("limiter", &self.limiter).finish_non_exhaustive()
    }
}

impl WasiView for RunState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

/// The captured output streams of a run.
pub(crate) struct Pipes {
    pub(crate) stdout: MemoryOutputPipe,
    pub(crate) stderr: MemoryOutputPipe,
    stdout_cap: usize,
    stderr_cap: usize,
}

impl Pipes {
    /// One byte over each cap, so that reaching the cap exactly is not mistaken for exceeding it.
    pub(crate) fn new(limits: &Limits) -> Self {
        Pipes {
            stdout: MemoryOutputPipe::new(limits.stdout_bytes.saturating_add(1)),
            stderr: MemoryOutputPipe::new(limits.stderr_bytes.saturating_add(1)),
            stdout_cap: limits.stdout_bytes,
            stderr_cap: limits.stderr_bytes,
        }
    }

    /// A WASI context with these pipes, `stdin` and nothing else: no preopened directories, no
    /// environment, no arguments, no network, a fixed random seed.
    pub(crate) fn wasi(&self, stdin: Vec<u8>, seed: u64) -> WasiCtxBuilder {
        let mut builder = WasiCtxBuilder::new();
        builder
            .stdin(MemoryInputPipe::new(stdin))
            .stdout(self.stdout.clone())
            .stderr(self.stderr.clone())
            .insecure_random_seed(u128::from(seed))
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        builder
    }

    /// The captured outputs, trimmed to their caps, and whether either went past its cap.
    pub(crate) fn take(&self) -> (Vec<u8>, Vec<u8>, bool) {
        let mut stdout = self.stdout.contents().to_vec();
        let mut stderr = self.stderr.contents().to_vec();
        let exceeded = stdout.len() > self.stdout_cap || stderr.len() > self.stderr_cap;
        stdout.truncate(self.stdout_cap);
        stderr.truncate(self.stderr_cap);
        (stdout, stderr, exceeded)
    }
}

/// Classifies an error that ended a run, by its typed value, never by its text.
pub(crate) fn classify(error: &wasmtime::Error, limiter: &MemoryLimiter) -> (Termination, i32) {
    if let Some(exit) = error.downcast_ref::<I32Exit>() {
        return (Termination::Exited, exit.0);
    }
    match error.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => (Termination::OutOfFuel, -1),
        Some(Trap::Interrupt) => (Termination::TimedOut, -1),
        Some(Trap::StackOverflow) => (Termination::StackOverflow, -1),
        Some(_) if limiter.refused => (Termination::MemoryExhausted, -1),
        Some(trap) => (Termination::Crashed(trap.to_string()), -1),
        None if limiter.refused => (Termination::MemoryExhausted, -1),
        None => (Termination::Crashed(format!("{error:#}")), -1),
    }
}
