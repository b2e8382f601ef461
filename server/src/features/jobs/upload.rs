//! Storing an upload in small transactions. The job row is written first in the `uploading`
//! state, which workers, `GET` and `DELETE` ignore; items and finished chunks follow in
//! transactions of `ITEMS_PER_TRANSACTION` items, so other writers (the scoring log, other
//! jobs' workers) get the SQLite write lock between them; the last transaction turns the job
//! `active`. A job therefore exists completely or not at all, and an upload that fails, or whose
//! process dies, is deleted (at once, or by the sweep once its upload lease expires).

use sqlx::AssertSqlSafe;

use super::store::ROWS_PER_STATEMENT;
use super::{JobState, JobStatus, JobStore};
use crate::store::{Backend, now_ms, placeholders};

/// Items stored per transaction while uploading.
const ITEMS_PER_TRANSACTION: usize = 2_000;

/// Why an upload was not stored.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// More items than `jobs.max_items`.
    #[error("more than {limit} items in one job")]
    TooManyItems { limit: usize },
    /// Not one item.
    #[error("the job has no items")]
    NoItems,
    /// The upload was removed while in progress (its lease expired).
    #[error("the upload expired before it was complete")]
    Expired,
    /// The database refused a write.
    #[error(transparent)]
    Storage(#[from] sqlx::Error),
}

/// A job being uploaded. Lines go in with [`Upload::push_line`]; [`Upload::finish`] makes the job
/// visible and claimable. Dropped unfinished (an error, a client that went away), it deletes
/// what it stored.
#[derive(Debug)]
pub struct Upload {
    store: JobStore,
    id: String,
    chunk_size: usize,
    priority: u32,
    created_at_ms: i64,
    /// Items not yet written: `(payload, error)`.
    pending: Vec<(String, Option<String>)>,
    /// Items written so far.
    written: usize,
    /// Chunks written so far (each full, except the last one at the end).
    chunks_written: usize,
    done: bool,
}

impl JobStore {
    /// Starts storing a job: its row, `uploading`, owned by this process.
    pub async fn begin_upload(&self, chunk_size: usize, priority: u32) -> Result<Upload, sqlx::Error> {
        let id = format!("job_{:016x}{:08x}", rand::random::<u64>(), rand::random::<u32>());
        let now = now_ms();
        sqlx::query(
            "INSERT INTO jobs (id, state, total_items, chunk_size, chunks_total, created_at_ms, priority, \
               upload_node, upload_owner, upload_expires_ms) \
             VALUES ($1, 'uploading', 0, $2, 0, $3, $4, $5, $6, $7)",
        )
        .bind(&id)
        .bind(chunk_size as i64)
        .bind(now)
        .bind(i64::from(priority.max(1)))
        .bind(&self.node)
        .bind(&self.instance)
        .bind(self.upload_expiry())
        .execute(self.storage.pool())
        .await?;
        Ok(Upload {
            store: self.clone(),
            id,
            chunk_size,
            priority,
            created_at_ms: now,
            pending: Vec::with_capacity(ITEMS_PER_TRANSACTION),
            written: 0,
            chunks_written: 0,
            done: false,
        })
    }

    fn upload_expiry(&self) -> i64 {
        now_ms().saturating_add(i64::try_from(self.lease_ms).unwrap_or(i64::MAX))
    }
}

impl Upload {
    /// The job's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Items taken so far.
    pub fn items(&self) -> usize {
        self.written + self.pending.len()
    }

    /// Adds one line of the upload. Blank lines are skipped. A line holding a NUL character
    /// (which JSON cannot contain unescaped, and PostgreSQL text cannot store) is kept as that
    /// item's error, scored `invalid_input`.
    pub async fn push_line(&mut self, line: &str) -> Result<(), UploadError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(());
        }
        if self.items() >= self.store.max_items {
            return Err(UploadError::TooManyItems { limit: self.store.max_items });
        }
        let item = if line.contains('\0') {
            let error = format!("item {} contains a raw NUL character, which JSON does not allow", self.items());
            (String::new(), Some(error))
        } else {
            (line.to_owned(), None)
        };
        self.pending.push(item);
        if self.pending.len() >= ITEMS_PER_TRANSACTION {
            self.flush(false).await?;
        }
        Ok(())
    }

    /// Adds an item refused before it could be read as text (a line that is not UTF-8).
    pub async fn push_error(&mut self, error: String) -> Result<(), UploadError> {
        if self.items() >= self.store.max_items {
            return Err(UploadError::TooManyItems { limit: self.store.max_items });
        }
        self.pending.push((String::new(), Some(error)));
        if self.pending.len() >= ITEMS_PER_TRANSACTION {
            self.flush(false).await?;
        }
        Ok(())
    }

    /// Stores what is pending, with the chunks it completes (and the last, partial one when
    /// `last`), in one transaction that also renews the upload's lease.
    async fn flush(&mut self, last: bool) -> Result<(), UploadError> {
        let pending = std::mem::take(&mut self.pending);
        let first = self.written;
        let total = first + pending.len();
        let chunks_now = if last { total.div_ceil(self.chunk_size) } else { total / self.chunk_size };
        let mut tx = self.store.storage.begin_write().await?;
        let renewed = sqlx::query("UPDATE jobs SET upload_expires_ms = $1 WHERE id = $2 AND state = 'uploading'")
            .bind(self.store.upload_expiry())
            .bind(&self.id)
            .execute(&mut *tx)
            .await?;
        if renewed.rows_affected() == 0 {
            return Err(UploadError::Expired);
        }
        for (n, batch) in pending.chunks(ROWS_PER_STATEMENT).enumerate() {
            let sql = format!(
                "INSERT INTO job_items (job_id, item_index, payload, error) VALUES {}",
                placeholders(4, batch.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (offset, (payload, error)) in batch.iter().enumerate() {
                let index = (first + n * ROWS_PER_STATEMENT + offset) as i64;
                query = query.bind(&self.id).bind(index).bind(payload.as_str()).bind(error.as_deref());
            }
            query.execute(&mut *tx).await?;
        }
        let chunks: Vec<(i64, i64, i64)> = (self.chunks_written..chunks_now)
            .map(|c| {
                let start = c * self.chunk_size;
                (c as i64, start as i64, (total - start).min(self.chunk_size) as i64)
            })
            .collect();
        for batch in chunks.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO job_chunks (job_id, chunk_index, first_item, item_count) VALUES {}",
                placeholders(4, batch.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (chunk, start, count) in batch {
                query = query.bind(&self.id).bind(*chunk).bind(*start).bind(*count);
            }
            query.execute(&mut *tx).await?;
        }
        if last {
            // The job starts at the least virtual time among the active jobs, so it takes turns
            // with them from now on instead of first catching up on all the turns they had.
            let activated = sqlx::query(
                "UPDATE jobs SET state = 'active', total_items = $1, chunks_total = $2, upload_node = NULL, \
                   upload_owner = NULL, upload_expires_ms = NULL, \
                   vtime = (SELECT COALESCE(MIN(a.vtime), 0) FROM jobs a WHERE a.state = 'active' AND a.finished_at_ms IS NULL) \
                 WHERE id = $3 AND state = 'uploading'",
            )
            .bind(total as i64)
            .bind(chunks_now as i64)
            .bind(&self.id)
            .execute(&mut *tx)
            .await?;
            if activated.rows_affected() == 0 {
                return Err(UploadError::Expired);
            }
            if self.store.backend() == Backend::Postgres {
                sqlx::query("SELECT pg_notify('referee_jobs', $1)").bind(&self.id).execute(&mut *tx).await?;
            }
        }
        tx.commit().await?;
        self.written = total;
        self.chunks_written = chunks_now;
        Ok(())
    }

    /// Removes the upload now rather than in the background as a drop does, so that a refusal
    /// the client reads is already true in the database; a failed delete is left to the drop's
    /// path (the sweep).
    pub async fn discard(mut self) {
        if self.store.delete_upload(&self.id).await.is_ok() {
            self.done = true;
        }
    }

    /// Stores the rest and makes the job visible and claimable; returns its status.
    pub async fn finish(mut self) -> Result<JobStatus, UploadError> {
        if self.items() == 0 {
            return Err(UploadError::NoItems);
        }
        self.flush(true).await?;
        self.done = true;
        let total = self.written;
        metrics::counter!("referee_jobs_created_total").increment(1);
        metrics::counter!("referee_job_items_total").increment(total as u64);
        tracing::debug!(job = %self.id, items = total, priority = self.priority, "job stored");
        Ok(JobStatus {
            id: std::mem::take(&mut self.id),
            state: JobState::Queued,
            total_items: total as u64,
            scored_items: 0,
            chunks_total: self.chunks_written as u64,
            chunks_done: 0,
            chunk_size: self.chunk_size as u64,
            created_at_ms: self.created_at_ms,
            finished_at_ms: None,
        })
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        // Removed in the background; if that fails too, the sweep removes the upload once its
        // lease expires.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let (store, id) = (self.store.clone(), std::mem::take(&mut self.id));
            runtime.spawn(async move {
                if let Err(error) = store.delete_upload(&id).await {
                    tracing::warn!(%error, job = %id, "cannot remove a failed upload; the sweep will");
                }
            });
        }
    }
}
