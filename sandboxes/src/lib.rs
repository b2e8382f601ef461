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
mod setup;

pub use engine::{Allocation, MAX_GUEST_MEMORY, POOL_RUNS_ENV, Sandbox, SandboxConfig};
pub use limits::Limits;
pub use native::{Compiled, NativeLanguage, NativeRuntime};
pub use python::{PythonOutcome, PythonRuntime};
pub use run::{Execution, Termination};
pub use setup::{
    Availability, FIRST_BACKOFF, GuestLanguage, MAX_BACKOFF, PYTHON_WASM, pick_runtimes_dir, runtimes_search_order,
};
/// A compiled C or C++ program.
pub use wasmtime::Module;

/// A failure of the sandbox itself: a runtime that is not available on this host, or one that
/// could not be loaded or instantiated. It says nothing about the program that was to run.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SandboxError {
    /// The host lacks what a runtime needs (`python.wasm` not built, no clang, no wasm32
    /// sysroot, no namespaces for the compiler's confinement): items of that language cannot be
    /// judged here until it is fixed. The set-up is tried again after a backoff.
    #[error("the {runtime} runtime is unavailable: {reason} (fix: {fix})")]
    Unavailable { runtime: &'static str, reason: String, fix: String },
    #[error("cannot set up the sandbox: {0}")]
    Setup(String),
    #[error("cannot instantiate the guest: {0}")]
    Instantiate(String),
}

impl SandboxError {
    /// True when the host lacks a runtime, as opposed to a runtime that failed.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, SandboxError::Unavailable { .. })
    }

    /// What is missing or broken, without the fix.
    pub fn reason(&self) -> String {
        match self {
            SandboxError::Unavailable { reason, .. } => reason.clone(),
            SandboxError::Setup(reason) | SandboxError::Instantiate(reason) => reason.clone(),
        }
    }

    /// What to do about it.
    pub fn fix(&self) -> String {
        match self {
            SandboxError::Unavailable { fix, .. } => fix.clone(),
            SandboxError::Setup(_) | SandboxError::Instantiate(_) => {
                "see the server log; the set-up is tried again after a backoff".into()
            }
        }
    }
}
