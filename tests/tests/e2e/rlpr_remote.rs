//! `rlpr` items scored by a remote completions server: the real remote client of a real server
//! talks over loopback to a small server playing vLLM's `/v1/completions` with echoed prompt
//! log-probs ([`referee_tests::completions`]). The rewards are checked against values worked
//! out by hand from that server's tokeniser and log-probs.

use std::sync::atomic::Ordering;

use referee_server::Config;
use referee_server::config::RlprSource;
use referee_tests::completions::FakeCompletions;
use referee_tests::{Backend, TestServer, api_on_both_backends, on_both_backends};
use serde_json::{Value, json};

const EOS: &str = "<|im_end|>";
/// A prompt rendered with a chat template, with a multi-byte character (×, two bytes) so that
/// the server's character offsets differ from byte offsets.
const PROMPT: &str = "<|im_start|>user\nWhat is 6 × 7, in apples?<|im_end|>\n<|im_start|>assistant\n";
const REFERENCE: &str = "42 apples";

fn close(value: &Value, expected: f64) -> bool {
    value.as_f64().is_some_and(|v| (v - expected).abs() < 1e-9)
}

/// Scores `rlpr` items with the fake completions server at `url`.
fn use_remote(config: &mut Config, url: String) {
    config.rlpr.source = RlprSource::Remote;
    config.rlpr.remote.url = Some(url);
    config.rlpr.remote.model = "policy-7b".to_owned();
    config.rlpr.remote.eos_token = Some(EOS.to_owned());
    config.rlpr.remote.max_retries = 1;
    config.rlpr.remote.backoff_ms = 1;
    config.rlpr.remote.max_backoff_ms = 5;
}

async fn remote_server(backend: Backend, fake: &FakeCompletions) -> anyhow::Result<TestServer> {
    let url = fake.url.clone();
    TestServer::start_with(backend, move |config| use_remote(config, url)).await
}

fn item(id: &str, response: &str, extra: Value) -> Value {
    let mut input = json!({"response": response, "prompt": PROMPT, "reference": REFERENCE});
    if let (Some(input), Some(extra)) = (input.as_object_mut(), extra.as_object()) {
        input.extend(extra.clone());
    }
    json!({"id": id, "verifier": "rlpr", "input": input})
}

api_on_both_backends!(a_remote_model_scores_the_reference_answer, |backend| async move {
    let fake = FakeCompletions::start().await?;
    let server = remote_server(backend, &fake).await?;
    let reasoned = "<think>6 × 7 = 42</think> so <answer>41</answer>";
    let items = json!([
        item("debiased", reasoned, json!({})),
        item("unstructured", "42 apples, I think", json!({})),
        item("given-score-a", reasoned, json!({"score_a": 0.5})),
        item("plain", reasoned, json!({"options": {"debias": false}})),
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = &body["results"];

    // The answer's tokens are "42", " " and "apples": with reasoning, −0.05 per character; in
    // the baseline (no </think>), −0.2 per character.
    let score_b = ((-0.1f64).exp() + (-0.05f64).exp() + (-0.3f64).exp()) / 3.0; // 0.86563
    let score_b_bf16 = 0.8671875; // bfloat16 of 0.86563
    let score_a = ((-0.4f64).exp() + (-0.2f64).exp() + (-1.2f64).exp()) / 3.0; // 0.59675
    assert!((score_b - 0.865_628).abs() < 1e-6);

    let debiased = &results[0];
    assert_eq!(debiased["status"], "partial", "{body}");
    assert!(close(&debiased["details"]["rlpr"]["score_b"], score_b_bf16), "{body}");
    assert!(close(&debiased["details"]["rlpr"]["score_a"], score_a), "{body}");
    assert!(close(&debiased["score"], 0.9 * (score_b_bf16 - score_a) + 0.1), "{body}");
    assert_eq!((&debiased["details"]["tokens"], &debiased["details"]["source"]), (&json!(3), &json!("remote")));

    let unstructured = &results[1];
    assert_eq!((&unstructured["status"], &unstructured["score"]), (&json!("unparseable"), &json!(0.0)), "{body}");

    let given = &results[2];
    assert!(close(&given["score"], 0.9 * (score_b_bf16 - 0.5) + 0.1), "{body}");
    assert!(close(&given["details"]["rlpr"]["score_a"], 0.5), "{body}");
    assert!(close(&results[3]["score"], 0.9 * score_b_bf16 + 0.1), "{body}");

    // One request held every text: three substituted responses and one baseline; the
    // unstructured response sent nothing.
    assert_eq!(fake.requests(), 1);
    let substituted = format!("{PROMPT}<think>6 × 7 = 42</think> so <answer> {REFERENCE} </answer>{EOS}");
    let baseline = format!("{PROMPT} {REFERENCE} {EOS}");
    assert_eq!(fake.texts(), [substituted.clone(), baseline, substituted.clone(), substituted]);
    let sent = fake.state.last_body.lock().map(|b| b.clone()).unwrap_or_default().unwrap_or_default();
    assert_eq!((&sent["echo"], &sent["logprobs"], &sent["max_tokens"]), (&json!(true), &json!(1), &json!(1)));
    assert_eq!((&sent["model"], &sent["temperature"]), (&json!("policy-7b"), &json!(1.0)));
    assert_eq!(sent["add_special_tokens"], json!(false), "the rendered chat holds its BOS already: {sent}");

    // The baseline of a prompt and reference is scored once: the next rollout of the same
    // prompt sends its own text only.
    let (status, body) = server.post("/v1/score", &json!({"items": [item("again", reasoned, json!({}))]})).await?;
    assert_eq!(status, 200, "{body}");
    assert!(close(&body["results"][0]["score"], 0.9 * (score_b_bf16 - score_a) + 0.1), "{body}");
    assert_eq!(fake.texts().len(), 5);
    server.finish().await
});

#[tokio::test]
async fn a_failing_remote_model_fails_its_items_not_the_batch() -> anyhow::Result<()> {
    let fake = FakeCompletions::start().await?;
    let server = remote_server(Backend::Sqlite, &fake).await?;
    let scored = "<think>r</think><answer>1</answer>";
    let batch = json!({"items": [
        item("model", scored, json!({"score_a": 0.1})),
        {"id": "supplied", "verifier": "rlpr", "input": {"response": scored, "logprobs": [-0.1], "score_a": 0.1}},
    ]});

    // Two 500s exhaust the one retry: the model item is an internal error; the other is scored.
    fake.state.failures.store(2, Ordering::SeqCst);
    let (status, body) = server.post("/v1/score", &batch).await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["results"][0]["status"], "internal_error", "{body}");
    let error = body["results"][0]["details"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("500") && error.contains("2 attempts"), "{error}");
    assert_eq!(body["results"][1]["status"], "partial", "{body}");
    assert_eq!(fake.requests(), 2);

    // One 500, then an answer: the retry scores the item.
    fake.state.failures.store(1, Ordering::SeqCst);
    let (_, body) = server.post("/v1/score", &batch).await?;
    assert_eq!(body["results"][0]["status"], "partial", "{body}");

    // An answer that is not JSON fails the item.
    fake.state.malformed.store(true, Ordering::SeqCst);
    let (status, body) = server.post("/v1/score", &batch).await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["results"][0]["status"], "internal_error", "{body}");
    let error = body["results"][0]["details"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("not JSON"), "{error}");

    // A remote source cannot be reloaded.
    let (status, error) = server.post("/v1/reward-models/rlpr/reload", &json!({})).await?;
    assert_eq!((status, &error["code"]), (409, &json!("not_reloadable")), "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("remote")), "{error}");
    server.finish().await
}

#[tokio::test]
async fn without_a_source_model_mode_items_are_invalid() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let items = json!([
        item("model", "<think>r</think><answer>1</answer>", json!({})),
        {"id": "both", "verifier": "rlpr", "input": {
            "response": "<think>r</think><answer>1</answer>", "logprobs": [-0.1], "score_a": 0.1, "prompt": PROMPT}},
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    for result in body["results"].as_array().into_iter().flatten() {
        assert_eq!(result["status"], "invalid_input", "{body}");
    }
    let error = body["results"][0]["details"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("rlpr.source") && error.contains("logprobs"), "{error}");
    let (status, error) = server.post("/v1/reward-models/rlpr/reload", &json!({"model_dir": "/tmp"})).await?;
    assert_eq!((status, &error["code"]), (409, &json!("not_reloadable")), "{error}");
    server.finish().await
}

on_both_backends!(a_runs_baseline_is_kept_in_the_database_across_restarts, |backend| async move {
    let fake = FakeCompletions::start().await?;
    let server = remote_server(backend, &fake).await?;
    let run = format!("baselines-{backend:?}-{}", std::process::id());
    let reasoned = "<think>6 × 7 = 42</think> so <answer>41</answer>";
    let with_run = |id: &str| item(id, reasoned, json!({"run": run}));
    let score_a = ((-0.4f64).exp() + (-0.2f64).exp() + (-1.2f64).exp()) / 3.0;

    // The run's first rollout of the prompt scores its baseline and stores it.
    let (status, body) = server.post("/v1/score", &json!({"items": [with_run("first")]})).await?;
    assert_eq!(status, 200, "{body}");
    assert!(close(&body["results"][0]["details"]["rlpr"]["score_a"], score_a), "{body}");
    assert_eq!(fake.texts().len(), 2, "the scored text and the baseline");

    // Another server over the same database (a restart, or another replica) starts with an
    // empty memory: the run's rollouts of the prompt get the stored baseline, not a new one.
    let mut config = referee_tests::server_config(&server.database_url)?;
    use_remote(&mut config, fake.url.clone());
    let other = referee_server::start(&config).await?;
    let other_base = format!("http://{}", other.addr());
    let post = |body: Value| {
        let url = format!("{other_base}/v1/score");
        async move { reqwest::Client::new().post(url).json(&body).send().await?.json::<Value>().await }
    };
    let body = post(json!({"items": [with_run("again"), with_run("and again")]})).await?;
    for result in body["results"].as_array().into_iter().flatten() {
        assert_eq!(result["status"], "partial", "{body}");
        assert!(close(&result["details"]["rlpr"]["score_a"], score_a), "{body}");
    }
    assert_eq!(fake.texts().len(), 4, "two scored texts, no baseline");
    // Without `run`, the new server keeps baselines in its own memory only: it scores one.
    let body = post(json!({"items": [item("no run", reasoned, json!({}))]})).await?;
    assert_eq!(body["results"][0]["status"], "partial", "{body}");
    assert_eq!(fake.texts().len(), 6, "the scored text and a baseline");
    // A bad run name is the item's fault.
    let body = post(json!({"items": [item("bad", reasoned, json!({"run": ""}))]})).await?;
    assert_eq!(body["results"][0]["status"], "invalid_input", "{body}");
    other.shutdown().await?;

    // Forgetting the run forgets its baselines: the run started again scores its own.
    let status = server.delete(&format!("/v1/reward-models/rlpr/runs/{run}")).await?;
    assert_eq!(status, 204, "a run with stored baselines only is a run to forget");
    let (status, body) = server.post("/v1/score", &json!({"items": [with_run("restarted")]})).await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(fake.texts().len(), 8, "the scored text and the baseline again");
    server.finish().await
});
