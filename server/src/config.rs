//! Configuration in layers: compiled-in defaults, then a TOML file, then `REFEREE__...`
//! environment variables, then command-line flags. Unknown keys are an error naming the key.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

pub use crate::features::adapters::settings::OpenRlhfConfig;
pub use crate::features::episodes::settings::EpisodesConfig;
pub use crate::features::jobs::settings::JobsConfig;
pub use crate::features::noise::settings::NoiseConfig;
pub use crate::features::rlpr::settings::{RlprConfig, RlprSource};
pub use crate::features::runs::settings::RunsConfig;
pub use crate::http::auth::settings::{AuthConfig, ScopedKeyConfig};
pub use crate::http::settings::ServerConfig;
pub use crate::store::settings::{CacheConfig, DatabaseConfig, LogMode, ScoringLogConfig};

/// Everything the server and the CLI read from configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Where the SQLite database and other state live when no `database_url` is set.
    pub data_dir: PathBuf,
    /// `sqlite://PATH` or `postgres://...`; defaults to `sqlite://<data_dir>/referee.db`.
    pub database_url: Option<String>,
    pub server: ServerConfig,
    pub database: DatabaseConfig,
    pub scoring_log: ScoringLogConfig,
    pub cache: CacheConfig,
    pub auth: AuthConfig,
    pub jobs: JobsConfig,
    /// Multi-turn environment episodes.
    pub episodes: EpisodesConfig,
    pub noise: NoiseConfig,
    /// Training runs: statistics and per-prompt pass rates.
    pub runs: RunsConfig,
    pub openrlhf: OpenRlhfConfig,
    pub log: LogConfig,
    /// The LLM judge of the `rubric` reward model.
    pub judge: referee_rubric::JudgeConfig,
    /// The `code` verifier.
    pub code: CodeConfig,
    /// The sandbox the `code` verifier runs programs in.
    pub sandbox: SandboxConfig,
    /// The model that scores `rlpr` items sent without log-probs.
    pub rlpr: RlprConfig,
    /// How long stored rows are kept.
    pub retention: crate::store::retention::RetentionConfig,
}

/// The `code` verifier's admission bound.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CodeConfig {
    /// Items admitted but not yet judged, across all requests; a synchronous scoring request
    /// whose `code` items do not fit is refused with 429 and `Retry-After`
    /// (`server.retry_after_secs`), while jobs wait their turn. A batch larger than the bound
    /// runs alone once nothing else is pending. Default: 64 per sandbox worker
    /// (`sandbox.workers`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_pending_items: Option<usize>,
    /// Deprecated: moved to `sandbox.runtimes_dir`, which it still sets when that is unset (with
    /// a warning at start). Read it through [`Config::runtimes_dir`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtimes_dir: Option<PathBuf>,
}

/// The sandbox of the `code` verifier (`[sandbox]`): where its guest runtimes are and how it
/// runs guests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    /// The folder holding the sandbox's runtimes (`python.wasm`, built by
    /// `scripts/build-runtimes`; precompiled artefacts are kept in its `precompiled` subfolder
    /// when it is writable). Unset, or without a `python.wasm`, the server looks in `runtimes/`
    /// beside the binary, then `../share/referee/runtimes` from it, then `runtimes/` in the data
    /// directory, then the source tree the binary was built from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtimes_dir: Option<PathBuf>,
    /// Threads that run guests, and C/C++ compilers that may run at once. Default: one per core.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workers: Option<usize>,
    /// Runs whose instances wasmtime's pooling allocator keeps ready (memories, tables and stacks
    /// reserved once and reused); 0 allocates every instance on demand. Default: 2 × workers + 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_runs: Option<usize>,
    /// Milliseconds to wait after a failed set-up of a runtime (a missing `python.wasm`, no
    /// clang) before it is tried again; the wait doubles with each further failure, up to 30 s.
    pub setup_backoff_ms: u64,
    /// Sets up every language in the background after `ready to serve` (loading the Python and
    /// JavaScript runtimes, compiling a probe program with each compiler) and logs what each
    /// can do. Off, the server starts without that work, and a language is set up by the first
    /// item that needs it (its availability reads `unchecked` until then). Default: true.
    pub check_at_start: bool,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            runtimes_dir: None,
            workers: None,
            pool_runs: None,
            setup_backoff_ms: 1000,
            check_at_start: true,
        }
    }
}

/// Log output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    /// `tracing` filter directives, e.g. `info,referee_server=debug`.
    pub filter: String,
    /// One JSON object per line instead of text.
    pub json: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data_dir: PathBuf::from("data"),
            database_url: None,
            server: ServerConfig::default(),
            database: DatabaseConfig::default(),
            scoring_log: ScoringLogConfig::default(),
            cache: CacheConfig::default(),
            auth: AuthConfig::default(),
            jobs: JobsConfig::default(),
            episodes: EpisodesConfig::default(),
            noise: NoiseConfig::default(),
            runs: RunsConfig::default(),
            openrlhf: OpenRlhfConfig::default(),
            log: LogConfig::default(),
            judge: referee_rubric::JudgeConfig::default(),
            code: CodeConfig::default(),
            sandbox: SandboxConfig::default(),
            rlpr: RlprConfig::default(),
            retention: crate::store::retention::RetentionConfig::default(),
        }
    }
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig { filter: "info".to_owned(), json: false }
    }
}

/// Values given on the command line; `None` leaves the lower layers' value.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Overrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_dir: Option<PathBuf>,
    #[serde(skip_serializing_if = "ServerOverrides::is_empty")]
    pub server: ServerOverrides,
    #[serde(skip_serializing_if = "SandboxOverrides::is_empty")]
    pub sandbox: SandboxOverrides,
}

/// Command-line values for the `[server]` table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ServerOverrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listen: Option<SocketAddr>,
}

impl ServerOverrides {
    fn is_empty(&self) -> bool {
        self.listen.is_none()
    }
}

/// Command-line values for the `[sandbox]` table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SandboxOverrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtimes_dir: Option<PathBuf>,
}

impl SandboxOverrides {
    fn is_empty(&self) -> bool {
        self.runtimes_dir.is_none()
    }
}

/// A configuration that could not be loaded; the message names the key and the layer.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("configuration error: {0}")]
    Invalid(String),
}

impl From<figment::Error> for ConfigError {
    fn from(error: figment::Error) -> Self {
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        ConfigError::Invalid(messages.join("; "))
    }
}

impl Config {
    /// Loads the layers: defaults, `file` (when given), `REFEREE__*` environment variables
    /// (`__` separates nesting: `REFEREE__SERVER__LISTEN`), then `overrides`.
    pub fn load(file: Option<&Path>, overrides: &Overrides) -> Result<Config, ConfigError> {
        Config::load_with_env(file, overrides, Env::prefixed("REFEREE__").split("__"))
    }

    fn load_with_env(file: Option<&Path>, overrides: &Overrides, env: Env) -> Result<Config, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        if let Some(file) = file {
            if !file.exists() {
                return Err(ConfigError::Invalid(format!("config file {} does not exist", file.display())));
            }
            figment = figment.merge(Toml::file_exact(file));
        }
        let config: Config = figment.merge(env).merge(Serialized::defaults(overrides)).extract()?;
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let bad = |what: &str| Err(ConfigError::Invalid(what.to_owned()));
        if !(0.0..=1.0).contains(&self.scoring_log.sample_rate) {
            return bad("scoring_log.sample_rate must be between 0 and 1");
        }
        if self.server.max_concurrent_requests == 0 {
            return bad("server.max_concurrent_requests must be at least 1");
        }
        if self.server.max_connections == 0
            || self.server.max_inflight_body_bytes == 0
            || self.server.max_inflight_items == 0
        {
            return bad(
                "server.max_connections, server.max_inflight_body_bytes and server.max_inflight_items must be at least 1",
            );
        }
        if self.server.header_read_timeout_ms == 0 || self.server.body_read_timeout_ms == 0 {
            return bad("server.header_read_timeout_ms and server.body_read_timeout_ms must be at least 1");
        }
        if !(0..=19).contains(&self.server.scoring_niceness) {
            return bad("server.scoring_niceness must be from 0 to 19");
        }
        if self.server.max_header_bytes < 1024 {
            return bad("server.max_header_bytes must be at least 1024");
        }
        if self.server.max_batch_items == 0 {
            return bad("server.max_batch_items must be at least 1");
        }
        if self.server.request_timeout_ms == 0 {
            return bad("server.request_timeout_ms must be at least 1");
        }
        if self.jobs.chunk_size == 0 || self.jobs.lease_ms == 0 || self.jobs.poll_interval_ms == 0 {
            return bad("jobs.chunk_size, jobs.lease_ms and jobs.poll_interval_ms must be at least 1");
        }
        if self.jobs.max_items == 0 {
            return bad("jobs.max_items must be at least 1");
        }
        if self.jobs.node_id.as_deref().is_some_and(|id| id.trim().is_empty()) {
            return bad("jobs.node_id must not be empty");
        }
        let episodes = &self.episodes;
        if episodes.max_live == 0 || episodes.max_turns == 0 || episodes.idle_timeout_ms == 0 {
            return bad("episodes.max_live, episodes.max_turns and episodes.idle_timeout_ms must be at least 1");
        }
        if episodes.max_live_python > 4096 {
            return bad("episodes.max_live_python must be at most 4096 (each takes a slot of the sandbox's pool)");
        }
        let replica_ok =
            |id: &str| !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if episodes.replica_id.as_deref().is_some_and(|id| !replica_ok(id)) {
            return bad("episodes.replica_id must be 1 to 64 letters, digits or `-`");
        }
        if !(-1.0..=1.0).contains(&self.noise.j_floor) {
            return bad("noise.j_floor must be between -1 and 1");
        }
        if self.noise.appeal_queue == 0
            || self.noise.appeal_batch == 0
            || self.noise.appeal_timeout_ms == 0
            || self.noise.refresh_interval_ms == 0
            || self.noise.monte_carlo_draws == 0
        {
            return bad(
                "noise.appeal_queue, noise.appeal_batch, noise.appeal_timeout_ms, noise.refresh_interval_ms and \
                 noise.monte_carlo_draws must be at least 1",
            );
        }
        if self.code.max_pending_items == Some(0) {
            return bad("code.max_pending_items must be at least 1");
        }
        if self.sandbox.workers == Some(0) {
            return bad("sandbox.workers must be at least 1");
        }
        if self.database.max_connections == 0 {
            return bad("database.max_connections must be at least 1");
        }
        if let Some(url) = &self.database_url
            && !(url.starts_with("sqlite:") || url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return bad("database_url must start with sqlite:, postgres:// or postgresql://");
        }
        self.judge.validate().map_err(|e| ConfigError::Invalid(e.to_string()))?;
        self.rlpr.validate().map_err(ConfigError::Invalid)?;
        self.runs.validate().map_err(ConfigError::Invalid)?;
        self.retention.validate().map_err(ConfigError::Invalid)?;
        Ok(())
    }

    /// The database URL in effect: the configured one, or a SQLite file in the data directory.
    pub fn effective_database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}?mode=rwc", self.data_dir.join("referee.db").display()),
        }
    }

    /// The sandbox's runtimes folder as configured: `sandbox.runtimes_dir`, else the deprecated
    /// `code.runtimes_dir`.
    pub fn runtimes_dir(&self) -> Option<&Path> {
        self.sandbox.runtimes_dir.as_deref().or(self.code.runtimes_dir.as_deref())
    }

    /// The deprecated keys this configuration sets, each with where it moved: logged as warnings
    /// at start, and shown by `referee config show` and `referee doctor`.
    pub fn deprecations(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.code.runtimes_dir.is_some() {
            notes.push(if self.sandbox.runtimes_dir.is_some() {
                "code.runtimes_dir is deprecated and ignored: sandbox.runtimes_dir is set".to_owned()
            } else {
                "code.runtimes_dir (REFEREE__CODE__RUNTIMES_DIR) is deprecated: it moved to sandbox.runtimes_dir \
                 (REFEREE__SANDBOX__RUNTIMES_DIR)"
                    .to_owned()
            });
        }
        if self.runs.max_stats_items.is_some() {
            notes.push(
                "runs.max_stats_items (REFEREE__RUNS__MAX_STATS_ITEMS) is deprecated and ignored: statistics are \
                 capped by the stored rows they read, runs.max_stats_rows (REFEREE__RUNS__MAX_STATS_ROWS)"
                    .to_owned(),
            );
        }
        notes
    }

    /// The configuration as TOML, with key material shown only as digests, and deprecated keys
    /// shown where they moved, with a comment for each.
    pub fn to_toml(&self) -> String {
        let mut shown = self.clone();
        shown.sandbox.runtimes_dir = self.runtimes_dir().map(Path::to_path_buf);
        shown.code.runtimes_dir = None;
        shown.runs.max_stats_items = None;
        shown.auth.api_keys = shown.auth.api_keys.iter().map(|k| crate::http::auth::digest_form(k)).collect();
        for table in &mut shown.auth.keys {
            if let Some(key) = table.key.take() {
                table.digest = Some(crate::http::auth::digest_form(&key));
            }
        }
        shown.rlpr.remote.api_key = shown.rlpr.remote.api_key.as_deref().map(crate::http::auth::digest_form);
        let notes: String = self.deprecations().iter().map(|note| format!("# {note}\n")).collect();
        let rendered =
            toml::to_string_pretty(&shown).unwrap_or_else(|e| format!("# cannot render configuration: {e}\n"));
        notes + &rendered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env() -> Env {
        Env::prefixed("REFEREE_TEST_UNSET_PREFIX__").split("__")
    }

    #[test]
    fn layers_apply_in_order() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("referee.toml");
        std::fs::write(
            &file,
            "[server]\nlisten = \"127.0.0.1:9000\"\nrequest_timeout_ms = 5\n[cache]\nenabled = true\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let config =
            Config::load_with_env(Some(&file), &Overrides::default(), no_env()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.server.listen.port(), 9000);
        assert!(config.cache.enabled);
        let flags = Overrides {
            server: ServerOverrides { listen: Some("127.0.0.1:0".parse().unwrap_or_else(|e| panic!("{e}"))) },
            ..Overrides::default()
        };
        let config = Config::load_with_env(Some(&file), &flags, no_env()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.server.listen.port(), 0);
        assert_eq!(config.server.request_timeout_ms, 5);
    }

    #[test]
    fn unknown_keys_name_the_key() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("referee.toml");
        std::fs::write(&file, "[server]\nlisten = \"127.0.0.1:9000\"\nmax_conections = 5\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let err = Config::load_with_env(Some(&file), &Overrides::default(), no_env()).err().map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(err.contains("max_conections"), "{err}");
    }

    #[test]
    fn a_deprecated_key_loads_with_a_note() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("referee.toml");
        std::fs::write(&file, "[runs]\nmax_stats_items = 25\n").unwrap_or_else(|e| panic!("{e}"));
        let config =
            Config::load_with_env(Some(&file), &Overrides::default(), no_env()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.runs.max_stats_rows, RunsConfig::default().max_stats_rows);
        let notes = config.deprecations();
        assert!(notes.iter().any(|note| note.contains("runs.max_stats_rows")), "{notes:?}");
        assert!(config.to_toml().starts_with("# runs.max_stats_items"), "{}", config.to_toml());
    }

    #[test]
    fn invalid_values_are_refused() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("referee.toml");
        std::fs::write(&file, "database_url = \"mysql://x\"\n").unwrap_or_else(|e| panic!("{e}"));
        assert!(Config::load_with_env(Some(&file), &Overrides::default(), no_env()).is_err());
        assert!(
            Config::load_with_env(Some(&dir.path().join("missing.toml")), &Overrides::default(), no_env()).is_err()
        );
    }

    #[test]
    fn the_rlpr_source_is_checked() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("referee.toml");
        let load = |text: &str| {
            std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
            Config::load_with_env(Some(&file), &Overrides::default(), no_env()).map_err(|e| e.to_string())
        };
        let remote = "[rlpr]\nsource = \"remote\"\n[rlpr.remote]\nurl = \"http://127.0.0.1:8000\"\n";
        let err = load(remote).err().unwrap_or_default();
        assert!(err.contains("rlpr.remote.eos_token"), "{err}");
        let config = load(&format!("{remote}eos_token = \"<|im_end|>\"\napi_key = \"secret-key\"\n"));
        let config = config.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((config.rlpr.source, config.rlpr.remote.max_batch_texts), (RlprSource::Remote, 64));
        assert!(!config.to_toml().contains("secret-key"), "the key is shown as a digest");
        // A remote server computes prompt log-probs at temperature 1 only; 0 is no temperature.
        let cold = "[rlpr]\nsource = \"remote\"\ntemperature = 0.6\n[rlpr.remote]\nurl = \"http://127.0.0.1:8000\"\n";
        let err = load(&format!("{cold}eos_token = \"<|im_end|>\"\n")).err().unwrap_or_default();
        assert!(err.contains("rlpr.temperature") && err.contains("remote"), "{err}");
        let err = load("[rlpr]\ntemperature = 0.0\n").err().unwrap_or_default();
        assert!(err.contains("rlpr.temperature"), "{err}");
        let err = load("[rlpr]\nsource = \"local\"\n").err().unwrap_or_default();
        assert!(err.contains("rlpr.model_dir"), "{err}");
        let err = load("[rlpr]\nsource = \"gpu\"\n").err().unwrap_or_default();
        assert!(err.contains("gpu"), "{err}");
        let local = format!("[rlpr]\nsource = \"local\"\nmodel_dir = \"{}\"\n", dir.path().display());
        assert!(load(&format!("{local}[rlpr.batcher]\nqueue_capacity = 0\n")).is_err());
        assert!(load(&local).is_ok());
        let on_gpu = load(&format!("{local}device = \"cuda:1\"\n")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(on_gpu.rlpr.device, referee_rlpr::ModelDevice::Cuda(1));
        assert!(on_gpu.to_toml().contains("device = \"cuda:1\""));
        let err = load(&format!("{local}device = \"tpu\"\n")).err().unwrap_or_default();
        assert!(err.contains("unknown device \"tpu\""), "{err}");
    }

    #[test]
    fn the_sandbox_is_configured_in_its_own_table() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("referee.toml");
        let load = |text: &str| {
            std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
            Config::load_with_env(Some(&file), &Overrides::default(), no_env()).map_err(|e| e.to_string())
        };
        let config = load("[sandbox]\nruntimes_dir = \"/opt/runtimes\"\nworkers = 3\npool_runs = 0\n");
        let config = config.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.runtimes_dir(), Some(Path::new("/opt/runtimes")));
        assert_eq!((config.sandbox.workers, config.sandbox.pool_runs), (Some(3), Some(0)));
        assert_eq!(config.sandbox.setup_backoff_ms, 1000);
        assert!(config.sandbox.check_at_start, "languages are checked at start unless turned off");
        assert!(config.deprecations().is_empty());
        let quick = load("[sandbox]\ncheck_at_start = false\n").unwrap_or_else(|e| panic!("{e}"));
        assert!(!quick.sandbox.check_at_start);
        let err = load("[sandbox]\nworkers = 0\n").err().unwrap_or_default();
        assert!(err.contains("sandbox.workers"), "{err}");
        let err = load("[sandbox]\nruntime_dir = \"/x\"\n").err().unwrap_or_default();
        assert!(err.contains("runtime_dir"), "{err}");
    }

    #[test]
    fn code_runtimes_dir_still_works_and_is_reported_as_moved() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("referee.toml");
        std::fs::write(&file, "[code]\nruntimes_dir = \"/old/runtimes\"\n").unwrap_or_else(|e| panic!("{e}"));
        let config =
            Config::load_with_env(Some(&file), &Overrides::default(), no_env()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.runtimes_dir(), Some(Path::new("/old/runtimes")));
        let notes = config.deprecations();
        assert!(notes.len() == 1 && notes[0].contains("moved to sandbox.runtimes_dir"), "{notes:?}");
        let shown = config.to_toml();
        assert!(shown.starts_with("# code.runtimes_dir"), "{shown}");
        let table: toml::Table = toml::from_str(&shown).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table["sandbox"]["runtimes_dir"].as_str(), Some("/old/runtimes"), "{shown}");
        assert!(table.get("code").and_then(|code| code.get("runtimes_dir")).is_none(), "{shown}");
        // The new key wins; the flag sets the new key.
        let flags = Overrides {
            sandbox: SandboxOverrides { runtimes_dir: Some("/new/runtimes".into()) },
            ..Overrides::default()
        };
        let config = Config::load_with_env(Some(&file), &flags, no_env()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.runtimes_dir(), Some(Path::new("/new/runtimes")));
        assert!(config.deprecations()[0].contains("ignored"), "{:?}", config.deprecations());
    }

    #[test]
    fn default_database_is_sqlite_in_the_data_dir() {
        let config = Config::default();
        assert_eq!(config.effective_database_url(), "sqlite://data/referee.db?mode=rwc");
    }
}
