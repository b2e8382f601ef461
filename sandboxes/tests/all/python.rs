//! The Python runtime against real wasmtime: what programs see and how runs end.

use std::time::Duration;

use referee_sandbox::{Execution, GuestOutcome, Limits, Termination};

use super::common;

async fn run(program: &str, stdin: &str, limits: Limits) -> anyhow::Result<(Execution, GuestOutcome)> {
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let python = tokio::task::spawn_blocking(move || loading.python()).await??;
    Ok(python.run_on(sandbox.host(), program.to_owned(), stdin.as_bytes().to_vec(), None, 7, limits).await?)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test]
async fn reads_stdin_and_writes_stdout() -> anyhow::Result<()> {
    let (run, outcome) =
        run("n = int(input())\nprint(sum(map(int, input().split())) * n)", "2\n1 2 3\n", Limits::default()).await?;
    assert_eq!(run.termination, Termination::Exited);
    assert_eq!(run.exit_code, 0);
    assert_eq!(text(&run.stdout), "12\n");
    assert_eq!(outcome.exception, None);
    assert!(run.fuel_used > 0);
    Ok(())
}

#[tokio::test]
async fn reports_exceptions_and_exit_codes() -> anyhow::Result<()> {
    let (run1, outcome) = run("import json\nprint('before')\nraise ValueError('boom')", "", Limits::default()).await?;
    assert_eq!(run1.termination, Termination::Exited);
    assert_eq!(run1.exit_code, 1);
    assert_eq!(outcome.exception.as_deref(), Some("ValueError"));
    assert_eq!(text(&run1.stdout), "before\n");
    assert!(text(&run1.stderr).contains("ValueError: boom"), "{}", text(&run1.stderr));

    let (run2, outcome) = run("import sys\nsys.exit(3)", "", Limits::default()).await?;
    assert_eq!((run2.termination, run2.exit_code, outcome.exception), (Termination::Exited, 3, None));
    Ok(())
}

#[tokio::test]
async fn fuel_stops_an_infinite_loop_deterministically() -> anyhow::Result<()> {
    let limits = Limits { fuel: 200_000_000, ..Limits::default() };
    let (first, _) = run("while True:\n    pass", "", limits).await?;
    let (second, _) = run("while True:\n    pass", "", limits).await?;
    assert_eq!(first.termination, Termination::OutOfFuel);
    assert_eq!(second.termination, Termination::OutOfFuel);
    assert_eq!(first.fuel_used, limits.fuel);
    Ok(())
}

#[tokio::test]
async fn the_wall_clock_stops_a_sleeping_guest() -> anyhow::Result<()> {
    let limits = Limits { wall_time: Duration::from_millis(300), ..Limits::default() };
    let (run, _) = run("import time\ntime.sleep(60)\nprint('woke')", "", limits).await?;
    assert_eq!(run.termination, Termination::TimedOut);
    assert!(run.stdout.is_empty());
    Ok(())
}

#[tokio::test]
async fn memory_and_output_caps_hold() -> anyhow::Result<()> {
    let limits = Limits { memory_bytes: 64 << 20, ..Limits::default() };
    let (bomb, _) = run("x = []\nwhile True:\n    x.append(bytearray(1 << 20))", "", limits).await?;
    assert_eq!(bomb.termination, Termination::MemoryExhausted, "{}", text(&bomb.stderr));
    assert!(bomb.memory_peak <= 64 << 20);

    let limits = Limits { stdout_bytes: 1 << 16, ..Limits::default() };
    let (flood, _) = run("while True:\n    print('y' * 100)", "", limits).await?;
    assert_eq!(flood.termination, Termination::OutputExceeded);
    assert_eq!(flood.stdout.len(), 1 << 16);

    let (one_write, _) = run("import sys\nsys.stdout.write('x' * (1 << 20))", "", limits).await?;
    assert_eq!(one_write.termination, Termination::OutputExceeded, "{} bytes", one_write.stdout.len());
    assert_eq!(one_write.stdout.len(), 1 << 16);

    let limits = Limits { stdout_bytes: 1 << 20, memory_bytes: 64 << 20, ..Limits::default() };
    let (huge, outcome) = run("import sys\nsys.stdout.write('x' * (1 << 24))", "", limits).await?;
    assert_eq!(
        huge.termination,
        Termination::OutputExceeded,
        "{} bytes, exit {}, {outcome:?}, {}",
        huge.stdout.len(),
        huge.exit_code,
        text(&huge.stderr)
    );

    let limits = Limits { stderr_bytes: 1 << 12, ..Limits::default() };
    let (errors, _) = run("import sys\nwhile True:\n    sys.stderr.write('e' * 100)", "", limits).await?;
    assert_eq!(errors.termination, Termination::OutputExceeded);
    Ok(())
}

#[tokio::test]
async fn ten_megabytes_of_output_pass_under_the_cap() -> anyhow::Result<()> {
    let program = "import sys\nline = 'z' * 99 + '\\n'\nfor _ in range(100_000):\n    sys.stdout.write(line)";
    let (run, _) = run(program, "", Limits::default()).await?;
    assert_eq!((run.termination, run.exit_code), (Termination::Exited, 0), "{}", text(&run.stderr));
    assert_eq!(run.stdout.len(), 10_000_000);
    assert!(run.stdout.chunks(100).all(|line| line.len() == 100 && line[99] == b'\n'));
    Ok(())
}

#[tokio::test]
async fn the_host_is_out_of_reach() -> anyhow::Result<()> {
    let program = r#"
import os
for path in ["/etc/passwd", "/proc/self/environ", "."]:
    try:
        open(path).read()
        print("read", path)
    except OSError as e:
        print("denied", type(e).__name__)
print(dict(os.environ))
try:
    import socket
    socket.socket().connect(("127.0.0.1", 22))
    print("connected")
except Exception as e:
    print("no network", type(e).__name__)
"#;
    let (run, _) = run(program, "", Limits::default()).await?;
    let out = text(&run.stdout);
    assert!(!out.contains("read "), "{out}");
    assert!(!out.contains("connected"), "{out}");
    assert!(out.contains("{}"), "{out}");
    Ok(())
}

#[tokio::test]
async fn random_is_seeded_per_run() -> anyhow::Result<()> {
    let (a, _) = run("import random\nprint(random.random())", "", Limits::default()).await?;
    let (b, _) = run("import random\nprint(random.random())", "", Limits::default()).await?;
    assert_eq!(a.stdout, b.stdout);
    Ok(())
}

async fn run_with_harness(program: &str, harness: &str) -> anyhow::Result<(Execution, GuestOutcome)> {
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let python = tokio::task::spawn_blocking(move || loading.python()).await??;
    let (program, harness) = (program.to_owned(), Some(harness.to_owned()));
    Ok(python.run_on(sandbox.host(), program, Vec::new(), harness, 7, Limits::default()).await?)
}

/// A harness is compiled once and kept; a run with the kept code does what the first run did,
/// down to its fuel, its report and its traceback's lines.
#[tokio::test]
async fn a_kept_harness_runs_as_the_first_one_did() -> anyhow::Result<()> {
    const PROGRAM: &str = "def add(a, b):\n    return a + b\n";
    let passing = "# a_kept_harness_runs_as_the_first_one_did: passing\nassert add(2, 3) == 5\n\
                   __referee_report__ = 'checked'\n";
    let failing = "# a_kept_harness_runs_as_the_first_one_did: failing\n\nassert add(2, 2) == 5, 'two and two'\n";
    let broken = "# a_kept_harness_runs_as_the_first_one_did: broken\nassert add(2, 3) ==\n";

    let first = run_with_harness(PROGRAM, passing).await?;
    let again = run_with_harness(PROGRAM, passing).await?;
    for (execution, outcome) in [&first, &again] {
        assert_eq!(execution.termination, Termination::Exited);
        assert_eq!(execution.exit_code, 0, "{}", text(&execution.stderr));
        assert_eq!(outcome.report, "checked");
    }
    assert_eq!(first.0.fuel_used, again.0.fuel_used, "a run's fuel does not depend on the cache");

    let first = run_with_harness(PROGRAM, failing).await?;
    let again = run_with_harness(PROGRAM, failing).await?;
    for (execution, outcome) in [&first, &again] {
        assert_eq!(outcome.exception.as_deref(), Some("AssertionError"));
        let stderr = text(&execution.stderr);
        assert!(stderr.contains("File \"<harness>\", line 3"), "{stderr}");
        assert!(stderr.contains("two and two"), "{stderr}");
    }
    assert_eq!(first.0.stderr, again.0.stderr);
    assert_eq!(first.0.fuel_used, again.0.fuel_used);

    let first = run_with_harness(PROGRAM, broken).await?;
    let again = run_with_harness(PROGRAM, broken).await?;
    for (execution, outcome) in [&first, &again] {
        assert_eq!(outcome.exception.as_deref(), Some("SyntaxError"), "{}", text(&execution.stderr));
        assert!(!outcome.compile_error, "the program compiled; its harness did not");
    }
    assert_eq!(first.0.stderr, again.0.stderr);
    Ok(())
}

/// What a program does to the interpreter before its harness runs (here: every warning an
/// error) does not change how the harness compiles.
#[tokio::test]
async fn a_program_cannot_change_how_its_harness_compiles() -> anyhow::Result<()> {
    let program = "import warnings\nwarnings.simplefilter('error')\n";
    // "\d" is an invalid escape: a SyntaxWarning, which the filter above would make an error.
    let harness = "# a_program_cannot_change_how_its_harness_compiles\npattern = '\\d'\n__referee_report__ = pattern\n";
    let (execution, outcome) = run_with_harness(program, harness).await?;
    assert_eq!(execution.exit_code, 0, "{}", text(&execution.stderr));
    assert_eq!(outcome.report, "\\d");
    Ok(())
}
