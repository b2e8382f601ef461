//! `[jobs]`: batch scoring jobs.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Batch scoring jobs: uploads split into chunks that workers claim from the database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JobsConfig {
    /// Chunk workers in this process; 0 runs none (the API still accepts jobs for other
    /// replicas to work on).
    pub workers: usize,
    /// Items per chunk unless the upload asks for another size.
    pub chunk_size: usize,
    /// How long a claimed chunk stays claimed without a heartbeat before another worker may
    /// take it over, in milliseconds.
    pub lease_ms: u64,
    /// How often an idle worker looks for work when nothing wakes it, in milliseconds.
    pub poll_interval_ms: u64,
    /// Time budget of one chunk, in milliseconds.
    pub chunk_timeout_ms: u64,
    /// Largest JSONL upload, in bytes.
    pub max_upload_bytes: usize,
    /// Uploads (`POST /v1/jobs`) in progress at once; more are refused with 503 `overloaded`
    /// and `Retry-After`. Uploads take these slots instead of the request slots of
    /// `server.max_concurrent_requests`, so uploads never hold the room scoring needs.
    pub max_concurrent_uploads: usize,
    /// Directories whose files may be submitted by server-side path; empty turns paths off.
    pub allowed_paths: Vec<PathBuf>,
    /// Most items one job may hold; a larger upload is refused with 413 `too_many_items`.
    pub max_items: usize,
    /// This node's name in the database. A process restarted under the same name takes its dead
    /// predecessor's chunks back at once; other nodes wait for the lease to expire. The host
    /// name when absent.
    pub node_id: Option<String>,
}

impl Default for JobsConfig {
    fn default() -> Self {
        JobsConfig {
            workers: 2,
            chunk_size: 1000,
            lease_ms: 60_000,
            poll_interval_ms: 1000,
            chunk_timeout_ms: 300_000,
            max_upload_bytes: 256 << 20,
            max_concurrent_uploads: 16,
            allowed_paths: Vec::new(),
            max_items: 1_000_000,
            node_id: None,
        }
    }
}
