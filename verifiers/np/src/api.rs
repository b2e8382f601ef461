//! The environment API's types: the task listing (`GET /v1/environments`), generation requests
//! and replies (`POST /v1/environments/{task}/instances`), and the errors of both.

use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::reward::Direction;
use crate::task::Reference;

/// Most instances one generation request may ask for.
pub const MAX_COUNT: u32 = 256;

/// Errors of the environment API (unknown task or level, bad instance, oversized request).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NpError {
    /// No task has this id.
    #[error("unknown task {0:?}")]
    UnknownTask(String),
    /// The task has no such level.
    #[error("task {task} has levels 1..={max}, not {level}")]
    UnknownLevel {
        /// The task.
        task: String,
        /// The level asked for.
        level: u8,
        /// The highest level.
        max: u8,
    },
    /// A caller-supplied instance does not deserialise or fails the task's checks.
    #[error("invalid {task} instance: {reason}")]
    InvalidInstance {
        /// The task.
        task: String,
        /// What is wrong.
        reason: String,
    },
    /// Neither an instance nor a (level, seed) pair was given.
    #[error("give either `instance` or both `level` and `seed`")]
    MissingInstance,
    /// The instance count is 0 or above the cap.
    #[error("count must be between 1 and {max}, not {count}")]
    BadCount {
        /// The count asked for.
        count: u32,
        /// The cap.
        max: u32,
    },
}

/// One difficulty level as listed by `GET /v1/environments`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct LevelInfo {
    /// 1-based level.
    pub level: u8,
    /// Instance sizes and the kind of reference at this level.
    pub description: String,
}

/// One task as listed by `GET /v1/environments`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct TaskInfo {
    /// Stable task id, used in URLs and in the `np` verifier's `task` field.
    pub task: String,
    /// What the task asks and how it is scored.
    pub summary: String,
    /// Objective direction.
    pub direction: Direction,
    /// The answer format the prompt asks for.
    pub answer_format: String,
    /// Version of the generator; instances are reproducible per (task, level, seed, version).
    pub generator_version: u32,
    /// The difficulty levels.
    pub levels: Vec<LevelInfo>,
}

/// One generated instance with its prompt and reference, as returned by
/// `POST /v1/environments/{task}/instances`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GeneratedInstance {
    /// The task id.
    pub task: String,
    /// The level it was generated at.
    pub level: u8,
    /// The seed; (task, level, seed) reproduces this instance exactly.
    pub seed: u64,
    /// The generator version that produced it.
    pub generator_version: u32,
    /// The full prompt, including the exact answer format.
    pub prompt: String,
    /// The instance as JSON (pass it back as the `np` verifier's `instance`).
    #[schema(value_type = Object)]
    pub instance: Value,
    /// The reference solution, its objective and kind.
    pub reference: Reference,
}

/// Body of `POST /v1/environments/{task}/instances`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InstancesRequest {
    /// Difficulty level (see the task's `levels`).
    pub level: u8,
    /// Seed of the first instance; the i-th instance uses `seed + i`.
    pub seed: u64,
    /// How many instances, 1 to 256.
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

/// Reply of `POST /v1/environments/{task}/instances`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InstancesResponse {
    /// The task id.
    pub task: String,
    /// The instances, seeds `seed..seed + count` in order.
    pub instances: Vec<GeneratedInstance>,
}
