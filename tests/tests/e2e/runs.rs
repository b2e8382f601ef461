//! Training runs over HTTP: items scored with `run`, `step`, `prompt_id` and `group` give the
//! per-prompt pass rates, sampling decisions and statistics that the test computes on its own
//! from the items it sent.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use referee_tests::{Backend, TestServer, on_both_backends};
use serde_json::{Value, json};

const PROMPTS: usize = 5;
const ROLLOUTS: usize = 4;
const STEPS: [u64; 3] = [1, 2, 3];

/// Correct rollouts of `prompt` at `step`: every count from 0 to 4 appears, so some groups are
/// all-wrong and some all-correct.
fn successes(prompt: usize, step: u64) -> usize {
    (prompt + usize::try_from(step).unwrap_or(0)) % (ROLLOUTS + 1)
}

fn rollout(prompt: usize, step: u64, r: usize) -> Value {
    let response = if r < successes(prompt, step) { "4" } else { "5" };
    json!({"verifier": "exact-match", "input": {"response": response, "reference": "4"}, "prompt_id": prompt.to_string()})
}

async fn start(backend: Backend) -> anyhow::Result<TestServer> {
    TestServer::start_with(backend, |config| config.runs.flush_interval_ms = 20).await
}

/// Waits until the run has `items` items written.
async fn wait_for(server: &TestServer, run: &str, items: u64) -> anyhow::Result<Value> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = server.get(&format!("/v1/runs/{run}")).await?;
        if status == 200 && body["items"].as_u64() == Some(items) {
            return Ok(body);
        }
        anyhow::ensure!(Instant::now() < deadline, "run {run} did not reach {items} items: {status} {body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn close(value: &Value, expected: f64) -> bool {
    value.as_f64().is_some_and(|v| (v - expected).abs() < 1e-9)
}

fn binomial(n: u64, k: u64) -> f64 {
    if k > n {
        return 0.0;
    }
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Scores three steps of five prompts with four rollouts each: step 1 with every field on the
/// items, step 2 with groups, step 3 with the request's `run` and `step` and integer prompt ids.
/// Each step also has an item the verifier refuses (recorded, not an attempt), an item of an
/// unknown verifier (not recorded) and an item of no run (steps 1 and 2) or of run `other`.
async fn score_run(server: &TestServer) -> anyhow::Result<()> {
    for step in STEPS {
        let mut items = Vec::new();
        for prompt in 0..PROMPTS {
            for r in 0..ROLLOUTS {
                let mut item = rollout(prompt, step, r);
                match step {
                    1 => {
                        item["run"] = json!("r1");
                        item["step"] = json!(1);
                    }
                    2 => {
                        item["run"] = json!("r1");
                        item["step"] = json!(2.0);
                        item["group"] = json!(format!("g{prompt}"));
                    }
                    _ => item["prompt_id"] = json!(prompt),
                }
                items.push(item);
            }
        }
        let tags = if step == 3 { json!({}) } else { json!({"run": "r1", "step": step}) };
        let mut refused = json!({"verifier": "exact-match", "input": {"response": "4"}, "prompt_id": "0"});
        let mut unknown = json!({"verifier": "nope", "input": {}, "prompt_id": "0"});
        for item in [&mut refused, &mut unknown] {
            if let (Value::Object(item), Value::Object(tags)) = (item, &tags) {
                item.extend(tags.clone());
            }
        }
        items.push(refused);
        items.push(unknown);
        // Step 3's request names run r1 for items without one: this item names another.
        let mut elsewhere = json!({"verifier": "exact-match", "input": {"response": "4", "reference": "4"}});
        if step == 3 {
            elsewhere["run"] = json!("other");
        }
        items.push(elsewhere);
        let body = if step == 3 { json!({"items": items, "run": "r1", "step": 3}) } else { json!({"items": items}) };
        let (status, body) = server.post("/v1/score", &body).await?;
        anyhow::ensure!(status == 200, "{body}");
        let statuses: Vec<&str> =
            body["results"].as_array().into_iter().flatten().filter_map(|r| r["status"].as_str()).collect();
        assert_eq!(statuses[statuses.len() - 3..], ["invalid_input", "invalid_input", "correct"], "{body}");
    }
    Ok(())
}

on_both_backends!(runs_give_pass_rates_decisions_and_stats, |backend| async move {
    let server = start(backend).await?;
    score_run(&server).await?;
    // 20 rollouts and the refused item per step; the unknown verifier's item and the one
    // without a run are not recorded.
    let run = wait_for(&server, "r1", 3 * 21).await?;
    assert_eq!((run["first_step"].as_i64(), run["last_step"].as_i64()), (Some(1), Some(3)), "{run}");

    // Pass rates: every attempt, then the last step only.
    let (status, body) = server.get("/v1/runs/r1/prompts").await?;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["total"], PROMPTS as u64);
    for (prompt, rate) in body["prompts"].as_array().into_iter().flatten().enumerate() {
        let wins: usize = STEPS.iter().map(|&s| successes(prompt, s)).sum();
        assert_eq!(rate["prompt_id"], prompt.to_string(), "{rate}");
        assert_eq!(rate["attempts"], STEPS.len() * ROLLOUTS, "the refused item is no attempt: {rate}");
        assert_eq!(rate["successes"], wins, "{rate}");
        assert!(close(&rate["pass_rate"], wins as f64 / 12.0), "{rate}");
        assert_eq!(
            (rate["last_step"].as_i64(), rate["last_successes"].as_u64()),
            (Some(3), Some(successes(prompt, 3) as u64))
        );
    }
    let (_, windowed) = server.get("/v1/runs/r1/prompts?window=1&sort=pass_rate&order=desc&limit=2").await?;
    let expected: Vec<f64> = {
        let mut rates: Vec<f64> = (0..PROMPTS).map(|p| successes(p, 3) as f64 / ROLLOUTS as f64).collect();
        rates.sort_by(|a, b| b.total_cmp(a));
        rates.truncate(2);
        rates
    };
    let got: Vec<f64> =
        windowed["prompts"].as_array().into_iter().flatten().filter_map(|p| p["pass_rate"].as_f64()).collect();
    assert_eq!(got, expected, "{windowed}");
    assert_eq!(windowed["next_offset"], 2);
    let (_, filtered) = server.get("/v1/runs/r1/prompts?window=1&min_pass_rate=0.5").await?;
    let kept = (0..PROMPTS).filter(|&p| successes(p, 3) * 2 >= ROLLOUTS).count();
    assert_eq!(filtered["total"], kept as u64, "{filtered}");

    // Decisions: DAPO drops the prompts whose last group was all-correct or all-wrong.
    let candidates: Vec<String> = (0..PROMPTS).map(|p| p.to_string()).chain(["unseen".to_owned()]).collect();
    let (status, dapo) =
        server.post("/v1/runs/r1/sample", &json!({"prompt_ids": candidates, "policy": {"name": "dapo"}})).await?;
    assert_eq!(status, 200, "{dapo}");
    let kept: Vec<bool> =
        dapo["decisions"].as_array().into_iter().flatten().filter_map(|d| d["keep"].as_bool()).collect();
    let expected: Vec<bool> = (0..PROMPTS).map(|p| (1..ROLLOUTS).contains(&successes(p, 3))).chain([true]).collect();
    assert_eq!(kept, expected, "{dapo}");
    let band = json!({"prompt_ids": candidates, "policy": {"name": "band", "low": 0.3, "high": 0.6}});
    let (_, band) = server.post("/v1/runs/r1/sample", &band).await?;
    let kept: Vec<bool> =
        band["decisions"].as_array().into_iter().flatten().filter_map(|d| d["keep"].as_bool()).collect();
    let expected: Vec<bool> = (0..PROMPTS)
        .map(|p| {
            let rate = STEPS.iter().map(|&s| successes(p, s)).sum::<usize>() as f64 / 12.0;
            (0.3..=0.6).contains(&rate)
        })
        .chain([true])
        .collect();
    assert_eq!(kept, expected, "{band}");
    let difficulty = json!({"prompt_ids": candidates, "policy": {"name": "difficulty", "count": 3, "seed": 5}});
    let (_, drawn) = server.post("/v1/runs/r1/sample", &difficulty).await?;
    let weights: Vec<f64> =
        drawn["decisions"].as_array().into_iter().flatten().filter_map(|d| d["weight"].as_f64()).collect();
    let raw: Vec<f64> = (0..PROMPTS)
        .map(|p| {
            let wins = STEPS.iter().map(|&s| successes(p, s)).sum::<usize>() as f64;
            let smoothed = (wins + 1.0) / (12.0 + 2.0);
            smoothed * (1.0 - smoothed)
        })
        .chain([0.25])
        .collect();
    let total: f64 = raw.iter().sum();
    for (weight, raw) in weights.iter().zip(&raw) {
        assert!((weight - raw / total).abs() < 1e-9, "{drawn}");
    }
    assert_eq!(drawn["sample"].as_array().map(Vec::len), Some(3), "{drawn}");
    let (_, again) = server.post("/v1/runs/r1/sample", &difficulty).await?;
    assert_eq!(again["sample"], drawn["sample"], "the same seed draws the same sample");

    // Statistics per step, and over the range.
    let (status, stats) = server.get("/v1/runs/r1/stats").await?;
    assert_eq!(status, 200, "{stats}");
    assert_eq!(stats["items"], 63);
    for (index, &step) in STEPS.iter().enumerate() {
        let at = &stats["steps"][index];
        assert_eq!(at["step"], step, "{at}");
        let verifier = &at["verifiers"][0];
        assert_eq!(verifier["verifier"], "exact-match");
        let wins: usize = (0..PROMPTS).map(|p| successes(p, step)).sum();
        let attempts = PROMPTS * ROLLOUTS;
        assert_eq!(verifier["count"], attempts + 1);
        assert!(close(&verifier["mean"], wins as f64 / (attempts + 1) as f64), "{verifier}");
        assert!(close(&verifier["pass_rate"], wins as f64 / attempts as f64), "{verifier}");
        assert_eq!(verifier["statuses"], json!({"correct": wins, "incorrect": attempts - wins, "invalid_input": 1}));
        assert!(close(&verifier["rates"]["internal_error"], 0.0));
        let histogram: Vec<u64> =
            verifier["histogram"]["counts"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
        assert_eq!((histogram[0], histogram[9]), ((attempts + 1 - wins) as u64, wins as u64));
        let groups = &at["groups"];
        assert_eq!(groups["groups"], PROMPTS, "{groups}");
        let all_correct = (0..PROMPTS).filter(|&p| successes(p, step) == ROLLOUTS).count();
        let all_wrong = (0..PROMPTS).filter(|&p| successes(p, step) == 0).count();
        assert_eq!(
            (groups["all_correct"].as_u64(), groups["all_wrong"].as_u64()),
            (Some(all_correct as u64), Some(all_wrong as u64))
        );
        // The refused item of prompt "0" is no attempt: it adds to no group.
        for (i, k) in [1_u64, 2, 4].into_iter().enumerate() {
            let n = ROLLOUTS as u64;
            let expected =
                (0..PROMPTS).map(|p| 1.0 - binomial(n - successes(p, step) as u64, k) / binomial(n, k)).sum::<f64>()
                    / PROMPTS as f64;
            assert!(close(&groups["pass_at_k"][i]["value"], expected), "k={k}: {groups}");
            assert_eq!(groups["pass_at_k"][i]["k"], k);
        }
        let mean_at_k = &groups["mean_at_k"];
        assert_eq!((mean_at_k[0]["k"].as_u64(), mean_at_k[0]["groups"].as_u64()), (Some(4), Some(PROMPTS as u64)));
        assert!(close(&mean_at_k[0]["value"], wins as f64 / attempts as f64), "{groups}");
    }
    let summary = &stats["summary"][0];
    assert_eq!((summary["unit"].as_str(), summary["units"].as_u64()), (Some("prompt"), Some(PROMPTS as u64)));
    // A prompt's unit is the mean score of its items, the refused ones (score 0) included.
    let means: Vec<f64> = (0..PROMPTS)
        .map(|p| {
            let wins = STEPS.iter().map(|&s| successes(p, s)).sum::<usize>() as f64;
            let items = if p == 0 { 15.0 } else { 12.0 };
            wins / items
        })
        .collect();
    assert!(close(&summary["mean"]["estimate"], means.iter().sum::<f64>() / PROMPTS as f64), "{summary}");
    let mut sorted = means.clone();
    sorted.sort_by(f64::total_cmp);
    // trim_mean(x, 0.25) of five values cuts one from each end.
    assert!(close(&summary["iqm"]["estimate"], sorted[1..4].iter().sum::<f64>() / 3.0), "{summary}");
    for interval in [&summary["mean"], &summary["iqm"], &summary["pass_rate"]] {
        let (lower, estimate, upper) =
            (interval["lower"].as_f64(), interval["estimate"].as_f64(), interval["upper"].as_f64());
        assert!(lower <= estimate && estimate <= upper, "{interval}");
    }
    let (_, narrow) = server.get("/v1/runs/r1/stats?from_step=2&to_step=2").await?;
    assert_eq!((narrow["items"].as_u64(), narrow["steps"].as_array().map(Vec::len)), (Some(21), Some(1)));

    wait_for(&server, "other", 1).await?;
    let (_, list) = server.get("/v1/runs").await?;
    let mut runs: Vec<&str> = list["runs"].as_array().into_iter().flatten().filter_map(|r| r["run"].as_str()).collect();
    runs.sort_unstable();
    assert_eq!(runs, ["other", "r1"], "{list}");
    server.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_add_to_the_same_pass_rates() -> anyhow::Result<()> {
    let first = start(Backend::Postgres).await?;
    let second = first.replica(|config| config.runs.flush_interval_ms = 20).await?;
    // The same prompt and step through both replicas: 3 of 4 and 1 of 4 correct.
    for (server, wins) in [(&first, 3), (&second, 1)] {
        let items: Vec<Value> = (0..4)
            .map(|r| {
                let response = if r < wins { "4" } else { "5" };
                json!({"verifier": "exact-match", "input": {"response": response, "reference": "4"}, "prompt_id": "p"})
            })
            .collect();
        let (status, body) = server.post("/v1/score", &json!({"items": items, "run": "shared", "step": 7})).await?;
        anyhow::ensure!(status == 200, "{body}");
    }
    wait_for(&first, "shared", 8).await?;
    let (_, prompts) = second.get("/v1/runs/shared/prompts").await?;
    let prompt = &prompts["prompts"][0];
    assert_eq!((prompt["attempts"].as_u64(), prompt["successes"].as_u64()), (Some(8), Some(4)), "{prompts}");
    assert_eq!(prompt["last_attempts"], 8, "one group across replicas: {prompt}");
    second.finish().await?;
    first.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_run_fields_are_the_items_or_the_requests_errors() -> anyhow::Result<()> {
    let server = start(Backend::Sqlite).await?;
    let item = |extra: Value| {
        let mut item = json!({"verifier": "exact-match", "input": {"response": "4", "reference": "4"}});
        if let (Value::Object(item), Value::Object(extra)) = (&mut item, extra) {
            item.extend(extra);
        }
        item
    };
    let items = json!([
        item(json!({"step": 1})),
        item(json!({"run": "r", "step": -1})),
        item(json!({"run": "r", "step": 1.5})),
        item(json!({"run": "", "prompt_id": "p"})),
        item(json!({"run": "x".repeat(257)})),
        item(json!({"run": "r", "prompt_id": ["p"]})),
        item(json!({"run": "r", "group": true})),
        item(json!({"run": "r", "prompt_id": 12, "group": 3})),
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let errors: Vec<&str> = body["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r["details"]["error"].as_str().unwrap_or("(scored)"))
        .collect();
    let expected = [
        "belong to a run",
        "non-negative integer",
        "non-negative integer",
        "`run` is empty",
        "longer than 256 bytes",
        "`prompt_id` must be a string",
        "`group` must be a string",
        "(scored)",
    ];
    for (error, expected) in errors.iter().zip(expected) {
        assert!(error.contains(expected), "{error:?} should say {expected:?}: {body}");
    }
    // A request's step without any run tags nothing: the item is scored and not recorded.
    let (status, body) = server.post("/v1/score", &json!({"items": [item(json!({}))], "step": 2})).await?;
    assert_eq!((status, body["results"][0]["status"].as_str()), (200, Some("correct")), "{body}");
    let (status, body) =
        server.post("/v1/verifiers/exact-match/score", &json!({"items": [], "run": "y".repeat(300)})).await?;
    assert_eq!(status, 422, "{body}");

    wait_for(&server, "r", 1).await?;
    let cases = [
        ("/v1/runs/nope/stats", 404, "unknown_run"),
        ("/v1/runs/nope/prompts", 404, "unknown_run"),
        ("/v1/runs/r/prompts?window=0", 422, "invalid_query"),
        ("/v1/runs/r/prompts?window=2&half_life=0", 422, "invalid_query"),
        ("/v1/runs/r/prompts?half_life=-1", 422, "invalid_query"),
        ("/v1/runs/r/prompts?sort=luck", 422, "invalid_query"),
        ("/v1/runs/r/prompts?limit=0", 422, "invalid_query"),
        ("/v1/runs/r/stats?to_step=9223372036854775808", 422, "invalid_query"),
        ("/v1/runs?offset=9223372036854775808", 422, "invalid_query"),
        ("/v1/runs?limit=5000", 422, "invalid_query"),
    ];
    for (path, status, code) in cases {
        let (got, body) = server.get(path).await?;
        assert_eq!((got, body["code"].as_str()), (status, Some(code)), "{path}: {body}");
    }
    let samples = [
        json!({"prompt_ids": [], "policy": {"name": "dapo"}}),
        json!({"prompt_ids": ["a"], "policy": {"name": "luck"}}),
        json!({"prompt_ids": ["a"], "policy": {"name": "band", "low": 0.2, "high": 1.5}}),
        json!({"prompt_ids": ["a"], "policy": {"name": "difficulty", "prior": 0}}),
        json!({"prompt_ids": ["a"], "policy": {"name": "dapo"}, "decay": {"kind": "window", "steps": 0}}),
    ];
    for body in samples {
        let (status, answer) = server.post("/v1/runs/r/sample", &body).await?;
        assert_eq!(status, 422, "{body}: {answer}");
        assert!(answer["message"].as_str().is_some(), "{answer}");
    }
    // A range with no step is empty, not an error.
    let (status, empty) = server.get("/v1/runs/r/stats?from_step=3&to_step=1").await?;
    assert_eq!(
        (status, empty["items"].as_u64(), empty["steps"].as_array().map(Vec::len)),
        (200, Some(0), Some(0)),
        "{empty}"
    );
    // A run never scored: every prompt is unseen, and kept.
    let (status, answer) =
        server.post("/v1/runs/fresh/sample", &json!({"prompt_ids": ["a"], "policy": {"name": "dapo"}})).await?;
    assert_eq!((status, &answer["decisions"][0]["keep"]), (200, &json!(true)), "{answer}");
    let (_, prompts) = server.get("/v1/runs/r/prompts").await?;
    let ids: BTreeMap<&str, u64> = prompts["prompts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some((p["prompt_id"].as_str()?, p["attempts"].as_u64()?)))
        .collect();
    assert_eq!(ids, BTreeMap::from([("12", 1)]), "integer prompt ids are their decimal text");
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn job_lines_are_recorded_with_their_runs() -> anyhow::Result<()> {
    let server = start(Backend::Sqlite).await?;
    let lines: Vec<String> = (0..6)
        .map(|i| {
            let response = if i < 4 { "4" } else { "5" };
            json!({"verifier": "exact-match", "input": {"response": response, "reference": "4"},
                   "run": "batch", "step": 2, "prompt_id": "a"})
            .to_string()
        })
        .collect();
    let response = server
        .client
        .post(server.url("/v1/jobs"))
        .header("content-type", "application/x-ndjson")
        .body(lines.join("\n"))
        .send()
        .await?;
    anyhow::ensure!(response.status().as_u16() == 202 || response.status().is_success(), "{}", response.status());
    let job: Value = response.json().await?;
    let id = job["id"].as_str().unwrap_or_default().to_owned();
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.get(&format!("/v1/jobs/{id}")).await?.1["state"] != "done" {
        anyhow::ensure!(Instant::now() < deadline, "job {id} did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    wait_for(&server, "batch", 6).await?;
    let (_, prompts) = server.get("/v1/runs/batch/prompts").await?;
    let prompt = &prompts["prompts"][0];
    assert_eq!(
        (prompt["attempts"].as_u64(), prompt["successes"].as_u64(), prompt["last_step"].as_i64()),
        (Some(6), Some(4), Some(2)),
        "{prompts}"
    );
    server.finish().await
}

// A database as migration 15 left it (a row per item in `run_items`), holding one run: the next
// start carries its items over into the aggregates, and the run reads as it did.
on_both_backends!(items_recorded_as_rows_are_carried_into_the_aggregates, |backend| async move {
    let (url, database) = match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir()?;
            (format!("sqlite://{}?mode=rwc", dir.path().join("referee.db").display()), Err(dir))
        }
        Backend::Postgres => {
            let (name, url) = referee_tests::create_empty_postgres_database().await?;
            (url, Ok(name))
        }
    };
    sqlx::any::install_default_drivers();
    let mut migrator = sqlx::migrate::Migrator::new(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../server/migrations"
    )))
    .await?;
    migrator.migrations = migrator.migrations.iter().filter(|m| m.version <= 15).cloned().collect();
    let pool = sqlx::AnyPool::connect(&url).await?;
    migrator.run(&pool).await?;
    // Step 1: prompt a (two correct of three, one 40 ms), prompt b (one wrong); an internal
    // error of prompt a; step 2: an item of no prompt. Latencies in microseconds.
    // (step, prompt, group, score, status, latency)
    type Row = (i64, Option<&'static str>, Option<&'static str>, f64, &'static str, i64);
    let items: [Row; 6] = [
        (1, Some("a"), Some("ga"), 1.0, "correct", 1_000),
        (1, Some("a"), Some("ga"), 1.0, "correct", 3_000),
        (1, Some("a"), Some("ga"), 0.0, "incorrect", 40_000),
        (1, Some("b"), None, 0.0, "incorrect", 2_000),
        (1, Some("a"), Some("ga"), 0.0, "internal_error", 10),
        (2, None, None, 0.5, "partial", 5_000),
    ];
    for (step, prompt, group, score, status, latency) in items {
        sqlx::query(
            "INSERT INTO run_items (run, step, prompt_id, group_id, verifier, score, status, latency_us, created_at_ms) \
             VALUES ('old', $1, $2, $3, 'math', $4, $5, $6, 1)",
        )
        .bind(step)
        .bind(prompt)
        .bind(group)
        .bind(score)
        .bind(status)
        .bind(latency)
        .execute(&pool)
        .await?;
    }
    sqlx::query("INSERT INTO runs (run, items, first_step, last_step, created_at_ms, updated_at_ms) VALUES ('old', 6, 1, 2, 1, 1)")
        .execute(&pool)
        .await?;
    pool.close().await;

    let server = referee_server::start(&referee_tests::server_config(&url)?).await?;
    let client = reqwest::Client::new();
    let base = format!("http://{}", server.addr());
    let stats: Value = client.get(format!("{base}/v1/runs/old/stats")).send().await?.json().await?;
    let prompts: Value = client.get(format!("{base}/v1/runs/old/prompts?sort=prompt_id")).send().await?.json().await?;
    server.shutdown().await?;
    match database {
        Ok(name) => referee_tests::drop_postgres_database(&name).await?,
        Err(dir) => drop(dir),
    }

    assert_eq!(stats["items"], 6, "{stats}");
    let step1 = &stats["steps"][0]["verifiers"][0];
    assert_eq!(step1["count"], 5, "{stats}");
    assert!(close(&step1["mean"], 0.4), "{step1}");
    assert!(close(&step1["pass_rate"], 0.5), "two correct of four attempts: {step1}");
    assert_eq!(step1["statuses"], json!({"correct": 2, "incorrect": 2, "internal_error": 1}));
    assert!(close(&step1["latency"]["mean_ms"], 46.01 / 5.0), "{step1}");
    // A carried-over latency of 2^k to 2^(k+1) us goes to bucket 8k + 4, read as 2^(k + 9/16) us.
    let read_as = |k: f64| (k + 0.5625).exp2() / 1000.0;
    let (p50, p99) = (step1["latency"]["p50_ms"].as_f64(), step1["latency"]["p99_ms"].as_f64());
    assert!(p50.is_some_and(|p50| (p50 - read_as(10.0)).abs() < 1e-9), "2000 us: {step1}");
    let expected = read_as(11.0) + (read_as(15.0) - read_as(11.0)) * 0.96;
    assert!(p99.is_some_and(|p99| (p99 - expected).abs() < 1e-9), "between 3 and 40 ms: {step1}");
    // Groups: ga (three attempts, two correct) and prompt b standing for its group.
    let groups = &stats["steps"][0]["groups"];
    assert_eq!((groups["groups"].as_u64(), groups["all_wrong"].as_u64()), (Some(2), Some(1)), "{groups}");
    assert!(close(&groups["pass_at_k"][0]["value"], (2.0 / 3.0 + 0.0) / 2.0), "{groups}");
    assert_eq!(stats["steps"][1]["verifiers"][0]["statuses"], json!({"partial": 1}));
    assert_eq!(stats["summary"][0]["unit"], "item", "step 2's item has no prompt: {stats}");
    let rates: Vec<(String, f64, u64)> = prompts["prompts"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|row| {
                    let name = row["prompt_id"].as_str().unwrap_or_default().to_owned();
                    (name, row["pass_rate"].as_f64().unwrap_or(f64::NAN), row["attempts"].as_u64().unwrap_or(0))
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(rates, [("a".to_owned(), 2.0 / 3.0, 3), ("b".to_owned(), 0.0, 1)], "{prompts}");
    Ok(())
});

// Five runs of one experiment, with 0, 1, 2, 4 and 5 correct of five rollouts: the comparison
// gives each run's mean and pass rate, and across runs the mean, the interquartile mean (one run
// cut from each end) and the pooled pass rate, each inside its interval.
on_both_backends!(runs_compare_with_intervals_over_runs, |backend| async move {
    let server = start(backend).await?;
    let correct = [0_usize, 1, 2, 4, 5];
    let names: Vec<String> = (0..correct.len()).map(|i| format!("seed-{i}")).collect();
    for (name, &c) in names.iter().zip(&correct) {
        let items: Vec<Value> = (0..5)
            .map(|r| {
                let response = if r < c { "4" } else { "5" };
                json!({"verifier": "exact-match", "input": {"response": response, "reference": "4"}, "prompt_id": r})
            })
            .collect();
        let (status, body) = server.post("/v1/score", &json!({"run": name, "step": 1, "items": items})).await?;
        anyhow::ensure!(status == 200, "{body}");
    }
    for name in &names {
        wait_for(&server, name, 5).await?;
    }
    let (status, body) = server.post("/v1/run-comparisons", &json!({"runs": names})).await?;
    assert_eq!(status, 200, "{body}");
    for (i, run) in body["runs"].as_array().into_iter().flatten().enumerate() {
        assert_eq!(run["run"], names[i].as_str(), "in the order asked for: {body}");
        let mean = correct[i] as f64 / 5.0;
        assert!(close(&run["verifiers"][0]["mean"], mean) && close(&run["verifiers"][0]["pass_rate"], mean), "{run}");
    }
    let summary = &body["summary"][0];
    assert_eq!((summary["verifier"].as_str(), summary["runs"].as_u64()), (Some("exact-match"), Some(5)), "{summary}");
    // Run means 0, 0.2, 0.4, 0.8, 1: the mean is 0.48; scipy.stats.trim_mean(.., 0.25) cuts one
    // from each end, leaving 0.2, 0.4 and 0.8; the pooled pass rate is 12 of 25.
    for (key, expected) in [("mean", 0.48), ("iqm", (0.2 + 0.4 + 0.8) / 3.0), ("pass_rate", 12.0 / 25.0)] {
        let interval = &summary[key];
        assert!(close(&interval["estimate"], expected), "{key}: {summary}");
        let (lower, upper) =
            (interval["lower"].as_f64().unwrap_or(f64::NAN), interval["upper"].as_f64().unwrap_or(f64::NAN));
        assert!(lower <= expected && expected <= upper && lower < upper, "{key}: {summary}");
    }
    let (_, again) = server.post("/v1/run-comparisons", &json!({"runs": names})).await?;
    assert_eq!(again, body, "the same runs give the same intervals");
    let twice: Vec<&String> = names.iter().chain(&names).collect();
    let (_, once) = server.post("/v1/run-comparisons", &json!({"runs": twice})).await?;
    assert_eq!(once, body, "a name given twice counts once");
    // A step range with none of the runs' items: no totals, nothing to aggregate.
    let (status, empty) = server.post("/v1/run-comparisons", &json!({"runs": names, "from_step": 2})).await?;
    assert_eq!(status, 200, "{empty}");
    assert_eq!((empty["runs"][0]["verifiers"].clone(), empty["summary"].clone()), (json!([]), json!([])));

    for (body, code, status) in [
        (json!({"runs": []}), "invalid_body", 422),
        (json!({"runs": [""]}), "unknown_run", 404),
        (json!({"runs": ["seed-0", "never"]}), "unknown_run", 404),
        (json!({"runs": ["seed-0"], "from_step": -1}), "invalid_body", 422),
    ] {
        let (got, answer) = server.post("/v1/run-comparisons", &body).await?;
        assert_eq!((got, answer["code"].as_str()), (status, Some(code)), "{body}: {answer}");
    }
    server.finish().await
});

/// Scores, in run `audit`, two items of prompt `a` at step 1 (one right, one wrong), a boxed
/// answer of prompt `b` at step 2 whose response is longer than the cap, an unboxed one (no
/// answer: `unparseable`), and an item of no run.
async fn score_audit(server: &TestServer, long: &str) -> anyhow::Result<()> {
    let boxed = |id: &str, response: &str, step: u64, prompt: &str| {
        json!({"id": id, "verifier": "exact-match", "run": "audit", "step": step, "prompt_id": prompt,
               "input": {"response": response, "reference": "4", "extract": "boxed"}})
    };
    let items = json!([
        boxed("right", "so \\boxed{4}", 1, "a"),
        boxed("wrong", "so \\boxed{5}", 1, "a"),
        boxed("long", long, 2, "b"),
        boxed("unboxed", "it is 4", 2, "b"),
        {"id": "untagged", "verifier": "exact-match", "input": {"response": "4", "reference": "4"}},
    ]);
    let (status, body) = server.post("/v1/score", &json!({ "items": items })).await?;
    anyhow::ensure!(status == 200, "{body}");
    wait_for(server, "audit", 4).await?;
    Ok(())
}

fn sample_ids(list: &Value) -> Vec<&str> {
    list["samples"].as_array().into_iter().flatten().filter_map(|s| s["item_id"].as_str()).collect()
}

// With `[runs.samples] rate = 1`, every recorded item keeps its response, extracted answer and
// details, listed latest step first and filtered by verifier, status, prompt and steps; a
// response over the cap is cut at a character boundary and says how long it was.
on_both_backends!(sampled_items_keep_their_text, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.runs.flush_interval_ms = 20;
        config.runs.samples.rate = 1.0;
        config.runs.samples.max_text_bytes = 64;
    })
    .await?;
    let long = format!("\\boxed{{4}} {}", "é".repeat(100));
    score_audit(&server, &long).await?;
    let (status, list) = server.get("/v1/runs/audit/samples").await?;
    assert_eq!(status, 200, "{list}");
    assert_eq!((list["total"].as_u64(), list["retention"]["rate"].as_f64()), (Some(4), Some(1.0)), "{list}");
    let mut ids = sample_ids(&list);
    ids[..2].sort_unstable();
    ids[2..].sort_unstable();
    assert_eq!(ids, ["long", "unboxed", "right", "wrong"], "latest step first: {list}");
    let samples = list["samples"].as_array().cloned().unwrap_or_default();
    let by_id = |id: &str| samples.iter().find(|s| s["item_id"] == id).cloned().unwrap_or_default();

    let right = by_id("right");
    assert_eq!(
        (&right["response"], &right["extracted"], &right["status"], &right["score"]),
        (&json!("so \\boxed{4}"), &json!("4"), &json!("correct"), &json!(1.0)),
        "{right}"
    );
    assert_eq!(
        (&right["prompt_id"], &right["step"], &right["verifier"]),
        (&json!("a"), &json!(1), &json!("exact-match"))
    );
    assert_eq!((&right["details"]["extracted"], &right["truncated"]), (&json!("4"), &json!(false)));
    assert_eq!(by_id("wrong")["extracted"], "5");

    let cut = by_id("long");
    let response = cut["response"].as_str().unwrap_or_default();
    assert!(response.len() <= 64 && long.starts_with(response) && response.ends_with('é'), "{cut}");
    assert_eq!((cut["response_bytes"].as_u64(), &cut["truncated"]), (Some(long.len() as u64), &json!(true)));
    let unboxed = by_id("unboxed");
    assert_eq!((&unboxed["status"], &unboxed["extracted"]), (&json!("unparseable"), &Value::Null), "{unboxed}");

    for (query, expected) in [
        ("status=incorrect", vec!["wrong"]),
        ("verifier=exact-match&prompt_id=b&status=unparseable", vec!["unboxed"]),
        ("to_step=1&status=correct", vec!["right"]),
        ("verifier=math", vec![]),
    ] {
        let (status, list) = server.get(&format!("/v1/runs/audit/samples?{query}")).await?;
        assert_eq!((status, sample_ids(&list)), (200, expected), "{query}: {list}");
    }
    let (_, first) = server.get("/v1/runs/audit/samples?limit=3").await?;
    let (_, rest) = server.get("/v1/runs/audit/samples?limit=3&offset=3").await?;
    assert_eq!((sample_ids(&first).len(), first["next_offset"].as_u64()), (3, Some(3)), "{first}");
    assert_eq!((rest["samples"][0]["step"].as_u64(), &rest["next_offset"]), (Some(1), &Value::Null), "{rest}");
    let mut paged = [sample_ids(&first), sample_ids(&rest)].concat();
    paged.sort_unstable();
    assert_eq!(paged, ["long", "right", "unboxed", "wrong"], "the pages hold every sample once");

    let (status, body) = server.get("/v1/runs/audit/samples?status=bogus").await?;
    assert_eq!((status, &body["code"]), (422, &json!("invalid_query")), "{body}");
    let (status, body) = server.get("/v1/runs/nobody/samples").await?;
    assert_eq!((status, &body["code"]), (404, &json!("unknown_run")), "{body}");
    server.finish().await
});

// Off by default: nothing is kept. With only `alarm_rate`, only the alarm statuses are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_is_kept_only_when_asked_for() -> anyhow::Result<()> {
    let long = "\\boxed{4}".to_owned();
    let server = start(Backend::Sqlite).await?;
    score_audit(&server, &long).await?;
    let (_, list) = server.get("/v1/runs/audit/samples").await?;
    assert_eq!((list["total"].as_u64(), list["retention"]["rate"].as_f64()), (Some(0), Some(0.0)), "{list}");
    server.finish().await?;

    let server = TestServer::start_with(Backend::Sqlite, |config| {
        config.runs.flush_interval_ms = 20;
        config.runs.samples.alarm_rate = 1.0;
    })
    .await?;
    score_audit(&server, &long).await?;
    let (_, list) = server.get("/v1/runs/audit/samples").await?;
    assert_eq!(sample_ids(&list), ["unboxed"], "{list}");
    server.finish().await
}

/// The status and score `/v1/score` gives an `np` answer to the TSP instance of level 1, seed 7.
async fn np_verdict(server: &TestServer, response: &str) -> anyhow::Result<(String, f64)> {
    let item = json!({"verifier": "np", "input": {"task": "tsp", "level": 1, "seed": 7, "response": response}});
    let (_, scored) = server.post("/v1/score", &json!({"items": [item]})).await?;
    let result = &scored["results"][0];
    Ok((result["status"].as_str().unwrap_or_default().to_owned(), result["score"].as_f64().unwrap_or(f64::NAN)))
}

on_both_backends!(episodes_are_recorded_in_their_runs_when_they_end, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.runs.flush_interval_ms = 20;
        config.episodes.max_turns = 2;
        config.episodes.idle_timeout_ms = 1500;
    })
    .await?;
    let (_, generated) = server.post("/v1/environments/tsp/instances", &json!({"level": 1, "seed": 7})).await?;
    let solved = format!("Answer: {}", generated["instances"][0]["reference"]["answer"].as_str().unwrap_or_default());
    let infeasible = "Answer: [0, 0, 0]";
    let options = json!({"task": "tsp", "level": 1, "seed": 7, "max_turns": 3});
    let begin = |tags: Value| {
        let mut body = json!({"environment": "np-feedback", "options": options});
        if let (Value::Object(body), Value::Object(tags)) = (&mut body, tags) {
            body.extend(tags);
        }
        body
    };
    let start = async |tags: Value| -> anyhow::Result<String> {
        let (status, body) = server.post("/v1/episodes", &begin(tags)).await?;
        anyhow::ensure!(status == 201, "{status} {body}");
        Ok(body["episode_id"].as_str().unwrap_or_default().to_owned())
    };
    let act = async |id: &str, response: &str| -> anyhow::Result<Value> {
        let (status, body) =
            server.post(&format!("/v1/episodes/{id}/step"), &json!({"action": {"response": response}})).await?;
        anyhow::ensure!(status == 200, "{status} {body}");
        Ok(body)
    };

    // Solved at the first turn: the np verifier's own verdict of the answer.
    let id = start(json!({"run": "ep", "step": 4, "prompt_id": "p1"})).await?;
    let done = act(&id, &solved).await?;
    assert_eq!(done["status"], "done", "{done}");
    // Stopped by the server's turn cap (2) before the environment's own (3).
    let id = start(json!({"run": "ep", "step": 4, "prompt_id": "p1"})).await?;
    act(&id, infeasible).await?;
    let capped = act(&id, infeasible).await?;
    assert_eq!(capped["status"], "turn_limit", "{capped}");
    // Closed by the client before it was done: not recorded.
    let id = start(json!({"run": "ep", "step": 5, "prompt_id": 2})).await?;
    assert_eq!(server.delete(&format!("/v1/episodes/{id}")).await?, 200);
    // Left idle: expired by the reaper.
    let idle = start(json!({"run": "ep", "step": 5, "prompt_id": 2, "group": "g"})).await?;
    // Without a run: nothing is recorded.
    let untagged = start(json!({})).await?;
    act(&untagged, &solved).await?;

    let run = wait_for(&server, "ep", 3).await?;
    assert_eq!((run["first_step"].as_i64(), run["last_step"].as_i64()), (Some(4), Some(5)), "{run}");
    let (_, transcript) = server.get(&format!("/v1/episodes/{idle}")).await?;
    assert_eq!(transcript["status"], "expired", "{transcript}");

    let (solved_status, solved_score) = np_verdict(&server, &solved).await?;
    let (status, stats) = server.get("/v1/runs/ep/stats").await?;
    assert_eq!(status, 200, "{stats}");
    let at = |step: u64| {
        stats["steps"].as_array().into_iter().flatten().find(|s| s["step"] == step).map(|s| s["verifiers"][0].clone())
    };
    let four = at(4).unwrap_or_default();
    assert_eq!(four["verifier"], "np-feedback", "{four}");
    assert_eq!(four["statuses"], json!({solved_status.as_str(): 1, "resource_limit": 1}), "{four}");
    assert!(close(&four["mean"], solved_score / 2.0), "the turn-capped episode's total reward is 0: {four}");
    let five = at(5).unwrap_or_default();
    assert_eq!(five["statuses"], json!({"timeout": 1}), "{five}");

    let (_, prompts) = server.get("/v1/runs/ep/prompts?sort=prompt_id").await?;
    let rows: Vec<(String, u64, u64)> = prompts["prompts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            (
                p["prompt_id"].as_str().unwrap_or_default().to_owned(),
                p["attempts"].as_u64().unwrap_or(0),
                p["successes"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let wins = u64::from(solved_status == "correct");
    assert_eq!(rows, [("2".to_owned(), 1, 0), ("p1".to_owned(), 2, wins)], "{prompts}");

    // Run fields are checked as a scored item's are.
    for (tags, why) in [
        (json!({"step": 3}), "a step without a run"),
        (json!({"run": "ep", "prompt_id": 1.5}), "a fractional prompt id"),
        (json!({"run": "ep", "group": ""}), "an empty group"),
    ] {
        let (status, body) = server.post("/v1/episodes", &begin(tags)).await?;
        assert_eq!((status, body["code"].as_str()), (422, Some("invalid_run")), "{why}: {body}");
    }
    server.finish().await
});

on_both_backends!(statistics_are_bounded_by_stored_rows_not_items, |backend| async move {
    let server = TestServer::start_with(backend, |config| {
        config.runs.flush_interval_ms = 20;
        config.runs.max_stats_rows = 60;
    })
    .await?;
    // A trainer that hands no step: 400 binary-reward items at step 0 over 8 prompts are a few
    // dozen rows, read whole.
    let items: Vec<Value> = (0..400)
        .map(|i| {
            let response = if i % 4 == 0 { "4" } else { "5" };
            json!({"verifier": "exact-match", "input": {"response": response, "reference": "4"},
                   "run": "flat", "prompt_id": (i % 8).to_string()})
        })
        .collect();
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    anyhow::ensure!(status == 200, "{body}");
    wait_for(&server, "flat", 400).await?;
    let (status, stats) = server.get("/v1/runs/flat/stats").await?;
    assert_eq!(status, 200, "{stats}");
    assert_eq!(stats["items"], 400);
    assert_eq!(stats["steps"][0]["verifiers"][0]["statuses"], json!({"correct": 100, "incorrect": 300}));

    // One item per step is a few rows per item: over the limit, refused with the count; a
    // narrower range is read.
    let items: Vec<Value> = (0..40_u64)
        .map(|i| {
            let response = format!("{}", i + 1);
            json!({"verifier": "exact-match", "input": {"response": response, "reference": "1"},
                   "run": "wide", "step": i, "prompt_id": "p"})
        })
        .collect();
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    anyhow::ensure!(status == 200, "{body}");
    wait_for(&server, "wide", 40).await?;
    let (status, refused) = server.get("/v1/runs/wide/stats").await?;
    assert_eq!((status, refused["code"].as_str()), (422, Some("range_too_large")), "{refused}");
    assert!(refused["message"].as_str().is_some_and(|m| m.contains("runs.max_stats_rows")), "{refused}");
    let (status, narrowed) = server.get("/v1/runs/wide/stats?from_step=0&to_step=9").await?;
    assert_eq!((status, narrowed["items"].as_u64()), (200, Some(10)), "{narrowed}");
    server.finish().await
});
