//! Referee's NP optimisation environments: seeded generators, verifiers, exact and heuristic
//! reference solvers, and quality-aware rewards.
//!
//! Three entry points:
//!
//! - [`catalogue`] lists every task with its levels and answer format (`GET /v1/environments`);
//! - [`generate`] / [`generate_instances`] build instances with prompts and references from
//!   (task, level, seed) (`POST /v1/environments/{task}/instances`);
//! - [`NpVerifier`] implements [`referee_core::Verifier`] as verifier `np`, scoring a response
//!   against an instance given inline or regenerated from (level, seed).
//!
//! Answers are extracted and tokenised, never evaluated; see [`extract`] and [`parse`] for the
//! exact policy, and `docs/verifiers/np.md` for tasks, levels and reward formulas.

#![allow(
    clippy::needless_range_loop,
    reason = "solvers index several parallel arrays and matrices by the same vertex; iterator zips obscure that"
)]

mod api;
mod catalogue;
mod cover;
mod environment;
pub mod extract;
mod feedback;
pub mod graph;
pub mod parse;
pub mod reward;
pub mod rng;
pub mod task;
pub mod tasks;
#[cfg(test)]
mod testkit;
mod verifier;
pub mod violation;
pub mod weighted;

pub use api::{GeneratedInstance, InstancesRequest, InstancesResponse, LevelInfo, MAX_COUNT, NpError, TaskInfo};
pub use catalogue::{catalogue, generate, generate_instances};
pub use feedback::{MAX_TURNS, NP_FEEDBACK_ID, NpFeedback, NpFeedbackAction, NpFeedbackOptions};
pub use reward::{Direction, RewardMode};
pub use task::{Reference, ReferenceKind};
pub use verifier::{NpInput, NpVerifier};
pub use violation::{ErrorKind, Violation};
