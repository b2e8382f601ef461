//! `/v1/reward-models/rlpr`: RLPR's std filter, deciding which prompt groups a training run
//! keeps, with the moving average kept per run in the database; and reloading the model that
//! scores `rlpr` items.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::features::rlpr::{
    FilterAnswer, FilterError, FilterRequest, LoadedSource, ReloadRequest, RunStatus, RunStore, check_run,
};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::json::ApiJson;
use referee_rlpr::{PrepareItem, PreparedItem, ReloadError, Reloaded};

fn runs(state: &AppState) -> Result<RunStore, ApiError> {
    state.engine.storage().cloned().map(RunStore::new).ok_or(ApiError::starting(state.limits.retry_after_secs))
}

fn filter_error(error: FilterError) -> ApiError {
    match error {
        FilterError::Invalid(message) => ApiError::invalid_body(message),
        FilterError::Conflict(message) => run_conflict(message),
        FilterError::Database(error) => ApiError::internal(format!("rlpr storage: {error}")),
    }
}

/// The RLPR routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(filter))
        .routes(routes!(run_status, delete_run))
        .routes(routes!(reload))
        .routes(routes!(prepare))
}

/// Decides one generation round of a training step: each group's reward std (N − 1) and whether
/// it reaches β times the run's moving average, fixed for every round of the step. A step closes
/// at a round with `close` (the default) or at round 1 of the next step, and its mean std over
/// all its rounds then moves the average once. The run's first step fixes its settings; its
/// state is kept in the database. A retried round (same `step`, `round` and body) gets the
/// stored answer; another body for an answered round is a 409.
#[utoipa::path(post, path = "/v1/reward-models/rlpr/filter", tag = "rlpr", request_body = FilterRequest,
    responses(
        (status = 200, description = "The step's decisions and the run's moving average.", body = FilterAnswer),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 409, description = "`run_conflict`: the step and round are neither the open step's next round, round 1 of the next step, nor a retry of the last answered round with the same body; or the settings differ from the run's.", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is invalid (run name, settings, a step or round of 0, a reward that is not finite).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn filter(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<FilterRequest>,
) -> Result<axum::Json<FilterAnswer>, ApiError> {
    Ok(axum::Json(runs(&state)?.decide(&request).await.map_err(filter_error)?))
}

/// Reads a training run's filter settings and state.
#[utoipa::path(get, path = "/v1/reward-models/rlpr/runs/{run}", tag = "rlpr",
    params(("run" = String, Path, max_length = 256, description = "The training run.")),
    responses(
        (status = 200, description = "The run's settings and state.", body = RunStatus),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No run has this name.", body = ErrorBody),
        (status = 422, description = "The run name is longer than 256 bytes.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn run_status(
    State(state): State<AppState>,
    Path(run): Path<String>,
) -> Result<axum::Json<RunStatus>, ApiError> {
    check_run(&run).map_err(ApiError::invalid_body)?;
    let status = runs(&state)?.status(&run).await.map_err(|e| filter_error(e.into()))?;
    status.map(axum::Json).ok_or(unknown_run(run))
}

/// Forgets a training run: its filter state, so its next step starts over, and the no-reasoning
/// baselines stored for it, so a run started again under the name scores its own.
#[utoipa::path(delete, path = "/v1/reward-models/rlpr/runs/{run}", tag = "rlpr",
    params(("run" = String, Path, max_length = 256, description = "The training run.")),
    responses(
        (status = 204, description = "Forgotten."),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No run has this name.", body = ErrorBody),
        (status = 422, description = "The run name is longer than 256 bytes.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn delete_run(State(state): State<AppState>, Path(run): Path<String>) -> Result<StatusCode, ApiError> {
    check_run(&run).map_err(ApiError::invalid_body)?;
    if runs(&state)?.delete(&run).await.map_err(|e| filter_error(e.into()))? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(unknown_run(run))
    }
}

/// Swaps in another checkpoint of the local model that scores `rlpr` items without dropping
/// queued requests, so a trainer can sync the policy's weights. Requests already running finish
/// on the previous checkpoint; baseline scores cached under it are not reused.
#[utoipa::path(post, path = "/v1/reward-models/rlpr/reload", tag = "rlpr", request_body = ReloadRequest,
    responses(
        (status = 200, description = "The new checkpoint is in use.", body = Reloaded),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 409, description = "`not_reloadable`: the configured source cannot be reloaded (a remote server, or no model).", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is invalid, or `model_dir` holds no usable checkpoint.", body = ErrorBody),
        (status = 500, description = "Loading failed; the previous checkpoint stays in use.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn reload(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ReloadRequest>,
) -> Result<axum::Json<Reloaded>, ApiError> {
    let Some(LoadedSource(source)) = state.features.get::<LoadedSource>() else {
        return Err(not_reloadable(
            "no model scores `rlpr` items on this server (rlpr.source is \"none\"), so there is nothing to reload"
                .to_owned(),
        ));
    };
    match source.reload(request.model_dir.map(Into::into)).await {
        Ok(reloaded) => Ok(axum::Json(reloaded)),
        Err(ReloadError::NotSupported(message)) => Err(not_reloadable(message)),
        Err(ReloadError::Invalid(message)) => Err(ApiError::invalid_body(message)),
        Err(ReloadError::Failed(message)) => Err(ApiError::internal(format!("rlpr reload: {message}"))),
    }
}

/// The body of `POST /v1/reward-models/rlpr/prepare`.
#[derive(Debug, Clone, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PrepareRequest {
    /// The rollouts, at most `server.max_batch_items`.
    pub items: Vec<PrepareItem>,
}

/// The answer of `POST /v1/reward-models/rlpr/prepare`: one entry per item, in order.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PrepareAnswer {
    pub items: Vec<PreparedItem>,
}

/// The two-phase mode's first phase: the token ids of each rollout's substituted sequence and
/// of its no-reasoning baseline, with the positions of the reference-answer tokens, under the
/// local model's tokenizer and chat template. A trainer runs its own forward pass over them and
/// sends the log-probs at those positions to `/v1/score` (`rlpr`, `logprobs` and
/// `baseline_logprobs`). A bad item is that item's `invalid_input`.
#[utoipa::path(post, path = "/v1/reward-models/rlpr/prepare", tag = "rlpr", request_body = PrepareRequest,
    responses(
        (status = 200, description = "One prepared entry per item, in order.", body = PrepareAnswer),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 409, description = "`not_tokenizing`: no local model is configured (`rlpr.source` is not \"local\"), so there is no tokenizer to prepare with.", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is invalid, or has more items than `server.max_batch_items`.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn prepare(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PrepareRequest>,
) -> Result<axum::Json<PrepareAnswer>, ApiError> {
    let Some(LoadedSource(source)) = state.features.get::<LoadedSource>().filter(|s| s.0.name() == "local") else {
        return Err(not_tokenizing(
            "preparing needs the local model's tokenizer: set rlpr.source = \"local\" and rlpr.model_dir".to_owned(),
        ));
    };
    if request.items.len() > state.limits.max_batch_items {
        return Err(ApiError::invalid_body(format!(
            "{} items is more than the limit of {} (server.max_batch_items)",
            request.items.len(),
            state.limits.max_batch_items
        )));
    }
    let items = referee_rlpr::prepare(source.as_ref(), &request.items).await;
    Ok(axum::Json(PrepareAnswer { items }))
}

fn unknown_run(run: impl std::fmt::Display) -> ApiError {
    ApiError::not_found("unknown_run", format!("no training run `{run}` has filter state"))
}

fn run_conflict(message: String) -> ApiError {
    ApiError::conflict("run_conflict", message)
}

fn not_reloadable(message: impl Into<String>) -> ApiError {
    ApiError::conflict("not_reloadable", message)
}

fn not_tokenizing(message: impl Into<String>) -> ApiError {
    ApiError::conflict("not_tokenizing", message)
}
