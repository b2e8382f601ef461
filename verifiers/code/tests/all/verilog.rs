//! The `verilog` verifier on Yosys in the sandbox: each verdict on designs written for it, a
//! hostile corpus, and VerilogEval v2's spec-to-RTL problems with every verdict checked against
//! Icarus Verilog running the problem's own testbench (reference and candidate side by side,
//! random stimulus, `Mismatches: 0` to pass).
//!
//! The suite: every reference is checked against itself under another module name (the
//! canonical answer: `equivalent`, by proof or, where the proof runs out of fuel, by random
//! simulation), and two mutants of it (its first operator or constant flipped; the value of its
//! first one-line assignment inverted) are judged and simulated. An `equivalent` that the
//! testbench refutes would be a wrong reward and fails the test; a counterexample the testbench
//! does not hit is the testbench's coverage, reported.
//!
//! Icarus Verilog's verdicts are recorded in `tests/data/native/verilog-eval.tsv`. The fast tier
//! judges every eighth problem (in the file's order, from the first: 20 problems, 48 candidates) with
//! Referee against them and runs no Icarus; the full tier (`scripts/test --full`) simulates every
//! candidate under Icarus and compares the verdicts with the file, and judges all 156 problems
//! with Referee against it (docs/verifiers/verilog.md gives the figures).

use std::process::Command;

use referee_code::VerilogInput;
use referee_core::{Budget, RewardModel as _, Status, Verdict};
use serde_json::{Value, json};

use super::common::{self, Candidate, NativeRecord, NativeRun};
use super::verilog_eval::{Problem, as_candidate, flipped, icarus, negated, problems};

/// Judges `items` in one batch on the shared sandbox, without a deadline.
async fn judge(items: Vec<Value>) -> Vec<Verdict> {
    let verifier = common::verifier().unwrap_or_else(|e| panic!("no sandbox: {e}")).verilog_verifier();
    let items: Vec<VerilogInput> =
        items.into_iter().map(|item| serde_json::from_value(item).unwrap_or_else(|e| panic!("{e}"))).collect();
    verifier.score_batch(items, Budget::unlimited()).await
}

fn details(verdict: &Verdict) -> Value {
    Value::Object(verdict.details.clone())
}

const AND_GATE: &str = "module RefModule(input a, input b, output y);\n  assign y = a & b;\nendmodule\n";
const COUNTER: &str = "module RefModule(input clk, input reset, output reg [3:0] q);
  always @(posedge clk)
    if (reset || q == 10) q <= 1;
    else q <= q + 1;
endmodule
";
const TOGGLE: &str = "module RefModule(input clk, input resetn, input in, output out);
  reg state;
  always @(posedge clk) if (!resetn) state <= 0; else state <= state ^ in;
  assign out = state;
endmodule
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_verdict_of_the_equivalence_check() {
    let cases: Vec<(&str, Value)> = vec![
        (
            "de morgan",
            json!({"reference": AND_GATE, "program": "module TopModule(input a, input b, output y);\n  assign y = ~(~a | ~b);\nendmodule"}),
        ),
        (
            "or for and",
            json!({"reference": AND_GATE, "response": "```verilog\nmodule TopModule(input a, input b, output y);\n  assign y = a | b;\nendmodule\n```"}),
        ),
        (
            "counter, another way",
            json!({"reference": COUNTER, "program": COUNTER.replace("RefModule", "TopModule").replace("q == 10", "q >= 4'd10")}),
        ),
        (
            "counter to 9",
            json!({"reference": COUNTER, "program": COUNTER.replace("RefModule", "TopModule").replace("q == 10", "q == 9")}),
        ),
        (
            "inverted state, active-low reset",
            json!({"reference": TOGGLE, "program": "module TopModule(input clk, input resetn, input in, output out);
  reg s;
  always @(posedge clk) if (!resetn) s <= 1; else s <= s ^ in;
  assign out = ~s;
endmodule"}),
        ),
        (
            "reset ignored",
            json!({"reference": TOGGLE, "program": "module TopModule(input clk, input resetn, input in, output out);
  reg s;
  always @(posedge clk) s <= s ^ in;
  assign out = s;
endmodule"}),
        ),
        (
            "a latch for a wire",
            json!({"reference": "module RefModule(input en, input d, output reg q);\n  always @(*) q = d;\nendmodule", "program": "module TopModule(input en, input d, output reg q);\n  always @(*) if (en) q = d;\nendmodule"}),
        ),
        (
            "syntax error",
            json!({"reference": AND_GATE, "program": "module TopModule(input a, input b, output y);\n  assign y = a &;\nendmodule"}),
        ),
        (
            "a port too many",
            json!({"reference": AND_GATE, "program": "module TopModule(input a, input b, input c, output y);\n  assign y = a & b;\nendmodule"}),
        ),
        (
            "a port too wide",
            json!({"reference": AND_GATE, "program": "module TopModule(input [1:0] a, input b, output y);\n  assign y = a[0] & b;\nendmodule"}),
        ),
        ("no module", json!({"reference": AND_GATE, "response": "I cannot write this design."})),
        (
            "broken reference",
            json!({"reference": "module RefModule(output y); assign y = ; endmodule", "program": AND_GATE}),
        ),
        ("unknown reset", json!({"reference": AND_GATE, "program": AND_GATE, "reset": "rst"})),
        ("bad top", json!({"reference": AND_GATE, "program": AND_GATE, "top": "x; sat"})),
    ];
    let (names, items): (Vec<&str>, Vec<Value>) = cases.into_iter().unzip();
    let verdicts = judge(items).await;
    let got: Vec<(&str, Status, String, String)> = names
        .iter()
        .zip(&verdicts)
        .map(|(name, v)| {
            let text = |key: &str| v.details.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
            (*name, v.status, text("verdict"), text("method"))
        })
        .collect();
    let expected = [
        ("de morgan", Status::Correct, "equivalent", "sat"),
        ("or for and", Status::Incorrect, "counterexample", ""),
        ("counter, another way", Status::Correct, "equivalent", "induction"),
        ("counter to 9", Status::Incorrect, "counterexample", ""),
        ("inverted state, active-low reset", Status::Correct, "equivalent", "induction"),
        ("reset ignored", Status::Incorrect, "counterexample", ""),
        ("a latch for a wire", Status::Incorrect, "counterexample", ""),
        ("syntax error", Status::Incorrect, "syntax_error", ""),
        ("a port too many", Status::Incorrect, "port_mismatch", ""),
        ("a port too wide", Status::Incorrect, "port_mismatch", ""),
        ("no module", Status::Unparseable, "no_module", ""),
        ("broken reference", Status::InvalidInput, "", ""),
        ("unknown reset", Status::InvalidInput, "", ""),
        ("bad top", Status::InvalidInput, "", ""),
    ];
    for ((name, status, verdict, method), verdict_of) in expected.iter().zip(&got) {
        assert_eq!(
            (*name, *status, verdict.to_string(), method.to_string()),
            *verdict_of,
            "{}",
            details(&verdicts[got.iter().position(|g| g.0 == *name).unwrap_or(0)])
        );
    }
    // The counterexample of the counter: the outputs first differ where the counts part.
    let counter = &verdicts[3];
    let steps = counter.details["counterexample"].as_array().cloned().unwrap_or_default();
    let first = steps.iter().find(|s| s["differs"] == json!(true)).cloned().unwrap_or_default();
    assert_eq!(
        (first["expected"]["q"].as_str(), first["actual"]["q"].as_str()),
        (Some("1010"), Some("0001")),
        "{steps:?}"
    );
    assert_eq!(steps[0]["inputs"]["reset"], "1", "the reset is held in the first cycle");
    let message = counter.details["message"].as_str().unwrap_or_default();
    assert!(message.contains("`q` is 0001, expected 1010"), "{message}");
    assert_eq!(verdicts[4].details["reset"], json!({"signal": "resetn", "active_low": true}));
    assert_eq!(verdicts[6].details["timing"], "events", "a latch is compared instant by instant");
    let syntax = verdicts[7].details["message"].as_str().unwrap_or_default();
    assert!(syntax.starts_with("candidate.v:2: ERROR: syntax error"), "{syntax}");
    let ports = verdicts[9].details["message"].as_str().unwrap_or_default();
    assert!(ports.contains("`input [1:0] a` should be `input a`"), "{ports}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proof_that_does_not_close_is_bounded_by_the_cycles() {
    // The candidate wraps its count at 250: its output differs from the reference's only after
    // 250 cycles, and the induction cannot close on states no short trace tells apart.
    let reference = "module RefModule(input clk, input reset, output y);
  reg [7:0] q;
  always @(posedge clk) if (reset) q <= 0; else q <= q + 1;
  assign y = q == 200;
endmodule";
    let candidate = reference
        .replace("RefModule", "TopModule")
        .replace("else q <= q + 1;", "else if (q == 250) q <= 0; else q <= q + 1;");
    let verdicts = judge(vec![
        json!({"reference": reference, "program": candidate, "cycles": 3}),
        json!({"reference": reference, "program": candidate, "cycles": 40}),
    ])
    .await;
    let shown = details(&verdicts[0]);
    assert_eq!(verdicts[0].status, Status::Correct, "{shown}");
    assert_eq!((&shown["method"], &shown["cycles"]), (&json!("bounded"), &json!(3)), "{shown}");
    // Within 40 cycles of reset they agree as well.
    assert_eq!(verdicts[1].details["method"], "bounded", "{}", details(&verdicts[1]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proof_out_of_fuel_falls_back_to_random_simulation_unless_told_not_to() -> anyhow::Result<()> {
    // VerilogEval's gshare: a 128-entry table of two-bit counters, beyond the proof's fuel.
    let problems = problems()?;
    let gshare = problems.iter().find(|p| p.task_id == "Prob153_gshare").map(|p| p.reference.as_str()).unwrap_or("");
    // The candidate flips a bit of `predict_history` from the 32nd cycle after a reset on: far
    // deeper than the proof gets in its fuel, and met by every random trace.
    let late = as_candidate(gshare)
        .replace(
            "assign predict_history = predict_valid ? predict_history_r : {n{1'bx}};",
            "reg [4:0] age;\n  always @(posedge clk, posedge areset) if (areset) age <= 0; else if (age != 31) age <= age + 1;\n  \
             assign predict_history = predict_valid ? predict_history_r ^ {6'b0, age == 31} : {n{1'bx}};",
        );
    assert!(late.contains("age == 31"));
    let verdicts = judge(vec![
        json!({"reference": gshare, "program": as_candidate(gshare), "simulate": false}),
        json!({"reference": gshare, "program": late}),
    ])
    .await;
    let [off, differs] = [&verdicts[0], &verdicts[1]];
    assert_eq!((off.status, &off.details["verdict"]), (Status::Timeout, &json!("timeout")), "{}", details(off));
    assert_eq!(differs.status, Status::Incorrect, "{}", details(differs));
    assert_eq!(
        (&differs.details["verdict"], &differs.details["method"]),
        (&json!("counterexample"), &json!("simulation"))
    );
    // The trace ends at the first difference, at the 33rd step (the reset, then 32 cycles), and
    // shows the last 32 steps.
    let trace = differs.details["counterexample"].as_array().cloned().unwrap_or_default();
    let last = trace.last().cloned().unwrap_or_default();
    assert_eq!((trace.len(), &last["step"], &last["differs"]), (32, &json!(33), &json!(true)), "{}", details(differs));
    assert_ne!(last["expected"]["predict_history"], last["actual"]["predict_history"], "{}", details(differs));
    Ok(())
}

/// Designs that attack the checker: every one gets a clean verdict about the response.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_designs_get_clean_verdicts() {
    let hostile = [
        (
            "include a host file",
            "`include \"/etc/passwd\"\nmodule TopModule(input a, input b, output y); assign y = a & b; endmodule",
        ),
        (
            "read a host file",
            "module TopModule(input a, input b, output y);\n  reg [7:0] m [0:3];\n  initial $readmemh(\"/etc/passwd\", m);\n  assign y = a & b & m[0][0];\nendmodule",
        ),
        (
            "an endless elaboration loop",
            "module TopModule(input a, input b, output y);\n  function automatic integer f(input integer n);\n    integer i; begin f = 0; for (i = 0; i >= 0; i = i + 1) f = f + 1; end\n  endfunction\n  localparam P = f(1);\n  assign y = a & b & P[0];\nendmodule",
        ),
        (
            "a deep recursion",
            "module TopModule(input a, input b, output y);\n  function automatic integer f(input integer n);\n    f = n == 0 ? 0 : f(n - 1) + 1;\n  endfunction\n  localparam P = f(100000000);\n  assign y = a & b & P[0];\nendmodule",
        ),
        (
            "a huge vector",
            "module TopModule(input a, input b, output y);\n  wire [1073741823:0] w = {1073741824{a}};\n  assign y = w[5] & b;\nendmodule",
        ),
        (
            "a million gates",
            "module TopModule(input a, input b, output y);\n  genvar i;\n  wire [1048575:0] w;\n  assign w[0] = a;\n  generate for (i = 1; i < 1048576; i = i + 1) begin : g\n    assign w[i] = w[i-1] ^ b;\n  end endgenerate\n  assign y = w[1048575];\nendmodule",
        ),
        (
            "a flood of log lines",
            "module TopModule(input a, input b, output y);\n  genvar i;\n  generate for (i = 0; i < 40000; i = i + 1) begin : g\n    reg r;\n    always @(posedge a) r <= a ^ b;\n  end endgenerate\n  assign y = a & b;\nendmodule",
        ),
    ];
    let items = hostile.iter().map(|(_, design)| json!({"reference": AND_GATE, "program": design})).collect();
    let verdicts = judge(items).await;
    for ((name, _), verdict) in hostile.iter().zip(&verdicts) {
        let shown = details(verdict).to_string();
        eprintln!("{name}: {:?} {shown}", verdict.status);
        assert!(
            matches!(verdict.status, Status::Incorrect | Status::Timeout | Status::ResourceLimit),
            "{name}: {:?} {shown}",
            verdict.status
        );
        assert!(!shown.contains("root:"), "{name}: a host file leaked: {shown}");
    }
    // Yosys reports each of the flood's 40,000 processes: its log meets the 8 MiB cap.
    let flood = &verdicts[hostile.len() - 1];
    assert_eq!((flood.status, &flood.details["verdict"]), (Status::ResourceLimit, &json!("output_limit")));
}

/// The record of Icarus Verilog's verdicts.
const RECORD: NativeRecord = NativeRecord {
    name: "verilog-eval",
    about: "Icarus Verilog's verdicts on VerilogEval's candidates (verifiers/code/tests/all/verilog.rs):\n\
            the problem's testbench with the reference and the candidate, `iverilog -g2012`, then `vvp`;\n\
            passed when it reports `Mismatches: 0`.",
    test: "verilog::icarus_verdicts_are_as_recorded",
    peer: "Icarus Verilog",
};

/// The candidates of `problems`: each reference as the candidate module, and its two mutants
/// where they apply.
fn candidates<'a>(problems: impl IntoIterator<Item = &'a Problem>) -> Vec<Candidate<'a, Problem>> {
    let mut candidates = Vec::new();
    for problem in problems {
        candidates.push(Candidate::new(problem, &problem.task_id, "canonical", as_candidate(&problem.reference)));
        for (kind, mutant) in [("flipped", flipped(&problem.reference)), ("negated", negated(&problem.reference))] {
            if let Some(mutant) = mutant {
                candidates.push(Candidate::new(problem, &problem.task_id, kind, mutant));
            }
        }
    }
    candidates
}

/// Judges `candidates` with Referee and compares each verdict with Icarus Verilog's recorded one:
/// every reference is equivalent to itself, and no candidate that the testbench refutes is
/// equivalent. A mutant that Referee refutes and the testbench passes is the testbench's
/// coverage: reported.
async fn judge_as_recorded(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<()> {
    let recorded = RECORD.recorded(candidates)?;
    let items = candidates.iter().map(|c| json!({"reference": c.problem.reference, "program": c.solution})).collect();
    let verdicts = judge(items).await;
    let mut wrong = Vec::new();
    let mut unseen = Vec::new();
    let mut simulated = Vec::new();
    let mut missed = Vec::new();
    let mut broken = Vec::new();
    let mut caught = 0;
    for ((candidate, verdict), recorded) in candidates.iter().zip(&verdicts).zip(&recorded) {
        let name = format!("{}-{}", candidate.task_id, candidate.kind);
        let passed = recorded.passed;
        let said = if passed { "passed" } else { "failed" };
        let shown =
            format!("{name}: {:?} {} / Icarus: {said} ({})", verdict.status, details(verdict), recorded.toolchain);
        assert_ne!(verdict.status, Status::InternalError, "{shown}");
        if broken.contains(&candidate.task_id) {
            continue;
        }
        if candidate.is_canonical() {
            // A testbench that fails its own reference (one of VerilogEval's, under Icarus) cannot
            // judge the problem's mutants: reported, left out.
            if !passed {
                broken.push(candidate.task_id);
            }
            // Proved, or simulated where the proof runs out of fuel: never called wrong.
            if verdict.status != Status::Correct {
                missed.push(shown);
                continue;
            }
            if verdict.details.get("method").and_then(Value::as_str) == Some("simulation") {
                simulated.push(shown);
            }
            continue;
        }
        if verdict.details.get("method").and_then(Value::as_str) == Some("simulation") {
            simulated.push(shown.clone());
        }
        match (verdict.status, passed) {
            (Status::Correct, false) => wrong.push(shown),
            (Status::Incorrect, true) => unseen.push(shown),
            (Status::Incorrect, false) => caught += 1,
            _ => {}
        }
    }
    let problems = candidates.iter().filter(|c| c.is_canonical()).count();
    let mutants = candidates.len() - problems;
    eprintln!(
        "{problems} problems, {} canonical not equivalent; {} verdicts by simulation (the proof out of fuel); {mutants} mutants, {caught} refuted by \
         both, {} by Referee only (the testbench's stimulus misses them), {} equivalent for Referee yet failing the testbench",
        missed.len(),
        simulated.len(),
        unseen.len(),
        wrong.len()
    );
    if !broken.is_empty() {
        eprintln!("testbenches failing their own reference under Icarus, their mutants left out: {broken:?}");
    }
    for line in missed.iter().chain(&simulated).chain(&unseen) {
        eprintln!("  {line}");
    }
    assert!(missed.is_empty(), "canonical designs not judged equivalent: {missed:#?}");
    assert!(wrong.is_empty(), "a proof passed a design its testbench refutes: {wrong:#?}");
    Ok(())
}

#[test]
fn the_record_names_every_verilog_eval_candidate() -> anyhow::Result<()> {
    RECORD.check_names_exactly(&candidates(&problems()?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verilog_eval_slice_is_judged_as_icarus_verilog_judges_it() -> anyhow::Result<()> {
    let problems = problems()?;
    judge_as_recorded(&candidates(problems.iter().step_by(8))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "full tier (scripts/test --full): judges every VerilogEval candidate"]
async fn verilog_eval_is_judged_as_icarus_verilog_judges_it() -> anyhow::Result<()> {
    let problems = problems()?;
    judge_as_recorded(&candidates(&problems)).await
}

#[test]
#[ignore = "full tier (scripts/test --full): simulates every VerilogEval candidate under Icarus Verilog"]
fn icarus_verdicts_are_as_recorded() -> anyhow::Result<()> {
    // `Icarus Verilog version 11.0 (stable) ()`: the simulator and its version.
    let version = common::tool_version(Command::new("iverilog").arg("-V")).map_err(|e| {
        anyhow::anyhow!(
            "Icarus Verilog (iverilog) is required: this test compares its simulation with the record ({e})"
        )
    })?;
    let number = version.split(' ').nth(3).unwrap_or_default();
    let toolchain = format!("Icarus Verilog {number}");
    let problems = problems()?;
    let simulate = |dir: &std::path::Path, c: &Candidate<'_, Problem>| -> anyhow::Result<NativeRun> {
        let (passed, said) = icarus(dir, &c.name, c.problem, &c.solution)?;
        Ok(NativeRun::verdict(passed, said))
    };
    RECORD.check_native(&candidates(&problems), &toolchain, simulate, |_| false)
}
