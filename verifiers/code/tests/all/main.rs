//! The code verifier's integration tests: HumanEval's canonical solutions (Python, and
//! HumanEval-X's C++ and JavaScript, the latter against Node.js), the hostile corpora, C/C++ and
//! JavaScript programs, and a sandbox that cannot load its runtime.

mod code_tests;
mod common;
mod hostile;
mod humaneval;
mod humaneval_x_cpp;
mod humaneval_x_js;
mod javascript;
mod native;
mod sandbox_error;
