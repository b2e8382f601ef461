//! Failures of the sandbox itself are `sandbox_error` tests in an `internal_error` item, never a
//! wrong answer: a runtime artefact that cannot be loaded, and a special judge that crashes. A
//! runtime the host lacks makes the item `invalid_input` with the reason, until it is built.

use std::sync::Arc;

use referee_code::{CodeInput, CodeVerifier};
use referee_core::{Budget, RewardModel as _, Status, Verdict};
use referee_sandbox::{Sandbox, SandboxConfig};
use serde_json::{Value, json};

use super::common;

fn verdicts(verdict: &Verdict) -> Vec<String> {
    verdict.details["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| t["verdict"].as_str().unwrap_or("?").to_owned())
        .collect()
}

fn sum_item(options: Value) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": "python",
        "program": "a, b = map(int, input().split())\nprint(a + b)",
        "tests": [
            {"stdin": "1 2\n", "expected_stdout": "3\n"},
            {"stdin": "2 2\n", "expected_stdout": "4\n"},
            {"stdin": "5 5\n", "expected_stdout": "10\n"},
        ],
        "options": options,
    }))?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runtime_that_cannot_be_loaded_is_a_sandbox_error() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    // Not WebAssembly: the engine cannot compile it into an artefact.
    std::fs::write(dir.path().join("python.wasm"), b"this is not a component")?;
    let sandbox =
        Sandbox::new(SandboxConfig { runtimes_dir: dir.path().to_owned(), workers: 1, ..SandboxConfig::default() })?;
    let verifier = CodeVerifier::new().in_sandbox(Arc::new(sandbox));
    let verdicts_of = verifier.score_batch(vec![sum_item(json!({}))?], Budget::unlimited()).await;
    let verdict = &verdicts_of[0];
    assert_eq!(verdict.status, Status::InternalError, "{verdict:?}");
    assert_eq!(verdict.score, 0.0);
    assert_eq!(verdicts(verdict), ["sandbox_error"; 3], "{verdict:?}");
    let message = verdict.details["tests"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("cannot compile") && message.contains("python.wasm"), "{message}");
    // The message goes on past what failed to wasmtime's own cause.
    let compile = format!("cannot compile {}: ", dir.path().join("python.wasm").display());
    assert!(message.split_once(&compile).is_some_and(|(_, cause)| !cause.is_empty()), "{message}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashing_special_judge_is_a_sandbox_error() -> anyhow::Result<()> {
    let options = json!({
        "checker": "program",
        // Passes the first output, then fails itself: an exception in the judge, not a verdict.
        "checker_program": "import json, sys\nd = json.load(sys.stdin)\nif d['output'] == '3\\n':\n    sys.exit(0)\nraise KeyError('judge bug')\n",
        "scoring": "fraction",
    });
    let verdicts_of = common::verifier()?.score_batch(vec![sum_item(options)?], Budget::unlimited()).await;
    let verdict = &verdicts_of[0];
    assert_eq!(verdict.status, Status::InternalError, "{verdict:?}");
    assert_eq!(verdicts(verdict), ["passed", "sandbox_error", "skipped"], "{verdict:?}");
    let message = verdict.details["tests"][1]["message"].as_str().unwrap_or("");
    assert!(message.contains("KeyError"), "{message}");
    Ok(())
}

fn c_sum_item() -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": "c",
        "program": "#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + b); }",
        "tests": [{"stdin": "1 2\n", "expected_stdout": "3\n"}],
    }))?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_runtime_is_invalid_input_until_it_is_built_and_then_scores() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let sandbox = Sandbox::new(SandboxConfig {
        runtimes_dir: dir.path().to_owned(),
        runtimes_search: Vec::new(),
        // Every use after a failure tries the set-up again.
        setup_backoff: std::time::Duration::ZERO,
        workers: 1,
        ..SandboxConfig::default()
    })?;
    let verifier = CodeVerifier::new().in_sandbox(Arc::new(sandbox));
    let before = verifier.score_batch(vec![sum_item(json!({}))?, c_sum_item()?], Budget::unlimited()).await;
    assert_eq!(before[0].status, Status::InvalidInput, "{:?}", before[0]);
    assert_eq!(before[0].details["unavailable"]["language"], "python");
    let reason = before[0].details["unavailable"]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("python.wasm") && reason.contains(&dir.path().display().to_string()), "{reason}");
    // A C program needs no Python runtime.
    assert_eq!(before[1].status, Status::Correct, "{:?}", before[1]);
    let reported = verifier.availability();
    assert!(
        matches!(&reported[0].availability, referee_code::Availability::Unavailable { reason, .. } if reason.contains("python.wasm")),
        "{reported:?}"
    );
    assert_eq!(reported[1].availability, referee_code::Availability::Available, "{reported:?}");

    // The runtime is built while the process runs: the next item scores, no restart.
    std::fs::copy(common::runtimes_dir().join("python.wasm"), dir.path().join("python.wasm"))?;
    let after = verifier.score_batch(vec![sum_item(json!({}))?], Budget::unlimited()).await;
    assert_eq!(after[0].status, Status::Correct, "{:?}", after[0]);
    assert_eq!(verifier.availability()[0].availability, referee_code::Availability::Available);
    Ok(())
}
