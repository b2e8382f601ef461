//! The CUDA kernels, compiled from [`crate::sources`] by NVRTC when a [`Gpu`] opens and launched
//! through cudarc. The driver and NVRTC are loaded dynamically: on a machine without them,
//! [`Gpu::open`] answers `None` and [`nvrtc_available`] `false`, and nothing panics.

// Loading a CUDA library, launching a kernel and passing it raw device pointers are `unsafe` in
// cudarc; each block below states why its call is sound.
#![allow(unsafe_code)]

use std::sync::Arc;

use cudarc::cublas::CudaBlas;
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg as _};
use cudarc::nvrtc::{CompileOptions, Ptx, compile_ptx_with_opts};

use crate::cpu::{TOKEN_GROUP, VOCAB_SPLIT};
use crate::score::ScoreKind;
use crate::shape::{KernelError, Matrix, check_offsets, check_token_logprob_shapes, check_token_logprobs};
use crate::sources;

mod device;

pub use device::{DeviceMatrix, cublas_available};

/// Threads per block of every kernel (the sources' `THREADS`).
const THREADS: u32 = 256;

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

/// The kernels loaded on one device, and a cuBLAS handle where the library is present.
#[derive(Debug)]
pub struct Gpu {
    stream: Arc<CudaStream>,
    partial: CudaFunction,
    combine: CudaFunction,
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
    /// only the hidden states of the scored positions and the targets are copied in.
    pub fn token_logprobs_with(
        &self,
        hidden: Matrix<'_>,
        weight: &DeviceMatrix,
        targets: &[u32],
    ) -> Result<Vec<f32>, KernelError> {
        check_token_logprob_shapes((hidden.rows(), hidden.cols()), (weight.rows(), weight.cols()), targets)?;
        if hidden.rows() == 0 {
            return Ok(Vec::new());
        }
        let hidden_d = self.stream.clone_htod(hidden.data()).map_err(cuda_error)?;
        self.fused_head(&hidden_d, hidden.rows(), weight, targets)
    }

    /// Launches the fused LM head on `tokens` hidden states already on the device.
    fn fused_head(
        &self,
        hidden_d: &CudaSlice<f32>,
        tokens: usize,
        weight: &DeviceMatrix,
        targets: &[u32],
    ) -> Result<Vec<f32>, KernelError> {
        let too_large = |what: &str| KernelError::Shape(format!("{what} exceeds the kernels' 32-bit indices"));
        let tokens32 = u32::try_from(tokens).map_err(|_| too_large("the token count"))?;
        let features = u32::try_from(weight.cols()).map_err(|_| too_large("the feature count"))?;
        let vocab = u32::try_from(weight.rows()).map_err(|_| too_large("the vocabulary"))?;
        let split_rows = VOCAB_SPLIT as u32;
        let splits = vocab.div_ceil(split_rows);
        let groups = tokens32.div_ceil(TOKEN_GROUP as u32);

        let stream = &self.stream;
        let targets_d = stream.clone_htod(targets).map_err(cuda_error)?;
        let cells = splits as usize * tokens;
        let mut partial_max = stream.alloc_zeros::<f32>(cells).map_err(cuda_error)?;
        let mut partial_sum = stream.alloc_zeros::<f32>(cells).map_err(cuda_error)?;
        let mut target_logits = stream.alloc_zeros::<f32>(tokens).map_err(cuda_error)?;
        let mut logprobs = stream.alloc_zeros::<f32>(tokens).map_err(cuda_error)?;

        let mut launch = stream.launch_builder(&self.partial);
        launch
            .arg(hidden_d)
            .arg(weight.data())
            .arg(&targets_d)
            .arg(&tokens32)
            .arg(&features)
            .arg(&vocab)
            .arg(&split_rows)
            .arg(&mut partial_max)
            .arg(&mut partial_sum)
            .arg(&mut target_logits);
        let config = LaunchConfig { grid_dim: (groups, splits, 1), block_dim: (THREADS, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: the arguments match the kernel's parameters in order and type; the buffers
        // hold tokens × features, vocab × features, tokens, and splits × tokens values, which
        // bound every index the kernel computes from the sizes passed with them.
        unsafe { launch.launch(config) }.map_err(cuda_error)?;

        let mut launch = stream.launch_builder(&self.combine);
        launch.arg(&partial_max).arg(&partial_sum).arg(&target_logits).arg(&tokens32).arg(&splits).arg(&mut logprobs);
        let config = LaunchConfig::for_num_elems(tokens32);
        // SAFETY: as above; the kernel reads splits × tokens partials and writes tokens values,
        // and threads past `tokens` return at once.
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
