//! HumanEval-X's C++ problems through the `code` verifier, every verdict checked against the same
//! program built natively by g++ (`-std=gnu++17 -O2`, with exceptions) and run: a test program is
//! a `main` of `assert`s, so a program passes when it exits 0 with no output (`tests: [{"stdin":
//! "", "expected_stdout": ""}]`), natively and in the sandbox. The programs: the canonical
//! solutions, and three mutants of a solution (it returns the default value first, it throws
//! first, its first operator is flipped).
//!
//! Every canonical solution is judged in the sandbox; the native agreement covers a slice in CI
//! (every eighth task's canonical solution, the mutants of every fourth task), and
//! `REFEREE_FULL_SUITES=1` extends it to all of them (docs/verifiers/code.md gives the figures).

use std::path::Path;
use std::process::Command;

use referee_code::CodeInput;
use referee_core::{Status, Verdict};
use serde_json::{Value, json};

use super::common::{self, Candidate, judge};

struct Problem {
    task_id: String,
    number: usize,
    prompt: String,
    solution: String,
    test: String,
}

/// Tasks left out, with the reason: neither runs in any `wasm32-wasi` sandbox.
const LEFT_OUT: [(&str, &str); 2] = [
    // The test builds random polynomials with an unseeded `rand()` and loops forever on
    // wasi-libc's sequence (it does natively with musl's too).
    ("CPP/32", "depends on glibc's rand() sequence"),
    ("CPP/162", "needs OpenSSL's MD5"),
];

/// The includes that HumanEval-X's own evaluation adds when a prompt lacks them.
const HELPER_INCLUDES: [&str; 9] = [
    "#include<stdlib.h>",
    "#include<algorithm>",
    "#include<math.h>",
    "#include<stdio.h>",
    "#include<vector>",
    "#include<string>",
    "#include<climits>",
    "#include<cstring>",
    "#include<iostream>",
];

fn problems() -> anyhow::Result<Vec<Problem>> {
    let fields = ["task_id", "prompt", "canonical_solution", "test"];
    let rows = common::jsonl_fields(include_str!("../data/humaneval-x-cpp.jsonl"), fields)?;
    assert_eq!(rows.len(), 164);
    rows.into_iter()
        .filter(|[task_id, ..]| LEFT_OUT.iter().all(|(id, _)| id != task_id))
        .map(|[task_id, prompt, solution, test]| {
            let number = task_id.rsplit_once('/').and_then(|(_, n)| n.parse().ok()).unwrap_or(0);
            Ok(Problem { task_id, number, prompt, solution, test })
        })
        .collect()
}

/// The program HumanEval-X's evaluation builds (missing helper includes, prompt, solution, test),
/// with C++17's `std::any` for Boost's (tasks 22 and 137).
fn program(problem: &Problem, solution: &str) -> String {
    let mut source: String =
        HELPER_INCLUDES.iter().filter(|h| !problem.prompt.contains(*h)).map(|h| format!("{h}\n")).collect();
    source.push_str(&format!("{}{solution}\n{}", problem.prompt, problem.test));
    source.replace("#include<boost/any.hpp>", "#include<any>").replace("boost::any", "std::any")
}

/// The operator flips of the C++ mutants: HumanEval-X's C++ solutions mostly write comparisons
/// without spaces (`i<=n`), and a bare `<` or `>` would also match templates (`vector<int>`), so
/// the comparisons of two characters count as they are, the others only between spaces.
const FLIPS: [(&str, &str); 8] = [
    ("<=", "<"),
    (">=", ">"),
    ("==", "!="),
    ("!=", "=="),
    (" < ", " <= "),
    (" > ", " >= "),
    (" + ", " - "),
    (" - ", " + "),
];

/// The mutants of a solution: the ways a wrong answer commonly looks. A solution is the body of
/// the function the prompt opens, so a statement put first runs before it.
fn mutants(solution: &str) -> Vec<(&'static str, String)> {
    let mut mutants = vec![
        ("returns default", format!("    return {{}};\n{solution}")),
        ("throws", format!("    throw \"mutant\";\n{solution}")),
    ];
    if let Some(flipped) = common::flip_first_operator(solution, &FLIPS) {
        mutants.push(("operator flipped", flipped));
    }
    mutants
}

const FUEL: u64 = 20_000_000_000;

fn item(candidate: &Candidate<'_, Problem>) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": "cpp",
        "program": program(candidate.problem, &candidate.solution),
        "tests": [{"stdin": "", "expected_stdout": ""}],
        "options": {"fuel": FUEL},
    }))?)
}

/// Whether the program passes natively: built by g++ and run (10 s at most, as its fuel bounds
/// it in the sandbox); a program that does not compile fails, as it does in the sandbox.
fn native_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<(bool, String)> {
    let source = dir.join(format!("{}.cpp", candidate.name));
    let binary = dir.join(&candidate.name);
    std::fs::write(&source, program(candidate.problem, &candidate.solution))?;
    let built = Command::new("g++").args(["-std=gnu++17", "-O2", "-w", "-o"]).arg(&binary).arg(&source).output()?;
    if !built.status.success() {
        return Ok((
            false,
            format!("compile error: {}", String::from_utf8_lossy(&built.stderr).chars().take(300).collect::<String>()),
        ));
    }
    let output = Command::new("timeout").arg("10").arg(&binary).output()?;
    let passed = output.status.success() && output.stdout.is_empty();
    let said = String::from_utf8_lossy(&output.stderr).chars().take(300).collect();
    Ok((passed, said))
}

/// Judges `candidates` with Referee and natively: Referee's verdicts and every disagreement.
async fn compare(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<(Vec<Verdict>, Vec<String>)> {
    let gxx = Command::new("g++").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(gxx, "g++ is required: this test compares the sandbox's verdicts with native runs");
    common::compare_with_native(candidates, item, "g++", native_passes).await
}

fn candidate<'a>(problem: &'a Problem, kind: &str, solution: String) -> Candidate<'a, Problem> {
    Candidate::new(problem, &problem.task_id, kind, solution)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_cpp_solutions_pass() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems.iter().map(|p| candidate(p, "canonical", p.solution.clone())).collect();
    let items = candidates.iter().map(item).collect::<Result<_, _>>()?;
    let verdicts = judge(items).await;
    let failed: Vec<String> = candidates
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| v.status != Status::Correct)
        .map(|(c, v)| format!("{}: {:?} {}", c.task_id, v.status, Value::Object(v.details.clone())))
        .collect();
    assert!(failed.is_empty(), "{} canonical solutions failed:\n{}", failed.len(), failed.join("\n"));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_cpp_solutions_pass_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems
        .iter()
        .filter(|p| common::full_suites() || p.number % 8 == 0)
        .map(|p| candidate(p, "canonical", p.solution.clone()))
        .collect();
    let (_, disagreements) = compare(&candidates).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    eprintln!("{} canonical solutions judged as they are natively", candidates.len());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_cpp_solutions_fail_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems
        .iter()
        .filter(|p| common::full_suites() || p.number % 4 == 1)
        .flat_map(|p| mutants(&p.solution).into_iter().map(move |(kind, solution)| candidate(p, kind, solution)))
        .collect();
    let (verdicts, disagreements) = compare(&candidates).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    common::assert_few_survivors(&candidates, &verdicts, "a native run");
    Ok(())
}
