//! The sandbox's integration tests: Python, JavaScript, C/C++ and Go runs with their limits, and the
//! instance pool.

mod common;
mod go;
mod javascript;
mod native;
mod pool;
mod python;
mod session;
