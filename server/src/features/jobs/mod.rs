//! Batch scoring jobs: a JSONL upload is stored (in small transactions, visible only once
//! complete), split into chunks, and scored by workers on any replica that shares the database.
//! Workers take turns across jobs in proportion to their priorities. Chunks are claimed under a
//! lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL); a chunk whose worker dies is taken over when
//! its lease expires, or at once when its own node restarts; results are keyed by (job, item
//! index), so a chunk scored twice never duplicates a result.

pub(crate) mod handlers;
pub mod settings;
mod store;
mod upload;
mod worker;

use serde::Serialize;
use utoipa::ToSchema;

pub use store::{Claim, JobStore};
pub use upload::{Upload, UploadError};
pub use worker::{JobWorkers, Wakeup, spawn_workers};

/// Where a job is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Stored; no chunk has been claimed yet.
    Queued,
    /// Some chunks are claimed or done.
    Running,
    /// Every item is scored.
    Done,
    /// Cancelled; chunks not yet claimed will not run.
    Cancelled,
}

/// A job's state and progress, as `GET /v1/jobs/{id}` reports it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct JobStatus {
    /// The job id.
    pub id: String,
    pub state: JobState,
    /// Items in the upload.
    pub total_items: u64,
    /// Items with a result.
    pub scored_items: u64,
    /// Chunks the job was split into.
    pub chunks_total: u64,
    /// Chunks finished.
    pub chunks_done: u64,
    /// Items per chunk.
    pub chunk_size: u64,
    /// When the job was stored, in Unix milliseconds.
    pub created_at_ms: i64,
    /// When its last chunk finished, in Unix milliseconds.
    pub finished_at_ms: Option<i64>,
}
