//! Referee's WebAssembly sandbox.
//!
//! One wasmtime [`Engine`](wasmtime::Engine) per process runs untrusted programs inside guest
//! runtimes: CPython compiled to a WASI component ([`PythonRuntime`]) and C/C++ programs compiled
//! to `wasm32-wasi` core modules. Every run gets a fresh `Store` with:
//!
//! - a memory cap enforced by a `ResourceLimiter`;
//! - stdin from memory, stdout and stderr into capped memory buffers;
//! - no host filesystem, no environment variables, no arguments; the Python world has no socket
//!   imports at all, so there is nothing to call;
//! - **fuel** as the budget: deterministic, so the same program gets the same verdict however
//!   loaded the machine is; a wall-clock timeout is the backstop that also stops a guest blocked
//!   in a host call (`time.sleep`).
//!
//! A run reports how it ended ([`Termination`]), the fuel it used and its wall time. Failures of
//! the sandbox itself are [`SandboxError`]s, never a verdict about the program.

mod engine;
mod limits;
mod native;
mod python;
mod run;

pub use engine::{Allocation, MAX_GUEST_MEMORY, POOL_RUNS_ENV, Sandbox, SandboxConfig};
pub use limits::Limits;
pub use native::{Compiled, NativeLanguage, NativeRuntime};
pub use python::{PythonOutcome, PythonRuntime};
pub use run::{Execution, Termination};
/// A compiled C or C++ program.
pub use wasmtime::Module;

/// A failure of the sandbox itself: the runtime could not be loaded or instantiated. It says
/// nothing about the program that was to run.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("the {runtime} runtime is not built: {path} is missing (run scripts/build-runtimes)")]
    RuntimeMissing { runtime: &'static str, path: String },
    #[error("cannot set up the sandbox: {0}")]
    Setup(String),
    #[error("cannot instantiate the guest: {0}")]
    Instantiate(String),
}
