//! The `code` verifier through `POST /v1/score`: a mixed batch of Python and C items, in which a
//! bad item gets its own verdict and the others are judged as usual.

use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

fn verdicts(result: &Value) -> Vec<String> {
    result["details"]["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|t| t["verdict"].as_str().unwrap_or("?").to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_code_batch_over_http() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let sum_tests = json!([
        {"stdin": "1 2\n", "expected_stdout": "3\n"},
        {"stdin": "10 -4\n", "expected_stdout": "6\n"},
    ]);
    let sum = "a, b = map(int, input().split())\nprint(a + b)";
    let items = json!([
        {"id": "right", "verifier": "code", "input": {"language": "python", "program": sum, "tests": sum_tests}},
        {"id": "wrong", "verifier": "code", "input": {
            "language": "python", "program": "a, b = map(int, input().split())\nprint(a - b)",
            "tests": sum_tests, "options": {"scoring": "fraction", "stop_on_first_failure": false}}},
        {"id": "no-newline-exact", "verifier": "code", "input": {
            "language": "python", "program": "import sys\na, b = map(int, input().split())\nsys.stdout.write(str(a + b))",
            "tests": sum_tests, "options": {"checker": "exact"}}},
        {"id": "expected-without-newline", "verifier": "code", "input": {
            "language": "python", "program": sum,
            "tests": [{"stdin": "1 2\n", "expected_stdout": "3"}, {"stdin": "10 -4", "expected_stdout": "6 \n\n"}]}},
        {"id": "reasoning-cut-off", "verifier": "code", "input": {
            "language": "python", "response": format!("<think>Maybe:\n```python\n{sum}\n```\nor"), "tests": sum_tests}},
        {"id": "no-newline-lines", "verifier": "code", "input": {
            "language": "python", "program": "import sys\na, b = map(int, input().split())\nsys.stdout.write(str(a + b))",
            "tests": sum_tests, "options": {"checker": "lines"}}},
        {"id": "response", "verifier": "code", "input": {
            "language": "python", "response": format!("Here it is:\n```python\n{sum}\n```\n"), "tests": sum_tests}},
        {"id": "no-block", "verifier": "code", "input": {
            "language": "python", "response": "I cannot write code.", "tests": sum_tests}},
        {"id": "both", "verifier": "code", "input": {
            "language": "python", "program": sum, "response": sum, "tests": sum_tests}},
        {"id": "calls", "verifier": "code", "input": {
            "language": "python", "program": "def add(a, b):\n    return a + b",
            "function_tests": {"entry_point": "add", "cases": [
                {"args": [1, 2], "expected": 3}, {"args": [[1], [2]], "expected": [1, 2]}]}}},
        {"id": "check", "verifier": "code", "input": {
            "language": "python", "program": "def add(a, b):\n    return a + b",
            "check": {"program": "def check(f):\n    assert f(2, 2) == 4\n    assert f(0, 0) == 0\n", "entry_point": "add"}}},
        {"id": "c", "verifier": "code", "input": {
            "language": "c", "program": "#include <stdio.h>\nint main(void) { long a, b; scanf(\"%ld %ld\", &a, &b); printf(\"%ld\\n\", a + b); return 0; }\n",
            "tests": sum_tests}},
        {"id": "fuel", "verifier": "code", "input": {
            "language": "python", "program": "while True:\n    pass", "tests": sum_tests, "options": {"fuel": 100000000}}},
        {"id": "bad-option", "verifier": "code", "input": {
            "language": "python", "program": sum, "tests": sum_tests, "options": {"memory_mb": 1}}},
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().cloned().unwrap_or_default();
    let by_id = |id: &str| results.iter().find(|r| r["id"] == id).cloned().unwrap_or(Value::Null);
    let status_of = |id: &str| by_id(id)["status"].as_str().unwrap_or("?").to_owned();

    assert_eq!(status_of("right"), "correct", "{}", by_id("right"));
    assert_eq!(by_id("right")["score"], 1.0);
    assert_eq!(verdicts(&by_id("right")), ["passed", "passed"]);
    let first = &by_id("right")["details"]["tests"][0];
    assert!(first["fuel"].as_u64().unwrap_or(0) > 0 && first["time_ms"].as_f64().unwrap_or(0.0) > 0.0, "{first}");

    assert_eq!(status_of("wrong"), "incorrect");
    assert_eq!(verdicts(&by_id("wrong")), ["wrong_answer", "wrong_answer"]);

    assert_eq!(status_of("no-newline-exact"), "incorrect");
    assert_eq!(verdicts(&by_id("no-newline-exact")), ["wrong_answer", "skipped"], "stops at the first failure");
    assert_eq!(status_of("no-newline-lines"), "correct");
    assert_eq!(
        status_of("expected-without-newline"),
        "correct",
        "the default checker is `lines`: {}",
        by_id("expected-without-newline")
    );
    assert_eq!(status_of("reasoning-cut-off"), "unparseable", "a draft inside unfinished reasoning is no program");

    assert_eq!(status_of("response"), "correct");
    assert_eq!(status_of("no-block"), "unparseable");
    assert_eq!(status_of("both"), "invalid_input");
    assert_eq!(status_of("calls"), "correct", "{}", by_id("calls"));
    assert_eq!(status_of("check"), "correct", "{}", by_id("check"));
    assert_eq!(status_of("c"), "correct", "{}", by_id("c"));
    assert_eq!(status_of("fuel"), "incorrect");
    assert_eq!(verdicts(&by_id("fuel"))[0], "time_limit");
    assert_eq!(status_of("bad-option"), "invalid_input");

    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    assert!(listing.to_string().contains("\"code\""), "{listing}");
    server.finish().await
}
