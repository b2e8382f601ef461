//! The decoder on a CUDA device: [`Stack`] over [`GpuOps`], which are `referee_kernels::cuda`'s
//! device matrices, cuBLAS products and NVRTC-compiled kernels. The weights stay on the device;
//! per pass only the embedded tokens, the rotary tables, the gathered hidden states of the
//! scored positions and their log-probs cross the bus.

use referee_kernels::cuda::{DeviceMatrix, Gpu};
use referee_kernels::{KernelError, Matrix};

use super::stack::Ops;

/// The device operations of one GPU.
#[derive(Debug)]
pub(super) struct GpuOps(pub(super) Gpu);

impl Ops for GpuOps {
    type Matrix = DeviceMatrix;

    fn upload(&self, matrix: Matrix<'_>) -> Result<DeviceMatrix, KernelError> {
        self.0.upload(matrix)
    }

    fn download(&self, matrix: &DeviceMatrix) -> Result<Vec<f32>, KernelError> {
        self.0.download(matrix)
    }

    fn matmul(&self, x: &DeviceMatrix, w_t: &DeviceMatrix) -> Result<DeviceMatrix, KernelError> {
        self.0.matmul(x, w_t)
    }

    fn add_bias(&self, x: &mut DeviceMatrix, bias: &DeviceMatrix) -> Result<(), KernelError> {
        self.0.add_bias(x, bias)
    }

    fn add_in_place(&self, x: &mut DeviceMatrix, y: &DeviceMatrix) -> Result<(), KernelError> {
        self.0.add_in_place(x, y)
    }

    fn silu_mul(&self, gate: &mut DeviceMatrix, up: &DeviceMatrix) -> Result<(), KernelError> {
        self.0.silu_mul(gate, up)
    }

    fn rms_norm(&self, x: &DeviceMatrix, weight: &DeviceMatrix, eps: f32) -> Result<DeviceMatrix, KernelError> {
        self.0.rms_norm(x, weight, eps)
    }

    fn rope(
        &self,
        x: &mut DeviceMatrix,
        heads: usize,
        cos: &DeviceMatrix,
        sin: &DeviceMatrix,
    ) -> Result<(), KernelError> {
        self.0.rope(x, heads, cos, sin)
    }

    fn causal_attention(
        &self,
        q: &DeviceMatrix,
        k: &DeviceMatrix,
        v: &DeviceMatrix,
        heads: usize,
        kv_heads: usize,
        scale: f32,
    ) -> Result<DeviceMatrix, KernelError> {
        self.0.causal_attention(q, k, v, heads, kv_heads, scale)
    }

    fn gather_rows(&self, x: &DeviceMatrix, rows: &[u32]) -> Result<DeviceMatrix, KernelError> {
        self.0.gather_rows(x, rows)
    }

    fn token_logprobs(
        &self,
        hidden: Matrix<'_>,
        head: &DeviceMatrix,
        targets: &[u32],
    ) -> Result<Vec<f32>, KernelError> {
        self.0.token_logprobs_with(hidden, head, targets)
    }
}
