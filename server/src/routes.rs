//! The one list of routes: the HTTP layer's own scoring routes and each feature's, mounted by how
//! they are admitted. A new feature adds its `routes()` here, as a new scorer is added to
//! [`crate::registry`].

use axum::Router;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;

use crate::features::{adapters, console, environments, episodes, jobs, noise, rlpr, rubrics, runs};
use crate::http::{self, AppState, Routes};
use crate::registry::Registry;

/// Every route of the server.
pub fn all() -> Routes {
    let general = OpenApiRouter::new()
        .merge(http::scoring_routes())
        .merge(environments::routes())
        .merge(episodes::handlers::routes())
        .merge(jobs::handlers::routes())
        .merge(noise::handlers::routes())
        .merge(rubrics::handlers::routes())
        .merge(runs::handlers::routes())
        .merge(rlpr::handlers::routes());
    let trainer = adapters::routes().merge(episodes::openenv::routes());
    Routes { general, trainer, upload: jobs::handlers::upload_routes(), pages: console::routes() }
}

/// The OpenAPI document of a server with this registry, as served at `/openapi.json`.
pub fn openapi_document(registry: &Registry) -> Value {
    http::openapi_document(all(), registry)
}

/// [`openapi_document`] as the pretty-printed JSON checked in at `openapi/openapi.json`.
pub fn openapi_json(registry: &Registry) -> String {
    serde_json::to_string_pretty(&openapi_document(registry)).unwrap_or_default()
}

/// The complete application over `state`.
pub fn app(state: AppState) -> Router {
    let document = openapi_document(state.engine.registry());
    http::app(state, all(), document)
}
