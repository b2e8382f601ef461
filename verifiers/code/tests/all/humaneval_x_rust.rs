//! HumanEval-X's Rust problems through the `code` verifier (`check` with the problem's
//! `#[cfg(test)]` module), every verdict checked against the same source built natively by the
//! same rustc (`rustc --test`, as `cargo test` builds it) and run: it passes when every test
//! passes. The programs: the canonical solutions, and two mutants of the solution of every
//! second task (it returns `Default::default()` first, its first operator is flipped): every
//! program is compiled twice, and compiling is most of this test's time.
//!
//! HumanEval-X's declarations import three crates (`rand`, `regex`, `md5`) that its own harness
//! builds with cargo; Referee's Rust has the standard library only, so those `use` lines are
//! dropped here, and the five tasks whose solutions or tests need a crate are left out.

use std::path::Path;
use std::process::Command;

use referee_code::CodeInput;
use referee_core::{Status, Verdict};
use serde_json::json;

use super::common::{self, Candidate};

struct Problem {
    task_id: String,
    declaration: String,
    solution: String,
    test: String,
    entry_point: String,
}

/// Tasks left out, with the reason.
const LEFT_OUT: [(&str, &str); 5] = [
    ("Rust/38", "its test needs the crate rand"),
    ("Rust/50", "its test needs the crate rand"),
    ("Rust/53", "its test needs the crate rand"),
    ("Rust/91", "its solution needs the crate regex"),
    ("Rust/162", "its solution needs the crate md5"),
];

/// The imports of crates HumanEval-X's harness provides and Referee does not.
const CRATE_IMPORTS: [&str; 3] = ["use rand::Rng;", "use regex::Regex;", "use md5;"];

fn problems() -> anyhow::Result<Vec<Problem>> {
    let fields = ["task_id", "declaration", "canonical_solution", "test"];
    let rows = common::jsonl_fields(include_str!("../data/humaneval-x-rust.jsonl"), fields)?;
    assert_eq!(rows.len(), 164);
    rows.into_iter()
        .filter(|[task_id, ..]| LEFT_OUT.iter().all(|(id, _)| id != task_id))
        .map(|[task_id, declaration, solution, test]| {
            let declaration: String = declaration
                .lines()
                .filter(|line| !CRATE_IMPORTS.contains(&line.trim()))
                .map(|line| format!("{line}\n"))
                .collect();
            let entry_point = entry_point(&declaration).ok_or_else(|| anyhow::anyhow!("{task_id}: no entry point"))?;
            Ok(Problem { task_id, declaration, solution, test, entry_point })
        })
        .collect()
}

/// The name of the last function a declaration opens (`fn name(...) -> T{`).
fn entry_point(declaration: &str) -> Option<String> {
    let rest = declaration.rsplit_once("fn ")?.1;
    let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

/// The mutants of a solution: the ways a wrong answer commonly looks.
fn mutants(solution: &str) -> Vec<(&'static str, String)> {
    let mut mutants = vec![("returns the default", format!("return Default::default();\n{solution}"))];
    if let Some(flipped) = common::flip_first_operator(solution, &common::OPERATOR_FLIPS) {
        mutants.push(("operator flipped", flipped));
    }
    mutants
}

fn item(candidate: &Candidate<'_, Problem>) -> anyhow::Result<CodeInput> {
    let problem = candidate.problem;
    Ok(serde_json::from_value(json!({
        "language": "rust",
        "program": format!("{}{}", problem.declaration, candidate.solution),
        "check": {"program": problem.test, "entry_point": problem.entry_point},
    }))?)
}

/// Debian's rustc, the compiler the sandbox uses (rustup's proxy may come first on `PATH`).
const RUSTC: &str = "/usr/bin/rustc";

/// Whether the program passes natively: built by rustc with `--test` for the host and run.
fn native_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<(bool, String)> {
    let source = dir.join(format!("{}.rs", candidate.name));
    let binary = dir.join(&candidate.name);
    let problem = candidate.problem;
    std::fs::write(&source, format!("{}{}\n{}\n", problem.declaration, candidate.solution, problem.test))?;
    let built = Command::new(RUSTC)
        .args(["--edition=2021", "--cap-lints=allow", "--test", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()?;
    if !built.status.success() {
        return Ok((false, String::from_utf8_lossy(&built.stderr).chars().take(300).collect()));
    }
    // Infinite-loop mutants stop at the timeout, as they stop at their fuel in the sandbox.
    let output = Command::new("timeout").arg("10").arg(&binary).output()?;
    let said = String::from_utf8_lossy(&output.stdout).chars().take(300).collect();
    Ok((output.status.success(), said))
}

/// Judges `candidates` with Referee and natively: Referee's verdicts and every disagreement.
async fn compare(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<(Vec<Verdict>, Vec<String>)> {
    assert!(
        Path::new(RUSTC).exists(),
        "Debian's rustc is required (scripts/setup-sandbox installs it): this test compares the sandbox's verdicts with native runs"
    );
    common::compare_with_native(candidates, item, "native", native_passes).await
}

fn candidate<'a>(problem: &'a Problem, kind: &str, solution: String) -> Candidate<'a, Problem> {
    Candidate::new(problem, &problem.task_id, kind, solution)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_rust_solutions_pass_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems.iter().map(|p| candidate(p, "canonical", p.solution.clone())).collect();
    let (verdicts, disagreements) = compare(&candidates).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    let failed: Vec<&str> =
        candidates.iter().zip(&verdicts).filter(|(_, v)| v.status != Status::Correct).map(|(c, _)| c.task_id).collect();
    assert!(failed.is_empty(), "canonical solutions that fail: {failed:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_rust_solutions_fail_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems
        .iter()
        .filter(|p| p.task_id.ends_with(['0', '2', '4', '6', '8']))
        .flat_map(|p| mutants(&p.solution).into_iter().map(move |(kind, solution)| candidate(p, kind, solution)))
        .collect();
    let (verdicts, disagreements) = compare(&candidates).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    common::assert_few_survivors(&candidates, &verdicts, "a native run");
    Ok(())
}
