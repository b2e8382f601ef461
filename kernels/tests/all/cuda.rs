//! The CUDA kernels: compiled to PTX by NVRTC (no GPU needed), and compared with their CPU twins
//! when a GPU is present. Each test says on stderr when it was skipped and why.
#![cfg(feature = "cuda")]

use super::common::{Case, max_difference};
use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;
use referee_kernels::cuda::{DeviceMatrix, Gpu, HeadMethod, compile_ptx, nvrtc_available};
use referee_kernels::{KernelError, Matrix, ScoreKind, layers, sequence_scores, sources, token_logprobs};

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
        ("decoder", &["rms_norm", "add_bias", "add_in_place", "silu_mul", "rope", "causal_softmax", "gather_rows"][..]),
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

/// The GPU, or `None` (saying so) where this machine has none; `REFEREE_REQUIRE_GPU` (set to
/// anything) makes a missing GPU a failure, for runs on a GPU machine.
fn open() -> Result<Option<Gpu>, KernelError> {
    let gpu = Gpu::open(0)?;
    if gpu.is_none() {
        assert!(std::env::var_os("REFEREE_REQUIRE_GPU").is_none(), "REFEREE_REQUIRE_GPU is set but no GPU opens");
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

fn random(rng: &mut ChaCha8Rng, count: usize) -> Vec<f32> {
    (0..count).map(|_| rng.random_range(-1.0f32..1.0)).collect()
}

fn upload(gpu: &Gpu, values: &[f32], rows: usize, cols: usize) -> Result<DeviceMatrix, KernelError> {
    gpu.upload(Matrix::new(values, rows, cols)?)
}

fn assert_close(gpu: &[f32], cpu: &[f32], what: &str) {
    assert_eq!(gpu.len(), cpu.len(), "{what}: lengths");
    let difference = max_difference(gpu.iter().map(|&x| f64::from(x)), cpu.iter().map(|&x| f64::from(x)));
    assert!(difference < 1e-4, "{what}: max |gpu − cpu| = {difference}");
}

/// Every decoder-layer operation against its twin in `referee_kernels::layers`, on shapes off
/// the block size, with grouped-query attention (6 query heads over 2 key/value heads).
#[test]
fn decoder_operations_match_their_cpu_twins() -> Result<(), KernelError> {
    let Some(gpu) = open()? else { return Ok(()) };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (n, h, inter, heads, kv, d) = (37, 300, 520, 6, 2, 16);
    let x = random(&mut rng, n * h);
    let x_d = upload(&gpu, &x, n, h)?;

    let w_t = random(&mut rng, h * inter);
    let product = gpu.download(&gpu.matmul(&x_d, &upload(&gpu, &w_t, h, inter)?)?)?;
    assert_close(&product, &layers::matmul(Matrix::new(&x, n, h)?, Matrix::new(&w_t, h, inter)?)?, "matmul");

    let weight = random(&mut rng, h);
    let normed = gpu.download(&gpu.rms_norm(&x_d, &upload(&gpu, &weight, 1, h)?, 1e-6)?)?;
    assert_close(&normed, &layers::rms_norm(Matrix::new(&x, n, h)?, &weight, 1e-6)?, "rms_norm");

    let bias = random(&mut rng, h);
    let mut biased = upload(&gpu, &x, n, h)?;
    gpu.add_bias(&mut biased, &upload(&gpu, &bias, 1, h)?)?;
    let mut expected = x.clone();
    layers::add_bias(&mut expected, &bias)?;
    assert_close(&gpu.download(&biased)?, &expected, "add_bias");

    let other = random(&mut rng, n * h);
    let mut sum = upload(&gpu, &x, n, h)?;
    gpu.add_in_place(&mut sum, &upload(&gpu, &other, n, h)?)?;
    let mut expected = x.clone();
    layers::add_in_place(&mut expected, &other)?;
    assert_close(&gpu.download(&sum)?, &expected, "add_in_place");

    let mut gated = upload(&gpu, &x, n, h)?;
    gpu.silu_mul(&mut gated, &upload(&gpu, &other, n, h)?)?;
    let mut expected = x.clone();
    layers::silu_mul(&mut expected, &other)?;
    assert_close(&gpu.download(&gated)?, &expected, "silu_mul");

    let half = d / 2;
    let angles: Vec<f32> = (0..n * half).map(|i| (i / half) as f32 * 0.37_f32.powi((i % half) as i32)).collect();
    let cos: Vec<f32> = angles.iter().map(|a| a.cos()).collect();
    let sin: Vec<f32> = angles.iter().map(|a| a.sin()).collect();
    let q = random(&mut rng, n * heads * d);
    let mut rotated = upload(&gpu, &q, n, heads * d)?;
    gpu.rope(&mut rotated, heads, &upload(&gpu, &cos, n, half)?, &upload(&gpu, &sin, n, half)?)?;
    let mut expected = q.clone();
    layers::rope(&mut expected, heads, Matrix::new(&cos, n, half)?, Matrix::new(&sin, n, half)?)?;
    assert_close(&gpu.download(&rotated)?, &expected, "rope");

    let (k, v) = (random(&mut rng, n * kv * d), random(&mut rng, n * kv * d));
    let scale = 1.0 / (d as f32).sqrt();
    // One sequence, then several laid end to end (an empty one among them).
    for segments in [&[0, n][..], &[0, 5, 5, 20, 21, n]] {
        let attended = gpu.causal_attention(
            &upload(&gpu, &q, n, heads * d)?,
            &upload(&gpu, &k, n, kv * d)?,
            &upload(&gpu, &v, n, kv * d)?,
            segments,
            heads,
            kv,
            scale,
        )?;
        let expected = layers::segmented_causal_attention(
            Matrix::new(&q, n, heads * d)?,
            Matrix::new(&k, n, kv * d)?,
            Matrix::new(&v, n, kv * d)?,
            segments,
            heads,
            kv,
            scale,
        )?;
        assert_close(&gpu.download(&attended)?, &expected, &format!("causal_attention over {segments:?}"));
    }

    let rows = [36, 0, 5, 5, 20];
    let gathered = gpu.download(&gpu.gather_rows(&x_d, &rows)?)?;
    assert_close(&gathered, &layers::gather_rows(Matrix::new(&x, n, h)?, &rows)?, "gather_rows");
    Ok(())
}

/// The fused LM head with the weight resident on the device, as a model calls it.
#[test]
fn fused_kernel_with_a_resident_head_matches_its_cpu_twin() -> Result<(), KernelError> {
    let Some(gpu) = open()? else { return Ok(()) };
    let case = Case::random(21, 13, 64, 7000, 6.0);
    let hidden = Matrix::new(&case.hidden, case.tokens, case.features)?;
    let weight = Matrix::new(&case.weight, case.vocab, case.features)?;
    let resident = gpu.upload(weight)?;
    let on_gpu = gpu.token_logprobs_with(hidden, &resident, &case.targets)?;
    assert_close(&on_gpu, &token_logprobs(hidden, weight, &case.targets)?, "token_logprobs_with");
    Ok(())
}

/// Both LM-head methods against the CPU twin, the products over one slice of the vocabulary
/// and (600 tokens × 60,000 rows: more logits than one product holds) over two.
#[test]
fn both_head_methods_match_the_cpu_twin() -> Result<(), KernelError> {
    let Some(gpu) = open()? else { return Ok(()) };
    for (seed, tokens, features, vocab, scale) in
        [(31, 1, 8, 3, 1.0), (32, 70, 96, 9001, 8.0), (33, 600, 64, 60_000, 6.0)]
    {
        let case = Case::random(seed, tokens, features, vocab, scale);
        let hidden = Matrix::new(&case.hidden, tokens, features)?;
        let weight = Matrix::new(&case.weight, vocab, features)?;
        let resident = gpu.upload(weight)?;
        let on_cpu = token_logprobs(hidden, weight, &case.targets)?;
        for method in [HeadMethod::Fused, HeadMethod::Products] {
            let on_gpu = gpu.token_logprobs_by(method, hidden, &resident, &case.targets)?;
            assert!(on_gpu.iter().all(|x| x.is_finite()), "seed {seed}, {method:?}: {on_gpu:?}");
            assert_close(&on_gpu, &on_cpu, &format!("seed {seed}, {method:?}"));
        }
    }
    Ok(())
}
