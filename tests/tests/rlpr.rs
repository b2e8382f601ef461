//! RLPR's std filter over HTTP: decisions per group, the moving average kept per training run
//! in the database across steps and server restarts, retried steps, and refused requests.

use referee_server::{Config, RunningServer};
use referee_tests::{Backend, TestServer, on_both_backends};
use serde_json::{Value, json};

const FILTER: &str = "/v1/reward-models/rlpr/filter";

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-12)
}

/// Filtering from step 3 with the EMA starting at step 2 and moving halfway each step.
fn settings() -> Value {
    json!({"beta": 1.0, "ratio": 0.5, "ema_start_step": 2, "filter_start_step": 3})
}

/// A second server over the same database, as another replica would be.
async fn replica(server: &TestServer) -> anyhow::Result<(RunningServer, String)> {
    let mut config = Config::default();
    config.server.listen = "127.0.0.1:0".parse()?;
    config.database_url = Some(server.database_url.clone());
    let running = referee_server::start(&config).await?;
    let base = format!("http://{}", running.addr());
    Ok((running, base))
}

async fn post(base: &str, body: &Value) -> anyhow::Result<(u16, Value)> {
    let response = reqwest::Client::new().post(format!("{base}{FILTER}")).json(body).send().await?;
    Ok((response.status().as_u16(), response.json().await?))
}

fn step(run: &str, step: u64, groups: Value) -> Value {
    json!({"run": run, "step": step, "settings": settings(), "groups": groups})
}

on_both_backends!(the_filter_keeps_groups_above_beta_times_the_moving_average, |backend| async move {
    let server = TestServer::start(backend).await?;
    let run = format!("run-{backend:?}-{}", std::process::id());
    let wide = json!({"id": "wide", "rewards": [0.0, 1.0, 0.0, 1.0]}); // std √(1/3)
    let narrow = json!({"id": "narrow", "rewards": [0.5, 0.6, 0.5, 0.6]}); // std √(1/300)
    let single = json!({"id": "single", "rewards": [0.7]});

    // Step 1: before the warm-up; everything is kept.
    let (status, first) = server.post(FILTER, &step(&run, 1, json!([wide, narrow, single]))).await?;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["threshold"], 0.0);
    assert_eq!(first["ema"], Value::Null);
    assert!(close(&first["groups"][0]["std"], (1.0f64 / 3.0).sqrt()), "{first}");
    assert_eq!(first["groups"][2]["std"], Value::Null, "one rollout has no std");
    assert!(first["groups"].as_array().is_some_and(|g| g.iter().all(|g| g["keep"] == true)));

    // Step 2: warm-up; its mean std (over rollouts) becomes the EMA at step 3.
    let (status, second) = server.post(FILTER, &step(&run, 2, json!([wide, wide]))).await?;
    assert_eq!(status, 200, "{second}");
    let warm = (1.0f64 / 3.0).sqrt();

    // A retried step gets the same answer and does not move the average.
    let (status, again) = server.post(FILTER, &step(&run, 2, json!([narrow]))).await?;
    assert_eq!((status, &again), (200, &second), "a retry answers the stored decision");

    // Step 3, on another replica over the same database: filtering starts at β·EMA = warm.
    let (other, other_base) = replica(&server).await?;
    let (status, third) = post(&other_base, &step(&run, 3, json!([wide, narrow]))).await?;
    other.shutdown().await?;
    assert_eq!(status, 200, "{third}");
    assert!(close(&third["threshold"], warm), "{third}");
    assert_eq!(third["groups"][0]["keep"], true);
    assert_eq!(third["groups"][1]["keep"], false);
    // EMA ← 0.5·warm + 0.5·(mean std of step 3 over its 8 rollouts).
    let mean3 = (warm + (1.0f64 / 300.0).sqrt()) / 2.0;
    assert!(close(&third["mean_std"], mean3), "{third}");
    assert!(close(&third["ema"], 0.5 * warm + 0.5 * mean3), "{third}");

    let (status, run_state) = server.get(&format!("/v1/reward-models/rlpr/runs/{run}")).await?;
    assert_eq!(status, 200, "{run_state}");
    assert_eq!(run_state["state"]["step"], 3);
    assert_eq!(run_state["settings"]["beta"], 1.0);

    // Out-of-order steps and changed settings are conflicts; a run can be reset.
    let (status, error) = server.post(FILTER, &step(&run, 5, json!([wide]))).await?;
    assert_eq!((status, &error["code"]), (409, &json!("run_conflict")), "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("next step is 4")), "{error}");
    let changed = json!({"run": run, "settings": {"beta": 0.9}, "groups": [wide]});
    let (status, error) = server.post(FILTER, &changed).await?;
    assert_eq!(status, 409, "{error}");
    let (status, next) = server.post(FILTER, &json!({"run": run, "groups": [wide]})).await?;
    assert_eq!((status, &next["step"]), (200, &json!(4)), "no step given: the next one");
    assert_eq!(server.delete(&format!("/v1/reward-models/rlpr/runs/{run}")).await?, 204);
    let (status, _) = server.get(&format!("/v1/reward-models/rlpr/runs/{run}")).await?;
    assert_eq!(status, 404);
    Ok(())
});

#[tokio::test]
async fn bad_filter_requests_are_refused_with_reasons() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    for (body, code) in [
        (json!({"run": "", "groups": []}), "invalid_body"),
        (json!({"run": "x".repeat(257), "groups": []}), "invalid_body"),
        (json!({"run": "r", "groups": [], "settings": {"ratio": 1.0}}), "invalid_body"),
        (json!({"run": "r", "groups": [], "settings": {"beta": -1.0}}), "invalid_body"),
        (json!({"run": "r", "groups": [{"rewards": [1.0]}], "extra": 1}), "invalid_body"),
        (json!({"run": "r", "groups": [{"rewards": ["a"]}]}), "invalid_body"),
        (json!({"run": "r"}), "invalid_body"),
    ] {
        let (status, error) = server.post(FILTER, &body).await?;
        assert_eq!((status, error["code"].as_str()), (422, Some(code)), "{body}: {error}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (status, error) = server.get("/v1/reward-models/rlpr/runs/never-started").await?;
    assert_eq!((status, &error["code"]), (404, &json!("unknown_run")));
    Ok(())
}

#[tokio::test]
async fn rlpr_items_score_from_supplied_log_probs() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let items = json!([
        {"id": "scored", "verifier": "rlpr", "input": {
            "response": "<think>2 + 2</think> so <answer>5</answer>",
            "logprobs": [-0.05], "baseline_logprobs": [-1.5], "options": {"round_bf16": false}}},
        {"id": "no-structure", "verifier": "rlpr", "input": {"response": "5", "logprobs": [], "score_a": 0.3}},
        {"id": "not-logprobs", "verifier": "rlpr", "input": {
            "response": "<think>x</think><answer>5</answer>", "logprobs": [0.7], "score_a": 0.3}},
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = &body["results"];
    let delta = (-0.05f64).exp() - (-1.5f64).exp();
    assert_eq!(results[0]["status"], "partial", "{body}");
    assert!(close(&results[0]["score"], 0.9 * delta + 0.1), "{body}");
    assert!(close(&results[0]["details"]["rlpr"]["delta"], delta), "{body}");
    assert_eq!((&results[1]["status"], &results[1]["score"]), (&json!("unparseable"), &json!(0.0)));
    assert_eq!(results[2]["status"], "invalid_input");
    assert!(results[2]["details"]["error"].as_str().is_some_and(|e| e.contains("logprobs[0]")), "{body}");
    Ok(())
}
