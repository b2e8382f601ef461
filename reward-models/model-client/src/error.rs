//! What a call to a model server can end in.

use std::time::Duration;

use reqwest::StatusCode;

use crate::text::chain;
use crate::tls::CaFileError;

/// Why one attempt failed in a way another attempt may mend.
#[derive(Debug, thiserror::Error)]
pub enum AttemptError {
    /// No answer within the attempt's time limit.
    #[error("no answer within {limit:?}")]
    TimedOut { limit: Duration },
    /// The connection failed (refused, reset, name not found).
    #[error("cannot reach {peer}: {}", chain(.source))]
    Unreachable { peer: &'static str, source: reqwest::Error },
    /// A 429 or a 5xx, with the wait its `Retry-After` header asked for.
    #[error("{peer} answered HTTP {status}")]
    Status { peer: &'static str, status: StatusCode, retry_after: Option<Duration> },
    /// The reply's body broke off.
    #[error("{peer}'s answer broke off: {}", chain(.source))]
    BrokeOff { peer: &'static str, source: reqwest::Error },
}

/// Why a call produced no reply.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The caller's deadline passed before an attempt could start (while waiting for a permit,
    /// or before a retry).
    #[error("the deadline passed before {peer} answered")]
    Expired { peer: &'static str },
    /// The last attempt got no answer within its time limit.
    #[error("no answer within {limit:?}")]
    TimedOut { attempts: u32, limit: Duration },
    /// An attempt failed and the deadline leaves no time to wait for the next one.
    #[error("no time left to retry after: {last}")]
    NoTimeToRetry {
        #[source]
        last: AttemptError,
    },
    /// The server refused the request: a status other than success, 429 or 5xx. `body` is the
    /// start of its answer.
    #[error("{peer} answered HTTP {status}: {body}")]
    Refused { peer: &'static str, status: StatusCode, body: String },
    /// The TLS handshake failed: not retried, since a refused certificate stays refused.
    /// `message` names the peer and, for a refused certificate, the CA setting.
    #[error("{message}")]
    Tls { message: String, source: reqwest::Error },
    /// Every attempt failed; `last` is why the last one did.
    #[error("gave up after {attempts} attempts: {last}")]
    Unavailable {
        attempts: u32,
        #[source]
        last: AttemptError,
    },
    /// A successful status with a body that is not JSON.
    #[error("{peer}'s answer is not JSON ({source}): {excerpt}")]
    Malformed { peer: &'static str, source: serde_json::Error, excerpt: String },
    /// The client's permits are closed.
    #[error("the client of {peer} is closed")]
    Closed { peer: &'static str },
}

impl ModelError {
    /// True when the call ran out of time: the deadline, or the attempts' time limits.
    pub fn is_timeout(&self) -> bool {
        matches!(self, ModelError::Expired { .. } | ModelError::TimedOut { .. } | ModelError::NoTimeToRetry { .. })
    }
}

/// Why a [`crate::ModelClient`] cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The CA file is unusable.
    #[error(transparent)]
    CaFile(#[from] CaFileError),
    /// The HTTP client cannot be set up (no TLS backend).
    #[error("cannot build {peer}'s HTTP client: {}", chain(.source))]
    Http { peer: &'static str, source: reqwest::Error },
}
