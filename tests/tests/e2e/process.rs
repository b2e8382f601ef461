//! `process` over HTTP: steps cut by markers, lines and paragraphs, scored by the LLM judge (a
//! loopback OpenAI-compatible server, through the production judge client, its replies cached)
//! and by `math` on intermediate answers, with character and token offsets and each aggregate;
//! bad items and unreadable responses answered in their own verdicts.

use std::sync::atomic::Ordering;

use referee_tests::judge::FakeJudge;
use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn process_items_over_http() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(Backend::Sqlite, |config| {
        config.judge.base_url = Some(judge.base_url.clone());
        config.judge.model = "test-judge".to_owned();
        config.judge.backoff_ms = 1;
        config.judge.max_backoff_ms = 5;
    })
    .await?;
    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    assert!(listing.to_string().contains("\"process\""), "{listing}");

    let solution = "<think>scratch</think>We compute 2 + 3 * 4.\nStep 1: 3 * 4 = 12.\nStep 2: 2 + 12 = 15. [wrong]\nStep 3: So the answer is 15.";
    let math_steps = json!({"by": "verifier", "verifier": "math",
        "expected": [{"reference": "12"}, {"reference": "14"}, null]});
    let judged = json!({"by": "judge", "problem": "What is 2 + 3 * 4?", "reference": "14"});
    // Character offsets of the tokens of the response: one token per character here.
    let tokens: Vec<[usize; 2]> = (0..solution.chars().count()).map(|i| [i, i + 1]).collect();
    let items = json!([
        {"id": "math-min", "verifier": "process", "input": {"response": solution, "check": math_steps, "token_offsets": tokens}},
        {"id": "math-first-error", "verifier": "process",
         "input": {"response": solution, "check": math_steps, "aggregate": "first_error"}},
        {"id": "judge-mean", "verifier": "process", "input": {"response": solution, "check": judged, "aggregate": "mean"}},
        {"id": "judge-lines", "verifier": "process",
         "input": {"response": "3 * 4 = 12\n2 + 12 = 14", "split": "lines", "check": judged}},
        {"id": "no-steps", "verifier": "process", "input": {"response": "The answer is 14.", "check": judged}},
        {"id": "bad-tokens", "verifier": "process",
         "input": {"response": solution, "check": judged, "token_offsets": [[5, 2]]}},
        {"id": "nested", "verifier": "process",
         "input": {"response": solution, "check": {"by": "verifier", "verifier": "rubric", "expected": []}}}
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().cloned().unwrap_or_default();
    let by_id = |id: &str| results.iter().find(|r| r["id"] == id).cloned().unwrap_or_default();

    let math = by_id("math-min");
    assert_eq!((math["status"].as_str(), math["score"].as_f64()), (Some("incorrect"), Some(0.0)), "{math}");
    let steps = math["details"]["steps"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps.len(), 3, "{math}");
    assert_eq!((steps[0]["score"].as_f64(), steps[1]["score"].as_f64()), (Some(1.0), Some(0.0)));
    assert!(steps[2]["score"].is_null(), "step 3 has no expected answer: {math}");
    assert_eq!(math["details"]["first_error"], 2);
    // The offsets are characters of the response, and with one token per character the tokens
    // are the same span.
    let chars: Vec<char> = solution.chars().collect();
    for step in &steps {
        let (start, end) = (step["start"].as_u64().unwrap_or(0) as usize, step["end"].as_u64().unwrap_or(0) as usize);
        let text: String = chars[start..end].iter().collect();
        assert!(text.starts_with("Step ") && step["text"].as_str() == Some(text.as_str()), "{step}");
        assert_eq!((step["token_start"].as_u64(), step["token_end"].as_u64()), (Some(start as u64), Some(end as u64)));
    }
    let first_error = by_id("math-first-error");
    assert_eq!(
        (first_error["status"].as_str(), first_error["score"].as_f64()),
        (Some("partial"), Some(0.5)),
        "{first_error}"
    );

    let judge_mean = by_id("judge-mean");
    assert_eq!(judge_mean["status"], "partial", "{judge_mean}");
    assert!((judge_mean["score"].as_f64().unwrap_or(0.0) - 2.0 / 3.0).abs() < 1e-9, "{judge_mean}");
    assert_eq!(judge_mean["details"]["steps"][1]["verdict"]["judged"], "incorrect");
    let lines = by_id("judge-lines");
    assert_eq!((lines["status"].as_str(), lines["score"].as_f64()), (Some("correct"), Some(1.0)), "{lines}");
    let no_steps = by_id("no-steps");
    assert_eq!(no_steps["status"], "unparseable", "{no_steps}");
    for (id, needle) in [("bad-tokens", "token_offsets[0]"), ("nested", "cannot check a step")] {
        let verdict = by_id(id);
        assert_eq!(verdict["status"], "invalid_input", "{verdict}");
        assert!(verdict["details"]["error"].as_str().unwrap_or_default().contains(needle), "{verdict}");
    }
    let asked = judge.requests();
    assert_eq!(asked, 2, "one judge call per judged item");

    // The same judged items again are answered from the judge's reply cache.
    let again = json!({"items": [items[2].clone(), items[3].clone()]});
    let (status, body) = server.post("/v1/score", &again).await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(judge.requests(), asked, "{body}");
    assert_eq!(body["results"][0]["details"]["judge"]["cached"], true);

    // A judge that fails: the item's verdict says so, the batch is still answered.
    judge.state.failures.store(100, Ordering::SeqCst);
    let fresh = json!({"items": [{"verifier": "process", "input": {
        "response": "Step 1: 1 + 1 = 2.", "check": {"by": "judge", "problem": "1 + 1?"}}}]});
    let (status, body) = server.post("/v1/score", &fresh).await?;
    assert_eq!(status, 200, "{body}");
    let failed: &Value = &body["results"][0];
    assert!(matches!(failed["status"].as_str(), Some("internal_error" | "timeout")), "{failed}");
    server.finish().await
}
