//! HumanEval-X's C++ problems through the `code` verifier, every verdict checked against the same
//! program built natively by g++ (`-std=gnu++17 -O2`, with exceptions) and run: a test program is
//! a `main` of `assert`s, so a program passes when it exits 0 with no output (`tests: [{"stdin":
//! "", "expected_stdout": ""}]`), natively and in the sandbox. The programs: the canonical
//! solutions, and three mutants of a solution (it returns the default value first, it throws
//! first, its first operator is flipped).
//!
//! The native verdicts are recorded in `tests/data/native/humaneval-x-cpp.tsv`. The fast tier
//! judges a slice with Referee against them and runs no g++: the tasks whose number is a multiple
//! of sixteen, each with its mutants (10 canonical solutions, 29 mutants). The full tier (`scripts/test --full`) builds and
//! runs every program natively and compares the verdicts with the file, and judges every program
//! with Referee against it (docs/verifiers/code.md gives the figures).

use std::path::Path;
use std::process::Command;

use referee_code::CodeInput;
use referee_core::Status;
use serde_json::json;

use super::common::{self, Candidate, NativeRecord, NativeRun};

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
fn native_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<NativeRun> {
    let source = dir.join(format!("{}.cpp", candidate.name));
    let binary = dir.join(&candidate.name);
    std::fs::write(&source, program(candidate.problem, &candidate.solution))?;
    let built = Command::new("g++").args(["-std=gnu++17", "-O2", "-w", "-o"]).arg(&binary).arg(&source).output()?;
    if !built.status.success() {
        let error: String = String::from_utf8_lossy(&built.stderr).chars().take(300).collect();
        return Ok(NativeRun::verdict(false, format!("compile error: {error}")));
    }
    let output = Command::new("timeout").arg("10").arg(&binary).output()?;
    let passed = output.status.success() && output.stdout.is_empty();
    let said: String = String::from_utf8_lossy(&output.stderr).chars().take(300).collect();
    Ok(NativeRun::verdict(passed, said))
}

/// The record of the native verdicts.
const RECORD: NativeRecord = NativeRecord {
    name: "humaneval-x-cpp",
    about: "The native verdicts of HumanEval-X's C++ candidates (verifiers/code/tests/all/humaneval_x_cpp.rs):\n\
            each program built by g++ -std=gnu++17 -O2 and run; passed when it exits 0 with no output.",
    test: "humaneval_x_cpp::native_cpp_verdicts_are_as_recorded",
    peer: "a native run",
};

fn candidate<'a>(problem: &'a Problem, kind: &str, solution: String) -> Candidate<'a, Problem> {
    Candidate::new(problem, &problem.task_id, kind, solution)
}

/// Every program of the suite: each task's canonical solution and its mutants.
fn candidates(problems: &[Problem]) -> Vec<Candidate<'_, Problem>> {
    problems
        .iter()
        .flat_map(|p| {
            std::iter::once(candidate(p, "canonical", p.solution.clone()))
                .chain(mutants(&p.solution).into_iter().map(move |(kind, solution)| candidate(p, kind, solution)))
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
fn the_record_names_every_cpp_candidate() -> anyhow::Result<()> {
    RECORD.check_names_exactly(&candidates(&problems()?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cpp_candidates_of_the_slice_are_judged_as_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let slice: Vec<_> = candidates(&problems).into_iter().filter(in_slice).collect();
    judge_as_recorded(&slice).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "full tier (scripts/test --full): judges every candidate of the suite"]
async fn every_cpp_candidate_is_judged_as_natively() -> anyhow::Result<()> {
    judge_as_recorded(&candidates(&problems()?)).await
}

#[test]
#[ignore = "full tier (scripts/test --full): builds and runs every candidate natively with g++"]
fn native_cpp_verdicts_are_as_recorded() -> anyhow::Result<()> {
    let version = common::tool_version(Command::new("g++").arg("--version"))
        .map_err(|e| anyhow::anyhow!("g++ is required: this test compares native runs with the record ({e})"))?;
    // `g++ (Debian 12.2.0-14) 12.2.0`: the compiler and its version.
    let toolchain = format!("g++ {}", version.rsplit(' ').next().unwrap_or_default());
    RECORD.check_native(&candidates(&problems()?), &toolchain, native_passes, |_| false)
}
