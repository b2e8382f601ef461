//! The types every Referee plug-in shares.
//!
//! A verifier or reward model depends on this crate and nothing else of Referee's: it receives
//! typed inputs and a [`Budget`], and returns one [`Verdict`] per input. Two traits cover the two
//! ways scoring runs:
//!
//! - [`Verifier`]: synchronous and CPU-bound (answer checkers, rule-based environments). The
//!   server runs it on a thread pool, never on the async workers.
//! - [`RewardModel`]: asynchronous (device-backed models behind a batcher, sandboxes that await
//!   runs under a timeout, judges that call an HTTP endpoint).
//!
//! Both are batch-first. [`Scorer`] erases either into the one shape the registry stores.

mod admission;
pub mod anatomy;
mod budget;
mod environment;
mod scorer;
pub mod threads;
mod verdict;

pub use admission::{Admission, Busy, BusyStatus};
pub use anatomy::{Anatomy, Marker, Reasoning};
pub use budget::Budget;
pub use environment::{Environment, EnvironmentDescription, EnvironmentError, EnvironmentInfo, Episode, Started, Step};
pub use scorer::{
    Description, ErasedRewardModel, ErasedVerifier, InputSchema, RewardModel, Scorer, ScorerInfo, Verifier, on_pool,
    score_by_scorer, verify_each,
};
pub use verdict::{Status, Verdict};

/// Re-exported so plug-in crates derive input schemas with the same `utoipa` version.
pub use utoipa;
