//! Request-level layers: API keys, request ids, HTTP metrics, panics, and the room for
//! requests in flight (shed for the general API, waited for on trainer-facing routes).

use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, Response, header};
use axum::middleware::Next;
use axum::response::IntoResponse;
use referee_core::{Busy, BusyStatus};
use tokio::sync::Semaphore;
use tower_http::request_id::{MakeRequestId, RequestId};

use super::AppState;
use super::admission::HoldUntil;
use super::error::{ApiError, BodyLimit, Category};
use crate::http::auth::{Caller, Charge};

/// Guards the `/v1` and trainer routes: 503 until the server is ready; then, when keys are
/// configured, `Authorization: Bearer <key>` (401), the role the matched route needs by
/// [`crate::http::auth::access`] (403) and the key's request rate (429), all from the headers, before
/// the body is read. The key goes into the request's extensions as a [`Caller`], for the quota
/// ([`charge_quota`]) and for handlers that act per key.
pub async fn guard_v1(State(state): State<AppState>, mut request: Request, next: Next) -> Response<Body> {
    if state.readiness.is_starting() {
        return ApiError::starting(state.limits.retry_after_secs).into_response();
    }
    if !state.keys.enabled() {
        return next.run(request).await;
    }
    match admit(&state, &request) {
        Ok(caller) => {
            request.extensions_mut().insert(caller);
            next.run(request).await
        }
        Err((reason, key, error)) => {
            count_refusal(reason, key);
            if reason == "unauthorized" {
                metrics::counter!("referee_auth_failures_total").increment(1);
            }
            error.into_response()
        }
    }
}

/// A refusal by [`admit`] or [`charge_quota`]: the `reason` and `key` (name) labels of
/// `referee_auth_refusals_total`, and the error answered.
type Refusal = (&'static str, String, ApiError);

fn count_refusal(reason: &'static str, key: String) {
    metrics::counter!("referee_auth_refusals_total", "reason" => reason, "key" => key).increment(1);
}

fn route_of(request: &Request) -> String {
    request.extensions().get::<MatchedPath>().map_or(request.uri().path(), MatchedPath::as_str).to_owned()
}

/// Authenticates and authorises a request from its headers.
fn admit(state: &AppState, request: &Request) -> Result<Caller, Refusal> {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(crate::http::auth::bearer_token);
    let Some(caller) = presented.and_then(|key| state.keys.authenticate(key)) else {
        return Err(("unauthorized", String::new(), ApiError::unauthorized()));
    };
    let path = route_of(request);
    let access = crate::http::auth::access(request.method().as_str(), &path);
    if !caller.has(access.role) {
        tracing::info!(key = caller.name(), role = %access.role, route = %path, "refused: the key lacks the role");
        let route = format!("{} {path}", request.method());
        return Err(("forbidden", caller.name().to_owned(), ApiError::lacks_role(access.role, &route)));
    }
    if let Some(rate) = caller.rate()
        && let Err(retry_after_secs) = rate.try_take(Instant::now())
    {
        return Err(("rate_limited", caller.name().to_owned(), ApiError::rate_limited(retry_after_secs)));
    }
    Ok(caller)
}

/// Charges a request's items to its key's daily quota (429 `quota_exceeded` when they do not
/// fit), and gives them back when the request is not answered with success. It runs once the
/// body is in ([`super::admission::read_body_first`]), so counting reads no byte from the
/// client; an upload is charged by its handler as it stores items, and is refused here only
/// when the day's quota is already spent.
pub async fn charge_quota(request: Request, next: Next) -> Response<Body> {
    let Some(caller) = request.extensions().get::<Caller>().cloned() else {
        return next.run(request).await;
    };
    let Some(quota) = caller.quota() else {
        return next.run(request).await;
    };
    let access = crate::http::auth::access(request.method().as_str(), &route_of(&request));
    if access.charge == Charge::Free {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let (items, body) = match access.charge.counted_field() {
        Some(field) => {
            // The body was read whole before this layer: collecting it again copies nothing.
            let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
            let items = super::json::count_items(&bytes, field).ok().flatten().unwrap_or(0);
            (u64::try_from(items).unwrap_or(u64::MAX), Body::from(bytes))
        }
        None => (0, body),
    };
    let charged = match quota.try_charge(items, crate::http::auth::unix_secs()).await {
        Ok(charged) => charged,
        Err(refusal) => {
            tracing::info!(key = caller.name(), limit = refusal.limit, "refused: the key's daily quota is spent");
            count_refusal("quota_exceeded", caller.name().to_owned());
            let error = ApiError::quota_exceeded(refusal.limit, refusal.retry_after_secs);
            return error.into_response();
        }
    };
    let response = next.run(Request::from_parts(parts, body)).await;
    if !response.status().is_success() {
        quota.refund(charged).await;
    }
    response
}

/// Room for requests in flight, shared by every load-limited route: `server.max_concurrent_requests`
/// permits. General API requests take one or are shed at once ([`shed_when_full`]); trainer
/// requests wait for one ([`hold_until_room`]), at most `server.max_waiting_requests` of them
/// at a time and each no longer than the request deadline.
#[derive(Debug, Clone)]
pub struct RequestGate {
    permits: Arc<Semaphore>,
    permits_total: usize,
    waiting: Arc<AtomicUsize>,
    max_waiting: usize,
    wait: Duration,
    retry_after_secs: u32,
}

impl RequestGate {
    /// Whether every request slot is taken now.
    pub fn is_full(&self) -> bool {
        self.permits.available_permits() == 0
    }

    /// A gate of `max_concurrent` permits whose waiters give up after `wait`.
    pub fn new(max_concurrent: usize, max_waiting: usize, wait: Duration, retry_after_secs: u32) -> RequestGate {
        let permits_total = max_concurrent.min(Semaphore::MAX_PERMITS);
        RequestGate {
            permits: Arc::new(Semaphore::new(permits_total)),
            permits_total,
            waiting: Arc::default(),
            max_waiting,
            wait,
            retry_after_secs,
        }
    }

    fn busy(&self, message: String) -> ApiError {
        ApiError::from(Busy { status: BusyStatus::Unavailable, retry_after_secs: self.retry_after_secs, message })
    }
}

/// One place among the waiting requests, given back when dropped.
struct WaitingPlace(Arc<AtomicUsize>);

impl WaitingPlace {
    fn take(gate: &RequestGate) -> Option<WaitingPlace> {
        gate.waiting
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < gate.max_waiting).then_some(n + 1))
            .ok()
            .map(|_| WaitingPlace(Arc::clone(&gate.waiting)))
    }
}

impl Drop for WaitingPlace {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The general API's load shedding: a request that finds no room is refused at once with 503
/// and `Retry-After` (code `overloaded`).
pub async fn shed_when_full(State(gate): State<RequestGate>, request: Request, next: Next) -> Response<Body> {
    let Ok(_permit) = Arc::clone(&gate.permits).try_acquire_owned() else {
        metrics::counter!("referee_requests_shed_total").increment(1);
        super::admission::note_refusal("concurrency");
        return ApiError::overloaded(gate.retry_after_secs).into_response();
    };
    next.run(request).await
}

/// Job uploads' own room (`jobs.max_concurrent_uploads` slots of a gate of their own): an upload
/// that finds none is refused at once with 503 `overloaded` and `Retry-After`.
pub async fn shed_uploads_when_full(State(gate): State<RequestGate>, request: Request, next: Next) -> Response<Body> {
    let Ok(_permit) = Arc::clone(&gate.permits).try_acquire_owned() else {
        super::admission::note_refusal("uploads");
        let status = BusyStatus::Unavailable;
        let retry_after_secs = gate.retry_after_secs;
        let message = format!(
            "{} job uploads are in progress (jobs.max_concurrent_uploads); retry after {retry_after_secs} s",
            gate.permits_total
        );
        return ApiError::new(Category::Busy { status, retry_after_secs }, "overloaded", message).into_response();
    };
    next.run(request).await
}

/// What [`shed_before_the_body`] looks at: the request slots, the items' budget, and the body
/// limits for draining a refused body.
#[derive(Debug, Clone)]
pub struct EarlyShed {
    pub gate: RequestGate,
    pub items: super::admission::ItemAdmission,
    pub bodies: super::admission::BodyAdmission,
}

/// Bodies of at most this many bytes are let through to the exact checks even when the scoring
/// budget is spent: a batch of no items is answered without taking any of it.
const EMPTY_BATCH_BYTES: usize = 64;

/// The general API under overload: when every request slot is taken, or a scoring request meets
/// an items' budget with nothing left, the request is refused with 503 `overloaded` and
/// `Retry-After` from its headers, its body drained unread (or the connection closed), before
/// the body is read, counted and parsed. Under overload most requests are refused, and what
/// refusing one after reading its body costs (copying it in, a pass to count its items) is
/// what keeps the cores from the admitted ones. The exact checks after the body is in
/// ([`super::admission::read_body_first`], the gate, [`super::admission::admit_items`]) still decide every request this lets by.
pub async fn shed_before_the_body(State(shed): State<EarlyShed>, request: Request, next: Next) -> Response<Body> {
    let route = request.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned());
    let access = crate::http::auth::access(request.method().as_str(), route.as_deref().unwrap_or(""));
    let declared = super::admission::content_length(request.headers());
    let scoring = access.charge.counted_field().is_some();
    let reason = if shed.gate.is_full() {
        "concurrency"
    } else if scoring && shed.items.is_exhausted() && declared.is_none_or(|length| length > EMPTY_BATCH_BYTES) {
        "items"
    } else {
        return next.run(request).await;
    };
    super::admission::note_refusal(reason);
    metrics::counter!("referee_requests_shed_early_total").increment(1);
    let (parts, body) = request.into_parts();
    shed.bodies.refuse_unread(&parts.headers, body)
}

/// Trainer-facing routes: a request that finds no room waits for it, first come first served,
/// until the request deadline; only when `server.max_waiting_requests` already wait, or the
/// deadline passes first, is it refused with 503 and `Retry-After` (code `busy`). Trainers such
/// as OpenRLHF retry a few times without reading `Retry-After` and then drop the reward, so
/// holding a request is what keeps its reward.
pub async fn hold_until_room(State(gate): State<RequestGate>, mut request: Request, next: Next) -> Response<Body> {
    let until = Instant::now() + gate.wait;
    request.extensions_mut().insert(HoldUntil(until));
    let permit = match Arc::clone(&gate.permits).try_acquire_owned() {
        Ok(permit) => permit,
        Err(_) => {
            let Some(_place) = WaitingPlace::take(&gate) else {
                metrics::counter!("referee_trainer_requests_refused_total", "reason" => "waiting_full").increment(1);
                super::admission::note_refusal("waiting_full");
                return gate
                    .busy(format!("{} requests already wait for room (server.max_waiting_requests)", gate.max_waiting))
                    .into_response();
            };
            let gauge = metrics::gauge!("referee_trainer_requests_waiting");
            gauge.increment(1.0);
            let acquired = tokio::time::timeout_at(until.into(), Arc::clone(&gate.permits).acquire_owned()).await;
            gauge.decrement(1.0);
            match acquired {
                Ok(Ok(permit)) => permit,
                // Timed out, or the semaphore was closed (it never is).
                Ok(Err(_)) | Err(_) => {
                    metrics::counter!("referee_trainer_requests_refused_total", "reason" => "deadline").increment(1);
                    super::admission::note_refusal("deadline");
                    return gate.busy("no room came within the request deadline".to_owned()).into_response();
                }
            }
        }
    };
    let response = next.run(request).await;
    drop(permit);
    response
}

/// Makes the configured body limit visible to the JSON extractor's error message.
pub async fn attach_body_limit(State(limit): State<usize>, mut request: Request, next: Next) -> Response<Body> {
    request.extensions_mut().insert(BodyLimit(limit));
    next.run(request).await
}

/// The longest `x-request-id` a client may send; longer ones are replaced.
pub const MAX_REQUEST_ID_BYTES: usize = 128;

/// True for a client request id the server keeps: 1 to [`MAX_REQUEST_ID_BYTES`] bytes of ASCII
/// letters, digits and `-_.:/+=@` (UUIDs, hex and base64 ids, W3C trace ids, `run/step:7`).
pub fn is_acceptable_request_id(id: &[u8]) -> bool {
    !id.is_empty()
        && id.len() <= MAX_REQUEST_ID_BYTES
        && id.iter().all(|b| b.is_ascii_alphanumeric() || b"-_.:/+=@".contains(b))
}

/// Removes a client `x-request-id` that is too long, not of the accepted characters, or sent
/// more than once, so that the id layer generates one in its place: the id is copied into every
/// scoring-log row and into the trace, so its size must be bounded before anything keeps it.
/// The request itself goes on; the response's `x-request-id` names the id actually used.
pub async fn replace_unacceptable_request_id(mut request: Request, next: Next) -> Response<Body> {
    let headers = request.headers_mut();
    let mut sent = headers.get_all("x-request-id").iter();
    let acceptable = match (sent.next(), sent.next()) {
        (None, _) => true,
        (Some(id), None) => is_acceptable_request_id(id.as_bytes()),
        (Some(_), Some(_)) => false,
    };
    if !acceptable {
        headers.remove("x-request-id");
        metrics::counter!("referee_request_ids_replaced_total").increment(1);
    }
    next.run(request).await
}

/// Request ids of 16 random hex digits, unless the client sent an acceptable `x-request-id`.
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
    ApiError::internal(format!("handler panicked: {detail}")).into_response()
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::http::StatusCode;
    use axum::routing::post;
    use tower::ServiceExt as _;

    use super::*;

    fn app(gate: &RequestGate, trainer: bool) -> Router {
        let route = Router::new().route("/t", post(|| async { "scored" }));
        if trainer {
            route.layer(axum::middleware::from_fn_with_state(gate.clone(), hold_until_room))
        } else {
            route.layer(axum::middleware::from_fn_with_state(gate.clone(), shed_when_full))
        }
    }

    async fn call(app: Router) -> (StatusCode, Option<String>, String) {
        let request = axum::http::Request::post("/t").body(Body::empty()).unwrap_or_else(|e| panic!("{e}"));
        let response = app.oneshot(request).await.unwrap_or_else(|e| match e {});
        let retry = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap_or_default();
        (status, retry, String::from_utf8_lossy(&bytes).into_owned())
    }

    fn full(gate: &RequestGate) -> tokio::sync::OwnedSemaphorePermit {
        Arc::clone(&gate.permits).try_acquire_owned().unwrap_or_else(|e| panic!("{e}"))
    }

    #[tokio::test]
    async fn the_general_api_is_shed_when_full() {
        let gate = RequestGate::new(1, 8, Duration::from_secs(600), 3);
        let held = full(&gate);
        let (status, retry, body) = call(app(&gate, false)).await;
        assert_eq!((status, retry.as_deref()), (StatusCode::SERVICE_UNAVAILABLE, Some("3")));
        assert!(body.contains("\"overloaded\""), "{body}");
        drop(held);
        assert_eq!(call(app(&gate, false)).await.0, StatusCode::OK);
    }

    #[tokio::test]
    async fn a_trainer_request_waits_for_room() {
        let gate = RequestGate::new(1, 8, Duration::from_secs(600), 3);
        let held = full(&gate);
        let waiting = tokio::spawn(call(app(&gate, true)));
        while gate.waiting.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
        assert!(!waiting.is_finished());
        drop(held);
        let (status, _, body) = waiting.await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((status, body.as_str()), (StatusCode::OK, "scored"));
        assert_eq!(gate.waiting.load(Ordering::SeqCst), 0, "the waiting place is given back");
    }

    #[tokio::test]
    async fn a_trainer_request_is_refused_past_its_deadline_or_the_waiting_cap() {
        let gate = RequestGate::new(1, 8, Duration::from_millis(20), 3);
        let held = full(&gate);
        let (status, retry, body) = call(app(&gate, true)).await;
        assert_eq!((status, retry.as_deref()), (StatusCode::SERVICE_UNAVAILABLE, Some("3")));
        assert!(body.contains("\"busy\"") && body.contains("deadline"), "{body}");

        let gate = RequestGate { max_waiting: 0, ..gate };
        let (status, retry, body) = call(app(&gate, true)).await;
        assert_eq!((status, retry.as_deref()), (StatusCode::SERVICE_UNAVAILABLE, Some("3")));
        assert!(body.contains("max_waiting_requests"), "{body}");
        drop(held);
        assert_eq!(call(app(&gate, true)).await.0, StatusCode::OK);
    }
}
