//! Go programs: standard-input tests and `check` test files (testify's `assert` and `require`,
//! or the standard `testing` package alone, as MultiPL-E writes them), with the refusals and the
//! verdicts a test run can end in.

use referee_core::Status;
use serde_json::{Value, json};

use super::common;

const SUM: &str = r#"package main

import (
    "bufio"
    "fmt"
    "os"
)

func main() {
    in := bufio.NewReader(os.Stdin)
    var n int
    fmt.Fscan(in, &n)
    total := int32(0)
    for i := 0; i < n; i++ {
        var x int32
        fmt.Fscan(in, &x)
        total += x
    }
    fmt.Println(total)
}
"#;

const ADD: &str = "func Add(a, b int) int {\n    return a + b\n}\n";
const ADD_WRONG: &str = "func Add(a, b int) int {\n    return a - b\n}\n";

const TESTIFY_TESTS: &str = r#"package main

import (
    "testing"

    "github.com/stretchr/testify/assert"
    "github.com/stretchr/testify/require"
)

func TestAdd(t *testing.T) {
    assert := assert.New(t)
    assert.Equal(3, Add(1, 2))
    require.Equal(t, 0, Add(-4, 4))
}
"#;

/// MultiPL-E's shape: the standard library's `testing` alone, one subtest per case.
const STD_TESTS: &str = r#"package main

import (
    "fmt"
    "testing"
)

func TestAdd(t *testing.T) {
    candidate := Add
    type test struct {
        actual   interface{}
        expected interface{}
    }
    tests := []test{
        {actual: candidate(1, 2), expected: 3},
        {actual: candidate(-4, 4), expected: 0},
    }
    for i, tc := range tests {
        t.Run(fmt.Sprintf("test num %d", i), func(t *testing.T) {
            if fmt.Sprintf("%v", tc.actual) != fmt.Sprintf("%v", tc.expected) {
                t.Errorf("expected '%s', got '%s'", tc.expected, tc.actual)
            }
        })
    }
}
"#;

fn message(details: &serde_json::Map<String, Value>) -> String {
    details["tests"][0]["message"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_programs_are_judged_on_standard_input_and_test_files() -> anyhow::Result<()> {
    let stdin_tests = json!([
        {"stdin": "3\n1 2 3\n", "expected_stdout": "6\n"},
        {"stdin": "2\n2000000000 2000000000\n", "expected_stdout": "4000000000\n"},
    ]);
    let check = |program: &str, tests: &str| json!({"language": "go", "program": program, "check": {"program": tests, "entry_point": "Add"}});
    let items = [
        json!({"language": "golang", "program": SUM, "tests": stdin_tests, "options": {"scoring": "fraction"}}),
        check(ADD, TESTIFY_TESTS),
        check(ADD_WRONG, TESTIFY_TESTS),
        check(ADD, STD_TESTS),
        check(ADD_WRONG, STD_TESTS),
        // A program that does not compile with its tests.
        check("func Add(a int) int { return a }\n", TESTIFY_TESTS),
        // The function under test panics.
        check("func Add(a, b int) int {\n    var xs []int\n    return xs[a+b]\n}\n", TESTIFY_TESTS),
        // The program ends the process with status 0 before its tests have run.
        check(&format!("import \"os\"\n\nfunc init() {{ os.Exit(0) }}\n\n{ADD}"), TESTIFY_TESTS),
        // ... or from the function under test.
        check("import \"os\"\n\nfunc Add(a, b int) int {\n    os.Exit(0)\n    return 0\n}\n", TESTIFY_TESTS),
        // A program in a package of its own: the test file is in the same one.
        check(&format!("package solution\n\n{ADD}"), &TESTIFY_TESTS.replace("package main", "package solution")),
    ];
    let items = items.into_iter().map(serde_json::from_value).collect::<Result<Vec<_>, _>>()?;
    let verdicts = common::judge(items).await;
    let names: Vec<Vec<String>> = verdicts.iter().map(|v| common::verdict_names(&v.details)).collect();
    assert_eq!(names[0], ["passed", "wrong_answer"], "{:?}", verdicts[0].details);
    assert_eq!(verdicts[1].status, Status::Correct, "{:?}", verdicts[1].details);
    assert_eq!(names[2], ["wrong_answer"], "a failed assertion is a wrong answer: {:?}", verdicts[2].details);
    assert!(message(&verdicts[2].details).contains("expected: 3"), "{:?}", verdicts[2].details);
    assert_eq!(verdicts[3].status, Status::Correct, "{:?}", verdicts[3].details);
    assert_eq!(names[4], ["wrong_answer"], "{:?}", verdicts[4].details);
    assert!(message(&verdicts[4].details).contains("--- FAIL: TestAdd/test_num_0"), "{:?}", verdicts[4].details);
    assert_eq!(names[5], ["compile_error"], "{:?}", verdicts[5].details);
    assert_eq!(names[6], ["runtime_error"], "a panic is a runtime error: {:?}", verdicts[6].details);
    assert_eq!(names[7], ["runtime_error"], "{:?}", verdicts[7].details);
    assert_eq!(names[8], ["runtime_error"], "{:?}", verdicts[8].details);
    assert_eq!(verdicts[9].status, Status::Correct, "{:?}", verdicts[9].details);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_test_file_without_tests_or_with_its_own_test_main_is_refused() -> anyhow::Result<()> {
    let check =
        |tests: &str| json!({"language": "go", "program": ADD, "check": {"program": tests, "entry_point": "Add"}});
    let items = [
        // No TestXxx function: it would pass anything.
        check("package main\n\nfunc helper() {}\n"),
        // `Testadd` is not a test to Go (a lower-case letter follows `Test`).
        check("package main\n\nimport \"testing\"\n\nfunc Testadd(t *testing.T) {}\n"),
        check(&TESTIFY_TESTS.replace(
            "func TestAdd(t *testing.T) {",
            "func TestMain(m *testing.M) { m.Run() }\n\nfunc TestAdd(t *testing.T) {",
        )),
    ];
    let items = items.into_iter().map(serde_json::from_value).collect::<Result<Vec<_>, _>>()?;
    let verdicts = common::judge(items).await;
    for verdict in &verdicts {
        assert_eq!(verdict.status, Status::InvalidInput, "{:?}", verdict.details);
    }
    let error = |i: usize| verdicts[i].details["error"].as_str().unwrap_or_default().to_owned();
    assert!(error(0).contains("TestXxx"), "{:?}", verdicts[0].details);
    assert!(error(2).contains("TestMain"), "{:?}", verdicts[2].details);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_module_beyond_testify_is_a_compile_error_that_says_so() -> anyhow::Result<()> {
    let program =
        "package main\n\nimport \"golang.org/x/exp/slices\"\n\nfunc main() { println(slices.Contains([]int{1}, 1)) }\n";
    let item = json!({"language": "go", "program": program, "tests": [{"stdin": "", "expected_stdout": ""}]});
    let verdicts = common::judge(vec![serde_json::from_value(item)?]).await;
    assert_eq!(common::verdict_names(&verdicts[0].details), ["compile_error"]);
    assert!(
        message(&verdicts[0].details).contains("testify's assert and require packages"),
        "{:?}",
        verdicts[0].details
    );
    Ok(())
}

/// A test that needs more than one CPU fails in the sandbox (Go on WebAssembly has one), with a
/// note after the test's own message that says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_test_that_needs_two_cpus_fails_with_a_note_saying_why() -> anyhow::Result<()> {
    let tests = "package main\n\nimport (\n    \"runtime\"\n    \"testing\"\n)\n\nfunc TestParallel(t *testing.T) {\n    if runtime.NumCPU() < 2 {\n        t.Fatalf(\"needs two CPUs, has %d\", runtime.NumCPU())\n    }\n    if Add(1, 2) != 3 {\n        t.Fatal(\"wrong sum\")\n    }\n}\n";
    let item = json!({"language": "go", "program": ADD, "check": {"program": tests, "entry_point": "Add"}});
    let verdicts = common::judge(vec![serde_json::from_value(item)?]).await;
    assert_eq!(common::verdict_names(&verdicts[0].details), ["wrong_answer"], "{:?}", verdicts[0].details);
    let message = message(&verdicts[0].details);
    assert!(message.contains("needs two CPUs, has 1"), "{message}");
    assert!(message.contains("runtime.NumCPU() is 1 and GOMAXPROCS is 1"), "{message}");
    Ok(())
}
