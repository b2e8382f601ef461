//! `POST /get_reward`: OpenRLHF's remote reward protocol. OpenRLHF posts the rollouts of a step
//! as `{"query": [...], "prompts": [...], "labels": [...]}` to `--remote_rm_url` and reads
//! `rewards` (and `scores`, `extra_logs`) from the answer. Each query is the prompt followed by
//! the response; the response is what follows the prompt, and the label is the reference.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use referee_core::Status;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

use super::AppState;
use super::error::{ApiError, ApiJson, ErrorBody};
use super::score::{budget, check_size, request_id};
use crate::noise::Correction;
use crate::scoring::{ItemShape, ScoreResult};

/// What OpenRLHF sends. Fields other than these (some versions send more) are ignored.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RewardRequest {
    /// The rollouts, each the prompt followed by the response.
    pub query: Vec<String>,
    /// The prompts, by position; a query whose prompt is missing or is not its prefix is
    /// scored whole.
    #[serde(default)]
    pub prompts: Option<Vec<String>>,
    /// The references, by position. A string (or number) fills the verifier's label field; an
    /// object is merged into the verifier's input (e.g. `{"reference": "B", "options": {...}}`);
    /// null or a missing label leaves the field unset, and the verifier then judges the item
    /// `invalid_input` if it needs one.
    #[serde(default)]
    pub labels: Option<Vec<Value>>,
}

/// Which verifier judges the batch and where labels go; both default to the `[openrlhf]`
/// configuration.
#[derive(Debug, Deserialize)]
pub struct RewardParams {
    pub verifier: Option<String>,
    pub label_field: Option<String>,
}

/// Per-item numbers for OpenRLHF's logs, each a list parallel to `rewards`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExtraLogs {
    /// 1 where the verdict is `correct`, else 0.
    pub correct: Vec<f64>,
    /// 0 where the item could not be judged (`timeout`, `resource_limit`, `invalid_input`,
    /// `internal_error`), else 1.
    pub judged: Vec<f64>,
}

/// The answer, one entry per query in every list.
#[derive(Debug, Serialize, ToSchema)]
pub struct RewardResponse {
    /// The reward of each query: the verdict's score (0 for items that could not be judged).
    pub rewards: Vec<f64>,
    /// The same numbers, which OpenRLHF uses for dynamic filtering.
    pub scores: Vec<f64>,
    pub extra_logs: ExtraLogs,
    /// The verdict's status of each query, to tell a wrong answer from an unjudged item.
    pub statuses: Vec<Status>,
}

/// The verifier input of one rollout.
fn input(query: &str, prompt: Option<&str>, label: Option<&Value>, label_field: &str) -> Value {
    let response = prompt.and_then(|p| query.strip_prefix(p)).unwrap_or(query);
    let mut input = Map::new();
    match label {
        None | Some(Value::Null) => {}
        Some(Value::Object(fields)) => input.extend(fields.clone()),
        Some(Value::Number(n)) => {
            input.insert(label_field.to_owned(), Value::String(n.to_string()));
        }
        Some(other) => {
            input.insert(label_field.to_owned(), other.clone());
        }
    }
    input.insert("response".to_owned(), Value::String(response.to_owned()));
    json!({ "input": input })
}

fn is_judged(status: Status) -> bool {
    !matches!(status, Status::Timeout | Status::ResourceLimit | Status::InvalidInput | Status::InternalError)
}

fn response(results: &[ScoreResult]) -> RewardResponse {
    let rewards: Vec<f64> = results.iter().map(|r| if is_judged(r.status) { r.score } else { 0.0 }).collect();
    RewardResponse {
        scores: rewards.clone(),
        rewards,
        extra_logs: ExtraLogs {
            correct: results.iter().map(|r| f64::from(u8::from(r.status == Status::Correct))).collect(),
            judged: results.iter().map(|r| f64::from(u8::from(is_judged(r.status)))).collect(),
        },
        statuses: results.iter().map(|r| r.status).collect(),
    }
}

/// Scores a step of rollouts for OpenRLHF (`--remote_rm_url http://HOST:PORT/get_reward`).
#[utoipa::path(post, path = "/get_reward", tag = "scoring", request_body = RewardRequest,
    params(
        ("verifier" = Option<String>, Query,
            description = "The verifier id, as listed by `GET /v1/verifiers`; the server's `openrlhf.verifier` when absent."),
        ("label_field" = Option<String>, Query,
            description = "The verifier input field each label fills; the server's `openrlhf.label_field` when absent."),
    ),
    responses(
        (status = 200, description = "One reward per query, in query order.", body = RewardResponse),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 413, description = "The body or the number of queries is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is JSON but not a reward request, or the query string is malformed.", body = ErrorBody),
        (status = 429, description = "A scorer the request needs has a full queue (code `busy`); nothing was scored. Retry after `Retry-After` seconds.", body = ErrorBody),
        (status = 503, description = "Overloaded, or a scorer the request needs is unavailable (code `busy`); retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn get_reward(
    State(state): State<AppState>,
    params: Result<Query<RewardParams>, QueryRejection>,
    headers: HeaderMap,
    ApiJson(request): ApiJson<RewardRequest>,
) -> Result<axum::Json<RewardResponse>, ApiError> {
    let Query(params) = params.map_err(|rejection| ApiError::InvalidBody(rejection.body_text()))?;
    let verifier = params.verifier.as_deref().unwrap_or(&state.openrlhf.verifier);
    if state.engine.registry().get(verifier).is_none() {
        return Err(ApiError::UnknownVerifier(verifier.to_owned()));
    }
    let label_field = params.label_field.as_deref().unwrap_or(&state.openrlhf.label_field);
    check_size(&state.limits, request.query.len())?;
    let prompts = request.prompts.unwrap_or_default();
    let labels = request.labels.unwrap_or_default();
    let items = request
        .query
        .iter()
        .enumerate()
        .map(|(i, query)| input(query, prompts.get(i).map(String::as_str), labels.get(i), label_field))
        .collect();
    let budget = budget(&state.limits, None);
    let results = state
        .engine
        .try_score(items, ItemShape::For(verifier), Correction::None, budget, &request_id(&headers))
        .await?;
    Ok(axum::Json(response(&results)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_response_is_what_follows_the_prompt() {
        let label = Value::String("4".to_owned());
        assert_eq!(
            input("Q: 2+2? A: 4", Some("Q: 2+2? "), Some(&label), "reference"),
            json!({"input": {"reference": "4", "response": "A: 4"}})
        );
        assert_eq!(input("A: 4", Some("other"), None, "reference"), json!({"input": {"response": "A: 4"}}));
        assert_eq!(
            input("x", None, Some(&json!(12)), "reference"),
            json!({"input": {"reference": "12", "response": "x"}})
        );
        assert_eq!(
            input("x", None, Some(&json!({"reference": "B", "options": {}})), "reference"),
            json!({"input": {"reference": "B", "options": {}, "response": "x"}})
        );
    }
}
