//! Request-level layers: API keys, request ids, HTTP metrics, panics.

use std::any::Any;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Response, header};
use axum::middleware::Next;
use axum::response::IntoResponse;
use tower_http::request_id::{MakeRequestId, RequestId};

use super::AppState;
use super::error::{ApiError, BodyLimit};

/// Guards the `/v1` routes: 503 until the server is ready, then `Authorization: Bearer <key>`
/// when keys are configured.
pub async fn guard_v1(State(state): State<AppState>, request: Request, next: Next) -> Response<Body> {
    if state.readiness.is_starting() {
        return ApiError::Starting { retry_after_secs: state.limits.retry_after_secs }.into_response();
    }
    if state.keys.enabled() {
        let presented = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .map(str::trim);
        if !presented.is_some_and(|key| state.keys.accepts(key)) {
            metrics::counter!("referee_auth_failures_total").increment(1);
            return ApiError::Unauthorized.into_response();
        }
    }
    next.run(request).await
}

/// Makes the configured body limit visible to the JSON extractor's error message.
pub async fn attach_body_limit(State(limit): State<usize>, mut request: Request, next: Next) -> Response<Body> {
    request.extensions_mut().insert(BodyLimit(limit));
    next.run(request).await
}

/// Request ids of 16 random hex digits, unless the client sent `x-request-id`.
#[derive(Debug, Clone, Copy)]
pub struct RandomRequestId;

impl MakeRequestId for RandomRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let id = format!("{:016x}", rand::random::<u64>());
        HeaderValue::from_str(&id).ok().map(RequestId::new)
    }
}

/// Counts requests by route and status, times them, and tracks how many are in flight.
pub async fn record_http_metrics(request: Request, next: Next) -> Response<Body> {
    let route =
        request.extensions().get::<MatchedPath>().map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let method = request.method().as_str().to_owned();
    let gauge = metrics::gauge!("referee_http_requests_in_flight");
    gauge.increment(1.0);
    let started = Instant::now();
    let response = next.run(request).await;
    gauge.decrement(1.0);
    let status = response.status().as_u16().to_string();
    metrics::counter!("referee_http_requests_total", "route" => route.clone(), "method" => method, "status" => status)
        .increment(1);
    metrics::histogram!("referee_http_request_duration_seconds", "route" => route)
        .record(started.elapsed().as_secs_f64());
    response
}

/// Turns a handler panic into a 500 with the usual error body; the panic is logged.
pub fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response<Body> {
    let detail = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "unknown panic".to_owned());
    ApiError::Internal(format!("handler panicked: {detail}")).into_response()
}
