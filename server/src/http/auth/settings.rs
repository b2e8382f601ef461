//! `[auth]`: API keys, their roles and limits.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// API keys. With none configured, `/v1` is open.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuthConfig {
    /// Keys, each either `sha256:<hex digest>` or the key itself (hashed at load). They have the
    /// roles `score` and `jobs` and no limits, as before keys had roles.
    pub api_keys: Vec<String>,
    /// A file of keys in the same forms, one per line; `#` starts a comment.
    pub api_keys_file: Option<PathBuf>,
    /// Keys with a name, roles and limits (`[[auth.keys]]` tables).
    pub keys: Vec<ScopedKeyConfig>,
}

/// One `[[auth.keys]]` table: a key with a name, roles and optional limits. The limits are kept
/// in each replica's memory, so with N replicas behind a load balancer a key gets up to N times
/// them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopedKeyConfig {
    /// Shown in logs and metrics and recorded as the owner of the key's jobs; never the key.
    pub name: String,
    /// The key itself (at least 16 characters), hashed at load; or give `digest`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `sha256:<hex digest>` of the key; or give `key`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// Any of `score`, `jobs`, `admin` (which includes the other two).
    pub roles: Vec<super::Role>,
    /// Requests per second this key may make (a token bucket), per replica.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_per_second: Option<f64>,
    /// Requests that may come at once; `requests_per_second` rounded up by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst: Option<u32>,
    /// Items this key may have scored per UTC day (score items, OpenRLHF queries, job items),
    /// per replica.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items_per_day: Option<u64>,
}
