//! The NP environments over HTTP: catalogue, reproducible generation, and scoring the
//! generated references with the `np` verifier.

use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generate_then_score_the_reference() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let (status, listing) = server.get("/v1/environments").await?;
    assert_eq!(status, 200);
    let tasks: Vec<String> = listing["environments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["task"].as_str().map(str::to_owned))
        .collect();
    assert!(tasks.len() >= 20, "{tasks:?}");
    for environment in listing["environments"].as_array().into_iter().flatten() {
        assert!(environment["levels"].as_array().is_some_and(|l| !l.is_empty()), "{environment}");
        assert!(environment["answer_format"].as_str().is_some_and(|f| !f.is_empty()));
    }

    for task in &tasks {
        let path = format!("/v1/environments/{task}/instances");
        let (status, first) = server.post(&path, &json!({"level": 1, "seed": 42, "count": 2})).await?;
        assert_eq!(status, 200, "{task}: {first}");
        let (_, again) = server.post(&path, &json!({"level": 1, "seed": 42, "count": 2})).await?;
        assert_eq!(first, again, "{task}: the same seed must give the same instances");
        let instances = first["instances"].as_array().cloned().unwrap_or_default();
        assert_eq!(instances.len(), 2);
        assert_eq!(instances[1]["seed"], 43);
        assert_ne!(instances[0]["instance"], instances[1]["instance"], "{task}: seeds 42 and 43 differ");

        let instance = &instances[0];
        let answer = instance["reference"]["answer"].as_str().unwrap_or_default();
        let response = format!("Here is my solution.\n<answer>{answer}</answer>");
        let items = json!({"items": [
            {"id": "by-seed", "verifier": "np", "input": {"task": task, "level": 1, "seed": 42, "response": response, "reward_mode": "ratio"}},
            {"id": "inline", "verifier": "np", "input": {"task": task, "instance": instance["instance"], "response": response, "reward_mode": "ratio"}},
            {"id": "empty", "verifier": "np", "input": {"task": task, "level": 1, "seed": 42, "response": "I do not know."}},
        ]});
        let (status, scored) = server.post("/v1/score", &items).await?;
        assert_eq!(status, 200);
        let results: Vec<Value> = scored["results"].as_array().cloned().unwrap_or_default();
        for result in &results[..2] {
            assert_eq!(result["score"].as_f64(), Some(1.0), "{task}: the reference reaches ratio 1: {result}");
            assert_eq!(result["details"]["feasible"], true, "{task}: {result}");
        }
        assert_eq!(results[2]["status"], "unparseable", "{task}: {}", results[2]);
    }

    let (status, error) = server.post("/v1/environments/tsp/instances", &json!({"level": 99, "seed": 1})).await?;
    assert_eq!((status, error["code"].as_str()), (404, Some("unknown_level")));
    let (status, error) = server.post("/v1/environments/nope/instances", &json!({"level": 1, "seed": 1})).await?;
    assert_eq!((status, error["code"].as_str()), (404, Some("unknown_task")));
    let (status, error) =
        server.post("/v1/environments/tsp/instances", &json!({"level": 1, "seed": 1, "count": 0})).await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")));
    server.finish().await
}
