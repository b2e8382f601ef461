//! Liveness, readiness and Prometheus metrics.

use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{AppState, DRAINING, ErrorBody, READY, STARTING};

/// A probe's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProbeStatus {
    /// `ok` or `ready`.
    pub status: &'static str,
    /// With `/readyz?verbose`: every verifier, and for `code` each language, available or not
    /// and why (the same as `GET /v1/verifiers` reports).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verifiers: Option<Vec<VerifierStatus>>,
}

/// One verifier's availability in `/readyz?verbose`.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifierStatus {
    /// The verifier's id.
    pub id: String,
    #[serde(flatten)]
    pub availability: crate::startup::VerifierAvailability,
}

/// The query of `/readyz`.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReadyQuery {
    /// Present (`?verbose`, or any value but `false` and `0`): list each verifier's and
    /// language's availability in the answer.
    pub verbose: Option<String>,
}

impl ReadyQuery {
    /// Reads the query string by hand, so that no query, however malformed, turns a probe into
    /// a 400.
    fn parse(raw: Option<&str>) -> ReadyQuery {
        let verbose = raw.into_iter().flat_map(|q| q.split('&')).find_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (key == "verbose").then(|| value.to_owned())
        });
        ReadyQuery { verbose }
    }

    fn verbose(&self) -> bool {
        self.verbose.as_deref().is_some_and(|v| v != "false" && v != "0")
    }
}

/// Liveness: 200 while the process serves HTTP.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses(
    (status = 200, description = "The process is alive.", body = ProbeStatus),
))]
pub async fn healthz() -> axum::Json<ProbeStatus> {
    axum::Json(ProbeStatus { status: "ok", verifiers: None })
}

/// Readiness: 200 when the server takes traffic; 503 while starting, while draining for
/// shutdown, or when the database does not answer. A language the `code` verifier cannot run
/// does not make the server unready (its items are answered `invalid_input` with the reason);
/// `?verbose` lists it.
#[utoipa::path(get, path = "/readyz", tag = "operations", params(ReadyQuery), responses(
    (status = 200, description = "Ready for traffic.", body = ProbeStatus),
    (status = 503, description = "Starting, draining, or the database is unreachable.", body = ErrorBody),
))]
pub async fn readyz(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
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
    let verifiers = ReadyQuery::parse(query.as_deref()).verbose().then(|| {
        state
            .engine
            .registry()
            .entries()
            .iter()
            .map(|entry| VerifierStatus {
                id: entry.id().to_owned(),
                availability: crate::startup::availability_of(state.engine.registry(), entry.id()),
            })
            .collect()
    });
    axum::Json(ProbeStatus { status: "ready", verifiers }).into_response()
}

/// Prometheus metrics in the text exposition format.
#[utoipa::path(get, path = "/metrics", tag = "operations", responses(
    (status = 200, description = "Metrics in the Prometheus text format.", body = String, content_type = "text/plain"),
))]
pub async fn metrics(State(state): State<AppState>) -> Response {
    let body = state.metrics.render();
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], body).into_response()
}
