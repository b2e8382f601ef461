//! The harness of Referee's end-to-end tests: a real server on a loopback port, a real database
//! (a SQLite file in a temporary directory, or a fresh database on the PostgreSQL server), and
//! a real HTTP client.
//!
//! PostgreSQL is reached at `REFEREE_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/test`). A test that cannot reach it fails: it never skips.
//! A test's PostgreSQL database is a copy of a template migrated once per set of migrations
//! (see [`create_postgres_database`]), so a test does not run every migration again.
//!
//! The servers start without checking every guest language (`sandbox.check_at_start = false`):
//! each language is set up by the first item that needs it, and a test about the start-up check
//! turns it back on in its `configure`.

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
        let mut config = server_config(&database_url)?;
        configure(&mut config);
        let server = referee_server::start(&config).await?;
        let base = format!("http://{}", server.addr());
        let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build()?;
        Ok(TestServer { server: Some(server), database, base, database_url, client })
    }

    /// Starts another server on this one's database, as a second replica would run, after
    /// `configure` adjusts its configuration. Finishing it keeps the database.
    pub async fn replica(&self, configure: impl FnOnce(&mut Config)) -> anyhow::Result<TestServer> {
        let mut config = server_config(&self.database_url)?;
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

/// The configuration a test server starts from: `database_url`, a free loopback port, a 10 s
/// grace period, and no language check at start (`sandbox.check_at_start`), which would load
/// the Python and JavaScript runtimes and compile a program with each compiler in the
/// background of every server. A test about that check turns it back on.
pub fn server_config(database_url: &str) -> anyhow::Result<Config> {
    let mut config = Config::default();
    config.server.listen = "127.0.0.1:0".parse()?;
    config.database_url = Some(database_url.to_owned());
    config.server.shutdown_grace_ms = 10_000;
    config.sandbox.check_at_start = false;
    Ok(config)
}

/// The server's migrations in the source tree.
const MIGRATIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../server/migrations");

/// Creates a database on the test PostgreSQL server holding every migration of the server and
/// nothing else, as a server's first start would leave it; returns its name and URL.
///
/// It is a copy (`CREATE DATABASE ... TEMPLATE`) of `referee_template_<key>`, a database
/// migrated once for each set of migrations (the key hashes their versions and checksums):
/// copying is a fraction of the time the migrations take. The first process to need a
/// template makes it under an advisory lock, so processes starting together make it once, and
/// gives it its name only when it is migrated and has no connection left (a copy's source may
/// have none); it then refuses connections, so no test can hold one open. Templates of other
/// sets of migrations (other checkouts sharing the server) are left alone.
pub async fn create_postgres_database() -> anyhow::Result<(String, String)> {
    let admin = postgres_admin_url();
    let mut conn = connect_admin(&admin).await?;
    let created = async {
        let template = migrated_template(&mut conn, &admin).await?;
        let name = format!("referee_test_{:016x}", rand_u64());
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name} TEMPLATE {template}")))
            .execute(&mut conn)
            .await
            .with_context(|| format!("cannot copy the template database {template}"))?;
        Ok::<_, anyhow::Error>(name)
    }
    .await;
    conn.close().await?;
    let name = created?;
    let url = replace_database(&admin, &name);
    Ok((name, url))
}

/// Creates a fresh, empty database on the test PostgreSQL server, for a test about migrating
/// one; returns its name and URL.
pub async fn create_empty_postgres_database() -> anyhow::Result<(String, String)> {
    let name = format!("referee_test_{:016x}", rand_u64());
    let admin = postgres_admin_url();
    let mut conn = connect_admin(&admin).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&mut conn).await?;
    conn.close().await?;
    let url = replace_database(&admin, &name);
    Ok((name, url))
}

async fn connect_admin(admin: &str) -> anyhow::Result<sqlx::PgConnection> {
    sqlx::PgConnection::connect(admin)
        .await
        .with_context(|| format!("PostgreSQL is required for this test and is not reachable at {admin}"))
}

/// The name of the template database of the server's current migrations, made first if no
/// process has made it yet (see [`create_postgres_database`]).
async fn migrated_template(conn: &mut sqlx::PgConnection, admin: &str) -> anyhow::Result<String> {
    let key = migrations_key().await?;
    let template = format!("referee_template_{key:016x}");
    if database_exists(conn, &template).await? {
        return Ok(template);
    }
    let lock = i64::from_ne_bytes(key.to_ne_bytes());
    sqlx::query("SELECT pg_advisory_lock($1)").bind(lock).execute(&mut *conn).await?;
    let made = make_template(conn, admin, &template).await;
    sqlx::query("SELECT pg_advisory_unlock($1)").bind(lock).execute(&mut *conn).await?;
    made.with_context(|| format!("cannot make the template database {template}"))?;
    Ok(template)
}

/// Makes `template` unless another process made it while this one waited for the lock: a
/// database migrated by the server's own code, renamed to `template` once its connections are
/// closed.
async fn make_template(conn: &mut sqlx::PgConnection, admin: &str, template: &str) -> anyhow::Result<()> {
    if database_exists(conn, template).await? {
        return Ok(());
    }
    // A process that died while making it leaves this behind.
    let building = format!("{template}_building");
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)")))
        .execute(&mut *conn)
        .await?;
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {building}"))).execute(&mut *conn).await?;
    let storage = referee_server::store::Storage::open(&replace_database(admin, &building), 1).await?;
    storage.close().await;
    sqlx::query(sqlx::AssertSqlSafe(format!("ALTER DATABASE {building} WITH ALLOW_CONNECTIONS false")))
        .execute(&mut *conn)
        .await?;
    // PostgreSQL waits (up to 5 s) for the closed connections' sessions to end.
    sqlx::query(sqlx::AssertSqlSafe(format!("ALTER DATABASE {building} RENAME TO {template}")))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn database_exists(conn: &mut sqlx::PgConnection, name: &str) -> anyhow::Result<bool> {
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
        .bind(name)
        .fetch_one(&mut *conn)
        .await?;
    Ok(exists)
}

/// A hash (64-bit FNV-1a, the same in every process and build) of the versions and checksums
/// of the server's migrations.
async fn migrations_key() -> anyhow::Result<u64> {
    let migrator = sqlx::migrate::Migrator::new(std::path::Path::new(MIGRATIONS)).await?;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for migration in migrator.iter() {
        for byte in migration.version.to_le_bytes().iter().chain(migration.checksum.iter()) {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    Ok(hash)
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

/// Runs `test` against a server on each backend in turn, then drops the databases; tier 1
/// (`scripts/test`) runs both. For a test whose point is what the database does: SQL that
/// differs between SQLite and PostgreSQL, transactions and concurrent writers, migrations, and
/// state kept across restarts or shared by replicas. A test about the API, whose database only
/// holds what the API needs, takes [`api_on_both_backends!`] instead.
///
/// The PostgreSQL tests of tier 1, by module:
/// - `jobs`: every test: the queue and its leases, uploads committed in small transactions,
///   priorities, dead nodes' chunks, NUL characters (which PostgreSQL's text refuses);
/// - `keys`: `a_key_sees_only_its_own_jobs` (jobs listed and cancelled by owner);
/// - `noise`: `audits_count_rates_directly` and `count_windows_follow_the_trainers_steps`
///   (tallies and steps upserted per window);
/// - `rlpr`: both filter tests (the moving average per run, shared by replicas, moved once per
///   step); `rlpr_remote`: `a_runs_baseline_is_kept_in_the_database_across_restarts`;
/// - `rubric`: `stored_rubrics_keep_their_versions` and
///   `identical_prompts_are_served_from_the_cache` (the judge cache table);
/// - `api`: `result_cache_answers_repeated_items` (the result cache table) and
///   `postgres_is_reachable`;
/// - `runs`, `retention`, `scoring_log` and `upgrades`: every test;
/// - the tests that run on PostgreSQL alone, all about replicas or PostgreSQL itself:
///   `episodes::episodes_on_postgres_and_across_replicas`,
///   `jobs_kill::killing_one_of_two_postgres_replicas_loses_nothing`,
///   `keys::the_daily_quota_holds_across_replicas_and_restarts`,
///   `runs::replicas_add_to_the_same_pass_rates`,
///   `scoring_log::a_terminated_postgres_connection_loses_nothing` and
///   `upgrades::replicas_starting_together_migrate_once`.
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

/// Runs `test` against a server on each backend, like [`on_both_backends!`], for a test about
/// the API rather than the database: tier 1 runs it on SQLite, and only the full tier
/// (`scripts/test --full`) on PostgreSQL too, where the database holds the same rows through
/// the code that the tests of [`on_both_backends!`] prove on both.
#[macro_export]
macro_rules! api_on_both_backends {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() -> anyhow::Result<()> {
                ($body)($crate::Backend::Sqlite).await
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[ignore = "full tier (scripts/test --full): an API test, on SQLite in tier 1"]
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
