//! The code verifier's integration tests: HumanEval's canonical solutions (Python, and
//! HumanEval-X's C++, JavaScript and Rust, the latter two against Node.js and native rustc), the
//! hostile corpora, C/C++, JavaScript and Rust programs, a sandbox that cannot load its
//! runtime, and the `verilog` verifier (VerilogEval against Icarus Verilog).

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
