//! The noisy-reward layer over HTTP: configured, audited and appealed noise models, the
//! corrections they put on scored items, and group advantages.

use std::time::{Duration, Instant};

use referee_core::{Budget, Verifier as _};
use referee_math::{MathInput, MathVerifier};
use referee_tests::{Backend, TestServer, api_on_both_backends, exact_item, on_both_backends};
use serde_json::{Value, json};

fn close(a: &Value, b: f64) -> bool {
    a.as_f64().is_some_and(|a| (a - b).abs() < 1e-9)
}

async fn start(backend: Backend) -> anyhow::Result<TestServer> {
    TestServer::start_with(backend, |config| {
        config.noise.refresh_interval_ms = 50;
        config.noise.appeal_seed = Some(20_261_121);
    })
    .await
}

api_on_both_backends!(configured_rates_correct_binary_verdicts, |backend| async move {
    let server = start(backend).await?;
    let (status, model) =
        server.put("/v1/noise/exact-match", &json!({"configured": {"rho0": 0.05, "rho1": 0.2}})).await?;
    assert_eq!(status, 200, "{model}");
    assert_eq!(model["source"], "configured");
    assert!(close(&model["model"]["youden_j"]["estimate"], 0.75), "{model}");
    assert_eq!(model["refused"], Value::Null);

    let items = json!([
        exact_item("right", "4", "4"),
        exact_item("wrong", "5", "4"),
        {"id": "bad", "verifier": "exact-match", "input": {"response": "4"}},
        {"id": "other", "verifier": "regex-match", "input": {"response": "abc", "pattern": "b"}},
        {"id": "labelled", "verifier": "exact-match", "input": {"response": "4", "reference": "4"}, "label": "gsm8k"},
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = &body["results"];
    let right = &results[0]["details"]["reward"];
    assert_eq!(results[0]["score"], 1.0, "the score stays the raw verdict by default");
    assert_eq!(right["raw"], 1.0);
    assert!(close(&right["backward"], 0.95 / 0.75), "{right}");
    assert!(close(&right["forward_weight"], 0.2), "{right}");
    assert_eq!(right["source"], "configured");
    assert_eq!((&right["rho0"], &right["rho1"]), (&json!(0.05), &json!(0.2)), "the point estimates used: {right}");
    assert_eq!(right.get("refused"), None, "`refused` appears only when the correction is refused");
    let wrong = &results[1]["details"]["reward"];
    assert!(close(&wrong["backward"], -0.05 / 0.75), "{wrong}");
    assert!(close(&wrong["forward_weight"], -0.8), "{wrong}");
    assert_eq!(results[2]["status"], "invalid_input");
    assert_eq!(results[2]["details"].get("reward"), None, "non-judging verdicts get no correction");
    assert_eq!(results[3]["details"].get("reward"), None, "a verifier without a model gets no correction");
    assert_eq!(results[4]["details"]["reward"], *right, "a label without its own model uses the verifier's");

    let (_, body) = server.post("/v1/score", &json!({"items": items, "correction": "backward"})).await?;
    assert!(close(&body["results"][0]["score"], 0.95 / 0.75), "{body}");
    assert!(close(&body["results"][1]["score"], -0.05 / 0.75), "{body}");
    let (_, body) = server
        .post(
            "/v1/verifiers/exact-match/score",
            &json!({"items": [{"input": {"response": "4", "reference": "4"}}], "correction": "backward"}),
        )
        .await?;
    assert!(close(&body["results"][0]["score"], 0.95 / 0.75), "{body}");

    // Rates this uncertain leave J's lower bound under the 0.2 floor: the correction is refused.
    let uncertain = json!({"configured": {
        "rho0": 0.3, "rho1": 0.4,
        "rho0_interval": {"lower": 0.1, "upper": 0.5}, "rho1_interval": {"lower": 0.2, "upper": 0.6},
    }});
    let (status, model) = server.put("/v1/noise/exact-match?label=hard", &uncertain).await?;
    assert_eq!(status, 200, "{model}");
    assert!(model["refused"].as_str().is_some_and(|r| r.contains("below the floor 0.2")), "{model}");
    let hard = json!([{"verifier": "exact-match", "input": {"response": "4", "reference": "4"}, "label": "hard"}]);
    let (_, body) = server.post("/v1/score", &json!({"items": hard, "correction": "backward"})).await?;
    let result = &body["results"][0];
    assert_eq!(result["score"], 1.0, "a refused correction leaves the raw score: {result}");
    assert!(result["details"]["reward"]["refused"].as_str().is_some(), "{result}");
    assert_eq!(result["details"]["reward"]["backward"], Value::Null);

    let (status, list) = server.get("/v1/noise").await?;
    assert_eq!(status, 200);
    let labels: Vec<&Value> =
        list["models"].as_array().map(|m| m.iter().map(|m| &m["label"]).collect()).unwrap_or_default();
    assert_eq!(labels, [&Value::Null, &json!("hard")]);
    assert_eq!(server.delete("/v1/noise/exact-match?label=hard").await?, 204);
    let (_, list) = server.get("/v1/noise").await?;
    assert_eq!(list["models"].as_array().map(Vec::len), Some(1));
    let (status, model) = server.get("/v1/noise/exact-match?label=hard").await?;
    assert_eq!((status, &model["model"]), (200, &Value::Null));
    server.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_settings_are_refused_with_reasons() -> anyhow::Result<()> {
    let server = start(Backend::Sqlite).await?;
    let cases = [
        ("/v1/noise/exact-match", json!({"configured": {"rho0": 1.5, "rho1": 0.1}}), 422, "invalid_noise"),
        (
            "/v1/noise/exact-match",
            json!({"configured": {"rho0": 0.1, "rho1": 0.1, "rho0_interval": {"lower": 0.2, "upper": 0.3}}}),
            422,
            "invalid_noise",
        ),
        ("/v1/noise/nope", json!({}), 404, "unknown_verifier"),
        (
            "/v1/noise/math",
            json!({"appeal": {"checker": "nope", "rates": {"negatives": 0.1, "positives": 0.1}}}),
            422,
            "invalid_noise",
        ),
        (
            "/v1/noise/math",
            json!({"appeal": {"checker": "math", "rates": {"negatives": 0.1, "positives": 0.1}}}),
            422,
            "invalid_noise",
        ),
        (
            "/v1/noise/math",
            json!({"appeal": {"checker": "math", "input_patch": [1], "rates": {"negatives": 0.1, "positives": 0.1}}}),
            422,
            "invalid_noise",
        ),
        (
            "/v1/noise/math",
            json!({"appeal": {"checker": "exact-match", "rates": {"negatives": 2, "positives": 0.1}}}),
            422,
            "invalid_noise",
        ),
        ("/v1/noise/math", json!({"colour": "blue"}), 422, "invalid_body"),
    ];
    for (path, body, want_status, want_code) in cases {
        let (status, error) = server.put(path, &body).await?;
        assert_eq!((status, error["code"].as_str()), (want_status, Some(want_code)), "{path} {body}: {error}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (status, error) = server.post("/v1/noise/math/audits", &json!({"labels": []})).await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_noise")));
    let (status, error) = server.get("/v1/noise/math/appeals?limit=0").await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")));
    server.finish().await
}

on_both_backends!(audits_count_rates_directly, |backend| async move {
    let server = start(backend).await?;
    // 40 truly-0 items with 2 passed; 60 truly-1 items with 12 failed: ρ0 = 0.05, ρ1 = 0.2.
    let mut labels = vec![json!({"verdict": true, "gold": false}); 2];
    labels.extend(vec![json!({"verdict": false, "gold": false}); 38]);
    labels.extend(vec![json!({"verdict": false, "gold": true}); 12]);
    labels.extend(vec![json!({"verdict": true, "gold": true}); 48]);
    let (status, model) = server.post("/v1/noise/math/audits", &json!({"labels": labels})).await?;
    assert_eq!(status, 200, "{model}");
    assert_eq!(model["source"], "audit");
    assert!(close(&model["model"]["rho0"]["estimate"], 0.05), "{model}");
    assert!(close(&model["model"]["rho1"]["estimate"], 0.2), "{model}");
    assert_eq!(model["model"]["rho1"]["method"], "jeffreys");
    assert_eq!(model["audit_counts"]["checked_negative"], 50);

    // A second upload adds to the tally; `replace` starts it over.
    let (_, model) = server.post("/v1/noise/math/audits", &json!({"labels": labels})).await?;
    assert!(close(&model["model"]["rho1"]["estimate"], 0.2), "{model}");
    assert_eq!(model["audit_counts"]["checked_negative"], 100);
    let fewer = json!({"labels": [{"verdict": false, "gold": true}, {"verdict": true, "gold": true}, {"verdict": false, "gold": false}], "replace": true});
    let (_, model) = server.post("/v1/noise/math/audits", &fewer).await?;
    assert!(close(&model["model"]["rho1"]["estimate"], 0.5), "{model}");
    assert_eq!(model["audit_counts"]["checked_negative"], 2);

    // An audit outranks configured rates unless `use` says otherwise.
    let (_, model) = server.put("/v1/noise/math", &json!({"configured": {"rho0": 0.01, "rho1": 0.02}})).await?;
    assert_eq!(model["source"], "audit");
    let (_, model) =
        server.put("/v1/noise/math", &json!({"configured": {"rho0": 0.01, "rho1": 0.02}, "use": "configured"})).await?;
    assert_eq!(model["source"], "configured");
    assert!(close(&model["model"]["rho1"]["estimate"], 0.02), "{model}");
    server.finish().await
});

/// The options that make `math` strict: boxed answers only, no rounding, no assignments, no
/// lists of boxes, percentages as plain numbers.
fn strict() -> Value {
    json!({"extraction": "boxed", "accept_rounded": false, "allow_assignment": false,
           "allow_multiple_boxed": false, "percent": "number"})
}

/// Its defaults: the lenient checker, which agrees with every label of the peer cases.
fn lenient() -> Value {
    json!({"extraction": "auto", "accept_rounded": true, "allow_assignment": true,
           "allow_multiple_boxed": true, "percent": "either"})
}

struct PeerCase {
    input: Value,
    expected: bool,
}

fn peer_cases() -> anyhow::Result<Vec<PeerCase>> {
    include_str!("../../../verifiers/math/tests/data/peer_cases.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let row: Value = serde_json::from_str(line)?;
            Ok(PeerCase {
                input: json!({"response": row["pred"], "reference": row["gold"], "options": strict()}),
                expected: row["expected"].as_bool().unwrap_or(false),
            })
        })
        .collect()
}

fn interval(estimate: &Value) -> (f64, f64) {
    let end = |name: &str| estimate["interval"][name].as_f64().unwrap_or(f64::NAN);
    (end("lower"), end("upper"))
}

/// Waits until every sampled appeal is counted and `observed` verdicts are in the tally.
async fn settled(server: &TestServer, path: &str, observed: u64) -> anyhow::Result<Value> {
    let started = Instant::now();
    loop {
        let (_, list) = server.get("/v1/noise").await?;
        let (_, model) = server.get(path).await?;
        let counts = &model["appeal_counts"];
        let seen =
            counts["observed_positive"].as_u64().unwrap_or(0) + counts["observed_negative"].as_u64().unwrap_or(0);
        if list["appeals_outstanding"] == 0 && seen == observed {
            return Ok(model);
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(60), "appeals did not settle: {model}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

api_on_both_backends!(appeals_of_strict_math_recover_its_false_negative_rate, |backend| async move {
    let cases = peer_cases()?;
    let typed: Vec<MathInput> =
        cases.iter().map(|c| serde_json::from_value(c.input.clone())).collect::<Result<_, _>>()?;
    // The binary verdicts of strict `math` (none for a reference it cannot read).
    let verdicts: Vec<Option<bool>> = MathVerifier::new()
        .verify_batch(&typed, &Budget::unlimited())
        .iter()
        .map(|v| referee_noise::binary_verdict(v.status))
        .collect();
    let judged = verdicts.iter().filter(|v| v.is_some()).count() as u64;
    // The lenient checker cannot read a few references; those appeals stay undecided.
    let patched: Vec<MathInput> = typed
        .iter()
        .map(|input| MathInput { options: serde_json::from_value(lenient()).unwrap_or_default(), ..input.clone() })
        .collect();
    let checker: Vec<Option<bool>> = MathVerifier::new()
        .verify_batch(&patched, &Budget::unlimited())
        .iter()
        .map(|v| referee_noise::binary_verdict(v.status))
        .collect();
    let decidable_negatives =
        verdicts.iter().zip(&checker).filter(|(v, c)| **v == Some(false) && c.is_some()).count() as u64;
    // Its false-negative rate, counted from the labels.
    let truly_right = cases.iter().zip(&verdicts).filter(|(c, v)| c.expected && v.is_some()).count() as f64;
    let missed = cases.iter().zip(&verdicts).filter(|(c, v)| c.expected && **v == Some(false)).count() as f64;
    let rho1 = missed / truly_right;
    assert!(rho1 > 0.1, "strict math should miss right answers, missed {missed}");

    let server = start(backend).await?;
    let items: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| json!({"id": i.to_string(), "verifier": "math", "input": c.input}))
        .collect();

    // Every verdict re-checked: the estimate is the counted rate itself.
    let appeal = |rate: f64| {
        json!({"appeal": {"checker": "math", "input_patch": {"options": lenient()},
                          "rates": {"negatives": rate, "positives": rate}}})
    };
    let (status, model) = server.put("/v1/noise/math", &appeal(1.0)).await?;
    assert_eq!(status, 200, "{model}");
    let (status, _) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200);
    let model = settled(&server, "/v1/noise/math", judged).await?;
    assert_eq!(model["source"], "appeal", "{model}");
    let estimate = &model["model"]["rho1"];
    eprintln!("strict math: counted ρ1 {rho1:.4} ({missed}/{truly_right}); every verdict appealed: {estimate}");
    let (lower, upper) = interval(estimate);
    assert!(lower <= rho1 && rho1 <= upper, "counted ρ1 {rho1} outside the appeal interval {estimate}");
    // Only the undecided appeals separate the estimate from the counted rate.
    assert!((estimate["estimate"].as_f64().unwrap_or(0.0) - rho1).abs() < 0.01, "{estimate} against {rho1}");
    assert!(close(&model["model"]["rho0"]["estimate"], 0.0), "{model}");
    let counts = &model["appeal_counts"];
    assert_eq!(counts["checked_negative"].as_u64(), Some(decidable_negatives), "{counts}");

    let (status, overturns) = server.get("/v1/noise/math/appeals?limit=1000").await?;
    assert_eq!(status, 200);
    let overturns = overturns["overturns"].as_array().cloned().unwrap_or_default();
    // Every verdict the checker decided otherwise is an overturn; a right answer the checker
    // cannot read (or also rejects) stays a verdict 0.
    let disagreements: Vec<usize> = (0..cases.len())
        .filter(|&i| verdicts[i].is_some() && checker[i].is_some() && verdicts[i] != checker[i])
        .collect();
    let unrecovered: Vec<usize> = (0..cases.len())
        .filter(|&i| cases[i].expected && verdicts[i] == Some(false) && checker[i] != Some(true))
        .collect();
    eprintln!("strict math: right answers the lenient checker does not recover: rows {unrecovered:?}");
    assert_eq!(overturns.len(), disagreements.len(), "every disagreement is an overturn");
    assert!(missed - overturns.len() as f64 <= 2.0, "the checker recovers all but a few missed right answers");
    for overturn in &overturns {
        assert_ne!(overturn["verdict"]["status"], "correct");
        assert_eq!(overturn["checker"]["status"], "correct", "{overturn}");
        assert_eq!(overturn["input"]["options"], strict());
        let index: usize = overturn["item_id"].as_str().unwrap_or("x").parse()?;
        assert!(cases[index].expected, "overturned row {index} is labelled wrong");
    }

    // Half of each class re-checked, under a new label: the interval covers the counted rate.
    let (status, _) = server.put("/v1/noise/math?label=sampled", &appeal(0.5)).await?;
    assert_eq!(status, 200);
    let labelled: Vec<Value> = items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            item["label"] = json!("sampled");
            item
        })
        .collect();
    let (status, _) = server.post("/v1/score", &json!({"items": labelled})).await?;
    assert_eq!(status, 200);
    let model = settled(&server, "/v1/noise/math?label=sampled", judged).await?;
    let counts = &model["appeal_counts"];
    let checked = counts["checked_negative"].as_u64().unwrap_or(0) + counts["checked_positive"].as_u64().unwrap_or(0);
    assert!((100..=224).contains(&checked), "about half of 324 verdicts re-checked, got {checked}");
    let estimate = &model["model"]["rho1"];
    eprintln!(
        "strict math: counted ρ1 {rho1:.4} ({missed}/{truly_right}); 50% appeals ({checked} re-checked): {estimate}"
    );
    let (lower, upper) = interval(estimate);
    assert!(lower <= rho1 && rho1 <= upper, "counted ρ1 {rho1} outside the appeal interval {estimate}");
    server.finish().await
});

api_on_both_backends!(group_advantages_use_the_noise_model, |backend| async move {
    let server = start(backend).await?;
    let groups = json!([
        {"id": "p1", "rewards": [1, 0, 0, 1]},
        {"id": "p2", "rewards": [1, 1, 1, 1]},
        {"id": "p3", "rewards": [0.5]},
    ]);
    let (status, body) = server.post("/v1/groups/advantages", &json!({"groups": groups})).await?;
    assert_eq!(status, 200, "{body}");
    let p1 = &body["groups"][0];
    // mean 0.5, sample std sqrt(1/3).
    assert!(close(&p1["advantages"][0], 0.5 / ((1.0f64 / 3.0).sqrt() + 1e-6)), "{p1}");
    assert_eq!(p1["keep"], true);
    assert_eq!(body["groups"][1]["all_agree"], true);
    assert_eq!(body["groups"][1]["keep"], false, "DAPO drops a group whose rollouts agree");
    assert_eq!(body["groups"][2]["keep"], true);
    // verl's GRPO: a group of one has mean 0 and std 1, so its advantage is its reward.
    let lone = &body["groups"][2];
    assert!(close(&lone["advantages"][0], 0.5 / (1.0 + 1e-6)), "{lone}");
    assert_eq!((&lone["mean"], &lone["std"]), (&json!(0.0), &json!(1.0)), "{lone}");
    let (_, body) = server
        .post("/v1/groups/advantages", &json!({"groups": [{"id": "one", "rewards": [1]}], "single_rollout": "zero"}))
        .await?;
    assert_eq!(body["groups"][0]["advantages"], json!([0.0]), "{body}");

    let binary = json!([{"id": "p1", "rewards": [1, 0, 0, 1]}]);
    let corrected = json!({"groups": binary, "reward": "backward", "verifier": "math", "normalisation": "mean_only"});
    let (status, error) = server.post("/v1/groups/advantages", &corrected).await?;
    assert_eq!((status, error["code"].as_str()), (409, Some("no_noise_model")), "{error}");
    server.put("/v1/noise/math", &json!({"configured": {"rho0": 0.05, "rho1": 0.2}})).await?;
    let (status, body) = server.post("/v1/groups/advantages", &corrected).await?;
    assert_eq!(status, 200, "{body}");
    // Mean-only advantages of backward rewards are the raw ones scaled by 1/J.
    assert!(close(&body["groups"][0]["advantages"][0], 0.5 / 0.75), "{body}");
    assert!(close(&body["noise"]["rho1"]["estimate"], 0.2), "{body}");

    let (status, error) = server
        .post(
            "/v1/groups/advantages",
            &json!({"groups": [{"id": "x", "rewards": [1, 0.5]}], "reward": "backward", "verifier": "math"}),
        )
        .await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")), "{error}");
    let (status, error) =
        server.post("/v1/groups/advantages", &json!({"groups": [{"id": "x", "rewards": []}]})).await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")), "{error}");
    let (status, error) = server.post("/v1/groups/advantages", &json!({"groups": [], "reward": "backward"})).await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")), "{error}");
    server.finish().await
});

/// An exact-match item that a case-sensitive comparison judges; the appeal checker compares
/// case-insensitively, so it overturns the verdict 0 of a right answer in the wrong case.
fn cased_item(id: usize, response: &str) -> Value {
    json!({"id": id.to_string(), "verifier": "exact-match",
           "input": {"response": response, "reference": "Paris", "case_fold": false}})
}

/// 20 right, 10 right in the wrong case (false negatives of the case-sensitive comparison) and
/// 30 wrong: ρ0 = 0 and ρ1 = 10 / 30.
fn cased_items() -> Vec<Value> {
    let mut items = Vec::new();
    for (count, response) in [(20, "Paris"), (10, "paris"), (30, "London")] {
        for _ in 0..count {
            items.push(cased_item(items.len(), response));
        }
    }
    items
}

fn negatives_only(overturn: bool) -> Value {
    json!({"appeal": {"checker": "exact-match", "input_patch": {"case_fold": true},
                      "rates": {"negatives": 1.0, "positives": 0.0}, "fixed_rho0": 0.0, "overturn": overturn}})
}

api_on_both_backends!(negatives_only_appeals_estimate_the_false_negative_rate, |backend| async move {
    let server = start(backend).await?;
    // Re-checking no verdict 1 estimates no ρ0: the settings must say what ρ0 is.
    let mut unfixed = negatives_only(false);
    unfixed["appeal"].as_object_mut().map(|a| a.remove("fixed_rho0"));
    let (status, error) = server.put("/v1/noise/exact-match", &unfixed).await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_noise")), "{error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("fixed_rho0")), "{error}");
    let mut out_of_range = negatives_only(false);
    out_of_range["appeal"]["fixed_rho0"] = json!(1.0);
    let (status, _) = server.put("/v1/noise/exact-match", &out_of_range).await?;
    assert_eq!(status, 422);

    let (status, model) = server.put("/v1/noise/exact-match", &negatives_only(false)).await?;
    assert_eq!(status, 200, "{model}");
    let (status, _) = server.post("/v1/score", &json!({"items": cased_items()})).await?;
    assert_eq!(status, 200);
    let model = settled(&server, "/v1/noise/exact-match", 60).await?;
    assert_eq!(model["source"], "appeal", "{model}");
    let counts = &model["appeal_counts"];
    assert_eq!((counts["checked_negative"].as_u64(), counts["overturned_negative"].as_u64()), (Some(40), Some(10)));
    assert_eq!(counts["checked_positive"], 0, "no verdict 1 is re-checked");
    // ρ1 = (1 − π̃)q / (π̃ + (1 − π̃)q) with π̃ = 20/60 and q = 10/40: 10/30.
    let rho1 = &model["model"]["rho1"];
    assert!(close(&rho1["estimate"], 1.0 / 3.0), "{model}");
    let (lower, upper) = interval(rho1);
    assert!(lower < 1.0 / 3.0 && 1.0 / 3.0 < upper, "{rho1}");
    assert_eq!(model["model"]["rho0"]["estimate"], 0.0);
    assert_eq!(model["model"]["rho0"]["method"], "configured", "ρ0 is assumed, not estimated: {model}");
    assert_eq!(model["settings"]["appeal"]["fixed_rho0"], 0.0);
    server.finish().await
});

api_on_both_backends!(overturning_appeals_report_the_checkers_verdict, |backend| async move {
    let server = start(backend).await?;
    let (status, model) = server.put("/v1/noise/exact-match", &negatives_only(true)).await?;
    assert_eq!(status, 200, "{model}");
    let items = json!([cased_item(0, "Paris"), cased_item(1, "paris"), cased_item(2, "London")]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = &body["results"];
    // A verdict 1 is not re-checked (positives 0): no appeal, the raw score.
    assert_eq!(results[0]["score"], 1.0);
    assert_eq!(results[0]["details"].get("reward"), None, "no model yet, no appeal: {body}");
    // The case-sensitive verdict 0 of a right answer is overturned in the response itself.
    let overturned = &results[1];
    assert_eq!(overturned["status"], "incorrect", "the verifier's own status stays: {overturned}");
    assert_eq!(overturned["score"], 1.0, "the checker's verdict is the reward: {overturned}");
    let appeal = &overturned["details"]["reward"]["appeal"];
    assert_eq!(appeal, &json!({"checker": "exact-match", "status": "correct", "overturned": true}), "{overturned}");
    assert_eq!(overturned["details"]["reward"]["raw"], 0.0);
    // A wrong answer is confirmed.
    assert_eq!(results[2]["score"], 0.0);
    assert_eq!(results[2]["details"]["reward"]["appeal"]["overturned"], false, "{body}");

    // The inline appeals are counted like background ones, and the overturn is listed. Their
    // outcomes may be written a flush after the verdicts they re-checked: both are waited for.
    let mut model = settled(&server, "/v1/noise/exact-match", 3).await?;
    let started = Instant::now();
    while model["appeal_counts"]["checked_negative"] != 2 {
        anyhow::ensure!(started.elapsed() < Duration::from_secs(60), "the inline appeals were not counted: {model}");
        tokio::time::sleep(Duration::from_millis(50)).await;
        model = server.get("/v1/noise/exact-match").await?.1;
    }
    assert_eq!(model["appeal_counts"]["overturned_negative"], 1, "{model}");
    let (_, overturns) = server.get("/v1/noise/exact-match/appeals").await?;
    assert_eq!(overturns["overturns"][0]["item_id"], "1", "{overturns}");

    // With a model in use, the appealed item carries its corrections too, and under
    // `correction: backward` a decided appeal still reports the checker's verdict.
    let (_, body) =
        server.post("/v1/score", &json!({"items": [cased_item(3, "paris")], "correction": "backward"})).await?;
    let result = &body["results"][0];
    assert_eq!(result["score"], 1.0, "{result}");
    assert_eq!(result["details"]["reward"]["source"], "appeal", "{result}");
    assert_eq!(result["details"]["reward"]["appeal"]["overturned"], true, "{result}");
    server.finish().await
});

on_both_backends!(count_windows_follow_the_trainers_steps, |backend| async move {
    let server = start(backend).await?;
    // An audit per step: 10 items truly 0 (all failed) and 10 truly 1, of which `missed` failed.
    let labels = |missed: usize| {
        let mut labels = vec![json!({"verdict": false, "gold": false}); 10];
        labels.extend(vec![json!({"verdict": false, "gold": true}); missed]);
        labels.extend(vec![json!({"verdict": true, "gold": true}); 10 - missed]);
        json!({"labels": labels})
    };
    let rho1 = |model: &Value| model["model"]["rho1"]["estimate"].as_f64().unwrap_or(f64::NAN);
    let (status, model) = server.post("/v1/noise/math/audits", &labels(2)).await?;
    assert_eq!(status, 200, "{model}");
    assert_eq!(model["step"], 0);
    let (status, model) = server.put("/v1/noise/math/step", &json!({"step": 1})).await?;
    assert_eq!((status, &model["step"]), (200, &json!(1)), "{model}");
    let (_, model) = server.post("/v1/noise/math/audits", &labels(5)).await?;
    assert!((rho1(&model) - 7.0 / 20.0).abs() < 1e-12, "every count without a window: {model}");

    let (status, model) = server.put("/v1/noise/math", &json!({"window": {"kind": "sliding", "steps": 1}})).await?;
    assert_eq!(status, 200, "{model}");
    assert!((rho1(&model) - 0.5).abs() < 1e-12, "only step 1: {model}");
    assert_eq!(model["audit_counts"]["checked_negative"], 15);
    // Half-life 1 step: step 0's 2 misses and 8 passes weigh 1 and 4; ρ1 = 6 / 15.
    let decay = json!({"window": {"kind": "decay", "half_life_steps": 1}, "audit_interval": "clopper_pearson"});
    let (status, model) = server.put("/v1/noise/math", &decay).await?;
    assert_eq!(status, 200, "{model}");
    assert!((rho1(&model) - 0.4).abs() < 1e-12, "{model}");
    assert_eq!(model["model"]["rho1"]["method"], "clopper_pearson");
    // Steps only move forward: a retried or late call changes nothing.
    let (_, model) = server.put("/v1/noise/math/step", &json!({"step": 0})).await?;
    assert_eq!(model["step"], 1);
    let (_, model) = server.put("/v1/noise/math/step", &json!({"step": 3})).await?;
    // Step 0 now weighs 1/8 and step 1 weighs 1/4: misses 0.25 + 1.25 = 1.5 round to 2, passes
    // 1 + 1.25 = 2.25 to 2, so ρ1 = 2 / 4.
    assert_eq!(model["step"], 3);
    assert!((rho1(&model) - 0.5).abs() < 1e-12, "{model}");

    for bad in [
        json!({"window": {"kind": "sliding", "steps": 0}}),
        json!({"window": {"kind": "decay", "half_life_steps": -1}}),
    ] {
        let (status, error) = server.put("/v1/noise/math", &bad).await?;
        assert_eq!((status, error["code"].as_str()), (422, Some("invalid_noise")), "{bad}: {error}");
    }
    let (status, error) = server.put("/v1/noise/math/step", &json!({"step": -1})).await?;
    assert_eq!((status, error["code"].as_str()), (422, Some("invalid_body")), "{error}");
    server.finish().await
});
