//! `GET /v1/environments` and `POST /v1/environments/{task}/instances`: the NP optimisation
//! environments' catalogue and seeded instance generation.

use axum::extract::Path;
use rayon::prelude::*;
use referee_np::{GeneratedInstance, InstancesResponse, MAX_COUNT, NpError, TaskInfo};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::error::{ApiError, ErrorBody};
use crate::http::integers::integer;
use crate::http::json::ApiJson;

/// Every environment with its levels and answer format.
#[derive(Debug, Serialize, ToSchema)]
pub struct EnvironmentList {
    pub environments: &'static [TaskInfo],
}

/// Which instances to generate. The same (task, level, seed) gives the same instance on every
/// version of the task's generator, so a trainer only needs to store the seed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateInstances {
    /// Difficulty level, from 1 to the task's highest (see `GET /v1/environments`).
    #[serde(deserialize_with = "integer")]
    #[schema(minimum = 1, maximum = 255)]
    pub level: u8,
    /// Seed of the first instance; the i-th uses `seed + i`.
    #[serde(deserialize_with = "seed")]
    pub seed: u64,
    /// How many instances, 1 to 256.
    #[serde(default = "one", deserialize_with = "integer")]
    #[schema(minimum = 1, maximum = 256, default = 1)]
    pub count: u32,
}

/// A seed from 0 to 2^63 - 1: the range of the document's `int64`, which clients (and JSON
/// Schema validators) hold it to; a larger one is refused rather than accepted off the contract.
fn seed<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    let seed: i64 = integer(deserializer)?;
    u64::try_from(seed).map_err(serde::de::Error::custom)
}

fn one() -> u32 {
    1
}

impl From<NpError> for ApiError {
    fn from(error: NpError) -> Self {
        match error {
            NpError::UnknownTask(task) => unknown_task(task),
            NpError::UnknownLevel { .. } => unknown_level(error.to_string()),
            NpError::BadCount { .. } | NpError::InvalidInstance { .. } | NpError::MissingInstance => {
                ApiError::invalid_body(error.to_string())
            }
        }
    }
}

/// The environment routes.
pub fn routes() -> OpenApiRouter<crate::http::AppState> {
    OpenApiRouter::new().routes(routes!(list_environments)).routes(routes!(generate_instances))
}

/// Lists the NP optimisation environments: task ids, objective, answer format, levels.
#[utoipa::path(get, path = "/v1/environments", tag = "environments", responses(
    (status = 200, description = "Every environment.", body = EnvironmentList),
    (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
    (status = 503, description = "Overloaded; retry after `Retry-After` seconds.", body = ErrorBody),
), security((), ("api_key" = [])))]
pub async fn list_environments() -> axum::Json<EnvironmentList> {
    axum::Json(EnvironmentList { environments: referee_np::catalogue() })
}

/// Generates instances of a task with prompts and reference solutions, reproducibly from
/// (task, level, seed).
#[utoipa::path(post, path = "/v1/environments/{task}/instances", tag = "environments",
    request_body = GenerateInstances,
    params(("task" = String, Path, description = "The task id, as listed by `GET /v1/environments`.")),
    responses(
        (status = 200, description = "The instances, seeds `seed..seed + count` in order.", body = InstancesResponse),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such task, or the task has no such level.", body = ErrorBody),
        (status = 413, description = "The body is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is JSON but not a generation request.", body = ErrorBody),
        (status = 503, description = "Overloaded; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn generate_instances(
    Path(task): Path<String>,
    ApiJson(request): ApiJson<GenerateInstances>,
) -> Result<axum::Json<InstancesResponse>, ApiError> {
    if request.count == 0 || request.count > MAX_COUNT {
        return Err(NpError::BadCount { count: request.count, max: MAX_COUNT }.into());
    }
    let info =
        referee_np::catalogue().iter().find(|info| info.task == task).ok_or_else(|| unknown_task(task.clone()))?;
    if !info.levels.iter().any(|l| l.level == request.level) {
        let max = info.levels.iter().map(|l| l.level).max().unwrap_or(0);
        return Err(NpError::UnknownLevel { task, level: request.level, max }.into());
    }
    let (tx, rx) = oneshot::channel();
    let name = task.clone();
    // Reference solvers are CPU-bound: run them on the rayon pool, in parallel across seeds.
    rayon::spawn(move || {
        let instances: Result<Vec<GeneratedInstance>, NpError> = (0..u64::from(request.count))
            .into_par_iter()
            .map(|i| referee_np::generate(&name, request.level, request.seed.wrapping_add(i)))
            .collect();
        let _ = tx.send(instances);
    });
    let instances = rx.await.map_err(|_| ApiError::internal("instance generation ended without a result"))??;
    Ok(axum::Json(InstancesResponse { task, instances }))
}

fn unknown_task(task: impl std::fmt::Display) -> ApiError {
    ApiError::not_found(
        "unknown_task",
        format!("no environment is registered as `{task}`; GET /v1/environments lists them"),
    )
}

fn unknown_level(message: String) -> ApiError {
    ApiError::not_found("unknown_level", message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(body: &str) -> Result<GenerateInstances, serde_json::Error> {
        serde_json::from_str(body)
    }

    #[test]
    fn seeds_are_held_to_the_documented_int64_range() {
        let largest = parse(r#"{"level": 1, "seed": 9223372036854775807}"#).map(|r| r.seed);
        assert_eq!(largest.ok(), Some(i64::MAX.unsigned_abs()));
        assert_eq!(parse(r#"{"level": 1, "seed": 42.0}"#).map(|r| r.seed).ok(), Some(42));
        for refused in ["9223372036854775808", "18446744073709551615", "-1", "0.5"] {
            assert!(parse(&format!(r#"{{"level": 1, "seed": {refused}}}"#)).is_err(), "{refused}");
        }
    }
}
