//! The CUDA kernels: compiled to PTX by NVRTC (no GPU needed), and compared with their CPU twins
//! when a GPU is present. Each test says on stderr when it was skipped and why.
#![cfg(feature = "cuda")]

mod common;

use common::{Case, max_difference};
use referee_kernels::cuda::{Gpu, compile_ptx, nvrtc_available};
use referee_kernels::{KernelError, Matrix, ScoreKind, sequence_scores, sources, token_logprobs};

/// Set (to anything) where NVRTC must be present, as in CI: a missing library then fails the
/// test instead of skipping it.
const REQUIRE_NVRTC: &str = "REFEREE_REQUIRE_NVRTC";

#[test]
fn every_kernel_compiles_to_ptx() -> Result<(), KernelError> {
    if !nvrtc_available() {
        assert!(
            std::env::var_os(REQUIRE_NVRTC).is_none(),
            "{REQUIRE_NVRTC} is set but libnvrtc cannot be loaded (LD_LIBRARY_PATH?)"
        );
        eprintln!(
            "SKIPPED every_kernel_compiles_to_ptx: libnvrtc cannot be loaded (pip install nvidia-cuda-nvrtc-cu12)"
        );
        return Ok(());
    }
    let entries = [
        ("token_logprobs", &["token_logprobs_partial", "token_logprobs_combine"][..]),
        ("sequence_scores", &["sequence_scores"][..]),
    ];
    for (name, source) in sources::ALL {
        let ptx = compile_ptx(name, source)?;
        let kernels = entries.iter().find(|(module, _)| *module == name).map(|(_, k)| *k).unwrap_or_default();
        assert!(!kernels.is_empty(), "no expected entry points listed for {name}");
        for kernel in kernels {
            assert!(ptx.contains(&format!(".entry {kernel}")), "{name}.cu: no entry {kernel} in its PTX");
        }
    }
    Ok(())
}

fn open() -> Result<Option<Gpu>, KernelError> {
    let gpu = Gpu::open(0)?;
    if gpu.is_none() {
        eprintln!("SKIPPED GPU comparison: no CUDA driver or device on this machine");
    }
    Ok(gpu)
}

#[test]
fn fused_kernel_matches_its_cpu_twin() -> Result<(), KernelError> {
    let Some(gpu) = open()? else { return Ok(()) };
    eprintln!("comparing on {}", gpu.name());
    for (seed, tokens, features, vocab, scale) in
        [(1, 1, 8, 1, 1.0), (2, 19, 37, 9001, 4.0), (3, 64, 896, 32_000, 8.0), (4, 9, 96, 5000, 60.0)]
    {
        let case = Case::random(seed, tokens, features, vocab, scale);
        let hidden = Matrix::new(&case.hidden, tokens, features)?;
        let weight = Matrix::new(&case.weight, vocab, features)?;
        let on_gpu = gpu.token_logprobs(hidden, weight, &case.targets)?;
        let on_cpu = token_logprobs(hidden, weight, &case.targets)?;
        let difference = max_difference(on_gpu.iter().map(|&x| f64::from(x)), on_cpu.iter().map(|&x| f64::from(x)));
        assert!(difference < 1e-4, "seed {seed}: max |gpu − cpu| = {difference}");
    }
    Ok(())
}

#[test]
fn sequence_kernel_matches_its_cpu_twin() -> Result<(), KernelError> {
    let Some(gpu) = open()? else { return Ok(()) };
    let logprobs: Vec<f32> = (0..5000).map(|i| -((i % 97) as f32) / 40.0).collect();
    let offsets = [0, 1, 1, 700, 2600, 5000];
    for kind in [ScoreKind::MeanProb, ScoreKind::MeanLogprob, ScoreKind::GeoMean, ScoreKind::Product] {
        let on_gpu = gpu.sequence_scores(&logprobs, &offsets, kind)?;
        let on_cpu = sequence_scores(&logprobs, &offsets, kind)?;
        let difference = max_difference(on_gpu, on_cpu);
        assert!(difference < 1e-4, "{kind:?}: max |gpu − cpu| = {difference}");
    }
    Ok(())
}
