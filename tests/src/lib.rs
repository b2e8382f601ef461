//! The harness of Referee's end-to-end tests: a real server on a loopback port, a real database
//! (a SQLite file in a temporary directory, or a fresh database on the PostgreSQL server), and
//! a real HTTP client.
//!
//! PostgreSQL is reached at `REFEREE_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/test`). A test that cannot reach it fails: it never skips.

pub mod completions;
pub mod judge;

use std::time::Duration;

use anyhow::Context as _;
use axum::body::Body;
use axum::http::{Method, Request};
use referee_server::{Config, RunningServer};
use serde_json::Value;
use sqlx::Connection as _;
use tower::ServiceExt as _;

/// The database a test server runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The admin URL of the test PostgreSQL server.
pub fn postgres_admin_url() -> String {
    std::env::var("REFEREE_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// A database that exists for one test.
#[derive(Debug)]
enum TestDatabase {
    Sqlite {
        _dir: tempfile::TempDir,
    },
    Postgres {
        name: String,
    },
    /// Another server's database: that server drops it.
    Shared,
}

/// A running server, its database and a client.
#[derive(Debug)]
pub struct TestServer {
    server: Option<RunningServer>,
    database: TestDatabase,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The database URL the server uses.
    pub database_url: String,
    pub client: reqwest::Client,
}

impl TestServer {
    /// Starts a server on `backend` with the default configuration.
    pub async fn start(backend: Backend) -> anyhow::Result<TestServer> {
        TestServer::start_with(backend, |_| {}).await
    }

    /// Starts a server on `backend` after `configure` adjusts the configuration.
    pub async fn start_with(backend: Backend, configure: impl FnOnce(&mut Config)) -> anyhow::Result<TestServer> {
        let (database, database_url) = match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir()?;
                let url = format!("sqlite://{}", dir.path().join("referee.db").display());
                (TestDatabase::Sqlite { _dir: dir }, url)
            }
            Backend::Postgres => {
                let (name, url) = create_postgres_database().await?;
                (TestDatabase::Postgres { name }, url)
            }
        };
        let mut config = Config::default();
        config.server.listen = "127.0.0.1:0".parse()?;
        config.database_url = Some(database_url.clone());
        config.server.shutdown_grace_ms = 10_000;
        configure(&mut config);
        let server = referee_server::start(&config).await?;
        let base = format!("http://{}", server.addr());
        let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build()?;
        Ok(TestServer { server: Some(server), database, base, database_url, client })
    }

    /// Starts another server on this one's database, as a second replica would run, after
    /// `configure` adjusts its configuration. Finishing it keeps the database.
    pub async fn replica(&self, configure: impl FnOnce(&mut Config)) -> anyhow::Result<TestServer> {
        let mut config = Config::default();
        config.server.listen = "127.0.0.1:0".parse()?;
        config.database_url = Some(self.database_url.clone());
        config.server.shutdown_grace_ms = 10_000;
        configure(&mut config);
        let server = referee_server::start(&config).await?;
        let base = format!("http://{}", server.addr());
        let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build()?;
        Ok(TestServer {
            server: Some(server),
            database: TestDatabase::Shared,
            base,
            database_url: self.database_url.clone(),
            client,
        })
    }

    /// The running server.
    pub fn server(&self) -> &RunningServer {
        self.server.as_ref().unwrap_or_else(|| unreachable!("the server runs until shutdown consumes it"))
    }

    /// `base` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// POSTs JSON and returns the status and the JSON body. Like [`TestServer::get`],
    /// [`TestServer::put`] and [`TestServer::delete`], it calls the application in this process
    /// (every layer but the connection's); tests about connections use `client` and `url`.
    pub async fn post(&self, path: &str, body: &Value) -> anyhow::Result<(u16, Value)> {
        self.call(Method::POST, path, Some(body)).await
    }

    /// GETs and returns the status and the JSON body.
    pub async fn get(&self, path: &str) -> anyhow::Result<(u16, Value)> {
        self.call(Method::GET, path, None).await
    }

    /// PUTs JSON and returns the status and the JSON body.
    pub async fn put(&self, path: &str, body: &Value) -> anyhow::Result<(u16, Value)> {
        self.call(Method::PUT, path, Some(body)).await
    }

    /// Sends DELETE and returns the status.
    pub async fn delete(&self, path: &str) -> anyhow::Result<u16> {
        Ok(self.call(Method::DELETE, path, None).await?.0)
    }

    /// One request to the application in this process: the status and the JSON body.
    async fn call(&self, method: Method, path: &str, body: Option<&Value>) -> anyhow::Result<(u16, Value)> {
        let request = Request::builder().method(method).uri(path);
        let request = match body {
            Some(body) => {
                request.header("content-type", "application/json").body(Body::from(serde_json::to_vec(body)?))?
            }
            None => request.body(Body::empty())?,
        };
        let response = self.server().router().oneshot(request).await?;
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await?;
        let value = if bytes.is_empty() { Value::Null } else { serde_json::from_slice(&bytes)? };
        Ok((status, value))
    }

    /// Shuts the server down gracefully (writing queued rows) and keeps the database.
    pub async fn stop(&mut self) -> anyhow::Result<()> {
        if let Some(server) = self.server.take() {
            server.shutdown().await?;
        }
        Ok(())
    }

    /// Stops the server and drops its database.
    pub async fn finish(mut self) -> anyhow::Result<()> {
        self.stop().await?;
        if let TestDatabase::Postgres { name } = &self.database {
            drop_postgres_database(name).await?;
        }
        Ok(())
    }

    /// Runs a scalar query on the server's database (with its own connection).
    pub async fn query_i64(&self, sql: &'static str) -> anyhow::Result<i64> {
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect(&self.database_url).await?;
        let value: i64 = sqlx::query_scalar(sql).fetch_one(&mut conn).await?;
        conn.close().await?;
        Ok(value)
    }

    /// Runs a statement on the server's database (with its own connection), as a crash or an
    /// operator would; returns the rows it touched.
    pub async fn execute(&self, sql: &'static str) -> anyhow::Result<u64> {
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect(&self.database_url).await?;
        let touched = sqlx::query(sql).execute(&mut conn).await?.rows_affected();
        conn.close().await?;
        Ok(touched)
    }
}

/// Creates a fresh, empty database on the test PostgreSQL server; returns its name and URL.
pub async fn create_postgres_database() -> anyhow::Result<(String, String)> {
    let name = format!("referee_test_{:016x}", rand_u64());
    let admin = postgres_admin_url();
    let mut conn = sqlx::PgConnection::connect(&admin)
        .await
        .with_context(|| format!("PostgreSQL is required for this test and is not reachable at {admin}"))?;
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&mut conn).await?;
    conn.close().await?;
    let url = replace_database(&admin, &name);
    Ok((name, url))
}

/// Drops a database made by [`create_postgres_database`], disconnecting its sessions.
pub async fn drop_postgres_database(name: &str) -> anyhow::Result<()> {
    let mut conn = sqlx::PgConnection::connect(&postgres_admin_url()).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))).execute(&mut conn).await?;
    conn.close().await?;
    Ok(())
}

/// The `referee` binary built beside this test binary (`cargo test --workspace` builds it).
pub fn referee_binary() -> anyhow::Result<std::path::PathBuf> {
    let exe = std::env::current_exe()?;
    let dir = exe.parent().and_then(|deps| deps.parent()).context("test binary has no target directory")?;
    let binary = dir.join(format!("referee{}", std::env::consts::EXE_SUFFIX));
    anyhow::ensure!(binary.exists(), "{} is missing; build it with `cargo build -p referee-server`", binary.display());
    Ok(binary)
}

fn replace_database(url: &str, database: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let base = base.rsplit_once('/').map_or(base, |(head, _)| head);
    match query {
        Some(query) => format!("{base}/{database}?{query}"),
        None => format!("{base}/{database}"),
    }
}

fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    hasher.finish()
}

/// An `exact-match` item.
pub fn exact_item(id: &str, response: &str, reference: &str) -> Value {
    serde_json::json!({"id": id, "verifier": "exact-match", "input": {"response": response, "reference": reference}})
}

/// Runs `test` against a server on each backend in turn, then drops the databases.
#[macro_export]
macro_rules! on_both_backends {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() -> anyhow::Result<()> {
                ($body)($crate::Backend::Sqlite).await
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() -> anyhow::Result<()> {
                ($body)($crate::Backend::Postgres).await
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_names_are_replaced() {
        assert_eq!(replace_database("postgres://u@h:5432/test", "x"), "postgres://u@h:5432/x");
        assert_eq!(replace_database("postgres://u@h/test?sslmode=disable", "x"), "postgres://u@h/x?sslmode=disable");
    }
}
