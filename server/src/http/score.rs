//! `POST /v1/score` and `POST /v1/verifiers/{id}/score`.

use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use referee_core::{Budget, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::integers::optional_integer;
use super::json::{Batch, BatchJson, CheckedItem, duplicate_key_reason};
use super::{AppState, Limits};
use crate::engine::{Correction, ItemShape, MAX_TAG_BYTES, ScoreResult, apply_run_defaults};

/// One item of `POST /v1/score`: which verifier judges it and that verifier's input. The
/// document lists one variant per registered verifier, discriminated by `verifier`.
#[derive(Debug, ToSchema)]
#[expect(dead_code, reason = "documents the wire shape; the engine reads items one by one to isolate bad ones")]
pub struct ScoreItem {
    /// Echoed in the result, to match results with items.
    pub id: Option<String>,
    /// The verifier id, as listed by `GET /v1/verifiers`.
    pub verifier: String,
    /// The verifier's input.
    #[schema(value_type = Object)]
    pub input: Value,
    /// A task or data-source label that selects a noise model (`PUT /v1/noise/{verifier}`);
    /// the verifier-wide model applies when the label has none.
    pub label: Option<String>,
}

/// A batch of items to score. Items may mix verifiers; each verifier receives its items as one
/// batch. A malformed item, or one naming an unknown verifier, gets its own `invalid_input`
/// result: it never fails the batch.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    /// The items, answered in the same order.
    #[schema(value_type = Vec<ScoreItem>)]
    pub items: Vec<CheckedItem>,
    /// This request's time budget in milliseconds (1 ms to 1 hour), capped by the server's own.
    /// Items not judged in time get `timeout`.
    #[serde(default, deserialize_with = "timeout_ms")]
    #[schema(minimum = 1, maximum = 3_600_000)]
    pub timeout_ms: Option<u64>,
    /// `backward` replaces each binary verdict's score with its backward-corrected reward
    /// where the verifier has a noise model that allows it. Either way, such verdicts carry
    /// the corrections in `details.reward`.
    #[serde(default)]
    pub correction: Correction,
    /// The run of every item that names none (1 to 256 bytes).
    #[schema(min_length = 1, max_length = 256)]
    pub run: Option<String>,
    /// The step of every item of a run (its own or the request's) that names none.
    #[serde(default, deserialize_with = "step")]
    #[schema(minimum = 0, maximum = 9_007_199_254_740_992_u64)]
    pub step: Option<u64>,
}

/// Checks a request's `run` and `step` and gives them to its items: the run to every item that
/// names none, then the step to every item of a run that names none.
fn apply_defaults(items: &mut [Value], run: Option<&str>, step: Option<u64>) -> Result<(), ApiError> {
    if run.is_some_and(|run| run.is_empty() || run.len() > MAX_TAG_BYTES) {
        return Err(ApiError::invalid_body(format!("`run` must have 1 to {MAX_TAG_BYTES} bytes")));
    }
    apply_run_defaults(items, run, step);
    Ok(())
}

/// Reads `step`: an integer (integral floats included) from 0 to 2^53.
pub(crate) fn step<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    let value: Option<u64> = optional_integer(deserializer)?;
    match value {
        Some(step) if step > MAX_STEP => Err(serde::de::Error::custom(format!("step must be at most {MAX_STEP}"))),
        other => Ok(other),
    }
}

/// The largest step: one every JSON reader holds exactly.
const MAX_STEP: u64 = 1 << 53;

impl Batch for ScoreRequest {
    const ITEMS: &'static str = "items";
}

/// One item of `POST /v1/verifiers/{id}/score`.
#[derive(Debug, ToSchema)]
#[expect(dead_code, reason = "documents the wire shape; the engine reads items one by one to isolate bad ones")]
pub struct VerifierScoreItem {
    /// Echoed in the result.
    pub id: Option<String>,
    /// The verifier's input, as its schema in `GET /v1/verifiers` describes.
    #[schema(value_type = Object)]
    pub input: Value,
    /// A task or data-source label that selects a noise model.
    pub label: Option<String>,
    /// The training run the item belongs to (1 to 256 bytes); the request's `run` when absent.
    /// Items with a `run` feed `GET /v1/runs/{run}/stats`; with a `prompt_id`, the run's
    /// per-prompt pass rates. Items without one are not recorded.
    #[schema(min_length = 1, max_length = 256)]
    pub run: Option<String>,
    /// The training step (0 when absent; the request's `step` for items of the request's run).
    #[schema(minimum = 0)]
    pub step: Option<u64>,
    /// The prompt the response answers (a string, or an integer taken as its decimal text; at
    /// most 256 bytes): pass rates are kept per prompt.
    #[schema(min_length = 1, max_length = 256)]
    pub prompt_id: Option<String>,
    /// The group of rollouts the item belongs to (GRPO's group; a string or an integer); items
    /// without one are grouped by `prompt_id` within their step.
    #[schema(min_length = 1, max_length = 256)]
    pub group: Option<String>,
}

/// A batch of items for one verifier.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifierScoreRequest {
    /// The items, answered in the same order.
    #[schema(value_type = Vec<VerifierScoreItem>)]
    pub items: Vec<CheckedItem>,
    /// This request's time budget in milliseconds (1 ms to 1 hour), capped by the server's own.
    #[serde(default, deserialize_with = "timeout_ms")]
    #[schema(minimum = 1, maximum = 3_600_000)]
    pub timeout_ms: Option<u64>,
    /// `backward` replaces each binary verdict's score with its backward-corrected reward
    /// where the verifier has a noise model that allows it. Either way, such verdicts carry
    /// the corrections in `details.reward`.
    #[serde(default)]
    pub correction: Correction,
    /// The run of every item that names none (1 to 256 bytes).
    #[schema(min_length = 1, max_length = 256)]
    pub run: Option<String>,
    /// The step of every item of a run (its own or the request's) that names none.
    #[serde(default, deserialize_with = "step")]
    #[schema(minimum = 0, maximum = 9_007_199_254_740_992_u64)]
    pub step: Option<u64>,
}

impl Batch for VerifierScoreRequest {
    const ITEMS: &'static str = "items";
}

/// The results, one per item, in item order.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreResponse {
    pub results: Vec<ScoreResult>,
}

/// Longest per-request budget a client may ask for, in milliseconds.
const MAX_TIMEOUT_MS: u64 = 3_600_000;

/// Reads `timeout_ms`: an integer (integral floats included) from 1 to [`MAX_TIMEOUT_MS`].
fn timeout_ms<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    let value: Option<u64> = optional_integer(deserializer)?;
    match value {
        Some(ms) if !(1..=MAX_TIMEOUT_MS).contains(&ms) => {
            Err(serde::de::Error::custom(format!("timeout_ms must be from 1 to {MAX_TIMEOUT_MS}, got {ms}")))
        }
        other => Ok(other),
    }
}

pub(crate) fn budget(limits: &Limits, timeout_ms: Option<u64>) -> Budget {
    let timeout = timeout_ms.map_or(limits.request_timeout, |ms| Duration::from_millis(ms).min(limits.request_timeout));
    Budget::with_timeout(timeout)
}

pub(crate) fn request_id(headers: &HeaderMap) -> String {
    headers.get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned()
}

pub(crate) fn check_size(limits: &Limits, count: usize) -> Result<(), ApiError> {
    if count > limits.max_batch_items {
        return Err(ApiError::too_many_items(count, limits.max_batch_items));
    }
    Ok(())
}

/// Sets apart the items holding a key twice in one object: the items to score, and the place and
/// `invalid_input` result of each one set apart (its `id`, and its `verifier` or the route's,
/// echoed as for any invalid item).
fn set_apart_duplicates(items: Vec<CheckedItem>, verifier: Option<&str>) -> (Vec<Value>, Vec<(usize, ScoreResult)>) {
    let mut scored = Vec::with_capacity(items.len());
    let mut refused = Vec::new();
    for (position, item) in items.into_iter().enumerate() {
        let Some(key) = item.duplicate else {
            scored.push(item.value);
            continue;
        };
        let text = |field: &str| item.value.get(field).and_then(Value::as_str).map(str::to_owned);
        let verdict = Verdict::invalid_input(duplicate_key_reason(&key));
        refused.push((
            position,
            ScoreResult {
                id: text("id"),
                verifier: verifier.map(str::to_owned).or_else(|| text("verifier")),
                score: verdict.score,
                status: verdict.status,
                details: verdict.details,
                reward: None,
                elapsed_us: 0,
            },
        ));
    }
    (scored, refused)
}

/// The results of the scored items with those set apart put back in their places.
fn put_back(results: Vec<ScoreResult>, refused: Vec<(usize, ScoreResult)>) -> Vec<ScoreResult> {
    if refused.is_empty() {
        return results;
    }
    let total = results.len() + refused.len();
    let mut scored = results.into_iter();
    let mut refused = refused.into_iter().peekable();
    let mut merged = Vec::with_capacity(total);
    for position in 0..total {
        let next = match refused.next_if(|(at, _)| *at == position) {
            Some((_, result)) => Some(result),
            None => scored.next(),
        };
        merged.extend(next);
    }
    merged
}

/// Scores a batch of items, each naming its verifier.
#[utoipa::path(post, path = "/v1/score", tag = "scoring", request_body = ScoreRequest, responses(
    (status = 200, description = "One result per item, in item order.", body = ScoreResponse),
    (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
    (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
    (status = 413, description = "The body or the number of items is over the limit.", body = ErrorBody),
    (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
    (status = 422, description = "The body is JSON but not a score request.", body = ErrorBody),
    (status = 429, description = "A scorer the request needs has a full queue (code `busy`); nothing was scored. Retry after `Retry-After` seconds.", body = ErrorBody),
    (status = 503, description = "Overloaded, or a scorer the request needs is unavailable (code `busy`); retry after `Retry-After` seconds.", body = ErrorBody),
), security((), ("api_key" = [])))]
pub async fn score(
    State(state): State<AppState>,
    headers: HeaderMap,
    BatchJson(request): BatchJson<ScoreRequest>,
) -> Result<axum::Json<ScoreResponse>, ApiError> {
    check_size(&state.limits, request.items.len())?;
    let (mut items, refused) = set_apart_duplicates(request.items, None);
    apply_defaults(&mut items, request.run.as_deref(), request.step)?;
    let budget = budget(&state.limits, request.timeout_ms);
    let results =
        state.engine.try_score(items, ItemShape::Named, request.correction, budget, &request_id(&headers)).await?;
    Ok(axum::Json(ScoreResponse { results: put_back(results, refused) }))
}

/// Scores a batch of items with the verifier named in the path.
#[utoipa::path(post, path = "/v1/verifiers/{id}/score", tag = "scoring", request_body = VerifierScoreRequest,
    params(("id" = String, Path, description = "The verifier id, as listed by `GET /v1/verifiers`.")),
    responses(
        (status = 200, description = "One result per item, in item order.", body = ScoreResponse),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 413, description = "The body or the number of items is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is JSON but not a score request.", body = ErrorBody),
        (status = 429, description = "A scorer the request needs has a full queue (code `busy`); nothing was scored. Retry after `Retry-After` seconds.", body = ErrorBody),
        (status = 503, description = "Overloaded, or a scorer the request needs is unavailable (code `busy`); retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn score_with_verifier(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    BatchJson(request): BatchJson<VerifierScoreRequest>,
) -> Result<axum::Json<ScoreResponse>, ApiError> {
    if state.engine.registry().get(&id).is_none() {
        return Err(ApiError::unknown_verifier(id));
    }
    check_size(&state.limits, request.items.len())?;
    let (mut items, refused) = set_apart_duplicates(request.items, Some(&id));
    apply_defaults(&mut items, request.run.as_deref(), request.step)?;
    let budget = budget(&state.limits, request.timeout_ms);
    let results =
        state.engine.try_score(items, ItemShape::For(&id), request.correction, budget, &request_id(&headers)).await?;
    Ok(axum::Json(ScoreResponse { results: put_back(results, refused) }))
}
