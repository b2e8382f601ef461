//! The probability reward of RLPR (arXiv 2506.18254): how likely the policy finds the reference
//! answer after its own reasoning, less how likely it finds it without reasoning.
//!
//! This crate holds the parts every way of scoring shares, following the reference
//! implementation's `ProbRewardManager` and `replace_answer_with_gt_batch` line by line:
//!
//! - [`substitute`]: the response with its answer replaced by the reference, and the characters
//!   of the reference in it; [`baseline`]: the prompt followed by the reference alone;
//! - [`overlap_mask`]: the tokens whose characters overlap the reference;
//! - [`RewardOptions::reward`]: the final reward from the two scores, the format term and the
//!   repetition penalty; the scores themselves are [`referee_kernels::ScoreKind`] reductions of
//!   the masked tokens' log-probs;
//! - [`StdFilter`]: the per-group standard deviation and the keep/drop rule against β times an
//!   exponential moving average of it.

mod filter;
mod format;
mod reward;
mod verifier;

pub use filter::{GroupDecision, StdFilter, StdFilterState, StepDecision, group_std};
pub use format::{FormatMode, Substituted, baseline, format_ok, overlap_mask, substitute};
pub use referee_kernels::ScoreKind;
pub use reward::{RewardOptions, RewardParts, bf16_round, repetition_detected};
pub use verifier::{RlprInput, RlprVerifier};
