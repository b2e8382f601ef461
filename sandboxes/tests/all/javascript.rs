//! The JavaScript runtime against real wasmtime, and against Node.js where Node.js is the
//! reference: sorting calls the comparator as V8 does and leaves V8's result, whatever the
//! comparator; timers cost the logarithm of their number each, not their number.

use std::process::Command;

use referee_sandbox::{Execution, JsHarness, Limits, Termination};

use super::common;

async fn run(program: &str, limits: Limits) -> anyhow::Result<Execution> {
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let javascript = tokio::task::spawn_blocking(move || loading.javascript()).await??;
    let (execution, _) =
        javascript.run_on(sandbox.host(), program.to_owned(), Vec::new(), JsHarness::None, limits).await?;
    Ok(execution)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The sort sweep of `tests/data/sort_sweep.js` over seeds `first..=last`.
fn sort_sweep(first: u32, last: u32) -> String {
    format!("const SEEDS = [{first}, {last}];\n{}", include_str!("../data/sort_sweep.js"))
}

/// Node.js's standard output on `program`.
fn node(program: &str) -> anyhow::Result<String> {
    let output = Command::new("node").args(["-e", program]).output().map_err(|e| {
        anyhow::anyhow!("node is required: this test compares the sandbox's output with Node.js's ({e})")
    })?;
    anyhow::ensure!(output.status.success(), "node failed: {}", text(&output.stderr));
    Ok(text(&output.stdout))
}

/// Runs the sweep over `first..=last` under Node.js and in the sandbox: the same lines.
async fn sorts_as_node_sorts(first: u32, last: u32) -> anyhow::Result<()> {
    let program = sort_sweep(first, last);
    let expected = node(&program)?;
    let limits = Limits { fuel: 200_000_000_000, wall_time: std::time::Duration::from_secs(300), ..Limits::default() };
    let run = run(&program, limits).await?;
    assert_eq!((run.termination, run.exit_code), (Termination::Exited, 0), "{}", text(&run.stderr));
    let got = text(&run.stdout);
    let lines = expected.lines().count();
    assert!(lines > (last - first) as usize * 6, "the sweep printed {lines} lines");
    if let Some((index, (node, sandbox))) =
        expected.lines().zip(got.lines()).enumerate().find(|(_, (node, sandbox))| node != sandbox)
    {
        panic!("line {} differs:\nnode:    {node}\nsandbox: {sandbox}", index + 1);
    }
    assert_eq!(got.lines().count(), lines, "the sandbox printed another number of lines");
    eprintln!("{lines} lines as Node.js prints them, {} fuel", run.fuel_used);
    Ok(())
}

#[tokio::test]
async fn sorting_calls_the_comparator_as_node_does() -> anyhow::Result<()> {
    // 40 seeds: every comparator several times, arrays past 64 elements (merges, galloping).
    sorts_as_node_sorts(1, 40).await
}

#[tokio::test]
#[ignore = "full tier (scripts/test --full): 3,000 random arrays and comparators against Node.js (a minute of QuickJS)"]
async fn sorting_calls_the_comparator_as_node_does_on_many_arrays() -> anyhow::Result<()> {
    sorts_as_node_sorts(41, 3000).await
}

#[tokio::test]
async fn an_inconsistent_comparator_leaves_what_node_leaves() -> anyhow::Result<()> {
    // The example: a comparator that returns a boolean is never negative, so V8's
    // TimSort sees one ascending run and leaves the array as it was.
    let program = "console.log([3, 1, 2, 5, 4].sort((a, b) => a > b).join(','));\n\
                   console.log([3, 1, 2, 5, 4].toSorted((a, b) => a < b).join(','));\n\
                   console.log(Array.from(new Int32Array([3, 1, 2, 5, 4]).sort((a, b) => a > b)).join(','));\n\
                   console.log([, 'b', undefined, 'a', , 10, 9].sort().map(String).join(','), 1 in [, 1].sort());";
    let run = run(program, Limits::default()).await?;
    assert_eq!(text(&run.stdout), "3,1,2,5,4\n3,1,2,5,4\n1,2,3,4,5\n10,9,a,b,undefined,, false\n");
    Ok(())
}

/// A program that sets `count` zero-delay timers, each counting, and prints the count.
fn timers(count: u32) -> String {
    format!(
        "let fired = 0;\nfor (let i = 0; i < {count}; i++) setTimeout(() => {{ fired++; }}, 0);\n\
         setTimeout(() => console.log(fired), 0);\n"
    )
}

#[tokio::test]
async fn timers_cost_a_logarithm_of_their_number_each() -> anyhow::Result<()> {
    let mut fuel = Vec::new();
    for count in [0, 1_000, 10_000] {
        let run = run(&timers(count), Limits::default()).await?;
        assert_eq!((run.termination, run.exit_code), (Termination::Exited, 0), "{}", text(&run.stderr));
        assert_eq!(text(&run.stdout), format!("{count}\n"));
        fuel.push(run.fuel_used);
    }
    let [none, thousand, ten_thousand] = [fuel[0], fuel[1], fuel[2]];
    let per_thousand = thousand - none;
    let per_ten_thousand = ten_thousand - none;
    eprintln!("fuel: no timers {none}, 1,000 timers {thousand}, 10,000 timers {ten_thousand}");
    // Ten times the timers cost about ten times the fuel (a heap: n log n); a scan of every
    // pending timer at each firing cost a hundred times.
    assert!(
        per_ten_thousand < 13 * per_thousand,
        "10,000 timers cost {per_ten_thousand} fuel, 1,000 cost {per_thousand}: more than n log n"
    );
    assert!(ten_thousand < Limits::default().fuel / 4, "10,000 timers cost {ten_thousand} fuel");
    Ok(())
}
