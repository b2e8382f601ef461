//! `/v1/episodes`: start an episode, take actions, read its state and transcript, close it; and
//! `/v1/episode-environments`, the environments episodes start from.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::store::StoredEpisode;
use super::{EpisodeStarted, EpisodeState, EpisodeStep, EpisodeTranscript, Episodes};
use crate::engine::{RunTag, run_tag};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::json::ApiJson;

/// An episode to start.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartEpisode {
    /// The environment's id, as `GET /v1/episode-environments` lists it.
    pub environment: String,
    /// The environment's options (its schema is in the listing).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: Value,
    /// The training run the episode is recorded in when it ends (1 to 256 bytes): one item of
    /// the environment, with the episode's total reward (docs/episodes.md#training-runs).
    #[schema(min_length = 1, max_length = 256)]
    pub run: Option<String>,
    /// The training step (0 when absent).
    #[serde(default, deserialize_with = "crate::http::score::step")]
    #[schema(minimum = 0, maximum = 9_007_199_254_740_992_u64)]
    pub step: Option<u64>,
    /// The prompt the episode answers (a string, or an integer taken as its decimal text; at
    /// most 256 bytes): pass rates are kept per prompt.
    #[schema(value_type = Option<String>, min_length = 1, max_length = 256)]
    pub prompt_id: Option<Value>,
    /// The group of rollouts the episode belongs to (a string or an integer).
    #[schema(value_type = Option<String>, min_length = 1, max_length = 256)]
    pub group: Option<Value>,
}

impl StartEpisode {
    /// The run the episode is recorded in, read as a scored item's run fields are.
    fn run_tag(&mut self) -> Result<Option<RunTag>, ApiError> {
        let mut fields = serde_json::Map::new();
        let step = self.step.map(Value::from);
        for (name, value) in [
            ("run", self.run.take().map(Value::String)),
            ("step", step),
            ("prompt_id", self.prompt_id.take()),
            ("group", self.group.take()),
        ] {
            if let Some(value) = value {
                fields.insert(name.to_owned(), value);
            }
        }
        run_tag(&mut fields).map_err(|message| ApiError::invalid("invalid_run", message))
    }
}

/// One action.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StepEpisode {
    /// The action, in the environment's action schema.
    #[schema(value_type = Object)]
    pub action: Value,
}

/// One environment episodes start from.
#[derive(Debug, Serialize, ToSchema)]
pub struct EnvironmentEntry {
    pub id: &'static str,
    pub version: &'static str,
    pub summary: &'static str,
    /// The JSON schema of the options.
    #[schema(value_type = Object)]
    pub options_schema: Value,
    /// The JSON schema of one action.
    #[schema(value_type = Object)]
    pub action_schema: Value,
}

/// Every environment episodes start from.
#[derive(Debug, Serialize, ToSchema)]
pub struct EnvironmentEntries {
    pub environments: Vec<EnvironmentEntry>,
}

/// The episode routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_episode_environments))
        .routes(routes!(start_episode))
        .routes(routes!(step_episode))
        .routes(routes!(get_episode, close_episode))
        .routes(routes!(episode_state))
}

/// The episodes of this replica, once the database is open.
pub(crate) fn episodes(state: &AppState) -> Result<Episodes, ApiError> {
    state.features.get::<Episodes>().ok_or(ApiError::starting(state.limits.retry_after_secs))
}

/// A schema with the schemas it references inlined under `$defs`-free `components`, as JSON.
pub(crate) fn schema_json(schema: &referee_core::InputSchema) -> Value {
    let mut value = serde_json::to_value(&schema.schema).unwrap_or(Value::Null);
    if !schema.referenced.is_empty()
        && let Value::Object(map) = &mut value
    {
        let defs: serde_json::Map<String, Value> = schema
            .referenced
            .iter()
            .map(|(name, schema)| (name.clone(), serde_json::to_value(schema).unwrap_or(Value::Null)))
            .collect();
        map.insert("components".to_owned(), Value::Object(defs));
    }
    value
}

/// Lists the multi-turn environments: id, summary, and the schemas of their options and actions.
#[utoipa::path(get, path = "/v1/episode-environments", tag = "episodes", responses(
    (status = 200, description = "Every environment.", body = EnvironmentEntries),
    (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
    (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
), security((), ("api_key" = [])))]
pub async fn list_episode_environments(
    State(state): State<AppState>,
) -> Result<axum::Json<EnvironmentEntries>, ApiError> {
    let environments = episodes(&state)?
        .environments()
        .iter()
        .map(|env| {
            let info = env.info();
            EnvironmentEntry {
                id: info.description.id,
                version: info.description.version,
                summary: info.description.summary,
                options_schema: schema_json(&info.options),
                action_schema: schema_json(&info.action),
            }
        })
        .collect();
    Ok(axum::Json(EnvironmentEntries { environments }))
}

/// Starts an episode. The answer names the replica that holds it: every later call for the
/// episode must reach that replica.
#[utoipa::path(post, path = "/v1/episodes", tag = "episodes", request_body = StartEpisode,
    responses(
        (status = 201, description = "Started; the first observation.", body = EpisodeStarted),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 413, description = "The body is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The options are not valid for the environment (`invalid_options`), or the run fields are not (`invalid_run`: a step, prompt or group without a run, an empty or over-long name).", body = ErrorBody),
        (status = 503, description = "No room for another episode, the environment is unavailable here, or the server is overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn start_episode(
    State(state): State<AppState>,
    ApiJson(mut request): ApiJson<StartEpisode>,
) -> Result<(StatusCode, axum::Json<EpisodeStarted>), ApiError> {
    let run = request.run_tag()?;
    let options = if request.options.is_null() { Value::Object(serde_json::Map::new()) } else { request.options };
    let started = episodes(&state)?.start(&request.environment, options, run).await?;
    Ok((StatusCode::CREATED, axum::Json(started)))
}

/// Takes one action in a live episode.
#[utoipa::path(post, path = "/v1/episodes/{id}/step", tag = "episodes", request_body = StepEpisode,
    params(("id" = String, Path, description = "The episode id.")),
    responses(
        (status = 200, description = "The observation, reward and whether the episode is done.", body = EpisodeStep),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such episode (`unknown_episode`).", body = ErrorBody),
        (status = 409, description = "The episode has ended (`episode_ended`), or its replica restarted (`episode_lost`).", body = ErrorBody),
        (status = 413, description = "The body or the action is over the limit (`action_too_large`).", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 421, description = "The episode lives on another replica (`wrong_replica`).", body = ErrorBody),
        (status = 422, description = "The action is not valid for the environment (`invalid_action`); nothing changed.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn step_episode(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<StepEpisode>,
) -> Result<axum::Json<EpisodeStep>, ApiError> {
    Ok(axum::Json(episodes(&state)?.step(&id, request.action).await?))
}

/// The episode with its transcript, from the database: any replica answers.
#[utoipa::path(get, path = "/v1/episodes/{id}", tag = "episodes",
    params(("id" = String, Path, description = "The episode id.")),
    responses(
        (status = 200, description = "The episode and every step, turn 0 being the first observation.", body = EpisodeTranscript),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such episode (`unknown_episode`).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn get_episode(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<EpisodeTranscript>, ApiError> {
    Ok(axum::Json(episodes(&state)?.transcript(&id).await?))
}

/// Closes a live episode (its state is dropped); closing an ended one answers how it ended.
#[utoipa::path(delete, path = "/v1/episodes/{id}", tag = "episodes",
    params(("id" = String, Path, description = "The episode id.")),
    responses(
        (status = 200, description = "The episode as it stands now.", body = StoredEpisode),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such episode (`unknown_episode`).", body = ErrorBody),
        (status = 409, description = "Its replica restarted (`episode_lost`).", body = ErrorBody),
        (status = 421, description = "The episode lives on another replica (`wrong_replica`).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn close_episode(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<StoredEpisode>, ApiError> {
    Ok(axum::Json(episodes(&state)?.close(&id).await?))
}

/// The state of a live episode, as its environment summarises it.
#[utoipa::path(get, path = "/v1/episodes/{id}/state", tag = "episodes",
    params(("id" = String, Path, description = "The episode id.")),
    responses(
        (status = 200, description = "The episode's turn, total reward and state.", body = EpisodeState),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such episode (`unknown_episode`).", body = ErrorBody),
        (status = 409, description = "The episode has ended (`episode_ended`), or its replica restarted (`episode_lost`).", body = ErrorBody),
        (status = 421, description = "The episode lives on another replica (`wrong_replica`).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn episode_state(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<EpisodeState>, ApiError> {
    Ok(axum::Json(episodes(&state)?.state(&id).await?))
}
