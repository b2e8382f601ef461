//! One client for the model servers Referee calls: the LLM judge of `referee-rubric` (chat
//! completions) and the completions server of `referee-rlpr` (echoed prompt log-probs).
//!
//! A [`ModelClient`] POSTs a JSON body to one endpoint ([`Endpoint`]) and answers the reply's
//! JSON or a typed [`ModelError`]. Each call holds one of the endpoint's permits (waited for no
//! longer than the caller's deadline); each attempt runs under the per-attempt time limit, cut
//! to what the deadline leaves. 429s, 5xx, refused connections and timed-out attempts are
//! retried with exponential backoff and jitter ([`backon`]), a `Retry-After` header taking the
//! place of the next wait, every wait capped by [`RetryPolicy::max_backoff`]. Other statuses
//! are the server refusing the request ([`ModelError::Refused`]), and a failed TLS handshake is
//! fatal and named, with a hint at the setting that adds a private CA ([`ModelError::Tls`]).
//! Each [`Call`] reports how many retries it took and how long its attempts lasted, so callers
//! keep their own metrics and wording.

mod client;
mod error;
#[cfg(feature = "testkit")]
pub mod testkit;
mod text;
mod tls;

pub use client::{Call, Endpoint, ModelClient, RetryPolicy};
pub use error::{AttemptError, BuildError, ModelError};
pub use text::{chain, truncate};
pub use tls::{CaFileError, read_ca_certificates, tls_failure};
