use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use tokio::io::AsyncWrite;
use wasmtime::component::ResourceTable;
use wasmtime::{Engine, Store, Trap, UpdateDeadline};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError, StreamResult};
use wasmtime_wasi::{I32Exit, WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView, async_trait};

use crate::error::wasmtime_cause;
use crate::limits::MemoryLimiter;
use crate::{Limits, SandboxError};

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
    /// A compiled program ended by calling `exit` (WASI `proc_exit`) rather than by returning
    /// from `main`, which wasi-libc's start code does without calling it when `main` returns 0.
    /// Always false for Python and JavaScript runs.
    pub exit_called: bool,
}

impl Execution {
    /// A run whose module could not be instantiated because its initial memory is over the cap:
    /// `memory_limit` before any instruction ran.
    pub(crate) fn refused_at_start(wall_time: Duration) -> Execution {
        Execution {
            termination: Termination::MemoryExhausted,
            exit_code: -1,
            stdout: Vec::new(),
            stderr: Vec::new(),
            fuel_used: 0,
            wall_time,
            memory_peak: 0,
            exit_called: false,
        }
    }
}

/// What a Python or JavaScript run produced besides the [`Execution`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuestOutcome {
    /// The type name of the uncaught exception that ended the program, if any.
    pub exception: Option<String>,
    /// True when the program did not compile; `exception` is then its `SyntaxError`.
    pub compile_error: bool,
    /// What the harness reported (Python: `__referee_report__`; JavaScript: the driver's
    /// record); empty without a harness or when the run did not finish.
    pub report: String,
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

/// The trap a guest gets when it writes past an output cap: the run ends there and then, so a
/// program that ignores write errors cannot spin on a full pipe until its budget runs out.
#[derive(Debug, thiserror::Error)]
#[error("the program wrote past its output cap")]
pub(crate) struct OutputCapExceeded;

/// An in-memory standard output or error that keeps at most `cap` bytes and traps the guest on
/// the first write past it (the bytes up to the cap are kept).
#[derive(Debug, Clone)]
pub(crate) struct CappedOutput {
    buffer: Arc<Mutex<Vec<u8>>>,
    exceeded: Arc<AtomicBool>,
    /// Shared like the buffer, so a session's next cell can change it for every handle.
    cap: Arc<AtomicUsize>,
}

/// How much a guest may write in one call: more than its whole memory, so that a write is never
/// cut short. CPython's standard streams drop the rest of a short write without an error, which
/// would turn an output flood into a silently truncated output; past the cap, `write` traps.
const WRITE_PERMIT: usize = u32::MAX as usize;

impl CappedOutput {
    fn new(cap: usize) -> Self {
        CappedOutput { buffer: Arc::default(), exceeded: Arc::default(), cap: Arc::new(AtomicUsize::new(cap)) }
    }

    /// Appends what fits under the cap; false when some of `bytes` did not fit.
    fn append(&self, bytes: &[u8]) -> bool {
        let Ok(mut buffer) = self.buffer.lock() else { return false };
        let room = self.cap.load(Ordering::Relaxed).saturating_sub(buffer.len());
        buffer.extend_from_slice(&bytes[..bytes.len().min(room)]);
        if bytes.len() > room {
            self.exceeded.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    fn contents(&self) -> Vec<u8> {
        self.buffer.lock().map(|b| b.clone()).unwrap_or_default()
    }

    /// Empties the buffer and sets a new cap, for the next cell of a session.
    fn reset(&self, cap: usize) {
        if let Ok(mut buffer) = self.buffer.lock() {
            buffer.clear();
        }
        self.exceeded.store(false, Ordering::Relaxed);
        self.cap.store(cap, Ordering::Relaxed);
    }
}

impl OutputStream for CappedOutput {
    fn write(&mut self, bytes: Bytes) -> StreamResult<()> {
        if self.append(&bytes) { Ok(()) } else { Err(StreamError::Trap(wasmtime::Error::new(OutputCapExceeded))) }
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(WRITE_PERMIT)
    }
}

#[async_trait]
impl Pollable for CappedOutput {
    async fn ready(&mut self) {}
}

impl AsyncWrite for CappedOutput {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, bytes: &[u8]) -> Poll<std::io::Result<usize>> {
        if self.append(bytes) {
            Poll::Ready(Ok(bytes.len()))
        } else {
            Poll::Ready(Err(std::io::Error::other(OutputCapExceeded)))
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl IsTerminal for CappedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CappedOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

/// The captured output streams of a run.
pub(crate) struct Pipes {
    stdout: CappedOutput,
    stderr: CappedOutput,
}

impl Pipes {
    pub(crate) fn new(limits: &Limits) -> Self {
        Pipes { stdout: CappedOutput::new(limits.stdout_bytes), stderr: CappedOutput::new(limits.stderr_bytes) }
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

    /// Empties both streams and gives them the caps of `limits`, for every handle the guest holds.
    pub(crate) fn reset(&self, limits: &Limits) {
        self.stdout.reset(limits.stdout_bytes);
        self.stderr.reset(limits.stderr_bytes);
    }

    /// The captured outputs (each at most its cap), and whether either went past its cap.
    pub(crate) fn take(&self) -> (Vec<u8>, Vec<u8>, bool) {
        let exceeded = self.stdout.exceeded.load(Ordering::Relaxed) || self.stderr.exceeded.load(Ordering::Relaxed);
        (self.stdout.contents(), self.stderr.contents(), exceeded)
    }
}

/// A store for one run of a guest holding `state`: the memory cap of `limiter`, the fuel of
/// `limits`, and an epoch deadline that yields to the executor at every tick (the wall clock is
/// kept by a timeout around the call).
pub(crate) fn limited_store<T: Send + 'static>(
    engine: &Engine,
    state: T,
    limiter: fn(&mut T) -> &mut MemoryLimiter,
    limits: &Limits,
) -> Result<Store<T>, SandboxError> {
    let mut store = Store::new(engine, state);
    store.limiter(move |state| limiter(state));
    store.set_fuel(limits.fuel).map_err(|e| SandboxError::Fuel { source: wasmtime_cause(e) })?;
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(|_| Ok(UpdateDeadline::Yield(1)));
    Ok(store)
}

/// How a run ended once its caps are weighed: a run that exited or trapped after its output went
/// past the cap met the output cap; a failed exit after the memory cap refused an allocation met
/// the memory cap.
pub(crate) fn after_caps(
    (termination, code): (Termination, i32),
    output_exceeded: bool,
    limiter: &MemoryLimiter,
) -> (Termination, i32) {
    match (termination, code) {
        (Termination::Exited | Termination::Crashed(_), _) if output_exceeded => (Termination::OutputExceeded, -1),
        (Termination::Exited, code) if code != 0 && limiter.refused => (Termination::MemoryExhausted, code),
        other => other,
    }
}

/// Classifies an error that ended a run, by its typed value, never by its text.
pub(crate) fn classify(error: &wasmtime::Error, limiter: &MemoryLimiter) -> (Termination, i32) {
    if let Some(exit) = error.downcast_ref::<I32Exit>() {
        return (Termination::Exited, exit.0);
    }
    if error.downcast_ref::<OutputCapExceeded>().is_some() {
        return (Termination::OutputExceeded, -1);
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
