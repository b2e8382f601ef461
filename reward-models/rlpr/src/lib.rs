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
//!
//! And the serving side: [`RlprModel`], the `rlpr` reward model, scores an item from the
//! log-probs the trainer supplies or asks a [`LogprobSource`] for them: a [`RemoteSource`]
//! (an OpenAI-compatible completions server returning prompt log-probs), or a [`HostedModel`]
//! loaded in this process and run by a [`Batcher`] ([`HostedSource`]).

mod baselines;
mod batcher;
mod filter;
mod format;
mod hosted;
pub mod model;
#[cfg(test)]
mod parity_tests;
mod prepare;
mod remote;
mod reward;
mod reward_model;
mod source;

pub use baselines::{BaselineStore, MAX_RUN_BYTES, check_run};
pub use batcher::{Answers, BatchModel, Batcher, BatcherConfig, Reservation};
pub use filter::{GroupDecision, OpenStep, SingleRollout, StdFilter, StdFilterState, StepDecision, group_std};
pub use format::{FormatMode, Substituted, answer_blank, baseline, format_ok, overlap_mask, substitute};
pub use hosted::{HostedModel, HostedSource};
pub use model::{ChatTokenizer, LocalModel, LocalPlacement, ModelDevice, ModelError};
pub use prepare::{PrepareItem, PreparedItem, PreparedSequence, prepare};
pub use referee_kernels::ScoreKind;
pub use remote::{RemoteConfig, RemoteSource};
pub use reward::{BaselineCheckpoint, RewardOptions, RewardParts, bf16_round, repetition_detected};
pub use reward_model::{RlprInput, RlprModel};
pub use source::{ChatMessage, LogprobSource, ReloadError, Reloaded, ScoringText, SourceError, TokenSequence};
