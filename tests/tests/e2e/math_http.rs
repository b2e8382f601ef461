//! The math conformance file scored through `POST /v1/score` gives exactly the library's verdicts.

use referee_core::{Budget, Verifier as _};
use referee_math::{MathInput, MathVerifier};
use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn peer_cases_over_http_match_the_library() -> anyhow::Result<()> {
    let rows: Vec<Value> = include_str!("../../../verifiers/math/tests/data/peer_cases.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    assert_eq!(rows.len(), 324);
    let inputs: Vec<Value> =
        rows.iter().map(|row| json!({"response": row["pred"], "reference": row["gold"]})).collect();

    let typed: Vec<MathInput> = inputs.iter().map(|i| serde_json::from_value(i.clone())).collect::<Result<_, _>>()?;
    let library = MathVerifier::new().verify_batch(&typed, &Budget::unlimited());

    let server = TestServer::start(Backend::Sqlite).await?;
    let items: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| json!({"id": i.to_string(), "verifier": "math", "input": input}))
        .collect();
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200);
    let results = body["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(results.len(), library.len());
    let mut agree_with_labels = 0;
    for (i, (http, lib)) in results.iter().zip(&library).enumerate() {
        assert_eq!(http["id"], i.to_string());
        assert_eq!(http["status"], serde_json::to_value(lib.status)?, "row {}", i + 1);
        assert_eq!(http["score"].as_f64(), Some(lib.score), "row {}", i + 1);
        assert_eq!(http["details"], Value::Object(lib.details.clone()), "row {}", i + 1);
        agree_with_labels += usize::from((lib.score == 1.0) == rows[i]["expected"].as_bool().unwrap_or(false));
    }
    let accuracy = agree_with_labels as f64 / rows.len() as f64;
    assert!(accuracy >= 0.97, "accuracy over HTTP {accuracy:.3}");
    server.finish().await
}
