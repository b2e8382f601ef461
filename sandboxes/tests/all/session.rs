//! Persistent Python sessions against real wasmtime: state across cells, values, exceptions, and
//! what a trapped cell leaves behind.

use std::sync::Arc;
use std::time::Duration;

use referee_sandbox::{CellOutcome, Execution, Limits, PythonSession, Sandbox, SandboxError, Termination};

use super::common;

async fn start(sandbox: &Arc<Sandbox>, limits: Limits) -> anyhow::Result<PythonSession> {
    let loading = Arc::clone(sandbox);
    let python = tokio::task::spawn_blocking(move || loading.python()).await??;
    Ok(PythonSession::start_on(python, sandbox.host(), 7, limits).await?)
}

async fn cell(
    sandbox: &Sandbox,
    session: PythonSession,
    source: &str,
    limits: Limits,
) -> anyhow::Result<(PythonSession, Execution, CellOutcome)> {
    let (session, result) = session.run_cell_on(sandbox.host(), source.to_owned(), limits).await?;
    let (execution, outcome) = result?;
    Ok((session, execution, outcome))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test]
async fn variables_imports_and_functions_persist_across_cells() -> anyhow::Result<()> {
    let sandbox = common::shared()?;
    let limits = Limits::default();
    let session = start(&sandbox, limits).await?;
    let (session, run, first) =
        cell(&sandbox, session, "import math\nx = 6\ndef f(n):\n    return n * x\nprint('set')", limits).await?;
    assert_eq!((run.termination, text(&run.stdout)), (Termination::Exited, "set\n".to_owned()));
    assert_eq!((first.cell, first.value, first.exception), (1, None, None));

    let (session, run, second) = cell(&sandbox, session, "y = f(7)\nmath.sqrt(y + 7)", limits).await?;
    assert_eq!(second.value.as_deref(), Some("7.0"), "{}", text(&run.stderr));
    assert!(run.stdout.is_empty());
    assert_eq!(second.cell, 2);

    // `_` holds the last value; a final expression that is None reports nothing.
    let (session, _, third) = cell(&sandbox, session, "_ * 2", limits).await?;
    assert_eq!(third.value.as_deref(), Some("14.0"));
    let (session, _, fourth) = cell(&sandbox, session, "print('side effect')", limits).await?;
    assert_eq!(fourth.value, None);
    let (session, _, long) = cell(&sandbox, session, "'x' * 70000", limits).await?;
    let shown = long.value.as_deref().map(str::len);
    assert_eq!((shown, long.value_truncated), (Some(65536), true), "a long repr is cut and says so");
    assert!(session.is_alive());
    Ok(())
}

#[tokio::test]
async fn an_exception_ends_the_cell_not_the_session() -> anyhow::Result<()> {
    let sandbox = common::shared()?;
    let limits = Limits::default();
    let session = start(&sandbox, limits).await?;
    let (session, run, outcome) = cell(&sandbox, session, "a = 1\nprint('before')\n1 / 0", limits).await?;
    let exception = outcome.exception.as_ref().map(|e| (e.kind.as_str(), e.message.as_str()));
    assert_eq!(exception, Some(("ZeroDivisionError", "division by zero")));
    assert_eq!(text(&run.stdout), "before\n");
    let stderr = text(&run.stderr);
    assert!(stderr.contains("<cell 1>") && stderr.contains("ZeroDivisionError"), "{stderr}");
    assert!(!stderr.contains("session.py"), "the driver's frames are not shown: {stderr}");

    let (session, _, syntax) = cell(&sandbox, session, "def broken(:\n", limits).await?;
    assert_eq!(syntax.exception.map(|e| e.kind).as_deref(), Some("SyntaxError"));
    let (session, _, exit) = cell(&sandbox, session, "import sys\nsys.exit(3)", limits).await?;
    assert_eq!(exit.exception.map(|e| e.kind).as_deref(), Some("SystemExit"));
    let (session, _, after) = cell(&sandbox, session, "a + 1", limits).await?;
    assert_eq!(after.value.as_deref(), Some("2"), "state survives exceptions and SystemExit");
    assert!(session.is_alive());
    Ok(())
}

#[tokio::test]
async fn a_trapped_cell_ends_the_session() -> anyhow::Result<()> {
    let sandbox = common::shared()?;
    let limits = Limits { fuel: 300_000_000, ..Limits::default() };
    let session = start(&sandbox, limits).await?;
    let (session, run, _) = cell(&sandbox, session, "while True:\n    pass", limits).await?;
    assert_eq!((run.termination, run.fuel_used), (Termination::OutOfFuel, limits.fuel));
    assert!(!session.is_alive());
    let (session, again) = session.run_cell_on(sandbox.host(), "1".to_owned(), limits).await?;
    assert!(matches!(again, Err(SandboxError::SessionEnded)), "{again:?}");
    drop(session);

    // The wall clock, and an output flood, end it the same way.
    let short = Limits { wall_time: Duration::from_millis(300), ..Limits::default() };
    let session = start(&sandbox, short).await?;
    let (session, run, _) = cell(&sandbox, session, "import time\ntime.sleep(30)", short).await?;
    assert_eq!(run.termination, Termination::TimedOut);
    assert!(!session.is_alive());

    let capped = Limits { stdout_bytes: 1 << 12, ..Limits::default() };
    let session = start(&sandbox, capped).await?;
    let (session, run, _) = cell(&sandbox, session, "while True:\n    print('y' * 100)", capped).await?;
    assert_eq!((run.termination, run.stdout.len()), (Termination::OutputExceeded, 1 << 12));
    assert!(!session.is_alive());
    Ok(())
}

#[tokio::test]
async fn each_cell_has_its_own_budget_and_output() -> anyhow::Result<()> {
    let sandbox = common::shared()?;
    let limits = Limits { fuel: 3_000_000_000, stdout_bytes: 1 << 12, ..Limits::default() };
    let session = start(&sandbox, limits).await?;
    // Three cells that each spend over a third of a cell's fuel and write most of its output:
    // none is cut short by what the cells before it spent or wrote.
    let source = "s = 0\nfor i in range(1_000_000):\n    s += i\nprint('x' * 3000)\ns";
    let mut session = session;
    let mut spent = Vec::new();
    for _ in 0..3 {
        let (next, run, outcome) = cell(&sandbox, session, source, limits).await?;
        assert_eq!(run.termination, Termination::Exited, "{} fuel: {}", run.fuel_used, text(&run.stderr));
        assert_eq!(run.stdout.len(), 3001);
        assert_eq!(outcome.value.as_deref(), Some("499999500000"));
        spent.push(run.fuel_used);
        session = next;
    }
    assert!(spent.iter().sum::<u64>() > limits.fuel, "three cells spend more than one cell's budget: {spent:?}");
    Ok(())
}

#[tokio::test]
async fn the_memory_cap_holds_for_the_session_and_a_caught_memory_error_keeps_it() -> anyhow::Result<()> {
    let sandbox = common::shared()?;
    let limits = Limits { memory_bytes: 96 << 20, ..Limits::default() };
    let session = start(&sandbox, limits).await?;
    let (session, _, _) = cell(&sandbox, session, "keep = bytearray(40 << 20)", limits).await?;
    let source = "try:\n    more = bytearray(80 << 20)\nexcept MemoryError:\n    print('refused')\nlen(keep)";
    let (session, run, outcome) = cell(&sandbox, session, source, limits).await?;
    assert_eq!(text(&run.stdout), "refused\n", "{}", text(&run.stderr));
    assert_eq!(outcome.value.as_deref(), Some(&*(40 << 20).to_string()));
    assert!(session.is_alive());
    assert!(session.memory_peak() <= 96 << 20);
    Ok(())
}
