//! `/v1/jobs`: submit a JSONL file of score items, follow its progress, stream its results,
//! cancel it.

use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::stream;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::features::jobs::{JobStatus, JobStore, Upload, UploadError, Wakeup};
use crate::http::AppState;
use crate::http::auth::{Caller, Role};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::query::{Page, parsed};

/// Most items per chunk a submission may ask for.
const MAX_CHUNK_SIZE: u64 = 100_000;
/// Results read from the database per page while streaming.
const RESULTS_PAGE: i64 = 2_000;

/// What the job endpoints need once the database is open.
#[derive(Debug, Clone)]
pub struct JobsHandle {
    pub store: JobStore,
    pub wakeup: Arc<Wakeup>,
    pub chunk_size: usize,
    pub allowed_paths: Vec<PathBuf>,
}

/// Largest `{"path": ...}` request body.
const PATH_REQUEST_BYTES: usize = 64 << 10;

/// Highest job priority a submission may ask for.
const MAX_PRIORITY: u32 = 100;

/// Submission options, from the query string.
#[derive(Debug, Deserialize)]
pub struct SubmitOptions {
    /// Items per chunk (1 to 100000); the server's `jobs.chunk_size` when absent.
    pub chunk_size: Option<u64>,
    /// The job's share of the workers relative to other jobs (1 to 100, default 1).
    pub priority: Option<u32>,
}

/// A JSONL file on the server to score, for servers that allow paths (`jobs.allowed_paths`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JobFromPath {
    /// Absolute path of a JSONL file inside one of the allowed directories.
    pub path: String,
}

fn handle(state: &AppState) -> Result<JobsHandle, ApiError> {
    state.features.get::<JobsHandle>().ok_or(ApiError::starting(state.limits.retry_after_secs))
}

fn storage_error(error: sqlx::Error) -> ApiError {
    ApiError::internal(format!("jobs storage: {error}"))
}

/// Refuses a job the caller may not see as if it did not exist, so that no key learns of
/// another's jobs: with keys configured, a key without `admin` sees only the jobs it submitted.
/// With authentication off (no caller) every job is visible.
async fn check_owner(jobs: &JobsHandle, id: &str, caller: Option<&Caller>) -> Result<(), ApiError> {
    let Some(caller) = caller.filter(|caller| !caller.has(Role::Admin)) else { return Ok(()) };
    match jobs.store.owner(id).await.map_err(storage_error)? {
        Some(Some(owner)) if owner == caller.name() => Ok(()),
        _ => Err(unknown_job(id.to_owned())),
    }
}

/// Opens a server-side file after checking it lies inside an allowed directory.
async fn open_allowed(path: &str, allowed: &[PathBuf]) -> Result<tokio::fs::File, ApiError> {
    if allowed.is_empty() {
        return Err(path_not_allowed("this server does not accept server-side paths".to_owned()));
    }
    let refused = || path_not_allowed(format!("{path} is not inside an allowed directory"));
    let canonical = tokio::fs::canonicalize(FsPath::new(path)).await.map_err(|_| refused())?;
    let mut inside = false;
    for dir in allowed {
        if let Ok(dir) = tokio::fs::canonicalize(dir).await {
            inside |= canonical.starts_with(dir);
        }
    }
    if !inside {
        return Err(refused());
    }
    tokio::fs::File::open(&canonical).await.map_err(|e| ApiError::invalid_body(format!("cannot read {path}: {e}")))
}

fn upload_error(error: UploadError) -> ApiError {
    match error {
        UploadError::TooManyItems { limit } => ApiError::too_many_items(limit + 1, limit),
        UploadError::NoItems => ApiError::invalid_body("the job has no items".to_owned()),
        UploadError::Expired => ApiError::overloaded(1),
        UploadError::Storage(error) => storage_error(error),
    }
}

/// Streams the request body into `upload` line by line as it arrives: at most one line and the
/// pending batch are held, never the whole upload. Refuses a body over `limit` bytes (413) or
/// one that is not UTF-8 text (400); a body that fails (cut short, or too slow for its deadline,
/// which the HTTP layer answers with 408) is refused as cut short.
async fn upload_body(body: Body, limit: usize, upload: &mut Upload) -> Result<(), ApiError> {
    use futures::StreamExt;
    let mut data = body.into_data_stream();
    let mut pending: Vec<u8> = Vec::new();
    let mut read = 0usize;
    // Bytes at the start of `pending` already searched for a line end: a long line arriving in
    // many pieces is scanned once, not once per piece.
    let mut searched = 0;
    loop {
        let chunk = match data.next().await {
            Some(chunk) => chunk.map_err(|e| ApiError::malformed_json(format!("the upload was cut short: {e}")))?,
            None => return push_text(&pending, upload).await,
        };
        read = read.saturating_add(chunk.len());
        if read > limit {
            return Err(ApiError::payload_too_large(limit));
        }
        pending.extend_from_slice(&chunk);
        let mut start = 0;
        while let Some(end) = pending[searched..].iter().position(|&b| b == b'\n') {
            let end = searched + end;
            push_text(&pending[start..end], upload).await?;
            start = end + 1;
            searched = start;
        }
        pending.drain(..start);
        searched = pending.len();
    }
}

/// Adds one line of an uploaded body.
async fn push_text(line: &[u8], upload: &mut Upload) -> Result<(), ApiError> {
    let text = std::str::from_utf8(line).map_err(|_| ApiError::malformed_json("the upload is not UTF-8 text"))?;
    upload.push_line(text).await.map_err(upload_error)
}

/// Streams a server-side file into `upload` line by line, never holding more than one line
/// (and the pending batch) in memory; refuses a file over `limit` bytes. A line that is not
/// UTF-8 is that item's `invalid_input`.
async fn upload_file(file: tokio::fs::File, path: &str, limit: usize, upload: &mut Upload) -> Result<(), ApiError> {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt};
    let unreadable = |e: std::io::Error| ApiError::invalid_body(format!("cannot read {path}: {e}"));
    let mut reader = tokio::io::BufReader::new(file);
    let mut line = Vec::new();
    let mut read = 0usize;
    loop {
        line.clear();
        // At most the bytes left under the limit (plus one, to notice a file that grew).
        let left = (limit - read) as u64 + 1;
        let n = (&mut reader).take(left).read_until(b'\n', &mut line).await.map_err(unreadable)?;
        if n == 0 {
            return Ok(());
        }
        read += n;
        if read > limit {
            return Err(ApiError::payload_too_large(limit));
        }
        match std::str::from_utf8(&line) {
            Ok(text) => upload.push_line(text).await,
            Err(_) if line.iter().all(u8::is_ascii_whitespace) => Ok(()),
            Err(_) => upload.push_error(format!("item {} is not UTF-8 text", upload.items())).await,
        }
        .map_err(upload_error)?;
    }
}

/// The job routes, but the upload.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(status, cancel)).routes(routes!(results))
}

/// The job upload route, whose body limit is `jobs.max_upload_bytes`.
pub fn upload_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(submit))
}

/// Submits a batch scoring job: a JSONL body (one score item per line, as in `POST /v1/score`),
/// or a JSON `{"path": ...}` naming a file on the server. The job is stored, split into chunks
/// and scored by the workers of every replica sharing the database; a malformed line becomes
/// that item's `invalid_input` result.
#[utoipa::path(post, path = "/v1/jobs", tag = "jobs",
    params(("chunk_size" = Option<u64>, Query, minimum = 1, maximum = 100_000,
        description = "Items per chunk; the server's `jobs.chunk_size` when absent."),
        ("priority" = Option<u32>, Query, minimum = 1, maximum = 100,
        description = "The job's share of the workers: while several jobs have work, a job of priority p is \
            given p chunks for each chunk of a priority-1 job. Default 1.")),
    request_body(
        description = "JSONL score items, or a server-side path.",
        content(
            (String = "application/x-ndjson"),
            (JobFromPath = "application/json"),
        ),
    ),
    responses(
        (status = 201, description = "The job is stored and queued.", body = JobStatus),
        (status = 400, description = "The body is not UTF-8 text or not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 403, description = "Server-side paths are off, or the path is outside the allowed directories.", body = ErrorBody),
        (status = 408, description = "The body did not arrive in time: `server.body_read_timeout_ms`, and as much again for each `server.body_limit_bytes` received (`request_timeout`); nothing is stored and the connection is closed.", body = ErrorBody),
        (status = 413, description = "The upload is over `jobs.max_upload_bytes` (`payload_too_large`) or holds more than `jobs.max_items` items (`too_many_items`).", body = ErrorBody),
        (status = 415, description = "Neither JSONL nor JSON.", body = ErrorBody),
        (status = 422, description = "No items, a bad chunk size, or an unreadable file.", body = ErrorBody),
        (status = 503, description = "Overloaded (`jobs.max_concurrent_uploads` uploads in progress) or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn submit(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    options: Result<Query<SubmitOptions>, QueryRejection>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let jobs = handle(&state)?;
    let Query(options) = options.map_err(|rejection| ApiError::invalid_body(rejection.body_text()))?;
    let limit = state.limits.max_upload_bytes;
    // Refused before a byte of the body is read when the client says how much it sends.
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::payload_too_large(limit));
    }
    let chunk_size = match options.chunk_size {
        None => jobs.chunk_size,
        Some(size) if (1..=MAX_CHUNK_SIZE).contains(&size) => size as usize,
        Some(size) => {
            return Err(ApiError::invalid_body(format!("chunk_size must be 1 to {MAX_CHUNK_SIZE}, not {size}")));
        }
    };
    let priority = match options.priority {
        None => 1,
        Some(priority) if (1..=MAX_PRIORITY).contains(&priority) => priority,
        Some(priority) => {
            return Err(ApiError::invalid_body(format!("priority must be 1 to {MAX_PRIORITY}, not {priority}")));
        }
    };
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let media = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let source = match media.as_str() {
        "application/x-ndjson" | "application/jsonl" | "application/json-lines" | "application/x-jsonlines" => {
            Source::Body(body)
        }
        "application/json" => {
            let body = axum::body::to_bytes(body, PATH_REQUEST_BYTES)
                .await
                .map_err(|_| ApiError::payload_too_large(PATH_REQUEST_BYTES))?;
            let request: JobFromPath = serde_json::from_slice(&body).map_err(|e| {
                if e.is_data() {
                    ApiError::invalid_body(e.to_string())
                } else {
                    ApiError::malformed_json(e.to_string())
                }
            })?;
            let file = open_allowed(&request.path, &jobs.allowed_paths).await?;
            // Refused before anything is stored; a file that grows meanwhile is caught while read.
            let size = file
                .metadata()
                .await
                .map_err(|e| ApiError::invalid_body(format!("cannot read {}: {e}", request.path)))?;
            if size.len() > state.limits.max_upload_bytes as u64 {
                return Err(ApiError::payload_too_large(state.limits.max_upload_bytes));
            }
            Source::File(file, request.path)
        }
        _ => return Err(ApiError::unsupported_media_type()),
    };
    // Stored in small transactions; on any error the upload is dropped, which deletes it.
    let mut upload = jobs.store.begin_upload(chunk_size, priority).await.map_err(storage_error)?;
    if let Some(Extension(caller)) = &caller {
        jobs.store.set_owner(upload.id(), caller.name()).await.map_err(storage_error)?;
    }
    let stored = match source {
        Source::Body(body) => upload_body(body, limit, &mut upload).await,
        Source::File(file, path) => upload_file(file, &path, state.limits.max_upload_bytes, &mut upload).await,
    };
    // A refused upload (a body that stalled, was cut short or is too large) is deleted before
    // the answer, so that the client never reads a refusal while its job still exists.
    if let Err(error) = stored {
        upload.discard().await;
        return Err(error);
    }
    // Charged before the job becomes visible: a refused upload is deleted before the answer.
    let quota = caller.as_ref().and_then(|Extension(caller)| caller.quota());
    let mut charged = None;
    if let Some(quota) = quota {
        match quota.try_charge(upload.items() as u64, crate::http::auth::unix_secs()).await {
            Ok(charge) => charged = Some(charge),
            Err(refusal) => {
                upload.discard().await;
                return Err(ApiError::quota_exceeded(refusal.limit, refusal.retry_after_secs));
            }
        }
    }
    let status = match upload.finish().await {
        Ok(status) => status,
        Err(error) => {
            if let (Some(quota), Some(charged)) = (quota, charged) {
                quota.refund(charged).await;
            }
            return Err(upload_error(error));
        }
    };
    jobs.wakeup.wake();
    Ok((StatusCode::CREATED, axum::Json(status)).into_response())
}

/// Where an upload's lines come from.
enum Source {
    /// The request body, read as it arrives.
    Body(Body),
    /// A server-side file, and its path as given.
    File(tokio::fs::File, String),
}

/// A page of jobs, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobList {
    pub jobs: Vec<JobStatus>,
    /// The `offset` of the next page; absent on the last.
    pub next_offset: Option<u64>,
}

/// Lists jobs with their state and progress, newest first: with keys configured, a key without
/// `admin` sees only the jobs it submitted.
#[utoipa::path(get, path = "/v1/jobs", operation_id = "list_jobs", tag = "jobs", params(Page),
    responses(
        (status = 200, description = "A page of jobs.", body = JobList),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 422, description = "The query is invalid.", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    page: Result<Query<Page>, QueryRejection>,
) -> Result<axum::Json<JobList>, ApiError> {
    let page = parsed(page)?;
    let (rows, offset) = page.bounds()?;
    let jobs = handle(&state)?;
    let owner = caller.as_deref().filter(|caller| !caller.has(Role::Admin)).map(Caller::name);
    let listed = jobs.store.list(owner, rows, offset).await.map_err(storage_error)?;
    let (listed, next_offset) = page.cut(listed);
    Ok(axum::Json(JobList { jobs: listed, next_offset }))
}

/// A job's state and progress.
#[utoipa::path(get, path = "/v1/jobs/{id}", tag = "jobs",
    params(("id" = String, Path, description = "The job id returned at submission.")),
    responses(
        (status = 200, description = "The job's state and progress.", body = JobStatus),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such job, or, with keys configured, a job another key submitted (to a key without `admin`).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn status(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Result<axum::Json<JobStatus>, ApiError> {
    let jobs = handle(&state)?;
    check_owner(&jobs, &id, caller.as_deref()).await?;
    let status = jobs.store.status(&id).await.map_err(storage_error)?;
    status.map(axum::Json).ok_or(unknown_job(id))
}

/// Cancels a job: chunks not yet claimed will not run; results already written stay.
#[utoipa::path(delete, path = "/v1/jobs/{id}", tag = "jobs",
    params(("id" = String, Path, description = "The job id returned at submission.")),
    responses(
        (status = 200, description = "The job's state after cancelling.", body = JobStatus),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such job, or, with keys configured, a job another key submitted (to a key without `admin`).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn cancel(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Result<axum::Json<JobStatus>, ApiError> {
    let jobs = handle(&state)?;
    check_owner(&jobs, &id, caller.as_deref()).await?;
    let status = jobs.store.cancel(&id).await.map_err(storage_error)?;
    status.map(axum::Json).ok_or(unknown_job(id))
}

/// Streams the results written so far as NDJSON, in input order: one line per item,
/// `{"index", "id", "verifier", "score", "status", "details", "elapsed_us"}`. A finished job
/// streams every item exactly once.
#[utoipa::path(get, path = "/v1/jobs/{id}/results", tag = "jobs",
    params(("id" = String, Path, description = "The job id returned at submission.")),
    responses(
        (status = 200, description = "NDJSON, one result per line, in input order.", body = String, content_type = "application/x-ndjson"),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No such job, or, with keys configured, a job another key submitted (to a key without `admin`).", body = ErrorBody),
        (status = 503, description = "Overloaded or starting; retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn results(
    State(state): State<AppState>,
    caller: Option<Extension<Caller>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let jobs = handle(&state)?;
    check_owner(&jobs, &id, caller.as_deref()).await?;
    if jobs.store.status(&id).await.map_err(storage_error)?.is_none() {
        return Err(unknown_job(id));
    }
    let store = jobs.store.clone();
    let pages = stream::try_unfold(Some(-1i64), move |after| {
        let (store, id) = (store.clone(), id.clone());
        async move {
            let Some(after) = after else { return Ok(None) };
            let page = store.results(&id, after, RESULTS_PAGE).await?;
            let next = match page.last() {
                Some((last, _)) if page.len() as i64 == RESULTS_PAGE => Some(*last),
                _ => None,
            };
            if page.is_empty() {
                return Ok(None);
            }
            let mut chunk = String::with_capacity(page.iter().map(|(_, line)| line.len() + 1).sum());
            for (_, line) in &page {
                chunk.push_str(line);
                chunk.push('\n');
            }
            Ok::<_, sqlx::Error>(Some((Bytes::from(chunk), next)))
        }
    });
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], Body::from_stream(pages)).into_response())
}

fn unknown_job(id: impl std::fmt::Display) -> ApiError {
    ApiError::not_found("unknown_job", format!("no job has the id `{id}`"))
}

fn path_not_allowed(message: String) -> ApiError {
    ApiError::forbidden("path_not_allowed", message)
}
