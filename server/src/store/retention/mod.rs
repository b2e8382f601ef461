//! Retention: a background task that deletes expired rows (older than a table's age limit, or
//! beyond its row cap, oldest first) and reports table sizes as metrics.
//!
//! Every delete takes at most `retention.batch_rows` rows in one statement, its own short
//! transaction, and the task pauses between statements as long as the last one took, so
//! scoring (the scoring-log writer, cache writes, job workers) always gets SQLite's write lock
//! back within one small batch. Deletes are idempotent: every replica sharing a PostgreSQL
//! database may run the task; they only share the work.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use referee_noise::CountWindow;
use sqlx::{AssertSqlSafe, Row};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::store::{Backend, Storage, now_ms};

mod settings;

pub use settings::{EpisodeRetention, MAX_BATCH_ROWS, NoiseRetention, RetentionConfig, RunRetention, TableRetention};

/// Tables whose row counts are published as `referee_table_rows{table}`.
pub const MEASURED_TABLES: [&str; 17] = [
    "scoring_log",
    "result_cache",
    "jobs",
    "job_items",
    "job_chunks",
    "job_results",
    "judge_cache",
    "noise_counts",
    "noise_overturns",
    "episodes",
    "episode_steps",
    "runs",
    "run_scores",
    "run_latencies",
    "run_groups",
    "run_prompts",
    "run_samples",
];

/// On PostgreSQL, tables are counted exactly up to this many rows; a larger one reports the
/// planner's estimate (`pg_class.reltuples`, kept by autovacuum), as an exact `COUNT(*)` of a
/// large table reads all of it.
pub const EXACT_COUNT_CAP: i64 = 100_000;

/// Rows deleted by one pass, per table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RetentionReport {
    pub deleted: BTreeMap<&'static str, u64>,
}

impl RetentionReport {
    /// Rows deleted from every table together.
    pub fn total(&self) -> u64 {
        self.deleted.values().sum()
    }

    /// Rows deleted from `table`.
    pub fn deleted_from(&self, table: &str) -> u64 {
        self.deleted.get(table).copied().unwrap_or(0)
    }
}

impl fmt::Display for RetentionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (table, count) in self.deleted.iter().filter(|(_, count)| **count > 0) {
            write!(f, "{}{table}={count}", if first { "" } else { " " })?;
            first = false;
        }
        Ok(())
    }
}

/// Runs one retention pass to the end, then updates the table-size gauges: what the
/// background task does every interval.
pub async fn run_once(storage: &Storage, config: &RetentionConfig) -> Result<RetentionReport, sqlx::Error> {
    let mut sweep = Sweep::new(storage, config, None);
    sweep.run(config).await?;
    publish_table_rows(storage).await?;
    Ok(sweep.report)
}

/// The running background task.
#[derive(Debug)]
pub struct RetentionTask {
    stop: watch::Sender<bool>,
    handle: Option<JoinHandle<()>>,
}

/// Starts the background task (none when `retention.enabled` is false).
pub fn spawn_retention(storage: Storage, config: RetentionConfig) -> RetentionTask {
    let (stop, mut stopped) = watch::channel(false);
    let handle = config.enabled.then(|| {
        tokio::spawn(async move {
            let interval = Duration::from_millis(config.interval_ms);
            loop {
                tokio::select! {
                    () = tokio::time::sleep(interval) => {}
                    _ = stopped.changed() => break,
                }
                let started = Instant::now();
                let mut sweep = Sweep::new(&storage, &config, Some(&stopped));
                let outcome = sweep.run(&config).await;
                let report = std::mem::take(&mut sweep.report);
                if report.total() > 0 {
                    tracing::info!(
                        deleted = report.total(),
                        tables = %report,
                        elapsed_ms = started.elapsed().as_millis(),
                        "retention deleted expired rows"
                    );
                }
                if let Err(error) = outcome {
                    tracing::warn!(%error, "retention pass failed; the next interval tries again");
                }
                if *stopped.borrow() {
                    break;
                }
                if let Err(error) = publish_table_rows(&storage).await {
                    tracing::warn!(%error, "cannot count table rows");
                }
            }
        })
    });
    RetentionTask { stop, handle }
}

impl RetentionTask {
    /// Asks the task to stop: a pass in progress ends after its current statement.
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }

    /// Stops the task and waits for it.
    pub async fn finish(self) {
        self.stop();
        if let Some(handle) = self.handle {
            let _ = handle.await;
        }
    }
}

/// A value bound to a statement.
#[derive(Debug, Clone, Copy)]
enum Bind<'a> {
    Int(i64),
    Text(&'a str),
}

/// Whether a job is finished: done, or cancelled with no chunk still held under a live lease
/// (a worker may still be writing its results). `$1` is the current time.
const FINISHED_JOB: &str = "(finished_at_ms IS NOT NULL OR (state = 'cancelled' AND NOT EXISTS \
    (SELECT 1 FROM job_chunks c WHERE c.job_id = jobs.id AND c.state = 'running' AND c.lease_expires_ms >= $1)))";

/// When a finished job finished; cancelled jobs have no finish time and count from creation.
const JOB_TIME: &str = "COALESCE(finished_at_ms, created_at_ms)";

/// Jobs selected per statement; each is then deleted in batches.
const JOBS_PER_QUERY: i64 = 100;

/// Days of API-key quota charges kept (`key_usage`), today's included.
const KEY_USAGE_DAYS: i64 = 7;

/// The shortest and longest pause between two DELETE statements.
const MIN_PAUSE: Duration = Duration::from_millis(1);
const MAX_PAUSE: Duration = Duration::from_millis(200);

/// One pass over every table, counting what it deletes.
struct Sweep<'a> {
    storage: &'a Storage,
    batch: i64,
    stop: Option<&'a watch::Receiver<bool>>,
    now: i64,
    report: RetentionReport,
}

impl<'a> Sweep<'a> {
    fn new(storage: &'a Storage, config: &RetentionConfig, stop: Option<&'a watch::Receiver<bool>>) -> Sweep<'a> {
        let batch = i64::try_from(config.batch_rows.clamp(1, MAX_BATCH_ROWS)).unwrap_or(1);
        Sweep { storage, batch, stop, now: now_ms(), report: RetentionReport::default() }
    }

    fn stopping(&self) -> bool {
        self.stop.is_some_and(|stop| *stop.borrow())
    }

    /// The cut-off time of an age limit, or `None` when the limit is off.
    fn cutoff(&self, max_age_secs: u64) -> Option<i64> {
        (max_age_secs > 0)
            .then(|| self.now.saturating_sub(i64::try_from(max_age_secs.saturating_mul(1000)).unwrap_or(i64::MAX)))
    }

    async fn run(&mut self, config: &RetentionConfig) -> Result<(), sqlx::Error> {
        for (table, rule) in [
            ("scoring_log", config.scoring_log),
            ("result_cache", config.result_cache),
            ("judge_cache", config.judge_cache),
        ] {
            if let Some(cutoff) = self.cutoff(rule.max_age_secs) {
                self.delete_where(table, "created_at_ms < $1", &[Bind::Int(cutoff)]).await?;
            }
            if rule.max_rows > 0 && !self.stopping() {
                self.keep_newest(table, rule.max_rows).await?;
            }
        }
        self.jobs(config.jobs).await?;
        // The quota charges of past days count for nothing: a week is kept for audits.
        let last_week = self.now.div_euclid(86_400_000) - KEY_USAGE_DAYS;
        if !self.stopping() {
            self.delete_where("key_usage", "day < $1", &[Bind::Int(last_week)]).await?;
        }
        if let Some(cutoff) = self.cutoff(config.noise.max_age_secs)
            && !self.stopping()
        {
            self.noise(cutoff).await?;
        }
        if let Some(cutoff) = self.cutoff(config.episodes.max_age_secs)
            && !self.stopping()
        {
            // Steps first: an interrupted pass leaves whole episodes, never orphaned steps.
            let old_episodes = "episode_id IN (SELECT id FROM episodes WHERE updated_at_ms < $1)";
            self.delete_where("episode_steps", old_episodes, &[Bind::Int(cutoff)]).await?;
            self.delete_where("episodes", "updated_at_ms < $1", &[Bind::Int(cutoff)]).await?;
        }
        if let Some(cutoff) = self.cutoff(config.runs.max_age_secs)
            && !self.stopping()
        {
            for table in ["run_scores", "run_latencies", "run_groups", "run_prompts"] {
                self.delete_where(table, "updated_at_ms < $1", &[Bind::Int(cutoff)]).await?;
            }
            self.delete_where("run_samples", "created_at_ms < $1", &[Bind::Int(cutoff)]).await?;
            self.delete_where("runs", "updated_at_ms < $1", &[Bind::Int(cutoff)]).await?;
        }
        if config.runs.max_samples > 0 && !self.stopping() {
            self.keep_newest("run_samples", config.runs.max_samples).await?;
        }
        Ok(())
    }

    /// Deletes every row of `table` matching `filter` (parameters `$1`.. from `binds`), at most
    /// `batch` rows per statement, pausing between statements. Rows are picked by their
    /// physical id: SQLite's `rowid`, PostgreSQL's `ctid` (through an array, which PostgreSQL
    /// reads with a TID scan, where `IN (SELECT ...)` may plan a scan of the whole table).
    async fn delete_where(
        &mut self,
        table: &'static str,
        filter: &str,
        binds: &[Bind<'_>],
    ) -> Result<u64, sqlx::Error> {
        let limit = binds.len() + 1;
        let sql = match self.storage.backend() {
            Backend::Sqlite => {
                format!("DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE {filter} LIMIT ${limit})")
            }
            Backend::Postgres => format!(
                "DELETE FROM {table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM {table} WHERE {filter} LIMIT ${limit}))"
            ),
        };
        let mut total = 0;
        loop {
            let started = Instant::now();
            let mut query = sqlx::query(AssertSqlSafe(sql.clone()));
            for bind in binds {
                query = match *bind {
                    Bind::Int(value) => query.bind(value),
                    Bind::Text(value) => query.bind(value),
                };
            }
            let deleted = query.bind(self.batch).execute(self.storage.pool()).await?.rows_affected();
            self.count(table, deleted);
            total += deleted;
            if deleted < u64::try_from(self.batch).unwrap_or(0) || self.stopping() {
                return Ok(total);
            }
            tokio::time::sleep(started.elapsed().clamp(MIN_PAUSE, MAX_PAUSE)).await;
        }
    }

    fn count(&mut self, table: &'static str, deleted: u64) {
        *self.report.deleted.entry(table).or_default() += deleted;
        if deleted > 0 {
            metrics::counter!("referee_retention_deleted_rows_total", "table" => table).increment(deleted);
        }
    }

    /// Deletes the oldest rows of `table` (by `created_at_ms`) beyond the newest `max_rows`.
    async fn keep_newest(&mut self, table: &'static str, max_rows: u64) -> Result<(), sqlx::Error> {
        let keep = i64::try_from(max_rows).unwrap_or(i64::MAX);
        // The newest row beyond the cap; every row older than it goes.
        let cutoff: Option<i64> = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT created_at_ms FROM {table} ORDER BY created_at_ms DESC LIMIT 1 OFFSET $1"
        )))
        .bind(keep)
        .fetch_optional(self.storage.pool())
        .await?;
        let Some(cutoff) = cutoff else {
            return Ok(());
        };
        self.delete_where(table, "created_at_ms < $1", &[Bind::Int(cutoff)]).await?;
        // Rows sharing the cut-off time: only as many as exceed the cap.
        let left: i64 =
            sqlx::query_scalar(AssertSqlSafe(format!("SELECT COUNT(*) FROM {table} WHERE created_at_ms >= $1")))
                .bind(cutoff)
                .fetch_one(self.storage.pool())
                .await?;
        let mut excess = left.saturating_sub(keep);
        while excess > 0 && !self.stopping() {
            let sql = match self.storage.backend() {
                Backend::Sqlite => format!(
                    "DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} WHERE created_at_ms = $1 LIMIT $2)"
                ),
                Backend::Postgres => format!(
                    "DELETE FROM {table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM {table} WHERE created_at_ms = $1 LIMIT $2))"
                ),
            };
            let deleted = sqlx::query(AssertSqlSafe(sql))
                .bind(cutoff)
                .bind(excess.min(self.batch))
                .execute(self.storage.pool())
                .await?
                .rows_affected();
            self.count(table, deleted);
            if deleted == 0 {
                break;
            }
            excess -= i64::try_from(deleted).unwrap_or(excess);
        }
        Ok(())
    }

    /// Deletes finished jobs past the age limit or beyond the newest `max_rows`, then the rows
    /// of jobs whose deletion was interrupted.
    async fn jobs(&mut self, rule: TableRetention) -> Result<(), sqlx::Error> {
        if let Some(cutoff) = self.cutoff(rule.max_age_secs) {
            let sql = format!("SELECT id FROM jobs WHERE {FINISHED_JOB} AND {JOB_TIME} < $2 ORDER BY id LIMIT $3");
            loop {
                let ids: Vec<String> = sqlx::query_scalar(AssertSqlSafe(sql.clone()))
                    .bind(self.now)
                    .bind(cutoff)
                    .bind(JOBS_PER_QUERY)
                    .fetch_all(self.storage.pool())
                    .await?;
                if !self.delete_jobs(&ids).await? {
                    break;
                }
            }
        }
        if rule.max_rows > 0 {
            let sql = format!(
                "SELECT id FROM jobs WHERE {FINISHED_JOB} ORDER BY {JOB_TIME} DESC, id DESC LIMIT $2 OFFSET $3"
            );
            loop {
                let ids: Vec<String> = sqlx::query_scalar(AssertSqlSafe(sql.clone()))
                    .bind(self.now)
                    .bind(JOBS_PER_QUERY)
                    .bind(i64::try_from(rule.max_rows).unwrap_or(i64::MAX))
                    .fetch_all(self.storage.pool())
                    .await?;
                if !self.delete_jobs(&ids).await? {
                    break;
                }
            }
        }
        // A job row goes first and its chunks last, so a pass stopped half-way leaves chunks
        // without a job; they lead to whatever else is left.
        let orphans: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT c.job_id FROM job_chunks c WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = c.job_id) \
             LIMIT $1",
        )
        .bind(JOBS_PER_QUERY)
        .fetch_all(self.storage.pool())
        .await?;
        for id in &orphans {
            if self.stopping() {
                break;
            }
            self.delete_job_rows(id).await?;
        }
        Ok(())
    }

    /// Deletes the given jobs; false when there were none or the task is stopping.
    async fn delete_jobs(&mut self, ids: &[String]) -> Result<bool, sqlx::Error> {
        for id in ids {
            if self.stopping() {
                return Ok(false);
            }
            // The row first, re-checked, so that readers see no half-deleted job and a job
            // that changed since it was picked is left alone.
            let deleted = sqlx::query(AssertSqlSafe(format!("DELETE FROM jobs WHERE id = $2 AND {FINISHED_JOB}")))
                .bind(self.now)
                .bind(id.as_str())
                .execute(self.storage.pool())
                .await?
                .rows_affected();
            self.count("jobs", deleted);
            if deleted > 0 {
                self.delete_job_rows(id).await?;
            }
        }
        Ok(!ids.is_empty() && !self.stopping())
    }

    /// Deletes a job's results, items and chunks, in batches.
    async fn delete_job_rows(&mut self, id: &str) -> Result<(), sqlx::Error> {
        for table in ["job_results", "job_items", "job_chunks"] {
            self.delete_where(table, "job_id = $1", &[Bind::Text(id)]).await?;
            if self.stopping() {
                break;
            }
        }
        Ok(())
    }

    /// Deletes old overturns, and old count buckets that lie outside their model's sliding
    /// window. Counts of models estimated from every count or a decay are the models
    /// themselves and stay; so do settings and current steps.
    async fn noise(&mut self, cutoff: i64) -> Result<(), sqlx::Error> {
        self.delete_where("noise_overturns", "created_at_ms < $1", &[Bind::Int(cutoff)]).await?;
        let models = sqlx::query(
            "SELECT s.verifier, s.verifier_version, s.label, s.settings, COALESCE(t.step, 0) FROM noise_settings s \
             LEFT JOIN noise_steps t ON t.verifier = s.verifier AND t.verifier_version = s.verifier_version \
             AND t.label = s.label",
        )
        .fetch_all(self.storage.pool())
        .await?;
        for row in models {
            if self.stopping() {
                break;
            }
            let settings: String = row.try_get(3)?;
            let step: i64 = row.try_get(4)?;
            let Some(first) = first_step_in_window(&settings, step) else {
                continue;
            };
            let (verifier, version, label): (String, String, String) =
                (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
            self.delete_where(
                "noise_counts",
                "verifier = $1 AND verifier_version = $2 AND label = $3 AND step < $4 AND updated_at_ms < $5",
                &[Bind::Text(&verifier), Bind::Text(&version), Bind::Text(&label), Bind::Int(first), Bind::Int(cutoff)],
            )
            .await?;
        }
        Ok(())
    }
}

/// The first step a model's sliding window still reads, from its stored settings and current
/// step; `None` when the model reads every bucket (no window, a decay, unreadable settings).
fn first_step_in_window(settings: &str, step: i64) -> Option<i64> {
    let value: serde_json::Value = serde_json::from_str(settings).ok()?;
    let window: CountWindow = serde_json::from_value(value.get("window")?.clone()).ok()?;
    match window {
        CountWindow::Sliding { steps } => {
            let first = step.saturating_sub(i64::try_from(steps).ok()?).saturating_add(1);
            (first > 0).then_some(first)
        }
        CountWindow::All | CountWindow::Decay { .. } => None,
    }
}

/// Sets `referee_table_rows{table}` for every measured table.
async fn publish_table_rows(storage: &Storage) -> Result<(), sqlx::Error> {
    for table in MEASURED_TABLES {
        let rows = table_rows(storage, table).await?;
        metrics::gauge!("referee_table_rows", "table" => table).set(rows as f64);
    }
    Ok(())
}

/// A table's row count: exact on SQLite (a reader that never blocks writers in WAL mode);
/// on PostgreSQL exact up to [`EXACT_COUNT_CAP`], the planner's estimate above.
pub async fn table_rows(storage: &Storage, table: &'static str) -> Result<i64, sqlx::Error> {
    match storage.backend() {
        Backend::Sqlite => {
            sqlx::query_scalar(AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}"))).fetch_one(storage.pool()).await
        }
        Backend::Postgres => {
            let capped: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
                "SELECT COUNT(*) FROM (SELECT 1 FROM {table} LIMIT {}) AS capped",
                EXACT_COUNT_CAP + 1
            )))
            .fetch_one(storage.pool())
            .await?;
            if capped <= EXACT_COUNT_CAP {
                return Ok(capped);
            }
            let estimate: Option<i64> = sqlx::query_scalar(
                "SELECT CAST(reltuples AS BIGINT) FROM pg_class WHERE oid = to_regclass(CAST($1 AS TEXT))",
            )
            .bind(table)
            .fetch_optional(storage.pool())
            .await?;
            Ok(estimate.unwrap_or(0).max(capped))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sliding_windows_release_buckets() {
        let sliding = r#"{"window": {"kind": "sliding", "steps": 10}}"#;
        assert_eq!(first_step_in_window(sliding, 25), Some(16));
        assert_eq!(first_step_in_window(sliding, 9), None, "every bucket is still in the window");
        assert_eq!(first_step_in_window(r#"{"window": {"kind": "decay", "half_life_steps": 2.0}}"#, 100), None);
        assert_eq!(first_step_in_window(r#"{"window": {"kind": "all"}}"#, 100), None);
        assert_eq!(first_step_in_window("{}", 100), None);
        assert_eq!(first_step_in_window("not json", 100), None);
    }

    #[test]
    fn the_report_names_tables_with_deletions() {
        let mut report = RetentionReport::default();
        report.deleted.insert("jobs", 2);
        report.deleted.insert("job_items", 0);
        report.deleted.insert("scoring_log", 7);
        assert_eq!(report.to_string(), "jobs=2 scoring_log=7");
        assert_eq!((report.total(), report.deleted_from("job_items"), report.deleted_from("x")), (9, 0, 0));
    }
}
