//! `grounding` over HTTP: listed with its schema, LongRLVR's reward for right and wrong answers
//! and citations, answers checked by the registered scorers in the same request, and bad items
//! and unreadable responses answered in their own verdicts.

use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grounding_items_over_http() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    let listed = listing.to_string();
    assert!(listed.contains("\"grounding\"") && listed.contains("gold_chunks"), "{listed}");

    let france = json!({"verifier": "exact-match", "input": {"reference": "Normandy is in France."}});
    let cited =
        |ids: &str, answer: &str| format!("<useful_chunks>\n{ids}\n</useful_chunks>\n<answer>\n{answer}\n</answer>");
    let item = |id: &str, response: String| {
        json!({"id": id, "verifier": "grounding",
               "input": {"response": response, "gold_chunks": [3, 17], "context_chunks": 40, "answer": france}})
    };
    let items = json!([
        item("exact", cited("<CHUNK_3> <CHUNK_17>", "Normandy is in France.")),
        item("half", cited("<CHUNK_3> <CHUNK_9>", "Normandy is in France.")),
        item("wrong-answer", cited("<CHUNK_3> <CHUNK_17>", "Normandy is in Spain.")),
        item("repeats", cited("<CHUNK_3> <CHUNK_3> <CHUNK_3> <CHUNK_3>", "Normandy is in France.")),
        item("outside", cited("<CHUNK_3> <CHUNK_17> <CHUNK_900>", "Normandy is in France.")),
        item("no-block", "<answer>Normandy is in France.</answer>".to_owned()),
        {"id": "math", "verifier": "grounding",
         "input": {"response": "The total is 12 [2][5].", "format": "brackets", "gold_chunks": [2, 5],
                   "answer": {"verifier": "math", "input": {"reference": "12"}}, "normalize": true}},
        {"id": "nested", "verifier": "grounding",
         "input": {"response": "x", "gold_chunks": [1], "answer": {"verifier": "composite"}}},
        {"id": "no-gold", "verifier": "grounding",
         "input": {"response": "x", "gold_chunks": [], "answer": france}},
        {"id": "plain", "verifier": "exact-match", "input": {"response": "yes", "reference": "yes"}}
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().cloned().unwrap_or_default();
    let by_id = |id: &str| results.iter().find(|r| r["id"] == id).cloned().unwrap_or_default();
    let score = |id: &str| by_id(id)["score"].as_f64().unwrap_or(f64::NAN);
    let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
    // LongRLVR: r = r_ans + 0.1 F + 0.9 r_ans F, F = 5PR / (4P + R).
    let f2 = |p: f64, r: f64| 5.0 * p * r / (4.0 * p + r);
    assert_eq!(by_id("exact")["status"], "correct");
    assert!(near(score("exact"), 2.0), "{}", by_id("exact"));
    assert_eq!(by_id("half")["status"], "partial");
    assert!(near(score("half"), 1.0 + f2(0.5, 0.5)), "{}", by_id("half"));
    assert!(near(score("wrong-answer"), 0.1), "{}", by_id("wrong-answer"));
    assert_eq!(by_id("wrong-answer")["details"]["answer"]["status"], "incorrect");
    let repeats = by_id("repeats");
    assert!(near(score("repeats"), 1.0 + f2(0.25, 0.5)), "{repeats}");
    assert_eq!(repeats["details"]["duplicates"], 3);
    let outside = by_id("outside");
    assert_eq!(outside["details"]["outside_context"], 1, "{outside}");
    assert!(near(score("outside"), 1.0 + f2(2.0 / 3.0, 1.0)), "{outside}");
    let no_block = by_id("no-block");
    assert_eq!((no_block["status"].as_str(), no_block["score"].as_f64()), (Some("unparseable"), Some(0.0)));
    let math = by_id("math");
    assert_eq!(math["status"], "correct", "{math}");
    assert!(near(score("math"), 1.0), "normalized: {math}");
    assert_eq!(math["details"]["answer"]["text"], "The total is 12.");
    for (id, needle) in [("nested", "cannot check the answer"), ("no-gold", "gold_chunks")] {
        let verdict = by_id(id);
        assert_eq!(verdict["status"], "invalid_input", "{verdict}");
        assert!(verdict["details"]["error"].as_str().unwrap_or_default().contains(needle), "{verdict}");
    }
    assert_eq!(by_id("plain")["status"], "correct");
    assert!(
        results.iter().all(|r| r["score"].as_f64().is_some_and(f64::is_finite)),
        "{}",
        Value::Array(results.clone())
    );
    server.finish().await
}
