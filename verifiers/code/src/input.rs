//! The `code` verifier's input, as requests send it.

use std::time::Duration;

use referee_core::utoipa::{self, ToSchema};
use referee_sandbox::Limits;
use serde::{Deserialize, Deserializer, Serialize, de::Error as _};
use serde_json::Value;

/// The longest source, in characters, as the schemas' `maxLength` says: `program` (or the program
/// a `response` holds), `check.program`, `checker_program` and each of `code-tests`' solutions. A
/// longer one makes its item `invalid_input`; a source is never cut.
pub const MAX_SOURCE_CHARS: usize = 1_000_000;

/// `Err` with the reason when `source` (named `what` in the message) is longer than
/// [`MAX_SOURCE_CHARS`].
pub(crate) fn check_source_length(what: &str, source: &str) -> Result<(), String> {
    // A UTF-8 character is at least one byte: a source within the cap in bytes is within it.
    if source.len() <= MAX_SOURCE_CHARS {
        return Ok(());
    }
    let chars = source.chars().count();
    if chars <= MAX_SOURCE_CHARS {
        return Ok(());
    }
    Err(format!(
        "{what} is {chars} characters long, over the cap of {MAX_SOURCE_CHARS} characters per source; it is refused \
         rather than judged in part"
    ))
}

/// Runs a model-written program against tests in a WebAssembly sandbox (CPython 3.14 compiled to
/// WASI, JavaScript on QuickJS-NG compiled to WASI, C/C++ compiled by clang, Rust compiled by
/// rustc to `wasm32-wasi` or Go compiled to `wasip1`, run by wasmtime) and scores the fraction of tests passed or
/// all-or-nothing.
///
/// Give the program as `program`, or the whole `response`, whose last fenced code block is the
/// program. Give exactly one kind of test:
///
/// - `tests`: standard-input tests; each runs the program in a fresh instance and compares its
///   standard output with `expected_stdout` using the `checker`;
/// - `function_tests` (Python, JavaScript): calls `entry_point` with each case's `args` in one
///   instance and compares the returned value with `expected`;
/// - `check`: a test program run after the program that raises on failure. In Python it defines
///   `check(candidate)`, called with the entry point; a JavaScript test program runs its own
///   tests (MultiPL-E's `assert`, HumanEval-X's `console.assert`) or defines `check(candidate)`.
///   A C, C++ or Rust test program is compiled after the program and has the `main` (or, in Rust,
///   `#[test]` functions); a failed `assert` is a wrong answer. A Go test program is the
///   package's test file, with `func TestXxx(t *testing.T)` functions (testify's `assert` and
///   `require` are there); a failed test is a wrong answer. It passes when it finishes without
///   an error.
///
/// Budgets are deterministic: `fuel` (about 10^10 units per second of interpreter CPU) decides
/// `time_limit` verdicts, so the same program earns the same reward however loaded the server
/// is. `time_limit_ms` is only a wall-clock backstop.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeInput {
    /// The language of the program.
    pub language: Language,
    /// The program's source. Exactly one of `program` and `response`.
    #[serde(default)]
    #[schema(max_length = 1000000)]
    pub program: Option<String>,
    /// A full model response; the last fenced code block (```` ``` ````) is the program, text
    /// before a closing `</think>` is ignored.
    #[serde(default)]
    #[schema(max_length = 1000000)]
    pub response: Option<String>,
    /// Standard-input tests.
    #[serde(default)]
    #[schema(max_items = 1000)]
    pub tests: Option<Vec<StdioTest>>,
    /// Function-call tests, all run in one instance.
    #[serde(default)]
    pub function_tests: Option<FunctionTests>,
    /// A HumanEval-style assert program.
    #[serde(default)]
    pub check: Option<CheckProgram>,
    /// Checker, limits and scoring.
    #[serde(default)]
    pub options: CodeOptions,
}

/// The language of a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    /// CPython 3.14; only the preloaded standard-library modules can be imported.
    Python,
    /// C17 (GNU dialect) compiled by clang to `wasm32-wasi`; standard-input tests or `check`.
    C,
    /// C++17 (GNU dialect) compiled by clang to `wasm32-wasi`, with `<bits/stdc++.h>`;
    /// standard-input tests or `check`. A `throw` ends the program (a `catch` never runs).
    Cpp,
    /// JavaScript (ES2023) on QuickJS-NG, run as a Node.js script: `console`, `process`
    /// (stdin, stdout, exit), `require` of `fs` (standard input), `readline`, `assert`, `util`
    /// and `events`, timers and `Buffer`. No npm packages.
    #[serde(alias = "js")]
    Javascript,
    /// Rust 2021 compiled by Debian's rustc 1.63 to `wasm32-wasi`, standard library only (no
    /// crates); standard-input tests or `check` (a program without `fn main` whose functions are
    /// marked `#[test]` runs as a test harness).
    #[serde(alias = "rs")]
    Rust,
    /// Go 1.27 compiled to `wasip1/wasm`, with the standard library and testify's `assert` and
    /// `require` packages; standard-input tests or `check` (a test file with `TestXxx`
    /// functions). A file without a package clause is in package `main`.
    #[serde(alias = "golang")]
    Go,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Javascript => "javascript",
            Language::Rust => "rust",
            Language::Go => "go",
        }
    }
}

/// One standard-input test.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StdioTest {
    /// The program's standard input.
    pub stdin: String,
    /// The standard output a correct program prints.
    pub expected_stdout: String,
}

/// Function-call tests: `entry_point(*args) == expected` for each case.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FunctionTests {
    /// The name of the function the program defines.
    #[schema(min_length = 1, max_length = 200)]
    pub entry_point: String,
    /// The calls to make.
    #[schema(min_items = 1, max_items = 1000)]
    pub cases: Vec<FunctionCase>,
}

/// One call of the entry point.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FunctionCase {
    /// Positional arguments, as JSON values.
    pub args: Vec<Value>,
    /// The value a correct function returns. Tuples compare as arrays; floats with the
    /// `float` checker's tolerances when the checker is `float`, exactly otherwise.
    pub expected: Value,
}

/// A HumanEval-style test program.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckProgram {
    /// The test program: Python defining `check(candidate)`, JavaScript that runs its tests (or
    /// defines `check(candidate)`), C, C++ or Rust compiled after the program with its own
    /// `main` or `#[test]` functions, or a Go test file with `TestXxx` functions; it raises
    /// (usually `AssertionError`) or fails an `assert` or a test on failure.
    #[schema(max_length = 1000000)]
    pub program: String,
    /// The function under test (passed to `check`; a compiled test program calls it itself).
    #[schema(min_length = 1, max_length = 200)]
    pub entry_point: String,
}

/// How outputs are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CheckerKind {
    /// Byte-for-byte equal: a missing final newline or a trailing space fails.
    Exact,
    /// The default, as competitive-programming judges and RL code datasets compare: equal line
    /// by line, ignoring trailing whitespace on each line and trailing blank lines (so `print(42)`
    /// passes an expected `42` written without its newline). Case and inner spacing still count.
    #[default]
    Lines,
    /// Equal as whitespace-separated tokens.
    Tokens,
    /// Equal as tokens, numbers within `float_abs_tol` or `float_rel_tol`.
    Float,
    /// `checker_program` decides: it reads a JSON object `{"input", "expected", "output"}` on
    /// standard input and passes the test by exiting with status 0.
    Program,
}

/// How the item's score follows from its tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// 1 when every test passes, else 0.
    #[default]
    AllOrNothing,
    /// The fraction of tests passed.
    Fraction,
}

/// Checker, limits and scoring of one item.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CodeOptions {
    /// How standard output is compared (default `lines`: trailing whitespace on each line and
    /// trailing blank lines are ignored; `exact` compares bytes).
    pub checker: CheckerKind,
    /// The special judge for `checker: program`, a Python program whatever the item's language.
    #[schema(max_length = 1000000)]
    pub checker_program: Option<String>,
    /// Absolute tolerance of the `float` checker (default 1e-6).
    #[schema(minimum = 0.0, maximum = 1e6)]
    pub float_abs_tol: f64,
    /// Relative tolerance of the `float` checker (default 1e-6).
    #[schema(minimum = 0.0, maximum = 1e6)]
    pub float_rel_tol: f64,
    /// Fuel per test (default 2·10^10, about two seconds of interpreter CPU).
    #[serde(deserialize_with = "integer")]
    #[schema(minimum = 1000000, maximum = 1000000000000u64)]
    pub fuel: u64,
    /// Wall-clock backstop per test, in milliseconds (default 10000).
    #[serde(deserialize_with = "integer")]
    #[schema(minimum = 1, maximum = 60000)]
    pub time_limit_ms: u64,
    /// Memory cap per run, in MiB (default 256).
    #[serde(deserialize_with = "integer")]
    #[schema(minimum = 32, maximum = 2048)]
    pub memory_mb: u64,
    /// Cap on standard output per run, in bytes (default 32 MiB).
    #[serde(deserialize_with = "integer")]
    #[schema(minimum = 1, maximum = 268435456)]
    pub output_limit_bytes: u64,
    /// Stop at the first failing test; the rest are reported as `skipped`. Defaults to true
    /// with `all_or_nothing` scoring (one failure decides the score) and false with `fraction`.
    pub stop_on_first_failure: Option<bool>,
    /// All-or-nothing (default) or the fraction of tests passed.
    pub scoring: Scoring,
}

impl Default for CodeOptions {
    fn default() -> Self {
        CodeOptions {
            checker: CheckerKind::default(),
            checker_program: None,
            float_abs_tol: 1e-6,
            float_rel_tol: 1e-6,
            fuel: 20_000_000_000,
            time_limit_ms: 10_000,
            memory_mb: 256,
            output_limit_bytes: 32 << 20,
            stop_on_first_failure: None,
            scoring: Scoring::default(),
        }
    }
}

impl CodeOptions {
    /// Whether judging stops at the first failing test, after the scoring-dependent default.
    pub fn stops_on_first_failure(&self) -> bool {
        self.stop_on_first_failure.unwrap_or(self.scoring == Scoring::AllOrNothing)
    }
}

/// The per-run limits and output tolerances that `code` and `code-tests` options share.
pub(crate) struct RunSettings {
    pub(crate) fuel: u64,
    pub(crate) time_limit_ms: u64,
    pub(crate) memory_mb: u64,
    pub(crate) output_limit_bytes: u64,
    pub(crate) float_abs_tol: f64,
    pub(crate) float_rel_tol: f64,
}

impl RunSettings {
    /// Checks every setting, then each of `more` (`(name, value, lowest, highest)`), against
    /// its range; `Err` names the first one outside.
    pub(crate) fn check(&self, more: &[(&str, u64, u64, u64)]) -> Result<(), String> {
        let ranges = [
            ("fuel", self.fuel, 1_000_000, 1_000_000_000_000),
            ("time_limit_ms", self.time_limit_ms, 1, 60_000),
            ("memory_mb", self.memory_mb, 32, 2048),
            ("output_limit_bytes", self.output_limit_bytes, 1, 256 << 20),
        ];
        for &(name, value, lo, hi) in ranges.iter().chain(more) {
            if !(lo..=hi).contains(&value) {
                return Err(format!("`options.{name}` must be between {lo} and {hi}, got {value}"));
            }
        }
        for (name, value) in [("float_abs_tol", self.float_abs_tol), ("float_rel_tol", self.float_rel_tol)] {
            if !(0.0..=1e6).contains(&value) {
                return Err(format!("`options.{name}` must be between 0 and 1e6"));
            }
        }
        Ok(())
    }

    /// The sandbox limits of one run.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            fuel: self.fuel,
            wall_time: Duration::from_millis(self.time_limit_ms),
            memory_bytes: usize::try_from(self.memory_mb << 20).unwrap_or(usize::MAX),
            stdout_bytes: usize::try_from(self.output_limit_bytes).unwrap_or(usize::MAX),
            stderr_bytes: 1 << 20,
        }
    }
}

impl CodeOptions {
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

/// A non-negative integer, accepting integral floats (`5.0`) as JSON Schema does.
pub(crate) fn integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    let number = serde_json::Number::deserialize(deserializer)?;
    number
        .as_u64()
        .or_else(|| {
            number.as_f64().filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v <= u64::MAX as f64).map(|v| v as u64)
        })
        .ok_or_else(|| D::Error::custom(format!("expected a non-negative integer, got {number}")))
}
