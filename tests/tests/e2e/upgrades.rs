//! What docs/deployment.md says about migrations while replicas run, on SQLite and PostgreSQL:
//! a server started on a database an earlier start migrated starts and finds the earlier rows;
//! servers starting together on one fresh PostgreSQL database all become ready (sqlx's advisory
//! lock); a database that a newer release migrated stops an older binary's start.

use referee_server::Config;
use referee_server::config::LogMode;
use referee_tests::{Backend, TestServer, exact_item, on_both_backends};
use serde_json::json;

/// The configuration of a test server on `database_url`, logging every item.
fn config_on(database_url: &str) -> anyhow::Result<Config> {
    let mut config = referee_tests::server_config(database_url)?;
    config.scoring_log.mode = LogMode::All;
    Ok(config)
}

/// Scores two items on the server at `base`; both must be judged.
async fn score_two(client: &reqwest::Client, base: &str) -> anyhow::Result<()> {
    let body = json!({"items": [exact_item("a", "Paris", "Paris"), exact_item("b", "Rome", "Paris")]});
    let response = client.post(format!("{base}/v1/score")).json(&body).send().await?;
    anyhow::ensure!(response.status() == 200, "scoring answered {}", response.status());
    Ok(())
}

on_both_backends!(a_database_migrated_before_serves_the_next_start, |backend| async move {
    let mut first = TestServer::start_with(backend, |config| config.scoring_log.mode = LogMode::All).await?;
    score_two(&first.client, &first.base).await?;
    first.stop().await?;
    let migrations = first.query_i64("SELECT COUNT(*) FROM _sqlx_migrations").await?;

    // The same binary again: every migration is recorded, none runs twice.
    let second = referee_server::start(&config_on(&first.database_url)?).await?;
    let base = format!("http://{}", second.addr());
    let ready = first.client.get(format!("{base}/readyz")).send().await?.status();
    assert_eq!(ready, 200);
    score_two(&first.client, &base).await?;
    second.shutdown().await?;
    assert_eq!(first.query_i64("SELECT COUNT(*) FROM _sqlx_migrations").await?, migrations);
    assert_eq!(first.query_i64("SELECT COUNT(*) FROM scoring_log").await?, 4, "the first start's rows are kept");
    first.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn replicas_starting_together_migrate_once() -> anyhow::Result<()> {
    let (name, url) = referee_tests::create_empty_postgres_database().await?;
    let config = config_on(&url)?;
    // Spawned, so the three starts race for the migration lock.
    let starts: Vec<_> = (0..3)
        .map(|_| {
            let config = config.clone();
            tokio::spawn(async move { referee_server::start(&config).await })
        })
        .collect();
    let mut servers = Vec::new();
    for start in starts {
        servers.push(start.await??);
    }
    let client = reqwest::Client::new();
    for server in &servers {
        let base = format!("http://{}", server.addr());
        assert_eq!(client.get(format!("{base}/readyz")).send().await?.status(), 200);
        score_two(&client, &base).await?;
    }
    for server in servers {
        server.shutdown().await?;
    }
    let migrations = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../server/migrations"))?.count();
    let recorded = {
        use sqlx::Connection as _;
        let mut conn = sqlx::PgConnection::connect(&url).await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations").fetch_one(&mut conn).await?;
        conn.close().await?;
        count
    };
    assert_eq!(usize::try_from(recorded)?, migrations, "each migration recorded once");
    referee_tests::drop_postgres_database(&name).await
}

on_both_backends!(a_migration_from_a_newer_release_stops_the_start, |backend| async move {
    let mut first = TestServer::start(backend).await?;
    first.stop().await?;
    // What a newer release's migration leaves behind: a recorded version this binary lacks.
    let record = match backend {
        Backend::Sqlite => {
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (99990101000000, 'from a newer release', TRUE, X'00', 0)"
        }
        Backend::Postgres => {
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (99990101000000, 'from a newer release', TRUE, '\\x00', 0)"
        }
    };
    assert_eq!(first.execute(record).await?, 1);
    let error = match referee_server::start(&config_on(&first.database_url)?).await {
        Ok(server) => {
            server.shutdown().await?;
            anyhow::bail!("a server started on a database migrated past its own migrations");
        }
        Err(error) => format!("{error:#}"),
    };
    assert!(error.contains("99990101000000") && error.contains("missing"), "{error}");
    first.finish().await
});
