//! A check program's run and its verdict: C, C++ and Rust test programs compiled with the
//! program, Go test files, Rust `#[should_panic]` tests (each run on its own after the other
//! tests passed), Python and JavaScript check programs run after the program; and the notes that
//! name what the sandbox does not offer (threads, more than one CPU) when a run meets it.

use referee_sandbox::{Execution, GuestOutcome, NativeLanguage};

use super::{CheckProgram, Harness, Judged, Runner, TestReport, TestVerdict, excerpt, failed_run, limit_verdict};

/// Runs a check program and judges its run; a Rust test build's `#[should_panic]` tests then run
/// one by one, and the first that fails decides.
pub(super) async fn check_program(runner: &Runner, program: &str, check: &CheckProgram) -> Judged {
    let (run, outcome) = match runner.run_harness(program, Harness::Check(check), 1).await {
        Ok(done) => done,
        Err(stop) => return Err((stop, Vec::new())),
    };
    let mut report = check_report(runner, &run, &outcome);
    let uses_cpus = |source: &str| source.contains("NumCPU") || source.contains("GOMAXPROCS");
    let go = runner.native.as_ref().is_some_and(|native| native.program.build() == NativeLanguage::GoTests);
    if go && report.verdict != TestVerdict::Passed && (uses_cpus(program) || uses_cpus(&check.program)) {
        report = report.with_note(GO_ONE_CPU);
    }
    let panic_tests = runner.native.as_ref().map_or(0, |native| native.program.panic_tests().len());
    if report.verdict != TestVerdict::Passed || panic_tests == 0 {
        return Ok(vec![report]);
    }
    // A Rust test build's `#[should_panic]` tests, each on its own after the others passed.
    let mut fuel = run.fuel_used;
    for index in 0..panic_tests {
        let (run, outcome) = match runner.run_panic_test(index).await {
            Ok(done) => done,
            Err(stop) => return Err((stop, Vec::new())),
        };
        fuel = fuel.saturating_add(run.fuel_used);
        let mut report = panic_test_report(&run, &outcome);
        report.fuel = Some(fuel);
        if report.verdict != TestVerdict::Passed {
            return Ok(vec![report]);
        }
    }
    report.fuel = Some(fuel);
    Ok(vec![report])
}

/// The verdict of a Rust `#[should_panic]` test's own run: it passed when the run exited with
/// status 0 without calling `exit` (the sandbox's reading of the panic hook's status); status
/// 101 is the test failing as libtest fails it (no panic, or another message), said on standard
/// error; anything else is a run that went wrong.
fn panic_test_report(run: &Execution, outcome: &GuestOutcome) -> TestReport {
    let verdict = match limit_verdict(run) {
        Some(verdict) => verdict,
        None if run.exit_code == 0 && !run.exit_called => TestVerdict::Passed,
        None if run.exit_code == 0 => {
            return TestReport::from_run(TestVerdict::RuntimeError, run, outcome).with_message(EXITED_EARLY);
        }
        None if run.exit_code == PANIC_TEST_FAILED => {
            let said = excerpt(&run.stderr).trim().to_owned();
            return TestReport::from_run(TestVerdict::WrongAnswer, run, outcome).with_message(said);
        }
        None => TestVerdict::RuntimeError,
    };
    TestReport::from_run(verdict, run, outcome)
}

/// The status a Rust `#[should_panic]` test's run fails with: libtest's.
const PANIC_TEST_FAILED: i32 = 101;

/// The report of a check program's run.
fn check_report(runner: &Runner, run: &Execution, outcome: &GuestOutcome) -> TestReport {
    let compiled = runner.native.is_some();
    let verdict = match limit_verdict(run) {
        // A compiled test program's failed assertion aborts the program (a trap).
        Some(TestVerdict::RuntimeError) if compiled && failed_assertion(&run.stderr) => TestVerdict::WrongAnswer,
        Some(verdict) => verdict,
        // `exit(0)` (in the function under test, or a constructor before `main`) ends the run
        // with the status of a pass before the test program's `main` has returned: not a pass.
        None if compiled && run.exit_code == 0 && run.exit_called => {
            return TestReport::from_run(TestVerdict::RuntimeError, run, outcome).with_message(EXITED_EARLY);
        }
        None if run.exit_code == 0 && (compiled || outcome.report == "checked") => TestVerdict::Passed,
        None if outcome.exception.as_deref() == Some("AssertionError") => TestVerdict::WrongAnswer,
        None if compiled && failed_assertion(&run.stderr) => TestVerdict::WrongAnswer,
        None if compiled && failed_go_test(run) => {
            // A Go test reports its failure on standard output: that is the message.
            return TestReport::from_run(TestVerdict::WrongAnswer, run, outcome).with_message(excerpt(&run.stdout));
        }
        None => failed_run(outcome),
    };
    TestReport::from_run(verdict, run, outcome)
}

/// Whether a Go test binary's run failed a test (`t.Error`, testify's `assert` and `require`)
/// rather than panicking: a failed test prints `--- FAIL:` and the run exits with status 1; a
/// panic (status 2) is a runtime error even though it fails its test too.
fn failed_go_test(run: &Execution) -> bool {
    run.exit_code == 1
        && String::from_utf8_lossy(&run.stdout).lines().any(|line| line.trim_start().starts_with("--- FAIL: "))
        && !String::from_utf8_lossy(&run.stderr).lines().any(|line| line.starts_with("panic: "))
}

/// Why a compiled test program that exited with status 0 did not pass.
const EXITED_EARLY: &str = "the program called exit with status 0 instead of returning from main: \
                            the test program did not finish";

/// Whether a compiled program's standard error shows a failed assertion, as C's `assert` (in
/// wasi-libc) and Rust's `assert!`, `assert_eq!` and `assert_ne!` report one, rather than
/// another runtime error.
fn failed_assertion(stderr: &[u8]) -> bool {
    let stderr = String::from_utf8_lossy(stderr);
    stderr.lines().any(|line| {
        line.starts_with("Assertion failed: ")
            || line.contains("panicked at 'assertion failed")
            || line.contains("panicked at 'assertion `")
    })
}

/// What a compiled program that panicked on an operation WASI preview 1 does not offer reached
/// for, in words a model can act on: Rust's standard library answers `operation not supported
/// on this platform` and the program panics with a message that names neither the sandbox nor
/// the way out.
pub(crate) fn unsupported_operation(stderr: &[u8]) -> Option<&'static str> {
    let stderr = String::from_utf8_lossy(stderr);
    if !stderr.contains("operation not supported on this platform") && !stderr.contains("Unsupported") {
        return None;
    }
    if stderr.contains("failed to spawn thread") {
        Some(
            "threads are not available in the sandbox: std::thread::spawn (and thread::scope's spawn) fails with \
             \"operation not supported on this platform\", because programs run as single-threaded WebAssembly \
             (WASI preview 1); do the work on the main thread",
        )
    } else if stderr.contains("operation not supported on this platform") {
        Some(
            "the program used an operation the sandbox does not offer (threads, processes, sockets or files): \
             programs run as WebAssembly with standard input and output only",
        )
    } else {
        None
    }
}

/// What a failed Go test that asks for the machine's CPUs meets in the sandbox.
const GO_ONE_CPU: &str = "note: Go runs on one CPU in the sandbox (WebAssembly has one thread): \
                                     runtime.NumCPU() is 1 and GOMAXPROCS is 1, so a test that needs more than \
                                     one CPU fails here";
