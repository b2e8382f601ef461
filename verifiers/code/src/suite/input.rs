//! The `code-tests` verifier's input, as requests send it.

use referee_core::utoipa::{self, ToSchema};
use serde::Deserialize;

use crate::input::{CheckerKind, CodeOptions, Language, RunSettings, check_source_length, integer};

/// The most known-correct solutions one item may carry.
pub const MAX_CORRECT: usize = 16;
/// The most known-wrong solutions one item may carry.
pub const MAX_WRONG: usize = 64;
/// The most tests a suite may hold, whatever `options.max_tests` says.
pub const MAX_TESTS: u64 = 1000;

/// Rewards a model-written test suite by running it against known-correct and known-wrong
/// solutions in the WebAssembly sandbox (test-suite rewards as "Rethinking Verification for LLM
/// Code Generation: From Generation to Testing", Ma et al., NeurIPS 2025, measures them).
///
/// The suite is the last fenced code block of `response`, written as `format` says. Every
/// (solution × test) pair is one run with the `code` verifier's limits. The suite is *valid*
/// when every test is well-formed and every correct solution passes every test; a wrong solution
/// is *detected* when it fails at least one test. The reward is 0 for an invalid suite, else the
/// detection rate (detected / wrong solutions), or 1 only when every wrong solution is detected
/// with `reward: verifier_accuracy`; with no wrong solutions, 1 for a valid suite.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "language": "python",
    "format": "asserts",
    "response": "Tests:\n```python\nassert add(2, 3) == 5\nassert add(-1, 1) == 0\n```",
    "correct_solutions": ["def add(a, b):\n    return a + b\n"],
    "wrong_solutions": ["def add(a, b):\n    return a - b\n", "def add(a, b):\n    return abs(a) + b\n"]
}))]
pub struct CodeTestsInput {
    /// The language of the solutions. `asserts` suites test Python solutions only; a
    /// `generator` is Python whatever the solutions' language.
    pub language: Language,
    /// The model's response; its last fenced code block is the suite (text before a closing
    /// `</think>` is ignored).
    #[schema(max_length = 1000000)]
    pub response: String,
    /// How the suite is written (default `io`).
    #[serde(default)]
    pub format: SuiteFormat,
    /// Known-correct solutions (1 to 16), full programs. With `inputs` and `generator` suites
    /// the first one computes each test's expected output.
    #[schema(min_items = 1, max_items = 16)]
    pub correct_solutions: Vec<String>,
    /// Known-wrong solutions (0 to 64), full programs.
    #[serde(default)]
    #[schema(max_items = 64)]
    pub wrong_solutions: Vec<String>,
    /// What a valid suite earns (default `detection_rate`).
    #[serde(default)]
    pub reward: SuiteReward,
    /// Run every (solution × test) pair and report the whole matrix, instead of stopping each
    /// solution at its first failing test (which decides the score) and skipping the wrong
    /// solutions of an invalid suite (default false).
    #[serde(default)]
    pub full_matrix: bool,
    /// Limits per run, the output checker and the most tests a suite may hold.
    #[serde(default)]
    pub options: SuiteOptions,
}

/// How a suite is written in the response's last fenced block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuiteFormat {
    /// A JSON array of standard-input tests, `{"input": "...", "output": "..."}` each.
    #[default]
    Io,
    /// A JSON array of standard inputs (strings); the first correct solution's output on each
    /// is its expected output.
    Inputs,
    /// A Python program that prints a JSON array of standard inputs (strings), run once in the
    /// sandbox; expected outputs as with `inputs`.
    Generator,
    /// Python test code: each top-level statement that asserts (an `assert`, a loop of
    /// asserts, a call of a suite-defined function that asserts such as `check(candidate)`) is
    /// one test, run after the solution and the statements before it that do not assert.
    Asserts,
}

impl SuiteFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            SuiteFormat::Io => "io",
            SuiteFormat::Inputs => "inputs",
            SuiteFormat::Generator => "generator",
            SuiteFormat::Asserts => "asserts",
        }
    }

    /// Whether the tests' expected outputs come from the first correct solution.
    pub fn outputs_from_reference(self) -> bool {
        matches!(self, SuiteFormat::Inputs | SuiteFormat::Generator)
    }
}

/// What a valid suite earns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SuiteReward {
    /// The fraction of wrong solutions the suite detects.
    #[default]
    DetectionRate,
    /// 1 when the suite detects every wrong solution, else 0.
    VerifierAccuracy,
}

/// Limits per run, the output checker and the suite's size cap.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct SuiteOptions {
    /// How standard output is compared (`exact`, `lines` (default), `tokens`, `float`;
    /// `program` is not offered here).
    pub checker: CheckerKind,
    /// Absolute tolerance of the `float` checker (default 1e-6).
    #[schema(minimum = 0.0, maximum = 1e6)]
    pub float_abs_tol: f64,
    /// Relative tolerance of the `float` checker (default 1e-6).
    #[schema(minimum = 0.0, maximum = 1e6)]
    pub float_rel_tol: f64,
    /// Fuel per run (default 2·10^10, about two seconds of interpreter CPU).
    #[schema(minimum = 1000000, maximum = 1000000000000u64)]
    #[serde(deserialize_with = "integer")]
    pub fuel: u64,
    /// Wall-clock backstop per run, in milliseconds (default 10000).
    #[schema(minimum = 1, maximum = 60000)]
    #[serde(deserialize_with = "integer")]
    pub time_limit_ms: u64,
    /// Memory cap per run, in MiB (default 256).
    #[schema(minimum = 32, maximum = 2048)]
    #[serde(deserialize_with = "integer")]
    pub memory_mb: u64,
    /// Cap on standard output per run, in bytes (default 32 MiB).
    #[schema(minimum = 1, maximum = 268435456)]
    #[serde(deserialize_with = "integer")]
    pub output_limit_bytes: u64,
    /// The most tests a suite may hold (default 100, at most 1000); a larger suite scores 0 as
    /// `unparseable`.
    #[schema(minimum = 1, maximum = 1000)]
    #[serde(deserialize_with = "integer")]
    pub max_tests: u64,
}

impl Default for SuiteOptions {
    fn default() -> Self {
        let code = CodeOptions::default();
        SuiteOptions {
            checker: code.checker,
            float_abs_tol: code.float_abs_tol,
            float_rel_tol: code.float_rel_tol,
            fuel: code.fuel,
            time_limit_ms: code.time_limit_ms,
            memory_mb: code.memory_mb,
            output_limit_bytes: code.output_limit_bytes,
            max_tests: 100,
        }
    }
}

impl SuiteOptions {
    pub(crate) fn run_settings(&self) -> RunSettings {
        RunSettings {
            fuel: self.fuel,
            time_limit_ms: self.time_limit_ms,
            memory_mb: self.memory_mb,
            output_limit_bytes: self.output_limit_bytes,
            float_abs_tol: self.float_abs_tol,
            float_rel_tol: self.float_rel_tol,
        }
    }
}

/// Checks the input beyond what its schema says; `Err` is the reason it is invalid.
pub(crate) fn validate(input: &CodeTestsInput) -> Result<(), String> {
    if input.correct_solutions.is_empty() || input.correct_solutions.len() > MAX_CORRECT {
        return Err(format!("`correct_solutions` must hold 1 to {MAX_CORRECT} programs"));
    }
    if input.wrong_solutions.len() > MAX_WRONG {
        return Err(format!("`wrong_solutions` may hold at most {MAX_WRONG} programs"));
    }
    let solutions = input.correct_solutions.iter().enumerate().map(|(i, s)| ("correct_solutions", i, s));
    for (field, index, solution) in
        solutions.chain(input.wrong_solutions.iter().enumerate().map(|(i, s)| ("wrong_solutions", i, s)))
    {
        check_source_length(&format!("`{field}[{index}]`"), solution)?;
    }
    if input.format == SuiteFormat::Asserts && input.language != Language::Python {
        return Err(format!(
            "`asserts` suites test Python solutions; {} solutions take `io`, `inputs` or `generator` suites",
            input.language.as_str()
        ));
    }
    let o = &input.options;
    if o.checker == CheckerKind::Program {
        return Err("`options.checker: program` is not offered by code-tests; use exact, lines, tokens or float".into());
    }
    o.run_settings().check(&[("max_tests", o.max_tests, 1, MAX_TESTS)])?;
    Ok(())
}
