//! Failures of the sandbox itself are `sandbox_error` tests in an `internal_error` item, never a
//! wrong answer: a runtime artefact that cannot be loaded, and a special judge that crashes.

use referee_code::{CodeInput, CodeVerifier};
use referee_core::{Budget, RewardModel as _, Status, Verdict};
use referee_sandbox::{Sandbox, SandboxConfig};
use serde_json::{Value, json};

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
    let sandbox: &'static Sandbox = Box::leak(Box::new(sandbox));
    let verifier = CodeVerifier::new().in_sandbox(sandbox);
    let verdicts_of = verifier.score_batch(vec![sum_item(json!({}))?], Budget::unlimited()).await;
    let verdict = &verdicts_of[0];
    assert_eq!(verdict.status, Status::InternalError, "{verdict:?}");
    assert_eq!(verdict.score, 0.0);
    assert_eq!(verdicts(verdict), ["sandbox_error"; 3], "{verdict:?}");
    let message = verdict.details["tests"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("python.wasm"), "{message}");
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
    let verdicts_of = CodeVerifier::new().score_batch(vec![sum_item(options)?], Budget::unlimited()).await;
    let verdict = &verdicts_of[0];
    assert_eq!(verdict.status, Status::InternalError, "{verdict:?}");
    assert_eq!(verdicts(verdict), ["passed", "sandbox_error", "skipped"], "{verdict:?}");
    let message = verdict.details["tests"][1]["message"].as_str().unwrap_or("");
    assert!(message.contains("KeyError"), "{message}");
    Ok(())
}
