//! HumanEval-X's Rust problems through the `code` verifier (`check` with the problem's
//! `#[cfg(test)]` module), every verdict checked against the same source built natively by the
//! same rustc (`rustc --test`, as `cargo test` builds it) and run: it passes when every test
//! passes. The programs: the canonical solutions, and two mutants of the solution of every
//! even-numbered task (it returns `Default::default()` first, its first operator is flipped).
//!
//! The native verdicts are recorded in `tests/data/native/humaneval-x-rust.tsv`. The fast tier
//! judges a slice with Referee against them and runs no native rustc: the tasks whose number is a
//! multiple of sixteen, each with its mutants (11 canonical solutions, 21 mutants). The full tier
//! (`scripts/test --full`) builds and runs every program natively and compares the verdicts with
//! the file, and judges every program with Referee against it.
//!
//! HumanEval-X's declarations import three crates (`rand`, `regex`, `md5`) that its own harness
//! builds with cargo; Referee's Rust has the standard library only, so those `use` lines are
//! dropped here, and the five tasks whose solutions or tests need a crate are left out.

use std::path::Path;
use std::process::Command;

use referee_code::CodeInput;
use referee_core::Status;
use serde_json::json;

use super::common::{self, Candidate, NativeRecord, NativeRun};

struct Problem {
    task_id: String,
    number: usize,
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
            let number = task_id.trim_start_matches("Rust/").parse()?;
            Ok(Problem { task_id, number, declaration, solution, test, entry_point })
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
fn native_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<NativeRun> {
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
        return Ok(NativeRun::verdict(
            false,
            String::from_utf8_lossy(&built.stderr).chars().take(300).collect::<String>(),
        ));
    }
    // Infinite-loop mutants stop at the timeout, as they stop at their fuel in the sandbox.
    let output = Command::new("timeout").arg("10").arg(&binary).output()?;
    let said: String = String::from_utf8_lossy(&output.stdout).chars().take(300).collect();
    Ok(NativeRun::verdict(output.status.success(), said))
}

/// The record of the native verdicts.
const RECORD: NativeRecord = NativeRecord {
    name: "humaneval-x-rust",
    about: "The native verdicts of HumanEval-X's Rust candidates (verifiers/code/tests/all/humaneval_x_rust.rs):\n\
            each program built by Debian's rustc with `--test` for the host and run; passed when every test passes.",
    test: "humaneval_x_rust::native_rust_verdicts_are_as_recorded",
    peer: "a native run",
};

fn candidate<'a>(problem: &'a Problem, kind: &str, solution: String) -> Candidate<'a, Problem> {
    Candidate::new(problem, &problem.task_id, kind, solution)
}

/// Every program of the suite: each task's canonical solution, then the mutants of every
/// even-numbered task.
fn candidates(problems: &[Problem]) -> Vec<Candidate<'_, Problem>> {
    problems
        .iter()
        .flat_map(|p| {
            let mutants = if p.number % 2 == 0 { mutants(&p.solution) } else { Vec::new() };
            std::iter::once(candidate(p, "canonical", p.solution.clone()))
                .chain(mutants.into_iter().map(move |(kind, solution)| candidate(p, kind, solution)))
        })
        .collect()
}

/// The fast tier's slice: the tasks whose number is a multiple of sixteen.
fn in_slice(candidate: &Candidate<'_, Problem>) -> bool {
    candidate.problem.number.is_multiple_of(16)
}

/// Judges `candidates` with Referee against the recorded native verdicts: every verdict agrees,
/// every canonical solution passes, and at most a tenth of the mutants pass.
async fn judge_as_recorded(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<()> {
    let (verdicts, _, disagreements) = RECORD.judge(candidates, item).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    let failed: Vec<&str> = candidates
        .iter()
        .zip(&verdicts)
        .filter(|(c, v)| c.is_canonical() && v.status != Status::Correct)
        .map(|(c, _)| c.task_id)
        .collect();
    assert!(failed.is_empty(), "canonical solutions that fail: {failed:?}");
    common::assert_few_survivors(candidates, &verdicts, "a native run");
    Ok(())
}

#[test]
fn the_record_names_every_rust_candidate() -> anyhow::Result<()> {
    RECORD.check_names_exactly(&candidates(&problems()?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_candidates_of_the_slice_are_judged_as_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let slice: Vec<_> = candidates(&problems).into_iter().filter(in_slice).collect();
    judge_as_recorded(&slice).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "full tier (scripts/test --full): judges every candidate of the suite"]
async fn every_rust_candidate_is_judged_as_natively() -> anyhow::Result<()> {
    judge_as_recorded(&candidates(&problems()?)).await
}

#[test]
#[ignore = "full tier (scripts/test --full): builds and runs every candidate natively with rustc"]
fn native_rust_verdicts_are_as_recorded() -> anyhow::Result<()> {
    anyhow::ensure!(
        Path::new(RUSTC).exists(),
        "Debian's rustc is required (scripts/setup-sandbox installs it): this test compares native runs with the record"
    );
    let toolchain = common::tool_version(Command::new(RUSTC).arg("--version"))?;
    RECORD.check_native(&candidates(&problems()?), &toolchain, native_passes, |_| false)
}
