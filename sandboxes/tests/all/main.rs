//! The sandbox's integration tests: Python, C/C++ and Go runs with their limits, and the instance pool.

mod common;
mod go;
mod native;
mod pool;
mod python;
mod session;
