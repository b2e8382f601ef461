//! HumanEval-X's Go problems through the `code` verifier (`check` with the problem's testify
//! tests as the package's test file), every verdict checked against the same two files built
//! natively by the same Go toolchain (`go test`, for linux/amd64) and run: it passes when every
//! test passes. The programs: the canonical solutions, and two mutants of the solution of every
//! even-numbered task (it panics first, its first operator is flipped).
//!
//! The native verdicts are recorded in `tests/data/native/humaneval-x-go.tsv`. Every Go test
//! binary is several megabytes of wasm for the sandbox to compile: the fast tier judges a slice
//! with Referee against the record and runs no native Go: the tasks whose number is a multiple of
//! 24, each with its mutants (7 canonical solutions, 14 mutants; with fewer tasks the share of
//! mutants equivalent to the solution for the tests swings past the 10% allowed). The full tier
//! (`scripts/test --full`) builds and runs every program natively and compares the verdicts with
//! the file, and judges every program with Referee against it (docs/verifiers/code.md gives the
//! figures).
//!
//! The files are assembled as HumanEval-X's own harness (CodeGeeX's `evaluate_humaneval_x.py`)
//! assembles its single test file: the prompt without its `import` block, the solution, and an
//! import of each package of the harness's list that the code uses; here the program and the
//! test file (the problem's test set-up and tests) each import what they use.

use std::path::{Path, PathBuf};
use std::process::Command;

use referee_code::CodeInput;
use referee_core::Status;
use serde_json::json;

use super::common::{self, Candidate, NativeRecord, NativeRun};

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
/// repeats; a native run's does not, so the record keeps the verdict it was first given.
const BY_CHANCE: [(&str, &str); 1] = [(
    "Go/95",
    "the solution stops after the second key of a map, which Go iterates in a random order: \
     it passes natively in about 4 runs of 5",
)];

/// The packages HumanEval-X's harness imports when the code uses them (`IMPORT_HELPER["go"]`).
const IMPORT_HELPER: [&str; 10] =
    ["math", "strings", "fmt", "strconv", "time", "bytes", "regexp", "sort", "math/rand", "crypto/md5"];

/// Whether `code` uses the package `name`. The harness looks for `name.` in the model's code;
/// the program here also holds the prompt, whose comments say things like "one at a time.", so a
/// use is `name.` then an exported name, outside a comment.
fn uses(code: &str, name: &str) -> bool {
    let code: String =
        code.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    code.match_indices(&format!("{name}.")).any(|(at, found)| {
        let before = code[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != '.');
        before && code[at + found.len()..].starts_with(|c: char| c.is_ascii_uppercase())
    })
}

/// An import block of the helper packages `code` uses that `present` does not import.
fn imports(code: &str, present: &str) -> String {
    let used: Vec<String> = IMPORT_HELPER
        .iter()
        .filter(|package| uses(code, package.rsplit('/').next().unwrap_or(package)))
        .filter(|package| !present.contains(&format!("\"{package}\"")))
        .map(|package| format!("    \"{package}\"\n"))
        .collect();
    if used.is_empty() { String::new() } else { format!("import (\n{})\n", used.concat()) }
}

/// A problem's test set-up without the imports its tests do not use. HumanEval-X's harness puts
/// the set-up, the program and the tests in one file, where the program uses them (Go/38's
/// `math` and `strings`, Go/162's `crypto/md5`); here the tests are a file of their own, and Go
/// refuses to build a file that imports a package it does not use.
fn used_imports_only(test_setup: &str, test: &str) -> String {
    test_setup
        .lines()
        .filter(|line| match line.trim().strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
            Some(package) => uses(test, package.rsplit('/').next().unwrap_or(package)),
            None => true,
        })
        .map(|line| format!("{line}\n"))
        .collect()
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
            let test_setup = used_imports_only(&test_setup, &test);
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
fn native_passes(dir: &Path, candidate: &Candidate<'_, Problem>) -> anyhow::Result<NativeRun> {
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
    let said: String = String::from_utf8_lossy(&output.stdout).chars().take(300).collect();
    Ok(NativeRun::verdict(output.status.success(), said))
}

/// The record of the native verdicts.
const RECORD: NativeRecord = NativeRecord {
    name: "humaneval-x-go",
    about: "The native verdicts of HumanEval-X's Go candidates (verifiers/code/tests/all/humaneval_x_go.rs):\n\
            the program and its test file built by the sandbox's Go toolchain with `go test` for linux/amd64 and run;\n\
            passed when every test passes. Go/95's canonical solution passes natively by chance: its line is kept.",
    test: "humaneval_x_go::native_go_verdicts_are_as_recorded",
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

/// The fast tier's slice: the tasks whose number is a multiple of 24.
fn in_slice(candidate: &Candidate<'_, Problem>) -> bool {
    candidate.problem.number.is_multiple_of(24)
}

/// Whether the candidate passes or fails natively by chance.
fn by_chance(candidate: &Candidate<'_, Problem>) -> bool {
    candidate.is_canonical() && BY_CHANCE.iter().any(|(id, _)| *id == candidate.task_id)
}

/// Judges `candidates` with Referee against the recorded native verdicts: every verdict agrees
/// but those that are a matter of chance natively, which Referee gives the same every time; every
/// canonical solution passes; at most a tenth of the mutants pass.
async fn judge_as_recorded(candidates: &[Candidate<'_, Problem>]) -> anyhow::Result<()> {
    let (verdicts, _, disagreements) = RECORD.judge(candidates, item).await?;
    let disagreements: Vec<&String> = disagreements
        .iter()
        .filter(|d| !BY_CHANCE.iter().any(|(id, _)| d.starts_with(&format!("{id} canonical:"))))
        .collect();
    assert!(disagreements.is_empty(), "verdicts that differ from native runs:\n{disagreements:#?}");
    let failed: Vec<&str> = candidates
        .iter()
        .zip(&verdicts)
        .filter(|(c, v)| c.is_canonical() && v.status != Status::Correct && !by_chance(c))
        .map(|(c, _)| c.task_id)
        .collect();
    assert!(failed.is_empty(), "canonical solutions that fail: {failed:?}");
    // A solution that passes by chance natively gets the same verdict every time here.
    let chance: Vec<_> = candidates.iter().filter(|c| by_chance(c)).collect();
    if !chance.is_empty() {
        let items = chance.iter().map(|c| item(c)).collect::<anyhow::Result<Vec<_>>>()?;
        let again = common::judge(items.clone()).await;
        let first: Vec<_> = common::judge(items).await.iter().map(|v| v.status).collect();
        assert_eq!(first, again.iter().map(|v| v.status).collect::<Vec<_>>());
    }
    common::assert_few_survivors(candidates, &verdicts, "a native run");
    Ok(())
}

#[test]
fn the_record_names_every_go_candidate() -> anyhow::Result<()> {
    RECORD.check_names_exactly(&candidates(&problems()?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_candidates_of_the_slice_are_judged_as_natively() -> anyhow::Result<()> {
    let problems = problems()?;
    let slice: Vec<_> = candidates(&problems).into_iter().filter(in_slice).collect();
    judge_as_recorded(&slice).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "full tier (scripts/test --full): judges every candidate of the suite"]
async fn every_go_candidate_is_judged_as_natively() -> anyhow::Result<()> {
    judge_as_recorded(&candidates(&problems()?)).await
}

#[test]
#[ignore = "full tier (scripts/test --full): builds and runs every candidate natively with go test"]
fn native_go_verdicts_are_as_recorded() -> anyhow::Result<()> {
    anyhow::ensure!(
        go().exists(),
        "the Go toolchain is required (scripts/setup-sandbox sets it up): this test compares native runs with the record"
    );
    // `go version go1.x linux/amd64`: the release.
    let version = common::tool_version(Command::new(go()).arg("version").env("GOENV", "off"))?;
    let toolchain = version.split(' ').find(|word| word.starts_with("go1")).unwrap_or(&version).to_owned();
    RECORD.check_native(&candidates(&problems()?), &toolchain, native_passes, by_chance)
}
