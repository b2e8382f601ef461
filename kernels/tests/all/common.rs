//! Random operands and the plain reference the kernels are checked against.

#![allow(dead_code)]

use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;

/// Hidden states, an LM head and targets of the given shape, with logits of about `scale`.
pub struct Case {
    pub hidden: Vec<f32>,
    pub weight: Vec<f32>,
    pub targets: Vec<u32>,
    pub tokens: usize,
    pub features: usize,
    pub vocab: usize,
}

impl Case {
    pub fn random(seed: u64, tokens: usize, features: usize, vocab: usize, scale: f32) -> Case {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let spread = scale / (features as f32).sqrt();
        let hidden = (0..tokens * features).map(|_| rng.random_range(-1.0f32..1.0)).collect();
        let weight = (0..vocab * features).map(|_| rng.random_range(-spread..spread)).collect();
        let targets = (0..tokens).map(|_| rng.random_range(0..vocab as u32)).collect();
        Case { hidden, weight, targets, tokens, features, vocab }
    }

    /// `log softmax(W h)[t]` in f64, logits materialised: the definition, not the kernel.
    pub fn reference(&self) -> Vec<f64> {
        (0..self.tokens)
            .map(|i| {
                let h = &self.hidden[i * self.features..(i + 1) * self.features];
                let logits: Vec<f64> = (0..self.vocab)
                    .map(|v| {
                        let w = &self.weight[v * self.features..(v + 1) * self.features];
                        h.iter().zip(w).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum()
                    })
                    .collect();
                let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let log_sum = max + logits.iter().map(|x| (x - max).exp()).sum::<f64>().ln();
                logits[self.targets[i] as usize] - log_sum
            })
            .collect()
    }
}

/// The largest absolute difference between two sequences of the same length.
pub fn max_difference(a: impl IntoIterator<Item = f64>, b: impl IntoIterator<Item = f64>) -> f64 {
    a.into_iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}
