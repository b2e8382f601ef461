//! `/v1/runs`: training runs, their per-prompt pass rates, sampling decisions for curricula and
//! their statistics.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use referee_core::Status;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::prompts::{PassRateDecay, PromptRate, SamplingDecision, SamplingPolicy, decide, rates};
use super::samples::RunSample;
use super::settings::SampleConfig;
use super::stats::{RunComparison, RunStats, compare_runs, run_stats};
use super::store::SampleFilter;
use super::{RunRecorder, RunSummary};
use crate::engine::MAX_TAG_BYTES;
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::integers::optional_integer;
use crate::http::json::ApiJson;
use crate::http::query::{Page, int64, invalid, limit, parsed};

/// Most candidate prompts one sampling request may name.
const MAX_CANDIDATES: usize = 100_000;
/// Most runs one comparison may name.
const MAX_COMPARED: usize = 1000;

/// The runs routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(get))
        .routes(routes!(prompts))
        .routes(routes!(sample))
        .routes(routes!(stats))
        .routes(routes!(samples))
        .routes(routes!(compare))
}

fn recorder(state: &AppState) -> Result<Arc<RunRecorder>, ApiError> {
    state.features.get::<Arc<RunRecorder>>().ok_or(ApiError::starting(state.limits.retry_after_secs))
}

fn storage_error(error: sqlx::Error) -> ApiError {
    ApiError::internal(format!("run storage: {error}"))
}

fn check_run(run: &str) -> Result<(), ApiError> {
    if run.is_empty() || run.len() > MAX_TAG_BYTES {
        return Err(ApiError::invalid("invalid_run", format!("a run name has 1 to {MAX_TAG_BYTES} bytes")));
    }
    Ok(())
}

fn unknown_run(run: &str) -> ApiError {
    ApiError::not_found("unknown_run", format!("no item of run `{run}` has been recorded"))
}

/// Runs, most recently updated first.
#[derive(Debug, Serialize, ToSchema)]
pub struct RunList {
    pub runs: Vec<RunSummary>,
    /// The `offset` of the next page; absent on the last.
    pub next_offset: Option<u64>,
}

/// Lists the runs items were recorded for, most recently updated first.
#[utoipa::path(get, path = "/v1/runs", operation_id = "list_runs", tag = "runs", params(Page), responses(
    (status = 200, description = "A page of runs.", body = RunList),
    (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
    (status = 422, description = "The query is invalid.", body = ErrorBody),
    (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
), security((), ("api_key" = [])))]
pub async fn list(
    State(state): State<AppState>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<axum::Json<RunList>, ApiError> {
    let page = parsed(page)?;
    let (rows, offset) = page.bounds()?;
    let runs = recorder(&state)?.store().list(rows, offset).await.map_err(storage_error)?;
    let (runs, next_offset) = page.cut(runs);
    Ok(axum::Json(RunList { runs, next_offset }))
}

/// Reads one run: its items and steps so far.
#[utoipa::path(get, path = "/v1/runs/{run}", operation_id = "get_run", tag = "runs",
    params(("run" = String, Path, description = "The run's name, as items gave it.")),
    responses(
        (status = 200, description = "The run.", body = RunSummary),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No item of this run has been recorded (code `unknown_run`).", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn get(State(state): State<AppState>, Path(run): Path<String>) -> Result<axum::Json<RunSummary>, ApiError> {
    check_run(&run)?;
    let summary = recorder(&state)?.store().get(&run).await.map_err(storage_error)?;
    summary.map(axum::Json).ok_or_else(|| unknown_run(&run))
}

/// How prompts are sorted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PromptSort {
    #[default]
    PromptId,
    PassRate,
    Attempts,
    LastStep,
}

/// Ascending or descending.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    #[default]
    Asc,
    Desc,
}

/// Which prompts, under which decay, in which order.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PromptQuery {
    /// Counts only the last this many steps of the run (a windowed pass rate).
    #[param(minimum = 1)]
    pub window: Option<u64>,
    /// Weighs a step `s` by `0.5^((S - s) / half_life)`, `S` the run's latest step (inside the
    /// window when `window` is given too).
    #[param(exclusive_minimum = 0.0)]
    pub half_life: Option<f64>,
    /// Keeps prompts with at least this many attempts (all recorded, whatever the decay).
    pub min_attempts: Option<u64>,
    /// Keeps prompts whose pass rate is at least this.
    pub min_pass_rate: Option<f64>,
    /// Keeps prompts whose pass rate is at most this.
    pub max_pass_rate: Option<f64>,
    /// `prompt_id` (default), `pass_rate`, `attempts` or `last_step`; ties by prompt id.
    #[param(inline)]
    pub sort: Option<PromptSort>,
    /// `asc` (default) or `desc`.
    #[param(inline)]
    pub order: Option<SortOrder>,
    /// Most prompts to return (1 to 1000, default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u64>,
    /// Prompts to skip.
    pub offset: Option<u64>,
}

impl PromptQuery {
    fn decay(&self) -> Result<PassRateDecay, ApiError> {
        let decay = match (int64("window", self.window)?, self.half_life) {
            (Some(steps), Some(half_life)) => PassRateDecay::WindowedExponential { steps, half_life },
            (Some(steps), None) => PassRateDecay::Window { steps },
            (None, Some(half_life)) => PassRateDecay::Exponential { half_life },
            (None, None) => PassRateDecay::None,
        };
        decay.validate().map_err(invalid)?;
        Ok(decay)
    }
}

/// A page of a run's prompts with their pass rates.
#[derive(Debug, Serialize, ToSchema)]
pub struct PromptList {
    pub run: String,
    /// The run's latest step, which the decay counts back from.
    pub latest_step: i64,
    /// Prompts that pass the filters (on every page).
    pub total: u64,
    pub prompts: Vec<PromptRate>,
    /// The `offset` of the next page; absent on the last.
    pub next_offset: Option<u64>,
}

/// Lists a run's prompts with their attempts, successes (`correct` verdicts) and pass rates.
/// Attempts are verdicts on a response: every status but `invalid_input` and `internal_error`.
#[utoipa::path(get, path = "/v1/runs/{run}/prompts", operation_id = "list_run_prompts", tag = "runs",
    params(("run" = String, Path, description = "The run's name."), PromptQuery),
    responses(
        (status = 200, description = "A page of prompts.", body = PromptList),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No item of this run has been recorded (code `unknown_run`).", body = ErrorBody),
        (status = 422, description = "The query is invalid.", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn prompts(
    State(state): State<AppState>,
    Path(run): Path<String>,
    params: Result<Query<PromptQuery>, QueryRejection>,
) -> Result<axum::Json<PromptList>, ApiError> {
    check_run(&run)?;
    let params = parsed(params)?;
    let decay = params.decay()?;
    int64("min_attempts", params.min_attempts)?;
    let limit = limit(params.limit)?;
    let recorder = recorder(&state)?;
    let summary = recorder.store().get(&run).await.map_err(storage_error)?.ok_or_else(|| unknown_run(&run))?;
    let steps = recorder.store().prompt_steps(&run).await.map_err(storage_error)?;
    let mut prompts: Vec<PromptRate> = rates(&steps, decay, summary.last_step)
        .into_iter()
        .filter(|p| params.min_attempts.is_none_or(|min| p.attempts >= min))
        .filter(|p| params.min_pass_rate.is_none_or(|min| p.pass_rate.is_some_and(|r| r >= min)))
        .filter(|p| params.max_pass_rate.is_none_or(|max| p.pass_rate.is_some_and(|r| r <= max)))
        .collect();
    // `rates` sorts by prompt id; a stable sort keeps that order among ties.
    match params.sort.unwrap_or_default() {
        PromptSort::PromptId => {}
        PromptSort::PassRate => prompts.sort_by(|a, b| {
            a.pass_rate.unwrap_or(f64::NEG_INFINITY).total_cmp(&b.pass_rate.unwrap_or(f64::NEG_INFINITY))
        }),
        PromptSort::Attempts => prompts.sort_by_key(|p| p.attempts),
        PromptSort::LastStep => prompts.sort_by_key(|p| p.last_step),
    }
    if params.order == Some(SortOrder::Desc) {
        prompts.reverse();
    }
    let total = prompts.len() as u64;
    let offset = int64("offset", params.offset)?.unwrap_or(0);
    let page: Vec<PromptRate> = prompts
        .into_iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
        .collect();
    let next_offset = (offset + (page.len() as u64) < total).then(|| offset + page.len() as u64);
    Ok(axum::Json(PromptList { run, latest_step: summary.last_step, total, prompts: page, next_offset }))
}

/// Candidate prompts and the policy to decide on them.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SampleRequest {
    /// The candidates (1 to 100000), answered in this order.
    #[schema(min_items = 1, max_items = 100_000)]
    pub prompt_ids: Vec<String>,
    pub policy: SamplingPolicy,
    /// How older steps count in the pass rates the policy reads (default: fully).
    #[serde(default)]
    pub decay: PassRateDecay,
}

/// The decision on every candidate.
#[derive(Debug, Serialize, ToSchema)]
pub struct SampleResponse {
    pub run: String,
    pub decisions: Vec<SamplingDecision>,
    /// For `difficulty` with a `count`: the prompts drawn, in draw order.
    pub sample: Option<Vec<String>>,
}

/// Decides which candidate prompts to train on under a named policy, from the run's pass rates:
/// `dapo` (drop prompts whose last group was all-correct or all-wrong), `band` (keep a pass-rate
/// band) or `difficulty` (weights `p (1 - p)`, optionally drawing a sample). Prompts the run has
/// not scored are kept (`dapo`, `band`) or get the prior's weight (`difficulty`).
#[utoipa::path(post, path = "/v1/runs/{run}/sample", operation_id = "sample_run_prompts", tag = "runs", request_body = SampleRequest,
    params(("run" = String, Path, description = "The run's name; a run with nothing recorded yet has every prompt unseen.")),
    responses(
        (status = 200, description = "One decision per candidate, in order.", body = SampleResponse),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is JSON but not a valid sampling request.", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn sample(
    State(state): State<AppState>,
    Path(run): Path<String>,
    ApiJson(request): ApiJson<SampleRequest>,
) -> Result<axum::Json<SampleResponse>, ApiError> {
    check_run(&run)?;
    if request.prompt_ids.is_empty() || request.prompt_ids.len() > MAX_CANDIDATES {
        return Err(ApiError::invalid_body(format!("`prompt_ids` must hold 1 to {MAX_CANDIDATES} prompt ids")));
    }
    request.policy.validate().map_err(ApiError::invalid_body)?;
    request.decay.validate().map_err(ApiError::invalid_body)?;
    let recorder = recorder(&state)?;
    let latest = recorder.store().get(&run).await.map_err(storage_error)?.map_or(0, |s| s.last_step);
    let steps = recorder.store().prompt_steps(&run).await.map_err(storage_error)?;
    let rates = rates(&steps, request.decay, latest);
    let by_id: HashMap<&str, &PromptRate> = rates.iter().map(|r| (r.prompt_id.as_str(), r)).collect();
    let (decisions, sample) = decide(&request.policy, &request.prompt_ids, &by_id);
    Ok(axum::Json(SampleResponse { run, decisions, sample }))
}

/// Which steps the statistics cover.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StepRange {
    /// The first step (default: the run's first).
    pub from_step: Option<u64>,
    /// The last step, inclusive (default: the run's latest). A range with no step (`from_step`
    /// after `to_step`) has no items.
    pub to_step: Option<u64>,
}

/// A run's statistics over a range of steps: per step and verifier the reward distribution
/// (mean, standard deviation, quantiles, histogram), the status mix with the rates of
/// `internal_error`, `timeout` and `unparseable`, the pass rate and latency; per step the groups'
/// pass@k and mean@k; and per verifier over the range, the mean and interquartile mean with
/// percentile-bootstrap 95% intervals.
#[utoipa::path(get, path = "/v1/runs/{run}/stats", operation_id = "run_stats", tag = "runs",
    params(("run" = String, Path, description = "The run's name."), StepRange),
    responses(
        (status = 200, description = "The statistics.", body = RunStats),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No item of this run has been recorded (code `unknown_run`).", body = ErrorBody),
        (status = 422, description = "The range is invalid, or is stored in more rows than `runs.max_stats_rows` (code `range_too_large`).", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn stats(
    State(state): State<AppState>,
    Path(run): Path<String>,
    range: Result<Query<StepRange>, QueryRejection>,
) -> Result<axum::Json<RunStats>, ApiError> {
    check_run(&run)?;
    let range = parsed(range)?;
    let recorder = recorder(&state)?;
    let summary = recorder.store().get(&run).await.map_err(storage_error)?.ok_or_else(|| unknown_run(&run))?;
    let (from_step, to_step) = (int64("from_step", range.from_step)?, int64("to_step", range.to_step)?);
    let (from, to) = (step_or(from_step, summary.first_step), step_or(to_step, summary.last_step));
    let count = recorder.store().count_rows(&run, from, to).await.map_err(storage_error)?;
    let cap = recorder.config().max_stats_rows;
    if u64::try_from(count).unwrap_or(0) > cap {
        return Err(ApiError::invalid(
            "range_too_large",
            format!(
                "steps {from} to {to} are stored in {count} rows, over the limit of {cap} (runs.max_stats_rows); \
                 narrow the range with from_step and to_step"
            ),
        ));
    }
    let rows = recorder.store().rows(&run, from, to).await.map_err(storage_error)?;
    let resamples = recorder.config().bootstrap_resamples;
    // The seed depends on the run only: the same items give the same intervals.
    let seed = seed_of([run.as_str()]);
    let stats = tokio::task::spawn_blocking(move || run_stats(&run, &rows, resamples, seed))
        .await
        .map_err(|error| ApiError::internal(format!("run statistics: {error}")))?;
    Ok(axum::Json(stats))
}

/// Which of a run's samples, and which page of them.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SampleQuery {
    /// Only this verifier's samples.
    pub verifier: Option<String>,
    /// Only samples with this status.
    pub status: Option<Status>,
    /// Only this prompt's samples.
    pub prompt_id: Option<String>,
    /// The first step (default: the run's first).
    pub from_step: Option<u64>,
    /// The last step, inclusive (default: the run's latest).
    pub to_step: Option<u64>,
    /// Most samples to return (1 to 1000, default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u64>,
    /// Samples to skip.
    pub offset: Option<u64>,
}

/// The text retention settings in force, as a sample list reports them.
#[derive(Debug, Serialize, ToSchema)]
pub struct SampleRetention {
    /// The share of recorded items kept with their text (`runs.samples.rate`); with it and
    /// `alarm_rate` at 0, nothing is kept.
    pub rate: f64,
    /// The share of items with an alarm status kept (`runs.samples.alarm_rate`).
    pub alarm_rate: f64,
    /// The cap on each kept text, in bytes.
    pub max_text_bytes: u64,
}

impl From<&SampleConfig> for SampleRetention {
    fn from(config: &SampleConfig) -> Self {
        SampleRetention {
            rate: config.rate,
            alarm_rate: config.alarm_rate,
            max_text_bytes: config.max_text_bytes as u64,
        }
    }
}

/// A page of a run's samples.
#[derive(Debug, Serialize, ToSchema)]
pub struct SampleList {
    pub run: String,
    /// This server's text retention settings.
    pub retention: SampleRetention,
    /// Samples that pass the filters (on every page).
    pub total: u64,
    pub samples: Vec<RunSample>,
    /// The `offset` of the next page; absent on the last.
    pub next_offset: Option<u64>,
}

/// Lists the items of a run kept with their text (`[runs.samples]`, off by default): the
/// response, the verifier's extracted answer and the verdict's details, with the item's tags,
/// status, score and latency; latest step first. Filter by verifier, status, prompt and steps.
#[utoipa::path(get, path = "/v1/runs/{run}/samples", operation_id = "list_run_samples", tag = "runs",
    params(("run" = String, Path, description = "The run's name."), SampleQuery),
    responses(
        (status = 200, description = "A page of samples.", body = SampleList),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No item of this run has been recorded (code `unknown_run`).", body = ErrorBody),
        (status = 422, description = "The query is invalid.", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn samples(
    State(state): State<AppState>,
    Path(run): Path<String>,
    query: Result<Query<SampleQuery>, QueryRejection>,
) -> Result<axum::Json<SampleList>, ApiError> {
    check_run(&run)?;
    let query = parsed(query)?;
    let page = Page { limit: query.limit, offset: query.offset };
    let (rows, offset) = page.bounds()?;
    let (from_step, to_step) = (int64("from_step", query.from_step)?, int64("to_step", query.to_step)?);
    let recorder = recorder(&state)?;
    if recorder.store().get(&run).await.map_err(storage_error)?.is_none() {
        return Err(unknown_run(&run));
    }
    let filter = SampleFilter {
        from: step_or(from_step, 0),
        to: step_or(to_step, i64::MAX),
        verifier: query.verifier,
        status: query.status,
        prompt_id: query.prompt_id,
    };
    let (samples, total) = recorder.store().samples(&run, &filter, rows, offset).await.map_err(storage_error)?;
    let (samples, next_offset) = page.cut(samples);
    let retention = SampleRetention::from(&recorder.config().samples);
    Ok(axum::Json(SampleList { run, retention, total, samples, next_offset }))
}

/// A step given in a query (checked by [`int64`]), or `default`.
fn step_or(step: Option<u64>, default: i64) -> i64 {
    step.map_or(default, |s| i64::try_from(s).unwrap_or(i64::MAX))
}

/// A bootstrap seed from run names (FNV-1a), so the same runs give the same intervals.
fn seed_of<'a>(runs: impl IntoIterator<Item = &'a str>) -> u64 {
    runs.into_iter()
        .flat_map(|run| run.bytes().chain([0]))
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Runs to compare, over which steps.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    /// The runs: 1 to 1000 names of recorded runs (a name given twice counts once).
    #[schema(min_items = 1, max_items = 1000)]
    pub runs: Vec<String>,
    /// The first step counted in every run (default: each run's first).
    #[serde(default, deserialize_with = "optional_integer")]
    #[schema(minimum = 0, value_type = Option<u64>)]
    pub from_step: Option<i64>,
    /// The last step counted in every run, inclusive (default: each run's latest).
    #[serde(default, deserialize_with = "optional_integer")]
    #[schema(minimum = 0, value_type = Option<u64>)]
    pub to_step: Option<i64>,
}

/// Compares runs (seeds or settings of one experiment): per run and verifier the items, mean
/// score and pass rate over the steps asked for; per verifier across the runs, the mean and the
/// interquartile mean of the runs' mean scores and their pass rate, with percentile-bootstrap
/// 95% intervals over runs (as `rliable` aggregates runs).
#[utoipa::path(post, path = "/v1/run-comparisons", operation_id = "compare_runs", tag = "runs", request_body = CompareRequest,
    responses(
        (status = 200, description = "Each run's totals and the aggregates across them.", body = RunComparison),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "A run has nothing recorded (code `unknown_run`, naming it).", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is JSON but not a valid comparison.", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn compare(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<CompareRequest>,
) -> Result<axum::Json<RunComparison>, ApiError> {
    if request.runs.is_empty() || request.runs.len() > MAX_COMPARED {
        return Err(ApiError::invalid_body(format!("`runs` must name 1 to {MAX_COMPARED} runs")));
    }
    let mut seen = std::collections::HashSet::new();
    let runs: Vec<&String> = request.runs.iter().filter(|run| seen.insert(run.as_str())).collect();
    let recorder = recorder(&state)?;
    let mut totals = Vec::with_capacity(runs.len());
    for run in runs.iter().copied() {
        let summary = recorder.store().get(run).await.map_err(storage_error)?.ok_or_else(|| unknown_run(run))?;
        let from = request.from_step.unwrap_or(summary.first_step);
        let to = request.to_step.unwrap_or(summary.last_step);
        totals.push((run.clone(), recorder.store().totals(run, from, to).await.map_err(storage_error)?));
    }
    let resamples = recorder.config().bootstrap_resamples;
    let seed = seed_of(runs.iter().map(|run| run.as_str()));
    let comparison = tokio::task::spawn_blocking(move || compare_runs(totals, resamples, seed))
        .await
        .map_err(|error| ApiError::internal(format!("run comparison: {error}")))?;
    Ok(axum::Json(comparison))
}
