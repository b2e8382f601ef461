//! Which languages the `code` verifier can run, and on what, as the server reports them: `GET /v1/verifiers`
//! and `/readyz?verbose` say the same, and a probe without `verbose` stays small. The check at
//! start (`sandbox.check_at_start`) sets every language up before any item; without it, each
//! language is set up by its first item.

use std::time::{Duration, Instant};

use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

/// The `code` verifier's entry in `GET /v1/verifiers`, and the whole listing.
async fn code_entry(server: &TestServer) -> anyhow::Result<(Value, Vec<Value>)> {
    let (status, listing) = server.get("/v1/verifiers").await?;
    anyhow::ensure!(status == 200, "GET /v1/verifiers answered {status}: {listing}");
    let verifiers = listing["verifiers"].as_array().cloned().unwrap_or_default();
    let code = verifiers.iter().find(|v| v["id"] == "code").cloned().unwrap_or(Value::Null);
    Ok((code, verifiers))
}

fn languages(availability: &Value) -> Vec<(String, String)> {
    availability["languages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|l| (l["language"].as_str().unwrap_or("?").to_owned(), l["status"].as_str().unwrap_or("?").to_owned()))
        .collect()
}

/// The check at start sets every language up in the background, with no item asking for one;
/// the items then run in each language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verifiers_and_readiness_report_each_language() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |config| config.sandbox.check_at_start = true).await?;
    let expected: Vec<(String, String)> = ["python", "c", "cpp", "javascript", "rust", "go"]
        .iter()
        .map(|l| ((*l).to_owned(), "available".to_owned()))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (code, _) = code_entry(&server).await?;
        let found = languages(&code["availability"]);
        if found == expected {
            break;
        }
        let checking = found.iter().all(|(_, status)| status == "available" || status == "unchecked");
        anyhow::ensure!(
            checking && Instant::now() < deadline,
            "the check at start did not set every language up: {code}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

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

    let (code, verifiers) = code_entry(&server).await?;
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
    server.finish().await
}

/// Without the check at start, the server is ready with every language unchecked, and an item
/// sets up its own language alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_check_at_start_an_item_sets_its_language_up() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |config| config.sandbox.check_at_start = false).await?;
    let (code, _) = code_entry(&server).await?;
    let found = languages(&code["availability"]);
    assert_eq!(found.len(), 6, "{code}");
    assert!(found.iter().all(|(_, status)| status == "unchecked"), "{code}");
    let (status, ready) = server.get("/readyz").await?;
    assert_eq!((status, ready), (200, json!({"status": "ready"})));

    let item = json!({"id": "py", "verifier": "code", "input": {"language": "python", "program": "print(input())",
        "tests": [{"stdin": "7\n", "expected_stdout": "7\n"}]}});
    let (status, body) = server.post("/v1/score", &json!({"items": [item]})).await?;
    assert_eq!((status, body["results"][0]["status"].as_str()), (200, Some("correct")), "{body}");
    let (code, _) = code_entry(&server).await?;
    let found = languages(&code["availability"]);
    assert_eq!(found[0], ("python".to_owned(), "available".to_owned()), "{code}");
    assert!(found[1..].iter().all(|(_, status)| status == "unchecked"), "only Python was set up: {code}");
    server.finish().await
}
