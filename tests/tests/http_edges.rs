//! The edges of the HTTP layer: error bodies are JSON even where axum answers by itself, the
//! request body is an object, the bearer scheme is case-insensitive, and shutdown keeps to its
//! grace period with requests and job chunks still in flight.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use referee_tests::judge::FakeJudge;
use referee_tests::{Backend, TestServer, exact_item};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
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
