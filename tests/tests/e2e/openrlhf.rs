//! `POST /get_reward`, OpenRLHF's remote reward protocol, over real sockets on SQLite and
//! PostgreSQL.

use referee_tests::{TestServer, api_on_both_backends};
use serde_json::{Value, json};

fn floats(body: &Value, key: &str) -> Vec<f64> {
    body[key].as_array().into_iter().flatten().map(|v| v.as_f64().unwrap_or(f64::NAN)).collect()
}

api_on_both_backends!(rewards_follow_the_verdicts, |backend| async move {
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

api_on_both_backends!(missing_labels_and_other_verifiers, |backend| async move {
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

api_on_both_backends!(empty_steps_and_errors, |backend| async move {
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

api_on_both_backends!(configured_defaults, |backend| async move {
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

/// A few-shot math prompt in a chat template whose earlier assistant turn answers `\boxed{42}`,
/// ending with the generation prompt.
fn few_shot(template: &str) -> String {
    let (user, assistant, end) = match template {
        "chatml" => ("<|im_start|>user\n", "<|im_start|>assistant\n", "<|im_end|>\n"),
        "llama3" => (
            "<|start_header_id|>user<|end_header_id|>\n\n",
            "<|start_header_id|>assistant<|end_header_id|>\n\n",
            "<|eot_id|>",
        ),
        "gemma" => ("<start_of_turn>user\n", "<start_of_turn>model\n", "<end_of_turn>\n"),
        "deepseek" => {
            ("<\u{ff5c}User\u{ff5c}>", "<\u{ff5c}Assistant\u{ff5c}>", "<\u{ff5c}end\u{2581}of\u{2581}sentence\u{ff5c}>")
        }
        _ => ("[INST] ", "[/INST]", "</s>"),
    };
    format!("{user}What is 6*7?{end}{assistant}The answer is \\boxed{{42}}.{end}{user}What is 6*8?{end}{assistant}")
}

/// Metrics are process-wide and the tests of this file run in parallel, on both backends at once:
/// a test that reads a metric holds this lock so that no other test moves it meanwhile.
static METRICS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The value of an unlabelled Prometheus metric, 0 when it was never recorded.
async fn counter(server: &TestServer, name: &str) -> anyhow::Result<f64> {
    let text = server.client.get(server.url("/metrics")).send().await?.text().await?;
    Ok(text.lines().find_map(|line| line.strip_prefix(name).and_then(|rest| rest.trim().parse().ok())).unwrap_or(0.0))
}

api_on_both_backends!(truncated_prompts_never_score_prompt_text, |backend| async move {
    let server = TestServer::start(backend).await?;
    let templates = ["chatml", "llama3", "gemma", "deepseek", "mistral"];
    let mut queries = Vec::new();
    let mut prompts = Vec::new();
    for template in templates {
        let prompt = few_shot(template);
        // OpenRLHF cut the prompt's start off before generating but sends the whole prompt.
        let cut = prompt.char_indices().nth(prompt.chars().count() / 2).map_or(0, |(i, _)| i);
        queries.push(format!("{}I do not know.", &prompt[cut..]));
        prompts.push(prompt.clone());
        queries.push(format!("{}6*8 is \\boxed{{48}}.", &prompt[cut..]));
        prompts.push(prompt);
    }
    let labels = vec!["48"; queries.len()];
    let (status, body) = server
        .post("/get_reward?verifier=math", &json!({"query": queries, "prompts": prompts, "labels": labels}))
        .await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(floats(&body, "rewards"), [0.0, 1.0].repeat(templates.len()), "{body}");
    assert_eq!(body["extra_logs"]["judged"], json!(vec![1.0; queries.len()]), "{body}");

    // Labelled 42, the few-shot answer: "I do not know." still earns nothing.
    let prompt = few_shot("chatml");
    let query = format!("{}I do not know.<|im_end|>", &prompt[20..]);
    let (status, body) =
        server.post("/get_reward", &json!({"query": [query], "prompts": [prompt], "labels": ["42"]})).await?;
    assert_eq!((status, floats(&body, "rewards")), (200, vec![0.0]), "{body}");
    assert_eq!(body["statuses"], json!(["unparseable"]), "{body}");

    // Without a chat template nothing marks where the response starts: unjudged, and counted.
    let _metrics = METRICS.lock().await;
    let before = counter(&server, "referee_openrlhf_unseparated_total").await?;
    let prompt = "Q: What is 6*7?\nA: \\boxed{42}\nQ: What is 6*8?\nA: ";
    let (status, body) = server
        .post(
            "/get_reward",
            &json!({"query": [format!("{}I do not know.", &prompt[5..]), format!("{prompt}\\boxed{{48}}")],
                "prompts": [prompt, prompt], "labels": ["42", "48"]}),
        )
        .await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(floats(&body, "rewards"), [0.0, 1.0], "{body}");
    assert_eq!(body["statuses"], json!(["invalid_input", "correct"]), "{body}");
    assert_eq!(body["extra_logs"]["judged"], json!([0.0, 1.0]), "{body}");
    assert_eq!(counter(&server, "referee_openrlhf_unseparated_total").await? - before, 1.0);
    server.finish().await
});

/// A `code` item whose one test burns its fuel (about a second of guest CPU).
fn burner() -> Value {
    json!({"items": [{"verifier": "code", "input": {
        "language": "python", "program": "while True:\n    pass",
        "tests": [{"stdin": "", "expected_stdout": "never\n"}],
        "options": {"fuel": 10_000_000_000_u64, "time_limit_ms": 60_000}}}]})
}

api_on_both_backends!(trainer_requests_wait_for_room_while_the_general_api_sheds, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.server.max_concurrent_requests = 1;
        config.server.max_waiting_requests = 1;
        config.server.retry_after_secs = 2;
        config.server.request_timeout_ms = 120_000;
    })
    .await?;
    let _metrics = METRICS.lock().await;
    let exact = json!({"items": [{"verifier": "exact-match", "input": {"response": "4", "reference": "4"}}]});
    // A burner takes the one request slot; a probe refused with 503 shows it holds it.
    let mut burning = None;
    for _ in 0..100 {
        let (client, url) = (server.client.clone(), server.url("/v1/score"));
        let task = tokio::spawn(async move { client.post(url).json(&burner()).send().await?.json::<Value>().await });
        loop {
            if task.is_finished() {
                break;
            }
            let (status, body) = server.post("/v1/score", &exact).await?;
            if status == 503 {
                assert_eq!(body["code"], "overloaded", "{body}");
                burning = Some(task);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        if burning.is_some() {
            break;
        }
    }
    let Some(burning) = burning else { anyhow::bail!("the burner never held the request slot") };

    // A trainer request waits for the slot instead of being refused.
    let (client, url) = (server.client.clone(), server.url("/get_reward?verifier=exact-match"));
    let held = tokio::spawn(async move {
        let response = client.post(url).json(&json!({"query": ["4"], "prompts": [""], "labels": ["4"]})).send().await?;
        anyhow::Ok((response.status().as_u16(), response.json::<Value>().await?))
    });
    while counter(&server, "referee_trainer_requests_waiting").await? < 1.0 {
        anyhow::ensure!(!held.is_finished(), "the trainer request did not wait: {:?}", held.await);
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // One may wait; the next trainer request is refused with Retry-After.
    let response = server
        .client
        .post(server.url("/get_reward?verifier=exact-match"))
        .json(&json!({"query": ["4"]}))
        .send()
        .await?;
    let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let (status, body) = (response.status().as_u16(), response.json::<Value>().await?);
    assert_eq!((status, body["code"].as_str(), retry_after.as_deref()), (503, Some("busy"), Some("2")), "{body}");
    assert!(body["message"].as_str().is_some_and(|m| m.contains("max_waiting_requests")), "{body}");

    let burnt = burning.await??;
    assert_eq!(burnt["results"][0]["details"]["tests"][0]["verdict"], "time_limit", "{burnt}");
    let (status, body) = held.await??;
    assert_eq!((status, floats(&body, "rewards")), (200, vec![1.0]), "{body}");
    server.finish().await
});
