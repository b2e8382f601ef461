use referee_core::{BusyStatus, RewardModel};

use crate::CodeVerifier;

#[test]
fn admissions_reserve_item_permits_until_dropped() {
    let verifier = CodeVerifier::with_capacity(10, 3);
    let first = verifier.admit(6).unwrap_or_else(|busy| panic!("{busy}"));
    assert_eq!(verifier.available(), 4);
    let refused = verifier.admit(5).err().unwrap_or_else(|| panic!("5 items do not fit in 4 permits"));
    assert_eq!(refused.status, BusyStatus::TooManyRequests);
    assert_eq!(refused.retry_after_secs, 3);
    assert_eq!(verifier.available(), 4, "a refusal reserves nothing");
    let second = verifier.admit(4).unwrap_or_else(|busy| panic!("{busy}"));
    assert_eq!(verifier.available(), 0);
    drop(first);
    assert_eq!(verifier.available(), 6);
    drop(second);
    assert_eq!(verifier.available(), 10);
}

#[test]
fn a_batch_larger_than_the_capacity_waits_for_an_empty_queue() {
    let verifier = CodeVerifier::with_capacity(4, 1);
    let one = verifier.admit(1).unwrap_or_else(|busy| panic!("{busy}"));
    assert!(verifier.admit(100).is_err());
    drop(one);
    let all = verifier.admit(100).unwrap_or_else(|busy| panic!("{busy}"));
    assert_eq!(verifier.available(), 0);
    drop(all);
    assert_eq!(verifier.available(), 4);
    assert!(verifier.admit(0).is_ok_and(|a| !a.reserves()));
}

mod sandbox_failures {
    use std::sync::Arc;

    use referee_core::Status;
    use referee_sandbox::{Lack, SandboxError};
    use serde_json::Value;

    use crate::judge::{TestReport, TestVerdict, sandbox_failure};

    fn verdicts(details: &serde_json::Map<String, Value>) -> Vec<String> {
        details["tests"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| t["verdict"].as_str().unwrap_or("?").to_owned())
            .collect()
    }

    #[test]
    fn a_failing_run_is_that_tests_sandbox_error_and_the_items_internal_error() {
        let error = SandboxError::Instantiate { source: Arc::new(std::io::Error::other("out of slots")) };
        let before = vec![TestReport::bare(TestVerdict::Passed)];
        let verdict = sandbox_failure(&error, before, 4, false);
        assert_eq!(verdict.status, Status::InternalError);
        assert_eq!(verdict.score, 0.0);
        assert_eq!(verdicts(&verdict.details), ["passed", "sandbox_error", "skipped", "skipped"]);
        let message = verdict.details["tests"][1]["message"].as_str().unwrap_or("");
        assert!(message.contains("out of slots"), "{message}");
    }

    #[test]
    fn a_runtime_that_does_not_load_fails_every_test() {
        let error = SandboxError::Compile {
            path: "/runtimes/python.wasm".into(),
            source: Arc::new(std::io::Error::other("bad magic")),
        };
        let verdict = sandbox_failure(&error, Vec::new(), 3, true);
        assert_eq!(verdict.status, Status::InternalError);
        assert_eq!(verdicts(&verdict.details), ["sandbox_error"; 3]);
        // The message names what failed and why, cause included.
        let message = verdict.details["tests"][0]["message"].as_str().unwrap_or("");
        assert_eq!(message, "cannot set up the sandbox: cannot compile /runtimes/python.wasm: bad magic");
    }

    #[test]
    fn an_unavailable_language_is_invalid_input_with_the_reason_and_fix() {
        let error = SandboxError::Unavailable {
            runtime: "c",
            lack: Lack::Toolchain { language: "c", diagnostics: "clang is not installed".into() },
        };
        let verdict = crate::judge::unavailable(referee_sandbox::GuestLanguage::C, &error);
        assert_eq!((verdict.status, verdict.score), (Status::InvalidInput, 0.0));
        assert!(!verdict.status.is_judgement(), "a trainer masks it");
        let error_text = verdict.details["error"].as_str().unwrap_or("");
        assert!(error_text.contains("c programs cannot run") && error_text.contains("clang is not installed"));
        assert_eq!(verdict.details["unavailable"]["language"], "c");
        let fix = verdict.details["unavailable"]["fix"].as_str().unwrap_or("");
        assert!(fix.contains("install Debian's clang"), "{fix}");
    }
}
