//! `POST /get_reward`, OpenRLHF's remote reward protocol, over real sockets on SQLite and
//! PostgreSQL.

use referee_tests::{TestServer, on_both_backends};
use serde_json::{Value, json};

fn floats(body: &Value, key: &str) -> Vec<f64> {
    body[key].as_array().into_iter().flatten().map(|v| v.as_f64().unwrap_or(f64::NAN)).collect()
}

on_both_backends!(rewards_follow_the_verdicts, |backend| async move {
    let server = TestServer::start(backend).await?;
    let prompts = ["<|user|>6*7?<|assistant|>", "<|user|>2+2?<|assistant|>", "<|user|>Half?<|assistant|>"];
    let responses = ["\\boxed{42}", "\\boxed{5}", "0.5"];
    let queries: Vec<String> = prompts.iter().zip(responses).map(|(p, r)| format!("{p}{r}")).collect();
    let (status, body) = server
        .post("/get_reward", &json!({"query": queries, "prompts": prompts, "labels": ["42", "4", "\\frac{1}{2}"]}))
        .await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(floats(&body, "rewards"), [1.0, 0.0, 1.0]);
    assert_eq!(body["scores"], body["rewards"]);
    assert_eq!(body["extra_logs"], json!({"correct": [1.0, 0.0, 1.0], "judged": [1.0, 1.0, 1.0]}));
    assert_eq!(body["statuses"], json!(["correct", "incorrect", "correct"]));

    // The prompt is not part of the response: its "7" is not read as the answer.
    let (status, body) = server
        .post("/get_reward", &json!({"query": ["Is it 7? I cannot tell."], "prompts": ["Is it 7?"], "labels": [7]}))
        .await?;
    assert_eq!((status, floats(&body, "rewards")), (200, vec![0.0]), "{body}");
    // Without prompts the query is scored whole, and a numeric label is its text.
    let (status, body) = server.post("/get_reward", &json!({"query": ["Is it 7?"], "labels": [7]})).await?;
    assert_eq!((status, floats(&body, "rewards")), (200, vec![1.0]), "{body}");
    server.finish().await
});

on_both_backends!(missing_labels_and_other_verifiers, |backend| async move {
    let server = TestServer::start(backend).await?;
    let (status, body) = server
        .post(
            "/get_reward?verifier=multiple-choice",
            &json!({"query": ["Q: (B)", "Q: (A)", "Q: (C)"], "prompts": ["Q: "], "labels": ["B", {"reference": "A"}]}),
        )
        .await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["statuses"], json!(["correct", "correct", "invalid_input"]));
    assert_eq!(floats(&body, "rewards"), [1.0, 1.0, 0.0]);
    assert_eq!(body["extra_logs"]["judged"], json!([1.0, 1.0, 0.0]));

    let (status, body) = server
        .post(
            "/get_reward?verifier=regex-match&label_field=pattern",
            &json!({"query": ["x = 42", "x = y"], "labels": ["\\d+", "\\d+"], "stop_reason": ["stop", "stop"]}),
        )
        .await?;
    assert_eq!((status, floats(&body, "rewards")), (200, vec![1.0, 0.0]), "{body}");
    server.finish().await
});

on_both_backends!(empty_steps_and_errors, |backend| async move {
    let server = TestServer::start(backend).await?;
    let (status, body) = server.post("/get_reward", &json!({"query": [], "prompts": [], "labels": []})).await?;
    assert_eq!(status, 200);
    assert_eq!(body, json!({"rewards": [], "scores": [], "extra_logs": {"correct": [], "judged": []}, "statuses": []}));
    let (status, body) = server.post("/get_reward", &json!({"query": [], "labels": null})).await?;
    assert_eq!((status, body["rewards"].clone()), (200, json!([])));

    let (status, body) = server.post("/get_reward?verifier=nope", &json!({"query": ["x"]})).await?;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_verifier")), "{body}");
    let (status, body) = server.post("/get_reward", &json!({"prompts": ["x"]})).await?;
    assert_eq!((status, body["code"].as_str()), (422, Some("invalid_body")), "{body}");
    let (status, body) = server.post("/get_reward", &json!({"query": "x"})).await?;
    assert_eq!((status, body["code"].as_str()), (422, Some("invalid_body")), "{body}");
    let (status, body) = server.post("/get_reward?verifier=a&verifier=b", &json!({"query": ["x"]})).await?;
    assert_eq!((status, body["code"].as_str()), (422, Some("invalid_body")), "{body}");
    server.finish().await
});

on_both_backends!(configured_defaults, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.openrlhf.verifier = "exact-match".to_owned();
        config.server.max_batch_items = 2;
    })
    .await?;
    let (status, body) =
        server.post("/get_reward", &json!({"query": ["Paris", "paris"], "labels": ["Paris", "Paris"]})).await?;
    assert_eq!((status, floats(&body, "rewards")), (200, vec![1.0, 0.0]), "{body}");
    let (status, body) = server.post("/get_reward", &json!({"query": ["a", "b", "c"]})).await?;
    assert_eq!((status, body["code"].as_str()), (413, Some("too_many_items")), "{body}");
    server.finish().await
});
