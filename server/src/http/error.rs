//! The API's one error type, its one status mapping, and the JSON extractor that uses it.

use axum::extract::Request;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use referee_core::{Busy, BusyStatus};
use serde::Serialize;
use utoipa::ToSchema;

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// A stable, machine-readable code, e.g. `malformed_json`.
    pub code: &'static str,
    /// What went wrong, for people.
    pub message: String,
}

/// The kind of a request's failure, which decides its HTTP status: a handful of categories, each
/// error in one of them carrying its own stable `code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// 400: the body is not JSON, or not what the route reads.
    Malformed,
    /// 415: the body is not declared as JSON.
    UnsupportedMediaType,
    /// 422: well-formed, but not a valid request.
    Invalid,
    /// 413: over a size or item limit.
    TooLarge,
    /// 401: no valid API key.
    Unauthenticated,
    /// 403: the key or the server does not allow it.
    Forbidden,
    /// 404: no such route or resource.
    NotFound,
    /// 405: the route takes another method.
    MethodNotAllowed,
    /// 409: the resource's state does not allow it.
    Conflict,
    /// 421: the resource lives on another replica; the request must go there.
    Misdirected,
    /// 429 or 503 with `Retry-After`: no room now (load, a rate limit, a quota, a full queue);
    /// nothing was done.
    Busy { status: BusyStatus, retry_after_secs: u32 },
    /// 500: the server broke; the message says no more than that, the log has the details.
    Internal,
}

/// Everything a request can fail with: a category, a stable code and a message. Per-item
/// problems are verdicts, never these. Features make their own errors with their own codes
/// ([`ApiError::new`] and the category shorthands); the ones every route may meet are made here.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    category: Category,
    code: &'static str,
    message: String,
}

impl ApiError {
    /// An error of `category` with its stable `code` and a message for people. An
    /// [`Category::Internal`] message is logged, never returned.
    pub fn new(category: Category, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { category, code, message: message.into() }
    }

    /// A 404 with the feature's code.
    pub fn not_found(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(Category::NotFound, code, message)
    }

    /// A 409 with the feature's code.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(Category::Conflict, code, message)
    }

    /// A 422 with the feature's code.
    pub fn invalid(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(Category::Invalid, code, message)
    }

    /// A 403 with the feature's code.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(Category::Forbidden, code, message)
    }

    pub fn malformed_json(detail: impl std::fmt::Display) -> ApiError {
        ApiError::new(Category::Malformed, "malformed_json", format!("malformed JSON: {detail}"))
    }

    pub fn unsupported_media_type() -> ApiError {
        ApiError::new(
            Category::UnsupportedMediaType,
            "unsupported_media_type",
            "expected a JSON body with `Content-Type: application/json`",
        )
    }

    pub fn invalid_body(detail: impl std::fmt::Display) -> ApiError {
        ApiError::invalid("invalid_body", format!("invalid request body: {detail}"))
    }

    pub fn payload_too_large(limit: usize) -> ApiError {
        ApiError::new(
            Category::TooLarge,
            "payload_too_large",
            format!("request body larger than the {limit}-byte limit"),
        )
    }

    pub fn too_many_items(count: usize, limit: usize) -> ApiError {
        ApiError::new(
            Category::TooLarge,
            "too_many_items",
            format!("{count} items in one request; the limit is {limit}"),
        )
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            Category::Unauthenticated,
            "unauthorized",
            "missing or invalid API key; send `Authorization: Bearer <key>`",
        )
    }

    /// The key is valid but lacks the role the route needs.
    pub fn lacks_role(role: crate::http::auth::Role, route: &str) -> ApiError {
        ApiError::forbidden("forbidden", format!("this API key lacks the `{role}` role, which {route} needs"))
    }

    /// The key's `requests_per_second` is spent.
    pub fn rate_limited(retry_after_secs: u32) -> ApiError {
        let status = BusyStatus::TooManyRequests;
        ApiError::new(
            Category::Busy { status, retry_after_secs },
            "rate_limited",
            format!("this API key's request rate is spent; retry after {retry_after_secs} s"),
        )
    }

    /// The items would take the key past its `max_items_per_day`.
    pub fn quota_exceeded(limit: u64, retry_after_secs: u32) -> ApiError {
        let status = BusyStatus::TooManyRequests;
        ApiError::new(
            Category::Busy { status, retry_after_secs },
            "quota_exceeded",
            format!(
                "this API key's quota of {limit} items per UTC day would be exceeded; it starts over in \
                 {retry_after_secs} s"
            ),
        )
    }

    /// No route for `what` (`METHOD /path`).
    pub fn no_route(what: impl std::fmt::Display) -> ApiError {
        ApiError::not_found("not_found", format!("no route for {what}"))
    }

    pub fn unknown_verifier(name: impl std::fmt::Display) -> ApiError {
        ApiError::not_found(
            "unknown_verifier",
            format!("no verifier is registered as `{name}`; GET /v1/verifiers lists them"),
        )
    }

    pub fn method_not_allowed() -> ApiError {
        ApiError::new(Category::MethodNotAllowed, "method_not_allowed", "method not allowed for this route")
    }

    /// The server is at its concurrency limit.
    pub fn overloaded(retry_after_secs: u32) -> ApiError {
        let status = BusyStatus::Unavailable;
        ApiError::new(
            Category::Busy { status, retry_after_secs },
            "overloaded",
            format!("the server is at its concurrency limit; retry after {retry_after_secs} s"),
        )
    }

    /// The server is starting, or the part of it the route needs is not up yet.
    pub fn starting(retry_after_secs: u32) -> ApiError {
        let status = BusyStatus::Unavailable;
        ApiError::new(
            Category::Busy { status, retry_after_secs },
            "starting",
            format!("the server is starting; retry after {retry_after_secs} s"),
        )
    }

    /// The server broke: `detail` is logged, and the client is told no more.
    pub fn internal(detail: impl Into<String>) -> ApiError {
        ApiError::new(Category::Internal, "internal_error", detail)
    }

    /// The category of this error.
    pub fn category(&self) -> Category {
        self.category
    }

    /// The stable code of this error, e.g. `malformed_json`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The HTTP status of this error. Exhaustive on purpose: a new category must be given its
    /// status here.
    pub fn status(&self) -> StatusCode {
        match self.category {
            Category::Malformed => StatusCode::BAD_REQUEST,
            Category::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Category::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
            Category::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Category::Unauthenticated => StatusCode::UNAUTHORIZED,
            Category::Forbidden => StatusCode::FORBIDDEN,
            Category::NotFound => StatusCode::NOT_FOUND,
            Category::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Category::Conflict => StatusCode::CONFLICT,
            Category::Misdirected => StatusCode::MISDIRECTED_REQUEST,
            Category::Busy { status: BusyStatus::TooManyRequests, .. } => StatusCode::TOO_MANY_REQUESTS,
            Category::Busy { status: BusyStatus::Unavailable, .. } => StatusCode::SERVICE_UNAVAILABLE,
            Category::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = if self.category == Category::Internal {
            tracing::error!(detail = %self.message, "internal error");
            "internal error; the server log has the details".to_owned()
        } else {
            self.message
        };
        let mut response = (status, axum::Json(ErrorBody { code: self.code, message })).into_response();
        let headers = response.headers_mut();
        match self.category {
            Category::Busy { retry_after_secs, .. } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
            }
            Category::Unauthenticated => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            Category::Malformed
            | Category::UnsupportedMediaType
            | Category::Invalid
            | Category::TooLarge
            | Category::Forbidden
            | Category::NotFound
            | Category::MethodNotAllowed
            | Category::Conflict
            | Category::Misdirected
            | Category::Internal => {}
        }
        response
    }
}

/// The configured body limit, put in request extensions so rejections can state it.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Our error for a rejection of `axum::Json`; `limit` is the body limit in effect.
pub(super) fn from_json_rejection(rejection: JsonRejection, limit: usize) -> ApiError {
    match rejection {
        JsonRejection::JsonDataError(e) => ApiError::invalid_body(e.body_text()),
        JsonRejection::JsonSyntaxError(e) => ApiError::malformed_json(e.body_text()),
        JsonRejection::MissingJsonContentType(_) => ApiError::unsupported_media_type(),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::payload_too_large(limit)
        }
        JsonRejection::BytesRejection(e) => ApiError::malformed_json(e.body_text()),
        other => ApiError::invalid_body(other.body_text()),
    }
}

/// A scorer the request needs cannot take its items now (its queue is full, or it is not
/// available); nothing was scored.
impl From<Busy> for ApiError {
    fn from(busy: Busy) -> Self {
        let category = Category::Busy { status: busy.status, retry_after_secs: busy.retry_after_secs };
        ApiError::new(category, "busy", busy.message)
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
    use axum::extract::FromRequest as _;

    use super::*;
    use crate::http::json::ApiJson;

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
            .route("/ours", get(|| async { ApiError::not_found("unknown_job", "no job has the id `j`") }))
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
            assert!(matches!(result, Err(ref e) if e.code() == "invalid_body"), "{not_an_object}: {result:?}");
        }
        assert!(matches!(read("[1,").await, Err(ref e) if e.code() == "malformed_json"));
        assert!(matches!(read(r#"{"first": "x"}"#).await, Err(ref e) if e.code() == "invalid_body"));
    }
}
