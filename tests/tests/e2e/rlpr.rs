//! RLPR's std filter over HTTP: decisions per group, the moving average kept per training run
//! in the database across steps and server restarts, retried steps, and refused requests.

use referee_server::RunningServer;
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
    let running = referee_server::start(&referee_tests::server_config(&server.database_url)?).await?;
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
    assert_eq!(first["groups"][2]["std"], 1.0, "one rollout counts as std 1, as RLPR does");
    assert!(first["groups"].as_array().is_some_and(|g| g.iter().all(|g| g["keep"] == true)));

    // Step 2: warm-up; its mean std (over rollouts) becomes the EMA at step 3.
    let (status, second) = server.post(FILTER, &step(&run, 2, json!([wide, wide]))).await?;
    assert_eq!(status, 200, "{second}");
    let warm = (1.0f64 / 3.0).sqrt();

    // A retried step (the same body) gets the same answer and does not move the average; the
    // same step with other groups is not a retry and gets no stale answer.
    let (status, again) = server.post(FILTER, &step(&run, 2, json!([wide, wide]))).await?;
    assert_eq!((status, &again), (200, &second), "a retry answers the stored decision");
    let (status, error) = server.post(FILTER, &step(&run, 2, json!([narrow]))).await?;
    assert_eq!((status, &error["code"]), (409, &json!("run_conflict")), "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("retry must repeat")), "{error}");

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
    assert!(error["message"].as_str().is_some_and(|m| m.contains("next step is 4, round 1")), "{error}");
    let changed = json!({"run": run, "settings": {"beta": 0.9}, "groups": [wide]});
    let (status, error) = server.post(FILTER, &changed).await?;
    assert_eq!(status, 409, "{error}");
    let (status, next) = server.post(FILTER, &json!({"run": run, "groups": [wide]})).await?;
    assert_eq!((status, &next["step"]), (200, &json!(4)), "no step given: the next one");
    assert_eq!(server.delete(&format!("/v1/reward-models/rlpr/runs/{run}")).await?, 204);
    let (status, _) = server.get(&format!("/v1/reward-models/rlpr/runs/{run}")).await?;
    assert_eq!(status, 404);
    server.finish().await
});

on_both_backends!(the_rounds_of_a_step_share_one_threshold_and_move_the_average_once, |backend| async move {
    let server = TestServer::start(backend).await?;
    let run = format!("rounds-{backend:?}-{}", std::process::id());
    let round = |step: u64, round: u64, close: bool, groups: Value| json!({"run": run, "step": step, "round": round, "close": close, "settings": settings(), "groups": groups});
    let wide = json!({"rewards": [0.0, 1.0, 0.0, 1.0]}); // std √(1/3)
    let flat = json!({"rewards": [0.5, 0.5]}); // std 0
    let wider = json!({"rewards": [0.0, 2.0, 0.0, 2.0]}); // std √(4/3)
    let (s1, s2) = ((1.0f64 / 3.0).sqrt(), (4.0f64 / 3.0).sqrt());
    // Step 1 (one round), step 2 (warm-up, one round): the EMA starts at √(1/3) at step 3.
    for step in [1, 2] {
        let (status, body) = server.post(FILTER, &round(step, 1, true, json!([wide]))).await?;
        assert_eq!(status, 200, "{body}");
    }
    // Step 3 in three rounds; the step stays open after the first two.
    let (status, r1) = server.post(FILTER, &round(3, 1, false, json!([wide, flat]))).await?;
    assert_eq!(status, 200, "{r1}");
    assert_eq!((&r1["round"], &r1["closed"]), (&json!(1), &json!(false)), "{r1}");
    assert!(close(&r1["threshold"], s1), "{r1}");
    assert!(close(&r1["ema"], s1), "the EMA has not moved yet: {r1}");
    assert_eq!(r1["groups"][1]["keep"], false);
    // Round 2 repeated with the same body is a retry; with another body it is refused.
    let (status, r2) = server.post(FILTER, &round(3, 2, false, json!([wider]))).await?;
    assert_eq!(status, 200, "{r2}");
    assert_eq!(server.post(FILTER, &round(3, 2, false, json!([wider]))).await?, (200, r2.clone()));
    let (status, error) = server.post(FILTER, &round(3, 2, false, json!([flat]))).await?;
    assert_eq!((status, &error["code"]), (409, &json!("run_conflict")), "{error}");
    // Skipping a round, or going back to round 1, names what would be accepted.
    let (status, error) = server.post(FILTER, &round(3, 5, false, json!([wide]))).await?;
    assert_eq!(status, 409, "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("send its round 3 or round 1 of step 4")), "{error}");
    assert!(close(&r2["threshold"], s1), "one threshold for every round: {r2}");
    let (status, state) = server.get(&format!("/v1/reward-models/rlpr/runs/{run}")).await?;
    assert_eq!((status, &state["state"]["step"], &state["state"]["open"]["rounds"]), (200, &json!(2), &json!(2)));
    // Round 3 closes the step with no more groups: the mean over all ten rollouts moves the EMA.
    let (status, r3) = server.post(FILTER, &round(3, 3, true, json!([]))).await?;
    assert_eq!(status, 200, "{r3}");
    let mean = (4.0 * s1 + 2.0 * 0.0 + 4.0 * s2) / 10.0;
    assert!(close(&r3["mean_std"], mean), "{r3}");
    assert!(close(&r3["ema"], 0.5 * s1 + 0.5 * mean), "{r3}");
    // Step 4: rounds left open are closed by round 1 of step 5.
    let (status, r4) = server.post(FILTER, &round(4, 1, false, json!([wide]))).await?;
    assert_eq!(status, 200, "{r4}");
    let ema3 = 0.5 * s1 + 0.5 * mean;
    assert!(close(&r4["threshold"], ema3), "{r4}");
    let (status, r5) = server.post(FILTER, &round(5, 1, true, json!([wide]))).await?;
    assert_eq!(status, 200, "{r5}");
    assert!(close(&r5["threshold"], 0.5 * ema3 + 0.5 * s1), "step 4 closed before step 5 opened: {r5}");
    server.finish().await
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
        (json!({"run": "r", "step": 0, "groups": []}), "invalid_body"),
        (json!({"run": "r", "round": 0, "groups": []}), "invalid_body"),
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
