//! The jobs tables: creating, claiming, completing, reading.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use sqlx::{AssertSqlSafe, Row};

use super::settings::JobsConfig;
use super::{JobState, JobStatus};
use crate::store::{Backend, Storage, now_ms, placeholders};

/// Stores made by this process, numbering them.
static STORES: AtomicUsize = AtomicUsize::new(0);

/// This process's name in leases: `{pid}-{random}`, the random part telling it from an earlier
/// process that had the same id.
fn process_name() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| format!("{}-{:08x}", std::process::id(), rand::random::<u32>()))
}

/// This host's name, the default node name.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|name| name.trim().to_owned())
        .ok()
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

/// A chunk claimed by one worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub job_id: String,
    pub chunk_index: i64,
    pub first_item: i64,
    pub item_count: i64,
}

/// Job persistence over the shared database, as seen by one process of one node.
#[derive(Debug, Clone)]
pub struct JobStore {
    pub(super) storage: Storage,
    /// The node this process runs as (`jobs.node_id`, else the host name).
    pub(super) node: String,
    /// This store: `{process}-{store}`, with the process named `{pid}-{random}`; its workers
    /// are `{instance}-{n}`.
    pub(super) instance: String,
    pub(super) lease_ms: u64,
    pub(super) max_items: usize,
}

/// Rows per multi-row INSERT (at most 4 parameters each).
pub(super) const ROWS_PER_STATEMENT: usize = 250;

/// Rows removed per statement when an unfinished upload is deleted.
const DELETE_RANGE: i64 = 2_000;

/// Virtual time a claimed chunk adds to its job at priority 1; a job of priority p advances
/// by `VTIME_UNIT / p`, so it is picked p times as often as a priority-1 job.
const VTIME_UNIT: i64 = 1_000_000;

/// The jobs that `jobs` (a query of `jobs` rows) selects, in its order, each with its chunks'
/// progress: id, state, total items, chunk size, chunks, creation and finish times, then the items
/// scored, the chunks done and the chunks started.
fn with_progress(jobs: &str) -> String {
    // PostgreSQL sums BIGINT into NUMERIC; cast back so both backends return BIGINT.
    format!(
        "SELECT j.id, j.state, j.total_items, j.chunk_size, j.chunks_total, j.created_at_ms, j.finished_at_ms, \
           CAST(COALESCE(SUM(CASE WHEN c.state = 'done' THEN c.item_count ELSE 0 END), 0) AS BIGINT), \
           CAST(COALESCE(SUM(CASE WHEN c.state = 'done' THEN 1 ELSE 0 END), 0) AS BIGINT), \
           CAST(COALESCE(SUM(CASE WHEN c.state IN ('running', 'done') THEN 1 ELSE 0 END), 0) AS BIGINT) \
         FROM ({jobs}) j LEFT JOIN job_chunks c ON c.job_id = j.id \
         GROUP BY j.id, j.state, j.total_items, j.chunk_size, j.chunks_total, j.created_at_ms, j.finished_at_ms \
         ORDER BY j.created_at_ms DESC, j.id"
    )
}

impl JobStore {
    /// A store over `storage` for this process, with the node name, lease and item cap of
    /// `config`.
    pub fn new(storage: Storage, config: &JobsConfig) -> JobStore {
        JobStore {
            storage,
            node: config.node_id.clone().unwrap_or_else(host_name),
            instance: format!("{}-{}", process_name(), STORES.fetch_add(1, Ordering::Relaxed)),
            lease_ms: config.lease_ms,
            max_items: config.max_items,
        }
    }

    /// The backend, for callers that wake workers differently per backend.
    pub fn backend(&self) -> Backend {
        self.storage.backend()
    }

    /// The node this process runs as.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The lease owner name of this process's worker `n`.
    pub(super) fn worker_owner(&self, n: usize) -> String {
        format!("{}-{n}", self.instance)
    }

    /// Takes back at once the chunks and uploads that a dead earlier process of this node
    /// left behind: their leases are expired (so the next claim takes the chunks over, counting
    /// an attempt) and their unfinished uploads removed. Holders still alive on this host (a
    /// sibling process sharing the node name) are left alone and keep their leases. Returns the
    /// number of chunks taken back.
    pub async fn reclaim_dead_predecessors(&self) -> Result<u64, sqlx::Error> {
        let owners: Vec<Option<String>> = sqlx::query_scalar(
            "SELECT DISTINCT lease_owner FROM job_chunks WHERE lease_node = $1 AND state = 'running'",
        )
        .bind(&self.node)
        .fetch_all(self.storage.pool())
        .await?;
        let mut reclaimed = 0;
        for owner in owners.into_iter().flatten().filter(|owner| self.is_dead_predecessor(owner)) {
            let updated = sqlx::query(
                "UPDATE job_chunks SET lease_expires_ms = 0 \
                 WHERE lease_node = $1 AND lease_owner = $2 AND state = 'running'",
            )
            .bind(&self.node)
            .bind(&owner)
            .execute(self.storage.pool())
            .await?;
            reclaimed += updated.rows_affected();
        }
        let uploads: Vec<(String, Option<String>)> =
            sqlx::query_as("SELECT id, upload_owner FROM jobs WHERE state = 'uploading' AND upload_node = $1")
                .bind(&self.node)
                .fetch_all(self.storage.pool())
                .await?;
        for (id, owner) in uploads {
            if owner.is_some_and(|owner| self.is_dead_predecessor(&owner)) {
                self.delete_upload(&id).await?;
            }
        }
        if reclaimed > 0 {
            metrics::counter!("referee_job_chunks_reclaimed_total").increment(reclaimed);
            tracing::info!(node = %self.node, chunks = reclaimed, "took back the chunks of a dead earlier process");
        }
        Ok(reclaimed)
    }

    /// Whether `owner` (a store or worker name of this node) belongs to an earlier process that
    /// is no longer running. Names start with the process id: a holder with this process's own
    /// id but another random part is a predecessor (a restarted container reuses the id); another id is
    /// dead when this host has no such process. Where liveness cannot be read (no `/proc`), only
    /// the first case counts, and other holders wait out their lease.
    fn is_dead_predecessor(&self, owner: &str) -> bool {
        if owner.starts_with(&format!("{}-", process_name())) {
            // This very process (another store of it, as when tests run several servers).
            return false;
        }
        let Some(pid) = owner.split('-').next().and_then(|pid| pid.parse::<u32>().ok()) else {
            return false;
        };
        if pid == std::process::id() {
            return true;
        }
        let proc = std::path::Path::new("/proc");
        proc.join("self").exists() && !proc.join(pid.to_string()).exists()
    }

    /// Removes expired uploads: jobs still `uploading` whose process stopped renewing them
    /// (it died, or lost its client) for a whole lease.
    pub async fn remove_expired_uploads(&self) -> Result<u64, sqlx::Error> {
        let expired: Vec<String> =
            sqlx::query_scalar("SELECT id FROM jobs WHERE state = 'uploading' AND upload_expires_ms < $1")
                .bind(now_ms())
                .fetch_all(self.storage.pool())
                .await?;
        for id in &expired {
            self.delete_upload(id).await?;
        }
        Ok(expired.len() as u64)
    }

    /// Deletes an unfinished upload: the job row first (so nothing can see a partial job), then
    /// its rows. Does nothing to a job that finished uploading.
    pub(super) async fn delete_upload(&self, id: &str) -> Result<(), sqlx::Error> {
        let deleted = sqlx::query("DELETE FROM jobs WHERE id = $1 AND state = 'uploading'")
            .bind(id)
            .execute(self.storage.pool())
            .await?;
        if deleted.rows_affected() == 0 {
            return Ok(());
        }
        // In ranges, each its own short transaction, like the upload itself: removing a large
        // upload never holds SQLite's write lock for long.
        for (table, column) in [("job_items", "item_index"), ("job_chunks", "chunk_index")] {
            let last: Option<i64> =
                sqlx::query_scalar(AssertSqlSafe(format!("SELECT MAX({column}) FROM {table} WHERE job_id = $1")))
                    .bind(id)
                    .fetch_one(self.storage.pool())
                    .await?;
            let mut from = 0;
            while last.is_some_and(|last| from <= last) {
                sqlx::query(AssertSqlSafe(format!(
                    "DELETE FROM {table} WHERE job_id = $1 AND {column} >= $2 AND {column} < $3"
                )))
                .bind(id)
                .bind(from)
                .bind(from + DELETE_RANGE)
                .execute(self.storage.pool())
                .await?;
                from += DELETE_RANGE;
            }
        }
        Ok(())
    }

    /// The job's state and progress, or `None` when there is no such job.
    pub async fn status(&self, id: &str) -> Result<Option<JobStatus>, sqlx::Error> {
        // A job still uploading does not exist yet for readers.
        let rows =
            sqlx::query(AssertSqlSafe(with_progress("SELECT * FROM jobs WHERE id = $1 AND state <> 'uploading'")))
                .bind(id)
                .fetch_all(self.storage.pool())
                .await?;
        match rows.first() {
            Some(row) => Ok(Some(self.job_status(row).await?)),
            None => Ok(None),
        }
    }

    /// Stored jobs with their state and progress, newest first (then by id), `owner`'s only
    /// when given: at most `limit` after skipping `offset`, in one query.
    pub async fn list(&self, owner: Option<&str>, limit: i64, offset: i64) -> Result<Vec<JobStatus>, sqlx::Error> {
        let rows = sqlx::query(AssertSqlSafe(with_progress(
            "SELECT * FROM jobs WHERE state <> 'uploading' AND ($1 IS NULL OR owner = $1) \
             ORDER BY created_at_ms DESC, id LIMIT $2 OFFSET $3",
        )))
        .bind(owner)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.storage.pool())
        .await?;
        let mut jobs = Vec::with_capacity(rows.len());
        for row in &rows {
            jobs.push(self.job_status(row).await?);
        }
        Ok(jobs)
    }

    /// A job's status from a row of [`with_progress`].
    async fn job_status(&self, row: &sqlx::any::AnyRow) -> Result<JobStatus, sqlx::Error> {
        let id: String = row.try_get(0)?;
        let stored_state: String = row.try_get(1)?;
        let chunks_total: i64 = row.try_get(4)?;
        let mut finished_at_ms: Option<i64> = row.try_get(6)?;
        let (scored, done, started): (i64, i64, i64) = (row.try_get(7)?, row.try_get(8)?, row.try_get(9)?);
        if finished_at_ms.is_none() && stored_state != "cancelled" && done > 0 && done == chunks_total {
            // Every chunk is done but the worker that finished the last one has not stamped the
            // job yet (or stopped before it could): stamp it here, so `done` always comes with
            // its finish time.
            finished_at_ms = self.mark_finished(&id).await?;
        }
        let state = if stored_state == "cancelled" {
            JobState::Cancelled
        } else if finished_at_ms.is_some() {
            JobState::Done
        } else if started > 0 {
            JobState::Running
        } else {
            JobState::Queued
        };
        let unsigned = |v: i64| u64::try_from(v).unwrap_or(0);
        Ok(JobStatus {
            id,
            state,
            total_items: unsigned(row.try_get(2)?),
            scored_items: unsigned(scored),
            chunks_total: unsigned(chunks_total),
            chunks_done: unsigned(done),
            chunk_size: unsigned(row.try_get(3)?),
            created_at_ms: row.try_get(5)?,
            finished_at_ms,
        })
    }

    /// Records the name of the key that submits a job, while it is still uploading.
    pub async fn set_owner(&self, id: &str, owner: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE jobs SET owner = $1 WHERE id = $2 AND state = 'uploading'")
            .bind(owner)
            .bind(id)
            .execute(self.storage.pool())
            .await?;
        Ok(())
    }

    /// The name of the key that submitted a job: `None` when there is no such job (or it is
    /// still uploading), `Some(None)` for a job that has no owner.
    pub async fn owner(&self, id: &str) -> Result<Option<Option<String>>, sqlx::Error> {
        sqlx::query_scalar("SELECT owner FROM jobs WHERE id = $1 AND state <> 'uploading'")
            .bind(id)
            .fetch_optional(self.storage.pool())
            .await
    }

    /// Cancels a job: chunks not yet claimed will not run. `None` when there is no such job.
    pub async fn cancel(&self, id: &str) -> Result<Option<JobStatus>, sqlx::Error> {
        let mut tx = self.storage.begin_write().await?;
        // Chunks before the job row: claims lock a chunk and then its job, so taking the locks
        // in the same order never deadlocks against a claim on PostgreSQL.
        sqlx::query(
            "UPDATE job_chunks SET state = 'cancelled' WHERE job_id = $1 AND state = 'pending' \
             AND EXISTS (SELECT 1 FROM jobs WHERE id = $1 AND state = 'active' AND finished_at_ms IS NULL)",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE jobs SET state = 'cancelled' WHERE id = $1 AND state = 'active' AND finished_at_ms IS NULL",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.status(id).await
    }

    /// Claims a chunk for worker `owner`: a pending chunk, or a running one whose lease expired,
    /// of the active job with the least virtual time (oldest first on ties), which then advances
    /// by `VTIME_UNIT / priority`. Jobs thus take turns, in proportion to their priorities,
    /// instead of the oldest job holding every worker until it ends.
    pub async fn claim(&self, owner: &str, lease_ms: u64) -> Result<Option<Claim>, sqlx::Error> {
        let now = now_ms();
        let lock = match self.backend() {
            // Concurrent claimers skip each other's rows instead of queueing on them.
            Backend::Postgres => " FOR UPDATE OF c SKIP LOCKED",
            // SQLite serialises writers; the UPDATE below is atomic on its own.
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE job_chunks SET state = 'running', lease_owner = $1, lease_node = $4, lease_expires_ms = $2, \
               attempts = attempts + 1 \
             WHERE (job_id, chunk_index) IN ( \
               SELECT c.job_id, c.chunk_index FROM job_chunks c JOIN jobs j ON j.id = c.job_id \
               WHERE j.state = 'active' AND (c.state = 'pending' OR (c.state = 'running' AND c.lease_expires_ms < $3)) \
               ORDER BY j.vtime, j.created_at_ms, c.job_id, c.chunk_index LIMIT 1{lock}) \
             RETURNING job_id, chunk_index, first_item, item_count"
        );
        let row = sqlx::query(AssertSqlSafe(sql))
            .bind(owner)
            .bind(now.saturating_add(i64::try_from(lease_ms).unwrap_or(i64::MAX)))
            .bind(now)
            .bind(&self.node)
            .fetch_optional(self.storage.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let claim = Claim {
            job_id: row.try_get(0)?,
            chunk_index: row.try_get(1)?,
            first_item: row.try_get(2)?,
            item_count: row.try_get(3)?,
        };
        // A statement of its own: a process that dies between the two only leaves its job one
        // turn ahead, and no transaction holds a chunk lock while waiting on the job row.
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE jobs SET vtime = vtime + {VTIME_UNIT} / CASE WHEN priority < 1 THEN 1 ELSE priority END WHERE id = $1"
        )))
        .bind(&claim.job_id)
        .execute(self.storage.pool())
        .await?;
        Ok(Some(claim))
    }

    /// Extends the lease of a chunk this owner still holds; false when it was taken over.
    pub async fn heartbeat(&self, claim: &Claim, owner: &str, lease_ms: u64) -> Result<bool, sqlx::Error> {
        let expires = now_ms().saturating_add(i64::try_from(lease_ms).unwrap_or(i64::MAX));
        let updated = sqlx::query(
            "UPDATE job_chunks SET lease_expires_ms = $1 \
             WHERE job_id = $2 AND chunk_index = $3 AND lease_owner = $4 AND state = 'running'",
        )
        .bind(expires)
        .bind(&claim.job_id)
        .bind(claim.chunk_index)
        .bind(owner)
        .execute(self.storage.pool())
        .await?;
        Ok(updated.rows_affected() > 0)
    }

    /// The claimed chunk's items in order: `(index, Ok(line))`, or `(index, Err(reason))` for an
    /// item refused when it was uploaded.
    pub async fn items(&self, claim: &Claim) -> Result<Vec<(i64, Result<String, String>)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT item_index, payload, error FROM job_items \
             WHERE job_id = $1 AND item_index >= $2 AND item_index < $3 ORDER BY item_index",
        )
        .bind(&claim.job_id)
        .bind(claim.first_item)
        .bind(claim.first_item + claim.item_count)
        .fetch_all(self.storage.pool())
        .await?;
        rows.into_iter()
            .map(|row| {
                let error: Option<String> = row.try_get(2)?;
                Ok((row.try_get(0)?, error.map_or_else(|| row.try_get(1).map(Ok), |e| Ok(Err(e)))?))
            })
            .collect()
    }

    /// Writes a chunk's results and marks it done, in one transaction. Results already written
    /// (by an earlier holder of the chunk) are kept as they are. Then marks the job finished
    /// when no chunk is left undone.
    pub async fn complete(&self, claim: &Claim, owner: &str, results: &[(i64, String)]) -> Result<(), sqlx::Error> {
        let mut tx = self.storage.begin_write().await?;
        for batch in results.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO job_results (job_id, item_index, result) VALUES {} \
                 ON CONFLICT (job_id, item_index) DO NOTHING",
                placeholders(3, batch.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (index, result) in batch {
                query = query.bind(&claim.job_id).bind(*index).bind(result.as_str());
            }
            query.execute(&mut *tx).await?;
        }
        sqlx::query(
            "UPDATE job_chunks SET state = 'done', lease_owner = NULL, lease_expires_ms = NULL \
             WHERE job_id = $1 AND chunk_index = $2 AND state = 'running' AND lease_owner = $3",
        )
        .bind(&claim.job_id)
        .bind(claim.chunk_index)
        .bind(owner)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        // Checked after the commit, not inside the transaction: two workers finishing the last
        // two chunks at once would each still see the other's chunk as running. Whichever
        // commits last sees both done here.
        self.mark_finished(&claim.job_id).await?;
        metrics::counter!("referee_job_chunks_done_total").increment(1);
        Ok(())
    }

    /// Stamps the job's finish time if every chunk is done and it has none yet; returns the
    /// finish time, whoever wrote it. Idempotent: the first writer wins.
    async fn mark_finished(&self, id: &str) -> Result<Option<i64>, sqlx::Error> {
        sqlx::query(
            "UPDATE jobs SET finished_at_ms = $1 WHERE id = $2 AND finished_at_ms IS NULL \
             AND NOT EXISTS (SELECT 1 FROM job_chunks WHERE job_id = $2 AND state <> 'done')",
        )
        .bind(now_ms())
        .bind(id)
        .execute(self.storage.pool())
        .await?;
        sqlx::query_scalar("SELECT finished_at_ms FROM jobs WHERE id = $1")
            .bind(id)
            .fetch_one(self.storage.pool())
            .await
    }

    /// Up to `limit` results after item `after` (exclusive), `(index, result JSON)` in order.
    pub async fn results(&self, id: &str, after: i64, limit: i64) -> Result<Vec<(i64, String)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT item_index, result FROM job_results WHERE job_id = $1 AND item_index > $2 \
             ORDER BY item_index LIMIT $3",
        )
        .bind(id)
        .bind(after)
        .bind(limit)
        .fetch_all(self.storage.pool())
        .await?;
        rows.into_iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
    }
}
