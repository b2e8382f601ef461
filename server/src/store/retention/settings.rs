//! The `[retention]` settings: how long each kind of stored row is kept.

use serde::{Deserialize, Serialize};

/// How long rows are kept (`[retention]`). A limit of 0 keeps rows forever.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetentionConfig {
    /// Runs the background task; with `false` nothing is ever deleted by age or count.
    pub enabled: bool,
    /// Time between the end of one pass and the start of the next, in milliseconds (the first
    /// pass starts one interval after start-up).
    pub interval_ms: u64,
    /// Most rows one DELETE statement removes.
    pub batch_rows: u64,
    /// Scoring-log rows, by `created_at_ms`.
    pub scoring_log: TableRetention,
    /// Result-cache entries, by `created_at_ms` (a later hit does not renew an entry).
    pub result_cache: TableRetention,
    /// Finished jobs (done, or cancelled with no live chunk) with their items, chunks and
    /// results, by finish time (creation time for cancelled jobs); `max_rows` counts jobs.
    /// Queued, running and uploading jobs are never deleted.
    pub jobs: TableRetention,
    /// The LLM judge's reply cache, by `created_at_ms`.
    pub judge_cache: TableRetention,
    /// Noise history: overturned verdicts, and the per-step count buckets that have left a
    /// model's sliding window. Settings, current steps and every count a model's estimate still
    /// reads are kept.
    pub noise: NoiseRetention,
    /// Episodes with their steps, by the time of their last step (or start): ended ones, and
    /// live ones a replica lost track of (a live episode that long idle has expired).
    pub episodes: EpisodeRetention,
    /// Training runs: recorded items by the time they were written, per-prompt counts by their
    /// last update, and a run's own row once nothing of it was written for that long.
    pub runs: RunRetention,
}

/// An age limit and a row cap for one kind of row; 0 turns either off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TableRetention {
    /// Rows older than this many seconds are deleted.
    pub max_age_secs: u64,
    /// The newest this many rows are kept; older ones are deleted.
    pub max_rows: u64,
}

/// The age limit of noise history; 0 keeps it forever.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NoiseRetention {
    /// Overturns, and count buckets outside a sliding window, older than this many seconds
    /// are deleted.
    pub max_age_secs: u64,
}

/// The age limit of episodes; 0 keeps them forever.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EpisodeRetention {
    /// Episodes whose last step (or start) is older than this many seconds are deleted with
    /// their steps.
    pub max_age_secs: u64,
}

/// The age limit of run statistics and the cap on retained texts; 0 turns either off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunRetention {
    /// Items, counts and samples older than this many seconds are deleted.
    pub max_age_secs: u64,
    /// The newest this many samples (`[runs.samples]`) are kept; older ones are deleted.
    pub max_samples: u64,
}

impl Default for RunRetention {
    fn default() -> Self {
        RunRetention { max_age_secs: 90 * DAY_SECS, max_samples: 100_000 }
    }
}

const DAY_SECS: u64 = 86_400;

/// The largest `batch_rows` accepted: a larger statement would hold SQLite's lock for long.
pub const MAX_BATCH_ROWS: u64 = 100_000;

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            enabled: true,
            interval_ms: 60_000,
            batch_rows: 1_000,
            scoring_log: TableRetention { max_age_secs: 30 * DAY_SECS, max_rows: 0 },
            result_cache: TableRetention { max_age_secs: 7 * DAY_SECS, max_rows: 1_000_000 },
            jobs: TableRetention { max_age_secs: 30 * DAY_SECS, max_rows: 0 },
            judge_cache: TableRetention { max_age_secs: 30 * DAY_SECS, max_rows: 1_000_000 },
            noise: NoiseRetention { max_age_secs: 90 * DAY_SECS },
            episodes: EpisodeRetention { max_age_secs: 30 * DAY_SECS },
            runs: RunRetention::default(),
        }
    }
}

impl RetentionConfig {
    /// Checks the interval and the batch size; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.interval_ms == 0 {
            return Err("retention.interval_ms must be at least 1".to_owned());
        }
        if !(1..=MAX_BATCH_ROWS).contains(&self.batch_rows) {
            return Err(format!("retention.batch_rows must be between 1 and {MAX_BATCH_ROWS}"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Config, Overrides};

    fn load(text: &str) -> Result<Config, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = dir.path().join("referee.toml");
        std::fs::write(&file, text).map_err(|e| e.to_string())?;
        Config::load(Some(&file), &Overrides::default()).map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_keep_history_for_weeks() {
        let config = load("").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.retention, RetentionConfig::default());
        assert!(config.retention.enabled);
        assert_eq!(config.retention.scoring_log.max_age_secs, 30 * DAY_SECS);
        assert_eq!(config.retention.result_cache, TableRetention { max_age_secs: 7 * DAY_SECS, max_rows: 1_000_000 });
        assert_eq!(config.retention.noise.max_age_secs, 90 * DAY_SECS);
        assert!(config.to_toml().contains("[retention.jobs]"));
    }

    #[test]
    fn the_file_sets_each_kind() {
        let config = load(
            "[retention]\ninterval_ms = 500\nbatch_rows = 10\n[retention.scoring_log]\nmax_age_secs = 0\nmax_rows = 5\n\
             [retention.jobs]\nmax_rows = 3\n[retention.noise]\nmax_age_secs = 60\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let retention = config.retention;
        assert_eq!((retention.interval_ms, retention.batch_rows), (500, 10));
        assert_eq!(retention.scoring_log, TableRetention { max_age_secs: 0, max_rows: 5 });
        // A key left out of a table keeps its default.
        assert_eq!(retention.jobs, TableRetention { max_age_secs: 30 * DAY_SECS, max_rows: 3 });
        assert_eq!(retention.noise.max_age_secs, 60);
    }

    #[test]
    fn bad_values_and_unknown_keys_are_refused() {
        for (text, key) in [
            ("[retention]\nbatch_rows = 0\n", "retention.batch_rows"),
            ("[retention]\nbatch_rows = 100001\n", "retention.batch_rows"),
            ("[retention]\ninterval_ms = 0\n", "retention.interval_ms"),
            ("[retention.scoring_log]\nmax_days = 3\n", "max_days"),
            ("[retention.noise]\nmax_rows = 3\n", "max_rows"),
            ("[retention.result_cache]\nmax_rows = -1\n", "max_rows"),
        ] {
            let err = load(text).err().unwrap_or_default();
            assert!(err.contains(key), "{text}: {err}");
        }
    }
}
