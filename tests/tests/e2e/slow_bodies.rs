//! Slow and large bodies over real sockets: a body takes the body budget as its bytes arrive,
//! never for the length it declares, so slow clients declaring large bodies cannot lock scoring
//! out; a job upload that trickles is cut off at its deadline with 408 and leaves no job; and
//! uploads take slots of their own, never the request slots scoring needs.

use std::time::Duration;

use referee_tests::{Backend, TestServer, exact_item};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `referee_http_requests_in_flight` as `/metrics` reports it (the `/metrics` request included).
async fn in_flight(server: &TestServer) -> anyhow::Result<f64> {
    let metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
    Ok(metrics
        .lines()
        .find_map(|line| line.strip_prefix("referee_http_requests_in_flight "))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(0.0))
}

/// Waits until at least `requests` requests besides the `/metrics` one are in flight: the
/// server has read their heads.
async fn wait_in_flight(server: &TestServer, requests: usize) -> anyhow::Result<()> {
    for _ in 0..500 {
        if in_flight(server).await? >= (requests + 1) as f64 {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    anyhow::bail!("{requests} requests never were in flight")
}

/// Opens a request that declares `length` bytes of body and sends only `first`.
async fn open_slow(
    server: &TestServer,
    path: &str,
    content_type: &str,
    length: usize,
    first: &[u8],
) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(server.server().addr()).await?;
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: test\r\ncontent-type: {content_type}\r\ncontent-length: {length}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(first).await?;
    stream.flush().await?;
    Ok(stream)
}

/// Reads from `stream` until the peer closes it or `limit` passes; the bytes read, and whether
/// the connection ended (EOF or reset) within the limit.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (Vec<u8>, bool) {
    let mut read = Vec::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Err(_) => return (read, false),
            Ok(Ok(0) | Err(_)) => return (read, true),
            Ok(Ok(n)) => read.extend_from_slice(&buffer[..n]),
        }
    }
}

/// Eight connections each declare a body as large as the whole budget and send a byte: they
/// hold the budget for what they sent, so scoring and trainer requests go on beside them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bodies_declaring_the_whole_budget_do_not_lock_out_scoring() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        c.server.body_limit_bytes = 1 << 20;
        c.server.max_inflight_body_bytes = 1 << 20;
    })
    .await?;
    let mut slow = Vec::new();
    for path in ["/v1/score", "/get_reward"].repeat(4) {
        slow.push(open_slow(&server, path, "application/json", 1 << 20, b"{").await?);
    }
    wait_in_flight(&server, slow.len()).await?;

    let body = json!({"items": [exact_item("1", "a", "a")]});
    let response = server.client.post(server.url("/v1/score")).json(&body).send().await?;
    let status = response.status().as_u16();
    let answer: Value = response.json().await?;
    assert_eq!((status, answer["results"][0]["status"].as_str()), (200, Some("correct")), "{answer}");
    let trainer = json!({"query": ["\\boxed{42}"], "labels": ["42"]});
    let response = server.client.post(server.url("/get_reward")).json(&trainer).send().await?;
    let status = response.status().as_u16();
    let answer: Value = response.json().await?;
    assert_eq!((status, answer["rewards"].clone()), (200, json!([1.0])), "{answer}");
    drop(slow);
    server.finish().await
}

/// A job upload that trickles a byte now and then is cut off at its deadline with the JSON 408,
/// counted, the connection closed, and its job gone from the database before the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickled_job_upload_is_refused_and_leaves_no_job() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        c.server.body_read_timeout_ms = 500;
        c.jobs.workers = 0;
    })
    .await?;
    let first = format!("{}\n{{\"id\"", exact_item("1", "a", "a"));
    let mut upload = open_slow(&server, "/v1/jobs", "application/x-ndjson", 100_000, first.as_bytes()).await?;
    wait_for_jobs(&server, 1).await?;
    let mut answer = Vec::new();
    let mut closed = false;
    // A byte every 100 ms, far slower than the deadline allows, until the server answers.
    for _ in 0..200 {
        if upload.write_all(b" ").await.is_err() {
            break;
        }
        let (read, ended) = read_until_closed(&mut upload, Duration::from_millis(100)).await;
        answer.extend_from_slice(&read);
        if ended {
            closed = true;
            break;
        }
    }
    if !closed {
        let (read, ended) = read_until_closed(&mut upload, Duration::from_secs(20)).await;
        answer.extend_from_slice(&read);
        closed = ended;
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\"") && answer.contains("body_read_timeout_ms"), "{answer}");
    assert!(closed, "the connection stays open after the 408");
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs").await?, 0, "the upload's job is left behind");
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM job_items").await?, 0);
    let metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
    assert!(metrics.lines().any(|l| l.starts_with("referee_request_body_timeouts_total 1")), "{metrics}");
    server.finish().await
}

/// Uploads in progress hold upload slots (`jobs.max_concurrent_uploads`), not request slots:
/// with every request slot's worth of uploads open, scoring is answered, and an upload beyond
/// the upload slots is refused with 503.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_in_progress_hold_no_request_slot() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        c.server.max_concurrent_requests = 2;
        c.jobs.max_concurrent_uploads = 2;
        c.jobs.workers = 0;
    })
    .await?;
    let line = format!("{}\n", exact_item("1", "a", "a"));
    let mut uploads = Vec::new();
    for _ in 0..2 {
        uploads.push(open_slow(&server, "/v1/jobs", "application/x-ndjson", 100_000, line.as_bytes()).await?);
    }
    wait_in_flight(&server, 2).await?;

    let body = json!({"items": [exact_item("1", "a", "a")]});
    let response = server.client.post(server.url("/v1/score")).json(&body).send().await?;
    assert_eq!(response.status().as_u16(), 200, "{}", response.text().await?);
    let response = server
        .client
        .post(server.url("/v1/jobs"))
        .header("content-type", "application/x-ndjson")
        .body(line.clone())
        .send()
        .await?;
    let status = response.status().as_u16();
    let retry = response.headers().get("retry-after").is_some();
    let error: Value = response.json().await?;
    assert_eq!((status, error["code"].as_str(), retry), (503, Some("overloaded"), true), "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("jobs.max_concurrent_uploads")), "{error}");
    // The uploads' clients go away: their jobs are removed and the slots come back.
    drop(uploads);
    wait_for_jobs(&server, 0).await?;
    let mut status = 0;
    // A slot comes back as its handler returns, just after the job is removed.
    for _ in 0..100 {
        let response = server
            .client
            .post(server.url("/v1/jobs"))
            .header("content-type", "application/x-ndjson")
            .body(line.clone())
            .send()
            .await?;
        status = response.status().as_u16();
        if status != 503 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status, 201);
    server.finish().await
}

/// Waits until the database holds `count` jobs (uploads in progress included).
async fn wait_for_jobs(server: &TestServer, count: i64) -> anyhow::Result<()> {
    for _ in 0..500 {
        if server.query_i64("SELECT COUNT(*) FROM jobs").await? == count {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    anyhow::bail!("the database never held {count} jobs")
}
