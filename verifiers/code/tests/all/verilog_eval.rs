//! VerilogEval v2's spec-to-RTL problems (NVlabs/verilog-eval, MIT; `../data/verilog-eval.jsonl`),
//! their mutants and Icarus Verilog running a problem's own testbench: shared by the `verilog`
//! suite and `bench/src/verilog_bench.rs` (which includes this file).

use std::path::Path;
use std::process::Command;

/// One VerilogEval problem.
pub struct Problem {
    pub task_id: String,
    pub reference: String,
    pub testbench: String,
}

/// All 156 problems.
pub fn problems() -> anyhow::Result<Vec<Problem>> {
    let text = include_str!("../data/verilog-eval.jsonl");
    let mut problems = Vec::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let row: serde_json::Value = serde_json::from_str(line)?;
        let field = |name: &str| {
            row[name].as_str().map(str::to_owned).ok_or_else(|| anyhow::anyhow!("a problem without `{name}`"))
        };
        problems.push(Problem {
            task_id: field("task_id")?,
            reference: field("reference")?,
            testbench: field("testbench")?,
        });
    }
    anyhow::ensure!(problems.len() == 156, "{} problems instead of 156", problems.len());
    Ok(problems)
}

/// The operators and one-bit constants a flipped mutant changes: the first of them after the
/// port list.
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
pub fn as_candidate(reference: &str) -> String {
    reference.replace("module RefModule", "module TopModule")
}

/// Where the module's body starts: after its port list.
fn body_start(reference: &str) -> usize {
    reference.find(");").map_or(0, |at| at + 2)
}

/// The reference with its first operator or constant after the port list flipped.
pub fn flipped(reference: &str) -> Option<String> {
    let body = body_start(reference);
    let (at, from, to) =
        FLIPS.iter().filter_map(|(from, to)| reference[body..].find(from).map(|at| (body + at, *from, *to))).min()?;
    Some(as_candidate(&format!("{}{to}{}", &reference[..at], &reference[at + from.len()..])))
}

/// The reference with the value of its first one-line assignment (`assign x = e;` or
/// `x <= e;`) inverted.
pub fn negated(reference: &str) -> Option<String> {
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

/// Runs the problem's testbench under Icarus Verilog (`iverilog -g2012`, then `vvp`) with
/// `candidate` as `TopModule`, in a folder `name` under `dir`: whether it reports no mismatch,
/// and what it said.
pub fn icarus(dir: &Path, name: &str, problem: &Problem, candidate: &str) -> anyhow::Result<(bool, String)> {
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
        let said = String::from_utf8_lossy(&built.stderr).lines().next().unwrap_or("").to_owned();
        return Ok((false, format!("iverilog: {said}")));
    }
    let run = Command::new("timeout").args(["60", "vvp", "-n", "sim"]).current_dir(&dir).output()?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let summary = stdout.lines().find(|l| l.contains("Mismatches:")).unwrap_or("no summary").trim().to_owned();
    Ok((summary.starts_with("Mismatches: 0 in"), summary))
}
