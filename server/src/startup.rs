//! What the server checks at start: the database (with a bounded retry that names the URL) and
//! which verifiers and languages are available.

use std::time::Duration;

use anyhow::Context as _;
use referee_code::{Availability, LanguageStatus};
use serde::Serialize;
use sqlx::Connection as _;
use utoipa::ToSchema;

use crate::config::Config;
use crate::registry::Registry;
use crate::store::{Backend, Storage};

/// `url` with its password replaced by `***`, for logs and messages.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let (authority, path) = rest.split_once('/').map_or((rest, None), |(a, p)| (a, Some(p)));
    let redacted = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => authority.to_owned(),
        },
        None => authority.to_owned(),
    };
    // A password may also come as a query parameter (`?password=...`).
    let path = path.map(|p| match p.split_once('?') {
        Some((before, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                    _ => pair.to_owned(),
                })
                .collect();
            format!("{before}?{}", query.join("&"))
        }
        None => p.to_owned(),
    });
    match path {
        Some(path) => format!("{scheme}://{redacted}/{path}"),
        None => format!("{scheme}://{redacted}"),
    }
}

/// How the database is retried at start.
#[derive(Debug, Clone, Copy)]
pub struct DatabaseRetry {
    /// Attempts in all, the first included.
    pub attempts: u32,
    /// The wait after the first failure; it doubles after each further one.
    pub first_wait: Duration,
    /// The longest one connection attempt may take.
    pub connect_timeout: Duration,
}

impl Default for DatabaseRetry {
    /// 6 attempts, 0.5 s doubling: the last one starts about 15 s after the first.
    fn default() -> Self {
        DatabaseRetry { attempts: 6, first_wait: Duration::from_millis(500), connect_timeout: Duration::from_secs(10) }
    }
}

/// One connection to `url`, or why not; a PostgreSQL URL is tried directly so that the cause
/// (refused, unknown host, bad password) is not hidden behind a pool's timeout.
pub async fn try_connect(url: &str, timeout: Duration) -> anyhow::Result<()> {
    sqlx::any::install_default_drivers();
    if Backend::of_url(url) != Some(Backend::Postgres) {
        return Ok(());
    }
    let connection = tokio::time::timeout(timeout, sqlx::AnyConnection::connect(url))
        .await
        .map_err(|_| anyhow::anyhow!("no answer within {} s", timeout.as_secs()))??;
    let _ = connection.close().await;
    Ok(())
}

/// Opens and migrates the database, retrying a PostgreSQL server that does not answer with
/// backoff and one log line per retry; the final error names the URL (without its password)
/// and the cause.
pub async fn open_database(url: &str, max_connections: u32, retry: DatabaseRetry) -> anyhow::Result<Storage> {
    let shown = redact_url(url);
    let mut wait = retry.first_wait;
    for attempt in 1..=retry.attempts.max(1) {
        match try_connect(url, retry.connect_timeout).await {
            Ok(()) => break,
            Err(error) if attempt < retry.attempts => {
                tracing::warn!(
                    url = %shown,
                    attempt,
                    of = retry.attempts,
                    retry_in_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
                    error = format!("{error:#}"),
                    "the database does not answer; retrying"
                );
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
            }
            Err(error) => {
                return Err(error)
                    .with_context(|| format!("cannot connect to the database at {shown} (tried {attempt} times)"));
            }
        }
    }
    Storage::open(url, max_connections).await.with_context(|| format!("cannot open the database at {shown}"))
}

/// Whether a language can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LanguageState {
    /// Set up and ready.
    Available,
    /// Its set-up failed; `reason` and `fix` say why and what to do.
    Unavailable,
    /// Not set up yet, or being set up now.
    Unchecked,
}

/// One language of a verifier, as `GET /v1/verifiers` and `/readyz?verbose` report it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LanguageAvailability {
    /// `python`, `c`, `cpp` or `javascript`.
    pub language: String,
    /// The runtime or compiler its programs get, with its version.
    pub runtime: String,
    pub status: LanguageState,
    /// Why it is unavailable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How to make it available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
    /// Milliseconds until its set-up is tried again (at the next use after that).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_in_ms: Option<u64>,
}

/// Whether a verifier can judge items here.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VerifierAvailability {
    /// False only when none of its languages is available or unchecked.
    pub available: bool,
    /// Per language, for verifiers that run programs (`code`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<LanguageAvailability>,
}

impl From<&LanguageStatus> for LanguageAvailability {
    fn from(status: &LanguageStatus) -> Self {
        let language = status.language.to_owned();
        let runtime = status.runtime.to_owned();
        match &status.availability {
            Availability::Unchecked => LanguageAvailability {
                language,
                runtime,
                status: LanguageState::Unchecked,
                reason: None,
                fix: None,
                retry_in_ms: None,
            },
            Availability::Available => LanguageAvailability {
                language,
                runtime,
                status: LanguageState::Available,
                reason: None,
                fix: None,
                retry_in_ms: None,
            },
            Availability::Unavailable { reason, fix, retry_in } => LanguageAvailability {
                language,
                runtime,
                status: LanguageState::Unavailable,
                reason: Some(reason.clone()),
                fix: Some(fix.clone()),
                retry_in_ms: Some(u64::try_from(retry_in.as_millis()).unwrap_or(u64::MAX)),
            },
        }
    }
}

/// The availability of the verifier `id` of `registry`: per language for `code` and
/// `code-tests`, which share a sandbox (what the last set-up of each found in it), Yosys's for
/// `verilog`, available for every other one. Reading it starts, in
/// the background, a new set-up of a language whose backoff has run out, so the report catches
/// up with a host that was fixed.
pub fn availability_of(registry: &Registry, id: &str) -> VerifierAvailability {
    // Only `code`, `code-tests` and `verilog` run programs; a registry built without the code
    // verifier reports none.
    let runs_programs = ["code", referee_code::CODE_TESTS_ID, referee_code::VERILOG_ID];
    let Some(code) = registry.code().filter(|_| runs_programs.contains(&id)) else {
        return VerifierAvailability { available: true, languages: Vec::new() };
    };
    let verilog = id == referee_code::VERILOG_ID;
    let statuses = if verilog { vec![code.verilog_availability()] } else { code.availability() };
    let due = statuses
        .iter()
        .any(|s| matches!(s.availability, Availability::Unavailable { retry_in, .. } if retry_in.is_zero()));
    if due && tokio::runtime::Handle::try_current().is_ok() {
        let code = code.clone();
        tokio::task::spawn_blocking(move || {
            if verilog {
                let _ = code.check_verilog();
            } else {
                let _ = code.check_languages();
            }
        });
    }
    let languages: Vec<LanguageAvailability> = statuses.iter().map(LanguageAvailability::from).collect();
    let available = languages.iter().any(|l| l.status != LanguageState::Unavailable);
    VerifierAvailability { available, languages }
}

/// Sets up every language of the `code` verifier and logs, for each verifier and language,
/// whether it is available and why not (blocking).
pub fn log_availability(registry: &Registry) {
    let statuses = registry.code().map(referee_code::CodeVerifier::check_languages).unwrap_or_default();
    for entry in registry.entries() {
        if entry.id() != "code" {
            tracing::info!(verifier = entry.id(), "verifier available");
            continue;
        }
        for status in &statuses {
            match &status.availability {
                Availability::Available => {
                    tracing::info!(verifier = "code", language = status.language, "language available");
                }
                Availability::Unchecked => {
                    tracing::info!(verifier = "code", language = status.language, "language not checked yet");
                }
                Availability::Unavailable { reason, fix, .. } => tracing::warn!(
                    verifier = "code",
                    language = status.language,
                    %reason,
                    %fix,
                    "language unavailable: its items are answered invalid_input with this reason"
                ),
            }
        }
    }
}

/// The sandbox configuration of `config` (`[sandbox]`): the runtimes folder through the search
/// order, and the workers, pool and backoff where they are set.
pub fn sandbox_config(config: &Config) -> referee_code::SandboxConfig {
    let settings = &config.sandbox;
    let mut sandbox = referee_code::SandboxConfig::located(config.runtimes_dir(), Some(&config.data_dir));
    if let Some(workers) = settings.workers {
        sandbox.workers = workers;
        sandbox.pool_runs = referee_code::SandboxConfig::pool_runs_for(workers);
    }
    if let Some(pool_runs) = settings.pool_runs {
        sandbox.pool_runs = pool_runs;
    }
    sandbox.setup_backoff = Duration::from_millis(settings.setup_backoff_ms);
    // Each live python-tool episode keeps an interpreter in the pool.
    sandbox.sessions = config.episodes.max_live_python;
    sandbox
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{DatabaseRetry, open_database, redact_url};

    #[tokio::test]
    async fn an_unreachable_database_fails_after_the_retries_naming_the_url_and_cause() {
        let retry = DatabaseRetry {
            attempts: 3,
            first_wait: Duration::from_millis(1),
            connect_timeout: Duration::from_secs(5),
        };
        // Nothing listens on port 1.
        let opened = open_database("postgres://referee:hunter2@127.0.0.1:1/referee", 1, retry).await;
        let message = format!("{:#}", opened.err().unwrap_or_else(|| anyhow::anyhow!("opened")));
        assert!(message.contains("postgres://referee:***@127.0.0.1:1/referee"), "{message}");
        assert!(message.contains("tried 3 times") && message.contains("refused"), "{message}");
        assert!(!message.contains("hunter2"), "{message}");
    }

    #[test]
    fn the_configured_runtimes_folder_comes_first_then_the_data_directory() -> anyhow::Result<()> {
        let root = tempfile::tempdir()?;
        let (configured, data_dir) = (root.path().join("configured"), root.path().join("data"));
        let mut config: crate::Config = toml::from_str(&format!(
            "data_dir = {:?}\n[sandbox]\nruntimes_dir = {:?}\n",
            data_dir.display().to_string(),
            configured.display().to_string()
        ))?;
        std::fs::create_dir_all(data_dir.join("runtimes"))?;
        std::fs::write(data_dir.join("runtimes").join(referee_code::PYTHON_WASM), b"x")?;
        let located = super::sandbox_config(&config);
        assert_eq!(located.runtimes_search.first(), Some(&configured));
        assert!(located.runtimes_search.contains(&data_dir.join("runtimes")));
        std::fs::create_dir_all(&configured)?;
        std::fs::write(configured.join(referee_code::PYTHON_WASM), b"x")?;
        assert_eq!(super::sandbox_config(&config).runtimes_dir, configured);
        config.sandbox.runtimes_dir = None;
        let search = super::sandbox_config(&config).runtimes_search;
        assert!(!search.contains(&configured) && search.contains(&data_dir.join("runtimes")), "{search:?}");
        // The deprecated key still names the folder.
        config.code.runtimes_dir = Some(configured.clone());
        assert_eq!(super::sandbox_config(&config).runtimes_dir, configured);
        Ok(())
    }

    #[test]
    fn the_sandbox_table_sets_the_workers_pool_and_backoff() {
        let mut config = crate::Config::default();
        let defaults = super::sandbox_config(&config);
        assert_eq!(defaults.pool_runs, referee_code::SandboxConfig::pool_runs_for(defaults.workers));
        assert_eq!(defaults.setup_backoff, Duration::from_secs(1));
        config.sandbox.workers = Some(3);
        let three = super::sandbox_config(&config);
        assert_eq!((three.workers, three.pool_runs), (3, 8), "the pool follows the workers");
        config.sandbox.pool_runs = Some(0);
        config.sandbox.setup_backoff_ms = 250;
        let off = super::sandbox_config(&config);
        assert_eq!((off.workers, off.pool_runs, off.setup_backoff), (3, 0, Duration::from_millis(250)));
    }

    #[test]
    fn passwords_are_hidden_and_everything_else_is_kept() {
        assert_eq!(redact_url("postgres://referee:s3cret@db:5432/referee"), "postgres://referee:***@db:5432/referee");
        assert_eq!(redact_url("postgres://referee@db/referee"), "postgres://referee@db/referee");
        assert_eq!(
            redact_url("postgresql://u:p%40ss@h/db?sslmode=require&password=x"),
            "postgresql://u:***@h/db?sslmode=require&password=***"
        );
        assert_eq!(redact_url("postgres://u:p@ss@h/db"), "postgres://u:***@h/db", "the last @ ends the user info");
        assert_eq!(redact_url("sqlite://data/referee.db?mode=rwc"), "sqlite://data/referee.db?mode=rwc");
        assert_eq!(redact_url("sqlite:relative.db"), "sqlite:relative.db");
    }
}
