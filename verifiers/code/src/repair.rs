//! `code-repair`: a programming problem over several attempts. Each submission runs against the
//! visible tests and the agent sees a verdict per test and the first failure (its input, the
//! expected and the actual output, trimmed); the hidden tests decide the final reward.

use futures::FutureExt as _;
use futures::future::BoxFuture;
use referee_core::utoipa::{self, ToSchema};
use referee_core::{
    Budget, Environment, EnvironmentDescription, EnvironmentError, EnvironmentInfo, Episode, InputSchema, Started,
    Status, Step, Verdict,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::input::{CodeInput, CodeOptions, Language, Scoring, StdioTest};
use crate::judge::{self, head};
use crate::sandbox::SandboxCell;

/// The id the environment is registered under.
pub const CODE_REPAIR_ID: &str = "code-repair";

/// The most attempts an episode may be given.
pub const MAX_ATTEMPTS: u32 = 32;

/// Characters of a test's input and expected output shown with a failure.
const SHOWN_CHARS: usize = 1000;

/// A programming problem with tests, over several attempts. Each action submits a program (or a
/// response whose last fenced block is one); it runs against the visible `tests`, and the
/// observation gives every visible test's verdict and the first failing test's input, expected
/// and actual output. The episode ends when every visible test passes or the attempts run out;
/// that submission is then judged on `hidden_tests` (or on the visible tests when there are none)
/// with `options.scoring`, and the reward is its score less `attempt_penalty` for each attempt
/// after the first. Every step before the last rewards 0.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeRepairOptions {
    /// The language of the programs.
    pub language: Language,
    /// The problem statement, shown in the first observation.
    #[serde(default)]
    pub prompt: Option<String>,
    /// A program to start from (to repair), shown in the first observation.
    #[serde(default)]
    pub program: Option<String>,
    /// The tests whose results the agent sees, 1 to 100.
    #[schema(min_items = 1, max_items = 100)]
    pub tests: Vec<StdioTest>,
    /// The tests that decide the reward, never shown; at most 1000.
    #[serde(default)]
    #[schema(max_items = 1000)]
    pub hidden_tests: Vec<StdioTest>,
    /// Checker, limits and scoring, as in the `code` verifier.
    #[serde(default)]
    pub options: CodeOptions,
    /// Submissions the agent may make, 1 to 32. Default 3.
    #[serde(default = "default_attempts")]
    #[schema(minimum = 1, maximum = 32, default = 3)]
    pub max_attempts: u32,
    /// Taken off the final reward for each attempt after the first, 0 to 1. Default 0.
    #[serde(default)]
    #[schema(minimum = 0.0, maximum = 1.0, default = 0.0)]
    pub attempt_penalty: f64,
}

fn default_attempts() -> u32 {
    3
}

/// One submission: exactly one of `program` and `response`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeRepairAction {
    /// The program's source.
    #[serde(default)]
    pub program: Option<String>,
    /// A full response whose last fenced code block is the program.
    #[serde(default)]
    pub response: Option<String>,
}

/// The `code-repair` environment, on the `code` verifier's sandbox.
#[derive(Debug, Clone)]
pub struct CodeRepair {
    sandbox: SandboxCell,
}

impl CodeRepair {
    pub(crate) fn new(sandbox: SandboxCell) -> Self {
        CodeRepair { sandbox }
    }
}

fn invalid(message: impl Into<String>) -> EnvironmentError {
    EnvironmentError::InvalidOptions(message.into())
}

impl Environment for CodeRepair {
    fn info(&self) -> EnvironmentInfo {
        EnvironmentInfo {
            description: EnvironmentDescription {
                id: CODE_REPAIR_ID,
                version: "1",
                summary: "A programming problem over several attempts: each submission runs against the visible \
                          tests in the code sandbox and the agent sees every verdict and the first failure (input, \
                          expected and actual output); hidden tests decide the final reward, less an optional \
                          penalty per attempt.",
            },
            options: InputSchema::of::<CodeRepairOptions>(),
            action: InputSchema::of::<CodeRepairAction>(),
        }
    }

    fn start(&self, options: Value) -> BoxFuture<'static, Result<Started, EnvironmentError>> {
        let sandbox = self.sandbox.clone();
        async move {
            let options: CodeRepairOptions = serde_json::from_value(options).map_err(|e| invalid(e.to_string()))?;
            check(&options)?;
            let observation = json!({
                "prompt": options.prompt,
                "program": options.program,
                "language": options.language.as_str(),
                "tests": options.tests.iter().map(|t| json!({"stdin": t.stdin, "expected_stdout": t.expected_stdout})).collect::<Vec<_>>(),
                "hidden_tests": options.hidden_tests.len(),
                "max_attempts": options.max_attempts,
            });
            let episode = RepairEpisode { sandbox, options, attempt: 0, outcome: None };
            Ok(Started { episode: Box::new(episode), observation })
        }
        .boxed()
    }
}

fn check(options: &CodeRepairOptions) -> Result<(), EnvironmentError> {
    if !(1..=MAX_ATTEMPTS).contains(&options.max_attempts) {
        return Err(invalid(format!("max_attempts must be 1 to {MAX_ATTEMPTS}, not {}", options.max_attempts)));
    }
    if !(0.0..=1.0).contains(&options.attempt_penalty) {
        return Err(invalid(format!("attempt_penalty must be within [0, 1], not {}", options.attempt_penalty)));
    }
    if options.tests.is_empty() || options.tests.len() > 100 {
        return Err(invalid("`tests` must hold 1 to 100 visible tests"));
    }
    if options.hidden_tests.len() > 1000 {
        return Err(invalid("`hidden_tests` may hold at most 1000 tests"));
    }
    options.options.run_settings().check(&[]).map_err(invalid)
}

/// One live `code-repair` episode.
#[derive(Debug)]
struct RepairEpisode {
    sandbox: SandboxCell,
    options: CodeRepairOptions,
    attempt: u32,
    /// Once done, the status of the final verdict (hidden tests, else visible ones).
    outcome: Option<Status>,
}

impl RepairEpisode {
    fn input(&self, action: &CodeRepairAction, tests: &[StdioTest], options: CodeOptions) -> CodeInput {
        CodeInput {
            language: self.options.language,
            program: action.program.clone(),
            response: action.response.clone(),
            tests: Some(tests.to_vec()),
            function_tests: None,
            check: None,
            options,
        }
    }

    async fn submit(&mut self, action: Value) -> Result<Step, EnvironmentError> {
        let action: CodeRepairAction =
            serde_json::from_value(action).map_err(|e| EnvironmentError::InvalidAction(e.to_string()))?;
        if action.program.is_some() == action.response.is_some() {
            return Err(EnvironmentError::InvalidAction("give exactly one of `program` and `response`".into()));
        }
        // Every visible test runs, so the agent sees all of them.
        let visible_options = CodeOptions {
            stop_on_first_failure: Some(false),
            scoring: Scoring::Fraction,
            ..self.options.options.clone()
        };
        let visible = self.judge(self.input(&action, &self.options.tests, visible_options)).await?;
        self.attempt += 1;
        let all_passed = visible.status == Status::Correct;
        let done = all_passed || self.attempt >= self.options.max_attempts;
        let mut observation = self.observation(&visible, all_passed, done);
        let reward = if done {
            let final_verdict = if self.options.hidden_tests.is_empty() {
                rescore(&visible, self.options.options.scoring)
            } else {
                let hidden = self.input(&action, &self.options.hidden_tests, self.options.options.clone());
                self.judge(hidden).await?
            };
            observation["final"] = json!({
                "on": if self.options.hidden_tests.is_empty() { "visible_tests" } else { "hidden_tests" },
                "status": final_verdict.status,
                "score": final_verdict.score,
                "passed": final_verdict.details.get("passed"),
                "total": final_verdict.details.get("total"),
            });
            self.outcome = Some(final_verdict.status);
            final_verdict.score - self.options.attempt_penalty * f64::from(self.attempt - 1)
        } else {
            0.0
        };
        Ok(Step { observation, reward, done })
    }

    /// Judges one submission; the sandbox breaking, or a language this server cannot run, is
    /// the environment's error, not an attempt.
    async fn judge(&self, input: CodeInput) -> Result<Verdict, EnvironmentError> {
        let verdict = judge::judge(input, Budget::unlimited(), self.sandbox.clone()).await;
        match verdict.status {
            Status::InternalError => Err(EnvironmentError::Internal(error_of(&verdict))),
            Status::InvalidInput if verdict.details.contains_key("unavailable") => {
                Err(EnvironmentError::Unavailable(error_of(&verdict)))
            }
            Status::InvalidInput => Err(EnvironmentError::InvalidOptions(error_of(&verdict))),
            Status::Correct
            | Status::Partial
            | Status::Incorrect
            | Status::Unparseable
            | Status::Timeout
            | Status::ResourceLimit => Ok(verdict),
        }
    }

    fn observation(&self, visible: &Verdict, all_passed: bool, done: bool) -> Value {
        let attempts_left = self.options.max_attempts - self.attempt;
        let reports = visible.details.get("tests").and_then(Value::as_array).cloned().unwrap_or_default();
        let verdicts: Vec<Value> = reports.iter().map(|r| r.get("verdict").cloned().unwrap_or(Value::Null)).collect();
        let first_failure =
            reports.iter().enumerate().find(|(_, r)| r.get("verdict").and_then(Value::as_str) != Some("passed"));
        let failure = first_failure.map(|(index, report)| {
            let test = &self.options.tests[index.min(self.options.tests.len() - 1)];
            json!({
                "test": index,
                "verdict": report.get("verdict"),
                "stdin": trimmed(&test.stdin),
                "expected_stdout": trimmed(&test.expected_stdout),
                "output": report.get("output"),
                "stderr": report.get("stderr"),
                "message": report.get("message"),
            })
        });
        let passed = verdicts.iter().filter(|v| v.as_str() == Some("passed")).count();
        let feedback = if visible.status == Status::Unparseable {
            "No program found: put it in a fenced code block.".to_owned()
        } else if all_passed {
            format!("All {} visible tests pass.", verdicts.len())
        } else if done {
            format!("{passed} of {} visible tests pass; no attempts left.", verdicts.len())
        } else {
            format!("{passed} of {} visible tests pass; {attempts_left} attempts left.", verdicts.len())
        };
        json!({
            "feedback": feedback,
            "attempt": self.attempt,
            "attempts_left": attempts_left,
            "status": visible.status,
            "passed": passed,
            "total": self.options.tests.len(),
            "tests": verdicts,
            "first_failure": failure,
        })
    }
}

/// The visible-test verdict (judged with `fraction`) under the problem's own scoring.
fn rescore(visible: &Verdict, scoring: Scoring) -> Verdict {
    match scoring {
        Scoring::Fraction => visible.clone(),
        Scoring::AllOrNothing => {
            let mut verdict = visible.clone();
            if verdict.status != Status::Correct {
                verdict.score = 0.0;
                if verdict.status == Status::Partial {
                    verdict.status = Status::Incorrect;
                }
            }
            verdict
        }
    }
}

fn error_of(verdict: &Verdict) -> String {
    verdict.details.get("error").and_then(Value::as_str).unwrap_or("the code sandbox failed").to_owned()
}

/// At most `SHOWN_CHARS` characters of a test's text.
fn trimmed(text: &str) -> String {
    if text.len() <= SHOWN_CHARS {
        return text.to_owned();
    }
    format!("{}…", head(text.as_bytes()))
}

impl Episode for RepairEpisode {
    fn step(&mut self, action: Value) -> BoxFuture<'_, Result<Step, EnvironmentError>> {
        self.submit(action).boxed()
    }

    fn state(&self) -> Value {
        json!({"attempt": self.attempt, "max_attempts": self.options.max_attempts})
    }

    fn outcome(&self) -> Option<Status> {
        self.outcome
    }
}
