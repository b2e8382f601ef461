//! HumanEval-X's JavaScript problems through the `code` verifier, every verdict checked against
//! Node.js running the same program as HumanEval-X's own evaluation does (`node test.js` on the
//! prompt, the solution and the test program; it passes when it writes nothing to standard error
//! or standard output). The programs: the canonical solutions, and three mutants of each (it
//! returns `undefined` first, it throws first, its first operator is flipped).

use std::path::Path;
use std::process::Command;

use referee_code::CodeInput;
use referee_core::{Status, Verdict};
use serde_json::json;

use super::common::{self, Candidate};

struct Problem {
    task_id: String,
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
            Ok(Problem { task_id, prompt, solution, test, entry_point })
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
fn node_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<(bool, String)> {
    let path = dir.join(format!("{}.js", candidate.name));
    let problem = candidate.problem;
    std::fs::write(&path, format!("{}{}\n{}", problem.prompt, candidate.solution, problem.test))?;
    // Infinite-loop mutants stop at the timeout, as they stop at their fuel in the sandbox.
    let output = Command::new("timeout").arg("10").arg("node").arg(&path).output()?;
    let passed = output.status.success() && output.stderr.is_empty() && output.stdout.is_empty();
    let said = String::from_utf8_lossy(&output.stderr).chars().take(300).collect();
    Ok((passed, said))
}

/// Judges `candidates` with Referee and with Node.js: Referee's verdicts and every disagreement.
async fn compare(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<(Vec<Verdict>, Vec<String>)> {
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    assert!(node, "node is required: this test compares the sandbox's verdicts with Node.js's");
    common::compare_with_native(candidates, item, "node", node_passes).await
}

fn candidate<'a>(problem: &'a Problem, kind: &str, solution: String) -> Candidate<'a, Problem> {
    Candidate::new(problem, &problem.task_id, kind, solution)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_javascript_solutions_pass_as_they_do_under_node() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems.iter().map(|p| candidate(p, "canonical", p.solution.clone())).collect();
    let (verdicts, disagreements) = compare(&candidates).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from Node.js's:\n{}", disagreements.join("\n"));
    // Two canonical solutions are wrong under Node.js too (JavaScript/112 and /155 at the pinned
    // commit); every other one passes.
    let passed = verdicts.iter().filter(|v| v.status == Status::Correct).count();
    assert!(passed >= problems.len() - 2, "{passed} of {} passed", problems.len());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_javascript_solutions_fail_as_they_do_under_node() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems
        .iter()
        .flat_map(|p| mutants(&p.solution).into_iter().map(move |(kind, solution)| candidate(p, kind, solution)))
        .collect();
    let (verdicts, disagreements) = compare(&candidates).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from Node.js's:\n{}", disagreements.join("\n"));
    common::assert_few_survivors(&candidates, &verdicts, "Node.js");
    Ok(())
}
