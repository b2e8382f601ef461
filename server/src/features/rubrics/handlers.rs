//! `/v1/rubrics`: create, read, version and delete the rubrics that `rubric` items name by id.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use referee_rubric::{Aggregation, Criterion, RUBRIC_ID, RubricDefinition};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::features::rubrics::{RubricRepository, RubricWriteError, StoredRubric};
use crate::http::AppState;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::json::ApiJson;

/// A rubric to store under a new id.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRubric {
    /// The id items name it by: letters, digits, `.`, `_` and `-`, starting with a letter or
    /// digit, at most 128 characters.
    #[schema(min_length = 1, max_length = 128, pattern = "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")]
    pub id: String,
    /// The criteria, each with a unique name. 1 to 64 of them.
    #[schema(min_items = 1, max_items = 64)]
    pub criteria: Vec<Criterion>,
    /// How criterion scores combine; the weighted mean when absent.
    #[serde(default)]
    pub aggregation: Aggregation,
    /// The score of an item that fails a veto criterion (default 0).
    #[serde(default)]
    #[schema(minimum = -1000.0, maximum = 1000.0)]
    pub veto_floor: f64,
}

/// One stored version of a rubric.
#[derive(Debug, Serialize, ToSchema)]
pub struct RubricVersion {
    pub id: String,
    /// 1 for the first version; each update adds one.
    pub version: u32,
    /// When this version was stored, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    pub criteria: Vec<Criterion>,
    pub aggregation: Aggregation,
    pub veto_floor: f64,
}

impl From<StoredRubric> for RubricVersion {
    fn from(stored: StoredRubric) -> Self {
        RubricVersion {
            id: stored.id,
            version: stored.version,
            created_at_ms: stored.created_at_ms,
            criteria: stored.definition.criteria,
            aggregation: stored.definition.aggregation,
            veto_floor: stored.definition.veto_floor,
        }
    }
}

/// A rubric's id with its latest version.
#[derive(Debug, Serialize, ToSchema)]
pub struct RubricSummary {
    pub id: String,
    pub version: u32,
    pub created_at_ms: i64,
}

/// Every stored rubric, by id.
#[derive(Debug, Serialize, ToSchema)]
pub struct RubricList {
    pub rubrics: Vec<RubricSummary>,
}

/// One version of a rubric in its history.
#[derive(Debug, Serialize, ToSchema)]
pub struct VersionSummary {
    pub version: u32,
    pub created_at_ms: i64,
}

/// Every kept version of a rubric, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct RubricHistory {
    pub id: String,
    pub versions: Vec<VersionSummary>,
}

/// Which version to read.
#[derive(Debug, Deserialize)]
pub struct VersionQuery {
    /// The version; the latest when absent.
    pub version: Option<u32>,
}

fn repository(state: &AppState) -> Result<RubricRepository, ApiError> {
    state
        .engine
        .storage()
        .map(|storage| RubricRepository::new(storage.clone()))
        .ok_or(ApiError::starting(state.limits.retry_after_secs))
}

fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && id.len() <= 128
}

/// Checks a definition the way the `rubric` reward model will compile it.
fn check(state: &AppState, definition: &RubricDefinition) -> Result<(), ApiError> {
    let registry = state.engine.registry();
    referee_rubric::compile(definition, None, &|id| id != RUBRIC_ID && registry.get(id).is_some())
        .map(|_| ())
        .map_err(|e| ApiError::invalid_body(format!("invalid rubric: {e}")))
}

fn write_error(error: RubricWriteError) -> ApiError {
    match error {
        RubricWriteError::Exists(id) => rubric_exists(id),
        RubricWriteError::Missing(id) => unknown_rubric(id),
        RubricWriteError::Database(error) => ApiError::internal(format!("rubric storage: {error}")),
    }
}

fn read_error(error: sqlx::Error) -> ApiError {
    ApiError::internal(format!("rubric storage: {error}"))
}

/// The rubric routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_rubric, list_rubrics))
        .routes(routes!(get_rubric, update_rubric, delete_rubric))
        .routes(routes!(rubric_versions))
}

/// Stores a new rubric as version 1. The rubric is checked as it would be for scoring: unique
/// criterion names, valid patterns and schemas, known verifiers, a formula over the criteria.
#[utoipa::path(post, path = "/v1/rubrics", tag = "rubrics", request_body = NewRubric,
    responses(
        (status = 201, description = "Stored as version 1.", body = RubricVersion),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 409, description = "A rubric with this id exists; PUT adds a version.", body = ErrorBody),
        (status = 413, description = "The body is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is not a valid rubric; the message says why.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn create_rubric(
    State(state): State<AppState>,
    ApiJson(rubric): ApiJson<NewRubric>,
) -> Result<(StatusCode, axum::Json<RubricVersion>), ApiError> {
    if !valid_id(&rubric.id) {
        return Err(ApiError::invalid_body(
            "`id` must be 1 to 128 letters, digits, `.`, `_` or `-`, starting with a letter or digit".to_owned(),
        ));
    }
    let definition =
        RubricDefinition { criteria: rubric.criteria, aggregation: rubric.aggregation, veto_floor: rubric.veto_floor };
    check(&state, &definition)?;
    let stored = repository(&state)?.create(&rubric.id, &definition).await.map_err(write_error)?;
    Ok((StatusCode::CREATED, axum::Json(stored.into())))
}

/// Lists every stored rubric with its latest version.
#[utoipa::path(get, path = "/v1/rubrics", tag = "rubrics",
    responses(
        (status = 200, description = "Every live rubric, by id.", body = RubricList),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn list_rubrics(State(state): State<AppState>) -> Result<axum::Json<RubricList>, ApiError> {
    let rows = repository(&state)?.list().await.map_err(read_error)?;
    let rubrics =
        rows.into_iter().map(|(id, version, created_at_ms)| RubricSummary { id, version, created_at_ms }).collect();
    Ok(axum::Json(RubricList { rubrics }))
}

/// Reads a rubric: its latest version, or the one asked for.
#[utoipa::path(get, path = "/v1/rubrics/{id}", tag = "rubrics",
    params(
        ("id" = String, Path, description = "The rubric's id."),
        ("version" = Option<u32>, Query, minimum = 1, maximum = 4_294_967_295_u64,
            description = "The version; the latest when absent."),
    ),
    responses(
        (status = 200, description = "The rubric at that version.", body = RubricVersion),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such rubric or version.", body = ErrorBody),
        (status = 422, description = "The query string is malformed.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn get_rubric(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<VersionQuery>, QueryRejection>,
) -> Result<axum::Json<RubricVersion>, ApiError> {
    let Query(query) = query.map_err(|rejection| ApiError::invalid_body(rejection.body_text()))?;
    let shown = match query.version {
        Some(version) => format!("{id}` version `{version}"),
        None => id.clone(),
    };
    if !valid_id(&id) {
        return Err(unknown_rubric(shown));
    }
    let stored = repository(&state)?.get(&id, query.version).await.map_err(read_error)?;
    stored.map(|s| axum::Json(s.into())).ok_or(unknown_rubric(shown))
}

/// Lists the kept versions of a rubric.
#[utoipa::path(get, path = "/v1/rubrics/{id}/versions", tag = "rubrics",
    params(("id" = String, Path, description = "The rubric's id.")),
    responses(
        (status = 200, description = "Every version, oldest first.", body = RubricHistory),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such rubric.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn rubric_versions(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<axum::Json<RubricHistory>, ApiError> {
    if !valid_id(&id) {
        return Err(unknown_rubric(id));
    }
    let versions = repository(&state)?.versions(&id).await.map_err(read_error)?;
    if versions.is_empty() {
        return Err(unknown_rubric(id));
    }
    let versions =
        versions.into_iter().map(|(version, created_at_ms)| VersionSummary { version, created_at_ms }).collect();
    Ok(axum::Json(RubricHistory { id, versions }))
}

/// Stores a new version of a rubric; earlier versions are kept and stay addressable.
#[utoipa::path(put, path = "/v1/rubrics/{id}", tag = "rubrics", request_body = RubricDefinition,
    params(("id" = String, Path, description = "The rubric's id.")),
    responses(
        (status = 200, description = "Stored as the next version.", body = RubricVersion),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such rubric; POST /v1/rubrics creates one.", body = ErrorBody),
        (status = 413, description = "The body is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is not a valid rubric; the message says why.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn update_rubric(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(definition): ApiJson<RubricDefinition>,
) -> Result<axum::Json<RubricVersion>, ApiError> {
    if !valid_id(&id) {
        return Err(unknown_rubric(id));
    }
    check(&state, &definition)?;
    let stored = repository(&state)?.update(&id, &definition).await.map_err(write_error)?;
    Ok(axum::Json(stored.into()))
}

/// Deletes a rubric with all its versions. Creating the id again continues the version
/// numbering, so a version number never names two definitions.
#[utoipa::path(delete, path = "/v1/rubrics/{id}", tag = "rubrics",
    params(("id" = String, Path, description = "The rubric's id.")),
    responses(
        (status = 204, description = "Deleted."),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such rubric.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn delete_rubric(State(state): State<AppState>, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    if !valid_id(&id) {
        return Err(unknown_rubric(id));
    }
    if repository(&state)?.delete(&id).await.map_err(read_error)? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(unknown_rubric(id))
    }
}

fn unknown_rubric(id: impl std::fmt::Display) -> ApiError {
    ApiError::not_found("unknown_rubric", format!("no rubric `{id}`; GET /v1/rubrics lists them"))
}

fn rubric_exists(id: impl std::fmt::Display) -> ApiError {
    ApiError::conflict(
        "rubric_exists",
        format!("a rubric with the id `{id}` exists; PUT /v1/rubrics/{id} adds a version"),
    )
}
