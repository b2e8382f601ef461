//! HumanEval-X's C++ problems through the `code` verifier: the canonical solutions pass their test
//! programs. A test program is a `main` of `assert`s, so a program passes when it exits 0 with no
//! output (`tests: [{"stdin": "", "expected_stdout": ""}]`).

use referee_code::CodeInput;
use referee_core::Status;
use serde_json::{Value, json};

use super::common::{self, judge};

struct Problem {
    task_id: String,
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
    Ok(rows.into_iter().map(|[task_id, prompt, solution, test]| Problem { task_id, prompt, solution, test }).collect())
}

/// The program HumanEval-X's evaluation builds (missing helper includes, prompt, solution, test),
/// with C++17's `std::any` for Boost's (tasks 22 and 137).
fn program(problem: &Problem, solution: &str) -> String {
    let mut source: String =
        HELPER_INCLUDES.iter().filter(|h| !problem.prompt.contains(*h)).map(|h| format!("{h}\n")).collect();
    source.push_str(&format!("{}{solution}\n{}", problem.prompt, problem.test));
    source.replace("#include<boost/any.hpp>", "#include<any>").replace("boost::any", "std::any")
}

fn item(source: String, fuel: u64) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": "cpp",
        "program": source,
        "tests": [{"stdin": "", "expected_stdout": ""}],
        "options": {"fuel": fuel},
    }))?)
}

const FUEL: u64 = 20_000_000_000;

fn kept() -> anyhow::Result<Vec<Problem>> {
    let problems = problems()?;
    assert_eq!(problems.len(), 164);
    Ok(problems.into_iter().filter(|p| LEFT_OUT.iter().all(|(id, _)| *id != p.task_id)).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_cpp_solutions_pass() -> anyhow::Result<()> {
    let problems = kept()?;
    let items = problems.iter().map(|p| item(program(p, &p.solution), FUEL)).collect::<Result<_, _>>()?;
    let verdicts = judge(items).await;
    let failed: Vec<String> = problems
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| v.status != Status::Correct)
        .map(|(p, v)| format!("{}: {:?} {}", p.task_id, v.status, Value::Object(v.details.clone())))
        .collect();
    assert!(failed.is_empty(), "{} canonical solutions failed:\n{}", failed.len(), failed.join("\n"));
    Ok(())
}
