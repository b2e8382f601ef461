//! HumanEval-X's Go problems through the `code` verifier (`check` with the problem's testify
//! tests as the package's test file), every verdict checked against the same two files built
//! natively by the same Go toolchain (`go test`, for linux/amd64) and run: it passes when every
//! test passes. The programs: canonical solutions, and two mutants of a solution (it returns
//! the zero value first, its first operator is flipped).
//!
//! Every Go test binary is several megabytes of wasm, which the sandbox compiles afresh: CI
//! judges a slice (every eighth task's canonical solution and every eighth task's mutants);
//! `REFEREE_FULL_SUITES=1` judges all of them (docs/verifiers/code.md gives the full figures).
//!
//! The files are assembled as HumanEval-X's own harness (CodeGeeX's `evaluate_humaneval_x.py`)
//! assembles its single test file: the prompt without its `import` block, the solution, and an
//! import of each package of the harness's list that the code uses; here the program and the
//! test file (the problem's test set-up and tests) each import what they use.

use std::path::{Path, PathBuf};
use std::process::Command;

use referee_code::CodeInput;
use referee_core::{Status, Verdict};
use serde_json::json;

use super::common::{self, Candidate};

struct Problem {
    task_id: String,
    number: usize,
    /// The prompt without its import block: the docstring, helpers some problems define
    /// (`Poly` in Go/32) and the declaration.
    prompt: String,
    solution: String,
    test: String,
    entry_point: String,
}

/// Tasks whose canonical solution passes or fails by chance: left out of the agreement with
/// native runs, with the reason. The sandbox seeds a program's randomness, so its verdict on them
/// repeats; a native run's does not.
const BY_CHANCE: [(&str, &str); 1] = [(
    "Go/95",
    "the solution stops after the second key of a map, which Go iterates in a random order: \
     it passes natively in about 4 runs of 5",
)];

/// The packages HumanEval-X's harness imports when the code uses them (`IMPORT_HELPER["go"]`).
const IMPORT_HELPER: [&str; 10] =
    ["math", "strings", "fmt", "strconv", "time", "bytes", "regexp", "sort", "math/rand", "crypto/md5"];

/// An import block of the helper packages `code` uses that `present` does not import. The
/// harness looks for `name.` in the model's code; the program here also holds the prompt, whose
/// comments say things like "one at a time.", so a use is `name.` then an exported name, outside
/// a comment.
fn imports(code: &str, present: &str) -> String {
    let code: String =
        code.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    let uses = |name: &str| {
        code.match_indices(&format!("{name}.")).any(|(at, found)| {
            let before = code[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != '.');
            before && code[at + found.len()..].starts_with(|c: char| c.is_ascii_uppercase())
        })
    };
    let used: Vec<String> = IMPORT_HELPER
        .iter()
        .filter(|package| uses(package.rsplit('/').next().unwrap_or(package)))
        .filter(|package| !present.contains(&format!("\"{package}\"")))
        .map(|package| format!("    \"{package}\"\n"))
        .collect();
    if used.is_empty() { String::new() } else { format!("import (\n{})\n", used.concat()) }
}

fn problems() -> anyhow::Result<Vec<Problem>> {
    let fields = ["task_id", "prompt", "import", "declaration", "canonical_solution", "test_setup", "test"];
    let rows = common::jsonl_fields(include_str!("../data/humaneval-x-go.jsonl"), fields)?;
    assert_eq!(rows.len(), 164);
    rows.into_iter()
        .map(|[task_id, prompt, import, declaration, solution, test_setup, test]| {
            let number = task_id.trim_start_matches("Go/").parse()?;
            let entry_point = entry_point(&declaration).ok_or_else(|| anyhow::anyhow!("{task_id}: no entry point"))?;
            let prompt = prompt.replace(&import, "");
            let test = format!("{test_setup}\n{}\n{test}", imports(&test, &test_setup));
            Ok(Problem { task_id, number, prompt, solution, test, entry_point })
        })
        .collect()
}

/// The name of the function a declaration opens (`func Name(...) T {`).
fn entry_point(declaration: &str) -> Option<String> {
    let rest = declaration.rsplit_once("func ")?.1;
    let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!name.is_empty()).then_some(name)
}

/// The program of a candidate: the imports its code uses, the prompt and the solution. Its
/// package clause is left out, as the problems leave it out: the verifier puts a file without
/// one in package main.
fn program(problem: &Problem, solution: &str) -> String {
    let code = format!("{}{solution}", problem.prompt);
    format!("{}{code}", imports(&code, ""))
}

/// The mutants of a solution: the ways a wrong answer commonly looks. Go has no default value
/// expression for every type, so the first mutant panics before the solution runs.
fn mutants(solution: &str) -> Vec<(&'static str, String)> {
    let mut mutants = vec![("panics first", format!("    panic(\"not implemented\")\n{solution}"))];
    if let Some(flipped) = common::flip_first_operator(solution, &common::OPERATOR_FLIPS) {
        mutants.push(("operator flipped", flipped));
    }
    mutants
}

fn item(candidate: &Candidate<'_, Problem>) -> anyhow::Result<CodeInput> {
    let problem = candidate.problem;
    Ok(serde_json::from_value(json!({
        "language": "go",
        "program": program(problem, &candidate.solution),
        "check": {"program": problem.test, "entry_point": problem.entry_point},
    }))?)
}

/// The Go toolchain the sandbox compiles with, set up by scripts/build-runtimes.
fn go() -> PathBuf {
    common::runtimes_dir().join("go/goroot/bin/go")
}

/// The host's build cache of the native runs; it lasts across runs.
fn native_cache() -> PathBuf {
    std::env::temp_dir().join("referee-go-native-cache")
}

/// `go args...` for the host in `dir`, with the native build cache, under `timeout` when a
/// limit in seconds is given.
fn native_go(dir: &Path, args: &[&str], limit_secs: Option<u32>) -> Command {
    let mut command = match limit_secs {
        Some(limit) => {
            let mut command = Command::new("timeout");
            command.arg(limit.to_string()).arg(go());
            command
        }
        None => Command::new(go()),
    };
    command
        .args(args)
        .current_dir(dir)
        .env("GOOS", "linux")
        .env("GOARCH", "amd64")
        .env("GOCACHE", native_cache())
        .env("GOENV", "off")
        .env("GOPATH", std::env::temp_dir().join("referee-go-native-path"));
    command
}

/// Builds the standard library for the host once, before any native run is timed: on a fresh
/// machine that takes minutes, more than one run's time limit.
fn warm_native_cache(dir: &Path) -> anyhow::Result<()> {
    static WARM: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
    let mut warm = WARM.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !*warm {
        let output = native_go(dir, &["build", "std"], None).output()?;
        anyhow::ensure!(output.status.success(), "go build std: {}", String::from_utf8_lossy(&output.stderr));
        *warm = true;
    }
    Ok(())
}

/// Whether the program passes natively: the same two files in the same module, built by `go
/// test` for the host and run. A run that outlives its time limit is an error, not a failure.
fn native_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<(bool, String)> {
    warm_native_cache(dir)?;
    let module = dir.join(&candidate.name);
    std::fs::create_dir_all(&module)?;
    let home = common::runtimes_dir().join("go/module");
    std::fs::copy(home.join("go.mod"), module.join("go.mod"))?;
    std::os::unix::fs::symlink(home.join("vendor"), module.join("vendor"))?;
    std::fs::write(
        module.join("main.go"),
        format!("package main\n\n{}", program(candidate.problem, &candidate.solution)),
    )?;
    std::fs::write(module.join("main_test.go"), &candidate.problem.test)?;
    let output = native_go(&module, &["test", "-count=1", "-timeout=10s", "."], Some(300)).output()?;
    anyhow::ensure!(
        output.status.code() != Some(124),
        "{}: the native `go test` did not finish in 300 s",
        candidate.name
    );
    let said = String::from_utf8_lossy(&output.stdout).chars().take(300).collect();
    Ok((output.status.success(), said))
}

/// Judges `candidates` with Referee and natively: Referee's verdicts and every disagreement.
async fn compare(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<(Vec<Verdict>, Vec<String>)> {
    assert!(
        go().exists(),
        "the Go toolchain is required (scripts/setup-sandbox sets it up): this test compares the sandbox's verdicts with native runs"
    );
    common::compare_with_native(candidates, item, "native", native_passes).await
}

fn candidate<'a>(problem: &'a Problem, kind: &str, solution: String) -> Candidate<'a, Problem> {
    Candidate::new(problem, &problem.task_id, kind, solution)
}

/// Whether the whole suite is judged rather than CI's slice.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn canonical_go_solutions_pass_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems
        .iter()
        .filter(|p| common::full_suites() || p.number % 8 == 0)
        .map(|p| candidate(p, "canonical", p.solution.clone()))
        .collect();
    let (verdicts, disagreements) = compare(&candidates).await?;
    let disagreements: Vec<&String> =
        disagreements.iter().filter(|d| !BY_CHANCE.iter().any(|(id, _)| d.starts_with(&format!("{id} ")))).collect();
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{disagreements:#?}");
    let failed: Vec<&str> = candidates
        .iter()
        .zip(&verdicts)
        .filter(|(c, v)| v.status != Status::Correct && !BY_CHANCE.iter().any(|(id, _)| id == &c.task_id))
        .map(|(c, _)| c.task_id)
        .collect();
    assert!(failed.is_empty(), "canonical solutions that fail: {failed:?}");
    // A solution that passes by chance natively gets the same verdict every time here.
    let chance: Vec<_> = candidates.iter().filter(|c| BY_CHANCE.iter().any(|(id, _)| id == &c.task_id)).collect();
    if !chance.is_empty() {
        let items = chance.iter().map(|c| item(c)).collect::<anyhow::Result<Vec<_>>>()?;
        let again = common::judge(items.clone()).await;
        let first: Vec<_> = common::judge(items).await.iter().map(|v| v.status).collect();
        assert_eq!(first, again.iter().map(|v| v.status).collect::<Vec<_>>());
    }
    eprintln!("{} canonical solutions judged as they are natively", candidates.len());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutated_go_solutions_fail_as_they_do_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let candidates: Vec<_> = problems
        .iter()
        .filter(|p| if common::full_suites() { p.number % 2 == 0 } else { p.number % 8 == 2 })
        .flat_map(|p| mutants(&p.solution).into_iter().map(move |(kind, solution)| candidate(p, kind, solution)))
        .collect();
    let (verdicts, disagreements) = compare(&candidates).await?;
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{}", disagreements.join("\n"));
    common::assert_few_survivors(&candidates, &verdicts, "a native run");
    Ok(())
}
