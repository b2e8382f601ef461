//! The background writer: scoring-log rows and cache entries are queued by request handlers and
//! written in batches by one task, so no request waits on the database.
//!
//! The queue is bounded in rows (`scoring_log.queue_capacity`). Scoring-log rows are a promise:
//! when the queue is full the request that scored them waits for room, at most
//! `scoring_log.enqueue_timeout_ms`, and only then are they dropped, counted in
//! `referee_scoring_log_dropped_rows_total` and reported at most once per [`REPORT_INTERVAL`].
//! Cache entries are an optimisation and never wait: a full queue drops them (counted in
//! `referee_cache_dropped_rows_total`). A batch whose write fails with a transient database
//! error (a dropped connection, a busy or locked database, a serialisation failure) is retried
//! with exponential backoff for up to `scoring_log.retry_window_ms`. Rows of a job chunk carry a
//! key that is unique in the table, so a chunk scored again after a takeover adds no rows, and
//! they are written before the chunk's results are committed ([`WriteQueue::log_durably`]): a
//! process killed at any moment leaves either both or a chunk that is scored again.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sqlx::AssertSqlSafe;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tokio::task::JoinHandle;

use super::{Backend, Storage, now_ms, placeholders};

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
    /// Unique in the table when set: rows of input that may be scored again (a job chunk taken
    /// over after its worker died) carry one, so the second scoring adds nothing.
    pub row_key: Option<String>,
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

/// Rows queued together, with the room they take in the queue: held, never read, until the
/// write is dropped after the rows were written or given up.
#[derive(Debug)]
enum Write {
    Log { rows: Vec<LogRow>, _room: OwnedSemaphorePermit, written: Option<oneshot::Sender<bool>> },
    Cache { rows: Vec<CacheRow>, _room: OwnedSemaphorePermit },
}

impl Write {
    /// Whether a request waits for this write to be done.
    fn awaited(&self) -> bool {
        matches!(self, Write::Log { written: Some(_), .. })
    }

    fn rows(&self) -> usize {
        match self {
            Write::Log { rows, .. } => rows.len(),
            Write::Cache { rows, .. } => rows.len(),
        }
    }
}

/// How long queueing and writing may take before rows are given up.
#[derive(Debug, Clone, Copy)]
pub struct WriterLimits {
    /// Rows queued or being written at once.
    pub capacity: usize,
    /// Longest a burst waits to be written together.
    pub flush_interval: Duration,
    /// Longest a request waits for room for its scoring-log rows.
    pub enqueue_timeout: Duration,
    /// Longest a failing batch is retried.
    pub retry_window: Duration,
}

/// Dropped rows are reported in the server log at most this often.
pub const REPORT_INTERVAL: Duration = Duration::from_secs(10);

/// Counts drops and logs them at most once per [`REPORT_INTERVAL`].
#[derive(Debug)]
struct DropReport {
    started: Instant,
    /// Milliseconds after `started` of the last report, or -1 before the first.
    last_ms: AtomicI64,
    unreported: AtomicU64,
}

impl DropReport {
    fn new() -> DropReport {
        DropReport { started: Instant::now(), last_ms: AtomicI64::new(-1), unreported: AtomicU64::new(0) }
    }

    /// Counts `rows` dropped rows; true when this call reported them (and any unreported
    /// before them) in the server log.
    fn record(&self, rows: usize, reason: &'static str) -> bool {
        let rows = rows as u64;
        metrics::counter!("referee_scoring_log_dropped_rows_total", "reason" => reason).increment(rows);
        self.unreported.fetch_add(rows, Ordering::Relaxed);
        let now = i64::try_from(self.started.elapsed().as_millis()).unwrap_or(i64::MAX);
        let interval = i64::try_from(REPORT_INTERVAL.as_millis()).unwrap_or(i64::MAX);
        let last = self.last_ms.load(Ordering::Relaxed);
        let due = last < 0 || now.saturating_sub(last) >= interval;
        if due && self.last_ms.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            let dropped = self.unreported.swap(0, Ordering::Relaxed);
            tracing::warn!(
                dropped,
                reason,
                "scoring-log rows were dropped (referee_scoring_log_dropped_rows_total counts them all)"
            );
            return true;
        }
        false
    }
}

/// The sending side of the writer.
#[derive(Debug, Clone)]
pub struct WriteQueue {
    tx: mpsc::UnboundedSender<Write>,
    room: Arc<Semaphore>,
    limits: WriterLimits,
    drops: Arc<DropReport>,
}

impl WriteQueue {
    /// Queues scoring-log rows, waiting up to the enqueue timeout for room; rows that find none
    /// are dropped and counted.
    pub async fn log(&self, rows: Vec<LogRow>) {
        self.enqueue(rows, None).await;
    }

    /// Queues scoring-log rows like [`WriteQueue::log`] and waits until they are written (true)
    /// or given up (false, counted as dropped). Such rows do not wait for a burst to gather:
    /// at most for the one being gathered when they arrive (`scoring_log.flush_interval_ms`).
    pub async fn log_durably(&self, rows: Vec<LogRow>) -> bool {
        if rows.is_empty() {
            return true;
        }
        let (written, done) = oneshot::channel();
        self.enqueue(rows, Some(written)).await;
        done.await.unwrap_or(false)
    }

    async fn enqueue(&self, rows: Vec<LogRow>, written: Option<oneshot::Sender<bool>>) {
        if rows.is_empty() {
            return;
        }
        let count = rows.len();
        let permits = self.permits_for(count);
        let room = match Arc::clone(&self.room).try_acquire_many_owned(permits) {
            Ok(room) => Some(room),
            Err(_) => {
                metrics::counter!("referee_scoring_log_waits_total").increment(1);
                let waiting = Arc::clone(&self.room).acquire_many_owned(permits);
                // The semaphore is never closed, so only the timeout leaves no room.
                tokio::time::timeout(self.limits.enqueue_timeout, waiting).await.ok().and_then(Result::ok)
            }
        };
        match room {
            Some(room) => self.send(Write::Log { rows, _room: room, written }),
            None => {
                self.drops.record(count, "queue_full");
            }
        }
    }

    /// Queues cache entries if there is room now; otherwise they are dropped and counted.
    pub fn cache(&self, rows: Vec<CacheRow>) {
        if rows.is_empty() {
            return;
        }
        match Arc::clone(&self.room).try_acquire_many_owned(self.permits_for(rows.len())) {
            Ok(room) => self.send(Write::Cache { rows, _room: room }),
            Err(_) => metrics::counter!("referee_cache_dropped_rows_total").increment(rows.len() as u64),
        }
    }

    /// A batch larger than the whole queue takes all of it, so that it can still be queued.
    fn permits_for(&self, rows: usize) -> u32 {
        u32::try_from(rows.min(self.limits.capacity)).unwrap_or(u32::MAX)
    }

    fn send(&self, write: Write) {
        if let Err(mpsc::error::SendError(write)) = self.tx.send(write) {
            match write {
                Write::Log { rows, .. } => {
                    self.drops.record(rows.len(), "closed");
                }
                Write::Cache { rows, .. } => {
                    metrics::counter!("referee_cache_dropped_rows_total").increment(rows.len() as u64);
                }
            }
        }
    }
}

/// Rows per INSERT statement: 10 parameters each, far below SQLite's limit.
const ROWS_PER_STATEMENT: usize = 200;
/// Most rows taken from the queue for one transaction.
const ROWS_PER_FLUSH: usize = 5_000;
/// First and longest pause between attempts at a failing batch.
const RETRY_BACKOFF_MIN: Duration = Duration::from_millis(50);
const RETRY_BACKOFF_MAX: Duration = Duration::from_secs(2);

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
pub fn spawn_writer(storage: Storage, limits: WriterLimits) -> (WriteQueue, Writer) {
    let limits = WriterLimits { capacity: limits.capacity.clamp(1, Semaphore::MAX_PERMITS), ..limits };
    let (tx, mut rx) = mpsc::unbounded_channel::<Write>();
    let (stop, mut stopped) = oneshot::channel::<()>();
    let drops = Arc::new(DropReport::new());
    let queue = WriteQueue { tx, room: Arc::new(Semaphore::new(limits.capacity)), limits, drops: Arc::clone(&drops) };
    let task = tokio::spawn(async move {
        let mut buffer = Vec::new();
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
                // Let a burst accumulate so one transaction carries it, unless rows wait for it.
                if rows(&buffer) < ROWS_PER_FLUSH && !buffer.iter().any(Write::awaited) {
                    tokio::select! {
                        () = tokio::time::sleep(limits.flush_interval) => {}
                        _ = &mut stopped => {
                            stopping = true;
                            rx.close();
                        }
                    }
                }
            }
            while rows(&buffer) < ROWS_PER_FLUSH {
                match rx.try_recv() {
                    Ok(write) => buffer.push(write),
                    Err(_) => break,
                }
            }
            let written = write_with_retries(&storage, &buffer, limits.retry_window, &drops).await;
            // Dropping the writes gives their room back to the queue.
            for write in buffer.drain(..) {
                if let Write::Log { written: Some(waiting), .. } = write {
                    let _ = waiting.send(written);
                }
            }
        }
    });
    (queue, Writer { stop, task })
}

fn rows(buffer: &[Write]) -> usize {
    buffer.iter().map(Write::rows).sum()
}

/// Writes a batch, retrying transient failures with backoff within `window`; false when it was
/// given up.
async fn write_with_retries(storage: &Storage, buffer: &[Write], window: Duration, drops: &DropReport) -> bool {
    let started = Instant::now();
    let mut backoff = RETRY_BACKOFF_MIN;
    loop {
        let error = match flush(storage, buffer).await {
            Ok(()) => return true,
            Err(error) => error,
        };
        metrics::counter!("referee_storage_write_errors_total").increment(1);
        let transient = is_transient(storage.backend(), &error);
        if transient && started.elapsed() + backoff <= window {
            metrics::counter!("referee_storage_write_retries_total").increment(1);
            tracing::debug!(%error, ?backoff, "writing scoring log and cache rows failed; retrying");
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(RETRY_BACKOFF_MAX);
            continue;
        }
        let (mut logs, mut caches) = (0, 0);
        for write in buffer {
            match write {
                Write::Log { rows, .. } => logs += rows.len(),
                Write::Cache { rows, .. } => caches += rows.len(),
            }
        }
        tracing::error!(%error, transient, log_rows = logs, cache_rows = caches, "writing rows failed; given up");
        let _ = drops.record(logs, if transient { "retries_exhausted" } else { "write_failed" });
        metrics::counter!("referee_cache_dropped_rows_total").increment(caches as u64);
        return false;
    }
}

/// Errors after which the same write may succeed: the connection was lost or could not be had,
/// the database was busy, or a concurrent transaction got in the way.
pub fn is_transient(backend: Backend, error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(database) => {
            let code = database.code().unwrap_or_default();
            match backend {
                // Connection exceptions (08), serialisation failure and deadlock (40),
                // insufficient resources (53), operator intervention such as
                // pg_terminate_backend or a restart (57P0x).
                Backend::Postgres => {
                    code.starts_with("08")
                        || code.starts_with("40")
                        || code.starts_with("53")
                        || code.starts_with("57P0")
                }
                // BUSY (5) and LOCKED (6), with their extended codes (same low byte).
                Backend::Sqlite => code.parse::<i64>().is_ok_and(|c| matches!(c & 0xff, 5 | 6)),
            }
        }
        // Mistakes in the statement or the data, and a pool closed for shutdown: the same
        // write would fail again.
        sqlx::Error::Configuration(_)
        | sqlx::Error::InvalidArgument(_)
        | sqlx::Error::RowNotFound
        | sqlx::Error::TypeNotFound { .. }
        | sqlx::Error::ColumnIndexOutOfBounds { .. }
        | sqlx::Error::ColumnNotFound(_)
        | sqlx::Error::ColumnDecode { .. }
        | sqlx::Error::Encode(_)
        | sqlx::Error::Decode(_)
        | sqlx::Error::AnyDriverError(_)
        | sqlx::Error::PoolClosed
        | sqlx::Error::Migrate(_)
        | sqlx::Error::InvalidSavePointStatement
        | sqlx::Error::BeginFailed
        | _ => false,
    }
}

async fn flush(storage: &Storage, buffer: &[Write]) -> Result<(), sqlx::Error> {
    let (mut logs, mut caches) = (Vec::new(), Vec::new());
    for write in buffer {
        match write {
            Write::Log { rows, .. } => logs.extend(rows),
            Write::Cache { rows, .. } => caches.extend(rows),
        }
    }
    let now = now_ms();
    let mut tx = storage.begin_write().await?;
    for chunk in logs.chunks(ROWS_PER_STATEMENT) {
        let sql = insert_sql(
            "INSERT INTO scoring_log (request_id, item_index, item_hash, verifier, verifier_version, score, status, \
             latency_us, created_at_ms, row_key) VALUES ",
            10,
            chunk.len(),
            // Only `row_key` is unique: a row already written for the same key is kept.
            " ON CONFLICT DO NOTHING",
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
                .bind(now)
                .bind(row.row_key.as_deref());
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
    metrics::counter!("referee_storage_rows_written_total").increment((logs.len() + caches.len()) as u64);
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

    #[test]
    fn drops_are_reported_at_most_once_per_interval() {
        let report = DropReport::new();
        assert!(report.record(3, "queue_full"), "the first drop is reported at once");
        assert!(!report.record(4, "queue_full"));
        assert!(!report.record(5, "queue_full"));
        assert_eq!(report.unreported.load(Ordering::Relaxed), 9, "held for the next report");
        // As if the interval had passed since the last report.
        let interval = i64::try_from(REPORT_INTERVAL.as_millis()).unwrap_or(i64::MAX);
        report.last_ms.store(-interval, Ordering::Relaxed);
        assert!(report.record(1, "queue_full"));
        assert_eq!(report.unreported.load(Ordering::Relaxed), 0);
    }

    #[tokio::test]
    async fn a_full_queue_waits_then_drops() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let limits = WriterLimits {
            capacity: 2,
            flush_interval: Duration::ZERO,
            enqueue_timeout: Duration::from_millis(20),
            retry_window: Duration::ZERO,
        };
        let queue = WriteQueue { tx, room: Arc::new(Semaphore::new(2)), limits, drops: Arc::new(DropReport::new()) };
        let row = || LogRow {
            request_id: "r".to_owned(),
            item_index: 0,
            item_hash: String::new(),
            verifier: "v",
            verifier_version: "1",
            score: 1.0,
            status: "correct",
            latency_us: 0,
            row_key: None,
        };
        queue.log(vec![row(), row()]).await;
        let first = rx.try_recv().unwrap_or_else(|e| panic!("{e}"));
        // The queue is full until the first write is done: the next rows wait, then are dropped.
        queue.log(vec![row()]).await;
        assert!(rx.try_recv().is_err());
        assert_eq!(queue.drops.unreported.load(Ordering::Relaxed), 0, "reported at once");
        // Once the first write is done, room is given back and rows are queued again.
        drop(first);
        queue.log(vec![row()]).await;
        assert!(rx.try_recv().is_ok_and(|w| w.rows() == 1));
        // A batch larger than the whole queue takes all of it instead of waiting forever.
        queue.log(vec![row(), row(), row()]).await;
        assert!(rx.try_recv().is_ok_and(|w| w.rows() == 3));
    }

    #[test]
    fn lost_connections_and_busy_databases_are_transient() {
        for backend in [Backend::Sqlite, Backend::Postgres] {
            assert!(is_transient(backend, &sqlx::Error::PoolTimedOut));
            let reset = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
            assert!(is_transient(backend, &sqlx::Error::Io(reset)));
            assert!(!is_transient(backend, &sqlx::Error::RowNotFound));
            assert!(!is_transient(backend, &sqlx::Error::ColumnNotFound("x".to_owned())));
        }
    }
}
