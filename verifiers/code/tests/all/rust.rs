//! Rust programs: standard-input tests, `check` programs (a `fn main` of assertions, as MultiPL-E
//! writes them, or `#[test]` functions, as HumanEval-X and `cargo test` do), and C test programs
//! through the same `check`.

use referee_core::Status;
use serde_json::json;

use super::common;

const SUM: &str = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let total: i64 = s.split_whitespace().skip(1).map(|x| x.parse::<i64>().unwrap()).sum();\n    println!(\"{total}\");\n}\n";
const SUM_I32: &str = "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let total: i32 = s.split_whitespace().skip(1).map(|x| x.parse::<i32>().unwrap()).fold(0, |a, b| a.wrapping_add(b));\n    println!(\"{total}\");\n}\n";

/// `add` and its tests in the two shapes, with a program that also has a `main`.
const ADD: &str = "fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n";
const ADD_WRONG: &str = "fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n";
const ADD_WITH_MAIN: &str =
    "fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\nfn main() {\n    println!(\"{}\", add(1, 2));\n}\n";
const MAIN_TESTS: &str = "fn main() {\n    let candidate = add;\n    assert_eq!(candidate(1, 2), 3);\n    assert_eq!(candidate(-4, 4), 0);\n}\n";
const UNIT_TESTS: &str = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn small() {\n        assert_eq!(add(1, 2), 3);\n    }\n    #[test]\n    fn signs() {\n        assert_eq!(add(-4, 4), 0);\n    }\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_programs_are_judged_on_standard_input_and_check_programs() -> anyhow::Result<()> {
    let stdin_tests = json!([
        {"stdin": "3\n1 2 3\n", "expected_stdout": "6\n"},
        {"stdin": "2\n2000000000 2000000000\n", "expected_stdout": "4000000000\n"},
    ]);
    let check = |program: &str, tests: &str| json!({"language": "rust", "program": program, "check": {"program": tests, "entry_point": "add"}});
    let items = [
        json!({"language": "rust", "program": SUM, "tests": stdin_tests, "options": {"scoring": "fraction"}}),
        json!({"language": "rs", "program": SUM_I32, "tests": stdin_tests, "options": {"scoring": "fraction"}}),
        check(ADD, MAIN_TESTS),
        check(ADD_WRONG, MAIN_TESTS),
        check(ADD, UNIT_TESTS),
        check(ADD_WRONG, UNIT_TESTS),
        // A program with a `main` of its own: the `#[test]` functions still run, not its main.
        check(ADD_WITH_MAIN, UNIT_TESTS),
        // A program that does not compile with its tests.
        check("fn add(a: i64) -> i64 { a }", MAIN_TESTS),
        // A program that ends the process with status 0 before its tests have run.
        check("fn add(a: i64, b: i64) -> i64 {\n    std::process::exit(0)\n}\n", MAIN_TESTS),
        check("fn add(a: i64, b: i64) -> i64 {\n    std::process::exit(0)\n}\n", UNIT_TESTS),
    ];
    let items = items.into_iter().map(serde_json::from_value).collect::<Result<Vec<_>, _>>()?;
    let verdicts = common::judge(items).await;
    let names: Vec<Vec<String>> = verdicts.iter().map(|v| common::verdict_names(&v.details)).collect();
    assert_eq!(verdicts[0].status, Status::Correct, "{:?}", verdicts[0].details);
    assert_eq!(names[1], ["passed", "wrong_answer"]);
    assert_eq!(verdicts[2].status, Status::Correct, "{:?}", verdicts[2].details);
    assert_eq!(names[3], ["wrong_answer"], "a failed assert_eq! is a wrong answer: {:?}", verdicts[3].details);
    assert_eq!(verdicts[4].status, Status::Correct, "{:?}", verdicts[4].details);
    assert_eq!(names[5], ["wrong_answer"], "{:?}", verdicts[5].details);
    assert_eq!(names[6], ["wrong_answer"], "{:?}", verdicts[6].details);
    assert_eq!(names[7], ["compile_error"]);
    assert_eq!(names[8], ["runtime_error"], "{:?}", verdicts[8].details);
    assert_eq!(names[9], ["runtime_error"], "{:?}", verdicts[9].details);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crate_is_a_compile_error_that_says_only_std_is_there() -> anyhow::Result<()> {
    let item = json!({
        "language": "rust",
        "program": "use itertools::Itertools;\nfn main() { println!(\"{}\", [1, 2].iter().join(\",\")); }\n",
        "tests": [{"stdin": "", "expected_stdout": "1,2\n"}],
    });
    let verdicts = common::judge(vec![serde_json::from_value(item)?]).await;
    assert_eq!(common::verdict_names(&verdicts[0].details), ["compile_error"]);
    let message = verdicts[0].details["tests"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("itertools") && message.contains("standard library alone"), "{message}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_and_cpp_check_programs_run_after_the_program() -> anyhow::Result<()> {
    let c_tests = "#include <assert.h>\nint main(void) {\n    assert(add(1, 2) == 3);\n    assert(add(-4, 4) == 0);\n    return 0;\n}\n";
    let cpp_tests = "#undef NDEBUG\n#include <cassert>\nint main() {\n    assert(add(1, 2) == 3);\n}\n";
    let check = |language: &str, program: &str, tests: &str| json!({"language": language, "program": program, "check": {"program": tests, "entry_point": "add"}});
    let items = [
        check("c", "int add(int a, int b) { return a + b; }\n", c_tests),
        check("c", "int add(int a, int b) { return a * b; }\n", c_tests),
        check("cpp", "#include <bits/stdc++.h>\nint add(int a, int b) { return a + b; }\n", cpp_tests),
        check(
            "cpp",
            "#include <bits/stdc++.h>\nint add(int a, int b) { throw std::runtime_error(\"no\"); }\n",
            cpp_tests,
        ),
        // Ending the process with status 0 before the tests have run is no pass: from the
        // function under test, or from a constructor before `main`.
        check("c", "#include <stdlib.h>\nint add(int a, int b) { exit(0); }\n", c_tests),
        check(
            "cpp",
            "#include <bits/stdc++.h>\nstruct Quit { Quit() { std::exit(0); } } quit;\nint add(int a, int b) { return a - b; }\n",
            cpp_tests,
        ),
    ];
    let items = items.into_iter().map(serde_json::from_value).collect::<Result<Vec<_>, _>>()?;
    let verdicts = common::judge(items).await;
    assert_eq!(verdicts[0].status, Status::Correct, "{:?}", verdicts[0].details);
    assert_eq!(common::verdict_names(&verdicts[1].details), ["wrong_answer"], "{:?}", verdicts[1].details);
    assert_eq!(verdicts[2].status, Status::Correct, "{:?}", verdicts[2].details);
    assert_eq!(common::verdict_names(&verdicts[3].details), ["runtime_error"], "{:?}", verdicts[3].details);
    for early in &verdicts[4..] {
        assert_eq!(common::verdict_names(&early.details), ["runtime_error"], "{:?}", early.details);
        let message = early.details["tests"][0]["message"].as_str().unwrap_or("");
        assert!(message.contains("instead of returning from main"), "{message}");
    }
    Ok(())
}

/// `divide` and its tests: a plain test, a `#[should_panic]` test and one that expects a message.
const DIVIDE_TESTS: &str = "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn divides() {\n        assert_eq!(divide(6, 3), 2);\n    }\n    #[test]\n    #[should_panic]\n    fn by_zero() {\n        divide(1, 0);\n    }\n    #[test]\n    #[should_panic(expected = \"divide by zero\")]\n    fn by_zero_says_so() {\n        divide(1, 0);\n    }\n}\n";

/// Programs with `#[test]` checks whose verdict under `cargo test` (debug: `#[should_panic]` tests
/// run, arithmetic overflow panics) differs from what a release build that skips
/// `#[should_panic]` tests would say: (name, program, tests, passes under `cargo test`).
const CARGO_TEST_CASES: [(&str, &str, &str, bool); 7] = [
    (
        "panics as it should",
        "fn divide(a: i32, b: i32) -> i32 {\n    if b == 0 {\n        panic!(\"divide by zero\");\n    }\n    a / b\n}\n",
        DIVIDE_TESTS,
        true,
    ),
    (
        "does not panic",
        "fn divide(a: i32, b: i32) -> i32 {\n    if b == 0 {\n        return 0;\n    }\n    a / b\n}\n",
        DIVIDE_TESTS,
        false,
    ),
    (
        "panics with another message",
        "fn divide(a: i32, b: i32) -> i32 {\n    if b == 0 {\n        panic!(\"b is {}\", b);\n    }\n    a / b\n}\n",
        DIVIDE_TESTS,
        false,
    ),
    (
        "panics by dividing",
        "fn divide(a: i32, b: i32) -> i32 {\n    a / b\n}\n",
        "#[test]\n#[should_panic(expected = \"attempt to divide by zero\")]\nfn by_zero() {\n    divide(1, 0);\n}\n",
        true,
    ),
    (
        "u8 overflow",
        "fn add(a: u8, b: u8) -> u8 {\n    a + b\n}\n",
        "#[test]\nfn wraps() {\n    assert_eq!(add(255, 1), 0);\n}\n",
        false,
    ),
    (
        "usize underflow",
        "fn last(v: &[i32]) -> usize {\n    v.len() - 1\n}\n",
        "#[test]\nfn empty() {\n    assert_eq!(last(&[]), usize::MAX);\n}\n",
        false,
    ),
    (
        "i32 sum overflow",
        "fn total(v: &[i32]) -> i32 {\n    v.iter().sum()\n}\n",
        "#[test]\nfn big() {\n    assert_eq!(total(&[i32::MAX, 1]), i32::MIN);\n}\n",
        false,
    ),
];

fn cargo_test_item(program: &str, tests: &str) -> anyhow::Result<referee_code::CodeInput> {
    let item = json!({"language": "rust", "program": program, "check": {"program": tests, "entry_point": "f"}});
    Ok(serde_json::from_value(item)?)
}

/// `#[should_panic]` tests run (libtest alone would skip them, as it cannot catch a panic in the
/// sandbox), their `expected` text must be in the panic's message, and a check's arithmetic
/// overflow panics: each case's verdict is the one `cargo test` gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_test_checks_are_judged_as_cargo_test_judges_them() -> anyhow::Result<()> {
    let items = CARGO_TEST_CASES.iter().map(|(_, program, tests, _)| cargo_test_item(program, tests));
    let verdicts = common::judge(items.collect::<anyhow::Result<_>>()?).await;
    for ((name, _, _, passes), verdict) in CARGO_TEST_CASES.iter().zip(&verdicts) {
        let expected = if *passes { Status::Correct } else { Status::Incorrect };
        assert_eq!(verdict.status, expected, "{name}: {:?}", verdict.details);
    }
    let message = |i: usize| verdicts[i].details["tests"][0]["message"].as_str().unwrap_or("").to_owned();
    assert_eq!(common::verdict_names(&verdicts[1].details), ["wrong_answer"]);
    assert!(
        message(1).contains("test tests::by_zero did not panic, but it is marked #[should_panic]"),
        "{}",
        message(1)
    );
    assert_eq!(common::verdict_names(&verdicts[2].details), ["wrong_answer"]);
    assert!(
        message(2).contains("panic message: `\"b is 0\"`")
            && message(2).contains("expected substring: `\"divide by zero\"`"),
        "{}",
        message(2)
    );
    for overflow in 4..7 {
        assert_eq!(common::verdict_names(&verdicts[overflow].details), ["runtime_error"]);
        let stderr = verdicts[overflow].details["tests"][0]["stderr"].as_str().unwrap_or("");
        assert!(stderr.contains("with overflow"), "{}: {stderr}", CARGO_TEST_CASES[overflow].0);
    }
    Ok(())
}

/// The same cases built natively by Debian's rustc as `cargo test` builds them (`--test`, debug)
/// and run: each passes or fails as `CARGO_TEST_CASES` says.
#[test]
#[ignore = "full tier (scripts/test --full): builds and runs each case natively with rustc"]
fn cargo_test_cases_pass_and_fail_natively_as_stated() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    for (index, (name, program, tests, passes)) in CARGO_TEST_CASES.iter().enumerate() {
        let source = dir.path().join(format!("case{index}.rs"));
        let binary = dir.path().join(format!("case{index}"));
        std::fs::write(&source, format!("{program}\n{tests}\n"))?;
        let built = std::process::Command::new("/usr/bin/rustc")
            .args(["--edition=2021", "--cap-lints=allow", "--test", "-o"])
            .arg(&binary)
            .arg(&source)
            .output()?;
        anyhow::ensure!(built.status.success(), "{name}: {}", String::from_utf8_lossy(&built.stderr));
        let ran = std::process::Command::new(&binary).output()?;
        assert_eq!(ran.status.success(), *passes, "{name}: {}", String::from_utf8_lossy(&ran.stdout));
    }
    Ok(())
}

/// A program that spawns a thread fails (the sandbox's WebAssembly has one thread), with a
/// message that names the cause.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_is_a_runtime_error_that_says_threads_are_unavailable() -> anyhow::Result<()> {
    let program = "fn count() -> usize {\n    std::thread::spawn(|| 1).join().unwrap()\n}\nfn main() {\n    println!(\"{}\", count());\n}\n";
    let item = json!({"language": "rust", "program": program, "tests": [{"stdin": "", "expected_stdout": "1\n"}]});
    let verdicts = common::judge(vec![serde_json::from_value(item)?]).await;
    assert_eq!(common::verdict_names(&verdicts[0].details), ["runtime_error"], "{:?}", verdicts[0].details);
    let message = verdicts[0].details["tests"][0]["message"].as_str().unwrap_or("");
    assert!(message.starts_with("threads are not available in the sandbox: std::thread::spawn"), "{message}");
    Ok(())
}
