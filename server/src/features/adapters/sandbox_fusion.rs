//! SandboxFusion's `POST /run_code`, which verl's code rewards and sandbox tools and the
//! `sandbox-fusion` client call: one program run once in the `code` verifier's sandbox, answered
//! in SandboxFusion's response shape, so those callers point at Referee unchanged.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use axum::extract::State;
use referee_code::{Execution, Language, Limits, SingleRun, SingleRunError, Termination};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::json::ApiJson;

/// SandboxFusion's language ids. The ones Referee runs are `python`, `cpp`, `nodejs`, `rust` and `go`; the others are
/// answered with `status: "SandboxError"`, as SandboxFusion answers a language it has no runner
/// for, and any other id is refused with 422, as SandboxFusion refuses it.
const SANDBOX_FUSION_LANGUAGES: &[&str] = &[
    "python",
    "cpp",
    "nodejs",
    "go",
    "go_test",
    "java",
    "php",
    "csharp",
    "bash",
    "typescript",
    "sql",
    "rust",
    "cuda",
    "lua",
    "R",
    "perl",
    "D_ut",
    "ruby",
    "scala",
    "julia",
    "pytest",
    "junit",
    "kotlin_script",
    "jest",
    "verilog",
    "python_gpu",
    "lean",
    "swift",
    "racket",
    "python2",
    "gtest",
    "react",
];

/// Fuel per second of `run_timeout`: about one second of guest CPU on a current x86 core.
const FUEL_PER_SECOND: f64 = 1e10;

/// The longest `run_timeout` honoured, in seconds.
const MAX_RUN_TIMEOUT: f64 = 60.0;

/// Memory of a run when `memory_limit_MB` is not positive, in MiB.
const DEFAULT_MEMORY_MB: i64 = 1024;

/// Standard output or error of a run, at most (as SandboxFusion reads at most 1 MiB of each).
const OUTPUT_BYTES: usize = 1 << 20;

/// A program to run once, as SandboxFusion's `RunCodeRequest` has it. Unknown fields are ignored.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RunCodeRequest {
    /// The program.
    pub code: String,
    /// `python` or `cpp` (C++17 compiled to `wasm32-wasi`); `python` when absent.
    #[serde(default = "python")]
    pub language: String,
    /// Standard input.
    #[serde(default)]
    pub stdin: Option<String>,
    /// Seconds; accepted for compatibility (compilation has the server's own limits).
    #[serde(default = "ten")]
    pub compile_timeout: f64,
    /// Seconds of CPU the program may use (as deterministic fuel, 10^10 per second), at most 60;
    /// twice this plus a second is the wall-clock backstop. Default 10.
    #[serde(default = "ten")]
    pub run_timeout: f64,
    /// Memory cap in MiB, 32 to 2048; 1024 when not positive.
    #[serde(default = "no_limit", rename = "memory_limit_MB")]
    pub memory_limit_mb: i64,
    /// Files to create before the run (path to base64); only empty or null contents are accepted:
    /// programs run without a filesystem.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub files: HashMap<String, Option<String>>,
    /// Files to return after the run; must be empty.
    #[serde(default)]
    pub fetch_files: Vec<String>,
}

fn python() -> String {
    "python".to_owned()
}
fn ten() -> f64 {
    10.0
}
fn no_limit() -> i64 {
    -1
}

/// How one command (compilation, or the run) ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct CommandRunResult {
    /// `Finished`, `Error` (the sandbox failed) or `TimeLimitExceeded`.
    pub status: &'static str,
    /// Seconds.
    pub execution_time: Option<f64>,
    /// The exit status; absent after `TimeLimitExceeded`.
    pub return_code: Option<i32>,
    pub stdout: Option<String>,
    pub stderr: Option<String>,
}

/// SandboxFusion's `RunCodeResponse`.
#[derive(Debug, Serialize, ToSchema)]
pub struct RunCodeResponse {
    /// `Success` (every command exited with 0), `Failed` (a non-zero exit or a time limit) or
    /// `SandboxError` (the run could not be made: the sandbox failed, or the language or a
    /// feature is not supported here).
    pub status: &'static str,
    /// Why, for `SandboxError`; empty otherwise.
    pub message: String,
    /// C++ only: the compilation.
    pub compile_result: Option<CommandRunResult>,
    /// The run; absent when compilation failed.
    pub run_result: Option<CommandRunResult>,
    pub executor_pod_name: Option<String>,
    /// Always empty: programs run without a filesystem.
    pub files: BTreeMap<String, String>,
}

impl RunCodeResponse {
    fn sandbox_error(message: impl Into<String>) -> Self {
        RunCodeResponse {
            status: "SandboxError",
            message: message.into(),
            compile_result: None,
            run_result: None,
            executor_pod_name: None,
            files: BTreeMap::new(),
        }
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The run's command result: SandboxFusion reports a program that died (a Python `MemoryError`,
/// a crash) as finished with a non-zero status, and one past its time as `TimeLimitExceeded`.
fn run_result(execution: &Execution) -> CommandRunResult {
    let mut stderr = text(&execution.stderr);
    let note = |stderr: &mut String, note: &str| {
        if !stderr.is_empty() && !stderr.ends_with('\n') {
            stderr.push('\n');
        }
        stderr.push_str(note);
    };
    let (status, return_code) = match &execution.termination {
        Termination::Exited => ("Finished", Some(execution.exit_code)),
        Termination::OutOfFuel | Termination::TimedOut => ("TimeLimitExceeded", None),
        Termination::MemoryExhausted => {
            note(&mut stderr, "MemoryError: the memory limit was reached\n");
            ("Finished", Some(1))
        }
        Termination::OutputExceeded => {
            note(&mut stderr, "the output limit (1 MiB per stream) was reached\n");
            ("Finished", Some(1))
        }
        Termination::StackOverflow => {
            note(&mut stderr, "the program overflowed its stack\n");
            ("Finished", Some(1))
        }
        Termination::Crashed(trap) => {
            note(&mut stderr, &format!("the program crashed: {trap}\n"));
            ("Finished", Some(1))
        }
    };
    CommandRunResult {
        status,
        execution_time: Some(execution.wall_time.as_secs_f64()),
        return_code,
        stdout: Some(text(&execution.stdout)),
        stderr: Some(stderr),
    }
}

/// `Success` when every command finished with 0, else `Failed`.
fn overall(results: &[&CommandRunResult]) -> &'static str {
    if results.iter().all(|r| r.status == "Finished" && r.return_code == Some(0)) { "Success" } else { "Failed" }
}

/// Runs a program once in the sandbox and answers as SandboxFusion does: the compile and run
/// results, `Success` or `Failed`, or `SandboxError` when the run could not be made.
#[utoipa::path(post, path = "/run_code", tag = "scoring", request_body = RunCodeRequest,
    responses(
        (status = 200, description = "The run's results in SandboxFusion's shape, also for a failed or unsupported run (`status`).", body = RunCodeResponse),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 413, description = "The body is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "Not a run request: a field of the wrong type, a language id SandboxFusion does not know, a `run_timeout` that is not positive.", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn run_code(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<RunCodeRequest>,
) -> Result<axum::Json<RunCodeResponse>, ApiError> {
    if !SANDBOX_FUSION_LANGUAGES.contains(&request.language.as_str()) {
        return Err(ApiError::invalid(
            "unknown_language",
            format!(
                "`{}` is not a SandboxFusion language id; Referee runs `python`, `cpp`, `nodejs`, `rust` and `go`",
                request.language
            ),
        ));
    }
    if !(request.run_timeout.is_finite() && request.run_timeout > 0.0) {
        return Err(ApiError::invalid("invalid_timeout", "`run_timeout` must be a positive number of seconds"));
    }
    let language = match request.language.as_str() {
        "python" => Language::Python,
        "cpp" => Language::Cpp,
        "nodejs" => Language::Javascript,
        "rust" => Language::Rust,
        "go" => Language::Go,
        other => {
            return Ok(axum::Json(RunCodeResponse::sandbox_error(format!(
                "language `{other}` is not supported by this server; it runs `python`, `cpp`, `nodejs`, `rust` and `go`"
            ))));
        }
    };
    if request.files.values().any(Option::is_some) || !request.fetch_files.is_empty() {
        return Ok(axum::Json(RunCodeResponse::sandbox_error(
            "programs run without a filesystem here: `files` with contents and `fetch_files` are not supported",
        )));
    }
    let Some(code) = state.engine.registry().code().cloned() else {
        return Ok(axum::Json(RunCodeResponse::sandbox_error("this server has no code sandbox")));
    };
    let seconds = request.run_timeout.min(MAX_RUN_TIMEOUT);
    let memory_mb =
        if request.memory_limit_mb > 0 { request.memory_limit_mb.clamp(32, 2048) } else { DEFAULT_MEMORY_MB };
    let limits = Limits {
        fuel: (seconds * FUEL_PER_SECOND) as u64,
        wall_time: Duration::from_secs_f64(2.0 * seconds + 1.0),
        memory_bytes: usize::try_from(memory_mb << 20).unwrap_or(usize::MAX),
        stdout_bytes: OUTPUT_BYTES,
        stderr_bytes: OUTPUT_BYTES,
    };
    let stdin = request.stdin.unwrap_or_default().into_bytes();
    let response = match code.run_once(language, request.code, stdin, limits).await {
        Err(
            SingleRunError::Unavailable(message) | SingleRunError::Sandbox(message) | SingleRunError::Refused(message),
        ) => RunCodeResponse::sandbox_error(message),
        Ok(SingleRun::CompileError { diagnostics, compile_time }) => {
            let compile = CommandRunResult {
                status: "Finished",
                execution_time: Some(compile_time.as_secs_f64()),
                return_code: Some(1),
                stdout: Some(String::new()),
                stderr: Some(diagnostics),
            };
            RunCodeResponse { status: "Failed", compile_result: Some(compile), ..RunCodeResponse::sandbox_error("") }
        }
        Ok(SingleRun::Ran { compile_time, execution }) => {
            let compile = compile_time.map(|time| CommandRunResult {
                status: "Finished",
                execution_time: Some(time.as_secs_f64()),
                return_code: Some(0),
                stdout: Some(String::new()),
                stderr: Some(String::new()),
            });
            let run = run_result(&execution);
            let status = overall(&compile.iter().chain([&run]).collect::<Vec<_>>());
            RunCodeResponse {
                status,
                compile_result: compile,
                run_result: Some(run),
                ..RunCodeResponse::sandbox_error("")
            }
        }
    };
    Ok(axum::Json(response))
}
