//! The code verifier's integration tests: HumanEval's canonical solutions, the hostile corpus, C/C++
//! programs, and a sandbox that cannot load its runtime.

mod code_tests;
mod common;
mod hostile;
mod humaneval;
mod native;
mod sandbox_error;
