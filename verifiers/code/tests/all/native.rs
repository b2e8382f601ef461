//! C and C++ standard-input problems with known-correct and known-wrong solutions.

use referee_code::CodeInput;
use referee_core::{Budget, RewardModel as _, Status};
use serde_json::{Value, json};

use super::common;

/// Sum of n integers that do not fit in 32 bits.
fn sum_tests() -> Value {
    json!([
        {"stdin": "3\n1 2 3\n", "expected_stdout": "6\n"},
        {"stdin": "2\n2000000000 2000000000\n", "expected_stdout": "4000000000\n"},
        {"stdin": "1\n-5\n", "expected_stdout": "-5\n"},
    ])
}

/// Sort n integers and print them on one line.
fn sort_tests() -> Value {
    json!([
        {"stdin": "5\n5 1 4 2 3\n", "expected_stdout": "1 2 3 4 5\n"},
        {"stdin": "1\n7\n", "expected_stdout": "7\n"},
        {"stdin": "4\n3 3 -1 0\n", "expected_stdout": "-1 0 3 3\n"},
    ])
}

const SUM_C: &str = "#include <stdio.h>\nint main(void) {\n    int n; long long s = 0, x;\n    if (scanf(\"%d\", &n) != 1) return 1;\n    while (n--) { scanf(\"%lld\", &x); s += x; }\n    printf(\"%lld\\n\", s);\n    return 0;\n}\n";
const SUM_C_OVERFLOW: &str = "#include <stdio.h>\nint main(void) {\n    int n, s = 0, x;\n    if (scanf(\"%d\", &n) != 1) return 1;\n    while (n--) { scanf(\"%d\", &x); s += x; }\n    printf(\"%d\\n\", s);\n    return 0;\n}\n";
const SORT_CPP: &str = "#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    int n; cin >> n;\n    vector<long long> v(n);\n    for (auto &x : v) cin >> x;\n    sort(v.begin(), v.end());\n    for (int i = 0; i < n; i++) cout << v[i] << (i + 1 < n ? ' ' : '\\n');\n}\n";
const SORT_CPP_OFF_BY_ONE: &str = "#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    int n; cin >> n;\n    vector<long long> v(n);\n    for (auto &x : v) cin >> x;\n    sort(v.begin(), v.end() - 1);\n    for (int i = 0; i < n; i++) cout << v[i] << (i + 1 < n ? ' ' : '\\n');\n}\n";

fn item(language: &str, program: &str, tests: Value) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(json!({
        "language": language, "program": program, "tests": tests, "options": {"scoring": "fraction"},
    }))?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_and_cpp_solutions_are_told_apart() -> anyhow::Result<()> {
    let items = vec![
        item("c", SUM_C, sum_tests())?,
        item("c", SUM_C_OVERFLOW, sum_tests())?,
        item("cpp", SORT_CPP, sort_tests())?,
        item("cpp", SORT_CPP_OFF_BY_ONE, sort_tests())?,
        item("c", "int main(void) { return missing; }", sum_tests())?,
    ];
    let verdicts = common::verifier()?.score_batch(items, Budget::unlimited()).await;
    let tests = |i: usize| -> Vec<String> {
        verdicts[i].details["tests"]
            .as_array()
            .map(|t| t.iter().map(|t| t["verdict"].as_str().unwrap_or("?").to_owned()).collect())
            .unwrap_or_default()
    };
    assert_eq!(verdicts[0].status, Status::Correct, "{:?}", verdicts[0].details);
    assert_eq!(tests(1), ["passed", "wrong_answer", "passed"]);
    assert_eq!(verdicts[2].status, Status::Correct, "{:?}", verdicts[2].details);
    assert_eq!(tests(3), ["wrong_answer", "passed", "wrong_answer"]);
    assert_eq!(tests(4), ["compile_error", "compile_error", "compile_error"]);
    assert!(verdicts[4].details["tests"][0]["message"].as_str().unwrap_or("").contains("missing"));
    Ok(())
}
