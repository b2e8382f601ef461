//! The API's one error type, its one status mapping, and the JSON extractor that uses it.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use referee_core::{Busy, BusyStatus};
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// A stable, machine-readable code, e.g. `malformed_json`.
    pub code: &'static str,
    /// What went wrong, for people.
    pub message: String,
}

/// Everything a request can fail with. Per-item problems are verdicts, never these.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("malformed JSON: {0}")]
    MalformedJson(String),
    #[error("expected a JSON body with `Content-Type: application/json`")]
    UnsupportedMediaType,
    #[error("invalid request body: {0}")]
    InvalidBody(String),
    #[error("request body larger than the {limit}-byte limit")]
    PayloadTooLarge { limit: usize },
    #[error("{count} items in one request; the limit is {limit}")]
    TooManyItems { count: usize, limit: usize },
    #[error("missing or invalid API key; send `Authorization: Bearer <key>`")]
    Unauthorized,
    /// The key is valid but lacks the role the route needs.
    #[error("this API key lacks the `{role}` role, which {route} needs")]
    Forbidden { role: crate::http::auth::Role, route: String },
    /// The key's `requests_per_second` is spent.
    #[error("this API key's request rate is spent; retry after {retry_after_secs} s")]
    RateLimited { retry_after_secs: u32 },
    /// The items would take the key past its `max_items_per_day`.
    #[error(
        "this API key's quota of {limit} items per UTC day would be exceeded; it starts over in {retry_after_secs} s"
    )]
    QuotaExceeded { limit: u64, retry_after_secs: u32 },
    #[error("no route for {0}")]
    NotFound(String),
    #[error("no verifier is registered as `{0}`; GET /v1/verifiers lists them")]
    UnknownVerifier(String),
    #[error("no environment is registered as `{0}`; GET /v1/environments lists them")]
    UnknownTask(String),
    #[error("{0}")]
    UnknownLevel(String),
    #[error("no job has the id `{0}`")]
    UnknownJob(String),
    #[error("{0}")]
    PathNotAllowed(String),
    #[error("no rubric `{0}`; GET /v1/rubrics lists them")]
    UnknownRubric(String),
    #[error("a rubric with the id `{0}` exists; PUT /v1/rubrics/{0} adds a version")]
    RubricExists(String),
    #[error("method not allowed for this route")]
    MethodNotAllowed,
    #[error("{0}")]
    InvalidNoise(String),
    #[error("{0}")]
    NoNoiseModel(String),
    #[error("{0}")]
    CorrectionRefused(String),
    #[error("no training run `{0}` has filter state")]
    UnknownRun(String),
    #[error("{0}")]
    RunConflict(String),
    #[error("{0}")]
    NotReloadable(String),
    #[error("{0}")]
    NotTokenizing(String),
    #[error("the server is at its concurrency limit; retry after {retry_after_secs} s")]
    Overloaded { retry_after_secs: u32 },
    /// A scorer the request needs cannot take its items now (its queue is full, or it is not
    /// available); nothing was scored.
    #[error("{0}")]
    Busy(Busy),
    #[error("the server is starting; retry after {retry_after_secs} s")]
    Starting { retry_after_secs: u32 },
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    /// The status and stable code of each error. Exhaustive on purpose: a new variant must be
    /// given its status here.
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::MalformedJson(_) => (StatusCode::BAD_REQUEST, "malformed_json"),
            ApiError::UnsupportedMediaType => (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
            ApiError::InvalidBody(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_body"),
            ApiError::PayloadTooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
            ApiError::TooManyItems { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "too_many_items"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::Forbidden { .. } => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            ApiError::QuotaExceeded { .. } => (StatusCode::TOO_MANY_REQUESTS, "quota_exceeded"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::UnknownVerifier(_) => (StatusCode::NOT_FOUND, "unknown_verifier"),
            ApiError::UnknownTask(_) => (StatusCode::NOT_FOUND, "unknown_task"),
            ApiError::UnknownLevel(_) => (StatusCode::NOT_FOUND, "unknown_level"),
            ApiError::UnknownJob(_) => (StatusCode::NOT_FOUND, "unknown_job"),
            ApiError::PathNotAllowed(_) => (StatusCode::FORBIDDEN, "path_not_allowed"),
            ApiError::UnknownRubric(_) => (StatusCode::NOT_FOUND, "unknown_rubric"),
            ApiError::RubricExists(_) => (StatusCode::CONFLICT, "rubric_exists"),
            ApiError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            ApiError::InvalidNoise(_) => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_noise"),
            ApiError::NoNoiseModel(_) => (StatusCode::CONFLICT, "no_noise_model"),
            ApiError::CorrectionRefused(_) => (StatusCode::CONFLICT, "correction_refused"),
            ApiError::UnknownRun(_) => (StatusCode::NOT_FOUND, "unknown_run"),
            ApiError::RunConflict(_) => (StatusCode::CONFLICT, "run_conflict"),
            ApiError::NotReloadable(_) => (StatusCode::CONFLICT, "not_reloadable"),
            ApiError::NotTokenizing(_) => (StatusCode::CONFLICT, "not_tokenizing"),
            ApiError::Overloaded { .. } => (StatusCode::SERVICE_UNAVAILABLE, "overloaded"),
            ApiError::Starting { .. } => (StatusCode::SERVICE_UNAVAILABLE, "starting"),
            ApiError::Busy(busy) => match busy.status {
                BusyStatus::TooManyRequests => (StatusCode::TOO_MANY_REQUESTS, "busy"),
                BusyStatus::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            },
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal_error"),
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        self.status_and_code().0
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let message = if let ApiError::Internal(detail) = &self {
            tracing::error!(%detail, "internal error");
            "internal error; the server log has the details".to_owned()
        } else {
            self.to_string()
        };
        let mut response = (status, axum::Json(ErrorBody { code, message })).into_response();
        let headers = response.headers_mut();
        match self {
            ApiError::Overloaded { retry_after_secs }
            | ApiError::Starting { retry_after_secs }
            | ApiError::RateLimited { retry_after_secs }
            | ApiError::QuotaExceeded { retry_after_secs, .. } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
            }
            ApiError::Busy(busy) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(busy.retry_after_secs));
            }
            ApiError::Unauthorized => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            ApiError::MalformedJson(_)
            | ApiError::UnsupportedMediaType
            | ApiError::InvalidBody(_)
            | ApiError::PayloadTooLarge { .. }
            | ApiError::TooManyItems { .. }
            | ApiError::Forbidden { .. }
            | ApiError::NotFound(_)
            | ApiError::UnknownVerifier(_)
            | ApiError::UnknownTask(_)
            | ApiError::UnknownLevel(_)
            | ApiError::UnknownJob(_)
            | ApiError::PathNotAllowed(_)
            | ApiError::UnknownRubric(_)
            | ApiError::RubricExists(_)
            | ApiError::MethodNotAllowed
            | ApiError::InvalidNoise(_)
            | ApiError::NoNoiseModel(_)
            | ApiError::CorrectionRefused(_)
            | ApiError::UnknownRun(_)
            | ApiError::RunConflict(_)
            | ApiError::NotReloadable(_)
            | ApiError::NotTokenizing(_)
            | ApiError::Internal(_) => {}
        }
        response
    }
}

/// `axum::Json` whose rejections are [`ApiError`]s.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned + Send + 'static,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        super::json::read_json(req, state, None).await.map(ApiJson)
    }
}

/// The configured body limit, put in request extensions so rejections can state it.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Our error for a rejection of `axum::Json`; `limit` is the body limit in effect.
pub(super) fn from_json_rejection(rejection: JsonRejection, limit: usize) -> ApiError {
    match rejection {
        JsonRejection::JsonDataError(e) => ApiError::InvalidBody(e.body_text()),
        JsonRejection::JsonSyntaxError(e) => ApiError::MalformedJson(e.body_text()),
        JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType,
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::PayloadTooLarge { limit }
        }
        JsonRejection::BytesRejection(e) => ApiError::MalformedJson(e.body_text()),
        other => ApiError::InvalidBody(other.body_text()),
    }
}

impl From<Busy> for ApiError {
    fn from(busy: Busy) -> Self {
        ApiError::Busy(busy)
    }
}

/// Most bytes of a plain-text error body carried into the JSON message.
const PLAIN_ERROR_BYTES: usize = 4096;

/// The stable code of an error status that none of our [`ApiError`]s produced.
pub(super) fn code_of_status(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::REQUEST_TIMEOUT => "request_timeout",
        StatusCode::PAYLOAD_TOO_LARGE => "payload_too_large",
        StatusCode::URI_TOO_LONG => "uri_too_long",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        StatusCode::UNPROCESSABLE_ENTITY => "invalid_body",
        StatusCode::TOO_MANY_REQUESTS => "too_many_requests",
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => "headers_too_large",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        StatusCode::INTERNAL_SERVER_ERROR => "internal_error",
        _ => "http_error",
    }
}

/// Gives every error response the JSON [`ErrorBody`]: rejections that axum and tower answer
/// themselves (a path segment that is not UTF-8, a body over the limit read by a handler that
/// streams it, a timeout layer) come as plain text, which clients cannot parse as an error.
/// The status and headers are kept; the plain text becomes the message.
pub async fn json_error_bodies(request: Request, next: axum::middleware::Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("application/problem+json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, PLAIN_ERROR_BYTES).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).trim().to_owned(),
        _ => String::new(),
    };
    let message = if text.is_empty() { status.canonical_reason().unwrap_or("error").to_owned() } else { text };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let body = serde_json::to_vec(&ErrorBody { code: code_of_status(status), message }).unwrap_or_default();
    Response::from_parts(parts, axum::body::Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body whose fields are all optional, as `NoiseSettings` is.
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Optional {
        first: Option<u32>,
        second: Option<u32>,
    }

    async fn read(body: &'static str) -> Result<ApiJson<Optional>, ApiError> {
        let request = axum::http::Request::post("/")
            .header(header::CONTENT_TYPE, "application/json")
            .body(axum::body::Body::from(body));
        let Ok(request) = request else { panic!("bad request") };
        ApiJson::<Optional>::from_request(request, &()).await
    }

    #[tokio::test]
    async fn plain_error_responses_become_json() {
        use axum::routing::get;
        use tower::ServiceExt as _;
        let app = axum::Router::new()
            .route("/plain", get(|| async { (StatusCode::BAD_REQUEST, "Invalid URL: not UTF-8") }))
            .route("/empty", get(|| async { (StatusCode::REQUEST_TIMEOUT, [(header::RETRY_AFTER, "2")]) }))
            .route("/ok", get(|| async { "fine" }))
            .route("/ours", get(|| async { ApiError::UnknownJob("j".to_owned()) }))
            .layer(axum::middleware::from_fn(json_error_bodies));
        let call = |path: &'static str| {
            let app = app.clone();
            async move {
                let Ok(request) = axum::http::Request::get(path).body(axum::body::Body::empty()) else {
                    panic!("bad request")
                };
                let response = app.oneshot(request).await.unwrap_or_else(|e| match e {});
                let (parts, body) = response.into_parts();
                let bytes = axum::body::to_bytes(body, 1 << 16).await.unwrap_or_default();
                (parts, String::from_utf8_lossy(&bytes).into_owned())
            }
        };
        let (parts, body) = call("/plain").await;
        assert_eq!(parts.status, StatusCode::BAD_REQUEST);
        assert_eq!(parts.headers[header::CONTENT_TYPE], "application/json");
        assert_eq!(body, r#"{"code":"bad_request","message":"Invalid URL: not UTF-8"}"#);
        let (parts, body) = call("/empty").await;
        assert_eq!(
            (parts.status, parts.headers[header::RETRY_AFTER].as_bytes()),
            (StatusCode::REQUEST_TIMEOUT, &b"2"[..])
        );
        assert_eq!(body, r#"{"code":"request_timeout","message":"Request Timeout"}"#);
        assert_eq!(call("/ok").await.1, "fine");
        assert!(call("/ours").await.1.contains(r#""code":"unknown_job""#));
    }

    #[tokio::test]
    async fn only_a_json_object_is_a_body() {
        assert!(read(r#"{"first": 1}"#).await.is_ok());
        assert!(read(" \n{}").await.is_ok());
        for not_an_object in ["[null, null]", "[1, 2]", "null", "3", r#""text""#] {
            let result = read(not_an_object).await;
            assert!(matches!(result, Err(ApiError::InvalidBody(_))), "{not_an_object}: {result:?}");
        }
        assert!(matches!(read("[1,").await, Err(ApiError::MalformedJson(_))));
        assert!(matches!(read(r#"{"first": "x"}"#).await, Err(ApiError::InvalidBody(_))));
    }
}
