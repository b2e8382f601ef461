//! `code-tests` on hand-computed cases: every suite format, Python and C, valid and invalid
//! suites, malformed tests, and hostile suites and solutions.

use referee_code::CodeTestsInput;
use referee_core::{Budget, RewardModel as _, Status, Verdict};
use serde_json::{Value, json};

use super::common;

const ADD: &str = "def add(a, b):\n    return a + b\n";
const ADD_MINUS: &str = "def add(a, b):\n    return a - b\n";
const ADD_ABS: &str = "def add(a, b):\n    return abs(a) + b\n";
const ADD_LOOP: &str = "def add(a, b):\n    while a < 0:\n        pass\n    return a + b\n";
const ADD_EXIT: &str = "import sys\nsys.exit(0)\ndef add(a, b):\n    return 0\n";

/// Reads two integers, prints their sum.
const SUM_PY: &str = "a, b = map(int, input().split())\nprint(a + b)\n";
const SUM_PY_ONE_DIGIT: &str = "a, b = map(int, input().split())\nprint((a + b) % 10)\n";
const SUM_PY_CRASH_NEGATIVE: &str = "a, b = map(int, input().split())\nassert a >= 0\nprint(a + b)\n";
const SUM_C: &str = "#include <stdio.h>\nint main(void) { long long a, b; scanf(\"%lld %lld\", &a, &b); printf(\"%lld\\n\", a + b); return 0; }\n";
const SUM_C_INT: &str =
    "#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + b); return 0; }\n";

fn fenced(suite: &str) -> String {
    format!("Here are my tests.\n```python\n{suite}\n```\n")
}

fn item(value: Value) -> CodeTestsInput {
    serde_json::from_value(value).unwrap_or_else(|e| panic!("a test item does not parse: {e}"))
}

async fn score(items: Vec<CodeTestsInput>) -> anyhow::Result<Vec<Verdict>> {
    Ok(common::verifier()?.tests_verifier().score_batch(items, Budget::unlimited()).await)
}

fn asserts(suite: &str, wrong: &[&str]) -> CodeTestsInput {
    item(json!({
        "language": "python", "format": "asserts", "response": fenced(suite),
        "correct_solutions": [ADD], "wrong_solutions": wrong,
    }))
}

fn row(verdict: &Verdict, kind: &str, index: usize) -> Vec<String> {
    verdict.details["matrix"][kind][index]
        .as_array()
        .map(|cells| cells.iter().map(|c| c.as_str().unwrap_or("?").to_owned()).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assert_suites_score_their_detection_rate() -> anyhow::Result<()> {
    let wrong = [ADD_MINUS, ADD_ABS];
    let verdicts = score(vec![
        // Detects both wrong solutions: 2 / 2.
        asserts("assert add(2, 3) == 5\nassert add(-1, 1) == 0", &wrong),
        // Detects only `a - b` (abs(2) + 3 == 5): 1 / 2.
        asserts("assert add(2, 3) == 5", &wrong),
        // Fails the correct solution at its second test: invalid, 0.
        asserts("assert add(2, 3) == 5\nassert add(1, 1) == 3\nassert add(-1, 1) == 0", &wrong),
        // HumanEval's shape: a checker function and its call are one test; setup runs first.
        asserts(
            "import math\nPAIRS = [(2, 3), (-4, 1)]\ndef check(candidate):\n    for a, b in PAIRS:\n        assert candidate(a, b) == a + b\ncheck(add)",
            &wrong,
        ),
    ])
    .await?;
    let scores: Vec<f64> = verdicts.iter().map(|v| v.score).collect();
    assert_eq!(scores, [1.0, 0.5, 0.0, 1.0], "{verdicts:#?}");
    assert_eq!(verdicts[0].status, Status::Correct);
    assert_eq!(verdicts[1].status, Status::Partial);
    assert_eq!(verdicts[1].details["detected"], 1);
    assert_eq!(verdicts[1].details["wrong"], 2);
    assert_eq!(verdicts[1].details["detection_rate"], 0.5);
    assert_eq!(verdicts[1].details["verifier_accuracy"], 0);
    assert_eq!(row(&verdicts[0], "wrong", 0), ["wrong_answer", "skipped"]);
    assert_eq!(row(&verdicts[0], "wrong", 1), ["passed", "wrong_answer"]);

    let invalid = &verdicts[2];
    assert_eq!((invalid.status, invalid.details["valid"].clone()), (Status::Incorrect, json!(false)));
    assert_eq!(invalid.details["invalid"]["solution"], 0);
    assert_eq!(invalid.details["invalid"]["test"], 1, "{:?}", invalid.details);
    assert_eq!(invalid.details["invalid"]["verdict"], "wrong_answer");
    assert!(invalid.details["invalid"]["message"].as_str().unwrap_or("").contains("AssertionError"));
    assert_eq!(row(invalid, "correct", 0), ["passed", "wrong_answer", "skipped"]);
    assert_eq!(invalid.details["matrix"]["wrong"], json!([]), "the wrong solutions of an invalid suite are not run");

    assert_eq!(verdicts[3].details["tests"], 1);
    assert_eq!(verdicts[3].details["suite"][0]["source"], "check(add)");
    assert_eq!(verdicts[3].details["suite"][0]["line"], 6);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verifier_accuracy_and_the_full_matrix() -> anyhow::Result<()> {
    let suite = "assert add(2, 3) == 5\nassert add(-1, 1) == 0";
    let mut base = json!({
        "language": "python", "format": "asserts", "response": fenced(suite),
        "correct_solutions": [ADD, "def add(a, b):\n    return b + a\n"],
        "wrong_solutions": [ADD_MINUS, ADD_ABS],
        "reward": "verifier_accuracy",
    });
    let all = item(base.clone());
    base["response"] = json!(fenced("assert add(2, 3) == 5"));
    let some = item(base.clone());
    base["full_matrix"] = json!(true);
    let full = item(base.clone());
    base["wrong_solutions"] = json!([]);
    let none = item(base);
    let verdicts = score(vec![all, some, full, none]).await?;
    assert_eq!(verdicts.iter().map(|v| v.score).collect::<Vec<_>>(), [1.0, 0.0, 0.0, 1.0], "{verdicts:#?}");
    assert_eq!(verdicts[1].details["detection_rate"], 0.5);
    assert_eq!(row(&verdicts[2], "correct", 1), ["passed"]);
    assert_eq!(row(&verdicts[2], "wrong", 0), ["wrong_answer"]);
    assert_eq!(row(&verdicts[2], "wrong", 1), ["passed"]);
    assert_eq!(verdicts[3].details["detection_rate"], Value::Null, "no wrong solutions: validity alone");
    assert_eq!(verdicts[3].status, Status::Correct);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdin_suites_in_every_format() -> anyhow::Result<()> {
    let io = json!([
        {"input": "2 3\n", "output": "5\n"},
        {"input": "7 8", "output": "15", "why": "a carry"},
    ]);
    let stdio = |format: &str, suite: String, language: &str, correct: &[&str], wrong: &[&str]| {
        item(json!({
            "language": language, "format": format, "response": format!("```\n{suite}\n```"),
            "correct_solutions": correct, "wrong_solutions": wrong,
        }))
    };
    let py_wrong = [SUM_PY_ONE_DIGIT, SUM_PY_CRASH_NEGATIVE];
    let verdicts = score(vec![
        // io: the carry detects the one-digit sum; nothing is negative: 1 / 2.
        stdio("io", io.to_string(), "python", &[SUM_PY], &py_wrong),
        // inputs: outputs from the reference; a negative input detects the crash too: 2 / 2.
        stdio("inputs", json!(["7 8\n", "-1 2\n"]).to_string(), "python", &[SUM_PY], &py_wrong),
        // generator: prints the inputs.
        stdio(
            "generator",
            "import json\nprint(json.dumps([f'{a} {b}' for a, b in [(1, 2), (9, 9), (-3, 1)]]))".into(),
            "python",
            &[SUM_PY],
            &py_wrong,
        ),
        // C: 32-bit overflow is detected by a large input only.
        stdio("io", json!([{"input": "1 2", "output": "3"}]).to_string(), "c", &[SUM_C], &[SUM_C_INT]),
        stdio(
            "inputs",
            json!(["1 2", "2000000000 2000000000"]).to_string(),
            "c",
            &[SUM_C],
            &[SUM_C_INT, "int main(void) { return missing; }"],
        ),
    ])
    .await?;
    let scores: Vec<f64> = verdicts.iter().map(|v| v.score).collect();
    assert_eq!(scores, [0.5, 1.0, 1.0, 0.0, 1.0], "{verdicts:#?}");
    assert_eq!(verdicts[0].details["suite"][1]["input"], "7 8");
    assert_eq!(row(&verdicts[2], "wrong", 1), ["passed", "passed", "runtime_error"]);
    assert_eq!(verdicts[3].details["valid"], true);
    assert_eq!(row(&verdicts[4], "wrong", 1), ["compile_error", "skipped"]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_suites_and_tests_get_clear_verdicts() -> anyhow::Result<()> {
    let python = |format: &str, response: String| {
        item(json!({
            "language": "python", "format": format, "response": response,
            "correct_solutions": [SUM_PY], "wrong_solutions": [SUM_PY_ONE_DIGIT],
        }))
    };
    let verdicts = score(vec![
        python("io", "no code at all".into()),
        python("io", "```\n{\"input\": \"1 2\"}\n```".into()),
        python("io", "```\n[{\"input\": \"1 2\", \"output\": \"3\"}, {\"input\": \"1\"}, 5]\n```".into()),
        python("inputs", "```\n[\"1 2\", \"x y\"]\n```".into()),
        python("generator", "```\nraise ValueError('no inputs')\n```".into()),
        python("asserts", fenced("assert add(1, 2) == 3 +")),
        python("asserts", fenced("x = 1")),
        python("io", "```\n[]\n```".into()),
        item(json!({
            "language": "python", "format": "io", "response": format!("```\n{}\n```", json!(vec![json!({"input": "1 1", "output": "2"}); 101])),
            "correct_solutions": [SUM_PY],
        })),
    ])
    .await?;
    let statuses: Vec<Status> = verdicts.iter().map(|v| v.status).collect();
    use Status::{Incorrect, Unparseable};
    assert_eq!(
        statuses,
        [
            Unparseable,
            Unparseable,
            Incorrect,
            Incorrect,
            Unparseable,
            Unparseable,
            Unparseable,
            Unparseable,
            Unparseable
        ],
        "{verdicts:#?}"
    );
    assert!(verdicts.iter().all(|v| v.score == 0.0));
    let reason = |i: usize| verdicts[i].details["error"].as_str().unwrap_or_default().to_owned();
    assert!(reason(1).contains("not a JSON object"), "{}", reason(1));
    let malformed = &verdicts[2].details["invalid"]["malformed"];
    assert_eq!(malformed.as_array().map(Vec::len), Some(2), "{malformed}");
    assert_eq!((malformed[0]["test"].clone(), malformed[1]["test"].clone()), (json!(1), json!(2)));
    let reference = verdicts[3].details["invalid"]["malformed"][0]["message"].as_str().unwrap_or("").to_owned();
    assert!(reference.contains("correct_solutions[0]") && reference.contains("runtime_error"), "{reference}");
    assert!(reason(4).contains("generator") && reason(4).contains("ValueError"), "{}", reason(4));
    assert!(reason(5).contains("not valid Python"), "{}", reason(5));
    assert!(reason(6).contains("no tests"), "{}", reason(6));
    assert!(reason(8).contains("more than `options.max_tests` (100)"), "{}", reason(8));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_tests_and_solutions_cannot_inflate_the_score() -> anyhow::Result<()> {
    let verdicts = score(vec![
        // A wrong solution that loops on negative input: detected by `time_limit`, within fuel.
        item(json!({
            "language": "python", "format": "asserts", "response": fenced("assert add(-1, 1) == 0"),
            "correct_solutions": [ADD], "wrong_solutions": [ADD_LOOP],
            "options": {"fuel": 200_000_000},
        })),
        // A wrong solution that exits at import never reaches the test: detected, not passed.
        asserts("assert add(2, 3) == 5", &[ADD_EXIT]),
        // A test that exits before asserting passes nothing: the correct solution fails it.
        asserts("import sys\nassert sys.exit(0) or add(2, 3) == 5", &[ADD_MINUS]),
        // A test that reports success itself and then fails still fails.
        asserts("__referee_report__ = 'passed'\nassert add(1, 1) == 3", &[]),
        // A memory bomb in a test is the correct solution's failure: invalid.
        asserts("assert len(bytearray(1 << 30)) > 0", &[ADD_MINUS]),
        // Items that are not the model's fault are invalid input.
        item(json!({"language": "c", "format": "asserts", "response": fenced("assert 1"), "correct_solutions": [SUM_C]})),
        item(json!({"language": "c", "format": "io", "response": "```\n[]\n```", "correct_solutions": ["int main() { return x; }"]})),
        item(json!({"language": "python", "response": "```\n[]\n```", "correct_solutions": []})),
    ])
    .await?;
    assert_eq!(verdicts[0].score, 1.0, "{:?}", verdicts[0]);
    assert_eq!(row(&verdicts[0], "wrong", 0), ["time_limit"]);
    assert_eq!(verdicts[1].score, 1.0, "{:?}", verdicts[1]);
    assert_eq!(row(&verdicts[1], "wrong", 0), ["runtime_error"]);
    assert_eq!((verdicts[2].score, row(&verdicts[2], "correct", 0)), (0.0, vec!["runtime_error".to_owned()]));
    assert_eq!(verdicts[3].details["valid"], false, "{:?}", verdicts[3]);
    assert_eq!(verdicts[4].details["valid"], false, "{:?}", verdicts[4]);
    assert_eq!(row(&verdicts[4], "correct", 0), ["memory_limit"]);
    for (i, wanted) in [(5, "asserts"), (6, "does not compile"), (7, "correct_solutions")] {
        assert_eq!(verdicts[i].status, Status::InvalidInput, "{:?}", verdicts[i]);
        assert!(verdicts[i].details["error"].as_str().unwrap_or_default().contains(wanted), "{:?}", verdicts[i]);
    }
    Ok(())
}

/// A solution over the cap on a source is refused as `invalid_input` naming it, whichever list
/// it is in; it is never cut and judged in part.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solution_over_the_source_cap_is_refused() -> anyhow::Result<()> {
    let long = format!("{SUM_C}/*{}*/\n", "x".repeat(referee_code::MAX_SOURCE_CHARS));
    let suite = "```json\n[{\"input\": \"1 2\\n\", \"output\": \"3\\n\"}]\n```\n";
    let items = vec![
        item(json!({"language": "c", "response": suite, "correct_solutions": [SUM_C, long], "wrong_solutions": []})),
        item(json!({"language": "c", "response": suite, "correct_solutions": [SUM_C], "wrong_solutions": [long]})),
    ];
    let verdicts = score(items).await?;
    for (verdict, field) in verdicts.iter().zip(["`correct_solutions[1]`", "`wrong_solutions[0]`"]) {
        assert_eq!(verdict.status, Status::InvalidInput, "{:?}", verdict.details);
        let error = verdict.details["error"].as_str().unwrap_or("");
        assert!(error.starts_with(field) && error.contains("over the cap of 1000000 characters"), "{error}");
    }
    Ok(())
}
