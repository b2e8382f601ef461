//! API keys: held only as SHA-256 digests, compared in constant time. Each key has a name
//! (shown in logs and metrics and owning the jobs it submits, never the key itself), roles, and
//! optionally a request rate and a daily item quota.

mod limits;
mod routes;
pub mod settings;

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};

pub use limits::{Charged, DailyQuota, Ledger, QuotaRefusal, RateLimit, unix_secs};
pub use routes::{Access, Charge, access, document as document_access};

use self::settings::{AuthConfig, ScopedKeyConfig};

const DIGEST_PREFIX: &str = "sha256:";

/// What a key may do. `admin` includes the other two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Scoring and the calls a training loop makes: `/v1/score*`, `/get_reward`, listings,
    /// rubric and noise reads, the noise step, group advantages, the RLPR filter and preparation.
    Score,
    /// Submitting jobs, and reading and cancelling the key's own jobs.
    Jobs,
    /// Changing what every caller sees (noise models, audits, rubrics, the RLPR model, RLPR runs)
    /// and any job of any key.
    Admin,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Score => "score",
            Role::Jobs => "jobs",
            Role::Admin => "admin",
        })
    }
}

/// One accepted key: its digest, name, roles and limits.
#[derive(Debug)]
pub struct KeyEntry {
    digest: [u8; 32],
    name: String,
    roles: Vec<Role>,
    rate: Option<RateLimit>,
    quota: Option<DailyQuota>,
}

/// The key a request was made with, put in the request's extensions by the `/v1` guard.
#[derive(Debug, Clone)]
pub struct Caller(Arc<KeyEntry>);

impl Caller {
    /// The key's name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// Whether the key may act as `role`; `admin` keys may act as any.
    pub fn has(&self, role: Role) -> bool {
        self.0.roles.iter().any(|&r| r == role || r == Role::Admin)
    }

    /// The key's request rate, if it has one.
    pub fn rate(&self) -> Option<&RateLimit> {
        self.0.rate.as_ref()
    }

    /// The key's daily item quota, if it has one.
    pub fn quota(&self) -> Option<&DailyQuota> {
        self.0.quota.as_ref()
    }
}

/// The accepted API keys. Empty means authentication is off.
#[derive(Clone, Default)]
pub struct ApiKeys {
    entries: Vec<Arc<KeyEntry>>,
    /// Where the keys' daily quotas are counted.
    ledger: Ledger,
}

impl std::fmt::Debug for ApiKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiKeys").field("count", &self.entries.len()).finish()
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

fn parse_digest(digest: &str) -> Result<[u8; 32], String> {
    let hex_digest =
        digest.strip_prefix(DIGEST_PREFIX).ok_or_else(|| format!("a digest starts with `{DIGEST_PREFIX}`"))?;
    let bytes = hex::decode(hex_digest).map_err(|e| format!("bad hex digest: {e}"))?;
    bytes.try_into().map_err(|_| "a sha256 digest has 32 bytes".to_owned())
}

fn parse_key(key: &str) -> Result<[u8; 32], String> {
    if key.len() < 16 {
        return Err("keys must be at least 16 characters".to_owned());
    }
    Ok(Sha256::digest(key.as_bytes()).into())
}

fn parse_entry(entry: &str) -> Result<[u8; 32], String> {
    if entry.starts_with(DIGEST_PREFIX) { parse_digest(entry) } else { parse_key(entry) }
}

/// The roles of a plain `api_keys` entry: everything but `admin`, as before keys had roles.
pub const PLAIN_ROLES: [Role; 2] = [Role::Score, Role::Jobs];

/// Most characters of a key name.
const MAX_NAME_CHARS: usize = 64;

/// The name of a plain entry: `key-` and the first 12 hex digits of its digest, stable however
/// the entries are ordered and the same whether the key or its digest is configured.
fn plain_name(digest: &[u8; 32]) -> String {
    format!("key-{}", &hex::encode(digest)[..12])
}

fn check_name(name: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || !name.chars().all(allowed) {
        return Err(format!("name {name:?} must be 1 to {MAX_NAME_CHARS} letters, digits, `-`, `_` or `.`"));
    }
    Ok(())
}

/// One `[[auth.keys]]` table as an entry.
fn scoped_entry(config: &ScopedKeyConfig, ledger: &Ledger) -> Result<KeyEntry, String> {
    check_name(&config.name)?;
    let digest = match (&config.key, &config.digest) {
        (Some(key), None) => parse_key(key)?,
        (None, Some(digest)) => parse_digest(digest)?,
        _ => return Err("give exactly one of `key` and `digest`".to_owned()),
    };
    if config.roles.is_empty() {
        return Err("`roles` is empty: give one or more of score, jobs, admin".to_owned());
    }
    let rate = match (config.requests_per_second, config.burst) {
        (None, None) => None,
        (None, Some(_)) => return Err("`burst` needs `requests_per_second`".to_owned()),
        (Some(rate), _) if !(rate.is_finite() && rate > 0.0) => {
            return Err(format!("requests_per_second must be a positive number, not {rate}"));
        }
        (Some(_), Some(0)) => return Err("burst must be at least 1".to_owned()),
        // By default a second's worth of requests may come at once.
        (Some(rate), burst) => Some(RateLimit::new(rate, burst.unwrap_or(rate.ceil().min(f64::from(u32::MAX)) as u32))),
    };
    if config.max_items_per_day == Some(0) {
        return Err("max_items_per_day must be at least 1; remove the key to refuse it".to_owned());
    }
    let quota = config.max_items_per_day.map(|max| DailyQuota::new(max, &config.name, ledger.clone()));
    let mut roles = config.roles.clone();
    roles.sort_by_key(|r| *r as u8);
    roles.dedup();
    Ok(KeyEntry { digest, name: config.name.clone(), roles, rate, quota })
}

impl ApiKeys {
    /// The keys of the `[auth]` section: the `[[auth.keys]]` tables, then the plain `api_keys`
    /// entries and the `api_keys_file`, which get [`PLAIN_ROLES`]. A name or key given twice is
    /// an error, except a plain key listed twice.
    pub fn from_config(config: &AuthConfig) -> Result<ApiKeys, KeyError> {
        let mut keys = ApiKeys::default();
        for (index, table) in config.keys.iter().enumerate() {
            let malformed = |reason| KeyError::Malformed { source_name: "auth.keys".to_owned(), index, reason };
            let entry = scoped_entry(table, &keys.ledger).map_err(malformed)?;
            keys.add(Arc::new(entry)).map_err(malformed)?;
        }
        let plain = ApiKeys::load(&config.api_keys, config.api_keys_file.as_deref())?;
        let plain_count = plain.entries.len();
        for (index, entry) in plain.entries.into_iter().enumerate() {
            keys.add(entry).map_err(|reason| KeyError::Malformed {
                source_name: "auth.api_keys and auth.api_keys_file".to_owned(),
                index,
                reason,
            })?;
        }
        if plain_count > 0 {
            tracing::info!(
                keys = plain_count,
                "plain auth.api_keys entries have the roles score and jobs, never admin; \
                 [[auth.keys]] tables give a key a name, roles and limits"
            );
        }
        for entry in &keys.entries {
            let roles: Vec<String> = entry.roles.iter().map(Role::to_string).collect();
            tracing::debug!(key = %entry.name, roles = %roles.join(","), "api key");
        }
        Ok(keys)
    }

    /// Counts the keys' daily quotas in `storage` from now on, shared by every replica on it.
    pub fn count_quotas_in(&self, storage: crate::store::Storage) {
        self.ledger.connect(storage);
    }

    fn add(&mut self, entry: Arc<KeyEntry>) -> Result<(), String> {
        if let Some(same) = self.entries.iter().find(|e| e.digest == entry.digest) {
            if same.name == entry.name && same.roles == entry.roles && entry.rate.is_none() && entry.quota.is_none() {
                return Ok(());
            }
            return Err(format!("the key of {:?} is also the key of {:?}", entry.name, same.name));
        }
        if self.entries.iter().any(|e| e.name == entry.name) {
            return Err(format!("two keys are named {:?}", entry.name));
        }
        self.entries.push(entry);
        Ok(())
    }

    /// Plain keys from a list and an optional file (one per line, `#` starts a comment), each
    /// with [`PLAIN_ROLES`] and no limits.
    pub fn load(listed: &[String], file: Option<&Path>) -> Result<ApiKeys, KeyError> {
        let mut keys = ApiKeys::default();
        let mut push = |digest: [u8; 32]| {
            // A plain key listed twice is one key.
            let entry =
                KeyEntry { digest, name: plain_name(&digest), roles: PLAIN_ROLES.to_vec(), rate: None, quota: None };
            let _ = keys.add(Arc::new(entry));
        };
        for (index, entry) in listed.iter().enumerate() {
            let digest = parse_entry(entry.trim()).map_err(|reason| KeyError::Malformed {
                source_name: "auth.api_keys".to_owned(),
                index,
                reason,
            })?;
            push(digest);
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
                push(digest);
            }
        }
        Ok(keys)
    }

    /// True when at least one key is configured.
    pub fn enabled(&self) -> bool {
        !self.entries.is_empty()
    }

    /// The key `presented` is, if it is one. Every stored digest is compared, in constant time,
    /// whatever matches, and the match is selected without branching on it.
    pub fn authenticate(&self, presented: &str) -> Option<Caller> {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = subtle::Choice::from(0);
        let mut index = 0u64;
        for (i, entry) in self.entries.iter().enumerate() {
            let matches = entry.digest.ct_eq(&digest);
            index = u64::conditional_select(&index, &(i as u64), matches);
            found |= matches;
        }
        let found: bool = found.into();
        found.then(|| self.entries.get(index as usize).map(|e| Caller(Arc::clone(e)))).flatten()
    }

    /// True when `presented` is one of the keys.
    pub fn accepts(&self, presented: &str) -> bool {
        self.authenticate(presented).is_some()
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

    fn table(name: &str, key: &str, roles: &[Role]) -> ScopedKeyConfig {
        ScopedKeyConfig {
            name: name.to_owned(),
            key: Some(key.to_owned()),
            roles: roles.to_vec(),
            ..Default::default()
        }
    }

    fn from_tables(tables: Vec<ScopedKeyConfig>, plain: &[&str]) -> Result<ApiKeys, KeyError> {
        let api_keys = plain.iter().map(|k| (*k).to_owned()).collect();
        ApiKeys::from_config(&AuthConfig { keys: tables, api_keys, ..Default::default() })
    }

    #[test]
    fn scoped_keys_have_names_roles_and_limits() {
        let admin_digest = digest_form("admin-key-0123456789");
        let keys = from_tables(
            vec![
                ScopedKeyConfig {
                    requests_per_second: Some(2.5),
                    max_items_per_day: Some(1000),
                    ..table("trainer", "trainer-key-0123456789", &[Role::Score])
                },
                ScopedKeyConfig { key: None, digest: Some(admin_digest), ..table("ops", "", &[Role::Admin]) },
            ],
            &["plain-key-0123456789"],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let Some(trainer) = keys.authenticate("trainer-key-0123456789") else { panic!("the trainer key") };
        assert_eq!(trainer.name(), "trainer");
        assert!(trainer.has(Role::Score) && !trainer.has(Role::Jobs) && !trainer.has(Role::Admin));
        assert_eq!(trainer.rate().map(RateLimit::rate), Some(2.5));
        assert_eq!(trainer.quota().map(DailyQuota::limit), Some(1000));
        let Some(ops) = keys.authenticate("admin-key-0123456789") else { panic!("the admin key") };
        assert!(ops.has(Role::Score) && ops.has(Role::Jobs) && ops.has(Role::Admin), "admin includes the others");
        assert!(ops.rate().is_none() && ops.quota().is_none());
        let Some(plain) = keys.authenticate("plain-key-0123456789") else { panic!("the plain key") };
        assert!(plain.has(Role::Score) && plain.has(Role::Jobs) && !plain.has(Role::Admin));
        assert_eq!(plain.name(), plain_name(&Sha256::digest(b"plain-key-0123456789").into()));
        assert!(plain.name().starts_with("key-") && !plain.name().contains("plain"));
        assert!(keys.authenticate("trainer-key-012345678").is_none());
    }

    #[test]
    fn malformed_tables_are_errors() {
        let good = || table("trainer", "trainer-key-0123456789", &[Role::Score]);
        let refused = [
            ScopedKeyConfig { digest: Some(digest_form("x")), ..good() },
            ScopedKeyConfig { key: None, ..good() },
            ScopedKeyConfig { key: Some("short".to_owned()), ..good() },
            ScopedKeyConfig { roles: vec![], ..good() },
            ScopedKeyConfig { name: String::new(), ..good() },
            ScopedKeyConfig { name: "has space".to_owned(), ..good() },
            ScopedKeyConfig { name: "n".repeat(65), ..good() },
            ScopedKeyConfig { burst: Some(3), ..good() },
            ScopedKeyConfig { requests_per_second: Some(0.0), ..good() },
            ScopedKeyConfig { requests_per_second: Some(f64::NAN), ..good() },
            ScopedKeyConfig { requests_per_second: Some(1.0), burst: Some(0), ..good() },
            ScopedKeyConfig { max_items_per_day: Some(0), ..good() },
        ];
        for table in refused {
            assert!(from_tables(vec![table.clone()], &[]).is_err(), "{table:?}");
        }
        assert!(from_tables(vec![good()], &[]).is_ok());
        // Two names for one key, or one name for two keys.
        assert!(from_tables(vec![good(), table("other", "trainer-key-0123456789", &[Role::Jobs])], &[]).is_err());
        assert!(from_tables(vec![good(), table("trainer", "another-key-0123456789", &[Role::Jobs])], &[]).is_err());
        assert!(from_tables(vec![good()], &["trainer-key-0123456789"]).is_err(), "a scoped key listed plain too");
        // A plain key listed twice is one key.
        let twice = from_tables(vec![], &["plain-key-0123456789", "plain-key-0123456789"]);
        assert_eq!(twice.map(|k| k.entries.len()).ok(), Some(1));
    }

    #[test]
    fn tables_parse_from_toml_and_never_show_the_key() {
        let config: crate::config::Config = toml::from_str(
            r#"
            [[auth.keys]]
            name = "trainer"
            key = "trainer-key-0123456789"
            roles = ["score", "jobs"]
            requests_per_second = 50
            burst = 100
            max_items_per_day = 1000000
            "#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let keys = ApiKeys::from_config(&config.auth).unwrap_or_else(|e| panic!("{e}"));
        assert!(keys.authenticate("trainer-key-0123456789").is_some_and(|c| c.has(Role::Jobs)));
        let shown = config.to_toml();
        assert!(!shown.contains("trainer-key-0123456789"), "{shown}");
        assert!(shown.contains(&digest_form("trainer-key-0123456789")), "{shown}");
        let unknown_role = toml::from_str::<crate::config::Config>(
            "[[auth.keys]]\nname = \"t\"\nkey = \"trainer-key-0123456789\"\nroles = [\"root\"]\n",
        );
        assert!(unknown_role.is_err());
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
