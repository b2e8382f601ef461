//! Liveness, readiness and Prometheus metrics.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use super::{AppState, DRAINING, ErrorBody, READY, STARTING};

/// A probe's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeStatus {
    /// `ok` or `ready`.
    pub status: &'static str,
}

/// Liveness: 200 while the process serves HTTP.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses(
    (status = 200, description = "The process is alive.", body = ProbeStatus),
))]
pub async fn healthz() -> axum::Json<ProbeStatus> {
    axum::Json(ProbeStatus { status: "ok" })
}

/// Readiness: 200 when the server takes traffic; 503 while starting, while draining for
/// shutdown, or when the database does not answer.
#[utoipa::path(get, path = "/readyz", tag = "operations", responses(
    (status = 200, description = "Ready for traffic.", body = ProbeStatus),
    (status = 503, description = "Starting, draining, or the database is unreachable.", body = ErrorBody),
))]
pub async fn readyz(State(state): State<AppState>) -> Response {
    let unavailable = |code: &'static str, message: &str| {
        (StatusCode::SERVICE_UNAVAILABLE, axum::Json(ErrorBody { code, message: message.to_owned() })).into_response()
    };
    match state.readiness.state() {
        READY => {}
        STARTING => return unavailable("starting", "the server is starting"),
        DRAINING => return unavailable("draining", "the server is shutting down"),
        _ => return unavailable("unknown", "the server is in an unknown state"),
    }
    if let Some(storage) = state.engine.storage()
        && !storage.ping().await
    {
        return unavailable("database_unavailable", "the database does not answer");
    }
    axum::Json(ProbeStatus { status: "ready" }).into_response()
}

/// Prometheus metrics in the text exposition format.
#[utoipa::path(get, path = "/metrics", tag = "operations", responses(
    (status = 200, description = "Metrics in the Prometheus text format.", body = String, content_type = "text/plain"),
))]
pub async fn metrics(State(state): State<AppState>) -> Response {
    let body = state.metrics.render();
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], body).into_response()
}
