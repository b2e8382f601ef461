//! C and C++ standard-input problems with known-correct and known-wrong solutions.

use referee_code::{CodeInput, MAX_SOURCE_CHARS};
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

/// A source over the cap (`MAX_SOURCE_CHARS`) is refused as `invalid_input` naming the cap, in
/// every language and wherever it is (the program, the one in `response`, the check program); one
/// just under the cap is compiled whole and judged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_source_over_the_cap_is_refused_and_one_under_it_is_judged_whole() -> anyhow::Result<()> {
    let main = "int main(void) { return 0; }\n";
    let padded = |length: usize, end: &str| {
        let filler = length - main.len() - end.len() - "/**/\n".len();
        format!("{main}/*{}*/\n{end}", "x".repeat(filler))
    };
    let over = padded(MAX_SOURCE_CHARS + 40, "#error past the cap\n");
    let under = padded(MAX_SOURCE_CHARS - 10, "int after(void) { return 1; }\n");
    assert_eq!((over.len(), under.len()), (MAX_SOURCE_CHARS + 40, MAX_SOURCE_CHARS - 10));
    let tests = json!([{"stdin": "", "expected_stdout": ""}]);
    let items = [
        json!({"language": "c", "program": over, "tests": tests}),
        json!({"language": "c", "response": format!("```c\n{over}```\n"), "tests": tests}),
        json!({"language": "c", "program": main, "check": {"program": over, "entry_point": "f"}}),
        json!({"language": "python", "program": format!("print()\n#{}\n", "é".repeat(MAX_SOURCE_CHARS)), "tests": tests}),
        json!({"language": "c", "program": under, "tests": tests}),
    ];
    let items = items.into_iter().map(serde_json::from_value).collect::<Result<Vec<CodeInput>, _>>()?;
    let verdicts = common::judge(items).await;
    for refused in &verdicts[..4] {
        assert_eq!(refused.status, Status::InvalidInput, "{:?}", refused.details);
        let error = refused.details["error"].as_str().unwrap_or("");
        assert!(error.contains(&format!("over the cap of {MAX_SOURCE_CHARS} characters")), "{error}");
    }
    assert_eq!(verdicts[4].status, Status::Correct, "{:?}", verdicts[4].details);
    Ok(())
}

/// A program that calls a function it declared as a WebAssembly import and never defined is the
/// program's fault: `compile_error` naming the import, not the sandbox's `internal_error`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undefined_import_is_a_compile_error() -> anyhow::Result<()> {
    let program = "#include <stdio.h>\n__attribute__((import_module(\"env\"), import_name(\"helper\"))) void helper(void);\nint main(void) { helper(); puts(\"1\"); return 0; }\n";
    let item = json!({"language": "c", "program": program, "tests": [{"stdin": "", "expected_stdout": "1\n"}]});
    let verdicts = common::judge(vec![serde_json::from_value(item)?]).await;
    assert_eq!(verdicts[0].status, Status::Incorrect, "{:?}", verdicts[0].details);
    assert_eq!(common::verdict_names(&verdicts[0].details), ["compile_error"]);
    let message = verdicts[0].details["tests"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("cannot be linked") && message.contains("`env::helper`"), "{message}");
    Ok(())
}
