//! The `rubric` reward model over real HTTP: stored rubrics on SQLite and PostgreSQL, rule and
//! verifier criteria, and judge criteria asked of a loopback OpenAI-compatible server through
//! the production judge client.

use std::sync::atomic::Ordering;

use referee_server::Config;
use referee_tests::judge::FakeJudge;
use referee_tests::{Backend, TestServer, api_on_both_backends, on_both_backends};
use serde_json::{Value, json};

fn judged(config: &mut Config, judge: &FakeJudge) {
    config.judge.base_url = Some(judge.base_url.clone());
    config.judge.model = "test-judge".to_owned();
    config.judge.backoff_ms = 1;
    config.judge.max_backoff_ms = 5;
}

async fn score(server: &TestServer, inputs: &[Value]) -> anyhow::Result<Vec<Value>> {
    let items: Vec<Value> = inputs.iter().map(|input| json!({"verifier": "rubric", "input": input})).collect();
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    anyhow::ensure!(status == 200, "{body}");
    Ok(body["results"].as_array().cloned().unwrap_or_default())
}

fn close(value: &Value, expected: f64) -> bool {
    value.as_f64().is_some_and(|v| (v - expected).abs() < 1e-9)
}

fn criterion<'a>(result: &'a Value, name: &str) -> &'a Value {
    result["details"]["criteria"]
        .as_array()
        .and_then(|list| list.iter().find(|c| c["name"] == name))
        .unwrap_or(&Value::Null)
}

fn essay_rubric() -> Value {
    json!({"criteria": [
        {"name": "title", "kind": {"type": "format", "format": "heading"}},
        {"name": "length", "weight": 2, "kind": {"type": "length", "unit": "words", "min": 5, "max": 50}},
        {"name": "no_apology", "veto": true, "kind": {"type": "regex", "pattern": "(?i)\\bsorry\\b", "absent": true}},
        {"name": "terms", "kind": {"type": "keywords", "keywords": ["chlorophyll", "light", "glucose", "oxygen"]}},
        {"name": "close_to_reference", "kind": {"type": "similarity", "metric": "rouge_l"}},
        {"name": "capital", "kind": {"type": "verifier", "verifier": "exact-match", "input": {"reference": "Paris"}}}
    ]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rule_and_verifier_criteria_over_http() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let reference = "Plants use light and chlorophyll to make glucose and oxygen.";
    let good = "# Photosynthesis\nPlants use light and chlorophyll to make glucose and release oxygen.";
    let results = score(
        &server,
        &[
            json!({"response": good, "reference": reference, "rubric": essay_rubric()}),
            json!({"response": "Sorry, I do not know about plants at all.", "reference": reference, "rubric": essay_rubric()}),
            json!({"response": good, "rubric": essay_rubric()}),
            json!({"response": good, "rubric": {"criteria": [{"name": "a", "kind": {"type": "regex", "pattern": "("}}]}}),
            json!({"response": good}),
            json!({"response": "x", "rubric_id": "nowhere"}),
        ],
    )
    .await?;
    // ROUGE-L of `good` against the reference: every one of the reference's 11 tokens, in
    // order, among the response's 14 ("#", "photosynthesis" and "release" are extra).
    let rouge = 2.0 * (11.0 / 14.0) / (11.0 / 14.0 + 1.0);
    let capital = 0.0; // the response is not "Paris"
    let expected = (1.0 + 2.0 + 1.0 + 1.0 + rouge + capital) / 7.0;
    let first = &results[0];
    assert_eq!(first["status"], "partial", "{first}");
    assert!(close(&first["score"], expected), "{} vs {expected}", first["score"]);
    assert!(close(&criterion(first, "close_to_reference")["score"], rouge), "{first}");
    assert_eq!(criterion(first, "capital")["judged"]["status"], "incorrect");
    assert_eq!(first["details"]["vetoed"], json!([]));
    assert_eq!(first["details"]["rubric"], json!({"inline": true}));

    let apology = &results[1];
    assert_eq!((apology["status"].as_str(), apology["score"].as_f64()), (Some("incorrect"), Some(0.0)), "{apology}");
    assert_eq!(apology["details"]["vetoed"], json!(["no_apology"]));
    assert_eq!(criterion(apology, "no_apology")["passed"], false);

    assert_eq!(results[2]["status"], "invalid_input", "similarity without a reference: {}", results[2]);
    assert!(results[2]["details"]["error"].as_str().unwrap_or("").contains("close_to_reference"));
    assert_eq!(results[3]["status"], "invalid_input");
    assert!(results[3]["details"]["error"].as_str().unwrap_or("").contains("invalid pattern"));
    assert_eq!(results[4]["status"], "invalid_input");
    assert_eq!(results[5]["status"], "invalid_input");
    assert!(results[5]["details"]["error"].as_str().unwrap_or("").contains("no stored rubric"));

    // A registered verifier as a criterion: math, with its own options.
    let math = json!({"criteria": [
        {"name": "answer", "weight": 3, "kind": {"type": "verifier", "verifier": "math"}},
        {"name": "boxed", "kind": {"type": "regex", "pattern": "\\\\boxed\\{"}}
    ], "aggregation": {"type": "formula", "formula": "answer * (0.8 + 0.2 * boxed)"}});
    let results = score(
        &server,
        &[
            json!({"response": "So x = \\boxed{\\frac{1}{2}}", "reference": "0.5", "rubric": math}),
            json!({"response": "x is 0.5", "reference": "1/2", "rubric": math}),
            json!({"response": "x = 3", "reference": "1/2", "rubric": math}),
            json!({"response": "x = 3", "rubric": math}),
        ],
    )
    .await?;
    let scores: Vec<f64> = results.iter().map(|r| r["score"].as_f64().unwrap_or(-1.0)).collect();
    assert!(close(&results[0]["score"], 1.0) && close(&results[1]["score"], 0.8), "{results:?}");
    assert_eq!(scores[2], 0.0);
    assert_eq!(results[0]["status"], "correct");
    assert_eq!(results[3]["status"], "invalid_input", "math needs a reference: {}", results[3]);
    assert!(results[3]["details"]["error"].as_str().unwrap_or("").contains("verifier `math`"));
    server.finish().await
}

on_both_backends!(stored_rubrics_keep_their_versions, |backend| async move {
    let server = TestServer::start(backend).await?;
    let v1 = json!({"id": "essay", "criteria": [{"name": "title", "kind": {"type": "format", "format": "heading"}}]});
    let (status, created) = server.post("/v1/rubrics", &v1).await?;
    assert_eq!(status, 201, "{created}");
    assert_eq!((created["id"].as_str(), created["version"].as_u64()), (Some("essay"), Some(1)));
    assert_eq!(created["aggregation"], json!({"type": "weighted_mean"}));
    let (status, again) = server.post("/v1/rubrics", &v1).await?;
    assert_eq!((status, again["code"].as_str()), (409, Some("rubric_exists")));

    let v2 = json!({"criteria": [
        {"name": "title", "kind": {"type": "format", "format": "heading"}},
        {"name": "short", "kind": {"type": "length", "unit": "chars", "max": 20}}
    ]});
    let put = server.client.put(server.url("/v1/rubrics/essay")).json(&v2).send().await?;
    assert_eq!(put.status().as_u16(), 200);
    let updated: Value = put.json().await?;
    assert_eq!(updated["version"], 2);

    let (_, latest) = server.get("/v1/rubrics/essay").await?;
    assert_eq!((latest["version"].as_u64(), latest["criteria"].as_array().map(Vec::len)), (Some(2), Some(2)));
    let (_, first) = server.get("/v1/rubrics/essay?version=1").await?;
    assert_eq!((first["version"].as_u64(), first["criteria"].as_array().map(Vec::len)), (Some(1), Some(1)));
    let (status, missing) = server.get("/v1/rubrics/essay?version=9").await?;
    assert_eq!((status, missing["code"].as_str()), (404, Some("unknown_rubric")));
    let (_, history) = server.get("/v1/rubrics/essay/versions").await?;
    let versions: Vec<u64> =
        history["versions"].as_array().into_iter().flatten().filter_map(|v| v["version"].as_u64()).collect();
    assert_eq!(versions, [1, 2]);
    let (_, list) = server.get("/v1/rubrics").await?;
    assert_eq!(list["rubrics"][0]["id"], "essay");
    assert_eq!(list["rubrics"][0]["version"], 2);

    let response = "# A title\nand a long body of text";
    let results = score(
        &server,
        &[
            json!({"response": response, "rubric_id": "essay"}),
            json!({"response": response, "rubric_id": "essay", "rubric_version": 1}),
            json!({"response": response, "rubric_id": "essay", "rubric_version": 1.0}),
        ],
    )
    .await?;
    assert!(close(&results[0]["score"], 0.5), "{}", results[0]);
    assert_eq!(results[0]["details"]["rubric"], json!({"id": "essay", "version": 2}));
    assert!(close(&results[1]["score"], 1.0), "{}", results[1]);
    assert_eq!(results[2]["details"]["rubric"], json!({"id": "essay", "version": 1}));

    // Invalid rubrics are refused with the reason.
    let bad = json!({"id": "bad", "criteria": [{"name": "a", "kind": {"type": "valid_json"}}],
        "aggregation": {"type": "formula", "formula": "a + b"}});
    let (status, refused) = server.post("/v1/rubrics", &bad).await?;
    assert_eq!((status, refused["code"].as_str()), (422, Some("invalid_body")));
    assert!(refused["message"].as_str().unwrap_or("").contains("`b`"), "{refused}");
    let unknown = json!({"id": "bad", "criteria": [{"name": "a", "kind": {"type": "verifier", "verifier": "nope"}}]});
    assert_eq!(server.post("/v1/rubrics", &unknown).await?.0, 422);
    let put = server.client.put(server.url("/v1/rubrics/absent")).json(&v2).send().await?;
    assert_eq!(put.status().as_u16(), 404);

    // Deleting hides every version; creating the id again continues the numbering.
    let deleted = server.client.delete(server.url("/v1/rubrics/essay")).send().await?;
    assert_eq!(deleted.status().as_u16(), 204);
    assert_eq!(server.get("/v1/rubrics/essay").await?.0, 404);
    let gone = score(&server, &[json!({"response": response, "rubric_id": "essay"})]).await?;
    assert_eq!(gone[0]["status"], "invalid_input");
    let deleted = server.client.delete(server.url("/v1/rubrics/essay")).send().await?;
    assert_eq!(deleted.status().as_u16(), 404);
    let (status, recreated) = server.post("/v1/rubrics", &v1).await?;
    assert_eq!((status, recreated["version"].as_u64()), (201, Some(3)));
    assert_eq!(server.get("/v1/rubrics/essay?version=1").await?.0, 404);
    server.finish().await
});

fn judge_rubric() -> Value {
    json!({"criteria": [
        {"name": "depth", "description": "How deep is the analysis? [say 7]", "kind": {"type": "score", "min": 1, "max": 10}},
        {"name": "tone", "description": "The tone of the answer. [say warm]",
            "kind": {"type": "label", "labels": ["rude", "neutral", "warm"], "passing": ["warm"]}},
        {"name": "clarity", "description": "How clear is it? [say good]",
            "kind": {"type": "choices", "choices": ["poor", "fair", "good", "excellent"]}},
        {"name": "honest", "description": "The response admits uncertainty where it exists. [p=0.8]", "kind": {"type": "principle"}},
        {"name": "concise", "description": "The response is under fifty words. [no]", "kind": {"type": "principle"}},
        {"name": "title", "kind": {"type": "format", "format": "heading"}}
    ]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_judge_kind_is_parsed() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.cache = false;
    })
    .await?;
    let mut formula = judge_rubric();
    formula["aggregation"] = json!({"type": "formula", "formula": "min(depth, clarity) * tone + 0.1 * honest"});
    let mut veto = judge_rubric();
    veto["criteria"][4]["veto"] = json!(true);
    veto["veto_floor"] = json!(-1);
    let results = score(
        &server,
        &[
            json!({"prompt": "Explain tides.", "response": "# Tides\nThe moon pulls the sea.", "rubric": judge_rubric()}),
            json!({"prompt": "Explain tides.", "response": "# Tides\nThe moon pulls.", "rubric": formula}),
            json!({"prompt": "Explain tides.", "response": "# Tides\nThe sea moves.", "rubric": veto}),
        ],
    )
    .await?;
    assert_eq!(judge.requests(), 9, "one rubric call and one call per principle, per item");
    let plain = &results[0];
    let expected = (6.0 / 9.0 + 1.0 + 2.0 / 3.0 + 0.8 + 0.0 + 1.0) / 6.0;
    assert_eq!(plain["status"], "partial", "{plain}");
    assert!(close(&plain["score"], expected), "{} vs {expected}", plain["score"]);
    assert!(close(&criterion(plain, "depth")["score"], 6.0 / 9.0));
    assert!(close(&criterion(plain, "depth")["judged"], 7.0));
    assert_eq!(criterion(plain, "tone")["judged"], "warm");
    assert!(close(&criterion(plain, "clarity")["score"], 2.0 / 3.0));
    assert_eq!(criterion(plain, "honest")["judged"]["source"], "logprobs_at_answer");
    assert_eq!(criterion(plain, "honest")["judged"]["clamped"], false);
    assert!(close(&criterion(plain, "honest")["score"], 0.8), "P(yes) from log-probs: {plain}");
    assert_eq!(criterion(plain, "concise")["judged"]["source"], "text");
    assert_eq!(criterion(plain, "concise")["score"], 0.0);
    let calls = plain["details"]["judge_calls"].as_array().cloned().unwrap_or_default();
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|c| c["cached"] == false && c["reply"].is_string()));
    assert!(calls.iter().any(|c| c["criteria"] == json!(["depth", "tone", "clarity"])));

    assert!(close(&results[1]["score"], 2.0 / 3.0 + 0.08), "{}", results[1]);
    let vetoed = &results[2];
    assert_eq!((vetoed["status"].as_str(), vetoed["score"].as_f64()), (Some("incorrect"), Some(-1.0)), "{vetoed}");
    assert_eq!(vetoed["details"]["vetoed"], json!(["concise"]));
    assert!(close(&vetoed["details"]["aggregate"], expected));

    // Without log-probs a principle scores 1 or 0 from the answer's text.
    judge.state.logprobs.store(false, Ordering::SeqCst);
    let results = score(&server, &[json!({"response": "# Tides\nOther text.", "rubric": judge_rubric()})]).await?;
    assert_eq!(criterion(&results[0], "honest")["score"], 1.0, "{}", results[0]);
    assert_eq!(criterion(&results[0], "honest")["judged"]["source"], "text");
    server.finish().await
}

fn principle_item(text: &str, score: &str) -> Value {
    json!({"prompt": "Explain tides.", "response": "The moon pulls the sea.", "rubric": {"criteria": [
        {"name": "p", "description": text, "kind": {"type": "principle", "score": score}}]}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reasoning_judge_is_read_at_its_answer_token() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    judge.state.reasoning.store(true, Ordering::SeqCst);
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.cache = false;
    })
    .await?;
    // The judge reasons ("At first sight: Yes", its first token `<think>` with a Yes among the
    // candidates), then answers No with P(Yes) = 0.2 at the answer token.
    let results = score(&server, &[principle_item("Cites a source. [p=0.2]", "p_yes")]).await?;
    let judged = &criterion(&results[0], "p")["judged"];
    assert!(close(&results[0]["score"], 0.2), "read at the answer, not the first token: {}", results[0]);
    assert_eq!((judged["answer"].as_str(), judged["source"].as_str()), (Some("no"), Some("logprobs_at_answer")));
    assert!(judged.get("fallback").is_none(), "{judged}");

    // Only the answer word among its candidates: the other side is bounded by the least likely
    // candidate listed ("Maybe", 0.01), so P(Yes) = 0.8 / 0.81, never exactly 1.
    judge.state.one_sided.store(true, Ordering::SeqCst);
    let results = score(&server, &[principle_item("Is accurate. [p=0.8]", "p_yes")]).await?;
    assert!(close(&results[0]["score"], 0.8 / 0.81), "{}", results[0]);
    assert_eq!(criterion(&results[0], "p")["judged"]["clamped"], true);
    judge.state.one_sided.store(false, Ordering::SeqCst);

    // Without log-probs the text's answer decides, and the details say so.
    judge.state.logprobs.store(false, Ordering::SeqCst);
    let results = score(&server, &[principle_item("Cites a source. [p=0.2]", "p_yes")]).await?;
    assert_eq!(results[0]["score"], 0.0, "{}", results[0]);
    assert_eq!(criterion(&results[0], "p")["judged"]["source"], "text");
    // The logit needs the log-probs: without them the item fails instead of guessing.
    let results = score(&server, &[principle_item("Cites a source. [p=0.2]", "logit")]).await?;
    assert_eq!(results[0]["status"], "internal_error", "{}", results[0]);
    assert!(results[0]["details"]["error"].as_str().unwrap_or("").contains("needs the judge's log-probs"));
    server.finish().await
}

/// Sets `[judge] key = value` as a configuration file would.
fn judge_setting(config: &mut Config, key: &str, value: Value) {
    let mut judge = serde_json::to_value(&config.judge).unwrap_or_default();
    judge[key] = value;
    match serde_json::from_value(judge) {
        Ok(parsed) => config.judge = parsed,
        Err(error) => panic!("judge.{key}: {error}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rlbff_form_templates_and_scored_tiers() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.cache = false;
        judge_setting(c, "principle_format", json!("rlbff"));
        judge_setting(
            c,
            "rubric_messages",
            json!([{"role": "system", "content": "Grade strictly."},
                   {"role": "user", "content": "{subject}Criteria:\n{criteria}"}]),
        );
    })
    .await?;
    // RLBFF: the conversation and a `principle` turn; the reward is ln P(Yes) − ln P(No).
    let results = score(&server, &[principle_item("Is accurate. [p=0.8]", "logit")]).await?;
    assert!(close(&results[0]["score"], (0.8f64 / 0.2).ln()), "{}", results[0]);
    assert!(close(&criterion(&results[0], "p")["judged"]["p_yes"], 0.8), "{}", results[0]);
    assert_eq!(criterion(&results[0], "p")["passed"], true, "P(Yes) 0.8 passes the 0.5 threshold");
    let sent = judge.state.last_body.lock().map(|b| b.clone()).unwrap_or_default().unwrap_or_default();
    assert_eq!(
        sent["messages"],
        json!([{"role": "user", "content": "Explain tides."}, {"role": "assistant", "content": "The moon pulls the sea."},
               {"role": "principle", "content": "Is accurate. [p=0.8]"}])
    );
    assert_eq!((sent["logprobs"].as_bool(), sent["top_logprobs"].as_u64()), (Some(true), Some(5)));
    let results = score(&server, &[principle_item("Is short. [p=0.1]", "logit")]).await?;
    assert!(close(&results[0]["score"], (0.1f64 / 0.9).ln()) && results[0]["status"] == "incorrect");

    // The configured rubric template, and tiers with their own scores.
    let tiers = json!({"response": "An answer.", "rubric": {"criteria": [{"name": "clarity",
        "description": "How clear? [say fair]",
        "kind": {"type": "choices", "choices": ["poor", "fair", "good"], "scores": [0, 0.3, 1]}}]}});
    let results = score(&server, &[tiers]).await?;
    assert!(close(&results[0]["score"], 0.3), "{}", results[0]);
    let sent = judge.state.last_body.lock().map(|b| b.clone()).unwrap_or_default().unwrap_or_default();
    assert_eq!(sent["messages"][0], json!({"role": "system", "content": "Grade strictly."}));
    assert_eq!(sent["messages"][1]["role"], "user");
    let user = sent["messages"][1]["content"].as_str().unwrap_or_default();
    assert!(user.starts_with("Response:\n```\nAn answer.\n```\n\nCriteria:\n- clarity:"), "{user}");
    server.finish().await?;

    // A template that misspells a placeholder stops the server from starting, naming it.
    let refused = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        judge_setting(c, "principle_messages", json!([{"role": "user", "content": "{respons} {principle}"}]));
    })
    .await;
    let reason = refused.err().map(|e| format!("{e:#}")).unwrap_or_default();
    assert!(reason.contains("judge.principle_messages[0].content") && reason.contains("{respons}"), "{reason}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_rule_veto_asks_no_judge() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.cache = false;
    })
    .await?;
    let mut rubric = judge_rubric();
    if let Some(criteria) = rubric["criteria"].as_array_mut() {
        criteria.push(json!({"name": "no_apology", "veto": true, "weight": 0,
            "kind": {"type": "regex", "pattern": "(?i)\\bsorry\\b", "absent": true}}));
        criteria.push(json!({"name": "capital", "kind": {"type": "verifier", "verifier": "exact-match",
            "input": {"reference": "Paris"}}}));
    }
    let vetoed = score(&server, &[json!({"response": "# Sorry\nI cannot say.", "rubric": rubric})]).await?;
    assert_eq!(judge.requests(), 0, "the veto decided the item: no judge call is made");
    let result = &vetoed[0];
    assert_eq!((result["status"].as_str(), result["score"].as_f64()), (Some("incorrect"), Some(0.0)), "{result}");
    assert_eq!(result["details"]["vetoed"], json!(["no_apology"]));
    assert!(result["details"]["aggregate"].is_null());
    assert_eq!(criterion(result, "title")["score"], 1.0, "rules are still scored");
    for skipped in ["depth", "honest", "capital"] {
        assert_eq!(criterion(result, skipped)["skipped"], true, "{skipped}: {result}");
    }
    assert!(result["details"].get("judge_calls").is_none());

    // The same rubric without the apology asks the judge as usual.
    let passed = score(&server, &[json!({"response": "# Tides\nThe moon.", "rubric": rubric})]).await?;
    assert_eq!(judge.requests(), 3, "{}", passed[0]);
    assert_eq!(passed[0]["details"]["vetoed"], json!([]));
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_failures_retry_then_fail_the_item_never_scoring_zero() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.cache = false;
        c.judge.max_retries = 2;
        c.judge.timeout_ms = 2_000;
    })
    .await?;
    let principle = |text: &str| {
        json!({"response": "An answer.", "rubric": {"criteria": [
            {"name": "p", "description": text, "kind": {"type": "principle"}}]}})
    };

    // Two 503s, then an answer: the third attempt succeeds.
    judge.state.failures.store(2, Ordering::SeqCst);
    let results = score(&server, &[principle("Fine [p=0.9]")]).await?;
    assert_eq!(results[0]["status"], "partial", "{}", results[0]);
    assert!(close(&results[0]["score"], 0.9));
    assert_eq!(judge.requests(), 3);

    // 429 with Retry-After is retried the same way.
    judge.state.fail_status.store(429, Ordering::SeqCst);
    judge.state.failures.store(1, Ordering::SeqCst);
    let results = score(&server, &[principle("Fine [p=0.2]")]).await?;
    assert!(close(&results[0]["score"], 0.2), "{}", results[0]);
    assert_eq!(judge.requests(), 5);

    // More failures than retries: the item is an internal error, not a zero.
    judge.state.fail_status.store(500, Ordering::SeqCst);
    judge.state.failures.store(3, Ordering::SeqCst);
    let results = score(&server, &[principle("Fine [p=0.9]")]).await?;
    assert_eq!(results[0]["status"], "internal_error", "{}", results[0]);
    assert!(results[0]["details"]["error"].as_str().unwrap_or("").contains("500"), "{}", results[0]);
    assert_eq!(judge.requests(), 8);

    // A 4xx other than 429 is not retried.
    judge.state.fail_status.store(400, Ordering::SeqCst);
    judge.state.failures.store(1, Ordering::SeqCst);
    let results = score(&server, &[principle("Fine [p=0.9]")]).await?;
    assert_eq!(results[0]["status"], "internal_error");
    assert_eq!(judge.requests(), 9);

    // A body that is not a completion.
    judge.state.malformed.store(true, Ordering::SeqCst);
    let results = score(&server, &[principle("Fine [p=0.9]")]).await?;
    assert_eq!(results[0]["status"], "internal_error");
    assert!(results[0]["details"]["error"].as_str().unwrap_or("").contains("not JSON"), "{}", results[0]);
    judge.state.malformed.store(false, Ordering::SeqCst);

    // Answers that do not parse: neither Yes nor No, a non-numeric score, an unknown choice.
    let results = score(
        &server,
        &[
            principle("Unclear"),
            json!({"response": "x", "rubric": {"criteria": [{"name": "s", "description": "Rate [say high]",
                "kind": {"type": "score", "min": 0, "max": 10}}]}}),
            json!({"response": "x", "rubric": {"criteria": [{"name": "c", "description": "Tier [say superb]",
                "kind": {"type": "choices", "choices": ["bad", "good"]}}]}}),
        ],
    )
    .await?;
    for result in &results {
        assert_eq!(
            (result["status"].as_str(), result["score"].as_f64()),
            (Some("internal_error"), Some(0.0)),
            "{result}"
        );
        let call = &result["details"]["judge_calls"][0];
        assert!(call["reply"].is_string() && call["error"].is_string(), "{result}");
    }
    assert!(results[1]["details"]["error"].as_str().unwrap_or("").contains("not a number"));

    // A judge slower than the attempt's time limit, on every attempt: a timeout.
    judge.state.delay_ms.store(3_000, Ordering::SeqCst);
    let slow = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.timeout_ms = 200;
        c.judge.max_retries = 1;
    })
    .await?;
    let results = score(&slow, &[principle("Fine [p=0.9]")]).await?;
    assert_eq!(results[0]["status"], "timeout", "{}", results[0]);
    slow.finish().await?;
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_criteria_fail_without_a_configured_judge() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let results = score(&server, &[json!({"response": "x", "rubric": judge_rubric()})]).await?;
    assert_eq!(results[0]["status"], "internal_error");
    assert!(results[0]["details"]["error"].as_str().unwrap_or("").contains("no judge is configured"));
    server.finish().await
}

on_both_backends!(identical_prompts_are_served_from_the_cache, |backend| async move {
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(backend, |c| judged(c, &judge)).await?;
    let item = json!({"prompt": "Explain tides.", "response": "# Tides\nThe moon.", "rubric": judge_rubric()});
    let first = score(&server, std::slice::from_ref(&item)).await?;
    assert_eq!(judge.requests(), 3);
    let second = score(&server, std::slice::from_ref(&item)).await?;
    assert_eq!(judge.requests(), 3, "the second time no call reaches the judge");
    assert_eq!(first[0]["score"], second[0]["score"]);
    let calls = second[0]["details"]["judge_calls"].as_array().cloned().unwrap_or_default();
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|c| c["cached"] == true), "{calls:?}");
    assert!(first[0]["details"]["judge_calls"].as_array().into_iter().flatten().all(|c| c["cached"] == false));
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM judge_cache").await?, 3);

    // A reply that did not parse is not cached: the next time asks again.
    let bad = json!({"response": "x", "rubric": {"criteria": [{"name": "s", "description": "Rate [say high]",
        "kind": {"type": "score", "min": 0, "max": 10}}]}});
    score(&server, std::slice::from_ref(&bad)).await?;
    score(&server, std::slice::from_ref(&bad)).await?;
    assert_eq!(judge.requests(), 5);
    server.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_items_with_five_judge_criteria_at_the_configured_concurrency() -> anyhow::Result<()> {
    const CONCURRENCY: usize = 100;
    let judge = FakeJudge::start().await?;
    judge.state.delay_ms.store(200, Ordering::SeqCst);
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.concurrency = CONCURRENCY;
        c.server.request_timeout_ms = 120_000;
    })
    .await?;
    let mut rubric = judge_rubric();
    if let Some(criteria) = rubric["criteria"].as_array_mut() {
        criteria.pop(); // five judge criteria, no rules
    }
    let inputs: Vec<Value> = (0..1000)
        .map(|i| json!({"prompt": "Explain tides.", "response": format!("Answer number {i}."), "rubric": rubric}))
        .collect();
    let results = score(&server, &inputs).await?;
    assert_eq!(results.len(), 1000);
    let expected = (6.0 / 9.0 + 1.0 + 2.0 / 3.0 + 0.8 + 0.0) / 5.0;
    let lost: Vec<&Value> = results.iter().filter(|r| !close(&r["score"], expected)).collect();
    assert!(lost.is_empty(), "{} items not scored, e.g. {}", lost.len(), lost[0]);
    assert_eq!(judge.requests(), 3000);
    let most = judge.state.max_in_flight.load(Ordering::SeqCst);
    assert_eq!(most, CONCURRENCY, "the client keeps exactly `judge.concurrency` calls in flight");
    assert!(results.iter().all(|r| {
        r["details"]["judge_calls"].as_array().is_some_and(|calls| calls.iter().all(|c| c["cached"] == false))
    }));

    // The second pass asks the same 3,000 prompts: every one is answered from the judge cache.
    let again = score(&server, &inputs).await?;
    assert_eq!(judge.requests(), 3000, "no call reaches the judge the second time");
    let lost: Vec<&Value> = again.iter().filter(|r| !close(&r["score"], expected)).collect();
    assert!(lost.is_empty(), "{} items not scored the second time, e.g. {}", lost.len(), lost[0]);
    let cached = again
        .iter()
        .flat_map(|r| r["details"]["judge_calls"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["cached"] == true)
        .count();
    assert_eq!(cached, 3000);
    server.finish().await
}

/// Waits until the result cache holds `rows` rows (it is written off the request path).
async fn result_cache_rows(server: &TestServer, rows: i64) -> anyhow::Result<i64> {
    let mut found = 0;
    for _ in 0..200 {
        found = server.query_i64("SELECT COUNT(*) FROM result_cache").await?;
        if found >= rows {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    Ok(found)
}

api_on_both_backends!(an_unpinned_stored_rubric_is_never_answered_from_the_result_cache, |backend| async move {
    let server = TestServer::start_with(backend, |c| {
        c.cache.enabled = true;
        c.scoring_log.flush_interval_ms = 10;
    })
    .await?;
    let v1 = json!({"id": "fresh", "criteria": [{"name": "title", "kind": {"type": "format", "format": "heading"}}]});
    assert_eq!(server.post("/v1/rubrics", &v1).await?.0, 201);
    let response = "# A title\nand a body";
    let latest = json!({"response": response, "rubric_id": "fresh"});
    let pinned = json!({"response": response, "rubric_id": "fresh", "rubric_version": 1});
    let first = score(&server, &[latest.clone(), pinned.clone()]).await?;
    assert!(close(&first[0]["score"], 1.0) && close(&first[1]["score"], 1.0), "{first:?}");
    assert!(first.iter().all(|r| r["details"].get("cached").is_none()), "{first:?}");
    // Only the pinned item is written to the cache.
    assert_eq!(result_cache_rows(&server, 1).await?, 1);

    // Version 2 adds a criterion the response fails: the unpinned item sees it at once.
    let v2 = json!({"criteria": [
        {"name": "title", "kind": {"type": "format", "format": "heading"}},
        {"name": "short", "kind": {"type": "length", "unit": "chars", "max": 5}}
    ]});
    assert_eq!(server.put("/v1/rubrics/fresh", &v2).await?.0, 200);
    let second = score(&server, &[latest.clone(), pinned.clone()]).await?;
    assert!(close(&second[0]["score"], 0.5), "the latest version scores it: {}", second[0]);
    assert_eq!(second[0]["details"]["rubric"], json!({"id": "fresh", "version": 2}));
    assert!(second[0]["details"].get("cached").is_none(), "{}", second[0]);
    // The pinned version still names the same definition, so its verdict is served from the cache.
    assert_eq!(second[1]["details"]["cached"], true, "{}", second[1]);
    assert!(close(&second[1]["score"], 1.0), "{}", second[1]);

    // A version that changes the verdict back is seen too, and nothing unpinned was ever stored.
    let v3 = json!({"criteria": [{"name": "short", "kind": {"type": "length", "unit": "chars", "max": 5}}]});
    assert_eq!(server.put("/v1/rubrics/fresh", &v3).await?.0, 200);
    let third = score(&server, std::slice::from_ref(&latest)).await?;
    assert!(close(&third[0]["score"], 0.0), "{}", third[0]);
    assert_eq!(third[0]["details"]["rubric"]["version"], 3);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM result_cache").await?, 1);
    server.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_judge_signed_by_a_private_ca() -> anyhow::Result<()> {
    let (judge, ca_pem) = FakeJudge::start_https().await?;
    assert!(judge.base_url.starts_with("https://"), "{}", judge.base_url);
    let dir = tempfile::tempdir()?;
    let ca_path = dir.path().join("judge-ca.pem");
    std::fs::write(&ca_path, &ca_pem)?;
    let principle = json!({"response": "An answer.", "rubric": {"criteria": [
        {"name": "p", "description": "Fine [p=0.9]", "kind": {"type": "principle"}}]}});

    // With the CA: the call goes through TLS to the judge.
    let trusting = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.ca_cert = Some(ca_path.clone());
        c.judge.cache = false;
    })
    .await?;
    let results = score(&trusting, std::slice::from_ref(&principle)).await?;
    assert_eq!(results[0]["status"], "partial", "{}", results[0]);
    assert!(close(&results[0]["score"], 0.9), "{}", results[0]);
    assert_eq!(judge.requests(), 1);

    // Without it the certificate is refused: the item fails with the reason, at once (no retries),
    // and no request reaches the judge.
    let wary = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.cache = false;
        c.judge.max_retries = 3;
        c.judge.backoff_ms = 1_000;
    })
    .await?;
    let started = std::time::Instant::now();
    let results = score(&wary, std::slice::from_ref(&principle)).await?;
    assert_eq!((results[0]["status"].as_str(), results[0]["score"].as_f64()), (Some("internal_error"), Some(0.0)));
    let error = results[0]["details"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("TLS") && error.contains("certificate") && error.contains("judge.ca_cert"), "{error}");
    assert!(started.elapsed() < std::time::Duration::from_secs(1), "a refused certificate is not retried");
    assert_eq!(judge.requests(), 1);

    // A CA file that holds no certificate stops the server from starting.
    let junk = dir.path().join("junk.pem");
    std::fs::write(&junk, "not a certificate")?;
    let refused = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.ca_cert = Some(junk.clone());
    })
    .await;
    let reason = refused.err().map(|e| format!("{e:#}")).unwrap_or_default();
    assert!(reason.contains("judge.ca_cert"), "{reason}");
    wary.finish().await?;
    trusting.finish().await
}

/// The sum of the samples of `series` (a name with its labels, as rendered) in a Prometheus page.
fn metric(page: &str, series: &str) -> f64 {
    page.lines()
        .filter_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .filter_map(|value| value.trim().parse::<f64>().ok())
        .sum()
}

async fn metrics_page(server: &TestServer) -> anyhow::Result<String> {
    Ok(server.client.get(server.url("/metrics")).send().await?.text().await?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn judge_calls_are_counted_in_metrics() -> anyhow::Result<()> {
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.max_retries = 1;
        c.judge.timeout_ms = 300;
    })
    .await?;
    let principle = |text: &str| {
        json!({"response": "An answer.", "rubric": {"criteria": [
            {"name": "p", "description": text, "kind": {"type": "principle"}}]}})
    };
    // Other tests of this process count into the same recorder: compare before and after.
    let before = metrics_page(&server).await?;
    let calls =
        |page: &str, outcome: &str| metric(page, &format!("referee_judge_calls_total{{outcome=\"{outcome}\"}}"));

    let ok = score(&server, &[principle("First [p=0.9]")]).await?; // answered at once
    assert_eq!(ok[0]["status"], "partial", "{}", ok[0]);
    score(&server, &[principle("First [p=0.9]")]).await?; // from the judge cache
    judge.state.failures.store(1, Ordering::SeqCst);
    score(&server, &[principle("Second [p=0.9]")]).await?; // one 503, then answered
    judge.state.failures.store(2, Ordering::SeqCst);
    let failed = score(&server, &[principle("Third [p=0.9]")]).await?; // 503 twice: gives up
    assert_eq!(failed[0]["status"], "internal_error");
    judge.state.delay_ms.store(1_000, Ordering::SeqCst);
    let slow = score(&server, &[principle("Fourth [p=0.9]")]).await?; // both attempts time out
    assert_eq!(slow[0]["status"], "timeout", "{}", slow[0]);
    judge.state.delay_ms.store(0, Ordering::SeqCst);
    score(&server, &[principle("Unclear")]).await?; // answered, but neither Yes nor No

    let after = metrics_page(&server).await?;
    for (outcome, least) in [("ok", 2.0), ("retried", 1.0), ("failed", 1.0), ("timeout", 1.0)] {
        let grown = calls(&after, outcome) - calls(&before, outcome);
        assert!(grown >= least, "referee_judge_calls_total{{outcome=\"{outcome}\"}} grew by {grown}:\n{after}");
    }
    for (series, least) in [
        ("referee_judge_cache_hits_total", 1.0),
        ("referee_judge_retries_total", 3.0),
        ("referee_judge_unreadable_replies_total", 1.0),
        ("referee_judge_call_seconds_count", 5.0),
    ] {
        let grown = metric(&after, series) - metric(&before, series);
        assert!(grown >= least, "{series} grew by {grown}:\n{after}");
    }
    assert!(after.contains("referee_judge_call_seconds_bucket{le=\"0.25\"}"), "{after}");
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_key_is_read_from_the_environment_and_sent_as_a_bearer_token() -> anyhow::Result<()> {
    // Tests cannot set variables (that is unsafe); any variable with a header-safe value will do.
    let Some((name, value)) = std::env::vars().find(|(name, value)| {
        !value.is_empty() && value.len() < 200 && value.bytes().all(|b| b.is_ascii_graphic()) && !name.is_empty()
    }) else {
        anyhow::bail!("the test process has no environment variable to use as a key");
    };
    let judge = FakeJudge::start().await?;
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.api_key_env = Some(name.clone());
    })
    .await?;
    let item = json!({"response": "x", "rubric": {"criteria": [
        {"name": "p", "description": "Fine [p=0.9]", "kind": {"type": "principle"}}]}});
    let results = score(&server, &[item]).await?;
    assert_eq!(results[0]["status"], "partial", "{}", results[0]);
    let sent = judge.state.last_authorization.lock().map(|last| last.clone()).unwrap_or_default();
    assert_eq!(sent, Some(format!("Bearer {value}")));
    server.finish().await?;

    let unset = "REFEREE_TEST_VARIABLE_THAT_IS_NEVER_SET";
    anyhow::ensure!(std::env::var_os(unset).is_none(), "{unset} is set");
    let refused = TestServer::start_with(Backend::Sqlite, |c| {
        judged(c, &judge);
        c.judge.api_key_env = Some(unset.to_owned());
    })
    .await;
    let reason = refused.err().map(|e| format!("{e:#}")).unwrap_or_default();
    assert!(reason.contains(unset), "the server refuses to start without the key: {reason}");
    Ok(())
}
