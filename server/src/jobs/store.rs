//! The jobs tables: creating, claiming, completing, reading.

use sqlx::{AssertSqlSafe, Row};

use super::{JobState, JobStatus};
use crate::storage::{Backend, Storage, now_ms, placeholders};

/// A chunk claimed by one worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub job_id: String,
    pub chunk_index: i64,
    pub first_item: i64,
    pub item_count: i64,
}

/// Job persistence over the shared database.
#[derive(Debug, Clone)]
pub struct JobStore {
    storage: Storage,
}

/// Rows per multi-row INSERT of items (3 parameters each).
const ITEM_ROWS_PER_STATEMENT: usize = 300;

impl JobStore {
    /// A store over `storage`.
    pub fn new(storage: Storage) -> JobStore {
        JobStore { storage }
    }

    /// The backend, for callers that wake workers differently per backend.
    pub fn backend(&self) -> Backend {
        self.storage.backend()
    }

    /// Stores a job of `lines` (one score item per line, possibly malformed) in one
    /// transaction: the job is visible, and claimable, only once all of it is stored.
    pub async fn create(&self, lines: &[&str], chunk_size: usize) -> Result<JobStatus, sqlx::Error> {
        let id = format!("job_{:016x}{:08x}", rand::random::<u64>(), rand::random::<u32>());
        let total = lines.len();
        let chunks = total.div_ceil(chunk_size);
        let now = now_ms();
        let mut tx = self.storage.pool().begin().await?;
        sqlx::query(
            "INSERT INTO jobs (id, state, total_items, chunk_size, chunks_total, created_at_ms) \
             VALUES ($1, 'active', $2, $3, $4, $5)",
        )
        .bind(&id)
        .bind(total as i64)
        .bind(chunk_size as i64)
        .bind(chunks as i64)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for (start, batch) in lines.chunks(ITEM_ROWS_PER_STATEMENT).enumerate() {
            let sql =
                format!("INSERT INTO job_items (job_id, item_index, payload) VALUES {}", placeholders(3, batch.len()));
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (offset, line) in batch.iter().enumerate() {
                query = query.bind(&id).bind((start * ITEM_ROWS_PER_STATEMENT + offset) as i64).bind(*line);
            }
            query.execute(&mut *tx).await?;
        }
        let chunk_rows: Vec<(i64, i64, i64)> = (0..chunks)
            .map(|c| {
                let first = c * chunk_size;
                (c as i64, first as i64, (total - first).min(chunk_size) as i64)
            })
            .collect();
        for batch in chunk_rows.chunks(ITEM_ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO job_chunks (job_id, chunk_index, first_item, item_count) VALUES {}",
                placeholders(4, batch.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (chunk, first, count) in batch {
                query = query.bind(&id).bind(*chunk).bind(*first).bind(*count);
            }
            query.execute(&mut *tx).await?;
        }
        if self.backend() == Backend::Postgres {
            sqlx::query("SELECT pg_notify('referee_jobs', $1)").bind(&id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        metrics::counter!("referee_jobs_created_total").increment(1);
        metrics::counter!("referee_job_items_total").increment(total as u64);
        Ok(JobStatus {
            id,
            state: JobState::Queued,
            total_items: total as u64,
            scored_items: 0,
            chunks_total: chunks as u64,
            chunks_done: 0,
            chunk_size: chunk_size as u64,
            created_at_ms: now,
            finished_at_ms: None,
        })
    }

    /// The job's state and progress, or `None` when there is no such job.
    pub async fn status(&self, id: &str) -> Result<Option<JobStatus>, sqlx::Error> {
        let Some(job) = sqlx::query(
            "SELECT state, total_items, chunk_size, chunks_total, created_at_ms, finished_at_ms FROM jobs WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.storage.pool())
        .await?
        else {
            return Ok(None);
        };
        let progress = sqlx::query(
            // PostgreSQL sums BIGINT into NUMERIC; cast back so both backends return BIGINT.
            "SELECT \
               CAST(COALESCE(SUM(CASE WHEN state = 'done' THEN item_count ELSE 0 END), 0) AS BIGINT), \
               CAST(COALESCE(SUM(CASE WHEN state = 'done' THEN 1 ELSE 0 END), 0) AS BIGINT), \
               CAST(COALESCE(SUM(CASE WHEN state IN ('running', 'done') THEN 1 ELSE 0 END), 0) AS BIGINT) \
             FROM job_chunks WHERE job_id = $1",
        )
        .bind(id)
        .fetch_one(self.storage.pool())
        .await?;
        let scored: i64 = progress.try_get(0)?;
        let done: i64 = progress.try_get(1)?;
        let started: i64 = progress.try_get(2)?;
        let stored_state: String = job.try_get(0)?;
        let mut finished_at_ms: Option<i64> = job.try_get(5)?;
        if finished_at_ms.is_none() && stored_state != "cancelled" && done > 0 && done == job.try_get::<i64, _>(3)? {
            // Every chunk is done but the worker that finished the last one has not stamped the
            // job yet (or stopped before it could): stamp it here, so `done` always comes with
            // its finish time.
            finished_at_ms = self.mark_finished(id).await?;
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
        Ok(Some(JobStatus {
            id: id.to_owned(),
            state,
            total_items: unsigned(job.try_get(1)?),
            scored_items: unsigned(scored),
            chunks_total: unsigned(job.try_get(3)?),
            chunks_done: unsigned(done),
            chunk_size: unsigned(job.try_get(2)?),
            created_at_ms: job.try_get(4)?,
            finished_at_ms,
        }))
    }

    /// Cancels a job: chunks not yet claimed will not run. `None` when there is no such job.
    pub async fn cancel(&self, id: &str) -> Result<Option<JobStatus>, sqlx::Error> {
        let mut tx = self.storage.pool().begin().await?;
        let updated = sqlx::query("UPDATE jobs SET state = 'cancelled' WHERE id = $1 AND finished_at_ms IS NULL")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if updated.rows_affected() > 0 {
            sqlx::query("UPDATE job_chunks SET state = 'cancelled' WHERE job_id = $1 AND state = 'pending'")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.status(id).await
    }

    /// Claims the oldest claimable chunk: pending, or running under an expired lease.
    pub async fn claim(&self, owner: &str, lease_ms: u64) -> Result<Option<Claim>, sqlx::Error> {
        let now = now_ms();
        let lock = match self.backend() {
            // Concurrent claimers skip each other's rows instead of queueing on them.
            Backend::Postgres => " FOR UPDATE OF c SKIP LOCKED",
            // SQLite serialises writers; the UPDATE below is atomic on its own.
            Backend::Sqlite => "",
        };
        let sql = format!(
            "UPDATE job_chunks SET state = 'running', lease_owner = $1, lease_expires_ms = $2, attempts = attempts + 1 \
             WHERE (job_id, chunk_index) IN ( \
               SELECT c.job_id, c.chunk_index FROM job_chunks c JOIN jobs j ON j.id = c.job_id \
               WHERE j.state = 'active' AND (c.state = 'pending' OR (c.state = 'running' AND c.lease_expires_ms < $3)) \
               ORDER BY j.created_at_ms, c.job_id, c.chunk_index LIMIT 1{lock}) \
             RETURNING job_id, chunk_index, first_item, item_count"
        );
        let row = sqlx::query(AssertSqlSafe(sql))
            .bind(owner)
            .bind(now.saturating_add(i64::try_from(lease_ms).unwrap_or(i64::MAX)))
            .bind(now)
            .fetch_optional(self.storage.pool())
            .await?;
        row.map(|row| {
            Ok(Claim {
                job_id: row.try_get(0)?,
                chunk_index: row.try_get(1)?,
                first_item: row.try_get(2)?,
                item_count: row.try_get(3)?,
            })
        })
        .transpose()
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

    /// The claimed chunk's items, `(index, line)` in order.
    pub async fn items(&self, claim: &Claim) -> Result<Vec<(i64, String)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT item_index, payload FROM job_items \
             WHERE job_id = $1 AND item_index >= $2 AND item_index < $3 ORDER BY item_index",
        )
        .bind(&claim.job_id)
        .bind(claim.first_item)
        .bind(claim.first_item + claim.item_count)
        .fetch_all(self.storage.pool())
        .await?;
        rows.into_iter().map(|row| Ok((row.try_get(0)?, row.try_get(1)?))).collect()
    }

    /// Writes a chunk's results and marks it done, in one transaction. Results already written
    /// (by an earlier holder of the chunk) are kept as they are. Then marks the job finished
    /// when no chunk is left undone.
    pub async fn complete(&self, claim: &Claim, owner: &str, results: &[(i64, String)]) -> Result<(), sqlx::Error> {
        let mut tx = self.storage.pool().begin().await?;
        for batch in results.chunks(ITEM_ROWS_PER_STATEMENT) {
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
