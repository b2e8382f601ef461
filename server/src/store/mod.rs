//! Persistence through sqlx's `Any` driver: SQLite by default, PostgreSQL for several replicas,
//! one set of migrations for both.

mod migrations;
pub mod retention;
pub mod settings;
mod writer;

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, AssertSqlSafe, Row};

pub use writer::{CacheRow, LogRow, REPORT_INTERVAL, WriteQueue, Writer, WriterLimits, is_transient, spawn_writer};

/// The database backend behind a URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend a URL names.
    pub fn of_url(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }
}

/// A connected, migrated database.
#[derive(Debug, Clone)]
pub struct Storage {
    pool: AnyPool,
    backend: Backend,
}

/// What can go wrong opening the database.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("unsupported database URL (use sqlite:PATH or postgres://...): {0}")]
    UnsupportedUrl(String),
    #[error("cannot create the database directory {path}: {error}")]
    CreateDir { path: String, error: std::io::Error },
    #[error("cannot connect to the database: {0}")]
    Connect(sqlx::Error),
    #[error("cannot migrate the database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database query failed: {0}")]
    Query(#[from] sqlx::Error),
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Storage {
    /// Connects (creating a SQLite file and its directory when missing) and migrates.
    pub async fn open(url: &str, max_connections: u32) -> Result<Storage, StorageError> {
        install_default_drivers();
        let backend = Backend::of_url(url).ok_or_else(|| StorageError::UnsupportedUrl(url.to_owned()))?;
        let url = match backend {
            Backend::Sqlite => sqlite_url_with_create(url)?,
            Backend::Postgres => url.to_owned(),
        };
        let pool = AnyPoolOptions::new()
            .max_connections(max_connections)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL lets readers (the cache) proceed while the writer commits;
                        // the busy timeout makes concurrent writers wait instead of failing.
                        sqlx::query("PRAGMA journal_mode = WAL").execute(&mut *conn).await?;
                        sqlx::query("PRAGMA busy_timeout = 5000").execute(&mut *conn).await?;
                        sqlx::query("PRAGMA synchronous = NORMAL").execute(&mut *conn).await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(StorageError::Connect)?;
        migrations::migrator().run(&pool).await?;
        Ok(Storage { pool, backend })
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The connection pool, for queries of other modules.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Begins a transaction that writes. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`): a deferred transaction that reads first and writes later cannot
    /// upgrade its read snapshot once another connection has committed, and SQLite answers
    /// `SQLITE_BUSY` at once instead of waiting out the busy timeout. Taking the lock first
    /// makes concurrent writers queue behind each other. PostgreSQL needs nothing of the kind.
    pub async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
        match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => self.pool.begin().await,
        }
    }

    /// True when a trivial query succeeds.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await.is_ok()
    }

    /// Cached verdicts `(input_hash, score, status, details)` of one verifier version for the
    /// given input hashes.
    pub async fn cached(
        &self,
        verifier: &str,
        version: &str,
        hashes: &[String],
    ) -> Result<Vec<(String, f64, String, String)>, sqlx::Error> {
        let mut found = Vec::new();
        // SQLite allows 32766 parameters per statement; stay far below it.
        for chunk in hashes.chunks(500) {
            let placeholders: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
            let sql = format!(
                "SELECT input_hash, score, status, details FROM result_cache \
                 WHERE verifier = $1 AND verifier_version = $2 AND input_hash IN ({})",
                placeholders.join(", ")
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(verifier).bind(version);
            for hash in chunk {
                query = query.bind(hash);
            }
            for row in query.fetch_all(&self.pool).await? {
                found.push((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?, row.try_get(3)?));
            }
        }
        Ok(found)
    }

    /// Rows in the scoring log (for tests and the CLI).
    pub async fn scoring_log_count(&self) -> Result<i64, sqlx::Error> {
        sqlx::query("SELECT COUNT(*) FROM scoring_log").fetch_one(&self.pool).await?.try_get(0)
    }

    /// Closes the pool after pending work.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// `($1, $2), ($3, $4), ...`: placeholders for `rows` rows of `columns` values, row-major.
pub fn placeholders(columns: usize, rows: usize) -> String {
    let mut sql = String::with_capacity(rows * columns * 6);
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for column in 0..columns {
            if column > 0 {
                sql.push_str(", ");
            }
            sql.push('$');
            sql.push_str(&(row * columns + column + 1).to_string());
        }
        sql.push(')');
    }
    sql
}

/// Adds `mode=rwc` so SQLite creates the file, and creates its directory.
fn sqlite_url_with_create(url: &str) -> Result<String, StorageError> {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path != ":memory:"
        && let Some(dir) = Path::new(path).parent().filter(|d| !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir)
            .map_err(|error| StorageError::CreateDir { path: dir.display().to_string(), error })?;
    }
    let query = if query.contains("mode=") {
        query.to_owned()
    } else if query.is_empty() {
        "mode=rwc".to_owned()
    } else {
        format!("{query}&mode=rwc")
    };
    Ok(format!("sqlite://{path}?{query}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transaction that reads, then writes after another connection has committed, must
    /// wait for its turn instead of failing: the pattern of the noise audits and job writes.
    #[tokio::test]
    async fn a_write_transaction_that_reads_first_waits_for_a_concurrent_writer() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let url = format!("sqlite://{}", dir.path().join("referee.db").display());
        let storage = Storage::open(&url, 4).await.unwrap_or_else(|e| panic!("{e}"));
        let pool = storage.pool();
        sqlx::query("CREATE TABLE tally (n INTEGER NOT NULL)").execute(pool).await.unwrap_or_else(|e| panic!("{e}"));
        sqlx::query("INSERT INTO tally (n) VALUES (0)").execute(pool).await.unwrap_or_else(|e| panic!("{e}"));

        let mut tx = storage.begin_write().await.unwrap_or_else(|e| panic!("{e}"));
        let n: i64 =
            sqlx::query_scalar("SELECT n FROM tally").fetch_one(&mut *tx).await.unwrap_or_else(|e| panic!("{e}"));
        // Another writer commits while the first transaction holds its read.
        let other = {
            let pool = pool.clone();
            tokio::spawn(async move { sqlx::query("UPDATE tally SET n = n + 10").execute(&pool).await })
        };
        // Without the write lock taken first, the other writer commits at once; with it, the
        // other writer waits (the busy timeout) until the first commits.
        for _ in 0..50 {
            if other.is_finished() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        sqlx::query("UPDATE tally SET n = $1")
            .bind(n + 1)
            .execute(&mut *tx)
            .await
            .unwrap_or_else(|e| panic!("the first writer failed: {e}"));
        tx.commit().await.unwrap_or_else(|e| panic!("{e}"));
        other.await.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|e| panic!("the second writer failed: {e}"));
        let n: i64 = sqlx::query_scalar("SELECT n FROM tally").fetch_one(pool).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(n, 11, "both writes count, one after the other");
    }

    #[test]
    fn sqlite_urls_create_the_file() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("a/b/referee.db");
        let url = sqlite_url_with_create(&format!("sqlite://{}", path.display())).unwrap_or_else(|e| panic!("{e}"));
        assert!(url.ends_with("referee.db?mode=rwc"));
        assert!(dir.path().join("a/b").is_dir());
        assert_eq!(sqlite_url_with_create("sqlite::memory:").ok().as_deref(), Some("sqlite://:memory:?mode=rwc"));
        assert_eq!(Backend::of_url("postgres://x"), Some(Backend::Postgres));
        assert_eq!(Backend::of_url("mysql://x"), None);
    }
}
