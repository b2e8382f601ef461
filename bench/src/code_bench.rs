//! Executions per second of the `code` verifier against a runner that spawns one native
//! process per test (`python3`, `node` for JavaScript, a binary built by the same `rustc` for
//! Rust or the same Go toolchain for Go: what SandboxFusion and most peers do), on the same
//! programs, tests and limits, in the same job.
//!
//! Workloads (Python; the `js-` ones are the same in JavaScript against Node.js):
//! - `small`: a two-number sum read from standard input, many small tests;
//! - `small-same`: `small` with one program in every item, where the others give every item a
//!   program of its own (a comment tells them apart), as the rollouts of one problem have: the
//!   sandbox compiles a program once for all its tests, and keeps it for an item that repeats it;
//! - `imports`: a program that imports a dozen standard-library modules before a small task;
//! - `humaneval`: one HumanEval problem, its canonical solution and its whole check program as
//!   one execution, the check program shared by all items;
//! - `humaneval-fresh`: `humaneval` with a different check program in every item too, so that no
//!   item finds its compiled check program kept;
//! - `cpu`: a CPU-bound pure-Python loop, one execution at a time, to compare per-execution time
//!   with native `python3`;
//! - `js-small`, `js-humaneval` (HumanEval-X's JavaScript/129 with its test program), `js-cpu`;
//! - `rs-small`, `rs-humaneval` (HumanEval-X's Rust/129 with its `#[test]` module), `rs-cpu`:
//!   every item is the same program, so the sandbox compiles it once (its compile cache) and the
//!   native runner builds it once per workload, both inside the measurement;
//! - `rs-fresh`: `rs-small` with one test per item and a different program in every item (a
//!   comment tells them apart), so both sides compile every item: the cost the cache saves;
//! - `go-small`, `go-fresh`, `go-humaneval` (HumanEval-X's Go/129 with its testify test file),
//!   `go-cpu`: the same for Go, the native side built by `go build` (`go test -c`) for the host.
//!
//! Every execution's result is checked on both sides: a run where a correct program does not
//! pass fails the benchmark. The report goes to stderr as a table and to stdout as one JSON line.

use std::io::{Read as _, Write as _};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use clap::Parser;
use referee_code::{CodeInput, CodeVerifier, Sandbox, SandboxConfig};
use referee_core::{Budget, RewardModel as _, Status};
use serde_json::{Value, json};
use wait_timeout::ChildExt as _;

/// Command-line options of the code benchmark.
#[derive(Debug, Parser)]
#[command(name = "code-bench", about = "The code verifier against python3 and node subprocess runners")]
struct Options {
    /// Parallel workers of the subprocess runner (the sandbox uses one per core).
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    workers: usize,
    /// Tests per item in the `small` and `imports` workloads.
    #[arg(long, default_value_t = 10)]
    tests: usize,
    /// Items per workload (the `cpu` workload runs `--cpu-runs` instead).
    #[arg(long, default_value_t = 40)]
    items: usize,
    /// Sequential runs of the CPU-bound program on each side.
    #[arg(long, default_value_t = 3)]
    cpu_runs: usize,
    /// Interpreter the subprocess runner spawns for Python; default: the CPython 3.10 or later
    /// on this machine that starts fastest (see [`peer_python`]).
    #[arg(long)]
    python: Option<String>,
    /// Interpreter the subprocess runner spawns for JavaScript.
    #[arg(long, default_value = "node")]
    node: String,
    /// The Rust compiler of the native runner: Debian's, which the sandbox uses too.
    #[arg(long, default_value = "/usr/bin/rustc")]
    rustc: String,
    /// The Go toolchain of the native runner; default: the one the sandbox uses, in its
    /// runtimes folder.
    #[arg(long)]
    go: Option<String>,
    /// Only these workloads (comma-separated); all by default.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Runs the sandbox's instance pool keeps ready (`sandbox.pool_runs`); 0 allocates on demand.
    /// Default: the server's, 2 × workers + 2.
    #[arg(long)]
    pool_runs: Option<usize>,
}

/// The wall-clock limit both runners apply to one execution.
const WALL: Duration = Duration::from_secs(20);
/// The output cap both runners apply to one execution.
const OUTPUT_BYTES: usize = 1 << 20;
/// Fuel per execution: generous, so only the wall clock differs between the runners.
const FUEL: u64 = 400_000_000_000;

const SMALL: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

const IMPORTS: &str = "import json, re, collections, fractions, decimal, itertools, heapq, functools, math, \
bisect, statistics, datetime, string, random, typing, dataclasses
n = int(input())
counts = collections.Counter(re.findall(r'\\d', str(math.factorial(n))))
print(json.dumps(sorted(counts.items())))
";

const CPU: &str = "def primes(limit):
    found = 0
    for n in range(2, limit):
        d = 2
        while d * d <= n:
            if n % d == 0:
                break
            d += 1
        else:
            found += 1
    return found
print(primes(int(input())))
";

const JS_SMALL: &str =
    "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(' ').map(Number);\nconsole.log(a + b);\n";

const JS_CPU: &str = "function primes(limit) {
    let found = 0;
    for (let n = 2; n < limit; n++) {
        let d = 2;
        while (d * d <= n && n % d !== 0) d++;
        if (d * d > n) found++;
    }
    return found;
}
console.log(primes(Number(require('fs').readFileSync(0, 'utf8'))));
";

const RS_SMALL: &str = "fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    let n: Vec<i64> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
    println!(\"{}\", n[0] + n[1]);
}
";

const RS_CPU: &str = "fn primes(limit: u64) -> u64 {
    let mut found = 0;
    for n in 2..limit {
        let mut d = 2;
        while d * d <= n && n % d != 0 {
            d += 1;
        }
        if d * d > n {
            found += 1;
        }
    }
    found
}
fn main() {
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).unwrap();
    println!(\"{}\", primes(line.trim().parse().unwrap()));
}
";

const GO_SMALL: &str = "package main

import \"fmt\"

func main() {
    var a, b int64
    fmt.Scan(&a, &b)
    fmt.Println(a + b)
}
";

const GO_CPU: &str = "package main

import \"fmt\"

func primes(limit uint64) uint64 {
    found := uint64(0)
    for n := uint64(2); n < limit; n++ {
        d := uint64(2)
        for d*d <= n && n%d != 0 {
            d++
        }
        if d*d > n {
            found++
        }
    }
    return found
}

func main() {
    var limit uint64
    fmt.Scan(&limit)
    fmt.Println(primes(limit))
}
";

/// The language of a workload and the native interpreter its peer runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Python,
    JavaScript,
    Rust,
    Go,
}

impl Lang {
    fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::Rust => "rust",
            Lang::Go => "go",
        }
    }

    /// What starts a line comment.
    fn comment(self) -> &'static str {
        if self == Lang::Python { "#" } else { "//" }
    }

    fn suffix(self) -> &'static str {
        match self {
            Lang::Python => ".py",
            Lang::JavaScript => ".js",
            Lang::Rust => ".rs",
            Lang::Go => ".go",
        }
    }

    /// The interpreter the native runner spawns, or for Rust and Go the compiler it builds with.
    fn interpreter(self, options: &Options) -> String {
        match self {
            Lang::Python => options.python.clone().unwrap_or_else(|| "python3".into()),
            Lang::JavaScript => options.node.clone(),
            Lang::Rust => options.rustc.clone(),
            Lang::Go => options.go.clone().unwrap_or_else(|| {
                SandboxConfig::default().runtimes_dir.join("go/goroot/bin/go").to_string_lossy().into_owned()
            }),
        }
    }

    /// Whether the native runner builds a binary first.
    fn compiled(self) -> bool {
        matches!(self, Lang::Rust | Lang::Go)
    }
}

/// One test: its standard input and expected output.
#[derive(Debug, Clone)]
struct Case {
    stdin: String,
    expected: String,
}

/// One workload: a program and its tests, as both runners see it.
#[derive(Debug, Clone)]
struct Workload {
    name: &'static str,
    language: Lang,
    program: String,
    cases: Vec<Case>,
    /// For `humaneval`: the check program and entry point; the program then runs once per item.
    check: Option<(String, String)>,
    /// Whether every item differs (by a comment), so that nothing one item compiled serves the
    /// next: its program, or with a check program its check program.
    fresh: bool,
    /// Whether every item's program differs (by a comment), as the rollouts of one problem do,
    /// so that a program is compiled once per item and a shared check program is kept.
    program_per_item: bool,
}

impl Workload {
    /// The program of item `index`.
    fn program_of(&self, index: usize) -> String {
        if (self.fresh && self.check.is_none()) || self.program_per_item {
            format!("{}{} item {index}\n", self.program, self.language.comment())
        } else {
            self.program.clone()
        }
    }

    /// The check program of item `index`, for a workload with one.
    fn check_of(&self, index: usize) -> Option<String> {
        let (check, _) = self.check.as_ref()?;
        Some(if self.fresh { format!("{check}\n{} item {index}\n", self.language.comment()) } else { check.clone() })
    }
}

fn small(tests: usize) -> Workload {
    let cases = (0..tests)
        .map(|i| {
            let (a, b) = (i as i64 * 7919 - 5000, i as i64 * 104_729);
            Case { stdin: format!("{a} {b}\n"), expected: format!("{}\n", a + b) }
        })
        .collect();
    Workload {
        name: "small",
        language: Lang::Python,
        program: SMALL.into(),
        cases,
        check: None,
        fresh: false,
        program_per_item: true,
    }
}

fn imports(python: &str, tests: usize) -> anyhow::Result<Workload> {
    let mut cases = Vec::new();
    for i in 0..tests {
        let stdin = format!("{}\n", 20 + i);
        // The expected output comes from the host interpreter; the sandbox must agree with it.
        let expected = run_native(python, Lang::Python, IMPORTS, &stdin)?.0;
        cases.push(Case { stdin, expected });
    }
    Ok(Workload {
        name: "imports",
        language: Lang::Python,
        program: IMPORTS.into(),
        cases,
        check: None,
        fresh: false,
        program_per_item: true,
    })
}

fn humaneval() -> anyhow::Result<Workload> {
    // HumanEval/129 (minPath) has one of the longer check programs; any problem would do.
    let line = include_str!("../../verifiers/code/tests/data/HumanEval.jsonl")
        .lines()
        .find(|l| l.contains("\"HumanEval/129\""))
        .context("HumanEval/129 is missing")?;
    let row: Value = serde_json::from_str(line)?;
    let field = |name: &str| row[name].as_str().map(str::to_owned).context(name.to_owned());
    let program = format!("{}{}", field("prompt")?, field("canonical_solution")?);
    Ok(Workload {
        name: "humaneval",
        language: Lang::Python,
        program,
        cases: vec![Case { stdin: String::new(), expected: String::new() }],
        check: Some((field("test")?, field("entry_point")?)),
        fresh: false,
        program_per_item: true,
    })
}

fn cpu(python: &str) -> anyhow::Result<Workload> {
    let stdin = "60000\n".to_owned();
    let expected = run_native(python, Lang::Python, CPU, &stdin)?.0;
    Ok(Workload {
        name: "cpu",
        language: Lang::Python,
        program: CPU.into(),
        cases: vec![Case { stdin, expected }],
        check: None,
        fresh: false,
        program_per_item: false,
    })
}

fn js_small(tests: usize) -> Workload {
    Workload { name: "js-small", language: Lang::JavaScript, program: JS_SMALL.into(), ..small(tests) }
}

fn js_humaneval() -> anyhow::Result<Workload> {
    let line = include_str!("../../verifiers/code/tests/data/humaneval-x-js.jsonl")
        .lines()
        .find(|l| l.contains("\"JavaScript/129\""))
        .context("JavaScript/129 is missing")?;
    let row: Value = serde_json::from_str(line)?;
    let field = |name: &str| row[name].as_str().map(str::to_owned).context(name.to_owned());
    Ok(Workload {
        name: "js-humaneval",
        language: Lang::JavaScript,
        program: format!("{}{}", field("prompt")?, field("canonical_solution")?),
        cases: vec![Case { stdin: String::new(), expected: String::new() }],
        check: Some((field("test")?, "minPath".into())),
        fresh: false,
        program_per_item: false,
    })
}

fn js_cpu(node: &str) -> anyhow::Result<Workload> {
    let stdin = "300000\n".to_owned();
    let expected = run_native(node, Lang::JavaScript, JS_CPU, &stdin)?.0;
    Ok(Workload {
        name: "js-cpu",
        language: Lang::JavaScript,
        program: JS_CPU.into(),
        cases: vec![Case { stdin, expected }],
        check: None,
        fresh: false,
        program_per_item: false,
    })
}

fn rs_small(tests: usize) -> Workload {
    Workload { name: "rs-small", language: Lang::Rust, program: RS_SMALL.into(), ..small(tests) }
}

fn rs_fresh() -> Workload {
    Workload { name: "rs-fresh", fresh: true, ..rs_small(1) }
}

fn rs_humaneval() -> anyhow::Result<Workload> {
    let line = include_str!("../../verifiers/code/tests/data/humaneval-x-rust.jsonl")
        .lines()
        .find(|l| l.contains("\"Rust/129\""))
        .context("Rust/129 is missing")?;
    let row: Value = serde_json::from_str(line)?;
    let field = |name: &str| row[name].as_str().map(str::to_owned).context(name.to_owned());
    // The declaration imports crates HumanEval-X's cargo project provides; Rust/129 uses none.
    let declaration: String = field("declaration")?
        .lines()
        .filter(|line| !["use rand::Rng;", "use regex::Regex;", "use md5;"].contains(&line.trim()))
        .map(|line| format!("{line}\n"))
        .collect();
    Ok(Workload {
        name: "rs-humaneval",
        language: Lang::Rust,
        program: format!("{declaration}{}", field("canonical_solution")?),
        cases: vec![Case { stdin: String::new(), expected: String::new() }],
        check: Some((field("test")?, "min_path".into())),
        fresh: false,
        program_per_item: false,
    })
}

fn go_small(tests: usize) -> Workload {
    Workload { name: "go-small", language: Lang::Go, program: GO_SMALL.into(), ..small(tests) }
}

fn go_fresh() -> Workload {
    Workload { name: "go-fresh", fresh: true, ..go_small(1) }
}

fn go_humaneval() -> anyhow::Result<Workload> {
    let line = include_str!("../../verifiers/code/tests/data/humaneval-x-go.jsonl")
        .lines()
        .find(|l| l.contains("\"Go/129\""))
        .context("Go/129 is missing")?;
    let row: Value = serde_json::from_str(line)?;
    let field = |name: &str| row[name].as_str().map(str::to_owned).context(name.to_owned());
    // Go/129 imports nothing; its test file is the problem's test set-up and tests.
    Ok(Workload {
        name: "go-humaneval",
        language: Lang::Go,
        program: format!("package main\n\n{}{}", field("declaration")?, field("canonical_solution")?),
        cases: vec![Case { stdin: String::new(), expected: String::new() }],
        check: Some((format!("{}\n{}", field("test_setup")?, field("test")?), "Minpath".into())),
        fresh: false,
        program_per_item: false,
    })
}

fn go_cpu(go: &str) -> anyhow::Result<Workload> {
    let stdin = "3000000\n".to_owned();
    let expected = run_native(go, Lang::Go, GO_CPU, &stdin)?.0;
    Ok(Workload {
        name: "go-cpu",
        language: Lang::Go,
        program: GO_CPU.into(),
        cases: vec![Case { stdin, expected }],
        check: None,
        fresh: false,
        program_per_item: false,
    })
}

fn rs_cpu(rustc: &str) -> anyhow::Result<Workload> {
    let stdin = "3000000\n".to_owned();
    let expected = run_native(rustc, Lang::Rust, RS_CPU, &stdin)?.0;
    Ok(Workload {
        name: "rs-cpu",
        language: Lang::Rust,
        program: RS_CPU.into(),
        cases: vec![Case { stdin, expected }],
        check: None,
        fresh: false,
        program_per_item: false,
    })
}

/// The verifier input of item `index` of `workload`.
fn item(workload: &Workload, index: usize) -> anyhow::Result<CodeInput> {
    let options = json!({"fuel": FUEL, "time_limit_ms": WALL.as_millis() as u64, "output_limit_bytes": OUTPUT_BYTES});
    let program = workload.program_of(index);
    let input = match &workload.check {
        Some((_, entry_point)) => json!({
            "language": workload.language.name(), "program": program,
            "check": {"program": workload.check_of(index), "entry_point": entry_point}, "options": options,
        }),
        None => {
            let tests: Vec<Value> =
                workload.cases.iter().map(|c| json!({"stdin": c.stdin, "expected_stdout": c.expected})).collect();
            json!({"language": workload.language.name(), "program": program, "tests": tests, "options": options})
        }
    };
    Ok(serde_json::from_value(input)?)
}

/// The verifier every workload runs on: one sandbox, as a server has, with the pool asked for.
fn verifier(pool_runs: Option<usize>) -> anyhow::Result<CodeVerifier> {
    let mut config = SandboxConfig::default();
    config.pool_runs = pool_runs.unwrap_or(config.pool_runs);
    Ok(CodeVerifier::new().in_sandbox(Arc::new(Sandbox::new(config)?)))
}

/// Judges `items` items of `workload` in one batch; returns executions and seconds.
async fn run_sandbox(verifier: &CodeVerifier, workload: &Workload, items: usize) -> anyhow::Result<(usize, f64)> {
    let inputs = (0..items).map(|index| item(workload, index)).collect::<anyhow::Result<Vec<_>>>()?;
    let started = Instant::now();
    let verdicts = verifier.score_batch(inputs, Budget::unlimited()).await;
    let seconds = started.elapsed().as_secs_f64();
    for verdict in &verdicts {
        ensure!(
            verdict.status == Status::Correct,
            "{}: the sandbox failed a correct program: {:?}",
            workload.name,
            verdict
        );
    }
    Ok((items * workload.cases.len(), seconds))
}

/// The CPython the native runner spawns.
struct Peer {
    /// The interpreter itself (a pyenv shim resolved to what it runs).
    path: String,
    version: String,
    /// The least wall time of `-c pass` over a few runs.
    startup_ms: f64,
}

/// The oldest CPython 3 minor version taken as a peer: older ones cannot run what the sandbox's
/// CPython 3.14 runs (`match`, the newer typing syntax), so they are no peer of it.
const OLDEST_PEER_MINOR: u32 = 10;

/// The interpreter `requested`, or else the fastest-starting CPython 3.10 or later of those on
/// this machine: `python3` on `PATH` and every `python3.N` in `/usr/bin`, `/usr/local/bin` and
/// pyenv's versions. Distributions build theirs with PGO and LTO (Debian's 3.11 starts in a
/// third of the time of a default pyenv build of the same version), and the fastest one present
/// is the fair peer.
fn peer_python(requested: Option<&str>) -> anyhow::Result<Peer> {
    let mut candidates: Vec<std::path::PathBuf> = Vec::new();
    match requested {
        Some(path) => candidates.push(path.into()),
        None => {
            candidates.push("python3".into());
            let home = std::env::var_os("HOME").map(std::path::PathBuf::from).unwrap_or_default();
            let pyenv = home.join(".pyenv/versions");
            let mut dirs = vec![std::path::PathBuf::from("/usr/bin"), "/usr/local/bin".into()];
            if let Ok(versions) = std::fs::read_dir(&pyenv) {
                dirs.extend(versions.flatten().map(|v| v.path().join("bin")));
            }
            for dir in dirs {
                let Ok(entries) = std::fs::read_dir(&dir) else { continue };
                for entry in entries.flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let minor = name.strip_prefix("python3.").unwrap_or("");
                    if !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit()) {
                        candidates.push(entry.path());
                    }
                }
            }
        }
    }
    let mut best: Option<Peer> = None;
    // Several names often run one interpreter (`python3`, its shim, `python3.N`): timed once.
    let mut timed = std::collections::HashSet::new();
    for candidate in candidates {
        // What the candidate really runs: a shim (a script that execs an interpreter) is not a
        // peer, the interpreter behind it is.
        let Ok(output) = Command::new(&candidate)
            .args(["-c", "import sys; print(sys.executable); print(sys.version.split()[0])"])
            .output()
        else {
            continue;
        };
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let mut lines = text.lines();
        let (Some(path), Some(version)) = (lines.next(), lines.next()) else { continue };
        let minor: u32 = version.strip_prefix("3.").and_then(|v| v.split('.').next()?.parse().ok()).unwrap_or(0);
        if !output.status.success()
            || (requested.is_none() && minor < OLDEST_PEER_MINOR)
            || !timed.insert(path.to_owned())
        {
            continue;
        }
        let mut startup = f64::INFINITY;
        for _ in 0..7 {
            let started = Instant::now();
            let status = Command::new(path).args(["-c", "pass"]).status()?;
            ensure!(status.success(), "{path} -c pass failed");
            startup = startup.min(started.elapsed().as_secs_f64() * 1e3);
        }
        let peer = Peer { path: path.to_owned(), version: version.to_owned(), startup_ms: startup };
        eprintln!("Python candidate: {} ({}), {:.1} ms to start and exit", peer.path, peer.version, peer.startup_ms);
        if best.as_ref().is_none_or(|b| peer.startup_ms < b.startup_ms) {
            best = Some(peer);
        }
    }
    best.with_context(|| format!("no Python 3 interpreter found (looked for {})", requested.unwrap_or("python3")))
}

/// One native process: the program as a file, `stdin` piped in, output capped, wall-limited.
/// Rust and Go are built first ([`build`]) and the binary runs.
fn run_native(interpreter: &str, language: Lang, program: &str, stdin: &str) -> anyhow::Result<(String, bool)> {
    if language.compiled() {
        let built = build(interpreter, language, program, None)?;
        return run_process(Command::new(built.path().join("program")), stdin);
    }
    let mut file = tempfile::Builder::new().suffix(language.suffix()).tempfile()?;
    file.write_all(program.as_bytes())?;
    let mut command = Command::new(interpreter);
    command.arg(file.path());
    run_process(command, stdin)
}

/// Builds a Rust or Go program natively; the folder holds the binary, `program`.
fn build(compiler: &str, language: Lang, program: &str, tests: Option<&str>) -> anyhow::Result<tempfile::TempDir> {
    match language {
        Lang::Go => build_go(compiler, program, tests),
        Lang::Rust => {
            build_rust(compiler, &tests.map_or_else(|| program.to_owned(), |tests| format!("{program}\n{tests}")))
        }
        Lang::Python | Lang::JavaScript => bail!("{} programs are not built", language.name()),
    }
}

/// Builds a Go program for the host with `go build`, or with its test file by `go test -c`, in
/// the module the sandbox builds in (the toolchain's `go.env` settings but for the target).
fn build_go(go: &str, program: &str, tests: Option<&str>) -> anyhow::Result<tempfile::TempDir> {
    let dir = tempfile::tempdir()?;
    let module = std::path::Path::new(go).ancestors().nth(3).context("the go binary is not in <home>/goroot/bin")?;
    std::fs::copy(module.join("module/go.mod"), dir.path().join("go.mod"))?;
    std::os::unix::fs::symlink(module.join("module/vendor"), dir.path().join("vendor"))?;
    std::fs::write(dir.path().join("main.go"), program)?;
    let mut command = Command::new(go);
    match tests {
        Some(tests) => {
            std::fs::write(dir.path().join("main_test.go"), tests)?;
            command.args(["test", "-c"]);
        }
        None => {
            command.arg("build");
        }
    }
    let output = command
        .args(["-o", "program", "."])
        .current_dir(dir.path())
        .env("GOOS", "linux")
        .env("GOARCH", "amd64")
        .env("GOCACHE", std::env::temp_dir().join("referee-go-native-cache"))
        .env("GOENV", "off")
        .output()
        .with_context(|| format!("cannot start {go}"))?;
    ensure!(output.status.success(), "{go} failed: {}", String::from_utf8_lossy(&output.stderr));
    Ok(dir)
}

/// Builds a Rust program natively with `rustc -O` (as a test harness when it has `#[test]`
/// functions).
fn build_rust(rustc: &str, program: &str) -> anyhow::Result<tempfile::TempDir> {
    let dir = tempfile::tempdir()?;
    let source = dir.path().join("program.rs");
    std::fs::write(&source, program)?;
    let mut command = Command::new(rustc);
    command.args(["-O", "--edition=2021", "--cap-lints=allow", "-o"]).arg(dir.path().join("program")).arg(&source);
    if program.contains("#[test]") {
        command.arg("--test");
    }
    let output = command.output().with_context(|| format!("cannot start {rustc}"))?;
    ensure!(output.status.success(), "{rustc} failed: {}", String::from_utf8_lossy(&output.stderr));
    Ok(dir)
}

/// Runs `command` with `stdin` piped in, output capped, wall-limited.
fn run_process(mut command: Command, stdin: &str) -> anyhow::Result<(String, bool)> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {command:?}"))?;
    let input = stdin.as_bytes().to_vec();
    let mut pipe_in = child.stdin.take();
    let feeder = std::thread::spawn(move || {
        if let Some(pipe) = pipe_in.as_mut() {
            let _ = pipe.write_all(&input);
        }
    });
    // Drain both pipes while the process runs, so a large output cannot stall it.
    let mut pipe_err = child.stderr.take();
    let drain = std::thread::spawn(move || {
        if let Some(pipe) = pipe_err.as_mut() {
            let _ = std::io::copy(pipe, &mut std::io::sink());
        }
    });
    let pipe_out = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(mut pipe) = pipe_out {
            let _ = pipe.by_ref().take(OUTPUT_BYTES as u64 + 1).read_to_end(&mut out);
            let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        }
        out
    });
    // Woken by the child's exit (SIGCHLD), not by polling, so the peer pays no sleep granularity.
    let status = match child.wait_timeout(WALL)? {
        Some(status) => Some(status),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            None
        }
    };
    let _ = feeder.join();
    let _ = drain.join();
    let out = reader.join().unwrap_or_default();
    let ok = status.is_some_and(|s| s.success()) && out.len() <= OUTPUT_BYTES;
    Ok((String::from_utf8_lossy(&out).into_owned(), ok))
}

/// Runs `items` items of `workload` through native subprocesses, one per test, on `workers`
/// threads; returns executions and seconds. A Rust or Go workload is built once (every item,
/// when fresh) inside the measurement.
fn run_subprocess(
    interpreter: &str,
    workload: &Workload,
    items: usize,
    workers: usize,
) -> anyhow::Result<(usize, f64)> {
    let (program, tests) = match (&workload.check, workload.language) {
        (Some((check, entry_point)), Lang::Python) => {
            (format!("{}\n\n{check}\n\ncheck({entry_point})\n", workload.program), None)
        }
        (Some((check, _)), Lang::JavaScript | Lang::Rust) => (format!("{}\n{check}", workload.program), None),
        // A Go test file is a file of its own.
        (Some((check, _)), Lang::Go) => (workload.program.clone(), Some(check.as_str())),
        (None, _) => (workload.program.clone(), None),
    };
    let language = workload.language;
    let jobs: Vec<(usize, &Case)> = (0..items).flat_map(|item| workload.cases.iter().map(move |c| (item, c))).collect();
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let built = if language.compiled() && !workload.fresh {
        Some(build(interpreter, language, &program, tests)?)
    } else {
        None
    };
    let failures = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.max(1))
            .map(|_| {
                let (next, jobs, program, built) = (Arc::clone(&next), &jobs, &program, &built);
                scope.spawn(move || -> anyhow::Result<usize> {
                    let mut failures = 0;
                    while let Some((item, case)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let (out, ok) = match built {
                            Some(dir) => run_process(Command::new(dir.path().join("program")), &case.stdin)?,
                            None if workload.fresh || workload.program_per_item => {
                                let program = format!("{program}{} item {item}\n", language.comment());
                                run_native(interpreter, language, &program, &case.stdin)?
                            }
                            None => run_native(interpreter, language, program, &case.stdin)?,
                        };
                        // A check program passes by its exit status; what a test harness prints
                        // (libtest's and `go test`'s summaries) is not the program's output.
                        let passed = ok && (workload.check.is_some() || out == case.expected);
                        failures += usize::from(!passed);
                    }
                    Ok(failures)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| anyhow::anyhow!("a worker panicked"))?)
            .sum::<anyhow::Result<usize>>()
    })?;
    let seconds = started.elapsed().as_secs_f64();
    if failures > 0 {
        bail!("{}: the subprocess runner failed {failures} executions of a correct program", workload.name);
    }
    Ok((jobs.len(), seconds))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut options = Options::parse();
    let peer = peer_python(options.python.as_deref())?;
    eprintln!("Python peer: {} ({}), {:.1} ms to start and exit", peer.path, peer.version, peer.startup_ms);
    options.python = Some(peer.path.clone());
    let python = peer.path.as_str();
    let wanted = |name: &str| options.only.is_empty() || options.only.iter().any(|o| o == name);
    let mut workloads = Vec::new();
    if wanted("small") {
        workloads.push(small(options.tests));
    }
    if wanted("small-same") {
        workloads.push(Workload { name: "small-same", program_per_item: false, ..small(options.tests) });
    }
    if wanted("imports") {
        workloads.push(imports(python, options.tests)?);
    }
    if wanted("humaneval") {
        workloads.push(humaneval()?);
    }
    if wanted("humaneval-fresh") {
        workloads.push(Workload { name: "humaneval-fresh", fresh: true, ..humaneval()? });
    }
    if wanted("cpu") {
        workloads.push(cpu(python)?);
    }
    if wanted("js-small") {
        workloads.push(js_small(options.tests));
    }
    if wanted("js-humaneval") {
        workloads.push(js_humaneval()?);
    }
    if wanted("js-cpu") {
        workloads.push(js_cpu(&options.node)?);
    }
    if wanted("rs-small") {
        workloads.push(rs_small(options.tests));
    }
    if wanted("rs-fresh") {
        workloads.push(rs_fresh());
    }
    if wanted("rs-humaneval") {
        workloads.push(rs_humaneval()?);
    }
    if wanted("rs-cpu") {
        workloads.push(rs_cpu(&options.rustc)?);
    }
    if wanted("go-small") {
        workloads.push(go_small(options.tests));
    }
    if wanted("go-fresh") {
        workloads.push(go_fresh());
    }
    if wanted("go-humaneval") {
        workloads.push(go_humaneval()?);
    }
    if wanted("go-cpu") {
        workloads.push(go_cpu(&Lang::Go.interpreter(&options))?);
    }

    // Load and precompile the runtime outside the measurement.
    let verifier = verifier(options.pool_runs)?;
    run_sandbox(&verifier, &small(1), 1).await.context("warming up the sandbox")?;

    let mut rows = Vec::new();
    eprintln!("| workload | executions | sandbox exec/s | native subprocess exec/s | ratio |");
    eprintln!("|---|---|---|---|---|");
    for workload in &workloads {
        let interpreter = &workload.language.interpreter(&options);
        let (sandbox, subprocess) = if workload.name.ends_with("cpu") {
            // One execution at a time on each side: the per-execution time of the interpreter,
            // or of the compiled program (built once on each side first, outside the measurement).
            let built = match workload.language {
                Lang::Rust | Lang::Go => {
                    run_sandbox(&verifier, workload, 1).await?;
                    Some(build(interpreter, workload.language, &workload.program, None)?)
                }
                Lang::Python | Lang::JavaScript => None,
            };
            let (mut sandbox, mut subprocess) = ((0, 0.0), (0, 0.0));
            for _ in 0..options.cpu_runs {
                let (n, s) = run_sandbox(&verifier, workload, 1).await?;
                sandbox = (sandbox.0 + n, sandbox.1 + s);
                let (n, s) = match &built {
                    Some(dir) => {
                        let case = &workload.cases[0];
                        let started = Instant::now();
                        let (out, ok) = run_process(Command::new(dir.path().join("program")), &case.stdin)?;
                        ensure!(ok && out == case.expected, "{}: the native binary failed", workload.name);
                        (1, started.elapsed().as_secs_f64())
                    }
                    None => run_subprocess(interpreter, workload, 1, 1)?,
                };
                subprocess = (subprocess.0 + n, subprocess.1 + s);
            }
            (sandbox, subprocess)
        } else {
            let sandbox = run_sandbox(&verifier, workload, options.items).await?;
            let subprocess = run_subprocess(interpreter, workload, options.items, options.workers)?;
            (sandbox, subprocess)
        };
        let rate = |(n, s): (usize, f64)| n as f64 / s;
        let ratio = rate(sandbox) / rate(subprocess);
        eprintln!(
            "| {} | {} | {:.1} | {:.1} | {:.2}× |",
            workload.name,
            sandbox.0,
            rate(sandbox),
            rate(subprocess),
            ratio
        );
        rows.push(json!({
            "workload": workload.name, "executions": sandbox.0,
            "sandbox_per_s": rate(sandbox), "subprocess_per_s": rate(subprocess), "ratio": ratio,
            "sandbox_ms_per_execution": 1e3 * sandbox.1 / sandbox.0 as f64,
            "subprocess_ms_per_execution": 1e3 * subprocess.1 / subprocess.0 as f64,
        }));
    }
    let python = json!({"path": peer.path, "version": peer.version, "startup_ms": peer.startup_ms});
    println!("{}", json!({"workers": options.workers, "python": python, "results": rows}));
    Ok(())
}
