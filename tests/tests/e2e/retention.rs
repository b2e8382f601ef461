//! Retention on SQLite and PostgreSQL: rows past their age go and newer ones stay, row caps keep
//! the newest, unfinished jobs and the noise counts a model still reads are never touched, and
//! a running server's background task trims its tables and reports them in `/metrics`.

use std::time::Duration;

use referee_server::config::LogMode;
use referee_server::store::retention::{RetentionConfig, RunRetention, TableRetention, run_once};
use referee_server::store::{Storage, now_ms};
use referee_tests::{TestServer, exact_item, on_both_backends};
use serde_json::{Value, json};
use sqlx::Connection as _;

const DAY_MS: i64 = 86_400_000;

/// Runs statements on the test database with a connection of its own.
async fn execute(url: &str, statements: &[String]) -> anyhow::Result<()> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await?;
    for statement in statements {
        sqlx::query(sqlx::AssertSqlSafe(statement.clone())).execute(&mut conn).await?;
    }
    conn.close().await?;
    Ok(())
}

/// One scalar from the test database.
async fn scalar(url: &str, sql: &str) -> anyhow::Result<i64> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await?;
    let value: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned())).fetch_one(&mut conn).await?;
    conn.close().await?;
    Ok(value)
}

async fn score(server: &TestServer, request: &str, items: usize) -> anyhow::Result<()> {
    let items: Vec<Value> =
        (0..items).map(|i| exact_item(&format!("{request}-{i}"), &format!("{request} {i}"), "x")).collect();
    let response = server
        .client
        .post(server.url("/v1/score"))
        .header("x-request-id", request)
        .json(&json!({ "items": items }))
        .send()
        .await?;
    anyhow::ensure!(response.status().as_u16() == 200, "scoring failed: {}", response.status());
    Ok(())
}

/// Submits a job of `items` items and waits until it is done; returns its id.
async fn finished_job(server: &TestServer, items: usize) -> anyhow::Result<String> {
    let body: Vec<String> = (0..items)
        .map(|i| json!({"id": i, "verifier": "exact-match", "input": {"response": "a", "reference": "a"}}).to_string())
        .collect();
    let response = server
        .client
        .post(server.url("/v1/jobs?chunk_size=2"))
        .header("content-type", "application/x-ndjson")
        .body(body.join("\n"))
        .send()
        .await?;
    anyhow::ensure!(response.status().as_u16() == 201, "upload failed: {}", response.status());
    let job: Value = response.json().await?;
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    for _ in 0..1200 {
        let (_, job) = server.get(&format!("/v1/jobs/{id}")).await?;
        if job["state"] == "done" {
            return Ok(id);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("job {id} did not finish")
}

/// Rows of a job in each of its tables: jobs, items, chunks, results.
async fn job_rows(url: &str, id: &str) -> anyhow::Result<[i64; 4]> {
    let mut counts = [0; 4];
    for (count, table) in counts.iter_mut().zip(["jobs", "job_items", "job_chunks", "job_results"]) {
        let column = if table == "jobs" { "id" } else { "job_id" };
        *count = scalar(url, &format!("SELECT COUNT(*) FROM {table} WHERE {column} = '{id}'")).await?;
    }
    Ok(counts)
}

/// Noise rows: a model with a sliding window of 2 steps at step 10 and one reading every count,
/// each with counts at steps 1 to 10 (steps 1 to 5 old); overturns old and new.
fn noise_rows(now: i64) -> Vec<String> {
    let old = now - 100 * DAY_MS;
    let mut rows = Vec::new();
    for (label, settings) in [("windowed", r#"{"window": {"kind": "sliding", "steps": 2}}"#), ("every", "{}")] {
        rows.push(format!(
            "INSERT INTO noise_settings (verifier, verifier_version, label, settings, updated_at_ms) \
             VALUES ('exact-match', '1', '{label}', '{settings}', {old})"
        ));
        rows.push(format!(
            "INSERT INTO noise_steps (verifier, verifier_version, label, step, updated_at_ms) \
             VALUES ('exact-match', '1', '{label}', 10, {old})"
        ));
        for step in 1..=10 {
            let at = if step <= 5 { old } else { now };
            rows.push(format!(
                "INSERT INTO noise_counts (verifier, verifier_version, label, kind, step, observed_positive, \
                 observed_negative, checked_positive, overturned_positive, checked_negative, overturned_negative, \
                 updated_at_ms) VALUES ('exact-match', '1', '{label}', 'appeal', {step}, 5, 5, 1, 0, 1, 0, {at})"
            ));
        }
    }
    for at in [old, old, now] {
        rows.push(format!(
            "INSERT INTO noise_overturns (verifier, verifier_version, label, item_id, verdict_status, verdict_score, \
             checker, checker_status, checker_score, checker_details, input, created_at_ms) VALUES ('exact-match', \
             '1', 'windowed', NULL, 'correct', 1.0, 'math', 'incorrect', 0.0, '{{}}', '{{}}', {at})"
        ));
    }
    for (hash, at) in [("old", now - 40 * DAY_MS), ("new", now)] {
        rows.push(format!(
            "INSERT INTO judge_cache (model, prompt_hash, reply, created_at_ms) VALUES ('judge', '{hash}', '{{}}', {at})"
        ));
    }
    // Episodes whose last step is 40 days old (one ended, one a lost replica left live) and a
    // recent one, each with two steps.
    for (id, status, at) in
        [("ep_a_old", "done", now - 40 * DAY_MS), ("ep_a_lost", "live", now - 40 * DAY_MS), ("ep_a_new", "done", now)]
    {
        rows.push(format!(
            "INSERT INTO episodes (id, environment, replica, options, status, turns, total_reward, created_at_ms, \
             updated_at_ms) VALUES ('{id}', 'np-feedback', 'a', '{{}}', '{status}', 1, 0, {at}, {at})"
        ));
        for turn in 0..2 {
            rows.push(format!(
                "INSERT INTO episode_steps (episode_id, turn, action, observation, reward, done, elapsed_us, at_ms) \
                 VALUES ('{id}', {turn}, NULL, '{{}}', 0, 0, 1, {at})"
            ));
        }
    }
    rows
}

/// Run rows: statistics of an old step and of a recent one, and samples 100 days old, recent
/// and newest (a millisecond apart).
fn run_rows(now: i64) -> Vec<String> {
    let old = now - 100 * DAY_MS;
    let mut rows = vec![format!(
        "INSERT INTO runs (run, items, first_step, last_step, created_at_ms, updated_at_ms) VALUES ('r', 2, 1, 2, {old}, {now})"
    )];
    for (step, at) in [(1, old), (2, now)] {
        rows.push(format!(
            "INSERT INTO run_scores (run, step, verifier, score, status, items, latency_us_sum, unprompted, \
             updated_at_ms) VALUES ('r', {step}, 'math', 1.0, 'correct', 1, 10, 0, {at})"
        ));
    }
    for (id, at) in [("smp_old", old), ("smp_recent", now), ("smp_newest", now + 1)] {
        rows.push(format!(
            "INSERT INTO run_samples (id, run, step, verifier, status, score, latency_us, response, response_bytes, \
             details, truncated, created_at_ms) VALUES ('{id}', 'r', 2, 'math', 'correct', 1.0, 10, '4', 1, '{{}}', 0, {at})"
        ));
    }
    rows
}

on_both_backends!(expired_rows_go_and_the_rest_stays, |backend| async move {
    let mut server = TestServer::start_with(backend, |config| {
        config.scoring_log.mode = LogMode::All;
        config.scoring_log.flush_interval_ms = 5;
        config.cache.enabled = true;
        config.jobs.poll_interval_ms = 50;
        // The pass under test is run by hand below.
        config.retention.interval_ms = 3_600_000;
    })
    .await?;
    // Request ids of their own: the process replaces an id it has seen (the other backend's test).
    let tag = format!("{backend:?}-{}", now_ms());
    let (old_id, new_id) = (format!("old-{tag}"), format!("new-{tag}"));
    score(&server, &old_id, 10).await?;
    score(&server, &new_id, 10).await?;
    let mut jobs = Vec::new();
    for _ in 0..6 {
        jobs.push(finished_job(&server, 5).await?);
    }
    server.stop().await?;
    let url = server.database_url.clone();
    let [old_done, new_done, running, uploading, cancelled, older_done] = jobs.as_slice() else {
        anyhow::bail!("six jobs expected");
    };
    let now = now_ms();
    let (old, recent, future) = (now - 40 * DAY_MS, now - DAY_MS, now + DAY_MS);
    let mut age = vec![
        // Only the two requests' rows: the jobs logged theirs too.
        format!("DELETE FROM scoring_log WHERE request_id NOT IN ('{old_id}', '{new_id}')"),
        format!("UPDATE scoring_log SET created_at_ms = {old} WHERE request_id = '{old_id}'"),
        format!("UPDATE scoring_log SET created_at_ms = {recent} + item_index WHERE request_id = '{new_id}'"),
        format!(
            "UPDATE result_cache SET created_at_ms = {} WHERE input_hash IN \
                 (SELECT item_hash FROM scoring_log WHERE request_id = '{old_id}')",
            now - 8 * DAY_MS
        ),
        format!(
            "UPDATE jobs SET created_at_ms = {old}, finished_at_ms = {old} WHERE id IN ('{old_done}', '{running}', '{uploading}')"
        ),
        format!("UPDATE jobs SET finished_at_ms = {} WHERE id = '{older_done}'", recent - DAY_MS),
        // Still running: a chunk under a live lease, as a worker holds it.
        format!("UPDATE jobs SET finished_at_ms = NULL WHERE id = '{running}'"),
        format!(
            "UPDATE job_chunks SET state = 'running', lease_expires_ms = {future} WHERE job_id = '{running}' AND chunk_index = 0"
        ),
        format!(
            "UPDATE jobs SET finished_at_ms = NULL, state = 'uploading', upload_expires_ms = {future} WHERE id = '{uploading}'"
        ),
        format!(
            "UPDATE jobs SET finished_at_ms = NULL, state = 'cancelled', created_at_ms = {old} WHERE id = '{cancelled}'"
        ),
    ];
    age.extend(noise_rows(now));
    age.extend(run_rows(now));
    execute(&url, &age).await?;
    let cached = scalar(&url, "SELECT COUNT(*) FROM result_cache").await?;
    anyhow::ensure!(cached > 0, "the cache has rows to expire");

    let storage = Storage::open(&url, 2).await?;
    // Batches of 3 rows: every table needs several statements.
    let config = RetentionConfig { batch_rows: 3, ..RetentionConfig::default() };
    let report = run_once(&storage, &config).await?;
    assert_eq!(report.deleted_from("scoring_log"), 10, "{report}");
    let logged = |id: &str| format!("SELECT COUNT(*) FROM scoring_log WHERE request_id = '{id}'");
    assert_eq!(scalar(&url, &logged(&old_id)).await?, 0);
    assert_eq!(scalar(&url, &logged(&new_id)).await?, 10);
    assert!(report.deleted_from("result_cache") > 0, "{report}");
    assert_eq!(
        scalar(&url, "SELECT COUNT(*) FROM result_cache").await?,
        cached - i64::try_from(report.deleted_from("result_cache"))?
    );
    // The old done job and the cancelled one go whole; the running and the uploading stay.
    assert_eq!(job_rows(&url, old_done).await?, [0; 4]);
    assert_eq!(job_rows(&url, cancelled).await?, [0; 4]);
    assert_eq!(job_rows(&url, new_done).await?, [1, 5, 3, 5]);
    assert_eq!(job_rows(&url, running).await?[..3], [1, 5, 3]);
    assert_eq!(job_rows(&url, uploading).await?[..3], [1, 5, 3]);
    assert_eq!(report.deleted_from("jobs"), 2, "{report}");
    // Steps 1 to 5 are old and outside the window (9 and 10): they go; 6 to 8 are recent.
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM noise_counts WHERE label = 'windowed'").await?, 5);
    assert_eq!(scalar(&url, "SELECT MIN(step) FROM noise_counts WHERE label = 'windowed'").await?, 6);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM noise_counts WHERE label = 'every'").await?, 10);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM noise_settings").await?, 2);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM noise_steps").await?, 2);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM noise_overturns").await?, 1);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM judge_cache").await?, 1);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM episodes").await?, 1);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM episode_steps WHERE episode_id = 'ep_a_new'").await?, 2);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM episode_steps").await?, 2);
    assert_eq!((report.deleted_from("episodes"), report.deleted_from("episode_steps")), (2, 4), "{report}");
    // The old step's statistics and the old sample go; the run, updated since, stays.
    assert_eq!(scalar(&url, "SELECT MIN(step) FROM run_scores").await?, 2);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM run_samples").await?, 2);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM runs").await?, 1);
    // A second pass finds nothing more.
    assert_eq!(run_once(&storage, &config).await?.total(), 0);

    // Row caps keep the newest: the scoring log's rows are a millisecond apart.
    let capped = RetentionConfig {
        batch_rows: 2,
        scoring_log: TableRetention { max_age_secs: 0, max_rows: 4 },
        jobs: TableRetention { max_age_secs: 0, max_rows: 1 },
        runs: RunRetention { max_age_secs: 0, max_samples: 1 },
        ..RetentionConfig::default()
    };
    let report = run_once(&storage, &capped).await?;
    assert_eq!(report.deleted_from("scoring_log"), 6, "{report}");
    assert_eq!(scalar(&url, "SELECT MIN(item_index) FROM scoring_log").await?, 6);
    // Of the two finished jobs, the one that finished last stays.
    assert_eq!(job_rows(&url, new_done).await?, [1, 5, 3, 5]);
    assert_eq!(job_rows(&url, older_done).await?, [0; 4]);
    assert_eq!(job_rows(&url, running).await?[..3], [1, 5, 3]);
    assert_eq!(report.deleted_from("run_samples"), 1, "{report}");
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM run_samples WHERE id = 'smp_newest'").await?, 1);
    // Rows sharing one time: the cap still holds exactly.
    execute(&url, &[format!("UPDATE scoring_log SET created_at_ms = {now}")]).await?;
    let tied = RetentionConfig { scoring_log: TableRetention { max_age_secs: 0, max_rows: 3 }, ..capped };
    assert_eq!(run_once(&storage, &tied).await?.deleted_from("scoring_log"), 1);
    assert_eq!(scalar(&url, "SELECT COUNT(*) FROM scoring_log").await?, 3);
    storage.close().await;
    server.finish().await
});

on_both_backends!(a_running_server_trims_its_tables, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.scoring_log.mode = LogMode::All;
        config.scoring_log.flush_interval_ms = 5;
        config.retention.interval_ms = 50;
    })
    .await?;
    let tag = format!("{backend:?}-{}", now_ms());
    let (aged, fresh) = (format!("aged-{tag}"), format!("fresh-{tag}"));
    let logged = |id: &str| format!("SELECT COUNT(*) FROM scoring_log WHERE request_id = '{id}'");
    score(&server, &aged, 20).await?;
    let url = server.database_url.clone();
    let mut written = 0;
    for _ in 0..600 {
        written = scalar(&url, &logged(&aged)).await?;
        if written == 20 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(written, 20);
    execute(&url, &[format!("UPDATE scoring_log SET created_at_ms = {}", now_ms() - 31 * DAY_MS)]).await?;
    score(&server, &fresh, 5).await?;
    for _ in 0..600 {
        if scalar(&url, &logged(&fresh)).await? == 5 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut left = written;
    for _ in 0..600 {
        left = scalar(&url, &logged(&aged)).await?;
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(left, 0, "the background task deletes the aged rows");
    let mut metrics = String::new();
    for _ in 0..600 {
        metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
        if metrics.contains("referee_table_rows{table=\"scoring_log\"}") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for series in [
        "referee_retention_deleted_rows_total{table=\"scoring_log\"}",
        "referee_table_rows{table=\"scoring_log\"}",
        "referee_table_rows{table=\"job_results\"}",
        "referee_table_rows{table=\"noise_counts\"}",
    ] {
        assert!(metrics.contains(series), "{series} missing from /metrics");
    }
    assert_eq!(scalar(&url, &logged(&fresh)).await?, 5);
    server.finish().await
});
