//! The background writer: scoring-log rows and cache entries are queued by request handlers and
//! written in batches by one task, so no request waits on the database.

use std::time::Duration;

use sqlx::AssertSqlSafe;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::{Storage, now_ms, placeholders};

/// One scoring-log row.
#[derive(Debug, Clone)]
pub struct LogRow {
    pub request_id: String,
    pub item_index: i64,
    pub item_hash: String,
    pub verifier: &'static str,
    pub verifier_version: &'static str,
    pub score: f64,
    pub status: &'static str,
    pub latency_us: i64,
}

/// One result-cache entry.
#[derive(Debug, Clone)]
pub struct CacheRow {
    pub verifier: &'static str,
    pub verifier_version: &'static str,
    pub input_hash: String,
    pub score: f64,
    pub status: &'static str,
    pub details: String,
}

#[derive(Debug)]
enum Write {
    Log(LogRow),
    Cache(CacheRow),
}

/// The sending side of the writer. Enqueueing never waits: when the queue is full the row is
/// dropped and counted in `referee_storage_dropped_rows_total`.
#[derive(Debug, Clone)]
pub struct WriteQueue {
    tx: mpsc::Sender<Write>,
}

impl WriteQueue {
    /// Queues a scoring-log row.
    pub fn log(&self, row: LogRow) {
        self.send(Write::Log(row));
    }

    /// Queues a cache entry.
    pub fn cache(&self, row: CacheRow) {
        self.send(Write::Cache(row));
    }

    fn send(&self, write: Write) {
        if self.tx.try_send(write).is_err() {
            metrics::counter!("referee_storage_dropped_rows_total").increment(1);
        }
    }
}

/// Rows per INSERT statement: 9 parameters each, far below SQLite's limit.
const ROWS_PER_STATEMENT: usize = 200;
/// Most rows taken from the queue for one transaction.
const ROWS_PER_FLUSH: usize = 5_000;

/// The running writer task.
#[derive(Debug)]
pub struct Writer {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Writer {
    /// Refuses new rows, writes everything already queued, and ends.
    pub async fn finish(self) {
        let _ = self.stop.send(());
        if let Err(error) = self.task.await {
            tracing::error!(%error, "the storage writer ended abnormally");
        }
    }
}

/// Starts the writer; rows queued through the returned [`WriteQueue`] are written in batches
/// until [`Writer::finish`].
pub fn spawn_writer(storage: Storage, capacity: usize, flush_interval: Duration) -> (WriteQueue, Writer) {
    let (tx, mut rx) = mpsc::channel(capacity.max(1));
    let (stop, mut stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let mut buffer = Vec::with_capacity(ROWS_PER_FLUSH);
        let mut stopping = false;
        loop {
            if stopping {
                if rx.recv_many(&mut buffer, ROWS_PER_FLUSH).await == 0 {
                    break;
                }
            } else {
                tokio::select! {
                    received = rx.recv_many(&mut buffer, ROWS_PER_FLUSH) => if received == 0 { break },
                    _ = &mut stopped => {
                        stopping = true;
                        rx.close();
                        continue;
                    }
                }
                // Let a burst accumulate so one transaction carries it.
                if buffer.len() < ROWS_PER_FLUSH {
                    tokio::select! {
                        () = tokio::time::sleep(flush_interval) => {}
                        _ = &mut stopped => {
                            stopping = true;
                            rx.close();
                        }
                    }
                    while buffer.len() < ROWS_PER_FLUSH {
                        match rx.try_recv() {
                            Ok(write) => buffer.push(write),
                            Err(_) => break,
                        }
                    }
                }
            }
            if let Err(error) = flush(&storage, &buffer).await {
                metrics::counter!("referee_storage_write_errors_total").increment(1);
                tracing::error!(%error, rows = buffer.len(), "writing scoring log and cache rows failed");
            }
            buffer.clear();
        }
    });
    (WriteQueue { tx }, Writer { stop, task })
}

async fn flush(storage: &Storage, buffer: &[Write]) -> Result<(), sqlx::Error> {
    let (mut logs, mut caches) = (Vec::new(), Vec::new());
    for write in buffer.iter() {
        match write {
            Write::Log(row) => logs.push(row),
            Write::Cache(row) => caches.push(row),
        }
    }
    let now = now_ms();
    let mut tx = storage.pool().begin().await?;
    for chunk in logs.chunks(ROWS_PER_STATEMENT) {
        let sql = insert_sql(
            "INSERT INTO scoring_log (request_id, item_index, item_hash, verifier, verifier_version, score, status, \
             latency_us, created_at_ms) VALUES ",
            9,
            chunk.len(),
            "",
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for row in chunk {
            query = query
                .bind(row.request_id.as_str())
                .bind(row.item_index)
                .bind(row.item_hash.as_str())
                .bind(row.verifier)
                .bind(row.verifier_version)
                .bind(row.score)
                .bind(row.status)
                .bind(row.latency_us)
                .bind(now);
        }
        query.execute(&mut *tx).await?;
    }
    for chunk in caches.chunks(ROWS_PER_STATEMENT) {
        let sql = insert_sql(
            "INSERT INTO result_cache (verifier, verifier_version, input_hash, score, status, details, created_at_ms) \
             VALUES ",
            7,
            chunk.len(),
            " ON CONFLICT (verifier, verifier_version, input_hash) DO NOTHING",
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for row in chunk {
            query = query
                .bind(row.verifier)
                .bind(row.verifier_version)
                .bind(row.input_hash.as_str())
                .bind(row.score)
                .bind(row.status)
                .bind(row.details.as_str())
                .bind(now);
        }
        query.execute(&mut *tx).await?;
    }
    tx.commit().await?;
    metrics::counter!("referee_storage_rows_written_total").increment(buffer.len() as u64);
    Ok(())
}

/// `head (..), (..), ... tail` with `$n` placeholders for `rows` rows of `columns` values.
fn insert_sql(head: &str, columns: usize, rows: usize, tail: &str) -> String {
    format!("{head}{}{tail}", placeholders(columns, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_row_major() {
        assert_eq!(insert_sql("I ", 2, 2, " T"), "I ($1, $2), ($3, $4) T");
    }
}
