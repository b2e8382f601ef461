//! The HTTP API: routes, shared state and the tower layers around them. Each feature's
//! handlers live in its folder under [`crate::features`]; the route lists below are where they
//! are mounted.

pub(crate) mod admission;
mod attached;
pub mod auth;
mod connections;
mod docs;
pub mod error;
#[doc(hidden)]
pub mod fuzzing;
mod head_errors;
mod health;
pub(crate) mod integers;
pub(crate) mod json;
pub(crate) mod middleware;
pub(crate) mod query;
pub(crate) mod score;
pub mod settings;
mod verifiers;

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use metrics_exporter_prometheus::PrometheusHandle;
use serde_json::Value;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use self::settings::ServerConfig;
use crate::engine::Engine;
use crate::http::auth::ApiKeys;
use crate::registry::Registry;
pub use attached::Attached;
pub use connections::{ConnectionLimits, serve};
pub use error::{ApiError, ErrorBody};
pub use score::{ScoreRequest, ScoreResponse};
pub use verifiers::{VerifierList, catalogue as verifier_catalogue};

/// Where the server is in its life, as `/readyz` reports it.
#[derive(Debug, Default)]
pub struct Readiness(AtomicU8);

const STARTING: u8 = 0;
const READY: u8 = 1;
const DRAINING: u8 = 2;

impl Readiness {
    /// Marks the server ready for traffic.
    pub fn set_ready(&self) {
        let _ = self.0.compare_exchange(STARTING, READY, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Marks the server as shutting down; `/readyz` answers 503 from now on.
    pub fn set_draining(&self) {
        self.0.store(DRAINING, Ordering::SeqCst);
    }

    fn state(&self) -> u8 {
        self.0.load(Ordering::SeqCst)
    }

    /// True until the server is ready.
    pub fn is_starting(&self) -> bool {
        self.state() == STARTING
    }

    /// True while draining.
    pub fn is_draining(&self) -> bool {
        self.state() == DRAINING
    }
}

/// What every handler can reach.
#[derive(Debug, Clone)]
pub struct AppState {
    pub engine: Arc<Engine>,
    pub readiness: Arc<Readiness>,
    pub keys: Arc<ApiKeys>,
    pub metrics: PrometheusHandle,
    pub limits: Limits,
    /// The features' own handles (the job store, the noise layer, ...), each attached by the
    /// server as it starts.
    pub features: Attached,
}

/// Request limits from the server configuration.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub request_timeout: Duration,
    pub max_batch_items: usize,
    pub body_limit_bytes: usize,
    pub max_concurrent_requests: usize,
    /// Bytes of request bodies held at once.
    pub max_inflight_body_bytes: usize,
    /// Time a request's body has to arrive.
    pub body_read_timeout: Duration,
    /// Items being scored at once.
    pub max_inflight_items: usize,
    /// Trainer-facing requests that may wait for room at once.
    pub max_waiting_requests: usize,
    pub retry_after_secs: u32,
    pub max_upload_bytes: usize,
    /// Job uploads in progress at once, each holding one of these slots rather than a request
    /// slot while its body arrives.
    pub max_concurrent_uploads: usize,
}

impl Limits {
    /// The limits a server configuration sets; `max_upload_bytes` bounds a job upload and
    /// `max_concurrent_uploads` the uploads in progress at once.
    pub fn from_config(config: &ServerConfig, max_upload_bytes: usize, max_concurrent_uploads: usize) -> Limits {
        Limits {
            request_timeout: Duration::from_millis(config.request_timeout_ms),
            max_batch_items: config.max_batch_items,
            body_limit_bytes: config.body_limit_bytes,
            max_concurrent_requests: config.max_concurrent_requests,
            max_inflight_body_bytes: config.max_inflight_body_bytes,
            body_read_timeout: Duration::from_millis(config.body_read_timeout_ms),
            max_inflight_items: config.max_inflight_items,
            max_waiting_requests: config.max_waiting_requests,
            retry_after_secs: config.retry_after_secs,
            max_upload_bytes,
            max_concurrent_uploads,
        }
    }
}

/// The routes the server mounts, by how they are admitted: each feature hands in its own.
pub struct Routes {
    /// `/v1` routes: authenticated when keys are configured, and shed under load.
    pub general: OpenApiRouter<AppState>,
    /// Trainer-facing routes, which speak a trainer's own protocol: authenticated like `/v1`, and
    /// held until there is room instead of shed ([`middleware::hold_until_room`]), since trainers
    /// retry blindly or drop the reward. Every adapter route for a trainer belongs here.
    pub trainer: OpenApiRouter<AppState>,
    /// Job uploads, whose body limit is `jobs.max_upload_bytes`.
    pub upload: OpenApiRouter<AppState>,
    /// Pages for people (the console): open like the probes, and not in the OpenAPI document.
    pub pages: Router<AppState>,
}

impl std::fmt::Debug for Routes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Routes").finish_non_exhaustive()
    }
}

/// The scoring routes this layer serves itself: `/v1/score`, a verifier's own route, and the
/// verifier list.
pub fn scoring_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(score::score))
        .routes(routes!(score::score_with_verifier))
        .routes(routes!(verifiers::list_verifiers))
}

/// Probes and metrics: always open, never shed.
fn open_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health::healthz))
        .routes(routes!(health::readyz))
        .routes(routes!(health::metrics))
}

/// The OpenAPI document of a server with these routes and this registry, as served at
/// `/openapi.json`.
pub fn openapi_document(routes: Routes, registry: &Registry) -> Value {
    let (_, general) = routes.general.split_for_parts();
    let (_, trainer) = routes.trainer.split_for_parts();
    let (_, upload) = routes.upload.split_for_parts();
    let (_, open) = open_routes().split_for_parts();
    let mut document = docs::finish(
        docs::base_document().merge_from(general).merge_from(trainer).merge_from(upload).merge_from(open),
        registry,
    );
    auth::document_access(&mut document);
    document
}

/// The complete application: `routes`, the OpenAPI `document` and reference page, and every
/// layer.
pub fn app(state: AppState, routes: Routes, document: Value) -> Router {
    let limits = state.limits;
    let gate = middleware::RequestGate::new(
        limits.max_concurrent_requests,
        limits.max_waiting_requests,
        limits.request_timeout,
        limits.retry_after_secs,
    );
    let bodies = admission::BodyAdmission::new(
        limits.max_inflight_body_bytes,
        limits.body_limit_bytes,
        limits.body_read_timeout,
        limits.retry_after_secs,
    );
    let read_body_first = axum::middleware::from_fn_with_state(bodies.clone(), admission::read_body_first);
    // Uploads stream their body into the database in small transactions: they are not read
    // whole first, but timed as they arrive, and they take an upload slot of their own, so
    // that uploads (slow ones included) never hold the slots that scoring needs.
    let uploads =
        middleware::RequestGate::new(limits.max_concurrent_uploads, 0, limits.request_timeout, limits.retry_after_secs);
    let upload = Router::from(routes.upload)
        .layer(axum::middleware::from_fn_with_state(limits.max_upload_bytes, middleware::attach_body_limit))
        .layer(DefaultBodyLimit::max(limits.max_upload_bytes))
        .layer(axum::middleware::from_fn_with_state(uploads, middleware::shed_uploads_when_full))
        .layer(axum::middleware::from_fn(middleware::charge_quota))
        .layer(axum::middleware::from_fn_with_state(bodies.clone(), admission::time_streamed_body));
    let item_budget = admission::ItemAdmission::new(limits.max_inflight_items, limits.retry_after_secs);
    let early = middleware::EarlyShed { gate: gate.clone(), items: item_budget.clone(), bodies: bodies.clone() };
    let items = axum::middleware::from_fn_with_state(item_budget, admission::admit_items);
    let general = Router::from(routes.general)
        .layer(items.clone())
        .layer(axum::middleware::from_fn_with_state(gate.clone(), middleware::shed_when_full))
        .layer(axum::middleware::from_fn(middleware::charge_quota))
        .layer(read_body_first.clone())
        .layer(axum::middleware::from_fn_with_state(early, middleware::shed_before_the_body));
    let trainer = Router::from(routes.trainer)
        .layer(items)
        .layer(axum::middleware::from_fn_with_state(gate, middleware::hold_until_room))
        .layer(axum::middleware::from_fn(middleware::charge_quota))
        .layer(read_body_first);
    let v1 = general
        .merge(trainer)
        .merge(upload)
        .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::guard_v1));
    Router::new()
        .merge(v1)
        .merge(Router::from(open_routes()))
        .merge(routes.pages)
        .merge(docs::swagger_ui(document))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
        .layer(
            ServiceBuilder::new()
                .layer(axum::middleware::from_fn(error::json_error_bodies))
                .layer(axum::middleware::from_fn(middleware::replace_unacceptable_request_id))
                .layer(SetRequestIdLayer::x_request_id(middleware::RandomRequestId))
                .layer(PropagateRequestIdLayer::x_request_id())
                // Failures are logged where they arise (`ApiError::internal`, panics); a 503
                // refusal under load is not a failure to log once per request.
                .layer(TraceLayer::new_for_http().on_failure(()))
                .layer(CatchPanicLayer::custom(middleware::panic_response))
                .layer(axum::middleware::from_fn(middleware::record_http_metrics))
                .layer(axum::middleware::from_fn_with_state(limits.body_limit_bytes, middleware::attach_body_limit))
                .layer(DefaultBodyLimit::max(limits.body_limit_bytes)),
        )
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::no_route(format!("{method} {}", uri.path()))
}

async fn method_not_allowed() -> ApiError {
    ApiError::method_not_allowed()
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt as _;

    use super::*;
    use crate::config::Config;

    fn state(readiness: Arc<Readiness>) -> AppState {
        AppState {
            engine: Arc::new(Engine::new(Arc::new(Registry::builtin()))),
            readiness,
            keys: Arc::new(ApiKeys::default()),
            metrics: crate::telemetry::prometheus(),
            limits: Limits::from_config(&Config::default().server, 1 << 20, 4),
            features: Attached::default(),
        }
    }

    async fn call(app: &Router, method: &str, path: &str) -> (StatusCode, Value, Option<String>) {
        let body = if method == "POST" { Body::from(r#"{"items": []}"#) } else { Body::empty() };
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header("content-type", "application/json")
            .body(body)
            .unwrap_or_else(|e| panic!("{e}"));
        let response = app.clone().oneshot(request).await.unwrap_or_else(|e| match e {});
        let status = response.status();
        let retry = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap_or_default();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), retry)
    }

    #[tokio::test]
    async fn readiness_follows_the_life_cycle() {
        let readiness = Arc::new(Readiness::default());
        let app = crate::routes::app(state(Arc::clone(&readiness)));

        let (status, body, _) = call(&app, "GET", "/readyz").await;
        assert_eq!((status, body["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("starting")));
        let (status, body, retry) = call(&app, "POST", "/v1/score").await;
        assert_eq!((status, body["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("starting")));
        assert_eq!(retry.as_deref(), Some("1"));
        let (status, _, _) = call(&app, "GET", "/healthz").await;
        assert_eq!(status, StatusCode::OK, "liveness does not wait for readiness");

        readiness.set_ready();
        let (status, _, _) = call(&app, "GET", "/readyz").await;
        assert_eq!(status, StatusCode::OK);
        let (status, body, _) = call(&app, "POST", "/v1/score").await;
        assert_eq!((status, body), (StatusCode::OK, serde_json::json!({"results": []})));

        readiness.set_draining();
        let (status, body, _) = call(&app, "GET", "/readyz").await;
        assert_eq!((status, body["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("draining")));
        let (status, _, _) = call(&app, "POST", "/v1/score").await;
        assert_eq!(status, StatusCode::OK, "requests still arriving while draining are served");
    }
}
