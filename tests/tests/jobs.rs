//! Batch scoring jobs over HTTP, on SQLite and PostgreSQL.

use std::time::Duration;

use referee_tests::{Backend, TestServer, on_both_backends};
use serde_json::{Value, json};

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
