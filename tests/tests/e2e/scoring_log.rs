//! The scoring log keeps what it promised, on SQLite and PostgreSQL: every scored item has its
//! row under a burst larger than the writer's queue, a job chunk scored again adds no rows, a
//! write that fails on a lost connection or a locked database is retried, and the request id a
//! row carries is bounded.

use std::sync::Arc;
use std::time::Duration;

use referee_core::Budget;
use referee_server::config::{LogMode, ScoringLogConfig};
use referee_server::engine::Correction;
use referee_server::engine::{Engine, Persistence};
use referee_server::registry::Registry;
use referee_server::store::{Storage, WriterLimits, spawn_writer};
use referee_tests::{Backend, TestServer, exact_item, on_both_backends};
use serde_json::{Value, json};
use sqlx::Connection as _;

fn logged(config: &mut referee_server::Config) {
    config.scoring_log.mode = LogMode::All;
    config.scoring_log.flush_interval_ms = 5;
}

fn batch(request: usize, items: usize) -> Value {
    let items: Vec<Value> =
        (0..items).map(|i| exact_item(&format!("{request}-{i}"), &format!("answer {i}"), "answer 0")).collect();
    json!({ "items": items })
}

on_both_backends!(rows_equal_items_scored_under_a_burst, |backend| async move {
    // A queue far smaller than the burst: rows must wait for room, not be dropped.
    let mut server = TestServer::start_with(backend, |config| {
        logged(config);
        config.scoring_log.queue_capacity = 50;
        config.scoring_log.enqueue_timeout_ms = 60_000;
    })
    .await?;
    let (requests, items) = (16, 250);
    let mut tasks = Vec::new();
    for request in 0..requests {
        let (client, url, body) = (server.client.clone(), server.url("/v1/score"), batch(request, items));
        tasks.push(tokio::spawn(async move { client.post(url).json(&body).send().await.map(|r| r.status()) }));
    }
    for task in tasks {
        assert_eq!(task.await??.as_u16(), 200);
    }
    server.stop().await?;
    let expected = i64::try_from(requests * items)?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log").await?, expected);
    assert_eq!(server.query_i64("SELECT COUNT(DISTINCT request_id) FROM scoring_log").await?, 16);
    server.finish().await
});

/// A database for an engine driven directly, as a job worker drives it.
async fn database(backend: Backend) -> anyhow::Result<(String, Option<tempfile::TempDir>, Option<String>)> {
    Ok(match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir()?;
            (format!("sqlite://{}", dir.path().join("referee.db").display()), Some(dir), None)
        }
        Backend::Postgres => {
            let (name, url) = referee_tests::create_postgres_database().await?;
            (url, None, Some(name))
        }
    })
}

on_both_backends!(a_chunk_scored_again_adds_no_rows, |backend| async move {
    let (url, _dir, postgres) = database(backend).await?;
    let storage = Storage::open(&url, 4).await?;
    let limits = WriterLimits {
        capacity: 1_000,
        flush_interval: Duration::from_millis(5),
        enqueue_timeout: Duration::from_secs(60),
        retry_window: Duration::from_secs(30),
    };
    let (queue, writer) = spawn_writer(storage.clone(), limits);
    let engine = Engine::new(Arc::new(Registry::builtin()));
    let log = ScoringLogConfig { mode: LogMode::All, ..ScoringLogConfig::default() };
    engine.attach(Persistence { storage: storage.clone(), queue, log, cache: false });
    let lines = || -> Vec<Result<Value, String>> {
        let mut lines: Vec<Result<Value, String>> = (0..20).map(|i| Ok(exact_item(&i.to_string(), "a", "a"))).collect();
        lines.push(Err("line 21 is not JSON".to_owned()));
        lines
    };
    // The chunk's first worker died after scoring it; its successor scores it again.
    for _ in 0..2 {
        let results = engine.score_lines(lines(), Budget::unlimited(), "job-7:0").await;
        assert_eq!(results.len(), 21);
    }
    // Another chunk of the same job is logged in full.
    engine.score_lines(lines(), Budget::unlimited(), "job-7:1").await;
    // Requests are not replays: the same items sent twice are scored, and logged, twice.
    for _ in 0..2 {
        let items: Vec<Value> = (0..5).map(|i| exact_item(&i.to_string(), "a", "a")).collect();
        let shape = referee_server::engine::ItemShape::Named;
        engine.score(items, shape, Correction::None, Budget::unlimited(), "same-request-id").await;
    }
    writer.finish().await;
    let count = |sql: &'static str| {
        let storage = storage.clone();
        async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(storage.pool()).await }
    };
    assert_eq!(count("SELECT COUNT(*) FROM scoring_log WHERE request_id = 'job-7:0'").await?, 20);
    assert_eq!(count("SELECT COUNT(*) FROM scoring_log WHERE request_id = 'job-7:1'").await?, 20);
    assert_eq!(count("SELECT COUNT(*) FROM scoring_log WHERE request_id = 'same-request-id'").await?, 10);
    storage.close().await;
    if let Some(name) = postgres {
        referee_tests::drop_postgres_database(&name).await?;
    }
    Ok(())
});

/// PostgreSQL: the writer's connection is terminated (`pg_terminate_backend`) while its insert
/// waits on a lock the test holds; the batch is written on a fresh connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminated_postgres_connection_loses_nothing() -> anyhow::Result<()> {
    let mut server = TestServer::start_with(Backend::Postgres, logged).await?;
    let mut locker = sqlx::PgConnection::connect(&server.database_url).await?;
    sqlx::query("BEGIN").execute(&mut locker).await?;
    sqlx::query("LOCK TABLE scoring_log IN SHARE MODE").execute(&mut locker).await?;
    let (status, _) = server.post("/v1/score", &batch(0, 30)).await?;
    assert_eq!(status, 200);
    // pg_stat_activity is a snapshot within a transaction: watch from outside the locker's.
    let mut watcher = sqlx::PgConnection::connect(&server.database_url).await?;
    let mut terminated = 0;
    for _ in 0..2_000 {
        terminated = sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock' \
             AND backend_type = 'client backend' AND query LIKE '%INSERT INTO scoring_log%'",
        )
        .fetch_one(&mut watcher)
        .await?;
        if terminated > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(terminated >= 1, "the writer's insert never waited on the lock");
    sqlx::query("ROLLBACK").execute(&mut locker).await?;
    locker.close().await?;
    watcher.close().await?;
    server.stop().await?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log").await?, 30);
    server.finish().await
}

/// SQLite: another process holds the write lock past the busy timeout, so the writer's
/// transaction fails with SQLITE_BUSY; the batch is written once the lock is released.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_sqlite_database_loses_nothing() -> anyhow::Result<()> {
    let mut server = TestServer::start_with(Backend::Sqlite, logged).await?;
    let mut locker = sqlx::SqliteConnection::connect(&server.database_url).await?;
    sqlx::query("BEGIN EXCLUSIVE").execute(&mut locker).await?;
    let (status, _) = server.post("/v1/score", &batch(0, 30)).await?;
    assert_eq!(status, 200);
    // Longer than the server's busy timeout (5 s): its first attempt fails.
    tokio::time::sleep(Duration::from_secs(6)).await;
    sqlx::query("COMMIT").execute(&mut locker).await?;
    locker.close().await?;
    server.stop().await?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log").await?, 30);
    server.finish().await
}

on_both_backends!(long_or_odd_request_ids_are_replaced, |backend| async move {
    let mut server = TestServer::start_with(backend, logged).await?;
    let long = "a".repeat(64 * 1024);
    for _ in 0..4 {
        let response = server
            .client
            .post(server.url("/v1/score"))
            .header("x-request-id", &long)
            .json(&batch(0, 10))
            .send()
            .await?;
        assert_eq!(response.status().as_u16(), 200);
        let answered = response.headers().get("x-request-id").map(|v| v.as_bytes().len());
        assert!(answered.is_some_and(|len| (1..=128).contains(&len)), "{answered:?}");
    }
    for odd in ["two words", "semi;colon", "quote\"d", "tab\there"] {
        let response =
            server.client.post(server.url("/v1/score")).header("x-request-id", odd).json(&batch(0, 1)).send().await?;
        assert_eq!(response.status().as_u16(), 200);
        assert_ne!(response.headers().get("x-request-id").map(|v| v.as_bytes()), Some(odd.as_bytes()));
    }
    let kept = "run-7/step:12.a_b+c=d@e";
    let exactly = "b".repeat(128);
    for id in [kept, exactly.as_str()] {
        let response =
            server.client.post(server.url("/v1/score")).header("x-request-id", id).json(&batch(0, 1)).send().await?;
        assert_eq!(response.headers().get("x-request-id").and_then(|v| v.to_str().ok()), Some(id));
    }
    server.stop().await?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log").await?, 40 + 4 + 2);
    assert!(server.query_i64("SELECT MAX(LENGTH(request_id)) FROM scoring_log").await? <= 128);
    // 46 rows whose ids are at most 128 bytes: nothing of the 256 KiB the clients sent is kept.
    assert!(server.query_i64("SELECT SUM(LENGTH(request_id)) FROM scoring_log").await? <= 46 * 128);
    assert_eq!(
        server.query_i64("SELECT COUNT(*) FROM scoring_log WHERE request_id = 'run-7/step:12.a_b+c=d@e'").await?,
        1
    );
    server.finish().await
});
