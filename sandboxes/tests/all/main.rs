//! The sandbox's integration tests: Python and C/C++ runs with their limits, and the instance pool.

mod common;
mod native;
mod pool;
mod python;
mod session;
