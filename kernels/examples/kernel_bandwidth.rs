//! The LM head's achieved memory bandwidth (both methods) against the device's copy bandwidth, on a
//! Qwen2.5-0.5B-sized head by default:
//!
//! ```text
//! kernel_bandwidth [VOCAB] [HIDDEN] [REPEATS]
//! ```
//!
//! The copy is a device-to-device copy of the LM-head matrix (it reads and writes each byte: 2 ×
//! its size per copy). The kernel streams the whole head once per group of 8 tokens, so a call over
//! T tokens (1, 8, 32, 64, 256 and 1,024) reads ⌈T/8⌉ × its size; each call also copies the T
//! hidden states in and the T log-probs out, as the model's calls do. The products method (cuBLAS
//! over vocabulary slices, then a log-sum-exp per slice) reads the head once per call and writes
//! and reads the T × vocab logits once. Prints one JSON line per method and token count: the call's
//! time, the bytes it moves per second (`kernel_gb_per_s`, against the copy in `ratio_to_copy`),
//! and the head's size over the call's time (`head_gb_per_s`: what reading the head once would
//! take).
//! `bench/rlpr/gpu.sh` runs it.

use std::time::Instant;

use referee_kernels::Matrix;
use referee_kernels::cuda::{Gpu, HeadMethod};

fn arg(index: usize, default: usize) -> Result<usize, Box<dyn std::error::Error>> {
    Ok(std::env::args().nth(index).map_or(Ok(default), |s| s.parse())?)
}

/// Deterministic values in [-scale, scale).
fn values(count: usize, seed: u64, scale: f32) -> Vec<f32> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (vocab, hidden, repeats) = (arg(1, 151_936)?, arg(2, 896)?, arg(3, 20)?);
    let Some(gpu) = Gpu::open(0)? else {
        return Err("no CUDA driver or device on this machine".into());
    };
    let weight = values(vocab * hidden, 1, 4.0 / (hidden as f32).sqrt());
    let head = gpu.upload(Matrix::new(&weight, vocab, hidden)?)?;
    let mut copy = gpu.zeros(vocab, hidden)?;
    let bytes = (vocab * hidden * 4) as f64;

    gpu.copy_into(&head, &mut copy)?;
    gpu.synchronize()?;
    let started = Instant::now();
    for _ in 0..repeats {
        gpu.copy_into(&head, &mut copy)?;
    }
    gpu.synchronize()?;
    let copy_gbs = 2.0 * bytes * repeats as f64 / started.elapsed().as_secs_f64() / 1e9;

    for tokens in [1usize, 8, 32, 64, 256, 1024] {
        let states = values(tokens * hidden, 2 + tokens as u64, 1.0);
        let targets: Vec<u32> = (0..tokens).map(|i| (i * 7919 % vocab) as u32).collect();
        let hidden_states = Matrix::new(&states, tokens, hidden)?;
        for method in [HeadMethod::Fused, HeadMethod::Products] {
            gpu.token_logprobs_by(method, hidden_states, &head, &targets)?;
            let started = Instant::now();
            for _ in 0..repeats {
                gpu.token_logprobs_by(method, hidden_states, &head, &targets)?;
            }
            let seconds = started.elapsed().as_secs_f64() / repeats as f64;
            let streamed = match method {
                HeadMethod::Fused => bytes * tokens.div_ceil(8) as f64,
                HeadMethod::Products => bytes + 2.0 * (tokens * vocab * 4) as f64,
            };
            let kernel_gbs = streamed / seconds / 1e9;
            println!(
                "{{\"device\": {:?}, \"method\": \"{method:?}\", \"vocab\": {vocab}, \"hidden\": {hidden}, \
                 \"tokens\": {tokens}, \"call_ms\": {:.4}, \"kernel_gb_per_s\": {kernel_gbs:.1}, \
                 \"head_gb_per_s\": {:.1}, \"copy_gb_per_s\": {copy_gbs:.1}, \"ratio_to_copy\": {:.3}}}",
                gpu.name(),
                seconds * 1e3,
                bytes / seconds / 1e9,
                kernel_gbs / copy_gbs
            );
        }
    }
    Ok(())
}
