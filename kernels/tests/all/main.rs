//! The kernels' integration tests: the CPU kernels against the plain definitions, and (with the
//! `cuda` feature) the CUDA kernels compiled by NVRTC and compared with their CPU twins.

mod common;
mod cpu;
#[cfg(feature = "cuda")]
mod cuda;
