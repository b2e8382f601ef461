//! The HTTP API: routes, shared state and the tower layers around them.

mod docs;
pub mod error;
mod health;
mod middleware;
mod score;
mod verifiers;

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use axum::Router;
use axum::error_handling::HandleErrorLayer;
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
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::ApiKeys;
use crate::config::ServerConfig;
use crate::registry::Registry;
use crate::scoring::Engine;
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
}

/// Request limits from the server configuration.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub request_timeout: Duration,
    pub max_batch_items: usize,
    pub body_limit_bytes: usize,
    pub max_concurrent_requests: usize,
    pub retry_after_secs: u32,
}

impl Limits {
    /// The limits a server configuration sets.
    pub fn from_config(config: &ServerConfig) -> Limits {
        Limits {
            request_timeout: Duration::from_millis(config.request_timeout_ms),
            max_batch_items: config.max_batch_items,
            body_limit_bytes: config.body_limit_bytes,
            max_concurrent_requests: config.max_concurrent_requests,
            retry_after_secs: config.retry_after_secs,
        }
    }
}

/// The `/v1` routes: authenticated when keys are configured, and load-limited.
fn v1_routes() -> OpenApiRouter<AppState> {
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

/// The OpenAPI document of a server with this registry, as served at `/openapi.json`.
pub fn openapi_document(registry: &Registry) -> Value {
    let (_, v1) = v1_routes().split_for_parts();
    let (_, open) = open_routes().split_for_parts();
    docs::finish(docs::base_document().merge_from(v1).merge_from(open), registry)
}

/// [`openapi_document`] as the pretty-printed JSON checked in at `openapi/openapi.json`.
pub fn openapi_json(registry: &Registry) -> String {
    serde_json::to_string_pretty(&openapi_document(registry)).unwrap_or_default()
}

/// The complete application: routes, OpenAPI document and reference page, and every layer.
pub fn app(state: AppState) -> Router {
    let limits = state.limits;
    let document = openapi_document(state.engine.registry());
    let overload = ServiceBuilder::new()
        .layer(HandleErrorLayer::new(move |_: tower::BoxError| async move {
            metrics::counter!("referee_requests_shed_total").increment(1);
            ApiError::Overloaded { retry_after_secs: limits.retry_after_secs }
        }))
        .load_shed()
        .concurrency_limit(limits.max_concurrent_requests);
    let v1 = Router::from(v1_routes())
        .layer(axum::middleware::from_fn_with_state(state.clone(), middleware::guard_v1))
        .layer(overload);
    Router::new()
        .merge(v1)
        .merge(Router::from(open_routes()))
        .merge(SwaggerUi::new("/docs").external_url_unchecked("/openapi.json", document))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
        .layer(
            ServiceBuilder::new()
                .layer(SetRequestIdLayer::x_request_id(middleware::RandomRequestId))
                .layer(PropagateRequestIdLayer::x_request_id())
                .layer(TraceLayer::new_for_http())
                .layer(CatchPanicLayer::custom(middleware::panic_response))
                .layer(axum::middleware::from_fn(middleware::record_http_metrics))
                .layer(axum::middleware::from_fn_with_state(limits.body_limit_bytes, middleware::attach_body_limit))
                .layer(DefaultBodyLimit::max(limits.body_limit_bytes)),
        )
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::NotFound(format!("{method} {}", uri.path()))
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}
