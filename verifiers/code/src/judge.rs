//! Judging one item: resolve the program, run its tests, score.

use std::sync::Arc;

use referee_core::{Budget, Status, Verdict};
use referee_sandbox::{
    Chain, Compiled, Execution, GuestLanguage, GuestOutcome, JavaScriptRuntime, JsHarness, Limits, NativeLanguage,
    NativeRuntime, Program, PythonProgram, PythonRuntime, Sandbox, SandboxError, Termination,
};

use serde::Serialize;
use serde_json::{Value, json};

use crate::checker::{Tolerance, outputs_match, values_match};
use crate::extract::last_fenced_block;
use crate::harness;
use crate::input::{
    CheckProgram, CheckerKind, CodeInput, CodeOptions, FunctionTests, Language, Scoring, StdioTest, check_source_length,
};
use crate::sandbox::SandboxCell;

mod check;

use check::{check_program, unsupported_operation};

/// The outcome of one test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestVerdict {
    Passed,
    WrongAnswer,
    RuntimeError,
    TimeLimit,
    MemoryLimit,
    OutputLimit,
    CompileError,
    SandboxError,
    /// Not run: an earlier test failed under `stop_on_first_failure`.
    Skipped,
}

/// The seed of the guest's `random` module: fixed, so runs are reproducible.
pub(crate) const SEED: u64 = 0x5EED;

/// How much of standard error and of a wrong output a test's details keep.
const EXCERPT_BYTES: usize = 1000;

/// One test's details, as the verdict reports them.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TestReport {
    verdict: TestVerdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    fuel: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exception: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stderr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// The first `EXCERPT_BYTES` of a wrong output (standard-input tests).
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<String>,
}

impl TestReport {
    pub(crate) fn bare(verdict: TestVerdict) -> Self {
        TestReport {
            verdict,
            fuel: None,
            time_ms: None,
            exit_code: None,
            exception: None,
            stderr: None,
            message: None,
            output: None,
        }
    }

    fn from_run(verdict: TestVerdict, run: &Execution, outcome: &GuestOutcome) -> Self {
        TestReport {
            verdict,
            fuel: Some(run.fuel_used),
            time_ms: Some((run.wall_time.as_secs_f64() * 1e6).round() / 1e3),
            exit_code: (run.termination == Termination::Exited).then_some(run.exit_code),
            exception: outcome.exception.clone(),
            stderr: (!run.stderr.is_empty()).then(|| excerpt(&run.stderr)),
            message: match &run.termination {
                Termination::Crashed(trap) => Some(match unsupported_operation(&run.stderr) {
                    Some(cause) => format!("{cause} (the run ended with: {trap})"),
                    None => trap.clone(),
                }),
                Termination::Exited
                | Termination::OutOfFuel
                | Termination::TimedOut
                | Termination::MemoryExhausted
                | Termination::OutputExceeded
                | Termination::StackOverflow => None,
            },
            output: None,
        }
    }

    fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// The report with `note` after its message.
    pub(crate) fn with_note(mut self, note: &str) -> Self {
        self.message = Some(match self.message.take() {
            Some(message) if !message.is_empty() => format!("{message}\n{note}"),
            _ => note.to_owned(),
        });
        self
    }
}

/// The last `EXCERPT_BYTES` of `bytes` (tracebacks end with the error), as text.
pub(crate) fn excerpt(bytes: &[u8]) -> String {
    let start = bytes.len().saturating_sub(EXCERPT_BYTES);
    String::from_utf8_lossy(&bytes[start..]).into_owned()
}

/// The first `EXCERPT_BYTES` of `bytes` (where an output first differs is usually near its start),
/// as text, cut at a character boundary.
pub(crate) fn head(bytes: &[u8]) -> String {
    head_of(bytes, EXCERPT_BYTES)
}

/// The first `limit` bytes of `bytes` as text, cut at a character boundary.
pub(crate) fn head_of(bytes: &[u8], limit: usize) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(limit)]);
    text.trim_end_matches('\u{FFFD}').to_owned()
}

/// The verdict of a run that did not exit normally, or `None` when it exited.
pub(crate) fn limit_verdict(run: &Execution) -> Option<TestVerdict> {
    match run.termination {
        Termination::Exited => None,
        Termination::OutOfFuel | Termination::TimedOut => Some(TestVerdict::TimeLimit),
        Termination::MemoryExhausted => Some(TestVerdict::MemoryLimit),
        Termination::OutputExceeded => Some(TestVerdict::OutputLimit),
        Termination::StackOverflow | Termination::Crashed(_) => Some(TestVerdict::RuntimeError),
    }
}

/// The verdict of a program that exited with a non-zero status: `compile_error` when the source
/// does not parse, `runtime_error` otherwise.
pub(crate) fn failed_run(outcome: &GuestOutcome) -> TestVerdict {
    if outcome.compile_error { TestVerdict::CompileError } else { TestVerdict::RuntimeError }
}

/// Checks the input beyond what its schema says; `Err` is the reason it is invalid.
fn validate(input: &CodeInput) -> Result<(), String> {
    let kinds = usize::from(input.tests.is_some())
        + usize::from(input.function_tests.is_some())
        + usize::from(input.check.is_some());
    if kinds != 1 {
        return Err("give exactly one of `tests`, `function_tests` and `check`".into());
    }
    if input.program.is_some() == input.response.is_some() {
        return Err("give exactly one of `program` and `response`".into());
    }
    if native_language(input.language).is_some() && input.function_tests.is_some() {
        return Err(format!("{} programs take standard-input `tests` or a `check` program", input.language.as_str()));
    }
    if input.tests.as_ref().is_some_and(|t| t.is_empty() || t.len() > 1000) {
        return Err("`tests` must hold 1 to 1000 tests".into());
    }
    if let Some(f) = &input.function_tests {
        if !harness::is_identifier(&f.entry_point) {
            return Err("`function_tests.entry_point` must be an identifier (ASCII letters, digits, `_`)".into());
        }
        if f.cases.is_empty() || f.cases.len() > 1000 {
            return Err("`function_tests.cases` must hold 1 to 1000 cases".into());
        }
    }
    if input.check.as_ref().is_some_and(|c| !harness::is_identifier(&c.entry_point)) {
        return Err("`check.entry_point` must be an identifier (ASCII letters, digits, `_`)".into());
    }
    if let Some(program) = &input.program {
        check_source_length("`program`", program)?;
    }
    if let Some(check) = &input.check {
        check_source_length("`check.program`", &check.program)?;
    }
    if let Some(checker) = &input.options.checker_program {
        check_source_length("`options.checker_program`", checker)?;
    }
    if let (Language::Go, Some(check)) = (input.language, &input.check) {
        go_test_file(&check.program)?;
    }
    let o = &input.options;
    o.run_settings().check(&[])?;
    if (o.checker == CheckerKind::Program) != o.checker_program.is_some() {
        return Err("`options.checker_program` is required with, and only with, `checker: program`".into());
    }
    Ok(())
}

/// Everything a test run needs.
pub(crate) struct Runner {
    pub(crate) sandbox: Arc<Sandbox>,
    /// The Python runtime: loaded for Python items and for checker programs, which are Python.
    pub(crate) python: Option<Arc<PythonRuntime>>,
    /// The compiled program of a C, C++, Rust or Go item.
    pub(crate) native: Option<NativeProgram>,
    /// The JavaScript runtime, for JavaScript items.
    pub(crate) javascript: Option<Arc<JavaScriptRuntime>>,
    pub(crate) limits: Limits,
    pub(crate) budget: Budget,
}

/// What runs after the program in its namespace.
#[derive(Clone, Copy)]
pub(crate) enum Harness<'a> {
    Calls(&'a FunctionTests),
    Check(&'a CheckProgram),
}

/// A run that could not happen: the sandbox or the checker program failed, or the item's
/// deadline passed.
pub(crate) enum Stop {
    Failed(Failure),
    Deadline,
}

/// Why a run gave no verdict about the program: nothing the program did.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    /// The sandbox itself failed.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// A run needed the Python runtime, which this item did not load.
    #[error("the Python runtime was not loaded for this item")]
    PythonNotLoaded,
    /// A run needed the JavaScript runtime, which this item did not load.
    #[error("the JavaScript runtime was not loaded for this item")]
    JavaScriptNotLoaded,
    /// A run needed the item's compiled program, which it does not have.
    #[error("the item's program was not compiled")]
    NotCompiled,
    /// The checker program raised an exception instead of judging.
    #[error("the checker program raised {exception}: {stderr}")]
    CheckerRaised { exception: String, stderr: String },
    /// The checker program stopped at a limit or crashed.
    #[error("the checker program did not finish: {0:?}")]
    CheckerUnfinished(Termination),
}

impl From<SandboxError> for Stop {
    fn from(error: SandboxError) -> Self {
        Stop::Failed(Failure::Sandbox(error))
    }
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Self {
        Stop::Failed(failure)
    }
}

impl Runner {
    /// `program` as the `runs` runs of its tests take it: a Python program that runs more than
    /// once is compiled once, before its first run (see [`Runner::prepare_python`]); any other is
    /// compiled in its run, if at all.
    pub(crate) async fn prepare(&self, program: &str, runs: usize) -> Result<PythonProgram, Stop> {
        if self.javascript.is_some() || self.native.is_some() {
            return Ok(program.into());
        }
        self.prepare_python(program, runs).await
    }

    /// The Python `program` (the item's, or a checker program) as its `runs` runs take it:
    /// compiled once when it runs more than once, so that each run loads its code instead of
    /// compiling it (those runs' fuel then does not count the compile; see the sandbox's
    /// [`PythonRuntime::compile`]). A program that runs once is compiled in its run.
    pub(crate) async fn prepare_python(&self, program: &str, runs: usize) -> Result<PythonProgram, Stop> {
        match &self.python {
            Some(python) if runs > 1 => {
                Ok(Arc::clone(python).compile_on(self.sandbox.host(), program.to_owned()).await?)
            }
            _ => Ok(program.into()),
        }
    }

    /// Runs the item's program on one standard input.
    pub(crate) async fn run_program(
        &self,
        program: impl Into<PythonProgram>,
        stdin: &[u8],
    ) -> Result<(Execution, GuestOutcome), Stop> {
        let program = program.into();
        if self.javascript.is_some() {
            return self.run_javascript(program.source(), stdin, JsHarness::None, 1).await;
        }
        let Some(native) = &self.native else {
            return self.run(program, stdin, None, 1).await;
        };
        let (limits, capped) = self.limits_for(1)?;
        let runtime = Arc::clone(&native.runtime);
        let run = runtime.run_on(self.sandbox.host(), native.program.clone(), stdin.to_vec(), limits).await?;
        deadline_check(run, GuestOutcome::default(), capped)
    }

    /// Runs the `#[should_panic]` test `index` of the item's Rust test build on its own.
    pub(crate) async fn run_panic_test(&self, index: usize) -> Result<(Execution, GuestOutcome), Stop> {
        let (limits, capped) = self.limits_for(1)?;
        let native = self.native.as_ref().ok_or(Failure::NotCompiled)?;
        let runtime = Arc::clone(&native.runtime);
        let run = runtime.run_panic_test_on(self.sandbox.host(), native.program.clone(), index, limits).await?;
        deadline_check(run, GuestOutcome::default(), capped)
    }

    /// Runs the item's program, then `harness` in its namespace, with `fuel_factor` times the
    /// per-run budget (one share per function case).
    pub(crate) async fn run_harness(
        &self,
        program: &str,
        harness: Harness<'_>,
        fuel_factor: u64,
    ) -> Result<(Execution, GuestOutcome), Stop> {
        if self.javascript.is_some() {
            let harness = match harness {
                Harness::Calls(tests) => JsHarness::Calls {
                    entry_point: tests.entry_point.clone(),
                    cases: tests.cases.iter().map(|c| c.args.clone()).collect(),
                },
                Harness::Check(check) => {
                    JsHarness::Check { program: check.program.clone(), entry_point: check.entry_point.clone() }
                }
            };
            return self.run_javascript(program, b"", harness, fuel_factor).await;
        }
        if self.native.is_some() {
            // The test program was compiled in (`compiled_source`): the run is the test.
            return self.run_program(program, b"").await;
        }
        let harness = match harness {
            Harness::Calls(tests) => {
                let args: Vec<Vec<Value>> = tests.cases.iter().map(|c| c.args.clone()).collect();
                harness::function_calls(&tests.entry_point, &args)
            }
            Harness::Check(check) => harness::check_program(&check.program, &check.entry_point),
        };
        self.run(program, b"", Some(harness), fuel_factor).await
    }

    async fn run_javascript(
        &self,
        program: &str,
        stdin: &[u8],
        harness: JsHarness,
        fuel_factor: u64,
    ) -> Result<(Execution, GuestOutcome), Stop> {
        let (limits, capped) = self.limits_for(fuel_factor)?;
        let javascript = self.javascript.as_ref().map(Arc::clone).ok_or(Failure::JavaScriptNotLoaded)?;
        let (run, outcome) =
            javascript.run_on(self.sandbox.host(), program.to_owned(), stdin.to_vec(), harness, limits).await?;
        deadline_check(run, outcome, capped)
    }

    /// The per-run limits for a run of `factor` tests, within the item's deadline, and whether
    /// the deadline shortened the wall-clock limit.
    fn limits_for(&self, factor: u64) -> Result<(Limits, bool), Stop> {
        let mut limits = self.limits;
        limits.fuel = limits.fuel.saturating_mul(factor.max(1));
        limits.wall_time = limits.wall_time.saturating_mul(u32::try_from(factor.max(1)).unwrap_or(u32::MAX));
        let mut capped = false;
        if let Some(remaining) = self.budget.remaining() {
            if remaining.is_zero() {
                return Err(Stop::Deadline);
            }
            capped = remaining < limits.wall_time;
            limits.wall_time = limits.wall_time.min(remaining);
        }
        Ok((limits, capped))
    }

    pub(crate) async fn run(
        &self,
        program: impl Into<PythonProgram>,
        stdin: &[u8],
        harness: Option<String>,
        fuel_factor: u64,
    ) -> Result<(Execution, GuestOutcome), Stop> {
        let (limits, capped) = self.limits_for(fuel_factor)?;
        let python = self.python.as_ref().map(Arc::clone).ok_or(Failure::PythonNotLoaded)?;
        let (run, outcome) = python.run_on(self.sandbox.host(), program, stdin.to_vec(), harness, SEED, limits).await?;
        deadline_check(run, outcome, capped)
    }
}

/// A run stopped by the request's deadline rather than by its own limit says nothing about the
/// program: it makes the item `timeout`, never `time_limit`.
fn deadline_check(run: Execution, outcome: GuestOutcome, capped: bool) -> Result<(Execution, GuestOutcome), Stop> {
    if capped && run.termination == Termination::TimedOut { Err(Stop::Deadline) } else { Ok((run, outcome)) }
}

/// The sandbox of an item and, when it needs one, the Python runtime.
pub(crate) type Loaded = (Arc<Sandbox>, Option<Arc<PythonRuntime>>);

/// Judges one item.
pub(crate) async fn judge(input: CodeInput, budget: Budget, sandbox: SandboxCell) -> Verdict {
    if let Err(reason) = validate(&input) {
        return Verdict::invalid_input(reason);
    }
    let program = match (&input.program, &input.response) {
        (Some(program), _) => program.clone(),
        (None, Some(response)) => match last_fenced_block(response) {
            Ok(block) => match check_source_length("the program in `response`", block) {
                Ok(()) => block.to_owned(),
                Err(reason) => return Verdict::invalid_input(reason),
            },
            Err(reason) => return Verdict::unparseable(reason),
        },
        (None, None) => return Verdict::invalid_input("give exactly one of `program` and `response`"),
    };
    let total = test_count(&input);
    // The other languages need Python only to run a checker program.
    let needs_python = input.language == Language::Python || input.options.checker == CheckerKind::Program;
    let language = input.language;
    let loaded = load_off_thread(sandbox, language, needs_python).await;
    let (sandbox, python) = match loaded {
        Ok(loaded) => loaded,
        Err((needed, error)) if error.is_unavailable() => return unavailable(needed, &error),
        Err((_, error)) => return sandbox_failure(&error, Vec::new(), total, true),
    };
    let options = &input.options;
    let limits = options.run_settings().limits();
    let native = match native_language(input.language) {
        None => None,
        // A compiled language's test program is compiled with the program, after it.
        Some(language) => match compile(
            &sandbox,
            build(language, input.check.as_ref()),
            program.clone(),
            input.check.as_ref().map(|check| check.program.clone()),
        )
        .await
        {
            Ok(Ok(compiled)) => Some(compiled),
            Ok(Err(diagnostics)) => {
                let count = input.tests.as_ref().map_or(1, Vec::len);
                let report = TestReport::bare(TestVerdict::CompileError).with_message(excerpt(diagnostics.as_bytes()));
                return score(vec![report; count], options, input.language.as_str());
            }
            Err(error) if error.is_unavailable() => return unavailable(guest(input.language), &error),
            Err(error) if error.is_refusal() => return Verdict::invalid_input(error.to_string()),
            Err(error) => return sandbox_failure(&error, Vec::new(), total, true),
        },
    };
    let javascript = match javascript_of(&sandbox, input.language).await {
        Ok(javascript) => javascript,
        Err(error) => return sandbox_failure(&error, Vec::new(), total, true),
    };
    let runner = Runner { sandbox, python, native, javascript, limits, budget };
    let judged = if let Some(tests) = &input.tests {
        stdio_tests(&runner, &program, tests, options).await
    } else if let Some(function_tests) = &input.function_tests {
        function_calls(&runner, &program, function_tests, options).await
    } else if let Some(check) = &input.check {
        check_program(&runner, &program, check).await
    } else {
        return Verdict::invalid_input("give exactly one of `tests`, `function_tests` and `check`");
    };
    match judged {
        Ok(reports) => score(reports, options, input.language.as_str()),
        Err((Stop::Failed(failure), reports)) => sandbox_failure(&failure, reports, total, input.tests.is_none()),
        Err((Stop::Deadline, reports)) => Verdict::timeout().with("tests", reports),
    }
}

/// Makes the sandbox if needed and sets up what an item of `language` needs (blocking); an error
/// names the language whose set-up failed.
fn load(
    sandbox: &SandboxCell,
    language: Language,
    needs_python: bool,
) -> Result<Loaded, (GuestLanguage, SandboxError)> {
    let sandbox = sandbox.get().map_err(|e| (guest(language), e))?;
    if let Some(native) = native_language(language) {
        sandbox.toolchain(native).map_err(|e| (guest(language), e))?;
    }
    if language == Language::Javascript {
        sandbox.javascript().map_err(|e| (guest(language), e))?;
    }
    let python = if needs_python { Some(sandbox.python().map_err(|e| (GuestLanguage::Python, e))?) } else { None };
    Ok((sandbox, python))
}

/// [`load`] on a blocking thread, off the async workers.
pub(crate) async fn load_off_thread(
    sandbox: SandboxCell,
    language: Language,
    needs_python: bool,
) -> Result<Loaded, (GuestLanguage, SandboxError)> {
    tokio::task::spawn_blocking(move || load(&sandbox, language, needs_python))
        .await
        .unwrap_or_else(|error| Err((guest(language), set_up_failed(error))))
}

/// The JavaScript runtime of a JavaScript item (set up by [`load`] already), `None` for others.
pub(crate) async fn javascript_of(
    sandbox: &Arc<Sandbox>,
    language: Language,
) -> Result<Option<Arc<JavaScriptRuntime>>, SandboxError> {
    if language != Language::Javascript {
        return Ok(None);
    }
    let sandbox = Arc::clone(sandbox);
    tokio::task::spawn_blocking(move || sandbox.javascript()).await.map_err(set_up_failed)?.map(Some)
}

/// A set-up thread that panicked or was cancelled.
fn set_up_failed(error: tokio::task::JoinError) -> SandboxError {
    SandboxError::TaskFailed { task: "the set-up thread", source: Arc::new(error) }
}

/// The sandbox's name for an item's language.
pub(crate) fn guest(language: Language) -> GuestLanguage {
    match language {
        Language::Python => GuestLanguage::Python,
        Language::C => GuestLanguage::C,
        Language::Cpp => GuestLanguage::Cpp,
        Language::Javascript => GuestLanguage::JavaScript,
        Language::Rust => GuestLanguage::Rust,
        Language::Go => GuestLanguage::Go,
    }
}

/// The compiled language of an item, `None` for the interpreted ones.
pub(crate) fn native_language(language: Language) -> Option<NativeLanguage> {
    match language {
        Language::Python | Language::Javascript => None,
        Language::C => Some(NativeLanguage::C),
        Language::Cpp => Some(NativeLanguage::Cpp),
        Language::Rust => Some(NativeLanguage::Rust),
        Language::Go => Some(NativeLanguage::Go),
    }
}

/// How a compiled item is built: Rust whose test program marks functions `#[test]` as a test
/// harness, which runs them (and ignores a `fn main` the program may have); Go with a test
/// program as a test binary; anything else as a program.
pub(crate) fn build(language: NativeLanguage, check: Option<&CheckProgram>) -> NativeLanguage {
    match (language, check) {
        (NativeLanguage::Rust, Some(check)) if check.program.contains("#[test]") => NativeLanguage::RustTests,
        (NativeLanguage::Go, Some(_)) => NativeLanguage::GoTests,
        (language, _) => language,
    }
}

/// Checks that a Go test program is a test file the build can run: at least one
/// `func TestXxx(...)` (a file without tests would pass anything), and no `TestMain` (the build
/// brings its own, which tells a finished test run from an early `os.Exit(0)`).
fn go_test_file(tests: &str) -> Result<(), String> {
    let mut has_test = false;
    for (at, _) in tests.match_indices("func Test") {
        let name: String =
            tests[at + "func ".len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name == "TestMain" {
            return Err(
                "a Go `check.program` cannot define TestMain: the build brings its own, which runs the tests".into()
            );
        }
        // Go runs TestXxx where Xxx does not start with a lower-case letter.
        has_test |= !name["Test".len()..].starts_with(|c: char| c.is_lowercase());
    }
    if has_test {
        Ok(())
    } else {
        Err("a Go `check.program` is a test file: it must define at least one `func TestXxx(t *testing.T)`".into())
    }
}

/// The verdict of an item this server cannot run because the host lacks the runtime of
/// `language` (`python` also for a C or C++ item's checker program): `invalid_input`, like an
/// item for a verifier the server does not have, with the reason and the fix under
/// `details.unavailable`. It is never `internal_error` (the sandbox did not break) and never a
/// judgement of the response; the set-up is tried again after a backoff, so the same item
/// scores once the runtime is installed.
pub(crate) fn unavailable(language: GuestLanguage, error: &SandboxError) -> Verdict {
    let (reason, fix) = (error.reason(), error.fix());
    Verdict::invalid_input(format!("{} programs cannot run on this server: {reason} (fix: {fix})", language.as_str()))
        .with("unavailable", json!({"language": language.as_str(), "reason": reason, "fix": fix}))
}

/// How many tests an item has: one per stdin test or function case, one for a check program.
fn test_count(input: &CodeInput) -> usize {
    match (&input.tests, &input.function_tests) {
        (Some(tests), _) => tests.len(),
        (None, Some(function_tests)) => function_tests.cases.len(),
        (None, None) => 1,
    }
}

/// The verdict of an item whose run failed in the sandbox itself, not in the program:
/// `internal_error` (a trainer masks it; it is never a wrong answer). The tests judged before
/// keep their verdicts, the test that was running gets `sandbox_error` with the reason (the
/// error with its causes), and the tests after it are `skipped`. With `every` (a failure before
/// any test ran, such as a runtime that does not load, or function cases, which share one run)
/// every test gets `sandbox_error`.
pub(crate) fn sandbox_failure(
    error: &(dyn std::error::Error + 'static),
    mut reports: Vec<TestReport>,
    total: usize,
    every: bool,
) -> Verdict {
    let reason = Chain(error).to_string();
    let failed = TestReport::bare(TestVerdict::SandboxError).with_message(reason.clone());
    if every {
        reports = vec![failed; total.max(1)];
    } else if reports.len() < total {
        reports.push(failed);
        reports.resize(total, TestReport::bare(TestVerdict::Skipped));
    }
    Verdict::internal_error(reason).with("tests", reports)
}

/// A compiled program, ready to run.
#[derive(Clone)]
pub(crate) struct NativeProgram {
    pub(crate) runtime: Arc<NativeRuntime>,
    pub(crate) program: Program,
}

/// Compiles a C, C++, Rust or Go program (with its test program) off the async workers:
/// `Ok(Err(diagnostics))` when it does not compile.
pub(crate) async fn compile(
    sandbox: &Arc<Sandbox>,
    build: NativeLanguage,
    program: String,
    tests: Option<String>,
) -> Result<Result<NativeProgram, String>, SandboxError> {
    let sandbox = Arc::clone(sandbox);
    let runtime = tokio::task::spawn_blocking(move || sandbox.native()).await.map_err(set_up_failed)??;
    Ok(match Arc::clone(&runtime).compile_queued(build, program, tests).await? {
        Compiled::Program(program) => Ok(NativeProgram { runtime, program }),
        Compiled::Rejected(diagnostics) => Err(diagnostics),
    })
}

type Judged = Result<Vec<TestReport>, (Stop, Vec<TestReport>)>;

async fn stdio_tests(runner: &Runner, program: &str, tests: &[StdioTest], options: &CodeOptions) -> Judged {
    let tolerance = Tolerance { abs: options.float_abs_tol, rel: options.float_rel_tol };
    let program = runner.prepare(program, tests.len()).await.map_err(|stop| (stop, Vec::new()))?;
    let checker = match (options.checker, &options.checker_program) {
        (CheckerKind::Program, Some(checker)) => {
            Some(runner.prepare_python(checker, tests.len()).await.map_err(|stop| (stop, Vec::new()))?)
        }
        _ => None,
    };
    let mut reports = Vec::with_capacity(tests.len());
    for test in tests {
        if options.stops_on_first_failure() && reports.iter().any(|r: &TestReport| r.verdict != TestVerdict::Passed) {
            reports.push(TestReport::bare(TestVerdict::Skipped));
            continue;
        }
        let (run, outcome) = match runner.run_program(program.clone(), test.stdin.as_bytes()).await {
            Ok(done) => done,
            Err(stop) => return Err((stop, reports)),
        };
        let verdict = match limit_verdict(&run) {
            Some(verdict) => verdict,
            None if run.exit_code != 0 => failed_run(&outcome),
            None => {
                let output = String::from_utf8_lossy(&run.stdout);
                match (options.checker, &checker) {
                    (CheckerKind::Program, Some(checker)) => {
                        match special_judge(runner, checker, test, &output).await {
                            Ok(verdict) => verdict,
                            Err(stop) => return Err((stop, reports)),
                        }
                    }
                    (kind, _) if outputs_match(kind, &test.expected_stdout, &output, tolerance) => TestVerdict::Passed,
                    _ => TestVerdict::WrongAnswer,
                }
            }
        };
        let mut report = TestReport::from_run(verdict, &run, &outcome);
        if verdict == TestVerdict::WrongAnswer {
            report.output = Some(head(&run.stdout));
        }
        reports.push(report);
    }
    Ok(reports)
}

/// Runs the `checker_program` on one output. It passes the test by exiting with status 0; when
/// it cannot finish, the sandbox counts as failed for this item.
async fn special_judge(
    runner: &Runner,
    checker: &PythonProgram,
    test: &StdioTest,
    output: &str,
) -> Result<TestVerdict, Stop> {
    let stdin = json!({"input": test.stdin, "expected": test.expected_stdout, "output": output}).to_string();
    let (run, outcome) = runner.run(checker.clone(), stdin.as_bytes(), None, 1).await?;
    match (&run.termination, run.exit_code, &outcome.exception) {
        (Termination::Exited, 0, _) => Ok(TestVerdict::Passed),
        (Termination::Exited, _, None) => Ok(TestVerdict::WrongAnswer),
        (Termination::Exited, _, Some(exception)) => {
            Err(Failure::CheckerRaised { exception: exception.clone(), stderr: excerpt(&run.stderr) }.into())
        }
        (termination, _, _) => Err(Failure::CheckerUnfinished(termination.clone()).into()),
    }
}

async fn function_calls(runner: &Runner, program: &str, tests: &FunctionTests, options: &CodeOptions) -> Judged {
    let cases = u64::try_from(tests.cases.len()).unwrap_or(u64::MAX);
    let (run, outcome) = match runner.run_harness(program, Harness::Calls(tests), cases).await {
        Ok(done) => done,
        Err(stop) => return Err((stop, Vec::new())),
    };
    let every = |report: TestReport| vec![report; tests.cases.len()];
    if let Some(verdict) = limit_verdict(&run) {
        return Ok(every(TestReport::from_run(verdict, &run, &outcome)));
    }
    let results = match serde_json::from_str::<Value>(&outcome.report) {
        Ok(Value::Array(results)) if results.len() == tests.cases.len() => results,
        Ok(Value::Object(o)) if o.contains_key("missing") => {
            let report = TestReport::from_run(TestVerdict::RuntimeError, &run, &outcome)
                .with_message(format!("the program defines no function `{}`", tests.entry_point));
            return Ok(every(report));
        }
        Ok(_) | Err(_) => {
            // The program ended before the harness reported (an exception at import, `sys.exit`).
            let report = TestReport::from_run(failed_run(&outcome), &run, &outcome)
                .with_message("the program ended before the tests ran");
            return Ok(every(report));
        }
    };
    let tolerance = (options.checker == CheckerKind::Float)
        .then_some(Tolerance { abs: options.float_abs_tol, rel: options.float_rel_tol });
    let mut reports = Vec::with_capacity(results.len());
    for (case, result) in tests.cases.iter().zip(&results) {
        let failed_before = reports.iter().any(|r: &TestReport| r.verdict != TestVerdict::Passed);
        if options.stops_on_first_failure() && failed_before {
            reports.push(TestReport::bare(TestVerdict::Skipped));
            continue;
        }
        let report = if let Some(value) = result.get("value") {
            if values_match(&case.expected, value, tolerance) {
                TestReport::bare(TestVerdict::Passed)
            } else {
                TestReport::bare(TestVerdict::WrongAnswer).with_message(format!("returned {}", short(value)))
            }
        } else if let Some(repr) = result.get("repr") {
            TestReport::bare(TestVerdict::WrongAnswer).with_message(format!("returned {}", short(repr)))
        } else {
            let error = result.get("error").and_then(Value::as_str).unwrap_or("error");
            TestReport::bare(TestVerdict::RuntimeError).with_message(error.to_owned())
        };
        reports.push(report);
    }
    // The calls share one run: its fuel and time are reported once, on the first case.
    if let Some(first) = reports.first_mut() {
        first.fuel = Some(run.fuel_used);
        first.time_ms = Some((run.wall_time.as_secs_f64() * 1e6).round() / 1e3);
    }
    Ok(reports)
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn score(reports: Vec<TestReport>, options: &CodeOptions, language: &str) -> Verdict {
    let total = reports.len();
    let passed = reports.iter().filter(|r| r.verdict == TestVerdict::Passed).count();
    let fraction = if total == 0 { 0.0 } else { passed as f64 / total as f64 };
    let (score, status) = match options.scoring {
        Scoring::AllOrNothing if passed == total => (1.0, Status::Correct),
        Scoring::AllOrNothing => (0.0, Status::Incorrect),
        Scoring::Fraction if passed == total => (1.0, Status::Correct),
        Scoring::Fraction if passed > 0 => (fraction, Status::Partial),
        Scoring::Fraction => (0.0, Status::Incorrect),
    };
    Verdict::new(score, status)
        .with("language", language)
        .with("passed", passed)
        .with("total", total)
        .with("fuel", reports.iter().filter_map(|r| r.fuel).sum::<u64>())
        .with("tests", reports)
}
