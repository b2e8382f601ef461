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
use serde_json::{Value, json};

use super::common::{self, judge};

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
    const FLIPS: [(&str, &str); 8] = [
        (" <= ", " < "),
        (" >= ", " > "),
        (" < ", " <= "),
        (" > ", " >= "),
        (" == ", " != "),
        (" != ", " == "),
        (" + ", " - "),
        (" - ", " + "),
    ];
    let first = FLIPS.iter().filter_map(|(from, to)| solution.find(from).map(|at| (at, *from, *to))).min();
    if let Some((at, from, to)) = first {
        mutants.push(("operator flipped", format!("{}{to}{}", &solution[..at], &solution[at + from.len()..])));
    }
    mutants
}

fn item(problem: &Problem, solution: &str) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": "rust",
        "program": format!("{}{solution}", problem.declaration),
        "check": {"program": problem.test, "entry_point": problem.entry_point},
    }))?)
}

/// Whether the program passes natively: built by rustc with `--test` for the host and run.
fn native_passes(dir: &Path, name: &str, problem: &Problem, solution: &str) -> anyhow::Result<(bool, String)> {
    let source = dir.join(format!("{name}.rs"));
    let binary = dir.join(name);
    std::fs::write(&source, format!("{}{solution}\n{}\n", problem.declaration, problem.test))?;
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

/// Debian's rustc, the compiler the sandbox uses (rustup's proxy may come first on `PATH`).
const RUSTC: &str = "/usr/bin/rustc";

/// The native verdicts on `programs`, on two threads.
fn native_verdicts(programs: &[(&Problem, String, String)]) -> anyhow::Result<Vec<(bool, String)>> {
    let dir = tempfile::tempdir()?;
    let half = programs.len().div_ceil(2);
    std::thread::scope(|scope| {
        let workers: Vec<_> = programs
            .chunks(half.max(1))
            .map(|chunk| {
                let dir = dir.path();
                scope.spawn(move || {
                    chunk.iter().map(|(problem, name, solution)| native_passes(dir, name, problem, solution)).collect()
                })
            })
            .collect();
        let mut verdicts = Vec::with_capacity(programs.len());
        for worker in workers {
            let chunk: anyhow::Result<Vec<_>> =
                worker.join().map_err(|_| anyhow::anyhow!("a rustc worker panicked"))?;
            verdicts.extend(chunk?);
        }
        Ok(verdicts)
    })
}

/// Judges `programs` with Referee and natively; returns Referee's verdicts and every
/// disagreement.
async fn compare(programs: &[(&Problem, String, String)]) -> anyhow::Result<(Vec<Verdict>, Vec<String>)> {
    assert!(
        Path::new(RUSTC).exists(),
        "Debian's rustc is required (scripts/setup-sandbox installs it): this test compares the sandbox's verdicts with native runs"
    );
    let items = programs.iter().map(|(problem, _, solution)| item(problem, solution)).collect::<Result<_, _>>()?;
    let verdicts = judge(items).await;
    let native = native_verdicts(programs)?;
    let mut disagreements = Vec::new();
    for (((problem, name, _), verdict), (native_passed, native_said)) in programs.iter().zip(&verdicts).zip(&native) {
        assert_ne!(verdict.status, Status::InternalError, "{name}: {}", Value::Object(verdict.details.clone()));
        if (verdict.status == Status::Correct) != *native_passed {
            disagreements.push(format!(
                "{} ({name}): Referee {:?} {}; native {} {native_said}",
                problem.task_id,
                verdict.status,
                Value::Object(verdict.details.clone()),
                if *native_passed { "passed" } else { "failed" },
            ));
        }
    }
    Ok((verdicts, disagreements))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_rust_solutions_pass_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let programs: Vec<_> = problems
        .iter()
        .map(|p| (p, format!("{}-canonical", p.task_id.replace('/', "-")), p.solution.clone()))
        .collect();
    let (verdicts, disagreements) = compare(&programs).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    let failed: Vec<&str> = programs
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| v.status != Status::Correct)
        .map(|((p, ..), _)| p.task_id.as_str())
        .collect();
    assert!(failed.is_empty(), "canonical solutions that fail: {failed:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_rust_solutions_fail_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let programs: Vec<_> = problems
        .iter()
        .filter(|p| p.task_id.ends_with(['0', '2', '4', '6', '8']))
        .flat_map(|p| {
            mutants(&p.solution).into_iter().map(move |(kind, solution)| {
                (p, format!("{}-{}", p.task_id.replace('/', "-"), kind.replace(' ', "-")), solution)
            })
        })
        .collect();
    let (verdicts, disagreements) = compare(&programs).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    // Mutants that still pass are equivalent to the solution as far as the tests can tell: they
    // pass natively too (checked above). They are few.
    let survivors: Vec<&str> = programs
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| v.status == Status::Correct)
        .map(|((_, name, _), _)| name.as_str())
        .collect();
    assert!(
        survivors.len() * 10 <= programs.len(),
        "{} of {} mutants pass: {survivors:?}",
        survivors.len(),
        programs.len()
    );
    eprintln!(
        "{} of {} mutants fail; passing natively too: {survivors:?}",
        programs.len() - survivors.len(),
        programs.len()
    );
    Ok(())
}
