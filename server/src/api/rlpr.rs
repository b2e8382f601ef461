//! `/v1/reward-models/rlpr`: RLPR's std filter, deciding which prompt groups a training run
//! keeps, with the moving average kept per run in the database.

use axum::extract::{Path, State};
use axum::http::StatusCode;

use super::AppState;
use super::error::{ApiError, ApiJson, ErrorBody};
use crate::rlpr::{FilterAnswer, FilterError, FilterRequest, RunStatus, RunStore, check_run};

fn runs(state: &AppState) -> Result<RunStore, ApiError> {
    state
        .engine
        .storage()
        .cloned()
        .map(RunStore::new)
        .ok_or(ApiError::Starting { retry_after_secs: state.limits.retry_after_secs })
}

fn filter_error(error: FilterError) -> ApiError {
    match error {
        FilterError::Invalid(message) => ApiError::InvalidBody(message),
        FilterError::Conflict(message) => ApiError::RunConflict(message),
        FilterError::Database(error) => ApiError::Internal(format!("rlpr storage: {error}")),
    }
}

/// Decides one training step's groups: each group's reward std (N − 1) and whether it reaches
/// β times the run's moving average. The run's first step fixes its settings; its state is
/// kept in the database, and a retried step (same `step`) gets the same answer.
#[utoipa::path(post, path = "/v1/reward-models/rlpr/filter", tag = "rlpr", request_body = FilterRequest,
    responses(
        (status = 200, description = "The step's decisions and the run's moving average.", body = FilterAnswer),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 409, description = "The step is not the run's next or last, or the settings differ from the run's.", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is invalid (run name, settings, a reward that is not finite).", body = ErrorBody),
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
    check_run(&run).map_err(ApiError::InvalidBody)?;
    let status = runs(&state)?.status(&run).await.map_err(|e| filter_error(e.into()))?;
    status.map(axum::Json).ok_or(ApiError::UnknownRun(run))
}

/// Forgets a training run's filter state, so its next step starts over.
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
    check_run(&run).map_err(ApiError::InvalidBody)?;
    if runs(&state)?.delete(&run).await.map_err(|e| filter_error(e.into()))? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::UnknownRun(run))
    }
}
