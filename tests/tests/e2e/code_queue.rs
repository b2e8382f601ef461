//! The `code` verifier's bounded queue over HTTP: a synchronous request whose items do not fit
//! is refused with 429, `Retry-After` and a JSON error body, and nothing of it is scored; once
//! the queue drains, the same request succeeds. Jobs never see the bound: their workers wait
//! for room and every item gets its real verdict.

use std::time::Duration;

use referee_tests::{Backend, TestServer, api_on_both_backends};
use serde_json::{Value, json};

/// `code` items whose one test each burns its fuel (about a second of guest CPU): enough to
/// hold a queue while other requests arrive.
fn burners(count: usize) -> Value {
    let item = json!({"verifier": "code", "input": {
        "language": "python", "program": "while True:\n    pass",
        "tests": [{"stdin": "", "expected_stdout": "never\n"}],
        "options": {"fuel": 10_000_000_000_u64, "time_limit_ms": 60_000}}});
    json!({"items": vec![item; count], "timeout_ms": 120_000})
}

fn sum_input() -> Value {
    json!({"language": "python", "program": "a, b = map(int, input().split())\nprint(a + b)",
        "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}]})
}

/// A small `code` request, through `/v1/score`.
fn small() -> Value {
    json!({"items": [{"id": "sum", "verifier": "code", "input": sum_input()}]})
}

/// POSTs and returns the status, the `Retry-After` header and the JSON body.
async fn post(server: &TestServer, path: &str, body: &Value) -> anyhow::Result<(u16, Option<String>, Value)> {
    let response = server.client.post(server.url(path)).json(body).send().await?;
    let status = response.status().as_u16();
    let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
    Ok((status, retry_after, response.json().await?))
}

/// Starts `burners(2)` in the background and returns once a small request is refused, which
/// shows the burners hold the whole queue; with that refusal's header and body. A probe admitted
/// first can make the burners themselves be refused; then they are sent again.
async fn fill_queue(
    server: &TestServer,
) -> anyhow::Result<(tokio::task::JoinHandle<anyhow::Result<(u16, Value)>>, Option<String>, Value)> {
    for _ in 0..100 {
        let (client, url) = (server.client.clone(), server.url("/v1/score"));
        let filling = tokio::spawn(async move {
            let response = client.post(url).json(&burners(2)).send().await?;
            let status = response.status().as_u16();
            Ok((status, response.json().await?))
        });
        loop {
            if filling.is_finished() {
                let (status, body) = filling.await??;
                anyhow::ensure!(status == 429, "the burners finished before a request was refused: {body}");
                break;
            }
            let (status, retry_after, body) = post(server, "/v1/score", &small()).await?;
            match status {
                // The burners were not admitted yet; this request went first.
                200 => tokio::time::sleep(Duration::from_millis(20)).await,
                429 => return Ok((filling, retry_after, body)),
                other => anyhow::bail!("unexpected status {other}: {body}"),
            }
        }
    }
    anyhow::bail!("the burners were never admitted")
}

api_on_both_backends!(a_full_code_queue_answers_429_then_recovers, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.code.max_pending_items = Some(2);
        config.server.retry_after_secs = 3;
        config.server.request_timeout_ms = 120_000;
    })
    .await?;
    let (filling, retry_after, body) = fill_queue(&server).await?;
    assert_eq!(retry_after.as_deref(), Some("3"));
    assert_eq!(body["code"], "busy", "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains("queue is full")), "{body}");

    // The per-verifier route answers the same while the queue is full.
    let items = json!({"items": [{"input": sum_input()}]});
    let (status, retry_after, body) = post(&server, "/v1/verifiers/code/score", &items).await?;
    assert_eq!((status, retry_after.as_deref(), body["code"].as_str()), (429, Some("3"), Some("busy")), "{body}");
    // Other verifiers are not behind the code queue.
    let exact = json!({"items": [{"verifier": "exact-match", "input": {"response": "4", "reference": "4"}}]});
    let (status, _, body) = post(&server, "/v1/score", &exact).await?;
    assert_eq!(status, 200, "{body}");
    // OpenRLHF's route is trainer-facing: it waits for room and answers with the real reward.
    let reward = json!({"query": ["```python\nprint(3)\n```"],
        "labels": [{"language": "python", "tests": [{"stdin": "", "expected_stdout": "3\n"}]}]});
    let (held, filled) = tokio::join!(post(&server, "/get_reward?verifier=code", &reward), filling);
    let (status, _, body) = held?;
    assert_eq!((status, &body["rewards"], &body["statuses"]), (200, &json!([1.0]), &json!(["correct"])), "{body}");

    let (status, burnt) = filled??;
    assert_eq!(status, 200, "{burnt}");
    for result in burnt["results"].as_array().into_iter().flatten() {
        assert_eq!(result["status"], "incorrect", "{result}");
        assert_eq!(result["details"]["tests"][0]["verdict"], "time_limit", "{result}");
    }
    // The burners' capacity is released: the refused request now goes through.
    let (status, _, body) = post(&server, "/v1/score", &small()).await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["results"][0]["status"], "correct", "{body}");
    server.finish().await
});

api_on_both_backends!(jobs_wait_for_room_in_the_code_queue, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.code.max_pending_items = Some(2);
        config.server.request_timeout_ms = 120_000;
        config.jobs.poll_interval_ms = 50;
    })
    .await?;
    // The burners hold the whole queue while the job starts.
    let (filling, _, _) = fill_queue(&server).await?;
    let upload: Vec<String> = (0..6)
        .map(|i| {
            let expected = if i % 2 == 0 { "3\n" } else { "4\n" };
            let mut input = sum_input();
            input["tests"][0]["expected_stdout"] = json!(expected);
            json!({"id": format!("item-{i}"), "verifier": "code", "input": input}).to_string()
        })
        .collect();
    let response = server
        .client
        .post(server.url("/v1/jobs?chunk_size=1"))
        .header("content-type", "application/x-ndjson")
        .body(upload.join("\n") + "\n")
        .send()
        .await?;
    assert_eq!(response.status().as_u16(), 201);
    let job: Value = response.json().await?;
    let id = job["id"].as_str().unwrap_or_default().to_owned();

    let (status, burnt) = filling.await??;
    assert_eq!(status, 200, "{burnt}");
    let mut done = false;
    for _ in 0..2400 {
        let (status, job) = server.get(&format!("/v1/jobs/{id}")).await?;
        anyhow::ensure!(status == 200, "{job}");
        if job["state"] == "done" {
            done = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::ensure!(done, "the job did not finish");
    let text = server.client.get(server.url(&format!("/v1/jobs/{id}/results"))).send().await?.text().await?;
    let results: Vec<Value> = text.lines().map(serde_json::from_str).collect::<Result<_, _>>()?;
    assert_eq!(results.len(), 6, "{text}");
    for result in &results {
        let index = result["index"].as_u64().unwrap_or(99);
        let expected = if index % 2 == 0 { "correct" } else { "incorrect" };
        assert_eq!(result["status"], expected, "{result}");
    }
    server.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_larger_than_the_bound_runs_when_the_queue_is_empty() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |config| config.code.max_pending_items = Some(3)).await?;
    let items: Vec<Value> = (0..10).map(|_| json!({"verifier": "code", "input": sum_input()})).collect();
    let (status, _, body) = post(&server, "/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(results.len(), 10);
    assert!(results.iter().all(|r| r["status"] == "correct"), "{body}");
    server.finish().await
}
