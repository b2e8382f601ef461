//! Matrices resident on the device and the decoder-layer operations on them: cuBLAS for the
//! products (with the library loaded dynamically, like the driver), the kernels of
//! `decoder.cu` for the rest. [`crate::layers`] holds the CPU twin of every operation.

// Launching kernels and calling cuBLAS on raw device buffers are `unsafe` in cudarc; each block
// states why its call is sound.
#![allow(unsafe_code)]

use cudarc::cublas::sys::cublasOperation_t;
use cudarc::cublas::{CudaBlas, Gemm as _, GemmConfig, StridedBatchedConfig};
use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, LaunchConfig, PushKernelArg as _};

use super::{Gpu, THREADS, cuda_error};
use crate::shape::{KernelError, Matrix};

/// A row-major `rows × cols` f32 matrix in device memory.
#[derive(Debug)]
pub struct DeviceMatrix {
    data: CudaSlice<f32>,
    rows: usize,
    cols: usize,
}

impl DeviceMatrix {
    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub(super) fn data(&self) -> &CudaSlice<f32> {
        &self.data
    }

    fn len(&self) -> usize {
        self.rows * self.cols
    }
}

/// The functions of `decoder.cu`, loaded with the rest of [`Gpu`].
#[derive(Debug)]
pub(super) struct DecoderKernels {
    rms_norm: CudaFunction,
    add_bias: CudaFunction,
    add_in_place: CudaFunction,
    silu_mul: CudaFunction,
    rope: CudaFunction,
    causal_softmax: CudaFunction,
    gather_rows: CudaFunction,
}

impl DecoderKernels {
    pub(super) fn load(module: &std::sync::Arc<CudaModule>) -> Result<DecoderKernels, KernelError> {
        let function = |name: &str| module.load_function(name).map_err(cuda_error);
        Ok(DecoderKernels {
            rms_norm: function("rms_norm")?,
            add_bias: function("add_bias")?,
            add_in_place: function("add_in_place")?,
            silu_mul: function("silu_mul")?,
            rope: function("rope")?,
            causal_softmax: function("causal_softmax")?,
            gather_rows: function("gather_rows")?,
        })
    }
}

/// Whether the cuBLAS library can be loaded (the CUDA toolkit's, or PyPI's
/// `nvidia-cublas-cu12` on `LD_LIBRARY_PATH`).
pub fn cublas_available() -> bool {
    // SAFETY: only tries to open the library under its candidate names.
    unsafe { cudarc::cublas::sys::is_culib_present() }
}

/// A grid-stride launch over `count` elements.
fn elementwise(count: usize) -> LaunchConfig {
    let blocks = count.div_ceil(THREADS as usize).clamp(1, 65_535) as u32;
    LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 }
}

/// One block per row.
fn per_row(rows: usize) -> Result<LaunchConfig, KernelError> {
    let blocks = u32::try_from(rows).map_err(|_| too_large("the row count"))?;
    Ok(LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 })
}

fn too_large(what: &str) -> KernelError {
    KernelError::Shape(format!("{what} exceeds the kernels' 32-bit indices"))
}

fn u32_of(value: usize, what: &str) -> Result<u32, KernelError> {
    u32::try_from(value).map_err(|_| too_large(what))
}

fn i32_of(value: usize, what: &str) -> Result<i32, KernelError> {
    i32::try_from(value).map_err(|_| too_large(what))
}

fn shape(message: String) -> KernelError {
    KernelError::Shape(message)
}

impl Gpu {
    pub(super) fn blas(&self) -> Result<&CudaBlas, KernelError> {
        self.blas
            .as_ref()
            .ok_or_else(|| KernelError::Cuda("the cuBLAS library (libcublas) cannot be loaded".to_owned()))
    }

    /// Copies a host matrix to the device.
    pub fn upload(&self, matrix: Matrix<'_>) -> Result<DeviceMatrix, KernelError> {
        // A zero-length device buffer cannot be allocated; an empty matrix keeps one unused value.
        let data = if matrix.data().is_empty() {
            self.stream.alloc_zeros::<f32>(1)
        } else {
            self.stream.clone_htod(matrix.data())
        }
        .map_err(cuda_error)?;
        Ok(DeviceMatrix { data, rows: matrix.rows(), cols: matrix.cols() })
    }

    /// Copies a device matrix back, row-major.
    pub fn download(&self, matrix: &DeviceMatrix) -> Result<Vec<f32>, KernelError> {
        if matrix.len() == 0 {
            return Ok(Vec::new());
        }
        let mut values = self.stream.clone_dtoh(&matrix.data).map_err(cuda_error)?;
        values.truncate(matrix.len());
        Ok(values)
    }

    /// Copies `from` into `to` on the device (same shape): it reads and writes every byte
    /// once, the reference the kernels' achieved bandwidth is measured against.
    pub fn copy_into(&self, from: &DeviceMatrix, to: &mut DeviceMatrix) -> Result<(), KernelError> {
        if (from.rows, from.cols) != (to.rows, to.cols) {
            return Err(shape(format!("{} × {} into {} × {}", from.rows, from.cols, to.rows, to.cols)));
        }
        self.stream.memcpy_dtod(&from.data, &mut to.data).map_err(cuda_error)
    }

    /// Waits until the device has done everything queued so far.
    pub fn synchronize(&self) -> Result<(), KernelError> {
        self.stream.synchronize().map_err(cuda_error)
    }

    /// A `rows × cols` matrix of zeros on the device.
    pub fn zeros(&self, rows: usize, cols: usize) -> Result<DeviceMatrix, KernelError> {
        let data = self.stream.alloc_zeros::<f32>((rows * cols).max(1)).map_err(cuda_error)?;
        Ok(DeviceMatrix { data, rows, cols })
    }

    /// [`crate::layers::matmul`]: `x · w_t`, in cuBLAS.
    pub fn matmul(&self, x: &DeviceMatrix, w_t: &DeviceMatrix) -> Result<DeviceMatrix, KernelError> {
        if x.cols != w_t.rows {
            return Err(shape(format!("cannot multiply {} × {} by {} × {}", x.rows, x.cols, w_t.rows, w_t.cols)));
        }
        let mut out = self.zeros(x.rows, w_t.cols)?;
        if out.len() == 0 || x.cols == 0 {
            return Ok(out);
        }
        let (m, n, k) =
            (i32_of(w_t.cols, "a matrix side")?, i32_of(x.rows, "a matrix side")?, i32_of(x.cols, "a matrix side")?);
        // Row-major y = x·Wᵀ is column-major yᵀ = (Wᵀ)ᵀ·xᵀ, and a row-major matrix read
        // column-major is its transpose: no operand needs transposing.
        let config = GemmConfig {
            transa: cublasOperation_t::CUBLAS_OP_N,
            transb: cublasOperation_t::CUBLAS_OP_N,
            m,
            n,
            k,
            alpha: 1.0f32,
            lda: m,
            ldb: k,
            beta: 0.0f32,
            ldc: m,
        };
        // SAFETY: A is k × m (lda m), B is n × k (ldb k) and C is n × m (ldc m), row-major, the
        // sizes of the three buffers.
        unsafe { self.blas()?.gemm(config, &w_t.data, &x.data, &mut out.data) }.map_err(cuda_error)?;
        Ok(out)
    }

    /// [`crate::layers::rms_norm`], with `weight` as a `1 × cols` matrix.
    pub fn rms_norm(&self, x: &DeviceMatrix, weight: &DeviceMatrix, eps: f32) -> Result<DeviceMatrix, KernelError> {
        if weight.len() != x.cols {
            return Err(shape(format!("an RMSNorm weight of {} for rows of {}", weight.len(), x.cols)));
        }
        let mut out = self.zeros(x.rows, x.cols)?;
        if out.len() == 0 {
            return Ok(out);
        }
        let cols = u32_of(x.cols, "the row length")?;
        let mut launch = self.stream.launch_builder(&self.decoder.rms_norm);
        launch.arg(&x.data).arg(&weight.data).arg(&mut out.data).arg(&cols).arg(&eps);
        // SAFETY: the arguments match `rms_norm(x, weight, out, cols, eps)`; one block per row of
        // `cols` values, within x and out, and weight holds `cols` values.
        unsafe { launch.launch(per_row(x.rows)?) }.map_err(cuda_error)?;
        Ok(out)
    }

    /// [`crate::layers::add_bias`], with `bias` as a `1 × cols` matrix.
    pub fn add_bias(&self, x: &mut DeviceMatrix, bias: &DeviceMatrix) -> Result<(), KernelError> {
        if bias.len() != x.cols || x.cols == 0 {
            return Err(shape(format!("a bias of {} for rows of {}", bias.len(), x.cols)));
        }
        let (rows, cols) = (u32_of(x.rows, "the row count")?, u32_of(x.cols, "the row length")?);
        u32_of(x.len(), "the value count")?;
        let config = elementwise(x.len());
        let mut launch = self.stream.launch_builder(&self.decoder.add_bias);
        launch.arg(&mut x.data).arg(&bias.data).arg(&rows).arg(&cols);
        // SAFETY: the arguments match `add_bias(x, bias, rows, cols)`; x holds rows · cols values
        // and bias `cols`.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;
        Ok(())
    }

    /// `x += y`, element by element.
    pub fn add_in_place(&self, x: &mut DeviceMatrix, y: &DeviceMatrix) -> Result<(), KernelError> {
        self.binary(&self.decoder.add_in_place, x, y)
    }

    /// [`crate::layers::silu_mul`].
    pub fn silu_mul(&self, gate: &mut DeviceMatrix, up: &DeviceMatrix) -> Result<(), KernelError> {
        self.binary(&self.decoder.silu_mul, gate, up)
    }

    fn binary(&self, function: &CudaFunction, x: &mut DeviceMatrix, y: &DeviceMatrix) -> Result<(), KernelError> {
        if (x.rows, x.cols) != (y.rows, y.cols) {
            return Err(shape(format!("{} × {} and {} × {} differ", x.rows, x.cols, y.rows, y.cols)));
        }
        let count = u32_of(x.len(), "the value count")?;
        let config = elementwise(x.len());
        let mut launch = self.stream.launch_builder(function);
        launch.arg(&mut x.data).arg(&y.data).arg(&count);
        // SAFETY: the arguments match `(x, y, count)` of `add_in_place` and `silu_mul`; both
        // buffers hold `count` values.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;
        Ok(())
    }

    /// [`crate::layers::rope`] on `x` (`rows × heads·2·half`), with `cos` and `sin` of
    /// `rows × half`.
    pub fn rope(
        &self,
        x: &mut DeviceMatrix,
        heads: usize,
        cos: &DeviceMatrix,
        sin: &DeviceMatrix,
    ) -> Result<(), KernelError> {
        let (rows, half) = (cos.rows, cos.cols);
        if (sin.rows, sin.cols) != (rows, half) || half == 0 || x.rows != rows || x.cols != heads * 2 * half {
            return Err(shape(format!(
                "rotary tables of {rows} × {half} for {} × {} in {heads} heads",
                x.rows, x.cols
            )));
        }
        u32_of(x.len(), "the value count")?;
        let (rows32, heads32, half32) =
            (u32_of(rows, "the row count")?, u32_of(heads, "the head count")?, u32_of(half, "the head size")?);
        let config = elementwise(rows * heads * half);
        let mut launch = self.stream.launch_builder(&self.decoder.rope);
        launch.arg(&mut x.data).arg(&cos.data).arg(&sin.data).arg(&rows32).arg(&heads32).arg(&half32);
        // SAFETY: the arguments match `rope(x, cos, sin, rows, heads, half)`; x holds
        // rows · heads · 2·half values and the tables rows · half each.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;
        Ok(())
    }

    /// [`crate::layers::segmented_causal_attention`]: sequences laid end to end, rows
    /// `segments[i]..segments[i + 1]` attending within their own sequence. For each sequence and
    /// key/value head, the scores of its group of query heads in one batched cuBLAS product, the
    /// causal softmax, and a second batched product into the output; the score buffer holds one
    /// group's `n × n` matrices of the longest sequence.
    #[allow(clippy::too_many_arguments)]
    pub fn causal_attention(
        &self,
        q: &DeviceMatrix,
        k: &DeviceMatrix,
        v: &DeviceMatrix,
        segments: &[usize],
        heads: usize,
        kv_heads: usize,
        scale: f32,
    ) -> Result<DeviceMatrix, KernelError> {
        let rows = q.rows;
        crate::layers::check_segments(segments, rows)?;
        if heads == 0 || kv_heads == 0 || !heads.is_multiple_of(kv_heads) || !q.cols.is_multiple_of(heads) {
            return Err(shape(format!("{heads} query heads, {kv_heads} key/value heads, rows of {}", q.cols)));
        }
        let d = q.cols / heads;
        if k.rows != rows || v.rows != rows || k.cols != kv_heads * d || v.cols != kv_heads * d {
            return Err(shape(format!(
                "keys {} × {} and values {} × {} for queries {rows} × {} in {heads} heads over {kv_heads}",
                k.rows, k.cols, v.rows, v.cols, q.cols
            )));
        }
        let mut out = self.zeros(rows, heads * d)?;
        let longest = segments.windows(2).map(|pair| pair[1] - pair[0]).max().unwrap_or(0);
        if out.len() == 0 || longest == 0 {
            return Ok(out);
        }
        let group = heads / kv_heads;
        let mut scores = self.zeros(group * longest, longest)?;
        u32_of(scores.len(), "the attention score count")?;
        u32_of(out.len(), "the value count")?;
        let d32 = i32_of(d, "the head size")?;
        let (q_stride, kv_stride) = (i32_of(heads * d, "a row length")?, i32_of(kv_heads * d, "a row length")?);
        let batch = i32_of(group, "the group size")?;
        let blas = self.blas()?;
        for bounds in segments.windows(2) {
            let (first, n) = (bounds[0], bounds[1] - bounds[0]);
            if n == 0 {
                continue;
            }
            let (n32, square) = (i32_of(n, "the sequence length")?, (n * n) as i64);
            for g in 0..kv_heads {
                // scores[b][query][key] = scale · q_{g·group+b}[query] · k_g[key]: column-major
                // that is scoresᵀ = K·Qᵀ, with K read transposed.
                let config = StridedBatchedConfig {
                    gemm: GemmConfig {
                        transa: cublasOperation_t::CUBLAS_OP_T,
                        transb: cublasOperation_t::CUBLAS_OP_N,
                        m: n32,
                        n: n32,
                        k: d32,
                        alpha: scale,
                        lda: kv_stride,
                        ldb: q_stride,
                        beta: 0.0f32,
                        ldc: n32,
                    },
                    batch_size: batch,
                    stride_a: 0,
                    stride_b: d as i64,
                    stride_c: square,
                };
                let keys = k.data.slice(first * kv_heads * d + g * d..);
                let queries = q.data.slice(first * heads * d + g * group * d..);
                // SAFETY: for batch b < group, A is key head g of the sequence (n rows of d, row
                // stride kv·d, from row `first`), B query head g·group + b (n rows of d, row
                // stride heads·d), C the b-th n × n matrix of the score buffer (group · longest²
                // values, longest ≥ n); every index stays inside.
                unsafe { blas.gemm_strided_batched(config, &keys, &queries, &mut scores.data) }.map_err(cuda_error)?;

                let n_u32 = u32_of(n, "the sequence length")?;
                let mut launch = self.stream.launch_builder(&self.decoder.causal_softmax);
                launch.arg(&mut scores.data).arg(&n_u32);
                // SAFETY: the arguments match `causal_softmax(scores, n)`; one block per row of
                // n values, group · n rows, within the buffer.
                unsafe { launch.launch(per_row(group * n)?) }.map_err(cuda_error)?;

                // out[query][(g·group+b)·d + j] = Σ_key p_b[query][key] · v_g[key][j]:
                // column-major outᵀ = Vᵀ·Pᵀ, nothing transposed.
                let config = StridedBatchedConfig {
                    gemm: GemmConfig {
                        transa: cublasOperation_t::CUBLAS_OP_N,
                        transb: cublasOperation_t::CUBLAS_OP_N,
                        m: d32,
                        n: n32,
                        k: n32,
                        alpha: 1.0f32,
                        lda: kv_stride,
                        ldb: n32,
                        beta: 0.0f32,
                        ldc: q_stride,
                    },
                    batch_size: batch,
                    stride_a: 0,
                    stride_b: square,
                    stride_c: d as i64,
                };
                let values = v.data.slice(first * kv_heads * d + g * d..);
                let mut target = out.data.slice_mut(first * heads * d + g * group * d..);
                // SAFETY: A is value head g of the sequence (n rows of d, row stride kv·d), B
                // the b-th n × n probability matrix, C head g·group + b of the sequence's
                // output rows (n rows of d, row stride heads·d); every index stays inside.
                unsafe { blas.gemm_strided_batched(config, &values, &scores.data, &mut target) }.map_err(cuda_error)?;
            }
        }
        Ok(out)
    }

    /// [`crate::layers::gather_rows`].
    pub fn gather_rows(&self, x: &DeviceMatrix, rows: &[u32]) -> Result<DeviceMatrix, KernelError> {
        if let Some(&r) = rows.iter().find(|&&r| r as usize >= x.rows) {
            return Err(shape(format!("row {r} of a matrix of {} rows", x.rows)));
        }
        let mut out = self.zeros(rows.len(), x.cols)?;
        if out.len() == 0 {
            return Ok(out);
        }
        let (count, cols) = (u32_of(rows.len(), "the row count")?, u32_of(x.cols, "the row length")?);
        u32_of(out.len(), "the value count")?;
        let rows_d = self.stream.clone_htod(rows).map_err(cuda_error)?;
        let config = elementwise(out.len());
        let mut launch = self.stream.launch_builder(&self.decoder.gather_rows);
        launch.arg(&x.data).arg(&rows_d).arg(&mut out.data).arg(&count).arg(&cols);
        // SAFETY: the arguments match `gather_rows(x, rows, out, count, cols)`; every row index
        // was checked against x's rows, and out holds count · cols values.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;
        Ok(out)
    }
}
