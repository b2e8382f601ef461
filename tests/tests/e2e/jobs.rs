//! Batch scoring jobs over HTTP, on SQLite and PostgreSQL.

use std::time::Duration;

use referee_server::config::JobsConfig;
use referee_server::features::jobs::JobStore;
use referee_tests::{Backend, TestServer, api_on_both_backends, on_both_backends};
use serde_json::{Value, json};
use sqlx::Connection as _;

/// Polls the job until it is done (or the deadline passes) and returns its status.
async fn wait_done(server: &TestServer, id: &str) -> anyhow::Result<Value> {
    for _ in 0..1200 {
        let (status, job) = server.get(&format!("/v1/jobs/{id}")).await?;
        anyhow::ensure!(status == 200, "status {status}: {job}");
        if job["state"] == "done" {
            return Ok(job);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("job {id} did not finish")
}

async fn submit(server: &TestServer, body: String, query: &str) -> anyhow::Result<(u16, Value)> {
    let response = server
        .client
        .post(server.url(&format!("/v1/jobs{query}")))
        .header("content-type", "application/x-ndjson")
        .body(body)
        .send()
        .await?;
    let status = response.status().as_u16();
    Ok((status, response.json().await?))
}

async fn results(server: &TestServer, id: &str) -> anyhow::Result<Vec<Value>> {
    let response = server.client.get(server.url(&format!("/v1/jobs/{id}/results"))).send().await?;
    anyhow::ensure!(response.status().as_u16() == 200);
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    anyhow::ensure!(content_type == "application/x-ndjson", "{content_type}");
    let text = response.text().await?;
    text.lines().map(|l| Ok(serde_json::from_str(l)?)).collect()
}

fn lines(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            json!({"id": format!("item-{i}"), "verifier": "exact-match", "input": {"response": (i % 4).to_string(), "reference": "0"}})
                .to_string()
        })
        .collect()
}

on_both_backends!(a_job_is_scored_once_in_order, |backend| async move {
    let server = TestServer::start_with(backend, |config| config.jobs.poll_interval_ms = 50).await?;
    let mut upload = lines(2500);
    upload.insert(1000, "{not json".to_owned());
    let (status, job) = submit(&server, upload.join("\n") + "\n", "?chunk_size=300").await?;
    assert_eq!(status, 201, "{job}");
    assert_eq!(job["total_items"], 2501);
    assert_eq!(job["chunks_total"], 9);
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    let done = wait_done(&server, &id).await?;
    assert_eq!((done["scored_items"].as_u64(), done["chunks_done"].as_u64()), (Some(2501), Some(9)));
    assert!(done["finished_at_ms"].is_i64());

    let results = results(&server, &id).await?;
    assert_eq!(results.len(), 2501);
    for (i, result) in results.iter().enumerate() {
        assert_eq!(result["index"], i);
    }
    assert_eq!(results[0]["id"], "item-0");
    assert_eq!(results[0]["status"], "correct");
    assert_eq!(results[1]["status"], "incorrect");
    assert_eq!(results[1000]["status"], "invalid_input");
    assert_eq!(results[2500]["id"], "item-2499");
    let correct = results.iter().filter(|r| r["status"] == "correct").count();
    assert_eq!(correct, 625);
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM job_results").await?, 2501);

    // A worker that stopped between committing the last chunk and stamping the job leaves every
    // chunk done and no finish time: the status still reads `done`, with a finish time.
    assert_eq!(server.execute("UPDATE jobs SET finished_at_ms = NULL").await?, 1);
    let (status, job) = server.get(&format!("/v1/jobs/{id}")).await?;
    assert_eq!(status, 200);
    assert_eq!(job["state"], "done", "{job}");
    assert!(job["finished_at_ms"].is_i64(), "{job}");
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs WHERE finished_at_ms IS NOT NULL").await?, 1);
    server.finish().await
});

on_both_backends!(jobs_can_be_cancelled_and_errors_are_clear, |backend| async move {
    let server = TestServer::start_with(backend, |config| config.jobs.workers = 0).await?;
    let (status, job) = submit(&server, lines(10).join("\n"), "").await?;
    assert_eq!(status, 201);
    assert_eq!(job["state"], "queued");
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    let response = server.client.delete(server.url(&format!("/v1/jobs/{id}"))).send().await?;
    assert_eq!(response.status().as_u16(), 200);
    let cancelled: Value = response.json().await?;
    assert_eq!(cancelled["state"], "cancelled");
    assert_eq!(results(&server, &id).await?.len(), 0);

    let (status, error) = server.get("/v1/jobs/job_nope").await?;
    assert_eq!((status, error["code"].as_str()), (404, Some("unknown_job")));
    let (status, error) = submit(&server, "\n\n".to_owned(), "").await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")));
    let (status, error) = submit(&server, lines(1).join("\n"), "?chunk_size=0").await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")));
    let (status, error) = server.post("/v1/jobs", &json!({"path": "/etc/passwd"})).await?;
    assert_eq!((status, error["code"].as_str()), (403, Some("path_not_allowed")));
    let response =
        server.client.post(server.url("/v1/jobs")).header("content-type", "text/csv").body("a,b").send().await?;
    assert_eq!(response.status().as_u16(), 415);
    server.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_side_paths_only_inside_allowed_directories() -> anyhow::Result<()> {
    let allowed = tempfile::tempdir()?;
    let outside = tempfile::tempdir()?;
    let inside_file = allowed.path().join("items.jsonl");
    std::fs::write(&inside_file, lines(5).join("\n"))?;
    let outside_file = outside.path().join("items.jsonl");
    std::fs::write(&outside_file, lines(5).join("\n"))?;
    let dir = allowed.path().to_owned();
    let server = TestServer::start_with(Backend::Sqlite, move |config| {
        config.jobs.allowed_paths = vec![dir];
        config.jobs.poll_interval_ms = 50;
    })
    .await?;
    let (status, job) = server.post("/v1/jobs", &json!({"path": inside_file})).await?;
    assert_eq!(status, 201, "{job}");
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    wait_done(&server, &id).await?;
    assert_eq!(results(&server, &id).await?.len(), 5);
    let (status, _) = server.post("/v1/jobs", &json!({"path": outside_file})).await?;
    assert_eq!(status, 403);
    let escape = allowed.path().join("../").join(outside.path().file_name().unwrap_or_default()).join("items.jsonl");
    let (status, _) = server.post("/v1/jobs", &json!({"path": escape})).await?;
    assert_eq!(status, 403, "a path that walks out of the directory is refused");
    server.finish().await
}

/// Polls `sql` until it reads `want` (the background removal of a failed upload).
async fn wait_for(server: &TestServer, sql: &'static str, want: i64) -> anyhow::Result<()> {
    for _ in 0..600 {
        if server.query_i64(sql).await? == want {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("{sql} never read {want}")
}

on_both_backends!(uploads_commit_in_small_transactions_and_appear_only_when_complete, |backend| async move {
    // A long lease: the server's own sweep of expired uploads stays out of the way.
    let server = TestServer::start_with(backend, |config| {
        config.jobs.workers = 0;
        config.jobs.lease_ms = 3_600_000;
    })
    .await?;
    let store = JobStore::new(server.server().storage().clone(), &JobsConfig::default());
    let mut upload = store.begin_upload(100, 1).await?;
    let id = upload.id().to_owned();
    for line in lines(4500) {
        upload.push_line(&line).await?;
    }
    // Two transactions of items (and the chunks they fill) are committed while the upload goes
    // on, so other writers get the database between them.
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM job_items").await?, 4000);
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM job_chunks").await?, 40);
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs WHERE state = 'uploading'").await?, 1);
    // Yet nobody sees or works on the job before its last transaction.
    assert_eq!(store.status(&id).await?, None);
    assert_eq!(store.claim("test-worker", 60_000).await?, None);
    let (status, error) = server.get(&format!("/v1/jobs/{id}")).await?;
    assert_eq!((status, error["code"].as_str()), (404, Some("unknown_job")));
    assert_eq!(server.delete(&format!("/v1/jobs/{id}")).await?, 404);
    assert_eq!(server.get(&format!("/v1/jobs/{id}/results")).await?.0, 404);

    let job = upload.finish().await?;
    assert_eq!((job.total_items, job.chunks_total), (4500, 45));
    let (status, job) = server.get(&format!("/v1/jobs/{id}")).await?;
    assert_eq!((status, job["state"].as_str(), job["total_items"].as_u64()), (200, Some("queued"), Some(4500)));
    let claim = store.claim("test-worker", 60_000).await?.ok_or_else(|| anyhow::anyhow!("nothing to claim"))?;
    assert_eq!((claim.job_id.as_str(), claim.chunk_index, claim.item_count), (id.as_str(), 0, 100));

    // An upload abandoned half way (its request failed or went away) is removed entirely.
    let mut abandoned = store.begin_upload(100, 1).await?;
    for line in lines(2500) {
        abandoned.push_line(&line).await?;
    }
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM job_items").await?, 6500);
    drop(abandoned);
    wait_for(&server, "SELECT COUNT(*) FROM job_items", 4500).await?;
    wait_for(&server, "SELECT COUNT(*) FROM job_chunks", 45).await?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs").await?, 1);

    // An upload whose process died mid-way is removed once its upload lease expires.
    let short = JobsConfig { lease_ms: 1, ..JobsConfig::default() };
    let orphan = JobStore::new(server.server().storage().clone(), &short).begin_upload(100, 1).await?;
    std::mem::forget(orphan);
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(store.remove_expired_uploads().await?, 1);
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs").await?, 1);
    server.finish().await
});

api_on_both_backends!(a_key_held_twice_is_its_lines_invalid_input, |backend| async move {
    let server = TestServer::start_with(backend, |config| config.jobs.poll_interval_ms = 50).await?;
    let mut upload = lines(3);
    upload[1] =
        r#"{"id": "item-1", "verifier": "exact-match", "input": {"response": "x", "response": "1", "reference": "1"}}"#
            .to_owned();
    let (status, job) = submit(&server, upload.join("\n"), "").await?;
    assert_eq!(status, 201, "{job}");
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    wait_done(&server, &id).await?;
    let results = results(&server, &id).await?;
    let statuses: Vec<&str> = results.iter().map(|r| r["status"].as_str().unwrap_or_default()).collect();
    assert_eq!(statuses, ["correct", "invalid_input", "incorrect"], "{results:?}");
    assert!(results[1]["details"].to_string().contains("`response` appears twice"), "{}", results[1]);
    server.finish().await
});

on_both_backends!(a_nul_character_is_its_own_lines_invalid_input, |backend| async move {
    let server = TestServer::start_with(backend, |config| config.jobs.poll_interval_ms = 50).await?;
    let mut upload = lines(3);
    upload[1] = "{\"id\": \"item-1\u{0}\", \"verifier\": \"exact-match\", \"input\": {\"response\": \"0\", \"reference\": \"0\"}}"
        .to_owned();
    let (status, job) = submit(&server, upload.join("\n"), "").await?;
    assert_eq!(status, 201, "{job}");
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    wait_done(&server, &id).await?;
    let results = results(&server, &id).await?;
    let statuses: Vec<&str> = results.iter().map(|r| r["status"].as_str().unwrap_or_default()).collect();
    assert_eq!(statuses, ["correct", "invalid_input", "incorrect"], "{results:?}");
    assert!(results[1]["details"].to_string().contains("NUL"), "{}", results[1]);
    server.finish().await
});

on_both_backends!(items_per_job_are_capped, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.jobs.workers = 0;
        config.jobs.max_items = 2500;
        config.jobs.max_upload_bytes = 1 << 20;
    })
    .await?;
    let (status, error) = submit(&server, lines(2501).join("\n"), "").await?;
    assert_eq!((status, error["code"].as_str()), (413, Some("too_many_items")), "{error}");
    assert!(error["message"].as_str().unwrap_or_default().contains("2500"), "{error}");
    // The items stored before the cap was reached are removed with the upload.
    wait_for(&server, "SELECT COUNT(*) FROM job_items", 0).await?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs").await?, 0);
    let (status, job) = submit(&server, lines(2500).join("\n"), "").await?;
    assert_eq!((status, job["total_items"].as_u64()), (201, Some(2500)), "{job}");
    let (status, error) = submit(&server, lines(1).join("\n"), "?priority=0").await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")));

    // The body is read as it arrives, bounded by jobs.max_upload_bytes, and must be UTF-8.
    let big = "x".repeat(300 << 10) + "\n";
    let (status, error) = submit(&server, big.repeat(4), "").await?;
    assert_eq!((status, error["code"].as_str()), (413, Some("payload_too_large")), "{error}");
    let mut latin1 = lines(2500).join("\n").into_bytes();
    latin1.extend_from_slice(b"\n{\"id\": \"\xe9\"}\n");
    let response = server
        .client
        .post(server.url("/v1/jobs"))
        .header("content-type", "application/x-ndjson")
        .body(latin1)
        .send()
        .await?;
    assert_eq!(response.status().as_u16(), 400);
    let error: Value = response.json().await?;
    assert_eq!(error["code"], "malformed_json", "{error}");
    wait_for(&server, "SELECT COUNT(*) FROM jobs", 1).await?;
    wait_for(&server, "SELECT COUNT(*) FROM job_items", 2500).await?;
    server.finish().await
});

/// Submits `count` items in chunks of 10 at `priority` to a server without workers.
async fn submit_idle(server: &TestServer, count: usize, priority: u32) -> anyhow::Result<String> {
    let (status, job) = submit(server, lines(count).join("\n"), &format!("?chunk_size=10&priority={priority}")).await?;
    anyhow::ensure!(status == 201, "{job}");
    Ok(job["id"].as_str().unwrap_or_default().to_owned())
}

on_both_backends!(jobs_take_turns_by_priority_instead_of_arrival, |backend| async move {
    // Jobs are stored by a replica without workers, then worked by one replica with a single
    // worker: the order chunks are claimed in is the scheduler's alone.
    let idle = TestServer::start_with(backend, |config| config.jobs.workers = 0).await?;
    let huge = submit_idle(&idle, 600, 1).await?;
    let small = submit_idle(&idle, 20, 1).await?;
    let urgent = submit_idle(&idle, 300, 3).await?;
    let worker = idle
        .replica(|config| {
            config.jobs.workers = 1;
            config.jobs.poll_interval_ms = 50;
        })
        .await?;
    let mut finished = Vec::new();
    for id in [&huge, &small, &urgent] {
        let job = wait_done(&idle, id).await?;
        finished.push(job["finished_at_ms"].as_i64().unwrap_or_default());
    }
    let (huge_at, small_at, urgent_at) = (finished[0], finished[1], finished[2]);
    // Arrival order would finish the 60-chunk job first and the others after it.
    assert!(small_at < huge_at, "the small job waited for the huge one: {finished:?}");
    // Priority 3 is given three chunks per chunk of the priority-1 jobs: its 30 chunks are done
    // while the huge job still has about half of its 60 left.
    assert!(urgent_at < huge_at, "the priority job waited for the huge one: {finished:?}");
    assert!(small_at < urgent_at, "two chunks at priority 1 outlasted thirty at priority 3: {finished:?}");
    worker.finish().await?;
    idle.finish().await
});

on_both_backends!(a_restarted_node_takes_back_only_its_dead_predecessors_chunks, |backend| async move {
    let server = TestServer::start_with(backend, |config| config.jobs.workers = 0).await?;
    let (status, job) = submit(&server, lines(40).join("\n"), "?chunk_size=10").await?;
    assert_eq!(status, 201, "{job}");
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    // A process that has exited, and one still running, on this host.
    let mut exited = std::process::Command::new("true").spawn()?;
    exited.wait()?;
    let mut running = std::process::Command::new("sleep").arg("60").spawn()?;
    let dead = format!("{}-0badc0de-0-0", exited.id());
    let alive = format!("{}-0badc0de-0-0", running.id());
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&server.database_url).await?;
    let far = i64::MAX / 2;
    for (chunk, node, owner) in [(0i64, "node-a", &dead), (1, "node-a", &alive), (2, "node-b", &dead)] {
        sqlx::query(
            "UPDATE job_chunks SET state = 'running', lease_node = $1, lease_owner = $2, lease_expires_ms = $3, \
             attempts = 1 WHERE job_id = $4 AND chunk_index = $5",
        )
        .bind(node)
        .bind(owner.as_str())
        .bind(far)
        .bind(&id)
        .bind(chunk)
        .execute(&mut conn)
        .await?;
    }
    // An upload the dead process left half done.
    sqlx::query(
        "INSERT INTO jobs (id, state, total_items, chunk_size, chunks_total, created_at_ms, upload_node, upload_owner, \
         upload_expires_ms) VALUES ('job_orphan', 'uploading', 0, 10, 0, 0, 'node-a', $1, $2)",
    )
    .bind(dead.trim_end_matches("-0-0"))
    .bind(far)
    .execute(&mut conn)
    .await?;

    let config = JobsConfig { node_id: Some("node-a".to_owned()), ..JobsConfig::default() };
    let restarted = JobStore::new(server.server().storage().clone(), &config);
    // Only node-a's chunk whose holder is gone: the living holder keeps its lease, and node-b's
    // chunk waits for its lease to expire.
    assert_eq!(restarted.reclaim_dead_predecessors().await?, 1);
    let leases: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT chunk_index, lease_expires_ms FROM job_chunks WHERE state = 'running' ORDER BY chunk_index",
    )
    .fetch_all(&mut conn)
    .await?;
    assert_eq!(leases, [(0, 0), (1, far), (2, far)]);
    let orphans: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE id = 'job_orphan'").fetch_one(&mut conn).await?;
    assert_eq!(orphans, 0, "the dead process's upload is removed");
    let claim = restarted.claim("node-a-worker", 60_000).await?.ok_or_else(|| anyhow::anyhow!("nothing to claim"))?;
    assert_eq!(claim.chunk_index, 0, "the chunk taken back is claimed first");
    let attempts: i64 =
        sqlx::query_scalar("SELECT attempts FROM job_chunks WHERE chunk_index = 0").fetch_one(&mut conn).await?;
    assert_eq!(attempts, 2);
    conn.close().await?;
    running.kill()?;
    running.wait()?;
    server.finish().await
});

on_both_backends!(server_side_files_are_read_line_by_line, |backend| async move {
    let allowed = tempfile::tempdir()?;
    let dir = allowed.path().to_owned();
    let server = TestServer::start_with(backend, move |config| {
        config.jobs.allowed_paths = vec![dir];
        config.jobs.poll_interval_ms = 50;
        config.jobs.max_upload_bytes = 4096;
    })
    .await?;
    let items = lines(3);
    let mut file = Vec::new();
    file.extend_from_slice(items[0].as_bytes());
    file.extend_from_slice(b"\n{\"id\": \"nul\0\"}\n\n");
    file.extend_from_slice(b"{\"id\": \"latin-1 \xe9\"}\n");
    file.extend_from_slice(items[2].as_bytes());
    let path = allowed.path().join("mixed.jsonl");
    std::fs::write(&path, &file)?;
    let (status, job) = server.post("/v1/jobs", &json!({"path": path})).await?;
    assert_eq!((status, job["total_items"].as_u64()), (201, Some(4)), "{job}");
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    wait_done(&server, &id).await?;
    let results = results(&server, &id).await?;
    let statuses: Vec<&str> = results.iter().map(|r| r["status"].as_str().unwrap_or_default()).collect();
    assert_eq!(statuses, ["correct", "invalid_input", "invalid_input", "incorrect"], "{results:?}");
    assert!(results[1]["details"].to_string().contains("NUL"), "{}", results[1]);
    assert!(results[2]["details"].to_string().contains("UTF-8"), "{}", results[2]);

    // A file over jobs.max_upload_bytes is refused, and nothing of it is kept.
    let large = allowed.path().join("large.jsonl");
    std::fs::write(&large, lines(100).join("\n"))?;
    let (status, error) = server.post("/v1/jobs", &json!({"path": large})).await?;
    assert_eq!((status, error["code"].as_str()), (413, Some("payload_too_large")), "{error}");
    wait_for(&server, "SELECT COUNT(*) FROM jobs", 1).await?;
    server.finish().await
});
