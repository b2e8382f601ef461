//! The OpenEnv protocol (PyPI `openenv-core`) over the episode engine: each environment is an
//! OpenEnv environment server at `/openenv/{environment}`, so that `openenv-core`'s clients
//! (`GenericEnvClient`, sync or async) drive it unchanged.
//!
//! Sessions are WebSocket connections to `/openenv/{environment}/ws`: one episode at a time per
//! connection, strictly one reply per message, in order. `reset` starts an episode (its data are
//! the environment's options; a previous episode of the connection is closed), `step` takes an
//! action (the message's `data`), `state` answers the episode's turn and state, `close` ends the
//! episode and the connection. The HTTP routes are OpenEnv's: `health`, `metadata`, `schema`, and
//! the stateless `reset`, `step` and `state`, each on a fresh episode that is closed at once.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, State};
use axum::response::Response;
use referee_core::Environment;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Episodes;
use super::handlers::{episodes, schema_json};
use crate::engine::{RunTag, run_tag};
use crate::http::AppState;
use crate::http::error::{ApiError, Category, ErrorBody};
use crate::http::json::ApiJson;

/// OpenEnv's routes for every environment.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(openenv_health))
        .routes(routes!(openenv_metadata))
        .routes(routes!(openenv_schema))
        .routes(routes!(openenv_reset))
        .routes(routes!(openenv_step))
        .routes(routes!(openenv_state))
        .routes(routes!(openenv_session))
}

/// The episode engine, the environment's id and the environment, or 404 for an environment that
/// does not exist.
fn environment(state: &AppState, id: &str) -> Result<(Episodes, &'static str, Arc<dyn Environment>), ApiError> {
    let episodes = episodes(state)?;
    let (id, env) = episodes.environment(id).ok_or_else(|| {
        ApiError::not_found(
            "unknown_environment",
            format!("no environment is registered as `{id}`; GET /v1/episode-environments lists them"),
        )
    })?;
    Ok((episodes, id, env))
}

/// OpenEnv's health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenEnvHealth {
    /// `healthy`.
    pub status: &'static str,
}

/// OpenEnv's metadata of an environment.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenEnvMetadata {
    pub name: &'static str,
    pub description: &'static str,
    pub readme_content: Option<String>,
    pub version: &'static str,
    pub author: Option<String>,
    pub documentation_url: Option<String>,
}

/// OpenEnv's schemas of an environment: its action, observation and state.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenEnvSchema {
    #[schema(value_type = Object)]
    pub action: Value,
    #[schema(value_type = Object)]
    pub observation: Value,
    #[schema(value_type = Object)]
    pub state: Value,
}

/// OpenEnv's answer to a reset or a step.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenEnvResult {
    #[schema(value_type = Object)]
    pub observation: Value,
    pub reward: Option<f64>,
    pub done: bool,
}

/// OpenEnv's stateless step: the action, and fields OpenEnv allows besides (ignored).
#[derive(Debug, Deserialize, ToSchema)]
pub struct OpenEnvStepRequest {
    #[schema(value_type = Object)]
    pub action: Value,
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub extra: Map<String, Value>,
}

/// Whether the environment's server is up (OpenEnv's health route).
#[utoipa::path(get, path = "/openenv/{environment}/health", tag = "episodes",
    params(("environment" = String, Path, description = "The environment's id.")),
    responses(
        (status = 200, description = "Healthy.", body = OpenEnvHealth),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn openenv_health(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<OpenEnvHealth>, ApiError> {
    environment(&state, &id)?;
    Ok(axum::Json(OpenEnvHealth { status: "healthy" }))
}

/// The environment's name, description and version (OpenEnv's metadata route).
#[utoipa::path(get, path = "/openenv/{environment}/metadata", tag = "episodes",
    params(("environment" = String, Path, description = "The environment's id.")),
    responses(
        (status = 200, description = "The environment's metadata.", body = OpenEnvMetadata),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn openenv_metadata(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<OpenEnvMetadata>, ApiError> {
    let info = environment(&state, &id)?.2.info();
    Ok(axum::Json(OpenEnvMetadata {
        name: info.description.id,
        description: info.description.summary,
        readme_content: None,
        version: info.description.version,
        author: None,
        documentation_url: None,
    }))
}

/// The JSON schemas of the environment's actions, observations and state (OpenEnv's schema
/// route); `reset`'s options are the environment's options.
#[utoipa::path(get, path = "/openenv/{environment}/schema", tag = "episodes",
    params(("environment" = String, Path, description = "The environment's id.")),
    responses(
        (status = 200, description = "The schemas.", body = OpenEnvSchema),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn openenv_schema(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<OpenEnvSchema>, ApiError> {
    let info = environment(&state, &id)?.2.info();
    Ok(axum::Json(OpenEnvSchema {
        action: schema_json(&info.action),
        observation: json!({"type": "object"}),
        state: json!({"type": "object", "properties": {
            "episode_id": {"type": ["string", "null"]},
            "step_count": {"type": "integer", "minimum": 0},
        }}),
    }))
}

/// A reset's options and run: its data without OpenEnv's own `episode_id` (the server names
/// episodes), and without the run fields (`run`, `step`, `prompt_id`, `group`), which tag the
/// episode as `POST /v1/episodes` does.
fn reset_options(data: Value) -> Result<(Value, Option<RunTag>), ApiError> {
    match data {
        Value::Object(mut map) => {
            map.remove("episode_id");
            let run = run_tag(&mut map).map_err(|message| ApiError::invalid("invalid_run", message))?;
            Ok((Value::Object(map), run))
        }
        Value::Null => Ok((Value::Object(Map::new()), None)),
        // Not options: the environment refuses them, saying why.
        other @ (Value::Bool(_) | Value::Number(_) | Value::String(_) | Value::Array(_)) => Ok((other, None)),
    }
}

/// Closes an episode the protocol no longer needs; a failure is logged, never answered.
async fn close_quietly(episodes: &Episodes, id: &str) {
    if let Err(error) = episodes.close(id).await {
        tracing::debug!(episode = %id, code = error.code(), %error, "closing an OpenEnv episode");
    }
}

/// Starts an episode from the body's options, answers its first observation and closes it
/// (OpenEnv's stateless reset; sessions are WebSocket connections).
#[utoipa::path(post, path = "/openenv/{environment}/reset", tag = "episodes",
    params(("environment" = String, Path, description = "The environment's id.")),
    request_body(content = Object, description = "The environment's options (OpenEnv's `seed` and other keyword arguments); `episode_id` is ignored, and the run fields (`run`, `step`, `prompt_id`, `group`) are checked, though this stateless episode is closed at once and never recorded in a run."),
    responses(
        (status = 200, description = "The first observation.", body = OpenEnvResult),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The options are not valid for the environment (`invalid_options`), or the run fields are not (`invalid_run`).", body = ErrorBody),
        (status = 503, description = "No room, or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn openenv_reset(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Value>,
) -> Result<axum::Json<OpenEnvResult>, ApiError> {
    let (episodes, id, _) = environment(&state, &id)?;
    let (options, run) = reset_options(body)?;
    let started = episodes.start(id, options, run).await?;
    close_quietly(&episodes, &started.episode_id).await;
    Ok(axum::Json(OpenEnvResult { observation: started.observation, reward: Some(0.0), done: false }))
}

/// Takes one action in a fresh episode with the environment's default options and closes it
/// (OpenEnv's stateless step).
#[utoipa::path(post, path = "/openenv/{environment}/step", tag = "episodes", request_body = OpenEnvStepRequest,
    params(("environment" = String, Path, description = "The environment's id.")),
    responses(
        (status = 200, description = "The observation, reward and whether the episode is done.", body = OpenEnvResult),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 413, description = "The action is over the limit (`action_too_large`).", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The environment needs options to start (`invalid_options`), or the action is not valid (`invalid_action`).", body = ErrorBody),
        (status = 503, description = "No room, or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn openenv_step(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<OpenEnvStepRequest>,
) -> Result<axum::Json<OpenEnvResult>, ApiError> {
    let (episodes, id, _) = environment(&state, &id)?;
    let started = episodes.start(id, Value::Object(Map::new()), None).await?;
    let step = episodes.step(&started.episode_id, request.action).await;
    close_quietly(&episodes, &started.episode_id).await;
    let step = step?;
    Ok(axum::Json(OpenEnvResult { observation: step.observation, reward: Some(step.reward), done: step.done }))
}

/// A fresh environment's state (OpenEnv's stateless state route).
#[utoipa::path(get, path = "/openenv/{environment}/state", tag = "episodes",
    params(("environment" = String, Path, description = "The environment's id.")),
    responses(
        (status = 200, description = "No episode, no steps.", body = Object),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn openenv_state(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<Value>, ApiError> {
    environment(&state, &id)?;
    Ok(axum::Json(json!({"episode_id": null, "step_count": 0})))
}

/// OpenEnv's session: a WebSocket connection that holds one episode at a time (see the module
/// documentation for the messages).
#[utoipa::path(get, path = "/openenv/{environment}/ws", tag = "episodes",
    params(("environment" = String, Path, description = "The environment's id.")),
    responses(
        (status = 101, description = "Switching to the WebSocket session protocol."),
        (status = 400, description = "Not a WebSocket upgrade request.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such environment (`unknown_environment`).", body = ErrorBody),
        (status = 503, description = "Starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn openenv_session(
    State(state): State<AppState>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let (episodes, id, _) = environment(&state, &id)?;
    let upgrade = upgrade.map_err(|rejection| {
        ApiError::new(Category::Malformed, "not_a_websocket", format!("{rejection}: connect with a WebSocket client"))
    })?;
    Ok(upgrade.on_upgrade(move |socket| session(socket, episodes, id)))
}

/// An OpenEnv error frame.
fn error_frame(code: &str, message: impl Into<String>) -> Value {
    json!({"type": "error", "data": {"message": message.into(), "code": code}})
}

/// An API error as an OpenEnv error frame: the caller's mistakes are `VALIDATION_ERROR`, a full
/// server `CAPACITY_REACHED`, the rest (an environment whose runtime this host lacks too: more
/// room would not help) `EXECUTION_ERROR`.
fn api_error_frame(error: &ApiError) -> Value {
    let code = match (error.status().as_u16(), error.code()) {
        (_, "environment_unavailable") => "EXECUTION_ERROR",
        (413 | 422, _) => "VALIDATION_ERROR",
        (429 | 503, _) => "CAPACITY_REACHED",
        _ => "EXECUTION_ERROR",
    };
    let message = if error.status().is_server_error() && error.status().as_u16() != 503 {
        tracing::error!(code = error.code(), %error, "OpenEnv session");
        "internal error; the server log has the details".to_owned()
    } else {
        error.to_string()
    };
    json!({"type": "error", "data": {"message": message, "code": code, "referee_code": error.code()}})
}

/// One connection's session: its episode, if one is live.
struct Session {
    episodes: Episodes,
    environment: &'static str,
    episode: Option<String>,
}

impl Session {
    async fn reset(&mut self, data: Value) -> Value {
        if let Some(previous) = self.episode.take() {
            close_quietly(&self.episodes, &previous).await;
        }
        let started = match reset_options(data) {
            Ok((options, run)) => self.episodes.start(self.environment, options, run).await,
            Err(error) => Err(error),
        };
        match started {
            Ok(started) => {
                self.episode = Some(started.episode_id);
                json!({"type": "observation", "data": {"observation": started.observation, "reward": 0.0, "done": false}})
            }
            Err(error) => api_error_frame(&error),
        }
    }

    async fn step(&mut self, action: Value) -> Value {
        // As an OpenEnv environment exists from the connection's start, a step before any reset
        // acts in a fresh episode with the environment's default options.
        if self.episode.is_none() {
            match self.episodes.start(self.environment, Value::Object(Map::new()), None).await {
                Ok(started) => self.episode = Some(started.episode_id),
                Err(error) => return api_error_frame(&error),
            }
        }
        let Some(id) = self.episode.clone() else { return error_frame("EXECUTION_ERROR", "no episode") };
        match self.episodes.step(&id, action).await {
            Ok(step) => {
                json!({"type": "observation", "data": {"observation": step.observation, "reward": step.reward, "done": step.done}})
            }
            Err(error) => api_error_frame(&error),
        }
    }

    async fn state(&self) -> Value {
        let Some(id) = &self.episode else {
            return json!({"type": "state", "data": {"episode_id": null, "step_count": 0}});
        };
        match self.episodes.transcript(id).await {
            Ok(transcript) => {
                let mut data = json!({
                    "episode_id": id,
                    "step_count": transcript.episode.turns,
                    "status": transcript.episode.status,
                    "total_reward": transcript.episode.total_reward,
                });
                if let Ok(live) = self.episodes.state(id).await {
                    data["state"] = live.state;
                }
                json!({"type": "state", "data": data})
            }
            Err(error) => api_error_frame(&error),
        }
    }

    /// The reply to one text message, and whether the session ends after it.
    async fn answer(&mut self, text: &str) -> (Option<Value>, bool) {
        let message: Value = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(error) => return (Some(error_frame("INVALID_JSON", format!("Invalid JSON: {error}"))), false),
        };
        let Some(fields) = message.as_object() else {
            return (Some(error_frame("VALIDATION_ERROR", "Invalid message: not an object")), false);
        };
        let kind = fields.get("type").and_then(Value::as_str).unwrap_or_default();
        let allowed: &[&str] = match kind {
            "reset" | "step" => &["type", "data"],
            "state" | "close" => &["type"],
            "" => return (Some(error_frame("VALIDATION_ERROR", "Invalid message: `type` is required")), false),
            other => return (Some(error_frame("UNKNOWN_TYPE", format!("Unknown message type: {other}"))), false),
        };
        if let Some(extra) = fields.keys().find(|key| !allowed.contains(&key.as_str())) {
            return (
                Some(error_frame("VALIDATION_ERROR", format!("Invalid message: `{extra}` is not allowed"))),
                false,
            );
        }
        let data = fields.get("data").cloned();
        match kind {
            "reset" => (Some(self.reset(data.unwrap_or(Value::Null)).await), false),
            "step" => match data {
                Some(action) => (Some(self.step(action).await), false),
                None => (Some(error_frame("VALIDATION_ERROR", "Invalid message: `data` is required")), false),
            },
            "state" => (Some(self.state().await), false),
            _ => (None, true),
        }
    }
}

async fn session(mut socket: WebSocket, episodes: Episodes, environment: &'static str) {
    let mut session = Session { episodes, environment, episode: None };
    while let Some(Ok(message)) = socket.recv().await {
        let text = match message {
            Message::Text(text) => text.to_string(),
            Message::Binary(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        let (reply, end) = session.answer(&text).await;
        if let Some(reply) = reply
            && socket.send(Message::Text(reply.to_string().into())).await.is_err()
        {
            break;
        }
        if end {
            break;
        }
    }
    if let Some(id) = session.episode.take() {
        close_quietly(&session.episodes, &id).await;
    }
    let close = CloseFrame { code: close_code::NORMAL, reason: "".into() };
    let _ = socket.send(Message::Close(Some(close))).await;
}

#[cfg(test)]
mod tests {
    use super::api_error_frame;
    use crate::http::error::{ApiError, Category};

    #[test]
    fn a_missing_runtime_is_an_execution_error_and_a_full_server_is_capacity() {
        let busy = |code| {
            ApiError::new(
                Category::Busy { status: referee_core::BusyStatus::Unavailable, retry_after_secs: 30 },
                code,
                "message",
            )
        };
        let frame = |error: &ApiError| api_error_frame(error)["data"]["code"].as_str().map(str::to_owned);
        assert_eq!(frame(&busy("environment_unavailable")).as_deref(), Some("EXECUTION_ERROR"));
        assert_eq!(frame(&busy("too_many_episodes")).as_deref(), Some("CAPACITY_REACHED"));
    }
}
