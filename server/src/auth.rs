//! API keys: held only as SHA-256 digests, compared in constant time.

use std::path::Path;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

const DIGEST_PREFIX: &str = "sha256:";

/// The accepted API keys, as digests. Empty means authentication is off.
#[derive(Clone, Default)]
pub struct ApiKeys {
    digests: Vec<[u8; 32]>,
}

impl std::fmt::Debug for ApiKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiKeys").field("count", &self.digests.len()).finish()
    }
}

/// A key entry that is neither a usable key nor a well-formed digest.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("api key entry {index} of {source_name}: {reason}")]
    Malformed { source_name: String, index: usize, reason: String },
    #[error("cannot read api_keys_file {path}: {error}")]
    Unreadable { path: String, error: std::io::Error },
}

/// The `sha256:<hex>` form of a key entry (digests pass through unchanged).
pub fn digest_form(entry: &str) -> String {
    if entry.starts_with(DIGEST_PREFIX) {
        entry.to_owned()
    } else {
        format!("{DIGEST_PREFIX}{}", hex::encode(Sha256::digest(entry.as_bytes())))
    }
}

fn parse_entry(entry: &str) -> Result<[u8; 32], String> {
    match entry.strip_prefix(DIGEST_PREFIX) {
        Some(hex_digest) => {
            let bytes = hex::decode(hex_digest).map_err(|e| format!("bad hex digest: {e}"))?;
            bytes.try_into().map_err(|_| "a sha256 digest has 32 bytes".to_owned())
        }
        None if entry.len() < 16 => Err("keys must be at least 16 characters".to_owned()),
        None => Ok(Sha256::digest(entry.as_bytes()).into()),
    }
}

/// The key of an `Authorization` header value in the bearer scheme. The scheme name is
/// case-insensitive (RFC 9110, section 11.1: `Bearer`, `bearer` and `BEARER` are one scheme)
/// and separated from the key by spaces or tabs; the key is the rest, without surrounding
/// whitespace.
pub fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim_start().split_once([' ', '\t'])?;
    let key = rest.trim_matches([' ', '\t']);
    (scheme.eq_ignore_ascii_case("bearer") && !key.is_empty()).then_some(key)
}

impl ApiKeys {
    /// Keys from the configuration list and the optional file.
    pub fn load(listed: &[String], file: Option<&Path>) -> Result<ApiKeys, KeyError> {
        let mut digests = Vec::new();
        for (index, entry) in listed.iter().enumerate() {
            let digest = parse_entry(entry.trim()).map_err(|reason| KeyError::Malformed {
                source_name: "auth.api_keys".to_owned(),
                index,
                reason,
            })?;
            digests.push(digest);
        }
        if let Some(path) = file {
            let text = std::fs::read_to_string(path)
                .map_err(|error| KeyError::Unreadable { path: path.display().to_string(), error })?;
            let entries = text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty());
            for (index, entry) in entries.enumerate() {
                let digest = parse_entry(entry).map_err(|reason| KeyError::Malformed {
                    source_name: path.display().to_string(),
                    index,
                    reason,
                })?;
                digests.push(digest);
            }
        }
        Ok(ApiKeys { digests })
    }

    /// True when at least one key is configured.
    pub fn enabled(&self) -> bool {
        !self.digests.is_empty()
    }

    /// True when `presented` is one of the keys. Every stored digest is compared, in constant
    /// time, whatever matches.
    pub fn accepts(&self, presented: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        self.digests.iter().fold(subtle::Choice::from(0), |found, stored| found | stored.ct_eq(&digest)).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_digest_entries() {
        let key = "rk-0123456789abcdef";
        let keys = ApiKeys::load(&[digest_form(key), "another-long-key-000".to_owned()], None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(keys.enabled());
        assert!(keys.accepts(key));
        assert!(keys.accepts("another-long-key-000"));
        assert!(!keys.accepts("rk-0123456789abcdeF"));
        assert!(!keys.accepts(""));
    }

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        for value in ["Bearer k-1", "bearer k-1", "BEARER k-1", "bEaReR \t k-1 ", "Bearer\tk-1"] {
            assert_eq!(bearer_token(value), Some("k-1"), "{value:?}");
        }
        for value in ["Basic k-1", "Bearerk-1", "Bearer", "Bearer   ", "k-1", "", "Bearers k-1"] {
            assert_eq!(bearer_token(value), None, "{value:?}");
        }
    }

    #[test]
    fn malformed_entries_are_errors() {
        assert!(ApiKeys::load(&["short".to_owned()], None).is_err());
        assert!(ApiKeys::load(&["sha256:abcd".to_owned()], None).is_err());
        assert!(!ApiKeys::load(&[], None).map(|k| k.enabled()).unwrap_or(true));
    }

    #[test]
    fn key_file_with_comments() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("keys");
        std::fs::write(&path, "# trainers\nkey-for-trainer-one  # verl\n\n").unwrap_or_else(|e| panic!("{e}"));
        let keys = ApiKeys::load(&[], Some(&path)).unwrap_or_else(|e| panic!("{e}"));
        assert!(keys.accepts("key-for-trainer-one"));
    }
}
