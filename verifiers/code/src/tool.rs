//! `python-tool`: a persistent Python interpreter in the WebAssembly sandbox, driven one code cell
//! at a time (tool-integrated reasoning), with an optional final answer judged by a named scorer.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt as _;
use futures::future::BoxFuture;
use referee_core::utoipa::{self, ToSchema};
use referee_core::{
    Budget, Busy, BusyStatus, Environment, EnvironmentDescription, EnvironmentError, EnvironmentInfo, Episode,
    InputSchema, Scorer, Started, Status, Step,
};
use referee_sandbox::{CellOutcome, Execution, Limits, PythonRuntime, PythonSession, Sandbox, Termination};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::input::{Language, RunSettings};
use crate::judge::{head_of, load_off_thread};
use crate::sandbox::SandboxCell;

/// The id the environment is registered under.
pub const PYTHON_TOOL_ID: &str = "python-tool";

/// The most code cells an episode may be given.
pub const MAX_CALLS: u32 = 256;

/// How long an answer's scorer may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// A Python interpreter that keeps its state across actions: each `code` action runs as the next
/// cell, and the observation is its standard output and error, the `repr` of a final expression
/// (as in a notebook) and the exception that ended it, if any. Variables, imports and functions
/// persist. Each cell has `fuel`, `time_limit_ms` and `output_limit_bytes`; the interpreter's memory
/// is capped at `memory_mb` for the whole episode, and `total_fuel` bounds all cells together. A
/// cell stopped by a limit ends the interpreter (the next cell starts a fresh one, and the
/// observation says so). An `answer` action ends the episode: with `answer_check`, the answer is
/// scored by the named scorer (its `input` with the answer as `response`) and that score is the
/// reward; without one, the reward is 0. Running out of cells or fuel ends the episode with 0.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PythonToolOptions {
    /// The task, shown in the first observation.
    #[serde(default)]
    pub prompt: Option<String>,
    /// How the final answer is scored.
    #[serde(default)]
    pub answer_check: Option<AnswerCheck>,
    /// Code cells the agent may run, 1 to 256. Default 16.
    #[serde(default = "default_calls")]
    #[schema(minimum = 1, maximum = 256, default = 16)]
    pub max_calls: u32,
    /// Fuel per cell (default 10^10, about a second of interpreter CPU).
    #[serde(default = "default_fuel")]
    #[schema(minimum = 1000000, maximum = 1000000000000u64, default = 10000000000u64)]
    pub fuel: u64,
    /// Fuel for all cells together (default `max_calls` × `fuel`).
    #[serde(default)]
    pub total_fuel: Option<u64>,
    /// Wall-clock backstop per cell, in milliseconds (default 10000).
    #[serde(default = "default_time")]
    #[schema(minimum = 1, maximum = 60000, default = 10000)]
    pub time_limit_ms: u64,
    /// The interpreter's memory cap for the episode, in MiB (default 256).
    #[serde(default = "default_memory")]
    #[schema(minimum = 32, maximum = 2048, default = 256)]
    pub memory_mb: u64,
    /// Cap on a cell's standard output, in bytes (default 1 MiB); past it the cell stops.
    #[serde(default = "default_output")]
    #[schema(minimum = 1, maximum = 268435456, default = 1048576)]
    pub output_limit_bytes: u64,
    /// Bytes of each output stream an observation shows (default 8192; the rest is cut and
    /// marked).
    #[serde(default = "default_shown")]
    #[schema(minimum = 1, maximum = 1048576, default = 8192)]
    pub observation_bytes: usize,
    /// Seeds `random` (cell `n` reseeds it with `seed + n`). Default 0.
    #[serde(default)]
    pub seed: u64,
}

fn default_calls() -> u32 {
    16
}
fn default_fuel() -> u64 {
    10_000_000_000
}
fn default_time() -> u64 {
    10_000
}
fn default_memory() -> u64 {
    256
}
fn default_output() -> u64 {
    1 << 20
}
fn default_shown() -> usize {
    8192
}

/// The scorer that judges the final answer.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerCheck {
    /// A registered scorer's id (`math`, `exact-match`, ...).
    pub verifier: String,
    /// That scorer's input without `response`; the answer is put there.
    #[schema(value_type = Object)]
    pub input: Map<String, Value>,
}

/// One action: exactly one of `code` and `answer`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PythonToolAction {
    /// Python source to run as the next cell.
    #[serde(default)]
    pub code: Option<String>,
    /// The final answer; ends the episode.
    #[serde(default)]
    pub answer: Option<String>,
}

/// The `python-tool` environment, on the `code` verifier's sandbox.
#[derive(Clone)]
pub struct PythonTool {
    sandbox: SandboxCell,
    /// One permit per live interpreter the sandbox's pool has room for.
    live: Arc<Semaphore>,
    max_live: usize,
    retry_after_secs: u32,
    scorers: Arc<HashMap<&'static str, Scorer>>,
}

impl std::fmt::Debug for PythonTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PythonTool").field("max_live", &self.max_live).finish_non_exhaustive()
    }
}

impl PythonTool {
    /// The environment with room for `max_live` interpreters at once (the sandbox's
    /// `sessions`), judging answers with `scorers`.
    pub(crate) fn new(sandbox: SandboxCell, max_live: usize, retry_after_secs: u32, scorers: &[Scorer]) -> Self {
        let scorers = scorers.iter().map(|s| (s.info().description.id, s.clone())).collect();
        PythonTool {
            sandbox,
            live: Arc::new(Semaphore::new(max_live)),
            max_live,
            retry_after_secs,
            scorers: Arc::new(scorers),
        }
    }
}

fn invalid(message: impl Into<String>) -> EnvironmentError {
    EnvironmentError::InvalidOptions(message.into())
}

impl PythonToolOptions {
    /// The per-cell limits, checked as the `code` verifier checks its own.
    fn run_settings(&self) -> RunSettings {
        RunSettings {
            fuel: self.fuel,
            time_limit_ms: self.time_limit_ms,
            memory_mb: self.memory_mb,
            output_limit_bytes: self.output_limit_bytes,
            float_abs_tol: 0.0,
            float_rel_tol: 0.0,
        }
    }
}

fn check(options: &PythonToolOptions, scorers: &HashMap<&'static str, Scorer>) -> Result<(), EnvironmentError> {
    let more = [
        ("max_calls", u64::from(options.max_calls), 1, u64::from(MAX_CALLS)),
        ("observation_bytes", options.observation_bytes as u64, 1, 1 << 20),
    ];
    options.run_settings().check(&more).map_err(invalid)?;
    if let Some(check) = &options.answer_check {
        if !scorers.contains_key(check.verifier.as_str()) {
            return Err(invalid(format!("`answer_check.verifier`: no scorer is registered as `{}`", check.verifier)));
        }
        if check.input.contains_key("response") {
            return Err(invalid("`answer_check.input` must not hold `response`: the answer is put there"));
        }
    }
    Ok(())
}

impl Environment for PythonTool {
    fn info(&self) -> EnvironmentInfo {
        EnvironmentInfo {
            description: EnvironmentDescription {
                id: PYTHON_TOOL_ID,
                version: "1",
                summary: "A persistent Python interpreter in the WebAssembly sandbox: each action runs a code cell \
                          (variables, imports and functions persist) and the observation is its output, final value \
                          and exception; a final answer is scored by a named verifier, which gives the reward.",
            },
            options: InputSchema::of::<PythonToolOptions>(),
            action: InputSchema::of::<PythonToolAction>(),
        }
    }

    fn start(&self, options: Value) -> BoxFuture<'static, Result<Started, EnvironmentError>> {
        let tool = self.clone();
        async move {
            let options: PythonToolOptions = serde_json::from_value(options).map_err(|e| invalid(e.to_string()))?;
            check(&options, &tool.scorers)?;
            let permit = Arc::clone(&tool.live).try_acquire_owned().map_err(|_| {
                EnvironmentError::Busy(Busy {
                    status: BusyStatus::Unavailable,
                    retry_after_secs: tool.retry_after_secs,
                    message: format!(
                        "{} python-tool episodes are live, the most this server holds (episodes.max_live_python); \
                         close one or retry after {} s",
                        tool.max_live, tool.retry_after_secs
                    ),
                })
            })?;
            let (sandbox, python) = match load_off_thread(tool.sandbox.clone(), Language::Python, true).await {
                Ok((sandbox, Some(python))) => (sandbox, python),
                Ok((_, None)) => return Err(EnvironmentError::Internal("the Python runtime was not loaded".into())),
                Err((_, error)) if error.is_unavailable() => {
                    return Err(EnvironmentError::Unavailable(format!(
                        "python-tool needs the Python runtime: {} (fix: {})",
                        error.reason(),
                        error.fix()
                    )));
                }
                Err((_, error)) => return Err(EnvironmentError::Internal(error.reason())),
            };
            let observation = json!({
                "prompt": options.prompt,
                "max_calls": options.max_calls,
                "answer_checked": options.answer_check.is_some(),
            });
            let total_fuel =
                options.total_fuel.unwrap_or_else(|| options.fuel.saturating_mul(u64::from(options.max_calls)));
            let episode = ToolEpisode {
                sandbox,
                python,
                scorers: Arc::clone(&tool.scorers),
                session: None,
                _permit: permit,
                options,
                calls: 0,
                fuel_spent: 0,
                total_fuel,
                interpreters: 0,
                outcome: None,
            };
            Ok(Started { episode: Box::new(episode), observation })
        }
        .boxed()
    }
}

/// One live `python-tool` episode: the interpreter (started at the first cell, and again after
/// a cell that ended it) and what it has spent.
struct ToolEpisode {
    sandbox: Arc<Sandbox>,
    python: Arc<PythonRuntime>,
    scorers: Arc<HashMap<&'static str, Scorer>>,
    session: Option<PythonSession>,
    /// Held for the episode's life: its slot among the live interpreters.
    _permit: OwnedSemaphorePermit,
    options: PythonToolOptions,
    calls: u32,
    fuel_spent: u64,
    total_fuel: u64,
    /// Interpreters started so far.
    interpreters: u32,
    /// Once done: the checked answer's status, or `resource_limit` when the cells or the fuel
    /// ran out; `None` for an unchecked answer.
    outcome: Option<Status>,
}

impl std::fmt::Debug for ToolEpisode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolEpisode").field("calls", &self.calls).finish_non_exhaustive()
    }
}

impl ToolEpisode {
    /// A cell's limits with `fuel`; standard error has the same cap as standard output.
    fn limits(&self, fuel: u64) -> Limits {
        let limits = self.options.run_settings().limits();
        Limits { fuel, stderr_bytes: limits.stdout_bytes, ..limits }
    }

    async fn act(&mut self, action: Value) -> Result<Step, EnvironmentError> {
        let action: PythonToolAction =
            serde_json::from_value(action).map_err(|e| EnvironmentError::InvalidAction(e.to_string()))?;
        match (action.code, action.answer) {
            (Some(code), None) => self.cell(code).await,
            (None, Some(answer)) => self.answer(answer).await,
            _ => Err(EnvironmentError::InvalidAction("give exactly one of `code` and `answer`".into())),
        }
    }

    async fn cell(&mut self, code: String) -> Result<Step, EnvironmentError> {
        let fuel_left = self.total_fuel.saturating_sub(self.fuel_spent);
        if self.calls >= self.options.max_calls || fuel_left == 0 {
            let why = if fuel_left == 0 { "the episode's fuel is spent" } else { "no code cells are left" };
            let observation = json!({"error": why, "calls_left": 0});
            self.outcome = Some(Status::ResourceLimit);
            return Ok(Step { observation, reward: 0.0, done: true });
        }
        let limits = self.limits(self.options.fuel.min(fuel_left));
        let restarted = self.session.is_none() && self.interpreters > 0;
        let session = match self.session.take() {
            Some(session) => session,
            None => {
                let started =
                    PythonSession::start_on(Arc::clone(&self.python), self.sandbox.host(), self.options.seed, limits)
                        .await;
                self.interpreters += 1;
                started.map_err(|e| EnvironmentError::Internal(referee_sandbox::Chain(&e).to_string()))?
            }
        };
        let (session, ran) = session
            .run_cell_on(self.sandbox.host(), code, limits)
            .await
            .map_err(|e| EnvironmentError::Internal(referee_sandbox::Chain(&e).to_string()))?;
        let (execution, outcome) =
            ran.map_err(|e| EnvironmentError::Internal(referee_sandbox::Chain(&e).to_string()))?;
        self.calls += 1;
        self.fuel_spent = self.fuel_spent.saturating_add(execution.fuel_used);
        let lost = !session.is_alive();
        self.session = session.is_alive().then_some(session);
        let observation = self.observation(&execution, &outcome, restarted, lost);
        Ok(Step { observation, reward: 0.0, done: false })
    }

    fn observation(&self, execution: &Execution, outcome: &CellOutcome, restarted: bool, lost: bool) -> Value {
        let status = match &execution.termination {
            Termination::Exited if outcome.exception.is_some() => "error",
            Termination::Exited => "ok",
            Termination::OutOfFuel | Termination::TimedOut => "time_limit",
            Termination::MemoryExhausted => "memory_limit",
            Termination::OutputExceeded => "output_limit",
            Termination::StackOverflow | Termination::Crashed(_) => "crashed",
        };
        let shown = self.options.observation_bytes;
        let (stdout, stdout_cut) = shown_text(&execution.stdout, shown);
        let (stderr, stderr_cut) = shown_text(&execution.stderr, shown);
        json!({
            "status": status,
            "stdout": stdout,
            "stderr": stderr,
            "stdout_truncated": stdout_cut,
            "stderr_truncated": stderr_cut,
            "value": outcome.value,
            "value_truncated": outcome.value_truncated,
            "exception": outcome.exception.as_ref().map(|e| json!({"type": e.kind, "message": e.message})),
            "restarted": restarted,
            "interpreter_lost": lost,
            "fuel": execution.fuel_used,
            "time_ms": (execution.wall_time.as_secs_f64() * 1e6).round() / 1e3,
            "calls_left": self.options.max_calls - self.calls,
        })
    }

    async fn answer(&mut self, answer: String) -> Result<Step, EnvironmentError> {
        let Some(check) = &self.options.answer_check else {
            let observation = json!({"answer": answer, "checked": false});
            return Ok(Step { observation, reward: 0.0, done: true });
        };
        let scorer = self.scorers.get(check.verifier.as_str()).cloned().ok_or_else(|| {
            EnvironmentError::Internal(format!("the scorer `{}` is no longer registered", check.verifier))
        })?;
        let mut input = check.input.clone();
        input.insert("response".to_owned(), Value::String(answer));
        let verdict = scorer.score_values(vec![Value::Object(input)], Budget::with_timeout(ANSWER_TIMEOUT)).await;
        let verdict = verdict.into_iter().next().ok_or_else(|| EnvironmentError::Internal("no verdict".into()))?;
        // The session's interpreter is no longer needed.
        self.session = None;
        self.outcome = Some(verdict.status);
        let observation = json!({
            "checked": true,
            "verifier": check.verifier,
            "status": verdict.status,
            "score": verdict.score,
            "details": verdict.details,
        });
        Ok(Step { observation, reward: verdict.score, done: true })
    }
}

/// At most `limit` bytes of an output as text (cut at a character boundary), and whether it was
/// cut.
fn shown_text(bytes: &[u8], limit: usize) -> (String, bool) {
    if bytes.len() <= limit {
        return (String::from_utf8_lossy(bytes).into_owned(), false);
    }
    (head_of(bytes, limit), true)
}

impl Episode for ToolEpisode {
    fn step(&mut self, action: Value) -> BoxFuture<'_, Result<Step, EnvironmentError>> {
        self.act(action).boxed()
    }

    fn state(&self) -> Value {
        json!({
            "calls": self.calls,
            "max_calls": self.options.max_calls,
            "fuel_spent": self.fuel_spent,
            "total_fuel": self.total_fuel,
            "interpreter_alive": self.session.is_some(),
            "interpreters_started": self.interpreters,
        })
    }

    fn outcome(&self) -> Option<Status> {
        self.outcome
    }
}
