//! `GET /v1/verifiers`.

use axum::extract::State;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::AppState;
use super::error::ErrorBody;
use crate::registry::Registry;

/// How a scorer runs.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScorerKind {
    /// Synchronous and CPU-bound, on the server's thread pool.
    Verifier,
    /// Asynchronous: a model, a sandbox or a remote judge.
    RewardModel,
}

/// One registered verifier.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifierInfo {
    /// The id to put in an item's `verifier`.
    pub id: String,
    /// Changes whenever a verdict for the same input may change.
    pub version: String,
    pub kind: ScorerKind,
    /// What it checks and how it scores.
    pub description: String,
    /// The JSON Schema of the item `input`, self-contained.
    #[schema(value_type = Object)]
    pub input_schema: Value,
    /// Whether it can judge items on this server; for `code`, per language, with the reason
    /// and the fix when a language is unavailable.
    pub availability: crate::startup::VerifierAvailability,
}

/// Every registered verifier.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifierList {
    pub verifiers: Vec<VerifierInfo>,
}

/// The registry's verifiers with self-contained input schemas.
pub fn catalogue(registry: &Registry) -> VerifierList {
    let verifiers = registry
        .entries()
        .iter()
        .map(|entry| {
            let kind = match entry.scorer {
                referee_core::Scorer::Blocking(_) => ScorerKind::Verifier,
                referee_core::Scorer::Async(_) => ScorerKind::RewardModel,
            };
            VerifierInfo {
                id: entry.id().to_owned(),
                version: entry.version().to_owned(),
                kind,
                description: entry.info.description.summary.to_owned(),
                input_schema: super::docs::self_contained_schema(&entry.info.input),
                availability: crate::startup::availability_of(registry, entry.id()),
            }
        })
        .collect();
    VerifierList { verifiers }
}

/// Lists the verifiers with their versions, descriptions and input schemas.
#[utoipa::path(get, path = "/v1/verifiers", tag = "verifiers", responses(
    (status = 200, description = "Every registered verifier.", body = VerifierList),
    (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
    (status = 503, description = "Overloaded; retry after `Retry-After` seconds.", body = ErrorBody),
), security((), ("api_key" = [])))]
pub async fn list_verifiers(State(state): State<AppState>) -> axum::Json<VerifierList> {
    axum::Json(catalogue(state.engine.registry()))
}
