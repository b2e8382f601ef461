//! `[episodes]`: multi-turn environment episodes.

use serde::{Deserialize, Serialize};

/// Live episodes: how many, for how long, how large an action may be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EpisodesConfig {
    /// Episodes live on this replica at once; starting one more is refused with 503.
    pub max_live: usize,
    /// `python-tool` episodes live at once: each keeps an interpreter (its sandbox instance and
    /// memory) between steps. The sandbox's instance pool is sized for them.
    pub max_live_python: usize,
    /// An episode with no step for this long ends (`expired`), in milliseconds; a later step is
    /// answered 409 `episode_ended`.
    pub idle_timeout_ms: u64,
    /// Steps any episode may take, whatever its environment allows; the step that reaches it
    /// ends the episode (`turn_limit`).
    pub max_turns: u32,
    /// Largest action, in bytes of JSON.
    pub max_action_bytes: usize,
    /// This replica's name in episode ids. A random one per start when absent; with a stable
    /// name, a restarted replica answers its predecessor's episodes with 409 `episode_lost`
    /// instead of 421 `wrong_replica`.
    pub replica_id: Option<String>,
}

impl Default for EpisodesConfig {
    fn default() -> Self {
        EpisodesConfig {
            max_live: 4096,
            max_live_python: 32,
            idle_timeout_ms: 600_000,
            max_turns: 256,
            max_action_bytes: 1 << 20,
            replica_id: None,
        }
    }
}
