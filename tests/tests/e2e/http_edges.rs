//! The edges of the HTTP layer: error bodies are JSON even where axum or hyper answers by itself, the
//! request body is an object, the bearer scheme is case-insensitive, and shutdown keeps to its
//! grace period with requests and job chunks still in flight; connections are bounded in number
//! and time, a slow body holds no request slot, and a refusal decided from the headers reaches
//! a client that is still sending.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use referee_tests::judge::FakeJudge;
use referee_tests::{Backend, TestServer, exact_item};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const KEY: &str = "rk-http-edges-0123456789";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bearer_scheme_is_case_insensitive() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| c.auth.api_keys = vec![KEY.to_owned()]).await?;
    let body = json!({"items": [exact_item("1", "a", "a")]});
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let response = server
            .client
            .post(server.url("/v1/score"))
            .header("authorization", format!("{scheme} {KEY}"))
            .json(&body)
            .send()
            .await?;
        assert_eq!(response.status().as_u16(), 200, "{scheme}");
    }
    for refused in [format!("Basic {KEY}"), format!("Bearer{KEY}"), "Bearer wrong-key-0123456789".to_owned()] {
        let response =
            server.client.post(server.url("/v1/score")).header("authorization", &refused).json(&body).send().await?;
        assert_eq!(response.status().as_u16(), 401, "{refused}");
        let error: Value = response.json().await?;
        assert_eq!(error["code"], "unauthorized");
    }
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_array_is_not_a_request_object() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    for body in [json!([[exact_item("1", "a", "a")]]), json!([null]), json!("items")] {
        let (status, error) = server.post("/v1/score", &body).await?;
        assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")), "{body}: {error}");
    }
    server.finish().await
}

/// A key held twice is refused wherever it is: at the top of the request the request is 422, in
/// an item (at any depth) that item is `invalid_input` and the others are scored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_held_twice_is_refused_at_every_level() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let post = |path: &'static str, body: &'static str| {
        let request = server.client.post(server.url(path)).header("content-type", "application/json").body(body);
        async move {
            let response = request.send().await?;
            let status = response.status().as_u16();
            anyhow::Ok((status, response.json::<Value>().await?))
        }
    };
    let (status, answer) = post(
        "/v1/score",
        r#"{"items": [
            {"id": "a", "verifier": "exact-match", "input": {"response": "a", "reference": "a"}},
            {"id": "b", "verifier": "exact-match", "input": {"response": "x", "response": "a", "reference": "a"}},
            {"id": "c", "verifier": "exact-match", "verifier": "exact-match", "input": {"response": "a", "reference": "a"}},
            {"id": "d", "verifier": "exact-match", "input": {"response": "b", "reference": "a"}}
        ]}"#,
    )
    .await?;
    assert_eq!(status, 200, "{answer}");
    let results = answer["results"].as_array().cloned().unwrap_or_default();
    let seen: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r["id"].as_str().unwrap_or_default(), r["status"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(seen, [("a", "correct"), ("b", "invalid_input"), ("c", "invalid_input"), ("d", "incorrect")]);
    assert!(
        results[1]["details"]["error"].as_str().is_some_and(|e| e.contains("`response` appears twice")),
        "{answer}"
    );
    assert_eq!(results[2]["verifier"], "exact-match", "{answer}");

    let (status, answer) = post(
        "/v1/verifiers/exact-match/score",
        r#"{"items": [{"input": {"response": "a", "reference": "a", "reference": "b"}}, {"input": {"response": "a", "reference": "a"}}]}"#,
    )
    .await?;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["results"][0]["status"], "invalid_input", "{answer}");
    assert_eq!(answer["results"][0]["verifier"], "exact-match", "{answer}");
    assert_eq!(answer["results"][1]["status"], "correct", "{answer}");

    let (status, answer) = post("/v1/score", r#"{"items": [], "items": []}"#).await?;
    assert_eq!((status, answer["code"].as_str()), (422, Some("invalid_body")), "{answer}");
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_axum_answers_itself_are_json() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    // A path segment that is not UTF-8 once percent-decoded: axum's path extractor refuses it.
    let response = server.client.get(server.url("/v1/jobs/%FF%FE")).send().await?;
    let status = response.status().as_u16();
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let error: Value = serde_json::from_slice(&response.bytes().await?)?;
    assert_eq!((status, content_type.as_deref()), (400, Some("application/json")));
    assert_eq!(error["code"], "bad_request", "{error}");
    assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()), "{error}");
    server.finish().await
}

/// Heads hyper refuses before any handler runs (not HTTP, too large, HTTP/2) are answered in
/// JSON too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_the_http_library_answers_itself_are_json() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| c.server.max_header_bytes = 4096).await?;
    let big_header = format!("GET /healthz HTTP/1.1\r\nhost: test\r\nx-big: {}\r\n\r\n", "a".repeat(8192));
    let cases = [
        (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 400, "bad_request"),
        (b"GET /healthz HTTP/1.1\r\nhost: test\r\nbad header\r\n\r\n".to_vec(), 400, "bad_request"),
        (big_header.into_bytes(), 431, "headers_too_large"),
        // A client speaking HTTP/2 with prior knowledge: its preface and a SETTINGS frame.
        (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00".to_vec(), 400, "bad_request"),
    ];
    for (request, status, code) in cases {
        let mut stream = TcpStream::connect(server.server().addr()).await?;
        stream.write_all(&request).await?;
        let (answer, closed) = read_until_closed(&mut stream, Duration::from_secs(20)).await;
        let answer = String::from_utf8_lossy(&answer);
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_default();
        assert!(closed, "the connection stays open after {head}");
        assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
        assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
        let error: Value = serde_json::from_str(body)?;
        assert_eq!(error["code"], code, "{error}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()), "{error}");
    }
    // The connection limits and the JSON rewriting leave ordinary answers alone.
    let healthz = server.client.get(server.url("/healthz")).send().await?;
    assert_eq!(healthz.status(), 200);
    server.finish().await
}

/// Opens a `/v1/score` request whose body never finishes, so it stays in flight.
async fn open_request(server: &TestServer) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(server.server().addr()).await?;
    let head =
        "POST /v1/score HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n";
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(b"{\"items\": [").await?;
    stream.flush().await?;
    Ok(stream)
}

fn slow_judge_item() -> Value {
    json!({"verifier": "rubric", "input": {"response": "x", "rubric": {"criteria": [
        {"name": "depth", "description": "How deep? [say 7]", "kind": {"type": "score", "min": 1, "max": 10}}
    ]}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_keeps_to_its_grace_period() -> anyhow::Result<()> {
    // A judge that takes a minute: a scoring request and a job chunk stay busy far past the
    // grace period.
    let judge = FakeJudge::start().await?;
    judge.state.delay_ms.store(60_000, Ordering::SeqCst);
    let mut server = TestServer::start_with(Backend::Sqlite, |c| {
        c.server.shutdown_grace_ms = 2_000;
        c.judge.base_url = Some(judge.base_url.clone());
        c.judge.model = "test-judge".to_owned();
        c.judge.timeout_ms = 120_000;
        c.judge.max_retries = 0;
    })
    .await?;
    let response = server
        .client
        .post(server.url("/v1/jobs"))
        .header("content-type", "application/x-ndjson")
        .body(format!("{}\n", slow_judge_item()))
        .send()
        .await?;
    assert_eq!(response.status().as_u16(), 201, "{}", response.text().await?);
    let scoring = {
        let (client, url) = (server.client.clone(), server.url("/v1/score"));
        tokio::spawn(async move { client.post(url).json(&json!({"items": [slow_judge_item()]})).send().await })
    };
    let _unfinished = open_request(&server).await?;
    while judge.requests() < 2 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let started = Instant::now();
    server.stop().await?;
    let took = started.elapsed();
    // The grace period is 2 s; the work in flight would take a minute.
    assert!(took < Duration::from_secs(5), "shutdown took {took:?} with a 2 s grace period");
    scoring.abort();
    server.finish().await
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

/// Reads one response whose body is JSON or empty (`content-length` framed).
async fn read_response(stream: &mut TcpStream) -> anyhow::Result<String> {
    let mut response = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let n = stream.read(&mut buffer).await?;
        anyhow::ensure!(n > 0, "the connection closed after {:?}", String::from_utf8_lossy(&response));
        response.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&response);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned()))
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if body.len() >= length {
                return Ok(text.into_owned());
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_sent_too_slowly_gets_408_and_an_idle_connection_is_closed() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| c.server.header_read_timeout_ms = 300).await?;
    let mut slow = TcpStream::connect(server.server().addr()).await?;
    slow.write_all(b"POST /v1/score HTTP/1.1\r\nhost: test\r\n").await?;
    let (answer, closed) = read_until_closed(&mut slow, Duration::from_secs(20)).await;
    assert!(closed, "a head that never ends keeps its connection");
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_default();
    assert!(head.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
    let error: Value = serde_json::from_str(body)?;
    assert_eq!(error["code"], "request_timeout", "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("header_read_timeout_ms")), "{error}");

    // A keep-alive connection left idle is closed without an answer nobody asked for.
    let mut idle = TcpStream::connect(server.server().addr()).await?;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nhost: test\r\n\r\n").await?;
    let answer = read_response(&mut idle).await?;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let (after, closed) = read_until_closed(&mut idle, Duration::from_secs(20)).await;
    assert!(closed, "an idle keep-alive connection stays open");
    assert!(after.is_empty(), "{}", String::from_utf8_lossy(&after));
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_sent_too_slowly_gets_408_and_the_connection_closed() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| c.server.body_read_timeout_ms = 300).await?;
    let mut slow = TcpStream::connect(server.server().addr()).await?;
    slow.write_all(b"POST /v1/score HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"items\"")
        .await?;
    let (answer, closed) = read_until_closed(&mut slow, Duration::from_secs(20)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\"") && answer.contains("body_read_timeout_ms"), "{answer}");
    assert!(closed, "the connection stays open after the 408");
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_refused_for_its_body_size_reads_the_refusal_while_sending() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        c.server.body_limit_bytes = 4 << 20;
        c.server.max_inflight_body_bytes = 4 << 20;
        c.server.retry_after_secs = 2;
    })
    .await?;
    // Three quarters of the budget, held by a body that has arrived but for its last byte (the
    // budget is taken as bytes arrive: a declared length alone holds none of it).
    let mut holder = TcpStream::connect(server.server().addr()).await?;
    let head = format!(
        "POST /v1/score HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        (3 << 20) + 1
    );
    holder.write_all(head.as_bytes()).await?;
    holder.write_all(format!("{{\"items\": []{}", " ".repeat((3 << 20) - 12)).as_bytes()).await?;
    // A 2 MiB body does not fit what is left: refused once it outgrows it, and the rest of the
    // body (more than the socket buffers hold) is still taken, so the client reads the 503.
    let body = format!("{{\"items\": []}}{}", " ".repeat(2 << 20));
    let mut refused = TcpStream::connect(server.server().addr()).await?;
    let mut answer = None;
    for _ in 0..200 {
        let head = format!(
            "POST /v1/score HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len()
        );
        refused.write_all(head.as_bytes()).await?;
        refused.write_all(body.as_bytes()).await?;
        let text = read_response(&mut refused).await?;
        if !text.starts_with("HTTP/1.1 200") {
            answer = Some(text);
            break;
        }
        // The holder's bytes had not all reached the server yet.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let answer = answer.ok_or_else(|| anyhow::anyhow!("the second request was never refused"))?;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.to_ascii_lowercase().contains("retry-after: 2"), "{answer}");
    assert!(answer.contains("\"overloaded\""), "{answer}");
    // The same connection goes on: a small request fits what is left.
    let small = json!({"items": [exact_item("1", "a", "a")]}).to_string();
    let head = format!(
        "POST /v1/score HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        small.len()
    );
    refused.write_all(head.as_bytes()).await?;
    refused.write_all(small.as_bytes()).await?;
    let answer = read_response(&mut refused).await?;
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains("\"correct\""), "{answer}");
    drop(holder);
    server.finish().await
}

/// With every item of the scoring budget taken, a scoring request is refused from its headers:
/// the client reads the 503 while its body has not been sent, and a request with no items still
/// gets through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoring_request_finding_no_room_for_items_is_refused_before_its_body() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    judge.state.delay_ms.store(60_000, Ordering::SeqCst);
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        c.server.max_inflight_items = 1;
        c.server.retry_after_secs = 3;
        c.judge.base_url = Some(judge.base_url.clone());
        c.judge.model = "test-judge".to_owned();
        c.judge.timeout_ms = 120_000;
        c.judge.max_retries = 0;
    })
    .await?;
    // One item that waits on the judge, until the test lets it answer, holds the whole budget.
    let holding = {
        let (client, url) = (server.client.clone(), server.url("/v1/score"));
        tokio::spawn(async move { client.post(url).json(&json!({"items": [slow_judge_item()]})).send().await })
    };
    while judge.requests() < 1 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // A head and the first bytes of a 1,000-byte body: the refusal comes without the rest.
    let mut refused = open_request(&server).await?;
    let answer = tokio::time::timeout(Duration::from_secs(10), read_response(&mut refused)).await??;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.to_ascii_lowercase().contains("retry-after: 3"), "{answer}");
    assert!(answer.contains("\"overloaded\""), "{answer}");
    // No items need no room (a small body of declared length is let through to be counted).
    let empty = server.client.post(server.url("/v1/score")).json(&json!({"items": []})).send().await?;
    assert_eq!(empty.status().as_u16(), 200, "{}", empty.text().await?);
    let metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
    assert!(metrics.lines().any(|l| l.starts_with("referee_requests_shed_early_total")), "{metrics}");
    // The judge answers at last: the item that held the budget is scored. (A shutdown waits its
    // grace period for a request or a connection still open.)
    judge.state.delay_ms.store(0, Ordering::SeqCst);
    assert_eq!(holding.await??.status().as_u16(), 200);
    drop(refused);
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_too_many_tiny_items_is_refused_before_it_is_built() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| c.server.max_batch_items = 10).await?;
    let body = format!("{{\"items\": [{}]}}", vec!["{}"; 1_000_000].join(","));
    let response = server
        .client
        .post(server.url("/v1/score"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await?;
    assert_eq!(response.status().as_u16(), 413);
    let error: Value = response.json().await?;
    assert_eq!(error["code"], "too_many_items", "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("1000000")), "{error}");
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_limit_wait_for_one_to_close() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| c.server.max_connections = 2).await?;
    let first = TcpStream::connect(server.server().addr()).await?;
    let mut second = TcpStream::connect(server.server().addr()).await?;
    second.write_all(b"GET /healthz HTTP/1.1\r\nhost: test\r\n\r\n").await?;
    assert!(read_response(&mut second).await?.starts_with("HTTP/1.1 200"));
    let mut third = TcpStream::connect(server.server().addr()).await?;
    third.write_all(b"GET /healthz HTTP/1.1\r\nhost: test\r\n\r\n").await?;
    let (early, _) = read_until_closed(&mut third, Duration::from_millis(500)).await;
    assert!(early.is_empty(), "a third connection was served: {}", String::from_utf8_lossy(&early));
    drop(first);
    let answer = read_response(&mut third).await?;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(second);
    server.finish().await
}
