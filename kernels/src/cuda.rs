//! The CUDA kernels, compiled from [`crate::sources`] by NVRTC when a [`Gpu`] opens and launched
//! through cudarc. The driver and NVRTC are loaded dynamically: on a machine without them,
//! [`Gpu::open`] answers `None` and [`nvrtc_available`] `false`, and nothing panics.

// Loading a CUDA library, launching a kernel and passing it raw device pointers are `unsafe` in
// cudarc; each block below states why its call is sound.
#![allow(unsafe_code)]

use std::sync::Arc;

use cudarc::cublas::sys::cublasOperation_t;
use cudarc::cublas::{CudaBlas, Gemm as _, GemmConfig};
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg as _};
use cudarc::nvrtc::{CompileOptions, Ptx, compile_ptx_with_opts};

use crate::cpu::TOKEN_GROUP;
use crate::score::ScoreKind;
use crate::shape::{KernelError, Matrix, check_offsets, check_token_logprob_shapes, check_token_logprobs};
use crate::sources;

mod device;

pub use device::{DeviceMatrix, cublas_available};

/// Threads per block of every kernel (the sources' `THREADS`).
const THREADS: u32 = 256;

/// How the LM head computes the log-probs ([`Gpu::token_logprobs_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadMethod {
    /// The fused kernel: streams the head once per group of 8 tokens and never writes a logit.
    /// Reads the least memory for a few tokens.
    Fused,
    /// cuBLAS products over slices of the vocabulary into a bounded logit buffer, each slice
    /// reduced to its log-sum-exp by `logits_logsumexp`: reads the head once per slice of
    /// tokens, so it wins as the tokens per call grow.
    Products,
}

impl HeadMethod {
    /// The method [`Gpu::token_logprobs_with`] takes for `tokens` scored positions: products
    /// from [`PRODUCTS_FROM_TOKENS`] tokens on (where cuBLAS is loaded), the fused kernel below.
    pub fn for_tokens(tokens: usize) -> HeadMethod {
        if tokens >= PRODUCTS_FROM_TOKENS { HeadMethod::Products } else { HeadMethod::Fused }
    }
}

/// The token count from which the products beat the fused kernel: past one group of 8 tokens,
/// where the fused kernel would stream the head twice (on an H100: 0.38 ms fused against
/// 0.46 ms of products at 8 tokens, 1.19 ms against 0.49 ms at 32; docs/benchmarks.md).
pub const PRODUCTS_FROM_TOKENS: usize = 9;

/// Vocabulary rows per block of the fused kernel on the device: far fewer than the 4,096 of a
/// CPU split, so that even a call of a few tokens spreads over thousands of blocks
/// (151,936 rows make 2,374 splits) and keeps enough loads in flight to stream the head at
/// memory speed.
const DEVICE_VOCAB_SPLIT: u32 = 64;

/// The most logits the products method holds at once (128 MiB of f32): the vocabulary slice of
/// one product is this over the token count.
const LOGIT_BUDGET: usize = 32 << 20;

fn cuda_error(error: impl std::fmt::Display) -> KernelError {
    KernelError::Cuda(error.to_string())
}

/// Whether the NVRTC library can be loaded (it comes with the CUDA toolkit, or from PyPI as
/// `nvidia-cuda-nvrtc-cu12` on `LD_LIBRARY_PATH`).
pub fn nvrtc_available() -> bool {
    // SAFETY: only tries to open the library under its candidate names.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// Whether the CUDA driver library can be loaded.
pub fn driver_available() -> bool {
    // SAFETY: only tries to open the library under its candidate names.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Compiles one module of [`crate::sources`] to PTX text with NVRTC.
pub fn compile_ptx(name: &str, source: &str) -> Result<String, KernelError> {
    compile(name, source).map(|ptx| ptx.to_src())
}

fn compile(name: &str, source: &str) -> Result<Ptx, KernelError> {
    if !nvrtc_available() {
        return Err(KernelError::Cuda("the NVRTC library (libnvrtc) cannot be loaded".to_owned()));
    }
    let options = CompileOptions { name: Some(format!("{name}.cu")), ..CompileOptions::default() };
    compile_ptx_with_opts(source, options).map_err(cuda_error)
}

/// The sizes of one LM-head call, checked to fit the kernels' 32-bit indices.
#[derive(Debug, Clone, Copy)]
struct HeadShape {
    tokens: u32,
    features: u32,
    vocab: u32,
}

/// Each token's log-sum-exp over each split of the vocabulary, and its target logit.
struct Partials {
    max: CudaSlice<f32>,
    sum: CudaSlice<f32>,
    target_logits: CudaSlice<f32>,
    tokens: u32,
    splits: u32,
}

impl Partials {
    fn new(stream: &Arc<CudaStream>, splits: u32, tokens: u32) -> Result<Partials, KernelError> {
        let cells = splits as usize * tokens as usize;
        Ok(Partials {
            max: stream.alloc_zeros::<f32>(cells).map_err(cuda_error)?,
            sum: stream.alloc_zeros::<f32>(cells).map_err(cuda_error)?,
            target_logits: stream.alloc_zeros::<f32>(tokens as usize).map_err(cuda_error)?,
            tokens,
            splits,
        })
    }
}

/// The kernels loaded on one device, and a cuBLAS handle where the library is present.
#[derive(Debug)]
pub struct Gpu {
    stream: Arc<CudaStream>,
    partial: CudaFunction,
    combine: CudaFunction,
    logits_logsumexp: CudaFunction,
    sequences: CudaFunction,
    decoder: device::DecoderKernels,
    blas: Option<CudaBlas>,
    name: String,
}

impl Gpu {
    /// Compiles the kernels and loads them on device `ordinal`. `Ok(None)` when this machine
    /// has no CUDA driver or no such device.
    pub fn open(ordinal: usize) -> Result<Option<Gpu>, KernelError> {
        if !driver_available() {
            return Ok(None);
        }
        let devices = CudaContext::device_count().map_err(cuda_error)?;
        if usize::try_from(devices).map_or(true, |count| ordinal >= count) {
            return Ok(None);
        }
        let context = CudaContext::new(ordinal).map_err(cuda_error)?;
        let name = context.name().map_err(cuda_error)?;
        let load = |module: &str, source: &str| context.load_module(compile(module, source)?).map_err(cuda_error);
        let tokens = load("token_logprobs", sources::TOKEN_LOGPROBS)?;
        let sequences = load("sequence_scores", sources::SEQUENCE_SCORES)?;
        let decoder = load("decoder", sources::DECODER)?;
        let stream = context.default_stream();
        // Only the decoder's products need cuBLAS; without it they report its absence.
        let blas =
            if cublas_available() { Some(CudaBlas::new(Arc::clone(&stream)).map_err(cuda_error)?) } else { None };
        Ok(Some(Gpu {
            partial: tokens.load_function("token_logprobs_partial").map_err(cuda_error)?,
            combine: tokens.load_function("token_logprobs_combine").map_err(cuda_error)?,
            logits_logsumexp: tokens.load_function("logits_logsumexp").map_err(cuda_error)?,
            sequences: sequences.load_function("sequence_scores").map_err(cuda_error)?,
            decoder: device::DecoderKernels::load(&decoder)?,
            stream,
            blas,
            name,
        }))
    }

    /// The device's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// [`crate::token_logprobs`] on the device, with host inputs and outputs.
    pub fn token_logprobs(
        &self,
        hidden: Matrix<'_>,
        weight: Matrix<'_>,
        targets: &[u32],
    ) -> Result<Vec<f32>, KernelError> {
        check_token_logprobs(&hidden, &weight, targets)?;
        let weight = self.upload(weight)?;
        self.token_logprobs_with(hidden, &weight, targets)
    }

    /// [`crate::token_logprobs`] with the LM head already on the device, as a model keeps it:
    /// only the hidden states of the scored positions and the targets are copied in. The
    /// method is [`HeadMethod::for_tokens`].
    pub fn token_logprobs_with(
        &self,
        hidden: Matrix<'_>,
        weight: &DeviceMatrix,
        targets: &[u32],
    ) -> Result<Vec<f32>, KernelError> {
        let method = if self.blas.is_some() { HeadMethod::for_tokens(hidden.rows()) } else { HeadMethod::Fused };
        self.token_logprobs_by(method, hidden, weight, targets)
    }

    /// [`Gpu::token_logprobs_with`] by the given method.
    pub fn token_logprobs_by(
        &self,
        method: HeadMethod,
        hidden: Matrix<'_>,
        weight: &DeviceMatrix,
        targets: &[u32],
    ) -> Result<Vec<f32>, KernelError> {
        check_token_logprob_shapes((hidden.rows(), hidden.cols()), (weight.rows(), weight.cols()), targets)?;
        if hidden.rows() == 0 {
            return Ok(Vec::new());
        }
        let too_large = |what: &str| KernelError::Shape(format!("{what} exceeds the kernels' 32-bit indices"));
        let shape = HeadShape {
            tokens: u32::try_from(hidden.rows()).map_err(|_| too_large("the token count"))?,
            features: u32::try_from(weight.cols()).map_err(|_| too_large("the feature count"))?,
            vocab: u32::try_from(weight.rows()).map_err(|_| too_large("the vocabulary"))?,
        };
        let stream = &self.stream;
        let hidden_d = stream.clone_htod(hidden.data()).map_err(cuda_error)?;
        let targets_d = stream.clone_htod(targets).map_err(cuda_error)?;
        match method {
            HeadMethod::Fused => self.fused_head(&hidden_d, &targets_d, weight, shape),
            HeadMethod::Products => self.product_head(&hidden_d, &targets_d, weight, shape),
        }
    }

    /// Launches the fused LM head on hidden states already on the device.
    fn fused_head(
        &self,
        hidden_d: &CudaSlice<f32>,
        targets_d: &CudaSlice<u32>,
        weight: &DeviceMatrix,
        HeadShape { tokens: tokens32, features, vocab }: HeadShape,
    ) -> Result<Vec<f32>, KernelError> {
        let split_rows = DEVICE_VOCAB_SPLIT;
        let splits = vocab.div_ceil(split_rows);
        let groups = tokens32.div_ceil(TOKEN_GROUP as u32);
        let mut partials = Partials::new(&self.stream, splits, tokens32)?;

        let mut launch = self.stream.launch_builder(&self.partial);
        launch
            .arg(hidden_d)
            .arg(weight.data())
            .arg(targets_d)
            .arg(&tokens32)
            .arg(&features)
            .arg(&vocab)
            .arg(&split_rows)
            .arg(&mut partials.max)
            .arg(&mut partials.sum)
            .arg(&mut partials.target_logits);
        let config = LaunchConfig { grid_dim: (groups, splits, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: the arguments match the kernel's parameters in order and type; the buffers
        // hold tokens × features, vocab × features, tokens, and splits × tokens values, which
        // bound every index the kernel computes from the sizes passed with them.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;
        self.merge_splits(partials)
    }

    /// The LM head as cuBLAS products over slices of the vocabulary, each slice's logits
    /// reduced to its log-sum-exp before the next product overwrites them.
    fn product_head(
        &self,
        hidden_d: &CudaSlice<f32>,
        targets_d: &CudaSlice<u32>,
        weight: &DeviceMatrix,
        HeadShape { tokens, features, vocab }: HeadShape,
    ) -> Result<Vec<f32>, KernelError> {
        let blas = self.blas()?;
        let columns = (LOGIT_BUDGET / tokens as usize).clamp(1, vocab as usize) as u32;
        let splits = vocab.div_ceil(columns);
        let mut partials = Partials::new(&self.stream, splits, tokens)?;
        let mut logits = self.stream.alloc_zeros::<f32>(tokens as usize * columns as usize).map_err(cuda_error)?;
        for split in 0..splits {
            let first_row = split * columns;
            let width = columns.min(vocab - first_row);
            // Row-major logits[t][c] = h_t · W_{first_row + c}: column-major that is
            // logitsᵀ = W_slice · Hᵀ, where the row-major slice read column-major is W_sliceᵀ.
            let config = GemmConfig {
                transa: cublasOperation_t::CUBLAS_OP_T,
                transb: cublasOperation_t::CUBLAS_OP_N,
                m: width as i32,
                n: tokens as i32,
                k: features as i32,
                alpha: 1.0f32,
                lda: features as i32,
                ldb: features as i32,
                beta: 0.0f32,
                ldc: width as i32,
            };
            let slice = weight.data().slice(first_row as usize * features as usize..);
            // SAFETY: A is `width` rows of the head from `first_row` (lda = features), B the
            // tokens × features hidden states, C the first tokens × width values of the logit
            // buffer (tokens × columns ≥ tokens × width); the sizes are below 2³¹ (checked as
            // u32 and bounded by LOGIT_BUDGET).
            unsafe { blas.gemm(config, &slice, hidden_d, &mut logits) }.map_err(cuda_error)?;
            let mut launch = self.stream.launch_builder(&self.logits_logsumexp);
            launch
                .arg(&logits)
                .arg(targets_d)
                .arg(&tokens)
                .arg(&width)
                .arg(&first_row)
                .arg(&split)
                .arg(&mut partials.max)
                .arg(&mut partials.sum)
                .arg(&mut partials.target_logits);
            let config = LaunchConfig { grid_dim: (tokens, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
            // SAFETY: the arguments match `logits_logsumexp`; block t reads row t of `width`
            // logits (within tokens × columns), writes split `split` < splits of the partials,
            // and reads targets[t].
            unsafe { launch.launch(config) }.map_err(cuda_error)?;
        }
        self.merge_splits(partials)
    }

    /// Merges the splits' partials into the log-probs and copies them back.
    fn merge_splits(&self, partials: Partials) -> Result<Vec<f32>, KernelError> {
        let stream = &self.stream;
        let mut logprobs = stream.alloc_zeros::<f32>(partials.tokens as usize).map_err(cuda_error)?;
        let mut launch = stream.launch_builder(&self.combine);
        launch
            .arg(&partials.max)
            .arg(&partials.sum)
            .arg(&partials.target_logits)
            .arg(&partials.tokens)
            .arg(&partials.splits)
            .arg(&mut logprobs);
        let config =
            LaunchConfig { grid_dim: (partials.tokens, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: block t reads the splits × tokens partials of token t and its target logit,
        // and writes logprobs[t], t < tokens.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;
        stream.clone_dtoh(&logprobs).map_err(cuda_error)
    }

    /// [`crate::sequence_scores`] on the device.
    pub fn sequence_scores(&self, logprobs: &[f32], offsets: &[u32], kind: ScoreKind) -> Result<Vec<f64>, KernelError> {
        check_offsets(offsets, logprobs.len())?;
        let sequences = offsets.len() - 1;
        if sequences == 0 {
            return Ok(Vec::new());
        }
        let count = u32::try_from(sequences)
            .map_err(|_| KernelError::Shape("the sequence count exceeds the kernels' 32-bit indices".to_owned()))?;
        let stream = &self.stream;
        // A zero-length device buffer cannot be allocated; the kernel reads no log-prob then.
        let padded: Vec<f32> = if logprobs.is_empty() { vec![0.0] } else { logprobs.to_vec() };
        let logprobs_d = stream.clone_htod(&padded).map_err(cuda_error)?;
        let offsets_d = stream.clone_htod(offsets).map_err(cuda_error)?;
        let mut scores = stream.alloc_zeros::<f32>(sequences).map_err(cuda_error)?;
        let code = kind.code();
        let mut launch = stream.launch_builder(&self.sequences);
        launch.arg(&logprobs_d).arg(&offsets_d).arg(&code).arg(&mut scores);
        let config = LaunchConfig { grid_dim: (count, 1, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: the arguments match the kernel's parameters; `offsets` was checked to rise
        // from 0 to the number of log-probs, so every segment lies inside the log-prob buffer.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;
        Ok(stream.clone_dtoh(&scores).map_err(cuda_error)?.into_iter().map(f64::from).collect())
    }
}
