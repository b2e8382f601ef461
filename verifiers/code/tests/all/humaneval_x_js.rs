//! HumanEval-X's JavaScript problems through the `code` verifier, every verdict checked against
//! Node.js running the same program as HumanEval-X's own evaluation does (`node test.js` on the
//! prompt, the solution and the test program; it passes when it writes nothing to standard error
//! or standard output). The programs: the canonical solutions, and three mutants of each (it
//! returns `undefined` first, it throws first, its first operator is flipped).
//!
//! Node.js's verdicts are recorded in `tests/data/native/humaneval-x-js.tsv`. The fast tier
//! judges a slice with Referee against them and runs no Node.js: the tasks whose number is a
//! multiple of eight, each with its mutants (21 canonical solutions, 61 mutants). The full tier (`scripts/test --full`)
//! runs every program under Node.js and compares the verdicts with the file, and judges every
//! program with Referee against it.

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
    entry_point: String,
}

/// Tasks left out, with the reason.
const LEFT_OUT: [(&str, &str); 1] = [("JavaScript/162", "needs the npm package js-md5")];

fn problems() -> anyhow::Result<Vec<Problem>> {
    let fields = ["task_id", "prompt", "canonical_solution", "test", "declaration"];
    let rows = common::jsonl_fields(include_str!("../data/humaneval-x-js.jsonl"), fields)?;
    assert_eq!(rows.len(), 164);
    rows.into_iter()
        .filter(|[task_id, ..]| LEFT_OUT.iter().all(|(id, _)| id != task_id))
        .map(|[task_id, prompt, solution, test, declaration]| {
            let entry_point = entry_point(&declaration).ok_or_else(|| anyhow::anyhow!("{task_id}: no entry point"))?;
            let number = task_id.trim_start_matches("JavaScript/").parse()?;
            Ok(Problem { task_id, number, prompt, solution, test, entry_point })
        })
        .collect()
}

/// The name a declaration (`const name = (...) => {`) binds.
fn entry_point(declaration: &str) -> Option<String> {
    let rest = declaration.split_once("const ")?.1;
    let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

/// The mutants of a solution: the ways a wrong answer commonly looks.
fn mutants(solution: &str) -> Vec<(&'static str, String)> {
    let mut mutants = vec![
        ("returns undefined", format!("return undefined;\n{solution}")),
        ("throws", format!("throw new Error('mutant');\n{solution}")),
    ];
    const FLIPS: [(&str, &str); 10] = [
        (" <= ", " < "),
        (" >= ", " > "),
        (" < ", " <= "),
        (" > ", " >= "),
        (" === ", " !== "),
        (" !== ", " === "),
        (" == ", " != "),
        (" != ", " == "),
        (" + ", " - "),
        (" - ", " + "),
    ];
    if let Some(flipped) = common::flip_first_operator(solution, &FLIPS) {
        mutants.push(("operator flipped", flipped));
    }
    mutants
}

fn item(candidate: &Candidate<'_, Problem>) -> anyhow::Result<CodeInput> {
    let problem = candidate.problem;
    Ok(serde_json::from_value(json!({
        "language": "javascript",
        "program": format!("{}{}", problem.prompt, candidate.solution),
        "check": {"program": problem.test, "entry_point": problem.entry_point},
    }))?)
}

/// Whether Node.js passes the program HumanEval-X's evaluation builds, and what it wrote.
fn node_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<NativeRun> {
    let path = dir.join(format!("{}.js", candidate.name));
    let problem = candidate.problem;
    std::fs::write(&path, format!("{}{}\n{}", problem.prompt, candidate.solution, problem.test))?;
    // Infinite-loop mutants stop at the timeout, as they stop at their fuel in the sandbox.
    let output = Command::new("timeout").arg("10").arg("node").arg(&path).output()?;
    let passed = output.status.success() && output.stderr.is_empty() && output.stdout.is_empty();
    let said: String = String::from_utf8_lossy(&output.stderr).chars().take(300).collect();
    Ok(NativeRun::verdict(passed, said))
}

/// The record of Node.js's verdicts.
const RECORD: NativeRecord = NativeRecord {
    name: "humaneval-x-js",
    about: "Node.js's verdicts on HumanEval-X's JavaScript candidates (verifiers/code/tests/all/humaneval_x_js.rs):\n\
            `node test.js` on the prompt, the program and the test; passed when it writes nothing and exits 0.",
    test: "humaneval_x_js::node_verdicts_are_as_recorded",
    peer: "Node.js",
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

/// The fast tier's slice: the tasks whose number is a multiple of eight.
fn in_slice(candidate: &Candidate<'_, Problem>) -> bool {
    candidate.problem.number.is_multiple_of(8)
}

/// Two canonical solutions are wrong under Node.js too (at the pinned commit); every other one
/// passes.
const WRONG_CANONICAL: [&str; 2] = ["JavaScript/112", "JavaScript/155"];

/// Judges `candidates` with Referee against Node.js's recorded verdicts: every verdict agrees,
/// every canonical solution but the two wrong ones passes, and at most a tenth of the mutants
/// pass.
async fn judge_as_recorded(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<()> {
    let (verdicts, _, disagreements) = RECORD.judge(candidates, item).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from Node.js's:\n{}", disagreements.join("\n"));
    let failed: Vec<&str> = candidates
        .iter()
        .zip(&verdicts)
        .filter(|(c, v)| c.is_canonical() && v.status != Status::Correct && !WRONG_CANONICAL.contains(&c.task_id))
        .map(|(c, _)| c.task_id)
        .collect();
    assert!(failed.is_empty(), "canonical solutions that fail: {failed:?}");
    common::assert_few_survivors(candidates, &verdicts, "Node.js");
    Ok(())
}

#[test]
fn the_record_names_every_javascript_candidate() -> anyhow::Result<()> {
    RECORD.check_names_exactly(&candidates(&problems()?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_candidates_of_the_slice_are_judged_as_under_node() -> anyhow::Result<()> {
    let problems = problems()?;
    let slice: Vec<_> = candidates(&problems).into_iter().filter(in_slice).collect();
    judge_as_recorded(&slice).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "full tier (scripts/test --full): judges every candidate of the suite"]
async fn every_javascript_candidate_is_judged_as_under_node() -> anyhow::Result<()> {
    judge_as_recorded(&candidates(&problems()?)).await
}

#[test]
#[ignore = "full tier (scripts/test --full): runs every candidate under Node.js"]
fn node_verdicts_are_as_recorded() -> anyhow::Result<()> {
    let toolchain = common::tool_version(Command::new("node").arg("--version")).map_err(|e| {
        anyhow::anyhow!("node is required: this test compares Node.js's verdicts with the record ({e})")
    })?;
    RECORD.check_native(&candidates(&problems()?), &format!("node {toolchain}"), node_passes, |_| false)
}
