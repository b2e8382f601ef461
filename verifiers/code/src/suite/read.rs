//! Reading a suite out of the response's last fenced block, in its declared format.

use std::sync::Arc;

use serde_json::{Value, json};

use super::input::SuiteFormat;
use crate::judge::{Runner, Stop, TestVerdict, excerpt, limit_verdict};

/// The guest program that splits an `asserts` suite into its tests.
const SPLIT: &str = include_str!("split.py");

/// How much of a test's input or source its details show, in characters.
const SHOWN_CHARS: usize = 200;

impl Test {
    /// The program an `asserts` test runs after the solution: its setup, the test, and the
    /// report that it finished.
    pub(crate) fn harness(setup: &str, source: &str) -> String {
        format!("{setup}\n{source}\n__referee_report__ = 'passed'\n")
    }
}

/// One test of a suite.
#[derive(Debug, Clone)]
pub(crate) enum Test {
    /// A standard input and the output a correct program prints: given, or `None` until the
    /// reference solution has computed it.
    Stdio { input: String, expected: Option<String> },
    /// Python run after the solution in its namespace: the suite's setup before the test (the
    /// first `setup_bytes` of `setup`, which every test of the suite shares), then the test.
    Asserts { setup: Arc<str>, setup_bytes: usize, source: String },
}

/// A test as read: runnable, or malformed with the reason; `shown` is what the details show of
/// it.
#[derive(Debug, Clone)]
pub(crate) struct ReadTest {
    pub(crate) test: Result<Test, String>,
    pub(crate) shown: Value,
}

/// Why no suite could be read, for an `unparseable` verdict.
pub(crate) enum Unread {
    /// The suite cannot be read: the reason.
    Unreadable(String),
    /// The sandbox failed or the deadline passed while a program read it.
    Stopped(Stop),
}

impl From<Stop> for Unread {
    fn from(stop: Stop) -> Self {
        Unread::Stopped(stop)
    }
}

/// Reads the suite in `block`; more than `max_tests` tests is unreadable. `runner` runs the
/// Python programs `generator` and `asserts` suites need (it has the Python runtime loaded).
pub(crate) async fn read(
    block: &str,
    format: SuiteFormat,
    max_tests: u64,
    runner: &Runner,
) -> Result<Vec<ReadTest>, Unread> {
    let tests = match format {
        SuiteFormat::Io => json_array(block, "a JSON array of tests")?.iter().map(io_test).collect(),
        SuiteFormat::Inputs => json_array(block, "a JSON array of inputs")?.iter().map(input_test).collect(),
        SuiteFormat::Generator => generated(block, runner).await?,
        SuiteFormat::Asserts => asserts(block, max_tests, runner).await?,
    };
    if tests.is_empty() {
        return Err(Unread::Unreadable("the suite has no tests".into()));
    }
    too_many(tests.len(), max_tests)?;
    Ok(tests)
}

fn too_many(tests: usize, max_tests: u64) -> Result<(), Unread> {
    if tests as u64 > max_tests {
        return Err(Unread::Unreadable(format!(
            "the suite has {tests} tests, more than `options.max_tests` ({max_tests})"
        )));
    }
    Ok(())
}

fn json_array(text: &str, what: &str) -> Result<Vec<Value>, Unread> {
    match serde_json::from_str::<Value>(text.trim()) {
        Ok(Value::Array(values)) => Ok(values),
        Ok(other) => Err(Unread::Unreadable(format!("the suite must be {what}, not a JSON {}", kind(&other)))),
        Err(error) => Err(Unread::Unreadable(format!("the suite is not JSON: {error}"))),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `{"input": "...", "output": "..."}`; other keys (an explanation) are ignored.
fn io_test(value: &Value) -> ReadTest {
    let field = |name| value.get(name).and_then(Value::as_str);
    match (field("input"), field("output")) {
        (Some(input), Some(output)) => ReadTest {
            shown: json!({"input": shorten(input)}),
            test: Ok(Test::Stdio { input: input.to_owned(), expected: Some(output.to_owned()) }),
        },
        _ => ReadTest {
            shown: json!({"input": shorten(&value.to_string())}),
            test: Err(format!(
                "a test must be an object with string `input` and `output`, got {}",
                shorten(&value.to_string())
            )),
        },
    }
}

fn input_test(value: &Value) -> ReadTest {
    match value.as_str() {
        Some(input) => ReadTest {
            shown: json!({"input": shorten(input)}),
            test: Ok(Test::Stdio { input: input.to_owned(), expected: None }),
        },
        None => ReadTest {
            shown: json!({"input": shorten(&value.to_string())}),
            test: Err(format!("an input must be a string, got a JSON {}", kind(value))),
        },
    }
}

/// Runs the generator program once; it must exit normally and print a JSON array of inputs.
async fn generated(program: &str, runner: &Runner) -> Result<Vec<ReadTest>, Unread> {
    let (run, outcome) = runner.run(program, b"", None, 1).await?;
    let failed = match limit_verdict(&run) {
        Some(verdict) => Some(verdict),
        None if run.exit_code != 0 || outcome.exception.is_some() => {
            Some(if outcome.compile_error { TestVerdict::CompileError } else { TestVerdict::RuntimeError })
        }
        None => None,
    };
    if let Some(verdict) = failed {
        let stderr = excerpt(&run.stderr);
        return Err(Unread::Unreadable(format!(
            "the generator program ended with {}{}",
            super::verdict_name(verdict),
            if stderr.is_empty() { String::new() } else { format!(": {}", stderr.trim_end()) }
        )));
    }
    let printed = String::from_utf8_lossy(&run.stdout);
    let inputs = json_array(&printed, "printed as a JSON array of inputs").map_err(|unread| match unread {
        Unread::Unreadable(reason) => Unread::Unreadable(format!("the generator's output: {reason}")),
        stopped => stopped,
    })?;
    Ok(inputs.iter().map(input_test).collect())
}

/// Splits Python test code into its tests in the sandbox (`split.py`, with Python's own
/// parser), then builds each test's harness: the setup before it, the test, the report. The
/// count is checked before the harnesses are built, as each repeats the setup.
async fn asserts(block: &str, max_tests: u64, runner: &Runner) -> Result<Vec<ReadTest>, Unread> {
    let (run, outcome) = runner.run(SPLIT, block.as_bytes(), None, 1).await?;
    if let Some(verdict) = limit_verdict(&run) {
        return Err(Unread::Unreadable(format!(
            "the suite could not be split into tests within the limits ({verdict:?})"
        )));
    }
    let report: Value = serde_json::from_str(&outcome.report).map_err(|_| {
        Unread::Unreadable(format!("the suite could not be split into tests: {}", excerpt(&run.stderr).trim_end()))
    })?;
    if let Some(error) = report.get("syntax_error").and_then(Value::as_str) {
        return Err(Unread::Unreadable(format!("the suite is not valid Python: {error}")));
    }
    let texts = |key: &str| -> Vec<String> {
        report
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let setup = texts("setup");
    let tests = report.get("tests").and_then(Value::as_array).cloned().unwrap_or_default();
    too_many(tests.len(), max_tests)?;
    // The setup once, and where each prefix of it ends.
    let joined: Arc<str> = Arc::from(setup.join("\n"));
    let mut ends = Vec::with_capacity(setup.len() + 1);
    ends.push(0);
    for (k, statement) in setup.iter().enumerate() {
        ends.push(ends[k] + usize::from(k > 0) + statement.len());
    }
    Ok(tests
        .iter()
        .map(|test| {
            let source = test.get("source").and_then(Value::as_str).unwrap_or_default();
            let before = test.get("setup").and_then(Value::as_u64).map_or(0, |k| k as usize).min(setup.len());
            ReadTest {
                shown: json!({"line": test.get("line"), "source": shorten(source)}),
                test: Ok(Test::Asserts {
                    setup: Arc::clone(&joined),
                    setup_bytes: ends[before],
                    source: source.to_owned(),
                }),
            }
        })
        .collect())
}

/// The first `SHOWN_CHARS` characters of `text`, with an ellipsis when cut.
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(read: &ReadTest) -> &str {
        read.test.as_ref().err().map_or("", String::as_str)
    }

    #[test]
    fn io_tests_need_string_input_and_output() {
        let good = io_test(&json!({"input": "1 2\n", "output": "3\n", "why": "sum"}));
        assert!(
            matches!(good.test, Ok(Test::Stdio { ref input, expected: Some(ref out) }) if input == "1 2\n" && out == "3\n")
        );
        for bad in [json!({"input": "1"}), json!({"input": 1, "output": "1"}), json!("1 2"), json!(null)] {
            assert!(message(&io_test(&bad)).contains("string `input` and `output`"), "{bad}");
        }
        assert!(message(&input_test(&json!(5))).contains("JSON number"));
        assert!(matches!(input_test(&json!("5\n")).test, Ok(Test::Stdio { expected: None, .. })));
    }

    #[test]
    fn a_suite_that_is_not_an_array_is_unreadable() {
        for (text, wanted) in [("{\"input\": \"1\"}", "not a JSON object"), ("[1, 2", "not JSON"), ("", "not JSON")] {
            match json_array(text, "a JSON array of tests") {
                Err(Unread::Unreadable(reason)) => assert!(reason.contains(wanted), "{text}: {reason}"),
                _ => panic!("{text} was read"),
            }
        }
    }

    #[test]
    fn shown_text_is_cut_on_a_character() {
        let long = "é".repeat(300);
        let shown = shorten(&long);
        assert_eq!(shown.chars().count(), SHOWN_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(shorten("short"), "short");
    }
}
