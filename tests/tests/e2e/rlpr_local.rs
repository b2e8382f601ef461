//! `rlpr` served by a local checkpoint: a seeded random Qwen2-shaped model with Qwen2.5's real
//! tokenizer (`scripts/rlpr-fixture.py`; `referee-rlpr`'s own tests check this runner against
//! PyTorch and transformers). Over real HTTP: `/prepare` gives the token ids and positions the
//! runner scores; model mode (one phase) and supplied mode fed the runner's log-probs at those
//! positions (two phases) give the same reward; `/reload` swaps in another checkpoint, and
//! scores follow it.
//!
//! Needs a Python with `scripts/requirements-test.txt` (`REFEREE_PYTHON`, or `.venv/bin/python`):
//! the fixture script uses numpy, safetensors and transformers' tokenizer converter, no PyTorch.

use std::path::{Path, PathBuf};
use std::process::Command;

use referee_rlpr::{LocalModel, TokenSequence};
use referee_server::config::RlprSource;
use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Writes a seeded fixture model to `dir` (the same bytes every time for the same seed).
fn fixture(dir: &Path, seed: &str) -> anyhow::Result<()> {
    let python =
        std::env::var_os("REFEREE_PYTHON").map(PathBuf::from).unwrap_or_else(|| root().join(".venv/bin/python"));
    anyhow::ensure!(python.exists(), "no Python at {}: set REFEREE_PYTHON or run scripts/test", python.display());
    let output = Command::new(&python)
        .arg(root().join("scripts/rlpr-fixture.py"))
        .arg(dir)
        .args(["--arch", "qwen2", "--seed", seed])
        .output()?;
    anyhow::ensure!(output.status.success(), "rlpr-fixture.py failed:\n{}", String::from_utf8_lossy(&output.stderr));
    Ok(())
}

const RESPONSE: &str = "<think>6 × 7 is 42, and 42 apples is the count.</think> So <answer>41 apples</answer>";

fn item(extra: Value) -> Value {
    let mut input = json!({
        "messages": [{"role": "user", "content": "What is 6 × 7, in apples?"}],
        "response": RESPONSE,
        "reference": "42 apples",
    });
    if let (Some(input), Some(extra)) = (input.as_object_mut(), extra.as_object()) {
        input.extend(extra.clone());
    }
    json!({"verifier": "rlpr", "input": input})
}

/// The item of [`item`] as `/prepare` takes it.
fn prepare_item_again() -> Value {
    let input = &item(json!({}))["input"];
    json!({"messages": input["messages"], "response": input["response"], "reference": input["reference"]})
}

fn sequence(value: &Value) -> TokenSequence {
    let numbers = |key: &str| -> Vec<u32> {
        value[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
            .filter_map(|n| u32::try_from(n).ok())
            .collect()
    };
    TokenSequence { ids: numbers("ids"), positions: numbers("positions") }
}

#[tokio::test]
async fn a_local_model_prepares_scores_and_reloads() -> anyhow::Result<()> {
    let base = tempfile::tempdir()?;
    let (first, second) = (base.path().join("seed-7"), base.path().join("seed-8"));
    fixture(&first, "7")?;
    fixture(&second, "8")?;
    let dir = first.clone();
    let server = TestServer::start_with(Backend::Sqlite, move |config| {
        config.rlpr.source = RlprSource::Local;
        config.rlpr.model_dir = Some(dir);
    })
    .await?;

    // Phase one: the ids and positions, as the runner itself prepares them.
    let prepare_item = prepare_item_again();
    let unstructured = json!({"prompt": "p", "response": "no tags at all", "reference": "42"});
    let both = json!({"prompt": "p", "messages": [], "response": RESPONSE, "reference": "42"});
    let (status, prepared) =
        server.post("/v1/reward-models/rlpr/prepare", &json!({"items": [prepare_item, unstructured, both]})).await?;
    assert_eq!(status, 200, "{prepared}");
    let items = prepared["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["status"], "ok", "{prepared}");
    assert_eq!(items[1]["status"], "unparseable");
    assert_eq!(items[2]["status"], "invalid_input");
    let (scored, baseline) = (sequence(&items[0]["sequence"]), sequence(&items[0]["baseline"]));
    assert!(!scored.positions.is_empty() && !baseline.positions.is_empty(), "{prepared}");
    assert!(scored.ids.len() > baseline.ids.len(), "the baseline has no reasoning");

    // Phase two, as a trainer would run it: the log-probs at those positions, here from the
    // same checkpoint loaded in this process.
    let model = LocalModel::load(&first)?;
    let logprobs = model.logprobs(&[scored, baseline])?;
    let (status, two_phase) = server
        .post(
            "/v1/score",
            &json!({"items": [{"verifier": "rlpr", "input": {
                "response": RESPONSE, "logprobs": logprobs[0], "baseline_logprobs": logprobs[1]}}]}),
        )
        .await?;
    assert_eq!(status, 200, "{two_phase}");
    let (status, one_phase) = server.post("/v1/score", &json!({"items": [item(json!({}))]})).await?;
    assert_eq!(status, 200, "{one_phase}");
    let (one, two) = (&one_phase["results"][0], &two_phase["results"][0]);
    assert_eq!(one["status"], "partial", "{one}");
    for key in ["score_b", "score_a", "reward"] {
        let (a, b) = (one["details"]["rlpr"][key].as_f64(), two["details"]["rlpr"][key].as_f64());
        assert!(matches!((a, b), (Some(a), Some(b)) if (a - b).abs() < 1e-6), "{key}: {one} vs {two}");
    }

    // Reloading swaps the checkpoint: the same item now scores under the other weights.
    let (status, reloaded) =
        server.post("/v1/reward-models/rlpr/reload", &json!({"model_dir": second.to_string_lossy()})).await?;
    assert_eq!(status, 200, "{reloaded}");
    let (status, after) =
        server.post("/v1/score", &json!({"items": [item(json!({"options": {"debias": false}}))]})).await?;
    assert_eq!(status, 200);
    let (status, prepared) =
        server.post("/v1/reward-models/rlpr/prepare", &json!({"items": [prepare_item_again()]})).await?;
    assert_eq!(status, 200, "{prepared}");
    let scored = sequence(&prepared["items"][0]["sequence"]);
    let logprobs = LocalModel::load(&second)?.logprobs(&[scored])?;
    let (status, supplied) = server
        .post(
            "/v1/score",
            &json!({"items": [{"verifier": "rlpr", "input": {
                "response": RESPONSE, "logprobs": logprobs[0], "options": {"debias": false}}}]}),
        )
        .await?;
    assert_eq!(status, 200, "{supplied}");
    let score_b = after["results"][0]["details"]["rlpr"]["score_b"].as_f64();
    assert_eq!(score_b, supplied["results"][0]["details"]["rlpr"]["score_b"].as_f64(), "{after} vs {supplied}");
    assert_ne!(score_b, one["details"]["rlpr"]["score_b"].as_f64(), "the reload changed nothing: {after} vs {one}");
    server.finish().await
}

#[tokio::test]
async fn preparing_needs_a_local_model() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let body = json!({"items": [{"prompt": "p", "response": RESPONSE, "reference": "42"}]});
    let (status, error) = server.post("/v1/reward-models/rlpr/prepare", &body).await?;
    assert_eq!(status, 409, "{error}");
    assert_eq!(error["code"], "not_tokenizing");
    let (status, error) = server.post("/v1/reward-models/rlpr/reload", &json!({})).await?;
    assert_eq!(status, 409, "{error}");
    server.finish().await
}

/// `rlpr.temperature` makes the local model score `log_softmax(logits / T)`, as RLPR's Llama and
/// Gemma scripts do at 0.6, and a reload keeps it.
#[tokio::test]
async fn the_local_model_scores_at_the_configured_temperature() -> anyhow::Result<()> {
    let base = tempfile::tempdir()?;
    let dir = base.path().join("seed-7");
    fixture(&dir, "7")?;
    let configured = dir.clone();
    let server = TestServer::start_with(Backend::Sqlite, move |config| {
        config.rlpr.source = RlprSource::Local;
        config.rlpr.model_dir = Some(configured);
        config.rlpr.temperature = 0.6;
    })
    .await?;
    let (status, prepared) =
        server.post("/v1/reward-models/rlpr/prepare", &json!({"items": [prepare_item_again()]})).await?;
    assert_eq!(status, 200, "{prepared}");
    let sequences = [sequence(&prepared["items"][0]["sequence"]), sequence(&prepared["items"][0]["baseline"])];
    let cold = LocalModel::load(&dir)?.with_temperature(0.6)?.logprobs(&sequences)?;
    let warm = LocalModel::load(&dir)?.logprobs(&sequences)?;
    let supplied = |logprobs: &[Vec<f32>]| {
        json!({"items": [{"verifier": "rlpr", "input": {
            "response": RESPONSE, "logprobs": logprobs[0], "baseline_logprobs": logprobs[1]}}]})
    };
    let (_, at_cold) = server.post("/v1/score", &supplied(&cold)).await?;
    let (_, at_warm) = server.post("/v1/score", &supplied(&warm)).await?;
    let rlpr = |body: &Value, key: &str| body["results"][0]["details"]["rlpr"][key].as_f64();
    assert_ne!(rlpr(&at_cold, "score_b"), rlpr(&at_warm, "score_b"), "the temperature changes the score");

    for round in ["as loaded", "after a reload"] {
        let (status, served) = server.post("/v1/score", &json!({"items": [item(json!({}))]})).await?;
        assert_eq!(status, 200, "{served}");
        for key in ["score_b", "score_a", "reward"] {
            let (a, b) = (rlpr(&served, key), rlpr(&at_cold, key));
            assert!(
                matches!((a, b), (Some(a), Some(b)) if (a - b).abs() < 1e-6),
                "{round}, {key}: {served} vs {at_cold}"
            );
        }
        let (status, reloaded) = server.post("/v1/reward-models/rlpr/reload", &json!({})).await?;
        assert_eq!(status, 200, "{reloaded}");
    }
    server.finish().await
}
