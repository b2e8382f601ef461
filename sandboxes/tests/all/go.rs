//! Go programs compiled by the toolchain in the runtimes folder to `wasip1/wasm` and run under
//! the sandbox's limits.

use std::time::Duration;

use referee_sandbox::{Compiled, Execution, Limits, NativeLanguage, Termination};

use super::common;

async fn compile(language: NativeLanguage, program: &str, tests: Option<&str>) -> anyhow::Result<Compiled> {
    let sandbox = common::shared()?;
    let native = tokio::task::spawn_blocking(move || sandbox.native()).await??;
    Ok(native.compile_queued(language, program.to_owned(), tests.map(str::to_owned)).await?)
}

async fn run_go(
    language: NativeLanguage,
    program: &str,
    tests: Option<&str>,
    stdin: &str,
    limits: Limits,
) -> anyhow::Result<Execution> {
    let module = match compile(language, program, tests).await? {
        Compiled::Program(program) => program,
        Compiled::Rejected(diagnostics) => anyhow::bail!("does not compile: {diagnostics}"),
    };
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let native = tokio::task::spawn_blocking(move || loading.native()).await??;
    Ok(native.run_on(sandbox.host(), module, stdin.as_bytes().to_vec(), limits).await?)
}

async fn run(program: &str, stdin: &str, limits: Limits) -> anyhow::Result<Execution> {
    run_go(NativeLanguage::Go, program, None, stdin, limits).await
}

async fn test(program: &str, tests: &str) -> anyhow::Result<Execution> {
    run_go(NativeLanguage::GoTests, program, Some(tests), "", Limits::default()).await
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test]
async fn a_go_program_reads_stdin_and_exits_with_its_status() -> anyhow::Result<()> {
    let program = r#"package main

import (
    "bufio"
    "fmt"
    "os"
)

func main() {
    in := bufio.NewReader(os.Stdin)
    var a, b int
    fmt.Fscan(in, &a, &b)
    fmt.Println(a * b)
    if a > 5 {
        os.Exit(4)
    }
}
"#;
    let ok = run(program, "3 4\n", Limits::default()).await?;
    assert_eq!(
        (ok.termination.clone(), ok.exit_code, text(&ok.stdout)),
        (Termination::Exited, 0, "12\n".into()),
        "{ok:?}"
    );
    let failing = run(program, "6 7\n", Limits::default()).await?;
    assert_eq!((failing.termination, failing.exit_code), (Termination::Exited, 4));
    // Without a package clause the file is in package main.
    let bare = run("import \"fmt\"\n\nfunc main() { fmt.Print(\"bare\") }\n", "", Limits::default()).await?;
    assert_eq!(text(&bare.stdout), "bare");
    Ok(())
}

#[tokio::test]
async fn a_go_panic_is_a_crash_with_its_message() -> anyhow::Result<()> {
    let program = "package main\n\nfunc main() {\n    var xs []int\n    i := 3\n    println(xs[i])\n}\n";
    let run1 = run(program, "", Limits::default()).await?;
    assert_eq!((run1.termination.clone(), run1.exit_code), (Termination::Exited, 2), "{run1:?}");
    assert!(
        text(&run1.stderr).contains("panic: runtime error: index out of range [3] with length 0"),
        "{}",
        text(&run1.stderr)
    );
    Ok(())
}

#[tokio::test]
async fn memory_fuel_and_output_limits_hold_for_go() -> anyhow::Result<()> {
    let limits = Limits { memory_bytes: 64 << 20, wall_time: Duration::from_secs(20), ..Limits::default() };
    let bomb = "package main\n\nvar keep [][]byte\n\nfunc main() {\n    for {\n        b := make([]byte, 1<<20)\n        for i := range b { b[i] = 1 }\n        keep = append(keep, b)\n    }\n}\n";
    let bombed = run(bomb, "", limits).await?;
    assert_eq!(bombed.termination, Termination::MemoryExhausted, "{bombed:?}");
    assert!(bombed.memory_peak <= 64 << 20);

    let limits = Limits { fuel: 200_000_000, ..Limits::default() };
    let spin = "package main\n\nvar n uint64\n\nfunc main() {\n    for {\n        n++\n    }\n}\n";
    let (first, second) = (run(spin, "", limits).await?, run(spin, "", limits).await?);
    assert_eq!((&first.termination, &second.termination), (&Termination::OutOfFuel, &Termination::OutOfFuel));
    assert_eq!(first.fuel_used, second.fuel_used, "fuel is deterministic");

    let flood = "package main\n\nimport \"fmt\"\n\nfunc main() {\n    for {\n        fmt.Println(\"yyyyyyyyyyyyyyyyyyyy\")\n    }\n}\n";
    let limits = Limits { stdout_bytes: 1 << 16, ..Limits::default() };
    let flooded = run(flood, "", limits).await?;
    assert_eq!(flooded.termination, Termination::OutputExceeded, "{:?}", flooded.termination);
    assert_eq!(flooded.stdout.len(), 1 << 16);
    Ok(())
}

/// Go's runtime dies of a refused allocation, but its report (every goroutine's stack) takes time
/// of its own: a run whose fuel or time ends during that report met the memory cap. Fuel makes
/// the cut deterministic: the second run stops part way through the first one's report.
#[tokio::test]
async fn a_go_run_that_ends_while_reporting_its_memory_death_met_the_memory_cap() -> anyhow::Result<()> {
    let bomb = "package main\n\nfunc main() {\n    block := make(chan bool)\n    for {\n        go func() { <-block }()\n    }\n}\n";
    let limits = Limits {
        memory_bytes: 16 << 20,
        stderr_bytes: 64 << 20,
        wall_time: Duration::from_secs(120),
        ..Limits::default()
    };
    let whole = run(bomb, "", limits).await?;
    assert_eq!(whole.termination, Termination::MemoryExhausted, "{whole:?}");
    let report = String::from_utf8_lossy(&whole.stderr);
    assert!(report.contains("out of memory") && report.matches("goroutine ").count() > 100, "{report}");
    let cut = run(bomb, "", Limits { fuel: whole.fuel_used * 19 / 20, ..limits }).await?;
    assert_eq!(cut.termination, Termination::MemoryExhausted, "{:?}", cut.termination);
    assert!(cut.stderr.len() < whole.stderr.len(), "the cut run stopped within the report");
    Ok(())
}

#[tokio::test]
async fn a_go_program_sees_no_host_files_and_no_network() -> anyhow::Result<()> {
    let program = r#"package main

import (
    "fmt"
    "net"
    "os"
)

func main() {
    _, err := os.ReadFile("/etc/passwd")
    fmt.Println(err != nil)
    _, err = os.ReadDir("/")
    fmt.Println(err != nil)
    _, err = net.Dial("tcp", "127.0.0.1:5432")
    fmt.Println(err != nil)
}
"#;
    let ran = run(program, "", Limits::default()).await?;
    assert_eq!((ran.exit_code, text(&ran.stdout)), (0, "true\ntrue\ntrue\n".into()), "{}", text(&ran.stderr));
    Ok(())
}

const ADD: &str = "package main\n\nfunc Add(a, b int) int {\n    return a + b\n}\n";

const ADD_TESTS: &str = r#"package main

import (
    "testing"

    "github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
    assert := assert.New(t)
    assert.Equal(3, Add(1, 2))
    assert.Equal(-1, Add(1, -2))
}
"#;

#[tokio::test]
async fn a_go_test_build_runs_the_tests_and_reports_a_pass_as_a_return() -> anyhow::Result<()> {
    let passed = test(ADD, ADD_TESTS).await?;
    assert_eq!(
        (passed.termination.clone(), passed.exit_code, passed.exit_called),
        (Termination::Exited, 0, false),
        "{passed:?}"
    );

    let wrong = test(&ADD.replace("a + b", "a - b"), ADD_TESTS).await?;
    assert_eq!((wrong.exit_code, wrong.exit_called), (1, true));
    let report = text(&wrong.stdout);
    assert!(report.contains("--- FAIL: TestAdd") && report.contains("expected: 3"), "{report}");
    Ok(())
}

#[tokio::test]
async fn a_go_program_that_exits_before_its_tests_end_does_not_pass() -> anyhow::Result<()> {
    // os.Exit(0) before the tests run: status 0 through an exit call, not the test main's.
    let early = ADD.to_owned() + "\nfunc init() { os.Exit(0) }\n";
    let early = early.replace("package main\n", "package main\n\nimport \"os\"\n");
    let ran = test(&early, ADD_TESTS).await?;
    assert_eq!((ran.exit_code, ran.exit_called), (0, true), "{ran:?}");
    // Whatever status the program exits with before its tests, the run is not a pass: the test
    // main's status is drawn from the sources' hash.
    for status in [3, 97, 125] {
        let forged = early.replace("os.Exit(0)", &format!("os.Exit({status})"));
        let ran = test(&forged, ADD_TESTS).await?;
        assert!(ran.exit_called && ran.exit_code == status, "{ran:?}");
    }
    // os.Exit(0) from the function under test panics (-test.paniconexit0).
    let inside = "package main\n\nimport \"os\"\n\nfunc Add(a, b int) int {\n    os.Exit(0)\n    return 0\n}\n";
    let ran = test(inside, ADD_TESTS).await?;
    assert_ne!(ran.exit_code, 0, "{ran:?}");
    assert!(text(&ran.stderr).contains("os.Exit(0)"), "{}", text(&ran.stderr));
    Ok(())
}

#[tokio::test]
async fn a_go_compile_error_says_why_and_names_the_modules_there_are() -> anyhow::Result<()> {
    let Compiled::Rejected(syntax) = compile(NativeLanguage::Go, "package main\n\nfunc main() {\n", None).await? else {
        anyhow::bail!("a syntax error compiled");
    };
    assert!(syntax.contains("main.go:"), "{syntax}");
    let unused = "package main\n\nimport \"fmt\"\n\nfunc main() {}\n";
    let Compiled::Rejected(diagnostics) = compile(NativeLanguage::Go, unused, None).await? else {
        anyhow::bail!("an unused import compiled");
    };
    assert!(diagnostics.contains("\"fmt\" imported and not used"), "{diagnostics}");
    let module =
        "package main\n\nimport \"golang.org/x/exp/slices\"\n\nfunc main() { _ = slices.Contains([]int{1}, 1) }\n";
    let Compiled::Rejected(diagnostics) = compile(NativeLanguage::Go, module, None).await? else {
        anyhow::bail!("a missing module compiled");
    };
    assert!(diagnostics.contains("no other modules are available"), "{diagnostics}");
    Ok(())
}

#[tokio::test]
async fn a_go_programs_random_choices_repeat_from_run_to_run() -> anyhow::Result<()> {
    // Go randomises map iteration order and seeds math/rand from the system's random source:
    // seeded, both repeat, so a verdict that depends on them does too.
    let program = r#"package main

import (
    crand "crypto/rand"
    "fmt"
    "math/rand"
)

func main() {
    m := map[int]bool{}
    for i := 0; i < 64; i++ {
        m[i] = true
    }
    for k := range m {
        fmt.Print(k, " ")
    }
    b := make([]byte, 8)
    crand.Read(b)
    fmt.Println(b, rand.Int())
}
"#;
    let (first, second) = (run(program, "", Limits::default()).await?, run(program, "", Limits::default()).await?);
    assert_eq!(first.exit_code, 0, "{}", text(&first.stderr));
    assert_eq!(text(&first.stdout), text(&second.stdout));
    assert_eq!(first.fuel_used, second.fuel_used);
    Ok(())
}
