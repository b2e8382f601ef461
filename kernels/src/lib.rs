//! The kernels behind probability rewards (RLPR): the log-probability a language model gives
//! each scored token, and the reduction of those log-probs to one score per sequence.
//!
//! - [`token_logprobs`] is the fused LM head: for each scored position it takes the final
//!   hidden state, streams the vocabulary's rows of the LM-head matrix in tiles, keeps an online
//!   maximum and sum of exponentials, and returns `log softmax(W·h)[target]` without ever
//!   holding a row of logits, let alone the `[tokens × vocab]` matrix.
//! - [`sequence_scores`] reduces the per-token log-probs of each sequence (a segment of the
//!   flat array) to a score: the mean token probability by default ([`ScoreKind`]).
//!
//! Both run on the CPU here. With the `cuda` feature, [`cuda`] runs the same computations as
//! CUDA kernels compiled by NVRTC at run time; the CPU functions are their twins, and the tests
//! compare the two whenever a GPU is present. [`cuda`] also runs the rest of a decoder layer on
//! the device (cuBLAS products and the kernels of [`sources::DECODER`]), so a model's whole
//! forward pass can stay there; [`layers`] holds those steps' CPU twins.

mod cpu;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod layers;
mod score;
mod shape;

pub use cpu::{sequence_scores, token_logprobs};
pub use score::ScoreKind;
pub use shape::{KernelError, Matrix};

/// The CUDA C sources of the kernels, by module name. They are plain text in every build, so a
/// build without the `cuda` feature can still ship and inspect them.
pub mod sources {
    /// The fused LM head + log-softmax + gather: `token_logprobs_partial` and
    /// `token_logprobs_combine`.
    pub const TOKEN_LOGPROBS: &str = include_str!("cuda/token_logprobs.cu");
    /// The segmented reduction of token log-probs to sequence scores: `sequence_scores`.
    pub const SEQUENCE_SCORES: &str = include_str!("cuda/sequence_scores.cu");
    /// The steps of a decoder layer besides the matrix products (RMSNorm, bias, residual add,
    /// SwiGLU, rotary embedding, causal softmax, row gather); their twins are
    /// [`crate::layers`].
    pub const DECODER: &str = include_str!("cuda/decoder.cu");
    /// Every module: (name, source).
    pub const ALL: [(&str, &str); 3] =
        [("token_logprobs", TOKEN_LOGPROBS), ("sequence_scores", SEQUENCE_SCORES), ("decoder", DECODER)];
}
