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

/// A program compiled ahead runs as its source does, its runs do not count the compile, and
/// every run of it uses the same fuel, whether its code came from the cache or not.
#[tokio::test]
async fn a_program_compiled_ahead_runs_as_its_source_does() -> anyhow::Result<()> {
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let python = tokio::task::spawn_blocking(move || loading.python()).await??;
    let source = "# a_program_compiled_ahead_runs_as_its_source_does\nimport sys\nn = int(input())\n\
                  print(sum(i * i for i in range(n)))\nprint('done', file=sys.stderr)\n";
    let compiled = std::sync::Arc::clone(&python).compile_on(sandbox.host(), source.to_owned()).await?;
    assert!(compiled.is_compiled());
    assert_eq!(compiled.source(), source);
    let again = std::sync::Arc::clone(&python).compile_on(sandbox.host(), source.to_owned()).await?;
    let run = |program: referee_sandbox::PythonProgram| {
        let python = std::sync::Arc::clone(&python);
        let sandbox = std::sync::Arc::clone(&sandbox);
        async move { python.run_on(sandbox.host(), program, b"1000\n".to_vec(), None, 7, Limits::default()).await }
    };
    let (from_source, _) = run(source.into()).await?;
    let (first, _) = run(compiled).await?;
    let (second, _) = run(again).await?;
    for execution in [&from_source, &first, &second] {
        assert_eq!(execution.termination, Termination::Exited);
        assert_eq!(text(&execution.stdout), "332833500\n");
        assert_eq!(text(&execution.stderr), "done\n");
    }
    assert_eq!(first.fuel_used, second.fuel_used, "the cache does not change a run's fuel");
    assert!(first.fuel_used < from_source.fuel_used, "a run of compiled code does not count the compile");
    Ok(())
}

/// A program that does not compile, or whose compile warns, is left to its runs: they report the
/// `SyntaxError`, or show the warning on standard error, as a run from the source does.
#[tokio::test]
async fn a_program_that_does_not_compile_cleanly_is_compiled_in_its_runs() -> anyhow::Result<()> {
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let python = tokio::task::spawn_blocking(move || loading.python()).await??;
    for (source, exception) in [("print('\\d')\n", None), ("def f(:\n    pass\n", Some("SyntaxError"))] {
        let compiled = std::sync::Arc::clone(&python).compile_on(sandbox.host(), source.to_owned()).await?;
        assert!(!compiled.is_compiled(), "{source:?}");
        let host = sandbox.host();
        let (run, outcome) =
            std::sync::Arc::clone(&python).run_on(host, compiled, Vec::new(), None, 7, Limits::default()).await?;
        let (from_source, _) =
            std::sync::Arc::clone(&python).run_on(host, source, Vec::new(), None, 7, Limits::default()).await?;
        assert_eq!(outcome.exception.as_deref(), exception, "{source:?}");
        assert_eq!(outcome.compile_error, exception.is_some());
        assert_eq!(
            (&run.stdout, &run.stderr, run.fuel_used),
            (&from_source.stdout, &from_source.stderr, from_source.fuel_used)
        );
        if exception.is_none() {
            assert_eq!(text(&run.stdout), "\\d\n");
            assert!(text(&run.stderr).contains("SyntaxWarning"), "{}", text(&run.stderr));
        }
    }
    Ok(())
}
