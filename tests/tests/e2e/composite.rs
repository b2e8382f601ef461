//! `composite` over HTTP: listed with its schema, parts scored by the registered verifiers in one
//! request beside plain items, and a bad item answered in its own verdict.

use referee_tests::{Backend, TestServer};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn composite_items_over_http() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    let listed = listing.to_string();
    assert!(listed.contains("\"composite\"") && listed.contains("aggregate"), "{listed}");

    let instances = json!([
        {"verifier": "math", "input": {"reference": "4"}},
        {"verifier": "math", "input": {"reference": "9"}},
        {"verifier": "math", "input": {"reference": "1/4"}}
    ]);
    let items = json!([
        {"id": "all-right", "verifier": "composite",
         "input": {"response": r"<think>x^2</think> \boxed{4}, \boxed{9}, \boxed{0.25}", "parts": instances}},
        {"id": "one-wrong", "verifier": "composite",
         "input": {"response": r"\boxed{4}, \boxed{8}, \boxed{0.25}", "parts": instances}},
        {"id": "mixed", "verifier": "composite",
         "input": {"response": "1. Paris\n2. (B)\n3. 12", "split": "numbered", "aggregate": "mean", "parts": [
             {"verifier": "exact-match", "input": {"reference": "Paris"}},
             {"verifier": "multiple-choice", "input": {"reference": "C", "num_options": 4}},
             {"verifier": "math", "input": {"reference": "12"}}]}},
        {"id": "nested", "verifier": "composite",
         "input": {"response": "x", "parts": [{"verifier": "rubric"}]}},
        {"id": "plain", "verifier": "exact-match", "input": {"response": "yes", "reference": "yes"}}
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().cloned().unwrap_or_default();
    let by_id = |id: &str| results.iter().find(|r| r["id"] == id).cloned().unwrap_or_default();
    assert_eq!(
        (by_id("all-right")["score"].as_f64(), by_id("all-right")["status"].as_str()),
        (Some(1.0), Some("correct"))
    );
    assert_eq!(
        (by_id("one-wrong")["score"].as_f64(), by_id("one-wrong")["status"].as_str()),
        (Some(0.0), Some("incorrect"))
    );
    assert_eq!(by_id("one-wrong")["details"]["parts"][1]["status"], "incorrect");
    let mixed = by_id("mixed");
    assert_eq!(mixed["status"], "partial", "{mixed}");
    assert!((mixed["score"].as_f64().unwrap_or_default() - 2.0 / 3.0).abs() < 1e-9, "{mixed}");
    assert_eq!(mixed["details"]["parts"][1]["status"], "incorrect");
    let nested = by_id("nested");
    assert_eq!(nested["status"], "invalid_input");
    assert!(nested["details"]["error"].as_str().unwrap_or_default().contains("cannot check a part"), "{nested}");
    assert_eq!(by_id("plain")["status"], "correct");
    server.finish().await
}
