//! Which languages the `code` verifier can run, and on what, as the server reports them: `GET /v1/verifiers`
//! and `/readyz?verbose` say the same, and a probe without `verbose` stays small.

use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

fn languages(availability: &Value) -> Vec<(String, String)> {
    availability["languages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| (l["language"].as_str().unwrap_or("?").to_owned(), l["status"].as_str().unwrap_or("?").to_owned()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verifiers_and_readiness_report_each_language() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    // One item per language sets each up (the start-up check runs in the background).
    let tests = json!([{"stdin": "2 3\n", "expected_stdout": "5\n"}]);
    let items = json!([
        {"id": "py", "verifier": "code", "input": {"language": "python", "program": "a, b = map(int, input().split())\nprint(a + b)", "tests": tests}},
        {"id": "c", "verifier": "code", "input": {"language": "c", "program": "#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + b); }", "tests": tests}},
        {"id": "cpp", "verifier": "code", "input": {"language": "cpp", "program": "#include <iostream>\nint main() { int a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }", "tests": tests}},
        {"id": "js", "verifier": "code", "input": {"language": "javascript", "program": "const [a, b] = require('fs').readFileSync(0, 'utf8').split(' ').map(Number);\nconsole.log(a + b);", "tests": tests}},
        {"id": "rs", "verifier": "code", "input": {"language": "rust", "program": "fn main() { let mut s = String::new(); std::io::stdin().read_line(&mut s).unwrap(); let n: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect(); println!(\"{}\", n[0] + n[1]); }", "tests": tests}},
        {"id": "go", "verifier": "code", "input": {"language": "go", "program": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar a, b int\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n", "tests": tests}},
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let statuses: Vec<&str> =
        body["results"].as_array().into_iter().flatten().filter_map(|r| r["status"].as_str()).collect();
    assert_eq!(statuses, ["correct"; 6], "{body}");

    let expected: Vec<(String, String)> = ["python", "c", "cpp", "javascript", "rust", "go"]
        .iter()
        .map(|l| ((*l).to_owned(), "available".to_owned()))
        .collect();
    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    let verifiers = listing["verifiers"].as_array().cloned().unwrap_or_default();
    let code = verifiers.iter().find(|v| v["id"] == "code").cloned().unwrap_or(Value::Null);
    assert_eq!(code["availability"]["available"], true, "{code}");
    assert_eq!(languages(&code["availability"]), expected);
    let runtimes: Vec<&str> = code["availability"]["languages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["runtime"].as_str())
        .collect();
    assert!(runtimes.iter().any(|r| r.starts_with("QuickJS-NG ")), "{code}");
    assert!(runtimes.iter().any(|r| r.starts_with("CPython 3.14")), "{code}");
    assert!(runtimes.iter().any(|r| r.contains("rustc 1.63")), "{code}");
    assert!(runtimes.iter().any(|r| r.starts_with("Go 1.27.3")), "{code}");
    let math = verifiers.iter().find(|v| v["id"] == "math").cloned().unwrap_or(Value::Null);
    assert_eq!(math["availability"], json!({"available": true}));

    let (status, ready) = server.get("/readyz?verbose").await?;
    assert_eq!(status, 200, "{ready}");
    assert_eq!(ready["status"], "ready");
    let reported = ready["verifiers"].as_array().cloned().unwrap_or_default();
    assert_eq!(reported.len(), verifiers.len(), "{ready}");
    let code = reported.iter().find(|v| v["id"] == "code").cloned().unwrap_or(Value::Null);
    assert_eq!(languages(&code), expected, "{ready}");

    let (status, plain) = server.get("/readyz").await?;
    assert_eq!((status, plain), (200, json!({"status": "ready"})));
    let (status, plain) = server.get("/readyz?verbose=false").await?;
    assert_eq!((status, plain), (200, json!({"status": "ready"})));
    Ok(())
}
