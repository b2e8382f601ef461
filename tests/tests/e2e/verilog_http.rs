//! `verilog` over HTTP: listed with its runtime's availability, items scored beside other
//! verifiers' in one request, and a bad item answered in its own verdict.

use referee_tests::{Backend, TestServer};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verilog_items_over_http() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let reference = "module RefModule(input a, input b, output y);\n  assign y = a & b;\nendmodule\n";
    let items = json!([
        {"id": "proved", "verifier": "verilog", "input": {"reference": reference,
            "response": "```verilog\nmodule TopModule(input a, input b, output y);\n  assign y = ~(~a | ~b);\nendmodule\n```"}},
        {"id": "refuted", "verifier": "verilog", "input": {"reference": reference,
            "program": "module TopModule(input a, input b, output y);\n  assign y = a ^ b;\nendmodule"}},
        {"id": "bad", "verifier": "verilog", "input": {"reference": reference, "program": "module M(); endmodule", "cycles": 0}},
        {"id": "text", "verifier": "exact-match", "input": {"response": "7", "reference": "7"}},
    ]);
    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().cloned().unwrap_or_default();
    let by_id = |id: &str| results.iter().find(|r| r["id"] == id).cloned().unwrap_or_default();
    let proved = by_id("proved");
    assert_eq!(
        (proved["status"].as_str(), proved["details"]["method"].as_str()),
        (Some("correct"), Some("sat")),
        "{proved}"
    );
    let refuted = by_id("refuted");
    assert_eq!(
        (refuted["status"].as_str(), refuted["details"]["verdict"].as_str()),
        (Some("incorrect"), Some("counterexample"))
    );
    let first = &refuted["details"]["counterexample"][0];
    assert_eq!(first["differs"], true, "{refuted}");
    let bad = by_id("bad");
    assert_eq!(bad["status"], "invalid_input", "{bad}");
    assert!(bad["details"]["error"].as_str().unwrap_or_default().contains("`cycles`"), "{bad}");
    assert_eq!(by_id("text")["status"], "correct");

    // Yosys has been loaded by the items above: the listing says so, with its version.
    let (status, listing) = server.get("/v1/verifiers").await?;
    assert_eq!(status, 200);
    let entry = listing["verifiers"].as_array().into_iter().flatten().find(|v| v["id"] == "verilog").cloned();
    let entry = entry.unwrap_or_default();
    let language = &entry["availability"]["languages"][0];
    assert_eq!(
        (language["language"].as_str(), language["status"].as_str()),
        (Some("verilog"), Some("available")),
        "{entry}"
    );
    assert!(language["runtime"].as_str().unwrap_or_default().contains("Yosys 0.70"), "{entry}");
    Ok(())
}
