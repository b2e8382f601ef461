//! The `verilog` verifier on Yosys in the sandbox: each verdict on designs written for it, a
//! hostile corpus, and VerilogEval v2's spec-to-RTL problems with every verdict checked against
//! Icarus Verilog running the problem's own testbench (reference and candidate side by side,
//! random stimulus, `Mismatches: 0` to pass).
//!
//! The suite: every reference is checked against itself under another module name (the
//! canonical answer: `equivalent`, or `timeout` where the proof runs out of fuel, reported), and two mutants of it (its first operator or constant flipped; the value
//! of its first one-line assignment inverted) are judged and simulated. A formal `equivalent` that the testbench refutes would be a wrong reward and fails
//! the test; a counterexample the testbench does not hit is the testbench's coverage, reported.
//! CI judges every eighth problem; `REFEREE_FULL_SUITES=1` all of them (docs/verifiers/verilog.md
//! gives the figures).

use std::path::Path;
use std::process::Command;

use referee_code::VerilogInput;
use referee_core::{Budget, RewardModel as _, Status, Verdict};
use serde_json::{Value, json};

use super::common;

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
}

/// One VerilogEval problem.
struct Problem {
    task_id: String,
    reference: String,
    testbench: String,
}

fn problems() -> anyhow::Result<Vec<Problem>> {
    let rows = common::jsonl_fields(include_str!("../data/verilog-eval.jsonl"), ["task_id", "reference", "testbench"])?;
    assert_eq!(rows.len(), 156);
    Ok(rows.into_iter().map(|[task_id, reference, testbench]| Problem { task_id, reference, testbench }).collect())
}

/// The flips of a mutant, the first found in the text after the port list: an operator or a
/// one-bit constant.
const FLIPS: [(&str, &str); 12] = [
    ("&&", "||"),
    ("||", "&&"),
    (" & ", " | "),
    (" | ", " & "),
    (" ^ ", " & "),
    (" + ", " - "),
    (" - ", " + "),
    ("==", "!="),
    ("!=", "=="),
    ("1'b0", "1'b1"),
    ("1'b1", "1'b0"),
    ("~", ""),
];

/// The reference as the candidate module VerilogEval's testbenches instantiate.
fn as_candidate(reference: &str) -> String {
    reference.replace("module RefModule", "module TopModule")
}

/// Where the module's body starts: after its port list.
fn body_start(reference: &str) -> usize {
    reference.find(");").map_or(0, |at| at + 2)
}

/// The reference with its first operator or constant after the port list flipped.
fn flipped(reference: &str) -> Option<String> {
    let body = body_start(reference);
    let flipped = common::flip_first_operator(&reference[body..], &FLIPS)?;
    Some(as_candidate(&format!("{}{flipped}", &reference[..body])))
}

/// The reference with the value of its first one-line assignment (`assign x = e;` or
/// `x <= e;`) inverted.
fn negated(reference: &str) -> Option<String> {
    let body = body_start(reference);
    let mut at = body;
    for line in reference[body..].split_inclusive('\n') {
        let trimmed = line.trim();
        let target =
            trimmed.strip_prefix("assign ").map_or_else(|| trimmed.split_once("<="), |rest| rest.split_once('='));
        if let Some((left, right)) = target
            && let Some(value) = right.trim().strip_suffix(';')
            && !left.trim().is_empty()
            && left.trim().chars().all(|c| c.is_ascii_alphanumeric() || "_[]: ".contains(c))
        {
            let indent = &line[..line.len() - line.trim_start().len()];
            let (lhs, op) = if trimmed.starts_with("assign ") {
                (format!("assign {}", left.trim()), "=")
            } else {
                (left.trim().to_owned(), "<=")
            };
            let mutated = format!("{indent}{lhs} {op} ~({});\n", value.trim());
            return Some(as_candidate(&format!("{}{mutated}{}", &reference[..at], &reference[at + line.len()..])));
        }
        at += line.len();
    }
    None
}

/// Runs the problem's testbench under Icarus Verilog with `candidate` as `TopModule`: whether it
/// reports no mismatch, and what it said.
fn icarus(dir: &Path, name: &str, problem: &Problem, candidate: &str) -> anyhow::Result<(bool, String)> {
    let dir = dir.join(name);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("test.sv"), &problem.testbench)?;
    std::fs::write(dir.join("ref.sv"), &problem.reference)?;
    std::fs::write(dir.join("top.sv"), candidate)?;
    let built = Command::new("iverilog")
        .args([
            "-Wall",
            "-Winfloop",
            "-Wno-timescale",
            "-g2012",
            "-s",
            "tb",
            "-o",
            "sim",
            "test.sv",
            "ref.sv",
            "top.sv",
        ])
        .current_dir(&dir)
        .output()?;
    if !built.status.success() {
        return Ok((
            false,
            format!("iverilog: {}", String::from_utf8_lossy(&built.stderr).lines().next().unwrap_or("")),
        ));
    }
    let run = Command::new("timeout").args(["60", "vvp", "-n", "sim"]).current_dir(&dir).output()?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let summary = stdout.lines().find(|l| l.contains("Mismatches:")).unwrap_or("no summary").trim().to_owned();
    Ok((summary.starts_with("Mismatches: 0 in"), summary))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verilog_eval_verdicts_agree_with_icarus_verilog() -> anyhow::Result<()> {
    let icarus_present = Command::new("iverilog").arg("-V").output().is_ok_and(|o| !o.stdout.is_empty());
    assert!(icarus_present, "Icarus Verilog (iverilog) is required: this test compares verdicts with its simulation");
    let problems = problems()?;
    let step = if common::full_suites() { 1 } else { 8 };
    let chosen: Vec<&Problem> = problems.iter().step_by(step).collect();
    let mut candidates: Vec<(&Problem, &str, String)> = Vec::new();
    for problem in &chosen {
        candidates.push((problem, "canonical", as_candidate(&problem.reference)));
        for (kind, mutant) in [("flipped", flipped(&problem.reference)), ("negated", negated(&problem.reference))] {
            if let Some(mutant) = mutant {
                candidates.push((problem, kind, mutant));
            }
        }
    }
    let items = candidates
        .iter()
        .map(|(problem, _, program)| json!({"reference": problem.reference, "program": program}))
        .collect();
    let verdicts = judge(items).await;
    let dir = tempfile::tempdir()?;
    let mut wrong = Vec::new();
    let mut unseen = Vec::new();
    let mut timeouts = Vec::new();
    let mut caught = 0;
    for ((problem, kind, program), verdict) in candidates.iter().zip(&verdicts) {
        let name = format!("{}-{kind}", problem.task_id);
        let (passed, said) = icarus(dir.path(), &name, problem, program)?;
        let shown = format!("{name}: {:?} {} / Icarus: {said}", verdict.status, details(verdict));
        assert_ne!(verdict.status, Status::InternalError, "{shown}");
        if *kind == "canonical" {
            assert!(passed, "the testbench must pass its own reference: {shown}");
            // A proof that runs out of fuel says so; it never calls the reference wrong.
            assert!(matches!(verdict.status, Status::Correct | Status::Timeout), "{shown}");
            if verdict.status == Status::Timeout {
                timeouts.push(shown);
            }
            continue;
        }
        match (verdict.status, passed) {
            (Status::Correct, false) => wrong.push(shown),
            (Status::Incorrect, true) => unseen.push(shown),
            (Status::Incorrect, false) => caught += 1,
            _ => {}
        }
    }
    let mutants = candidates.iter().filter(|c| c.1 != "canonical").count();
    eprintln!(
        "{} problems: {} canonical out of fuel before the proof ended; {mutants} mutants, {caught} refuted by both, {} by the proof only \
         (the testbench's stimulus misses them), {} equivalent for the proof yet failing the testbench",
        chosen.len(),
        timeouts.len(),
        unseen.len(),
        wrong.len()
    );
    for line in timeouts.iter().chain(&unseen) {
        eprintln!("  {line}");
    }
    assert!(wrong.is_empty(), "a proof passed a design its testbench refutes: {wrong:#?}");
    Ok(())
}
