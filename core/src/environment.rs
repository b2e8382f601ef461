//! Multi-turn environments: an [`Environment`] starts episodes from its options, an [`Episode`]
//! holds its state between the agent's actions and answers each with an observation, a reward
//! and whether it is done.
//!
//! Environments are plug-ins like scorers: each lives in the crate of what it builds on (the NP
//! tasks, the code sandbox) and the server's registry lists them. The server owns everything
//! around an episode: ids, turn and idle limits, the transcript in the database, the protocols
//! (native REST, OpenEnv) that reach it.

use futures::future::BoxFuture;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::{Busy, InputSchema, Status};

/// Who an environment is: what `GET /v1/episode-environments` lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct EnvironmentDescription {
    /// Stable id used to start episodes (`"np-feedback"`).
    pub id: &'static str,
    /// Bumped whenever an episode with the same options and actions may go differently.
    pub version: &'static str,
    /// One paragraph for users: what an episode is, what an action is, how it is rewarded.
    pub summary: &'static str,
}

/// An environment's description with the schemas of its options and actions.
#[derive(Debug, Clone)]
pub struct EnvironmentInfo {
    pub description: EnvironmentDescription,
    /// The schema of the options an episode starts from.
    pub options: InputSchema,
    /// The schema of one action.
    pub action: InputSchema,
}

/// The first observation of a new episode.
#[derive(Debug)]
pub struct Started {
    pub episode: Box<dyn Episode>,
    /// What the agent sees first (the task, the problem statement, ...).
    pub observation: Value,
}

/// The answer to one action.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Step {
    /// What the agent sees now.
    #[schema(value_type = Object)]
    pub observation: Value,
    /// The reward of this step; environments that reward the outcome give it on the last step
    /// and 0 before.
    pub reward: f64,
    /// True when the episode is over: no further action is taken.
    pub done: bool,
}

/// Why an environment did not start an episode or take an action.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EnvironmentError {
    /// The options are malformed or out of range: the caller's error.
    #[error("{0}")]
    InvalidOptions(String),
    /// The action is malformed, or not one this episode takes now: the caller's error. The
    /// episode is unchanged and the action does not count as a turn.
    #[error("{0}")]
    InvalidAction(String),
    /// The environment has no room for another episode now; retry later.
    #[error("{}", .0.message)]
    Busy(Busy),
    /// What the environment needs is not available on this server (a runtime not set up).
    #[error("{0}")]
    Unavailable(String),
    /// The environment broke: never the caller's fault.
    #[error("{0}")]
    Internal(String),
}

/// A multi-turn environment.
///
/// The option and action types' doc comments are the user documentation: they flow into the
/// OpenAPI document and `GET /v1/episode-environments`.
pub trait Environment: Send + Sync + std::fmt::Debug + 'static {
    /// The environment's description and the schemas of its options and actions.
    fn info(&self) -> EnvironmentInfo;

    /// Starts an episode from `options` (validated by the environment).
    fn start(&self, options: Value) -> BoxFuture<'static, Result<Started, EnvironmentError>>;
}

/// One live episode. The server calls [`Episode::step`] for one action at a time, and never
/// again after a step that is done.
pub trait Episode: Send + std::fmt::Debug + 'static {
    /// Takes one action.
    fn step(&mut self, action: Value) -> BoxFuture<'_, Result<Step, EnvironmentError>>;

    /// A summary of the episode's state for whoever inspects it (OpenEnv's `state`): the turn,
    /// the best answer so far, ... Never the hidden parts of the task.
    fn state(&self) -> Value;

    /// Once the episode is done, the status of the verdict behind its final reward (the hidden
    /// tests', the checked answer's, ...); `None` before, and when no verdict stands behind it.
    fn outcome(&self) -> Option<Status> {
        None
    }
}
