//! The `code` verifier: runs model-written programs against tests in Referee's WebAssembly
//! sandbox.
//!
//! All tests of an item are judged in one request. Standard-input tests get a fresh instance
//! each; function-call tests and HumanEval-style checks run in one instance per item. Budgets are
//! fuel first (deterministic), wall clock as the backstop. A failure of the sandbox itself makes
//! the item `internal_error`, which a trainer can mask; it is never a wrong answer.

mod checker;
mod extract;
mod harness;
mod input;
mod judge;

pub use checker::{Tolerance, outputs_match, values_match};
pub use extract::last_fenced_block;
pub use input::{
    CheckProgram, CheckerKind, CodeInput, CodeOptions, FunctionCase, FunctionTests, Language, Scoring, StdioTest,
};
pub use judge::TestVerdict;

use referee_core::{Budget, Description, RewardModel, Verdict};

/// The `code` verifier.
#[derive(Debug, Clone, Copy, Default)]
pub struct CodeVerifier;

impl CodeVerifier {
    /// The verifier; the sandbox and its runtimes load on first use.
    pub fn new() -> Self {
        CodeVerifier
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
        let items = inputs.into_iter().map(|input| judge::judge(input, budget));
        futures::future::join_all(items).await
    }
}
