//! The HTTP API over real sockets, on SQLite and on PostgreSQL.

use std::sync::atomic::Ordering;
use std::time::Duration;

use referee_tests::judge::FakeJudge;
use referee_tests::{Backend, TestServer, api_on_both_backends, exact_item, on_both_backends};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn statuses(body: &Value) -> Vec<String> {
    body["results"].as_array().into_iter().flatten().map(|r| r["status"].as_str().unwrap_or("?").to_owned()).collect()
}

api_on_both_backends!(mixed_batches_keep_order_and_isolate_bad_items, |backend| async move {
    let server = TestServer::start(backend).await?;
    let body = json!({"items": [
        exact_item("a", "Paris", "Paris"),
        {"id": "b", "verifier": "regex-match", "input": {"response": "x = 42", "pattern": "\\d+", "mode": "full"}},
        {"id": "c", "verifier": "multiple-choice", "input": {"response": "The answer is (C).", "reference": "C"}},
        {"id": "d", "verifier": "no-such-verifier", "input": {}},
        {"id": "e", "verifier": "exact-match", "input": {"response": 7, "reference": "7"}},
        17,
        {"id": "g", "verifier": "regex-match", "input": {"response": "x", "pattern": "("}},
        exact_item("h", "London", "Paris"),
    ]});
    let (status, response) = server.post("/v1/score", &body).await?;
    assert_eq!(status, 200, "{response}");
    assert_eq!(
        statuses(&response),
        [
            "correct",
            "incorrect",
            "correct",
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "invalid_input",
            "incorrect"
        ]
    );
    let results = response["results"].as_array().cloned().unwrap_or_default();
    let ids: Vec<&str> = results.iter().map(|r| r["id"].as_str().unwrap_or("-")).collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e", "-", "g", "h"]);
    assert_eq!(results[0]["score"], 1.0);
    assert_eq!(results[0]["verifier"], "exact-match");
    assert!(results[3]["details"]["error"].as_str().unwrap_or("").contains("no-such-verifier"));
    assert!(results[4]["details"]["error"].as_str().unwrap_or("").contains("invalid type"));
    assert!(results.iter().all(|r| r["elapsed_us"].is_u64()));

    let (status, empty) = server.post("/v1/score", &json!({"items": []})).await?;
    assert_eq!((status, empty), (200, json!({"results": []})));
    server.finish().await
});

api_on_both_backends!(one_verifier_route, |backend| async move {
    let server = TestServer::start(backend).await?;
    let body = json!({"items": [
        {"id": "1", "input": {"response": "<answer>B</answer>", "reference": "B"}},
        {"input": {"response": "no idea", "reference": "B"}},
        {"id": "3", "verifier": "exact-match", "input": {}},
    ]});
    let (status, response) = server.post("/v1/verifiers/multiple-choice/score", &body).await?;
    assert_eq!(status, 200, "{response}");
    assert_eq!(statuses(&response), ["correct", "unparseable", "invalid_input"]);
    assert_eq!(response["results"][0]["verifier"], "multiple-choice");

    let (status, error) = server.post("/v1/verifiers/nope/score", &json!({"items": []})).await?;
    assert_eq!((status, error["code"].as_str()), (404, Some("unknown_verifier")));
    server.finish().await
});

api_on_both_backends!(verifier_listing, |backend| async move {
    let server = TestServer::start(backend).await?;
    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    let verifiers = listing["verifiers"].as_array().cloned().unwrap_or_default();
    let ids: Vec<&str> = verifiers.iter().filter_map(|v| v["id"].as_str()).collect();
    for id in ["exact-match", "regex-match", "multiple-choice"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    for verifier in &verifiers {
        assert!(verifier["version"].is_string());
        assert!(verifier["description"].as_str().is_some_and(|d| d.len() > 40));
        assert_eq!(verifier["input_schema"]["type"], "object");
    }
    server.finish().await
});

api_on_both_backends!(request_errors_are_json_with_the_right_status, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.server.body_limit_bytes = 4096;
        config.server.max_batch_items = 3;
    })
    .await?;
    let send = |body: &'static str, content_type: Option<&'static str>| {
        let mut request = server.client.post(server.url("/v1/score")).body(body);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        request.send()
    };
    let expect = |response: reqwest::Response, status: u16, code: &'static str| async move {
        assert_eq!(response.status().as_u16(), status);
        let body: Value = response.json().await?;
        assert_eq!(body["code"], code, "{body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
        anyhow::Ok(())
    };
    expect(send("{\"items\": [", Some("application/json")).await?, 400, "malformed_json").await?;
    expect(send("{\"items\": 3}", Some("application/json")).await?, 422, "invalid_body").await?;
    expect(send("{\"itemz\": []}", Some("application/json")).await?, 422, "invalid_body").await?;
    expect(send("{\"items\": []}", None).await?, 415, "unsupported_media_type").await?;
    let big = format!("{{\"items\": [\"{}\"]}}", "x".repeat(8192));
    let response =
        server.client.post(server.url("/v1/score")).header("content-type", "application/json").body(big).send().await?;
    expect(response, 413, "payload_too_large").await?;
    for timeout in [json!(0), json!(1.5), json!(3_600_001), json!("10")] {
        let (status, body) = server.post("/v1/score", &json!({"items": [], "timeout_ms": timeout})).await?;
        assert_eq!((status, body["code"].as_str()), (422, Some("invalid_body")), "timeout_ms {timeout}");
    }
    let (status, _) = server.post("/v1/score", &json!({"items": [], "timeout_ms": 2000.0})).await?;
    assert_eq!(status, 200, "an integral float is an integer");
    let four = json!({"items": [exact_item("1", "a", "a"), exact_item("2", "a", "a"), exact_item("3", "a", "a"), exact_item("4", "a", "a")]});
    let (status, body) = server.post("/v1/score", &four).await?;
    assert_eq!((status, body["code"].as_str()), (413, Some("too_many_items")));
    let response = server.client.get(server.url("/v1/nothing-here")).send().await?;
    expect(response, 404, "not_found").await?;
    let response = server.client.get(server.url("/v1/score")).send().await?;
    expect(response, 405, "method_not_allowed").await?;
    server.finish().await
});

api_on_both_backends!(api_keys_guard_v1_only, |backend| async move {
    let key = "rk-test-key-0123456789";
    let server = TestServer::start_with(backend, |config| {
        config.auth.api_keys = vec![referee_server::http::auth::digest_form(key)];
    })
    .await?;
    let body = json!({"items": [exact_item("1", "a", "a")]});
    let without = server.client.post(server.url("/v1/score")).json(&body).send().await?;
    assert_eq!(without.status().as_u16(), 401);
    assert_eq!(without.headers().get("www-authenticate").and_then(|v| v.to_str().ok()), Some("Bearer"));
    let wrong =
        server.client.post(server.url("/v1/score")).bearer_auth("rk-test-key-0123456780").json(&body).send().await?;
    assert_eq!(wrong.status().as_u16(), 401);
    let right = server.client.post(server.url("/v1/score")).bearer_auth(key).json(&body).send().await?;
    assert_eq!(right.status().as_u16(), 200);
    let listing = server.client.get(server.url("/v1/verifiers")).send().await?;
    assert_eq!(listing.status().as_u16(), 401);
    for open in ["/healthz", "/readyz", "/metrics", "/openapi.json"] {
        let response = server.client.get(server.url(open)).send().await?;
        assert_eq!(response.status().as_u16(), 200, "{open}");
    }
    server.finish().await
});

api_on_both_backends!(scoring_log_records_every_item, |backend| async move {
    let mut server = TestServer::start_with(backend, |config| {
        config.scoring_log.mode = referee_server::config::LogMode::All;
    })
    .await?;
    let items: Vec<Value> = (0..250).map(|i| exact_item(&i.to_string(), &(i % 3).to_string(), "0")).collect();
    for chunk in items.chunks(100) {
        let (status, _) = server.post("/v1/score", &json!({"items": chunk})).await?;
        assert_eq!(status, 200);
    }
    server.stop().await?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log").await?, 250);
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log WHERE status = 'correct'").await?, 84);
    assert_eq!(server.query_i64("SELECT COUNT(DISTINCT item_hash) FROM scoring_log").await?, 3);
    server.finish().await
});

api_on_both_backends!(scoring_log_off_writes_nothing, |backend| async move {
    let mut server = TestServer::start(backend).await?;
    let (status, _) = server.post("/v1/score", &json!({"items": [exact_item("1", "a", "a")]})).await?;
    assert_eq!(status, 200);
    server.stop().await?;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log").await?, 0);
    server.finish().await
});

on_both_backends!(result_cache_answers_repeated_items, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.cache.enabled = true;
        config.scoring_log.flush_interval_ms = 10;
    })
    .await?;
    let body = json!({"items": [exact_item("1", "a", "a"), exact_item("2", "b", "a")]});
    let (_, first) = server.post("/v1/score", &body).await?;
    assert!(first["results"][0]["details"].get("cached").is_none());
    // The cache is written off the request path; wait until the rows are there.
    let mut rows = 0;
    for _ in 0..200 {
        rows = server.query_i64("SELECT COUNT(*) FROM result_cache").await?;
        if rows == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(rows, 2);
    let (_, second) = server.post("/v1/score", &body).await?;
    assert_eq!(second["results"][0]["details"]["cached"], true);
    assert_eq!(statuses(&second), ["correct", "incorrect"]);
    assert_eq!(second["results"][1]["details"]["cached"], true);
    let (_, other) = server.post("/v1/score", &json!({"items": [exact_item("3", "c", "a")]})).await?;
    assert!(other["results"][0]["details"].get("cached").is_none());
    server.finish().await
});

/// Opens a `/v1/score` request whose body is not finished, so it stays in flight.
async fn open_request(server: &TestServer, body: &str) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(server.server().addr()).await?;
    let head = format!(
        "POST /v1/score HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(&body.as_bytes()[..body.len() / 2]).await?;
    stream.flush().await?;
    Ok(stream)
}

/// Sends the rest of the body and reads the whole response.
async fn complete_request(mut stream: TcpStream, body: &str) -> anyhow::Result<String> {
    stream.write_all(&body.as_bytes()[body.len() / 2..]).await?;
    let mut response = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let n = stream.read(&mut buffer).await?;
        if n == 0 {
            break;
        }
        response.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&response);
        if text.contains("\r\n\r\n") && text.trim_end().ends_with('}') {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&response).into_owned())
}

api_on_both_backends!(overload_is_refused_with_retry_after, |backend| async move {
    // A judge that takes a minute, until the test lets it answer, holds the only request slot
    // with a scoring request in progress.
    let judge = FakeJudge::start().await?;
    judge.state.delay_ms.store(60_000, Ordering::SeqCst);
    let server = TestServer::start_with(backend, |config| {
        config.server.max_concurrent_requests = 1;
        config.server.retry_after_secs = 3;
        config.judge.base_url = Some(judge.base_url.clone());
        config.judge.model = "test-judge".to_owned();
        config.judge.max_retries = 0;
    })
    .await?;
    let held = {
        let (client, url) = (server.client.clone(), server.url("/v1/score"));
        let body = json!({"items": [{"verifier": "rubric", "input": {"response": "x", "rubric": {"criteria": [
            {"name": "depth", "description": "How deep? [say 7]", "kind": {"type": "score", "min": 1, "max": 10}}
        ]}}}]});
        tokio::spawn(async move { client.post(url).json(&body).send().await })
    };
    while judge.requests() == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let refused = server.client.post(server.url("/v1/score")).json(&json!({"items": []})).send().await?;
    assert_eq!(refused.status().as_u16(), 503);
    assert_eq!(refused.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("3"));
    let error: Value = refused.json().await?;
    assert_eq!(error["code"], "overloaded");
    judge.state.delay_ms.store(0, Ordering::SeqCst);
    let answer = held.await??;
    assert_eq!(answer.status().as_u16(), 200);
    // The slot is back.
    let (status, _) = server.post("/v1/score", &json!({"items": []})).await?;
    assert_eq!(status, 200);
    server.finish().await
});

api_on_both_backends!(a_slow_body_holds_no_request_slot, |backend| async move {
    let server = TestServer::start_with(backend, |config| config.server.max_concurrent_requests = 1).await?;
    let body = json!({"items": [exact_item("slow", "a", "a")]}).to_string();
    // Half a body, sent and then held: the request waits for the rest of its body without a slot.
    let slow = open_request(&server, &body).await?;
    tokio::time::sleep(Duration::from_millis(100)).await;
    for _ in 0..3 {
        let (status, answer) = server.post("/v1/score", &json!({"items": [exact_item("1", "b", "b")]})).await?;
        assert_eq!(status, 200, "{answer}");
    }
    let answer = complete_request(slow, &body).await?;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"correct\""), "{answer}");
    server.finish().await
});

api_on_both_backends!(shutdown_finishes_in_flight_requests, |backend| async move {
    let mut server = TestServer::start_with(backend, |config| {
        config.scoring_log.mode = referee_server::config::LogMode::All;
    })
    .await?;
    let body = json!({"items": [exact_item("late", "a", "a")]}).to_string();
    let held = open_request(&server, &body).await?;
    // Let the server read the head of the request before shutdown starts.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let addr = server.server().addr();
    let (answer, stopped) = tokio::join!(
        async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            complete_request(held, &body).await
        },
        server.stop()
    );
    stopped?;
    let answer = answer?;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"late\""), "{answer}");
    assert!(TcpStream::connect(addr).await.is_err(), "the listener is closed after shutdown");
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM scoring_log").await?, 1);
    server.finish().await
});

api_on_both_backends!(probes_and_metrics, |backend| async move {
    let server = TestServer::start(backend).await?;
    let (status, ready) = server.get("/readyz").await?;
    assert_eq!((status, ready["status"].as_str()), (200, Some("ready")));
    let (status, _) = server.get("/healthz").await?;
    assert_eq!(status, 200);
    let (status, _) =
        server.post("/v1/score", &json!({"items": [exact_item("1", "a", "a"), exact_item("2", "a", "b")]})).await?;
    assert_eq!(status, 200);
    let metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
    for series in [
        "referee_items_total{verifier=\"exact-match\",status=\"correct\"}",
        "referee_http_requests_total{route=\"/v1/score\",method=\"POST\",status=\"200\"}",
        "referee_http_request_duration_seconds_bucket",
        "referee_verifier_batch_seconds_bucket",
        "referee_http_requests_in_flight",
    ] {
        assert!(metrics.contains(series), "{series} missing from /metrics");
    }
    let (status, document) = server.get("/openapi.json").await?;
    assert_eq!((status, document["openapi"].as_str()), (200, Some("3.1.0")));
    let page = server.client.get(server.url("/docs/")).send().await?.text().await?;
    assert!(page.contains("swagger-ui"), "the reference page is served locally");
    assert!(!page.contains("https://"), "the reference page loads nothing from the internet");
    server.finish().await
});

#[tokio::test]
async fn postgres_is_reachable() -> anyhow::Result<()> {
    // Named on its own so a CI run without PostgreSQL fails with a clear message.
    let server = TestServer::start(Backend::Postgres).await?;
    server.finish().await
}
