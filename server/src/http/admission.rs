//! Admission of a request's body, before any scoring slot is taken: the body must fit the
//! budget of bodies held at once (`server.max_inflight_body_bytes`), taken as its bytes arrive
//! (a declared `Content-Length` takes nothing until the bytes come), and it must arrive within
//! `server.body_read_timeout_ms`. Only then does the request meet the request gate
//! ([`super::middleware::RequestGate`]), so a slow client holds a connection and the few
//! bytes it sent, never a slot. Job uploads, which stream their body instead of reading it
//! first, are timed by [`time_streamed_body`].
//!
//! A request refused before its body is read whole has the rest drained in the background (up
//! to the body limit, within the body timeout), so the client reads its 503 and `Retry-After`
//! instead of a connection reset while it is still sending.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt as _;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::{ApiError, ErrorBody};

/// The budget is kept in units of this many bytes, so that a permit count covers gigabytes.
const UNIT: usize = 1024;

/// The body budget and timeout shared by the routes that read whole bodies.
#[derive(Debug, Clone)]
pub struct BodyAdmission {
    budget: Arc<Semaphore>,
    body_limit: usize,
    read_timeout: Duration,
    retry_after_secs: u32,
}

impl BodyAdmission {
    /// A budget of `budget_bytes` (raised to `body_limit`, so that any body within the limit can
    /// be admitted when nothing else is held).
    pub fn new(budget_bytes: usize, body_limit: usize, read_timeout: Duration, retry_after_secs: u32) -> Self {
        let units = budget_bytes.max(body_limit).div_ceil(UNIT).min(Semaphore::MAX_PERMITS);
        BodyAdmission { budget: Arc::new(Semaphore::new(units)), body_limit, read_timeout, retry_after_secs }
    }

    /// A 503 `overloaded` with `Retry-After` for a request whose body is not to be read: the
    /// body is drained in the background, so that the client, still sending, reads the refusal
    /// rather than a reset connection, or the connection is closed when it cannot be drained.
    pub(crate) fn refuse_unread(&self, headers: &HeaderMap, body: Body) -> Response {
        let refusal = ApiError::overloaded(self.retry_after_secs).into_response();
        if drains(headers, content_length(headers), self) {
            tokio::spawn(drain(body, self.body_limit, self.read_timeout));
            refusal
        } else {
            closing(refusal)
        }
    }

    /// Room for `bytes` more of body, or `None` when the budget has not that much left.
    fn reserve(&self, held: &mut Option<OwnedSemaphorePermit>, bytes: usize) -> bool {
        let units = u32::try_from(bytes.div_ceil(UNIT)).unwrap_or(u32::MAX);
        if units == 0 {
            return true;
        }
        match Arc::clone(&self.budget).try_acquire_many_owned(units) {
            Ok(permit) => {
                match held {
                    Some(held) => held.merge(permit),
                    None => *held = Some(permit),
                }
                true
            }
            Err(_) => false,
        }
    }
}

/// Reads the whole body of a request, within the body budget and timeout, before passing it
/// on; the budget is held until the response is produced.
///
/// The budget is taken as the body arrives, for the memory that holds it (the buffer's
/// capacity, which at most doubles what has arrived and never passes the declared length), not
/// for the length the client declares: a client that declares a large body and sends it slowly
/// holds no more budget than the bytes it has sent, so slow connections cannot squat the budget.
/// A body that outgrows what is left is refused then, with 503 `overloaded`.
pub async fn read_body_first(State(admission): State<BodyAdmission>, request: Request, next: Next) -> Response {
    let (parts, mut body) = request.into_parts();
    let declared = content_length(&parts.headers);
    if declared.is_some_and(|length| length > admission.body_limit) {
        return closing(ApiError::payload_too_large(admission.body_limit).into_response());
    }
    let mut held = None;
    let deadline = Instant::now() + admission.read_timeout;
    let mut collected: Vec<u8> = Vec::new();
    loop {
        let frame = match tokio::time::timeout_at(deadline.into(), body.frame()).await {
            Err(_) => return admission.timed_out(),
            Ok(None) => break,
            Ok(Some(Err(error))) => {
                return closing(ApiError::malformed_json(format!("cannot read the body: {error}")).into_response());
            }
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else { continue };
        let length = collected.len() + data.len();
        if length > admission.body_limit {
            return closing(ApiError::payload_too_large(admission.body_limit).into_response());
        }
        if length > collected.capacity() && !admission.grow(&mut held, &mut collected, length, declared) {
            note_refusal("body_budget");
            return admission.refuse_unread(&parts.headers, body);
        }
        collected.extend_from_slice(&data);
    }
    let response = next.run(Request::from_parts(parts, Body::from(Bytes::from(collected)))).await;
    drop(held);
    response
}

/// The least a body's buffer grows by: a body of a few bytes a second takes this much budget
/// at most, and a fast one is not copied once per frame.
const MIN_GROWTH: usize = 8 << 10;

impl BodyAdmission {
    /// Grows `buffer` to hold `needed` bytes, with budget for its new capacity: twice the old
    /// capacity (at least [`MIN_GROWTH`], at most the declared length), or what the budget has
    /// left when that is less, but never less than `needed`; false when not even that is left.
    fn grow(
        &self,
        held: &mut Option<OwnedSemaphorePermit>,
        buffer: &mut Vec<u8>,
        needed: usize,
        declared: Option<usize>,
    ) -> bool {
        // The budget is kept in whole units: what the units held so far cover is not taken twice.
        let covered = held.as_ref().map_or(0, |permit| permit.num_permits() * UNIT);
        let room = covered.saturating_add(self.budget.available_permits().saturating_mul(UNIT));
        let bound = declared.filter(|&length| length >= needed).unwrap_or(self.body_limit);
        let generous = buffer.capacity().saturating_mul(2).max(MIN_GROWTH).min(bound).min(room).max(needed);
        // Another body may take what was left meanwhile: then only what is needed is tried.
        for capacity in [generous, needed] {
            let covered = held.as_ref().map_or(0, |permit| permit.num_permits() * UNIT);
            if self.reserve(held, capacity.saturating_sub(covered)) {
                buffer.reserve_exact(capacity - buffer.len());
                return true;
            }
        }
        false
    }

    /// The 408 for a body that did not arrive in time, counted; the connection is closed.
    fn timed_out(&self) -> Response {
        metrics::counter!("referee_request_body_timeouts_total").increment(1);
        let message = format!(
            "the body did not arrive within {} ms (server.body_read_timeout_ms)",
            self.read_timeout.as_millis()
        );
        closing(error_response(StatusCode::REQUEST_TIMEOUT, "request_timeout", message))
    }
}

/// Times a body that its handler streams instead of reading it first (a job upload, stored as
/// it arrives): it has `server.body_read_timeout_ms` from the head, and as much again for each
/// `server.body_limit_bytes` it has sent, so an upload larger than any other body has time in
/// proportion to its size (by default 30 s per 64 MiB) while a trickle is cut off as a slow
/// scoring body is. The handler then sees its body fail and undoes what it stored; the client is
/// answered 408 `request_timeout` (counted in `referee_request_body_timeouts_total`) and the
/// connection is closed.
pub async fn time_streamed_body(State(admission): State<BodyAdmission>, request: Request, next: Next) -> Response {
    let expired = Arc::new(AtomicBool::new(false));
    let timed = DeadlineBody {
        started: tokio::time::Instant::now(),
        timer: Box::pin(tokio::time::sleep(admission.read_timeout)),
        span: admission.body_limit.max(1),
        timeout: admission.read_timeout,
        received: 0,
        expired: Arc::clone(&expired),
    };
    let request = request.map(|inner| Body::new(TimedBody { inner, timed }));
    let response = next.run(request).await;
    if expired.load(Ordering::SeqCst) {
        return admission.timed_out();
    }
    response
}

/// The deadline of a streamed body, extended as it arrives ([`time_streamed_body`]).
struct DeadlineBody {
    started: tokio::time::Instant,
    timer: std::pin::Pin<Box<tokio::time::Sleep>>,
    /// Bytes that earn another `timeout`.
    span: usize,
    timeout: Duration,
    received: usize,
    expired: Arc<AtomicBool>,
}

impl DeadlineBody {
    fn arrived(&mut self, bytes: usize) {
        self.received = self.received.saturating_add(bytes);
        let spans = u32::try_from(1 + self.received / self.span).unwrap_or(u32::MAX);
        let deadline = self.timeout.checked_mul(spans).and_then(|allowed| self.started.checked_add(allowed));
        // A deadline too far to represent is as good as none: the body limit still ends the body.
        let deadline = deadline.unwrap_or_else(|| self.started + Duration::from_secs(86_400 * 365));
        if deadline > self.timer.deadline() {
            self.timer.as_mut().reset(deadline);
        }
    }
}

/// A body under a [`DeadlineBody`]: its frames pass through until the deadline, then it fails.
struct TimedBody {
    inner: Body,
    timed: DeadlineBody,
}

/// The error a [`TimedBody`] fails with at its deadline.
#[derive(Debug, thiserror::Error)]
#[error("the body did not arrive in time")]
struct BodyTimedOut;

impl hyper::body::Body for TimedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        use std::future::Future as _;
        use std::task::Poll;
        let this = self.get_mut();
        if this.timed.expired.load(Ordering::SeqCst) {
            return Poll::Ready(Some(Err(axum::Error::new(BodyTimedOut))));
        }
        match hyper::body::Body::poll_frame(std::pin::Pin::new(&mut this.inner), cx) {
            Poll::Ready(Some(Ok(frame))) => {
                this.timed.arrived(frame.data_ref().map_or(0, Bytes::len));
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Pending => match this.timed.timer.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    this.timed.expired.store(true, Ordering::SeqCst);
                    Poll::Ready(Some(Err(axum::Error::new(BodyTimedOut))))
                }
                Poll::Pending => Poll::Pending,
            },
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error))),
            Poll::Ready(None) => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        hyper::body::Body::is_end_stream(&self.inner)
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        hyper::body::Body::size_hint(&self.inner)
    }
}

/// The budget of items being scored at once (`server.max_inflight_items`), shared by the
/// scoring routes: what a batch builds from its body, and the work it queues, grow with its
/// items, so this bounds memory and latency where the body budget cannot (many small items).
#[derive(Debug, Clone)]
pub struct ItemAdmission {
    budget: Arc<Semaphore>,
    total: usize,
    retry_after_secs: u32,
}

impl ItemAdmission {
    pub fn new(total: usize, retry_after_secs: u32) -> ItemAdmission {
        let total = total.clamp(1, u32::MAX as usize);
        ItemAdmission { budget: Arc::new(Semaphore::new(total)), total, retry_after_secs }
    }

    /// Whether every item of the budget is taken now: no request with an item fits.
    pub fn is_exhausted(&self) -> bool {
        self.budget.available_permits() == 0
    }
}

/// Takes room for a scoring request's items (counted from its body, already read) before it is
/// parsed and scored: the general API is refused at once with 503 `overloaded` and
/// `Retry-After` when they do not fit; trainer-facing requests wait for room until their
/// deadline ([`HoldUntil`]). A batch larger than the whole budget waits for
/// all of it. The room is given back once the response is ready and every verifier thread the
/// request started has returned ([`crate::engine::hold_while_working`]): a verifier that
/// overruns the deadline keeps its items' room while it still works.
pub async fn admit_items(State(admission): State<ItemAdmission>, request: Request, next: Next) -> Response {
    let route = request.extensions().get::<axum::extract::MatchedPath>().map(|p| p.as_str().to_owned());
    let access = crate::http::auth::access(request.method().as_str(), route.as_deref().unwrap_or(""));
    let Some(field) = access.charge.counted_field() else {
        return next.run(request).await;
    };
    let (mut parts, body) = request.into_parts();
    // Read whole by `read_body_first`: collecting it again copies nothing.
    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
    let (bytes, items) = if bytes.len() <= 256 << 10 {
        let items = super::json::count_items(&bytes, field);
        (bytes, items)
    } else {
        match tokio::task::spawn_blocking(move || {
            referee_core::threads::mark_scoring_thread();
            let items = super::json::count_items(&bytes, field);
            (bytes, items)
        })
        .await
        {
            Ok(counted) => counted,
            Err(join) => return ApiError::internal(format!("counting items failed: {join}")).into_response(),
        }
    };
    let count = items.ok().flatten();
    // The handler's own item limit reads this count instead of scanning the body again.
    parts.extensions.insert(super::json::CountedItems { field, count });
    // A body that is not a batch is refused by its handler; it takes no room.
    let items = count.unwrap_or(0).min(admission.total);
    let units = u32::try_from(items).unwrap_or(u32::MAX);
    let hold = parts.extensions.get::<HoldUntil>().map(|h| h.0);
    let permit = match hold {
        _ if units == 0 => None,
        None => match Arc::clone(&admission.budget).try_acquire_many_owned(units) {
            Ok(permit) => Some(permit),
            Err(_) => {
                note_refusal("items");
                return ApiError::overloaded(admission.retry_after_secs).into_response();
            }
        },
        Some(until) => {
            let acquired =
                tokio::time::timeout_at(until.into(), Arc::clone(&admission.budget).acquire_many_owned(units)).await;
            match acquired {
                Ok(Ok(permit)) => Some(permit),
                Ok(Err(_)) | Err(_) => {
                    note_refusal("items_deadline");
                    let busy = referee_core::Busy {
                        status: referee_core::BusyStatus::Unavailable,
                        retry_after_secs: admission.retry_after_secs,
                        message: "no room for the items came within the request deadline".to_owned(),
                    };
                    return ApiError::from(busy).into_response();
                }
            }
        }
    };
    let request = Request::from_parts(parts, Body::from(bytes));
    // A verifier that overruns the deadline is answered `timeout` while its thread still works:
    // the room is given back when that work has returned, not with the response.
    match permit {
        Some(permit) => crate::engine::hold_while_working(permit, next.run(request)).await,
        None => next.run(request).await,
    }
}

pub(crate) fn content_length(headers: &HeaderMap) -> Option<usize> {
    headers.get(header::CONTENT_LENGTH)?.to_str().ok()?.trim().parse().ok()
}

/// Whether a refused request's body is read and thrown away rather than the connection closed:
/// only a body of known size within the limit, and not one the client holds back until told to
/// go on (`Expect: 100-continue`: it then reads the refusal without sending the body).
fn drains(headers: &HeaderMap, declared: Option<usize>, admission: &BodyAdmission) -> bool {
    let expects_continue = headers
        .get(header::EXPECT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("100-continue"));
    !expects_continue && declared.is_some_and(|length| length > 0 && length <= admission.body_limit)
}

async fn drain(mut body: Body, limit: usize, timeout: Duration) {
    let read = async {
        let mut read = 0usize;
        while let Some(Ok(frame)) = body.frame().await {
            read += frame.data_ref().map_or(0, Bytes::len);
            if read > limit {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(timeout, read).await;
}

/// Asks hyper to close the connection after this response: the rest of the body, if any, is
/// not read.
fn closing(mut response: Response) -> Response {
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

fn error_response(status: StatusCode, code: &'static str, message: String) -> Response {
    (status, axum::Json(ErrorBody { code, message })).into_response()
}

/// Until when a trainer-facing request may wait for room, in the gate and then in the queues of
/// the scorers it needs: its arrival plus the request deadline. [`super::middleware::hold_until_room`] sets it.
#[derive(Debug, Clone, Copy)]
pub struct HoldUntil(pub Instant);

/// Counts a request refused for load (`referee_requests_refused_total{reason}`) and logs
/// refusals at most once per [`REFUSAL_LOG_INTERVAL`], with how many there were since the last
/// line: under overload every request is refused, and a line each would flood the log.
pub fn note_refusal(reason: &'static str) {
    static REFUSED: AtomicU64 = AtomicU64::new(0);
    // Seconds from START after which the next line may be written.
    static NEXT_LINE: AtomicU64 = AtomicU64::new(0);
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    metrics::counter!("referee_requests_refused_total", "reason" => reason).increment(1);
    REFUSED.fetch_add(1, Ordering::Relaxed);
    let now = START.get_or_init(Instant::now).elapsed().as_secs();
    let next = NEXT_LINE.load(Ordering::Relaxed);
    if now >= next
        && NEXT_LINE
            .compare_exchange(next, now + REFUSAL_LOG_INTERVAL.as_secs(), Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    {
        let refused = REFUSED.swap(0, Ordering::Relaxed);
        tracing::warn!(reason, refused, "refusing requests for load (counted in referee_requests_refused_total)");
    }
}

/// The most often a refusal for load is logged.
pub const REFUSAL_LOG_INTERVAL: Duration = Duration::from_secs(10);

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::routing::post;
    use tower::ServiceExt as _;

    use super::*;

    fn app(admission: &BodyAdmission) -> Router {
        Router::new()
            .route("/t", post(|body: Bytes| async move { body.len().to_string() }))
            .layer(axum::middleware::from_fn_with_state(admission.clone(), read_body_first))
    }

    async fn call(app: Router, body: Body, length: Option<usize>) -> (StatusCode, Option<String>, String) {
        let mut request = axum::http::Request::post("/t");
        if let Some(length) = length {
            request = request.header(header::CONTENT_LENGTH, length);
        }
        let request = request.body(body).unwrap_or_else(|e| panic!("{e}"));
        let response = app.oneshot(request).await.unwrap_or_else(|e| match e {});
        let retry = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap_or_default();
        (status, retry, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn a_body_that_fits_the_budget_is_read_and_passed_on() {
        let admission = BodyAdmission::new(8 * UNIT, 4 * UNIT, Duration::from_secs(5), 2);
        let (status, _, body) = call(app(&admission), Body::from(vec![b'x'; 3000]), Some(3000)).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "3000"));
        assert_eq!(admission.budget.available_permits(), 8, "the budget is given back");
    }

    #[tokio::test]
    async fn a_body_over_the_remaining_budget_is_refused_as_it_arrives() {
        let admission = BodyAdmission::new(8 * UNIT, 4 * UNIT, Duration::from_secs(5), 2);
        let held = Arc::clone(&admission.budget).try_acquire_many_owned(6).unwrap_or_else(|e| panic!("{e}"));
        let (status, retry, body) = call(app(&admission), Body::from(vec![b'x'; 3000]), Some(3000)).await;
        assert_eq!((status, retry.as_deref()), (StatusCode::SERVICE_UNAVAILABLE, Some("2")));
        assert!(body.contains("\"overloaded\""), "{body}");
        drop(held);
        assert_eq!(call(app(&admission), Body::from(vec![b'x'; 3000]), Some(3000)).await.0, StatusCode::OK);
    }

    /// A body that has declared its length but sent one byte holds the budget for what it sent
    /// (one growth step), not for what it declared: slow clients cannot squat the budget.
    #[tokio::test]
    async fn a_declared_length_takes_no_budget_until_its_bytes_arrive() {
        let admission = BodyAdmission::new(64 * UNIT, 64 * UNIT, Duration::from_secs(600), 2);
        let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(1);
        let trickle = futures::stream::unfold(receiver, |mut r| async move { r.recv().await.map(|item| (item, r)) });
        let slow = tokio::spawn(call(app(&admission), Body::from_stream(trickle), Some(64 * UNIT)));
        sender.send(Ok(Bytes::from_static(b"{"))).await.unwrap_or_else(|e| panic!("{e}"));
        let mut polls = 0;
        while admission.budget.available_permits() == 64 {
            polls += 1;
            assert!(polls < 10_000, "the slow body's first byte never arrived");
            tokio::task::yield_now().await;
        }
        assert_eq!(admission.budget.available_permits(), 64 - MIN_GROWTH / UNIT);
        // The slow body declared the whole budget; a 50 KiB body still fits beside it.
        let (status, _, body) = call(app(&admission), Body::from(vec![b'x'; 50 * UNIT]), Some(50 * UNIT)).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "51200"));
        drop(sender);
        let (status, _, body) = slow.await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((status, body.as_str()), (StatusCode::OK, "1"));
        assert_eq!(admission.budget.available_permits(), 64, "the budget is given back");
    }

    /// The budget grows with the buffer, never past the declared length.
    #[tokio::test]
    async fn a_fast_body_takes_budget_for_its_buffer_only() {
        let admission = BodyAdmission::new(256 * UNIT, 256 * UNIT, Duration::from_secs(600), 2);
        let chunks = (0..100).map(|_| Ok::<_, std::io::Error>(Bytes::from(vec![b'y'; 1000])));
        let observed = admission.clone();
        let app = Router::new()
            .route(
                "/t",
                post(move |body: Bytes| async move {
                    format!("{} {}", body.len(), 256 - observed.budget.available_permits())
                }),
            )
            .layer(axum::middleware::from_fn_with_state(admission.clone(), read_body_first));
        let (status, _, body) = call(app, Body::from_stream(futures::stream::iter(chunks)), Some(100_000)).await;
        // 100,000 bytes declared: the buffer stops at the declared length, 98 units.
        assert_eq!((status, body.as_str()), (StatusCode::OK, "100000 98"));
        assert_eq!(admission.budget.available_permits(), 256);
    }

    #[tokio::test]
    async fn a_declared_body_over_the_limit_is_refused_unread() {
        let admission = BodyAdmission::new(8 * UNIT, 4 * UNIT, Duration::from_secs(5), 2);
        let (status, _, body) = call(app(&admission), Body::from(vec![b'x'; 5000]), Some(5000)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        assert!(body.contains("payload_too_large"), "{body}");
    }

    #[tokio::test]
    async fn a_chunked_body_takes_budget_as_it_arrives() {
        let admission = BodyAdmission::new(4 * UNIT, 4 * UNIT, Duration::from_secs(5), 2);
        let chunks = (0..3).map(|_| Ok::<_, std::io::Error>(Bytes::from(vec![b'y'; 1000])));
        let (status, _, body) = call(app(&admission), Body::from_stream(futures::stream::iter(chunks)), None).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "3000"));

        let held = Arc::clone(&admission.budget).try_acquire_many_owned(3).unwrap_or_else(|e| panic!("{e}"));
        let chunks = (0..3).map(|_| Ok::<_, std::io::Error>(Bytes::from(vec![b'y'; 1000])));
        let (status, _, _) = call(app(&admission), Body::from_stream(futures::stream::iter(chunks)), None).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        drop(held);
    }

    #[tokio::test]
    async fn a_body_that_does_not_arrive_in_time_is_a_408() {
        let admission = BodyAdmission::new(8 * UNIT, 4 * UNIT, Duration::from_millis(50), 2);
        let never = futures::stream::pending::<Result<Bytes, std::io::Error>>();
        let (status, _, body) = call(app(&admission), Body::from_stream(never), Some(100)).await;
        assert_eq!(status, StatusCode::REQUEST_TIMEOUT);
        assert!(body.contains("body_read_timeout_ms"), "{body}");
        assert_eq!(admission.budget.available_permits(), 8);
    }

    fn scoring_app(admission: &ItemAdmission, hold: Option<Instant>) -> Router {
        let route = Router::new()
            .route("/v1/score", post(|body: Bytes| async move { body.len().to_string() }))
            .layer(axum::middleware::from_fn_with_state(admission.clone(), admit_items));
        match hold {
            None => route,
            Some(until) => route.layer(axum::Extension(HoldUntil(until))),
        }
    }

    async fn score(app: Router, items: usize) -> StatusCode {
        let body = format!("{{\"items\": [{}]}}", vec!["{}"; items].join(","));
        let request = axum::http::Request::post("/v1/score").body(Body::from(body)).unwrap_or_else(|e| panic!("{e}"));
        app.oneshot(request).await.unwrap_or_else(|e| match e {}).status()
    }

    #[tokio::test]
    async fn items_beyond_the_budget_are_refused_or_wait() {
        let admission = ItemAdmission::new(10, 1);
        assert_eq!(score(scoring_app(&admission, None), 8).await, StatusCode::OK);
        assert_eq!(
            score(scoring_app(&admission, None), 50).await,
            StatusCode::OK,
            "a batch over the budget takes all of it"
        );
        let held = Arc::clone(&admission.budget).try_acquire_many_owned(6).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(score(scoring_app(&admission, None), 4).await, StatusCode::OK);
        assert_eq!(score(scoring_app(&admission, None), 5).await, StatusCode::SERVICE_UNAVAILABLE);
        let past = Instant::now() + Duration::from_millis(20);
        assert_eq!(score(scoring_app(&admission, Some(past)), 5).await, StatusCode::SERVICE_UNAVAILABLE);
        let waiting = tokio::spawn(score(scoring_app(&admission, Some(Instant::now() + Duration::from_secs(600))), 5));
        // It needs 5 of the 4 left: it cannot finish before the held items are given back.
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        drop(held);
        assert_eq!(waiting.await.unwrap_or_else(|e| panic!("{e}")), StatusCode::OK);
        assert_eq!(admission.budget.available_permits(), 10);
    }

    /// A verifier that ignores its deadline: it returns only when the test says so.
    struct Gate(std::sync::Mutex<std::sync::mpsc::Receiver<()>>);

    #[derive(serde::Deserialize, utoipa::ToSchema)]
    struct GateInput {
        #[allow(dead_code)]
        response: String,
    }

    impl referee_core::Verifier for Gate {
        type Input = GateInput;

        fn description(&self) -> referee_core::Description {
            referee_core::Description { id: "gate", version: "1", summary: "Returns when told to." }
        }

        fn verify_batch(&self, inputs: &[GateInput], _: &referee_core::Budget) -> Vec<referee_core::Verdict> {
            let _ = self.0.lock().map(|r| r.recv());
            inputs.iter().map(|_| referee_core::Verdict::correct()).collect()
        }
    }

    #[tokio::test]
    async fn room_is_held_until_a_timed_out_verifier_returns() {
        let admission = ItemAdmission::new(10, 1);
        let (finish, told) = std::sync::mpsc::channel();
        let scorer = referee_core::Scorer::verifier(Gate(std::sync::Mutex::new(told)));
        let handler = move |_: Bytes| async move {
            let budget = referee_core::Budget::with_timeout(Duration::from_millis(10));
            let verdicts = crate::engine::run_scorer(&scorer, vec![serde_json::json!({"response": "x"})], budget).await;
            verdicts.first().map(|v| v.status.as_str()).unwrap_or_default().to_owned()
        };
        let app = Router::new()
            .route("/v1/score", post(handler))
            .layer(axum::middleware::from_fn_with_state(admission.clone(), admit_items));
        // Answered (`timeout`) while the verifier still runs: its three items keep their room.
        assert_eq!(score(app, 3).await, StatusCode::OK);
        assert_eq!(admission.budget.available_permits(), 7, "the room was given back while the verifier ran");
        finish.send(()).unwrap_or_else(|e| panic!("{e}"));
        let all = tokio::time::timeout(Duration::from_secs(60), admission.budget.acquire_many(10)).await;
        assert!(all.is_ok_and(|permit| permit.is_ok()), "the room never came back");
    }
}
