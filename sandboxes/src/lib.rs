//! Referee's WebAssembly sandbox.
//!
//! A [`Sandbox`]'s wasmtime [`Engine`](wasmtime::Engine) runs untrusted programs inside guest
//! runtimes: CPython compiled to a WASI component ([`PythonRuntime`]), QuickJS-NG as a WASI
//! reactor module ([`JavaScriptRuntime`]) and C, C++, Rust and Go programs compiled to WASI
//! preview-1 core modules; and Yosys ([`YosysRuntime`]), which checks Verilog designs. Every run gets a fresh `Store` with:
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
//!
//! A [`Sandbox`] is made from a [`SandboxConfig`] by its owner (the server, from its
//! configuration) and shared from there; the library reads no environment variables.

mod engine;
mod error;
mod function_cache;
mod javascript;
mod limits;
mod native;
mod python;
mod run;
mod rust_tests;
mod sandbox;
mod session;
mod setup;
mod yosys;

pub use engine::{Allocation, DEFAULT_SESSIONS, Host, MAX_GUEST_MEMORY, SandboxConfig};
pub use error::{Cause, Chain, Lack, SandboxError, wasmtime_cause};
pub use javascript::{JavaScriptRuntime, JsHarness, QUICKJS_VERSION, QUICKJS_WASM};
pub use limits::Limits;
pub use native::{Compiled, GO_VERSION, MAX_SOURCE_BYTES, NativeLanguage, NativeRuntime, Program, RUST_VERSION};
pub use python::{PythonProgram, PythonRuntime};
pub use run::{Execution, GuestOutcome, Termination};
pub use rust_tests::PanicTest;
pub use sandbox::Sandbox;
pub use session::{CellException, CellOutcome, PythonSession};
pub use setup::{
    Availability, FIRST_BACKOFF, GuestLanguage, MAX_BACKOFF, PYTHON_WASM, pick_runtimes_dir, runtimes_search_order,
};
/// A compiled C or C++ program.
pub use wasmtime::Module;
pub use yosys::{YOSYS_VERSION, YOSYS_WASM, YOSYS_WORK_DIR, YosysRuntime};
