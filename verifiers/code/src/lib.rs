//! The `code` verifier: runs model-written programs against tests in Referee's WebAssembly
//! sandbox. The crate also holds the verifiers and environments on the same sandbox:
//! `code-tests`, `code-repair`, `python-tool` and `verilog` (Yosys's equivalence check).
//!
//! All tests of an item are judged in one request. Standard-input tests get a fresh instance
//! each; function-call tests and HumanEval-style checks run in one instance per item. Budgets are
//! fuel first (deterministic), wall clock as the backstop. A failure of the sandbox itself makes
//! the item `internal_error`, which a trainer can mask; it is never a wrong answer. A language
//! whose runtime this host lacks makes its items `invalid_input` with the reason
//! (`details.unavailable`), as an unknown verifier would.

mod availability;
mod checker;
mod extract;
mod harness;
mod input;
mod judge;
mod once;
mod repair;
mod sandbox;
mod suite;
mod tool;
mod verilog;

#[cfg(test)]
mod tests;

pub use availability::LanguageStatus;
pub use checker::{Tolerance, outputs_match, values_match};
pub use extract::last_fenced_block;
pub use input::{
    CheckProgram, CheckerKind, CodeInput, CodeOptions, FunctionCase, FunctionTests, Language, MAX_SOURCE_CHARS,
    Scoring, StdioTest,
};
pub use judge::TestVerdict;
pub use once::{SingleRun, SingleRunError};
pub use referee_sandbox::{
    Availability, Chain, Execution, GuestLanguage, Limits, PYTHON_WASM, QUICKJS_WASM, Sandbox, SandboxConfig,
    SandboxError, Termination, YOSYS_WASM,
};
pub use repair::{CODE_REPAIR_ID, CodeRepair, CodeRepairAction, CodeRepairOptions, MAX_ATTEMPTS};
pub use suite::{
    CODE_TESTS_ID, CodeTestsInput, CodeTestsVerifier, MAX_CORRECT, MAX_TESTS, MAX_WRONG, SuiteFormat, SuiteOptions,
    SuiteReward,
};
pub use tool::{AnswerCheck, MAX_CALLS, PYTHON_TOOL_ID, PythonTool, PythonToolAction, PythonToolOptions};
pub use verilog::{MAX_CYCLES, VERILOG_ID, VerilogInput, VerilogVerifier};

use std::sync::Arc;

use referee_core::{Admission, Budget, Busy, BusyStatus, Description, RewardModel, Verdict};
use tokio::sync::Semaphore;

use crate::sandbox::SandboxCell;

/// Items admitted but not finished, per sandbox worker, by default: enough to keep every core
/// busy through a few large batches, small enough that an admitted item starts within its
/// request's deadline.
pub const DEFAULT_PENDING_PER_WORKER: usize = 64;

/// The `code` verifier.
///
/// It admits at most a fixed number of items at once (admitted but not yet judged, across all
/// requests); a batch that does not fit is refused with 429 and `Retry-After` by the server, so
/// that a flood of work is pushed back to the client instead of queueing past its deadline.
#[derive(Debug, Clone)]
pub struct CodeVerifier {
    /// One permit per item that may be admitted.
    queue: Arc<Semaphore>,
    capacity: usize,
    retry_after_secs: u32,
    /// The sandbox to run in: the one given, else a default one made at first use.
    sandbox: SandboxCell,
}

impl Default for CodeVerifier {
    fn default() -> Self {
        CodeVerifier::new()
    }
}

impl CodeVerifier {
    /// The verifier with the default capacity ([`CodeVerifier::default_capacity`]) and a
    /// one-second `Retry-After`, on a sandbox of the default configuration made at its first use
    /// (the server gives it its configured one: [`CodeVerifier::in_sandbox`]).
    pub fn new() -> Self {
        CodeVerifier::with_capacity(CodeVerifier::default_capacity(), 1)
    }

    /// The verifier admitting at most `max_pending_items` items at once (at least 1), whose
    /// refusals ask clients to retry after `retry_after_secs` seconds.
    pub fn with_capacity(max_pending_items: usize, retry_after_secs: u32) -> Self {
        // A semaphore counts at most `Semaphore::MAX_PERMITS`; one acquisition takes a `u32`.
        let capacity = max_pending_items.clamp(1, u32::MAX as usize);
        let queue = Arc::new(Semaphore::new(capacity));
        CodeVerifier { queue, capacity, retry_after_secs, sandbox: SandboxCell::default() }
    }

    /// [`DEFAULT_PENDING_PER_WORKER`] items per worker of the default sandbox (one per core).
    pub fn default_capacity() -> usize {
        CodeVerifier::capacity_for(SandboxConfig::default().workers)
    }

    /// [`DEFAULT_PENDING_PER_WORKER`] items per worker of a sandbox with `workers` workers.
    pub fn capacity_for(workers: usize) -> usize {
        DEFAULT_PENDING_PER_WORKER.saturating_mul(workers.max(1))
    }

    /// Runs programs in `sandbox` (shared with whatever else holds it) instead of a default one.
    pub fn in_sandbox(mut self, sandbox: Arc<Sandbox>) -> Self {
        self.sandbox = SandboxCell::given(sandbox);
        self
    }

    /// The most items admitted at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Items that may be admitted now.
    pub fn available(&self) -> usize {
        self.queue.available_permits()
    }

    /// The Python sessions its sandbox's pool has room for: the given sandbox's `sessions`, or
    /// the default configuration's.
    pub fn sessions(&self) -> usize {
        match self.sandbox.made() {
            Some(Ok(sandbox)) => sandbox.config().sessions,
            _ => SandboxConfig::default().sessions,
        }
    }

    /// The `code-repair` environment on this verifier's sandbox.
    pub fn repair_environment(&self) -> CodeRepair {
        CodeRepair::new(self.sandbox.clone())
    }

    /// The `python-tool` environment on this verifier's sandbox, with room for `max_live`
    /// interpreters at once (at most the sandbox's `sessions`), scoring answers with `scorers`.
    pub fn tool_environment(&self, max_live: usize, scorers: &[referee_core::Scorer]) -> PythonTool {
        PythonTool::new(self.sandbox.clone(), max_live, self.retry_after_secs, scorers)
    }
}

impl RewardModel for CodeVerifier {
    type Input = CodeInput;

    fn description(&self) -> Description {
        Description {
            id: "code",
            version: "1",
            summary: "Runs a Python program (given, or the last fenced block of a response) against \
                      standard-input tests, function-call tests or a HumanEval-style check program in a \
                      WebAssembly sandbox with deterministic fuel budgets; scores all-or-nothing or the \
                      fraction of tests passed, with a verdict per test.",
        }
    }

    async fn score_batch(&self, inputs: Vec<CodeInput>, budget: Budget) -> Vec<Verdict> {
        let items = inputs.into_iter().map(|input| judge::judge(input, budget, self.sandbox.clone()));
        futures::future::join_all(items).await
    }

    /// Reserves one permit per item; a batch larger than the whole capacity reserves all of it,
    /// so it runs once nothing else is pending rather than never.
    fn admit(&self, items: usize) -> Result<Admission, Busy> {
        let wanted = items.min(self.capacity);
        if wanted == 0 {
            return Ok(Admission::granted());
        }
        let permits = u32::try_from(wanted).unwrap_or(u32::MAX);
        match Arc::clone(&self.queue).try_acquire_many_owned(permits) {
            Ok(reserved) => Ok(Admission::holding(reserved)),
            Err(_) => Err(Busy {
                status: BusyStatus::TooManyRequests,
                retry_after_secs: self.retry_after_secs,
                message: format!(
                    "the code verifier's queue is full ({} of {} items pending; this batch needs {wanted}); retry \
                     after {} s",
                    self.capacity - self.queue.available_permits(),
                    self.capacity,
                    self.retry_after_secs
                ),
            }),
        }
    }
}
