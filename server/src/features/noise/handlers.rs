//! `/v1/noise`: read and set per-verifier noise models, upload audits, inspect overturned
//! appeals; and `/v1/groups/advantages`, group-normalised advantages for GRPO-style trainers.

use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use referee_noise::{AdvantageRequest, AdvantageResponse, NoiseError, RewardBasis, group_advantages};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::features::noise::{
    AuditUpload, NoiseKey, NoiseLayer, NoiseList, NoiseSettings, NoiseSettingsError, NoiseStatus, OverturnList,
};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::json::ApiJson;

/// Longest label accepted, in bytes.
const MAX_LABEL_BYTES: usize = 256;
/// Most overturns one request may list.
const MAX_OVERTURNS: u64 = 1000;

/// Which of a verifier's noise models.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelQuery {
    /// The task/source label (at most 256 bytes); the verifier-wide model when absent.
    pub label: Option<String>,
}

/// Which overturns to list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverturnQuery {
    /// The task/source label (at most 256 bytes); the verifier-wide model when absent.
    pub label: Option<String>,
    /// Most overturns to list, newest first (1 to 1000, default 100).
    pub limit: Option<u64>,
}

fn layer(state: &AppState) -> Result<Arc<NoiseLayer>, ApiError> {
    state.features.get::<Arc<NoiseLayer>>().ok_or(ApiError::starting(state.limits.retry_after_secs))
}

fn key(state: &AppState, verifier: &str, label: Option<&str>) -> Result<NoiseKey, ApiError> {
    if label.is_some_and(|l| l.len() > MAX_LABEL_BYTES) {
        return Err(ApiError::invalid_body(format!("`label` is longer than {MAX_LABEL_BYTES} bytes")));
    }
    layer(state)?.key(verifier, label).ok_or_else(|| ApiError::unknown_verifier(verifier.to_owned()))
}

fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query.map(|Query(q)| q).map_err(|rejection| ApiError::invalid_body(rejection.body_text()))
}

fn storage_error(error: sqlx::Error) -> ApiError {
    ApiError::internal(format!("noise storage: {error}"))
}

fn settings_error(error: NoiseSettingsError) -> ApiError {
    match error {
        NoiseSettingsError::Invalid(message) => invalid_noise(message),
        NoiseSettingsError::Storage(error) => storage_error(error),
    }
}

/// The noise routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(get, put, delete))
        .routes(routes!(audit))
        .routes(routes!(step))
        .routes(routes!(appeals))
        .routes(routes!(advantages))
}

/// Lists the noise models of every verifier.
#[utoipa::path(get, path = "/v1/noise", tag = "noise", responses(
    (status = 200, description = "Every noise model with settings or counts, by verifier and label.", body = NoiseList),
    (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
    (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
), security((), ("api_key" = [])))]
pub async fn list(State(state): State<AppState>) -> Result<axum::Json<NoiseList>, ApiError> {
    Ok(axum::Json(layer(&state)?.list()))
}

/// Reads one noise model: the rates in use, each source's model and the counts behind them.
#[utoipa::path(get, path = "/v1/noise/{verifier}", tag = "noise",
    params(("verifier" = String, Path, description = "The verifier id."), ("label" = Option<String>, Query, max_length = 256, description = "The task/source label; the verifier-wide model when absent.")),
    responses(
        (status = 200, description = "The noise model (empty when nothing was set or counted).", body = NoiseStatus),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 422, description = "The query is invalid.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn get(
    State(state): State<AppState>,
    Path(verifier): Path<String>,
    label: Result<Query<LabelQuery>, QueryRejection>,
) -> Result<axum::Json<NoiseStatus>, ApiError> {
    let label = query(label)?;
    let key = key(&state, &verifier, label.label.as_deref())?;
    Ok(axum::Json(layer(&state)?.status(&key)))
}

/// Sets a noise model's configured rates, appeal checker and rates, and the source in use.
/// The body replaces what was set before; counts from audits and appeals are kept.
#[utoipa::path(put, path = "/v1/noise/{verifier}", tag = "noise", request_body = NoiseSettings,
    params(("verifier" = String, Path, description = "The verifier id."), ("label" = Option<String>, Query, max_length = 256, description = "The task/source label; the verifier-wide model when absent.")),
    responses(
        (status = 200, description = "The noise model with the new settings.", body = NoiseStatus),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The settings are invalid (a rate outside [0, 1], an unknown checker).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn put(
    State(state): State<AppState>,
    Path(verifier): Path<String>,
    label: Result<Query<LabelQuery>, QueryRejection>,
    ApiJson(settings): ApiJson<NoiseSettings>,
) -> Result<axum::Json<NoiseStatus>, ApiError> {
    let label = query(label)?;
    let key = key(&state, &verifier, label.label.as_deref())?;
    let status = layer(&state)?.put_settings(&key, settings).await.map_err(settings_error)?;
    Ok(axum::Json(status))
}

/// Forgets a noise model: its settings, its audit and appeal counts, and its overturns.
#[utoipa::path(delete, path = "/v1/noise/{verifier}", tag = "noise",
    params(("verifier" = String, Path, description = "The verifier id."), ("label" = Option<String>, Query, max_length = 256, description = "The task/source label; the verifier-wide model when absent.")),
    responses(
        (status = 204, description = "Forgotten (or there was nothing to forget)."),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 422, description = "The query is invalid.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn delete(
    State(state): State<AppState>,
    Path(verifier): Path<String>,
    label: Result<Query<LabelQuery>, QueryRejection>,
) -> Result<StatusCode, ApiError> {
    let label = query(label)?;
    let key = key(&state, &verifier, label.label.as_deref())?;
    layer(&state)?.delete(&key).await.map_err(storage_error)?;
    Ok(StatusCode::NO_CONTENT)
}

/// Adds gold-labelled verdicts to a noise model's audit, and returns the model they give.
#[utoipa::path(post, path = "/v1/noise/{verifier}/audits", tag = "noise", request_body = AuditUpload,
    params(("verifier" = String, Path, description = "The verifier id."), ("label" = Option<String>, Query, max_length = 256, description = "The task/source label; the verifier-wide model when absent.")),
    responses(
        (status = 200, description = "The noise model with the audit counted.", body = NoiseStatus),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 413, description = "The body is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is not an audit, or it is empty.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn audit(
    State(state): State<AppState>,
    Path(verifier): Path<String>,
    label: Result<Query<LabelQuery>, QueryRejection>,
    ApiJson(upload): ApiJson<AuditUpload>,
) -> Result<axum::Json<NoiseStatus>, ApiError> {
    let label = query(label)?;
    let key = key(&state, &verifier, label.label.as_deref())?;
    let status = layer(&state)?.audit(&key, &upload).await.map_err(settings_error)?;
    Ok(axum::Json(status))
}

/// The trainer's current step: the body of `PUT /v1/noise/{verifier}/step`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StepUpdate {
    /// The step now under way (e.g. verl's `global_steps`). New counts go to its bucket, and
    /// windows count back from it. Steps only move forward: a smaller value changes nothing.
    #[schema(maximum = 9_007_199_254_740_991_u64)]
    #[serde(deserialize_with = "crate::http::integers::integer")]
    pub step: u64,
}

/// Sets a noise model's current training step, which count windows (`window` in the settings)
/// count back from. Idempotent: the step only moves forward, so a retried call is harmless.
#[utoipa::path(put, path = "/v1/noise/{verifier}/step", tag = "noise", request_body = StepUpdate,
    params(("verifier" = String, Path, description = "The verifier id."), ("label" = Option<String>, Query, max_length = 256, description = "The task/source label; the verifier-wide model when absent.")),
    responses(
        (status = 200, description = "The noise model at its current step.", body = NoiseStatus),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is not a step.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn step(
    State(state): State<AppState>,
    Path(verifier): Path<String>,
    label: Result<Query<LabelQuery>, QueryRejection>,
    ApiJson(update): ApiJson<StepUpdate>,
) -> Result<axum::Json<NoiseStatus>, ApiError> {
    let label = query(label)?;
    let key = key(&state, &verifier, label.label.as_deref())?;
    // Steps are stored as signed 64-bit integers; JSON readers lose integers past 2^53.
    const MAX_STEP: u64 = (1 << 53) - 1;
    if update.step > MAX_STEP {
        return Err(ApiError::invalid_body(format!("`step` must be at most {MAX_STEP}, got {}", update.step)));
    }
    let status = layer(&state)?.advance_step(&key, update.step).await.map_err(storage_error)?;
    Ok(axum::Json(status))
}

/// Lists the verdicts that appeals overturned, newest first, with both verdicts and the input.
#[utoipa::path(get, path = "/v1/noise/{verifier}/appeals", tag = "noise",
    params(
        ("verifier" = String, Path, description = "The verifier id."),
        ("label" = Option<String>, Query, max_length = 256, description = "The task/source label; the verifier-wide model when absent."),
        ("limit" = Option<u64>, Query, minimum = 1, maximum = 1000, description = "Most overturns to list, newest first (default 100)."),
    ),
    responses(
        (status = 200, description = "Recent overturns.", body = OverturnList),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 422, description = "The query is invalid.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn appeals(
    State(state): State<AppState>,
    Path(verifier): Path<String>,
    options: Result<Query<OverturnQuery>, QueryRejection>,
) -> Result<axum::Json<OverturnList>, ApiError> {
    let options = query(options)?;
    let limit = options.limit.unwrap_or(100);
    if !(1..=MAX_OVERTURNS).contains(&limit) {
        return Err(ApiError::invalid_body(format!("`limit` must be from 1 to {MAX_OVERTURNS}, got {limit}")));
    }
    let key = key(&state, &verifier, options.label.as_deref())?;
    let limit = u32::try_from(limit).unwrap_or(u32::MAX);
    Ok(axum::Json(layer(&state)?.overturns(&key, limit).await.map_err(storage_error)?))
}

/// Rewards grouped by prompt in, group-normalised advantages out: GRPO's (mean and std) or Dr.
/// GRPO's (mean only), from raw rewards or from their corrections under a verifier's noise
/// model, with each group's std and DAPO's keep/drop decision.
#[utoipa::path(post, path = "/v1/groups/advantages", tag = "noise", request_body = AdvantageRequest,
    responses(
        (status = 200, description = "One entry per group, in request order.", body = AdvantageResponse),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has the id given in `verifier`.", body = ErrorBody),
        (status = 409, description = "The verifier has no noise model, or it is too uncertain to correct with.", body = ErrorBody),
        (status = 413, description = "The body or the number of rewards is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is invalid (an empty group, a reward not 0 or 1 for a correction).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn advantages(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AdvantageRequest>,
) -> Result<axum::Json<AdvantageResponse>, ApiError> {
    let rewards: usize = request.groups.iter().map(|g| g.rewards.len()).sum();
    if rewards > state.limits.max_batch_items {
        return Err(ApiError::too_many_items(rewards, state.limits.max_batch_items));
    }
    let layer = layer(&state)?;
    let model = match (&request.verifier, request.reward) {
        (None, RewardBasis::Raw) => None,
        (None, RewardBasis::Backward | RewardBasis::ForwardWeight) => {
            return Err(ApiError::invalid_body("corrected rewards need `verifier`, whose noise model corrects them"));
        }
        (Some(verifier), _) => {
            let key = key(&state, verifier, request.label.as_deref())?;
            let model = layer.model_for(&key.verifier, request.label.as_deref());
            if model.is_none() && request.reward != RewardBasis::Raw {
                return Err(no_noise_model(format!(
                    "`{verifier}` has no noise model{}; PUT /v1/noise/{verifier} sets one",
                    request.label.as_deref().map(|l| format!(" for label {l:?}")).unwrap_or_default()
                )));
            }
            model
        }
    };
    match group_advantages(&request, model.as_ref(), layer.policy()) {
        Ok(response) => Ok(axum::Json(response)),
        Err(NoiseError::Refused { reason }) => Err(correction_refused(format!("correction refused: {reason}"))),
        Err(error) => Err(ApiError::invalid_body(error.to_string())),
    }
}

fn invalid_noise(message: String) -> ApiError {
    ApiError::invalid("invalid_noise", message)
}

fn no_noise_model(message: String) -> ApiError {
    ApiError::conflict("no_noise_model", message)
}

fn correction_refused(message: String) -> ApiError {
    ApiError::conflict("correction_refused", message)
}
