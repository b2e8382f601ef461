//! `code-tests` over HTTP: listed with its schema and its languages' availability, suites
//! scored against known-correct and known-wrong solutions beside `code` items in one request,
//! and a bad item answered in its own verdict.

use referee_tests::{Backend, TestServer};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_tests_items_over_http() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    let entry = listing["verifiers"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|v| v["id"] == "code-tests")
        .cloned()
        .unwrap_or_default();
    assert!(entry.to_string().contains("wrong_solutions"), "{listing}");
    assert!(entry.to_string().contains("python"), "its languages are listed: {entry}");

    let add = "def add(a, b):\n    return a + b\n";
    let wrong = ["def add(a, b):\n    return a - b\n", "def add(a, b):\n    return abs(a) + b\n"];
    let suite = |tests: &str| format!("```python\n{tests}\n```");
    let sum = "a, b = map(int, input().split())\nprint(a + b)\n";
    let items = json!([
        {"id": "strong", "verifier": "code-tests", "input": {
            "language": "python", "format": "asserts", "response": suite("assert add(2, 3) == 5\nassert add(-1, 1) == 0"),
            "correct_solutions": [add], "wrong_solutions": wrong}},
        {"id": "weak", "verifier": "code-tests", "input": {
            "language": "python", "format": "asserts", "response": suite("assert add(2, 3) == 5"),
            "correct_solutions": [add], "wrong_solutions": wrong}},
        {"id": "invalid", "verifier": "code-tests", "input": {
            "language": "python", "format": "asserts", "response": suite("assert add(2, 2) == 5"),
            "correct_solutions": [add], "wrong_solutions": wrong}},
        {"id": "stdin", "verifier": "code-tests", "input": {
            "language": "python", "format": "inputs", "response": "```json\n[\"7 8\", \"1 1\"]\n```",
            "correct_solutions": [sum], "wrong_solutions": ["a, b = map(int, input().split())\nprint((a + b) % 10)\n"]}},
        {"id": "bad", "verifier": "code-tests", "input": {
            "language": "cpp", "format": "asserts", "response": suite("assert 1"), "correct_solutions": ["int main() {}"]}},
        {"id": "code", "verifier": "code", "input": {
            "language": "python", "program": sum, "tests": [{"stdin": "1 2", "expected_stdout": "3"}]}},
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().cloned().unwrap_or_default();
    let by_id = |id: &str| results.iter().find(|r| r["id"] == id).cloned().unwrap_or_default();
    assert_eq!((by_id("strong")["status"].as_str(), by_id("strong")["score"].as_f64()), (Some("correct"), Some(1.0)));
    let weak = by_id("weak");
    assert_eq!((weak["status"].as_str(), weak["score"].as_f64()), (Some("partial"), Some(0.5)), "{weak}");
    assert_eq!(weak["details"]["matrix"]["wrong"], json!([["wrong_answer"], ["passed"]]));
    let invalid = by_id("invalid");
    assert_eq!((invalid["score"].as_f64(), invalid["details"]["valid"].as_bool()), (Some(0.0), Some(false)));
    assert_eq!(invalid["details"]["invalid"]["test"], 0, "{invalid}");
    assert_eq!(by_id("stdin")["score"].as_f64(), Some(1.0), "{}", by_id("stdin"));
    let bad = by_id("bad");
    assert_eq!(bad["status"], "invalid_input", "{bad}");
    assert!(bad["details"]["error"].as_str().unwrap_or_default().contains("Python solutions"), "{bad}");
    assert_eq!(by_id("code")["status"], "correct");
    server.finish().await
}
