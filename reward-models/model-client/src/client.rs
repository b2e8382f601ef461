//! The client: permits, attempts and the retry schedule.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use backon::{ExponentialBuilder, Retryable};
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use serde_json::Value;
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::error::{AttemptError, BuildError, ModelError};
use crate::text::truncate;
use crate::tls::{read_ca_certificates, tls_failure};

/// Characters of a refusing server's answer kept in [`ModelError::Refused`].
const REFUSAL_CHARS: usize = 300;
/// Characters of a non-JSON answer kept in [`ModelError::Malformed`].
const EXCERPT_CHARS: usize = 200;
/// The longest `Retry-After` read, before [`RetryPolicy::max_backoff`] caps it.
const MAX_RETRY_AFTER: f64 = 3600.0;

/// How failed attempts are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Further attempts after a retryable failure.
    pub max_retries: u32,
    /// Wait before the first retry; doubled each retry, with jitter.
    pub backoff: Duration,
    /// Longest wait between attempts, `Retry-After` included.
    pub max_backoff: Duration,
}

/// A model server's endpoint and how it is called.
#[derive(Clone)]
pub struct Endpoint {
    /// The full URL POSTed to (`http://127.0.0.1:8000/v1/completions`).
    pub url: String,
    /// Sent as `Authorization: Bearer`.
    pub api_key: Option<String>,
    /// A PEM file of CA certificates trusted besides the bundled Mozilla roots.
    pub ca_cert: Option<PathBuf>,
    /// The setting that names `ca_cert` (`judge.ca_cert`), for messages.
    pub ca_key: &'static str,
    /// The server as messages name it ("the judge").
    pub peer: &'static str,
    /// Time limit of one attempt.
    pub timeout: Duration,
    /// How failed attempts are retried.
    pub retry: RetryPolicy,
    /// Calls in flight at once (at least 1).
    pub concurrency: usize,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("url", &self.url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("ca_cert", &self.ca_cert)
            .field("peer", &self.peer)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("concurrency", &self.concurrency)
            .finish()
    }
}

/// The end of one call: the reply's JSON or why there is none, the retries it took, and how
/// long its attempts lasted (`None` when it made none: no permit before the deadline).
#[derive(Debug)]
pub struct Call {
    pub result: Result<Value, ModelError>,
    pub retries: u32,
    pub took: Option<Duration>,
}

/// Calls one endpoint. Cheap to clone; clones share the connection pool and the permits.
#[derive(Debug, Clone)]
pub struct ModelClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    endpoint: Endpoint,
    http: reqwest::Client,
    permits: Semaphore,
}

/// One attempt's failure: worth another attempt, or the end of the call.
enum Step {
    Retry(AttemptError),
    Stop(ModelError),
}

impl ModelClient {
    /// A client for `endpoint`; reads its CA file.
    pub fn new(endpoint: Endpoint) -> Result<ModelClient, BuildError> {
        let concurrency = endpoint.concurrency.max(1);
        let mut builder = reqwest::Client::builder().pool_max_idle_per_host(concurrency);
        if let Some(path) = &endpoint.ca_cert {
            for certificate in read_ca_certificates(path, endpoint.ca_key)? {
                builder = builder.add_root_certificate(certificate);
            }
        }
        let http = builder.build().map_err(|source| BuildError::Http { peer: endpoint.peer, source })?;
        let permits = Semaphore::new(concurrency);
        Ok(ModelClient { inner: Arc::new(Inner { endpoint, http, permits }) })
    }

    /// The endpoint called.
    pub fn endpoint(&self) -> &Endpoint {
        &self.inner.endpoint
    }

    /// POSTs `body` and reads the reply's JSON, retrying as the policy says; gives up when
    /// `deadline` passes (waiting for a permit included).
    pub async fn post(&self, body: &Value, deadline: Option<Instant>) -> Call {
        let _permit = match self.acquire(deadline).await {
            Ok(permit) => permit,
            Err(error) => return Call { result: Err(error), retries: 0, took: None },
        };
        let started = Instant::now();
        let (result, retries) = self.attempts(body, deadline).await;
        Call { result, retries, took: Some(started.elapsed()) }
    }

    async fn acquire(&self, deadline: Option<Instant>) -> Result<SemaphorePermit<'_>, ModelError> {
        let peer = self.inner.endpoint.peer;
        let acquired = match deadline {
            Some(deadline) => tokio::time::timeout_at(deadline.into(), self.inner.permits.acquire())
                .await
                .map_err(|_| ModelError::Expired { peer })?,
            None => self.inner.permits.acquire().await,
        };
        acquired.map_err(|_| ModelError::Closed { peer })
    }

    /// The attempts of one call: the reply or why there is none, and the retries made.
    async fn attempts(&self, body: &Value, deadline: Option<Instant>) -> (Result<Value, ModelError>, u32) {
        let policy = self.inner.endpoint.retry;
        let retries = AtomicU32::new(0);
        let out_of_time = AtomicBool::new(false);
        let result = (|| self.attempt(body, deadline))
            .retry(schedule(policy))
            .when(|step| matches!(step, Step::Retry(_)))
            .adjust(|step, next| {
                // `next` is backon's jittered step, `None` once the retries are spent; a
                // Retry-After takes its place, and neither may outlast max_backoff.
                let retry_after = match step {
                    Step::Retry(AttemptError::Status { retry_after, .. }) => *retry_after,
                    Step::Retry(_) | Step::Stop(_) => None,
                };
                let wait = retry_after.unwrap_or(next?).min(policy.max_backoff);
                if deadline.is_some_and(|deadline| Instant::now() + wait >= deadline) {
                    out_of_time.store(true, Ordering::Relaxed);
                    return None;
                }
                Some(wait)
            })
            .notify(|step, wait| {
                let attempt = retries.fetch_add(1, Ordering::Relaxed);
                if let Step::Retry(reason) = step {
                    tracing::debug!(peer = self.inner.endpoint.peer, attempt, %reason, ?wait, "retrying a call");
                }
            })
            .await;
        let (retries, out_of_time) = (retries.into_inner(), out_of_time.into_inner());
        let result = result.map_err(|step| match step {
            Step::Stop(error) => error,
            Step::Retry(last) if out_of_time => ModelError::NoTimeToRetry { last },
            Step::Retry(AttemptError::TimedOut { limit }) => ModelError::TimedOut { attempts: retries + 1, limit },
            Step::Retry(last) => ModelError::Unavailable { attempts: retries + 1, last },
        });
        (result, retries)
    }

    /// One attempt under the time limit, cut to what the deadline leaves.
    async fn attempt(&self, body: &Value, deadline: Option<Instant>) -> Result<Value, Step> {
        let endpoint = &self.inner.endpoint;
        let peer = endpoint.peer;
        let mut limit = endpoint.timeout;
        if let Some(deadline) = deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Step::Stop(ModelError::Expired { peer }));
            }
            limit = limit.min(left);
        }
        let mut request = self.inner.http.post(&endpoint.url).json(body).timeout(limit);
        if let Some(key) = &endpoint.api_key {
            request = request.bearer_auth(key);
        }
        let response = match request.send().await {
            Ok(response) => response,
            Err(error) if error.is_timeout() => return Err(Step::Retry(AttemptError::TimedOut { limit })),
            Err(source) => {
                // A refused certificate or a failed handshake does not get better by retrying.
                if let Some(message) = tls_failure(&source, peer, endpoint.ca_key) {
                    return Err(Step::Stop(ModelError::Tls { message, source }));
                }
                return Err(Step::Retry(AttemptError::Unreachable { peer, source }));
            }
        };
        let status = response.status();
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            let retry_after = retry_after(response.headers());
            return Err(Step::Retry(AttemptError::Status { peer, status, retry_after }));
        }
        let text = match response.text().await {
            Ok(text) => text,
            Err(error) if error.is_timeout() => return Err(Step::Retry(AttemptError::TimedOut { limit })),
            Err(source) => return Err(Step::Retry(AttemptError::BrokeOff { peer, source })),
        };
        if !status.is_success() {
            return Err(Step::Stop(ModelError::Refused { peer, status, body: truncate(&text, REFUSAL_CHARS) }));
        }
        serde_json::from_str(&text).map_err(|source| {
            Step::Stop(ModelError::Malformed { peer, source, excerpt: truncate(&text, EXCERPT_CHARS) })
        })
    }
}

/// backon's exponential schedule for `policy`: `backoff` doubled each retry, plus a jitter of
/// up to the step itself, steps capped at `max_backoff` (the jittered wait is capped again in
/// `adjust`, where a Retry-After may replace it).
fn schedule(policy: RetryPolicy) -> ExponentialBuilder {
    ExponentialBuilder::new()
        .with_min_delay(policy.backoff)
        .with_max_delay(policy.max_backoff)
        .with_max_times(usize::try_from(policy.max_retries).unwrap_or(usize::MAX))
        .with_jitter()
}

/// The wait a `Retry-After: <seconds>` header asks for (an HTTP date is not read).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    headers
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(MAX_RETRY_AFTER)))
}
