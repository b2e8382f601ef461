//! `code-tests`: rewards a model-written test suite by how well it tells known-correct
//! solutions from known-wrong ones, measured as "Rethinking Verification for LLM Code
//! Generation: From Generation to Testing" (Ma et al., NeurIPS 2025; SAGA, TCGBench) defines
//! it:
//!
//! - the suite is **valid** when every correct solution passes every test (and every test is
//!   well-formed);
//! - a wrong solution is **detected** when it fails at least one test; the **detection rate** is
//!   detected / wrong solutions, and **verifier accuracy** is 1 when every wrong solution is
//!   detected.
//!
//! The reward is 0 for an invalid suite, else the detection rate (or the verifier accuracy);
//! with no wrong solutions, 1 for a valid suite. Every (solution × test) pair is a run in the
//! same sandbox, with the same limits and verdicts, as the `code` verifier's tests.

mod input;
mod read;

use std::sync::Arc;

use futures::future::join_all;
use referee_core::{Admission, Budget, Busy, Description, RewardModel, Status, Verdict};
use referee_sandbox::{Chain, SandboxError};
use serde::Serialize;
use serde_json::{Value, json};

pub use input::{CodeTestsInput, MAX_CORRECT, MAX_TESTS, MAX_WRONG, SuiteFormat, SuiteOptions, SuiteReward};

use crate::CodeVerifier;
use crate::checker::{Tolerance, outputs_match};
use crate::extract::last_fenced_block;
use crate::input::{CheckerKind, Language};
use crate::judge::{
    NativeProgram, Runner, Stop, TestVerdict, compile, excerpt, failed_run, guest, limit_verdict, load_off_thread,
    native_language, unavailable,
};
use crate::sandbox::SandboxCell;
use read::{ReadTest, Test, Unread, shorten};

/// The scorer id.
pub const CODE_TESTS_ID: &str = "code-tests";

/// The `code-tests` verifier: runs on the `code` verifier's sandbox and takes its items from the
/// same queue, so that both together admit no more work than the sandbox can start in time.
#[derive(Debug, Clone)]
pub struct CodeTestsVerifier {
    code: CodeVerifier,
}

impl CodeVerifier {
    /// The `code-tests` verifier on this verifier's sandbox and queue.
    pub fn tests_verifier(&self) -> CodeTestsVerifier {
        CodeTestsVerifier { code: self.clone() }
    }
}

impl RewardModel for CodeTestsVerifier {
    type Input = CodeTestsInput;

    fn description(&self) -> Description {
        Description {
            id: CODE_TESTS_ID,
            version: "1",
            summary: "Rewards a model-written test suite (stdin/stdout tests, inputs whose outputs a reference \
                      computes, an input generator, or Python asserts) by running it against known-correct and \
                      known-wrong solutions in the WebAssembly sandbox: 0 unless every correct solution passes, \
                      else the fraction of wrong solutions detected (or 1 only when all are); details give the \
                      (solution × test) matrix.",
        }
    }

    async fn score_batch(&self, inputs: Vec<CodeTestsInput>, budget: Budget) -> Vec<Verdict> {
        let sandbox = &self.code.sandbox;
        join_all(inputs.into_iter().map(|input| judge(input, budget, sandbox.clone()))).await
    }

    /// One item takes one place in the `code` verifier's queue.
    fn admit(&self, items: usize) -> Result<Admission, Busy> {
        self.code.admit(items)
    }
}

/// Whether a solution is one the suite must accept or one it should reject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Correct,
    Wrong,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Correct => "correct",
            Kind::Wrong => "wrong",
        }
    }
}

/// A solution ready to run: its program and a runner (with its compiled module for C and C++).
struct Solution {
    kind: Kind,
    index: usize,
    program: String,
    runner: Runner,
}

/// One (solution × test) run.
#[derive(Debug, Clone, Serialize)]
struct Cell {
    verdict: TestVerdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip)]
    fuel: u64,
    /// What the program printed, kept only for the reference solution's runs (tests without an
    /// expected output yet).
    #[serde(skip)]
    output: Option<String>,
}

impl Cell {
    fn skipped() -> Self {
        Cell { verdict: TestVerdict::Skipped, message: None, fuel: 0, output: None }
    }

    fn failed(&self) -> bool {
        !matches!(self.verdict, TestVerdict::Passed | TestVerdict::Skipped)
    }
}

/// How outputs are compared.
#[derive(Clone, Copy)]
struct Compare {
    checker: CheckerKind,
    tolerance: Tolerance,
}

/// Judges one item.
async fn judge(input: CodeTestsInput, budget: Budget, sandbox: SandboxCell) -> Verdict {
    if let Err(reason) = input::validate(&input) {
        return Verdict::invalid_input(reason);
    }
    let language = input.language;
    let needs_python =
        language == Language::Python || matches!(input.format, SuiteFormat::Generator | SuiteFormat::Asserts);
    let loaded = load_off_thread(sandbox, language, needs_python).await;
    let (sandbox, python) = match loaded {
        Ok(loaded) => loaded,
        Err((needed, error)) if error.is_unavailable() => return unavailable(needed, &error),
        Err((_, error)) => return Verdict::internal_error(Chain(&error).to_string()),
    };
    let o = &input.options;
    let limits = o.run_settings().limits();
    let javascript = match crate::judge::javascript_of(&sandbox, language).await {
        Ok(javascript) => javascript,
        Err(error) => return Verdict::internal_error(Chain(&error).to_string()),
    };
    let runner = |native: Option<NativeProgram>| Runner {
        sandbox: Arc::clone(&sandbox),
        python: python.clone(),
        native,
        javascript: javascript.clone(),
        limits,
        budget,
    };

    let solutions = (input.correct_solutions.iter().enumerate().map(|(i, p)| (Kind::Correct, i, p.clone())))
        .chain(input.wrong_solutions.iter().enumerate().map(|(i, p)| (Kind::Wrong, i, p.clone())));
    let (sandbox, runner) = (&sandbox, &runner);
    let prepared = join_all(solutions.map(|(kind, index, program)| async move {
        let Some(native) = native_language(language) else {
            return Ok::<_, SandboxError>(Ok(Solution { kind, index, program, runner: runner(None) }));
        };
        match compile(sandbox, native, program.clone(), None).await? {
            Ok(compiled) => Ok(Ok(Solution { kind, index, program, runner: runner(Some(compiled)) })),
            Err(diagnostics) => Ok(Err((kind, index, diagnostics))),
        }
    }))
    .await;
    let mut ready = Vec::with_capacity(prepared.len());
    let mut uncompiled = Vec::new();
    for solution in prepared {
        match solution {
            Ok(Ok(solution)) => ready.push(solution),
            Ok(Err(failed)) => uncompiled.push(failed),
            Err(error) if error.is_unavailable() => return unavailable(guest(language), &error),
            Err(error) => return Verdict::internal_error(Chain(&error).to_string()),
        }
    }
    if let Some((_, index, diagnostics)) = uncompiled.iter().find(|(kind, ..)| *kind == Kind::Correct) {
        return Verdict::invalid_input(format!(
            "correct_solutions[{index}] does not compile: {}",
            excerpt(diagnostics.as_bytes())
        ));
    }

    // The caller's solutions are checked before the model's suite is read: a correct solution
    // that does not compile is the caller's error whatever the response.
    let block = match last_fenced_block(&input.response) {
        Ok(block) => block.to_owned(),
        Err(reason) => return Verdict::unparseable(reason),
    };
    let tests = match read::read(&block, input.format, o.max_tests, &runner(None)).await {
        Ok(tests) => tests,
        Err(Unread::Unreadable(reason)) => return Verdict::unparseable(reason).with("format", input.format.as_str()),
        Err(Unread::Stopped(stop)) => return stopped(stop),
    };

    let compare = Compare { checker: o.checker, tolerance: Tolerance { abs: o.float_abs_tol, rel: o.float_rel_tol } };
    match run_matrix(&input, tests, ready, uncompiled, compare).await {
        Ok(verdict) => verdict,
        Err(stop) => stopped(stop),
    }
}

/// The verdict of an item whose runs could not all happen.
fn stopped(stop: Stop) -> Verdict {
    match stop {
        Stop::Deadline => Verdict::timeout(),
        Stop::Failed(failure) => Verdict::internal_error(Chain(&failure).to_string()),
    }
}

/// Runs the suite against the solutions and scores it.
async fn run_matrix(
    input: &CodeTestsInput,
    mut tests: Vec<ReadTest>,
    solutions: Vec<Solution>,
    uncompiled: Vec<(Kind, usize, String)>,
    compare: Compare,
) -> Result<Verdict, Stop> {
    let full = input.full_matrix;
    let mut rows: Vec<(Kind, usize, Vec<Cell>)> = Vec::with_capacity(solutions.len() + uncompiled.len());
    let (correct, wrong): (Vec<&Solution>, Vec<&Solution>) = solutions.iter().partition(|s| s.kind == Kind::Correct);

    // Expected outputs the suite left to the reference: the first correct solution's, on
    // every input. An input it cannot run is a malformed test.
    let mut reference_done = false;
    if input.format.outputs_from_reference() {
        let reference = correct[0];
        let cells = join_all(tests.iter().map(|t| async move {
            match &t.test {
                Ok(test) => run_cell(reference, test, compare).await.map(Some),
                Err(_) => Ok(None),
            }
        }))
        .await;
        let mut row = Vec::with_capacity(tests.len());
        for (read, cell) in tests.iter_mut().zip(cells) {
            match cell? {
                Some(cell) if cell.verdict == TestVerdict::Passed => {
                    if let Ok(Test::Stdio { expected, .. }) = &mut read.test {
                        *expected = cell.output.clone();
                    }
                    row.push(cell);
                }
                Some(cell) => {
                    read.test = Err(format!(
                        "correct_solutions[0] computes the expected outputs and ends with {} on this input{}",
                        verdict_name(cell.verdict),
                        cell.message.as_deref().map(|m| format!(": {m}")).unwrap_or_default()
                    ));
                    row.push(cell);
                }
                None => row.push(Cell::skipped()),
            }
        }
        rows.push((Kind::Correct, 0, row));
        reference_done = true;
    }

    let malformed: Vec<Value> = tests
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.test.as_ref().err().map(|reason| json!({"test": i, "message": reason})))
        .collect();
    let details = |verdict: Verdict, rows: &[(Kind, usize, Vec<Cell>)]| {
        verdict
            .with("language", input.language.as_str())
            .with("format", input.format.as_str())
            .with("tests", tests.len())
            .with("suite", tests.iter().map(|t| t.shown.clone()).collect::<Vec<_>>())
            .with("matrix", matrix(rows))
            .with("fuel", rows.iter().flat_map(|(_, _, cells)| cells).map(|c| c.fuel).sum::<u64>())
    };
    if !malformed.is_empty() {
        let verdict = Verdict::new(0.0, Status::Incorrect)
            .with("valid", false)
            .with("invalid", json!({"reason": "malformed tests", "malformed": malformed}))
            .with("wrong", input.wrong_solutions.len());
        return Ok(details(verdict, &rows));
    }
    let runnable: Vec<&Test> = tests.iter().filter_map(|t| t.test.as_ref().ok()).collect();

    // The correct solutions first: one failure makes the suite invalid.
    let skip_reference = usize::from(reference_done);
    let correct_rows =
        join_all(correct.iter().skip(skip_reference).map(|s| run_row(s, &runnable, compare, full))).await;
    for (solution, cells) in correct.iter().skip(skip_reference).zip(correct_rows) {
        rows.push((Kind::Correct, solution.index, cells?));
    }
    let first_failure = rows
        .iter()
        .find_map(|(_, index, cells)| cells.iter().position(Cell::failed).map(|test| (*index, test, &cells[test])));
    if let Some((solution, test, cell)) = first_failure {
        let invalid = json!({
            "reason": "a correct solution fails a test",
            "solution": solution,
            "test": test,
            "verdict": cell.verdict,
            "message": cell.message,
        });
        if !full {
            let verdict = Verdict::new(0.0, Status::Incorrect)
                .with("valid", false)
                .with("invalid", invalid)
                .with("wrong", input.wrong_solutions.len());
            return Ok(details(verdict, &rows));
        }
        let wrong_rows = run_wrong(&wrong, &uncompiled, &runnable, compare, full).await?;
        rows.extend(wrong_rows);
        let (detected, total) = detection(&rows);
        let verdict = Verdict::new(0.0, Status::Incorrect)
            .with("valid", false)
            .with("invalid", invalid)
            .with("detected", detected)
            .with("wrong", total)
            .with("detection_rate", (total > 0).then(|| detected as f64 / total as f64));
        return Ok(details(verdict, &rows));
    }

    rows.extend(run_wrong(&wrong, &uncompiled, &runnable, compare, full).await?);
    let (detected, total) = detection(&rows);
    let rate = (total > 0).then(|| detected as f64 / total as f64);
    let accuracy = (total > 0).then_some(u8::from(detected == total));
    let score = match input.reward {
        SuiteReward::DetectionRate => rate.unwrap_or(1.0),
        SuiteReward::VerifierAccuracy => accuracy.map_or(1.0, f64::from),
    };
    let status = if score >= 1.0 {
        Status::Correct
    } else if score > 0.0 {
        Status::Partial
    } else {
        Status::Incorrect
    };
    let verdict = Verdict::new(score, status)
        .with("valid", true)
        .with("detected", detected)
        .with("wrong", total)
        .with("detection_rate", rate)
        .with("verifier_accuracy", accuracy);
    Ok(details(verdict, &rows))
}

/// The wrong solutions' rows: run, or failing every test with `compile_error` when they do not
/// compile.
async fn run_wrong(
    wrong: &[&Solution],
    uncompiled: &[(Kind, usize, String)],
    tests: &[&Test],
    compare: Compare,
    full: bool,
) -> Result<Vec<(Kind, usize, Vec<Cell>)>, Stop> {
    let ran = join_all(wrong.iter().map(|s| run_row(s, tests, compare, full))).await;
    let mut rows = Vec::with_capacity(ran.len() + uncompiled.len());
    for (solution, cells) in wrong.iter().zip(ran) {
        rows.push((Kind::Wrong, solution.index, cells?));
    }
    for (_, index, diagnostics) in uncompiled.iter().filter(|(kind, ..)| *kind == Kind::Wrong) {
        let cell = Cell {
            verdict: TestVerdict::CompileError,
            message: Some(excerpt(diagnostics.as_bytes())),
            fuel: 0,
            output: None,
        };
        let mut cells = vec![cell];
        cells.resize(tests.len(), if full { cells[0].clone() } else { Cell::skipped() });
        rows.push((Kind::Wrong, *index, cells));
    }
    rows.sort_by_key(|(kind, index, _)| (*kind == Kind::Wrong, *index));
    Ok(rows)
}

/// Wrong solutions detected (failing at least one test), and wrong solutions.
fn detection(rows: &[(Kind, usize, Vec<Cell>)]) -> (usize, usize) {
    let wrong = rows.iter().filter(|(kind, ..)| *kind == Kind::Wrong);
    let total = wrong.clone().count();
    let detected = wrong.filter(|(_, _, cells)| cells.iter().any(Cell::failed)).count();
    (detected, total)
}

/// One solution against every test, in order; unless `full`, the tests after its first
/// failure are skipped.
async fn run_row(solution: &Solution, tests: &[&Test], compare: Compare, full: bool) -> Result<Vec<Cell>, Stop> {
    let mut cells = Vec::with_capacity(tests.len());
    for test in tests {
        if !full && cells.iter().any(Cell::failed) {
            cells.push(Cell::skipped());
            continue;
        }
        cells.push(run_cell(solution, test, compare).await?);
    }
    Ok(cells)
}

/// One run of `solution` on `test`.
async fn run_cell(solution: &Solution, test: &Test, compare: Compare) -> Result<Cell, Stop> {
    match test {
        Test::Stdio { input, expected } => {
            let (run, outcome) = solution.runner.run_program(solution.program.as_str(), input.as_bytes()).await?;
            let output = String::from_utf8_lossy(&run.stdout).into_owned();
            let (verdict, message) = match limit_verdict(&run) {
                Some(verdict) => (verdict, None),
                None if run.exit_code != 0 => (failed_run(&outcome), stderr_tail(&run.stderr)),
                None => match expected {
                    None => (TestVerdict::Passed, None),
                    Some(expected) if outputs_match(compare.checker, expected, &output, compare.tolerance) => {
                        (TestVerdict::Passed, None)
                    }
                    Some(_) => (TestVerdict::WrongAnswer, Some(format!("printed {:?}", shorten(&output)))),
                },
            };
            // Only the reference's outputs are kept: they become the expected ones.
            Ok(Cell { verdict, message, fuel: run.fuel_used, output: expected.is_none().then_some(output) })
        }
        Test::Asserts { setup, setup_bytes, source } => {
            let harness = Test::harness(&setup[..*setup_bytes], source);
            let (run, outcome) = solution.runner.run(solution.program.as_str(), b"", Some(harness), 1).await?;
            let (verdict, message) = match (limit_verdict(&run), outcome.exception.as_deref()) {
                (Some(verdict), _) => (verdict, None),
                (None, _) if outcome.compile_error => (TestVerdict::CompileError, stderr_tail(&run.stderr)),
                (None, None) if run.exit_code == 0 && outcome.report == "passed" => (TestVerdict::Passed, None),
                (None, Some("AssertionError")) => (TestVerdict::WrongAnswer, stderr_tail(&run.stderr)),
                (None, Some(exception)) => {
                    (TestVerdict::RuntimeError, Some(stderr_tail(&run.stderr).unwrap_or_else(|| exception.to_owned())))
                }
                (None, None) => (
                    TestVerdict::RuntimeError,
                    Some(format!("the program exited (status {}) before the test finished", run.exit_code)),
                ),
            };
            Ok(Cell { verdict, message, fuel: run.fuel_used, output: None })
        }
    }
}

/// The last lines of standard error (a traceback ends with the error), or `None` when empty.
fn stderr_tail(stderr: &[u8]) -> Option<String> {
    let text = excerpt(stderr);
    let text = text.trim_end();
    if text.is_empty() {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    Some(lines[lines.len().saturating_sub(4)..].join("\n"))
}

/// A verdict's wire name (`runtime_error`).
fn verdict_name(verdict: TestVerdict) -> String {
    serde_json::to_value(verdict).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// The matrix of verdicts by solution kind, rows in index order, and each row's first failure.
fn matrix(rows: &[(Kind, usize, Vec<Cell>)]) -> Value {
    let mut by_kind = serde_json::Map::new();
    let mut failures = Vec::new();
    for kind in [Kind::Correct, Kind::Wrong] {
        let mut kind_rows: Vec<&(Kind, usize, Vec<Cell>)> = rows.iter().filter(|(k, ..)| *k == kind).collect();
        kind_rows.sort_by_key(|(_, index, _)| *index);
        let verdicts: Vec<Vec<TestVerdict>> =
            kind_rows.iter().map(|(_, _, cells)| cells.iter().map(|c| c.verdict).collect()).collect();
        for (_, index, cells) in &kind_rows {
            if let Some(test) = cells.iter().position(Cell::failed) {
                let cell = &cells[test];
                failures.push(json!({
                    "solution": format!("{}[{index}]", kind.as_str()),
                    "test": test,
                    "verdict": cell.verdict,
                    "message": cell.message,
                }));
            }
        }
        by_kind.insert(kind.as_str().to_owned(), json!(verdicts));
    }
    by_kind.insert("first_failures".to_owned(), Value::Array(failures));
    Value::Object(by_kind)
}
