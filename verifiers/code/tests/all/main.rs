//! The code verifier's integration tests: HumanEval's canonical solutions (Python, and
//! HumanEval-X's C++), the hostile corpus, C/C++ programs, and a sandbox that cannot load its
//! runtime.

mod code_tests;
mod common;
mod hostile;
mod humaneval;
mod humaneval_x_cpp;
mod native;
mod sandbox_error;
