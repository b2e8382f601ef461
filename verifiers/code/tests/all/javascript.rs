//! JavaScript items: programs that use Node.js's API print what Node.js prints, function-call
//! tests and test programs judge as Python's do, and a program cannot forge its tests' result.
//!
//! What Node.js prints on the programs of `tests/data/javascript-node` is recorded in
//! `tests/data/native/javascript-node.tsv`: the fast tier judges every program against it and
//! runs no Node.js; the full tier (`scripts/test --full`) runs every program under Node.js and
//! compares its output and exit status with the file.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use referee_code::CodeInput;
use referee_core::{Status, Verdict};
use serde_json::{Value, json};

use super::common::{self, Candidate, NativeRecord, NativeRun, judge};

/// The standard input every program of `tests/data/javascript-node` reads.
const STDIN: &str = "3\n1 2 3\nhello wörld\n";

fn item(value: Value) -> anyhow::Result<CodeInput> {
    Ok(serde_json::from_value(value)?)
}

fn verdicts_of(verdict: &Verdict) -> Vec<String> {
    verdict.details["tests"]
        .as_array()
        .map(|tests| tests.iter().map(|t| t["verdict"].as_str().unwrap_or("?").to_owned()).collect())
        .unwrap_or_default()
}

/// Node.js's standard output and exit status on `program` with `STDIN`.
fn node(program: &Path) -> anyhow::Result<(String, i32)> {
    let mut child = Command::new("node").arg(program).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
    child.stdin.take().ok_or_else(|| anyhow::anyhow!("no stdin"))?.write_all(STDIN.as_bytes())?;
    let output = child.wait_with_output()?;
    Ok((String::from_utf8(output.stdout)?, output.status.code().unwrap_or(-1)))
}

/// The record of what Node.js prints.
const RECORD: NativeRecord = NativeRecord {
    name: "javascript-node",
    about: "What Node.js prints on each program of verifiers/code/tests/data/javascript-node (javascript.rs) given the\n\
            test's standard input: passed when it exits 0; the output column is its standard output as a JSON string.",
    test: "javascript::node_output_is_as_recorded",
    peer: "Node.js",
};

/// The programs of `tests/data/javascript-node`, by file name, in order.
fn node_programs() -> anyhow::Result<Vec<(String, PathBuf)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/javascript-node");
    let mut programs = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        programs.push((name, path));
    }
    programs.sort();
    assert!(programs.len() >= 12);
    Ok(programs)
}

fn node_candidates(programs: &[(String, PathBuf)]) -> anyhow::Result<Vec<Candidate<'_, PathBuf>>> {
    programs
        .iter()
        .map(|(name, path)| Ok(Candidate::new(path, name, "program", std::fs::read_to_string(path)?)))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_print_what_node_prints() -> anyhow::Result<()> {
    let programs = node_programs()?;
    let candidates = node_candidates(&programs)?;
    RECORD.check_names_exactly(&candidates)?;
    let recorded = RECORD.recorded(&candidates)?;
    let mut expected = Vec::new();
    let mut items = Vec::new();
    for (candidate, recorded) in candidates.iter().zip(&recorded) {
        let stdout =
            recorded.output.clone().ok_or_else(|| anyhow::anyhow!("{}: no output recorded", candidate.task_id))?;
        items.push(item(json!({
            "language": "javascript",
            "program": candidate.solution,
            "tests": [{"stdin": STDIN, "expected_stdout": stdout}],
            "options": {"checker": "exact"},
        }))?);
        expected.push(if recorded.passed { "passed" } else { "runtime_error" });
    }
    let verdicts = judge(items).await;
    let mismatches: Vec<String> = candidates
        .iter()
        .zip(&verdicts)
        .zip(&expected)
        .filter(|((_, verdict), expected)| verdicts_of(verdict) != [**expected])
        .map(|((candidate, verdict), expected)| {
            format!("{}: expected {expected}, got {}", candidate.task_id, Value::Object(verdict.details.clone()))
        })
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    Ok(())
}

#[test]
#[ignore = "full tier (scripts/test --full): runs every program under Node.js"]
fn node_output_is_as_recorded() -> anyhow::Result<()> {
    let version = common::tool_version(Command::new("node").arg("--version"))
        .map_err(|e| anyhow::anyhow!("node is required: this test compares Node.js's output with the record ({e})"))?;
    let programs = node_programs()?;
    let run = |_: &Path, candidate: &Candidate<'_, PathBuf>| -> anyhow::Result<NativeRun> {
        let (stdout, status) = node(candidate.problem)?;
        Ok(NativeRun { passed: status == 0, said: format!("exit status {status}"), output: Some(stdout) })
    };
    RECORD.check_native(&node_candidates(&programs)?, &format!("node {version}"), run, |_| false)
}

const SOLUTION: &str = r#"
function addPairs(pairs) {
    return pairs.map(([a, b]) => a + b);
}
const describe = (n) => ({ n, even: n % 2 === 0, digits: String(n).split("").map(Number) });
async function later(x) {
    return x * 2;
}
function odd() {
    return [undefined, NaN, new Map([[1, 2]])];
}
function fails(x) {
    if (x < 0) throw new RangeError("negative input");
    return Math.sqrt(x);
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn function_tests_compare_returned_values() -> anyhow::Result<()> {
    let calls = |entry_point: &str, cases: Value| {
        item(json!({
            "language": "javascript",
            "program": SOLUTION,
            "function_tests": {"entry_point": entry_point, "cases": cases},
            "options": {"scoring": "fraction"},
        }))
    };
    let verdicts = judge(vec![
        calls("addPairs", json!([{"args": [[[1, 2], [3, 4]]], "expected": [3, 7]}, {"args": [[]], "expected": []}]))?,
        calls(
            "describe",
            json!([
                {"args": [12], "expected": {"n": 12, "even": true, "digits": [1, 2]}},
                {"args": [7], "expected": {"n": 7, "even": true, "digits": [7]}},
            ]),
        )?,
        calls("later", json!([{"args": [21], "expected": 42}]))?,
        calls("odd", json!([{"args": [], "expected": [null, null, {}]}]))?,
        calls("fails", json!([{"args": [9], "expected": 3}, {"args": [-1], "expected": 0}]))?,
        calls("absent", json!([{"args": [], "expected": 0}]))?,
    ])
    .await;
    assert_eq!(verdicts[0].status, Status::Correct, "{:?}", verdicts[0].details);
    assert_eq!(verdicts_of(&verdicts[1]), ["passed", "wrong_answer"]);
    assert_eq!(verdicts[2].status, Status::Correct, "an async function's value is awaited: {:?}", verdicts[2].details);
    // undefined, NaN and a Map are not the JSON they would serialise to.
    assert_eq!(verdicts_of(&verdicts[3]), ["wrong_answer"]);
    assert!(verdicts[3].details["tests"][0]["message"].as_str().is_some_and(|m| m.contains("Map(1)")));
    assert_eq!(verdicts_of(&verdicts[4]), ["passed", "runtime_error"]);
    assert!(verdicts[4].details["tests"][1]["message"].as_str().is_some_and(|m| m.contains("RangeError")));
    assert_eq!(verdicts_of(&verdicts[5]), ["runtime_error"]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_programs_pass_only_when_their_tests_do() -> anyhow::Result<()> {
    let check = |program: &str, test: &str| {
        item(json!({
            "language": "javascript",
            "program": program,
            "check": {"program": test, "entry_point": "addPairs"},
        }))
    };
    // MultiPL-E's form: node's assert, its own call.
    let multipl_e = "const assert = require('node:assert');\nfunction test() {\n  let candidate = addPairs;\n  assert.deepEqual(candidate([[1, 2]]), [3]);\n  assert.deepEqual(candidate([[2, 2], [0, -1]]), [4, -1]);\n}\ntest();\n";
    // HumanEval-X's form: console.assert, its own call.
    let humaneval_x = "const testAddPairs = () => {\n  console.assert(JSON.stringify(addPairs([[1, 2]])) === JSON.stringify([3]))\n}\ntestAddPairs()\n";
    // HumanEval's form: check(candidate), called by the harness.
    let humaneval =
        "function check(candidate) {\n  if (candidate([[5, 5]])[0] !== 10) throw new Error('wrong sum');\n}\n";
    let async_test = "const assert = require('assert');\n(async () => { assert.strictEqual(await later(2), 5); })();\n";
    let wrong = SOLUTION.replace("a + b", "a * b");
    let verdicts = judge(vec![
        check(SOLUTION, multipl_e)?,
        check(&wrong, multipl_e)?,
        check(SOLUTION, humaneval_x)?,
        check(&wrong, humaneval_x)?,
        check(SOLUTION, humaneval)?,
        check(&wrong, humaneval)?,
        check(SOLUTION, async_test)?,
        check(SOLUTION, "this is not javascript")?,
    ])
    .await;
    let got: Vec<Vec<String>> = verdicts.iter().map(verdicts_of).collect();
    let expected = [
        ["passed"],
        ["wrong_answer"],
        ["passed"],
        ["wrong_answer"],
        ["passed"],
        ["runtime_error"],
        ["runtime_error"],
        ["runtime_error"],
    ];
    assert_eq!(
        got,
        expected.map(|e| e.map(str::to_owned)),
        "{:#?}",
        verdicts.iter().map(|v| &v.details).collect::<Vec<_>>()
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_cannot_forge_or_disarm_its_tests() -> anyhow::Result<()> {
    let test = "const assert = require('assert');\nassert.deepEqual(addPairs([[1, 2]]), [3]);\n";
    let wrong = "function addPairs() { return []; }\n";
    let attempts = [
        // A record of its own, with a guessed nonce.
        format!("{wrong}process.stdout.write('\\nreferee-record-0000:' + JSON.stringify({{exit: 0, checked: true}}));"),
        // Disarming the assert module, or `require`.
        format!("{wrong}try {{ require('assert').deepEqual = () => {{}}; }} catch (e) {{}}"),
        format!("{wrong}try {{ globalThis.require = () => ({{ deepEqual() {{}} }}); }} catch (e) {{}}"),
        format!(
            "{wrong}try {{ Object.defineProperty(globalThis, 'require', {{ value: () => ({{ deepEqual() {{}} }}) }}); }} catch (e) {{}}"
        ),
        // Ending the run early with success.
        format!("{wrong}process.exit(0);"),
        format!("{wrong}import('qjs:std').then((std) => std.exit(0));"),
    ];
    let items = attempts
        .iter()
        .map(|program| {
            item(json!({
                "language": "javascript",
                "program": program,
                "check": {"program": test, "entry_point": "addPairs"},
            }))
        })
        .collect::<Result<_, _>>()?;
    let verdicts = judge(items).await;
    for (program, verdict) in attempts.iter().zip(&verdicts) {
        assert_eq!(verdict.score, 0.0, "{program}: {:?}", verdict.details);
        assert_ne!(verdict.status, Status::InternalError, "{program}: {:?}", verdict.details);
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_syntax_error_is_a_compile_error_and_runs_are_deterministic() -> anyhow::Result<()> {
    let program = "let total = 0;\nfor (let i = 0; i < 200000; i++) total += i % 7;\nconsole.log(total);\n";
    let run = |program: &str| {
        item(json!({
            "language": "js",
            "program": program,
            "tests": [{"stdin": "", "expected_stdout": "599994\n"}],
        }))
    };
    let verdicts = judge(vec![run(program)?, run(program)?, run("console.log(1 +);")?]).await;
    assert_eq!(verdicts[0].status, Status::Correct, "{:?}", verdicts[0].details);
    assert_eq!(verdicts[0].details["fuel"], verdicts[1].details["fuel"], "the same program uses the same fuel");
    assert_eq!(verdicts_of(&verdicts[2]), ["compile_error"]);
    Ok(())
}
