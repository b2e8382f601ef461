//! The decoder on a CUDA device: [`Stack`] over [`GpuOps`], which are `referee_kernels::cuda`'s
//! device matrices, cuBLAS products and NVRTC-compiled kernels. The weights stay on the device;
//! per pass only the embedded tokens, the rotary tables, the gathered hidden states of the
//! scored positions and their log-probs cross the bus.
//!
//! With `REFEREE_RLPR_PROFILE` set (to anything), every operation waits for the device before
//! and after it and its time is tallied by name; the table goes to stderr when the model is
//! dropped (`bench/rlpr/gpu.sh` prints it). The waits remove the overlap of launches with work,
//! so a profiled pass is slower than a plain one: read the shares, not the sum.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use referee_kernels::cuda::{DeviceMatrix, Gpu};
use referee_kernels::{KernelError, Matrix};

use super::stack::Ops;

/// The device operations of one GPU, timed when profiling.
#[derive(Debug)]
pub(super) struct GpuOps {
    gpu: Gpu,
    profile: Option<Mutex<BTreeMap<&'static str, (u64, Duration)>>>,
}

impl GpuOps {
    pub(super) fn new(gpu: Gpu) -> GpuOps {
        let profile = std::env::var_os("REFEREE_RLPR_PROFILE").map(|_| Mutex::new(BTreeMap::new()));
        GpuOps { gpu, profile }
    }

    fn timed<T>(&self, name: &'static str, op: impl FnOnce(&Gpu) -> Result<T, KernelError>) -> Result<T, KernelError> {
        let Some(profile) = &self.profile else { return op(&self.gpu) };
        self.gpu.synchronize()?;
        let started = Instant::now();
        let result = op(&self.gpu)?;
        self.gpu.synchronize()?;
        let elapsed = started.elapsed();
        let mut tally = profile.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entry = tally.entry(name).or_default();
        entry.0 += 1;
        entry.1 += elapsed;
        Ok(result)
    }
}

impl Drop for GpuOps {
    fn drop(&mut self) {
        let Some(profile) = &self.profile else { return };
        let tally = profile.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let total: Duration = tally.values().map(|(_, time)| *time).sum();
        let mut rows: Vec<_> = tally.iter().collect();
        rows.sort_by_key(|(_, (_, time))| std::cmp::Reverse(*time));
        eprintln!("profile of the device pass on {} (synchronised per operation):", self.gpu.name());
        eprintln!("{:<18} {:>9} {:>11} {:>7} {:>10}", "operation", "calls", "total ms", "share", "µs/call");
        for (name, (calls, time)) in rows {
            eprintln!(
                "{name:<18} {calls:>9} {:>11.2} {:>6.1}% {:>10.1}",
                time.as_secs_f64() * 1e3,
                100.0 * time.as_secs_f64() / total.as_secs_f64().max(1e-12),
                time.as_secs_f64() * 1e6 / *calls as f64
            );
        }
    }
}

impl Ops for GpuOps {
    type Matrix = DeviceMatrix;

    fn upload(&self, matrix: Matrix<'_>) -> Result<DeviceMatrix, KernelError> {
        self.timed("upload", |gpu| gpu.upload(matrix))
    }

    fn download(&self, matrix: &DeviceMatrix) -> Result<Vec<f32>, KernelError> {
        self.timed("download", |gpu| gpu.download(matrix))
    }

    fn matmul(&self, x: &DeviceMatrix, w_t: &DeviceMatrix) -> Result<DeviceMatrix, KernelError> {
        self.timed("matmul", |gpu| gpu.matmul(x, w_t))
    }

    fn add_bias(&self, x: &mut DeviceMatrix, bias: &DeviceMatrix) -> Result<(), KernelError> {
        self.timed("add_bias", |gpu| gpu.add_bias(x, bias))
    }

    fn add_in_place(&self, x: &mut DeviceMatrix, y: &DeviceMatrix) -> Result<(), KernelError> {
        self.timed("add_in_place", |gpu| gpu.add_in_place(x, y))
    }

    fn silu_mul(&self, gate: &mut DeviceMatrix, up: &DeviceMatrix) -> Result<(), KernelError> {
        self.timed("silu_mul", |gpu| gpu.silu_mul(gate, up))
    }

    fn rms_norm(&self, x: &DeviceMatrix, weight: &DeviceMatrix, eps: f32) -> Result<DeviceMatrix, KernelError> {
        self.timed("rms_norm", |gpu| gpu.rms_norm(x, weight, eps))
    }

    fn rope(
        &self,
        x: &mut DeviceMatrix,
        heads: usize,
        cos: &DeviceMatrix,
        sin: &DeviceMatrix,
    ) -> Result<(), KernelError> {
        self.timed("rope", |gpu| gpu.rope(x, heads, cos, sin))
    }

    fn causal_attention(
        &self,
        q: &DeviceMatrix,
        k: &DeviceMatrix,
        v: &DeviceMatrix,
        segments: &[usize],
        heads: usize,
        kv_heads: usize,
        scale: f32,
    ) -> Result<DeviceMatrix, KernelError> {
        self.timed("causal_attention", |gpu| gpu.causal_attention(q, k, v, segments, heads, kv_heads, scale))
    }

    fn gather_rows(&self, x: &DeviceMatrix, rows: &[u32]) -> Result<DeviceMatrix, KernelError> {
        self.timed("gather_rows", |gpu| gpu.gather_rows(x, rows))
    }

    fn token_logprobs(
        &self,
        hidden: Matrix<'_>,
        head: &DeviceMatrix,
        targets: &[u32],
    ) -> Result<Vec<f32>, KernelError> {
        self.timed("lm_head", |gpu| gpu.token_logprobs_with(hidden, head, targets))
    }
}
