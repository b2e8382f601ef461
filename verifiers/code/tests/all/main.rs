//! The code verifier's integration tests: HumanEval's canonical solutions (Python, and
//! HumanEval-X's C++, Go, JavaScript and Rust, each against the recorded verdicts of a native run
//! or Node.js), the hostile corpora, C/C++, Go, JavaScript and Rust programs, a sandbox that
//! cannot load its runtime, and the `verilog` verifier (VerilogEval against Icarus Verilog's
//! recorded verdicts). The tests marked `#[ignore = "full tier ..."]` run each suite whole and
//! re-derive the recorded verdicts with the native toolchains (`scripts/test --full`).

mod code_tests;
mod common;
mod go;
mod hostile;
mod humaneval;
mod humaneval_x_cpp;
mod humaneval_x_go;
mod humaneval_x_js;
mod humaneval_x_rust;
mod javascript;
mod native;
mod rust;
mod sandbox_error;
mod verilog;
mod verilog_eval;
