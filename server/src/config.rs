//! Configuration in layers: compiled-in defaults, then a TOML file, then `REFEREE__...`
//! environment variables, then command-line flags. Unknown keys are an error naming the key.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

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
    pub noise: NoiseConfig,
    pub openrlhf: OpenRlhfConfig,
    pub log: LogConfig,
    /// The LLM judge of the `rubric` reward model.
    pub judge: referee_rubric::JudgeConfig,
    /// The `code` verifier.
    pub code: CodeConfig,
    /// The model that scores `rlpr` items sent without log-probs.
    pub rlpr: RlprConfig,
    /// How long stored rows are kept.
    pub retention: crate::store::retention::RetentionConfig,
}

/// The `code` verifier's admission bound and runtimes folder.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CodeConfig {
    /// Items admitted but not yet judged, across all requests; a synchronous scoring request
    /// whose `code` items do not fit is refused with 429 and `Retry-After`
    /// (`server.retry_after_secs`), while jobs wait their turn. A batch larger than the bound
    /// runs alone once nothing else is pending. Default: 64 per sandbox worker (one worker per
    /// core).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_pending_items: Option<usize>,
    /// The folder holding the sandbox's runtimes (`python.wasm`, built by
    /// `scripts/build-runtimes`); `REFEREE__CODE__RUNTIMES_DIR` sets it too. Unset, or without a
    /// `python.wasm`, the server looks in `runtimes/` beside the binary, then
    /// `../share/referee/runtimes` from it, then `runtimes/` in the data directory, then the
    /// source tree the binary was built from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtimes_dir: Option<PathBuf>,
}

/// Where `rlpr` items without `logprobs` get their log-probs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RlprSource {
    /// No model: items must send `logprobs`.
    #[default]
    None,
    /// A checkpoint loaded in this process from `rlpr.model_dir`, behind the batcher.
    Local,
    /// An OpenAI-compatible completions server (`[rlpr.remote]`).
    Remote,
}

/// The `rlpr` reward model's source of log-probs (`[rlpr]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RlprConfig {
    /// `none`, `local` or `remote`.
    pub source: RlprSource,
    /// The Hugging Face-style checkpoint directory of the local model (`config.json`,
    /// `*.safetensors`, `tokenizer.json`).
    pub model_dir: Option<PathBuf>,
    /// Where the local model runs: `cpu`, or `cuda` / `cuda:N` in a build with the `cuda`
    /// feature.
    pub device: referee_rlpr::ModelDevice,
    /// Baseline (no-reasoning) log-probs kept in memory per (checkpoint, prompt, reference);
    /// 0 keeps none.
    pub baseline_cache_entries: usize,
    /// The temperature the local model's log-probs are computed at (`log softmax(logits / T)`),
    /// as RLPR's trainer uses its rollout temperature: 1 (the reference's Qwen scripts), 0.6
    /// for its Llama and Gemma scripts. The remote source takes only 1.
    pub temperature: f32,
    /// The completions server of the remote source.
    pub remote: referee_rlpr::RemoteConfig,
    /// How the local model's requests are coalesced.
    pub batcher: referee_rlpr::BatcherConfig,
}

impl Default for RlprConfig {
    fn default() -> Self {
        RlprConfig {
            source: RlprSource::None,
            model_dir: None,
            device: referee_rlpr::ModelDevice::Cpu,
            baseline_cache_entries: 4096,
            temperature: 1.0,
            remote: referee_rlpr::RemoteConfig::default(),
            batcher: referee_rlpr::BatcherConfig::default(),
        }
    }
}

impl RlprConfig {
    /// Checks the settings the chosen source uses; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.temperature.is_finite() && self.temperature > 0.0) {
            return Err(format!("rlpr.temperature must be a positive number, not {}", self.temperature));
        }
        match self.source {
            RlprSource::None => Ok(()),
            // vLLM and SGLang compute prompt log-probs from the raw logits whatever temperature a
            // request names, so another temperature would be reported but not applied.
            RlprSource::Remote if self.temperature != 1.0 => Err(format!(
                "rlpr.temperature = {} cannot apply to the remote source: completions servers compute prompt \
                 log-probs at temperature 1 whatever a request says; use the local source, or score in supplied \
                 mode with log-probs computed at that temperature",
                self.temperature
            )),
            RlprSource::Remote => self.remote.validate(),
            RlprSource::Local => {
                let Some(dir) = &self.model_dir else {
                    return Err(
                        "rlpr.model_dir must name the checkpoint directory when rlpr.source is \"local\"".to_owned()
                    );
                };
                if !dir.is_dir() {
                    return Err(format!("rlpr.model_dir: {} is not a directory", dir.display()));
                }
                self.batcher.validate()
            }
        }
    }
}

/// The HTTP listener and its limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Address to bind; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Time budget of one scoring request, in milliseconds; items still unjudged then are
    /// answered with `timeout`.
    pub request_timeout_ms: u64,
    /// Largest accepted request body, in bytes (413 above).
    pub body_limit_bytes: usize,
    /// Most items in one scoring request (413 above).
    pub max_batch_items: usize,
    /// Requests processed at once (their bodies read); more are refused with 503 and
    /// `Retry-After`, except on trainer-facing routes (`/get_reward`), which wait for room.
    /// Default: 64 per available core ([`crate::machine::Machine`]).
    pub max_concurrent_requests: usize,
    /// Bytes of request bodies held at once, counted from `Content-Length` before a body is
    /// read; a request that does not fit is refused at once with 503 and `Retry-After`. Default:
    /// 1/32 of the memory available (cgroup limit or physical), at least 64 MiB, at most 128 MiB
    /// per core and 1 GiB, and never less than `body_limit_bytes`.
    pub max_inflight_body_bytes: usize,
    /// Items of scoring requests (`/v1/score`, `/v1/verifiers/{id}/score`, `/get_reward`) being
    /// scored at once, counted from the body before it is parsed; a request whose items do not
    /// fit is refused with 503 and `Retry-After` (trainer routes wait). Default: 4,096 per
    /// available core.
    pub max_inflight_items: usize,
    /// Connections open at once; the listener stops accepting beyond (the kernel's backlog
    /// holds them). Lowered at start to what the open-files limit allows.
    pub max_connections: usize,
    /// Time a client has to send a request's head, from the connection's start or the end of
    /// its previous response: also the keep-alive idle timeout.
    pub header_read_timeout_ms: u64,
    /// Time a client has to send a request's body once its head is in; then 408 and the
    /// connection is closed.
    pub body_read_timeout_ms: u64,
    /// Largest request head (request line and headers), in bytes; 431 above.
    pub max_header_bytes: usize,
    /// Trainer-facing requests (`/get_reward`) that may wait at once for a request slot, each
    /// until the request deadline; more are refused with 503 and `Retry-After`. A request that
    /// holds a slot then also waits, until the same deadline, for room in the queues of the
    /// scorers it needs. 0 refuses them like the general API (503 without a slot, 429 on a
    /// full scorer queue).
    pub max_waiting_requests: usize,
    /// Seconds a client is told to wait in `Retry-After` when refused for load.
    pub retry_after_secs: u32,
    /// How long shutdown waits for in-flight requests, in milliseconds.
    pub shutdown_grace_ms: u64,
}

/// Connection pool settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    pub max_connections: u32,
}

/// Which scored items are written to the scoring log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogMode {
    Off,
    Sampled,
    All,
}

/// The scoring log: one row per scored item, written in batches off the request path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScoringLogConfig {
    pub mode: LogMode,
    /// Fraction of items logged in `sampled` mode.
    pub sample_rate: f64,
    /// Rows queued or being written at once; a request whose rows find the queue full waits
    /// for room (`enqueue_timeout_ms`).
    pub queue_capacity: usize,
    /// Longest a row waits before its batch is written, in milliseconds.
    pub flush_interval_ms: u64,
    /// Longest a request waits for room for one verifier's rows before they are dropped (counted
    /// in `referee_scoring_log_dropped_rows_total`), in milliseconds.
    pub enqueue_timeout_ms: u64,
    /// Longest a batch that fails with a transient database error is retried, in milliseconds.
    pub retry_window_ms: u64,
}

/// The result cache keyed by (verifier id, version, input hash).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CacheConfig {
    pub enabled: bool,
}

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
    pub roles: Vec<crate::http::auth::Role>,
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

/// Batch scoring jobs: uploads split into chunks that workers claim from the database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JobsConfig {
    /// Chunk workers in this process; 0 runs none (the API still accepts jobs for other
    /// replicas to work on).
    pub workers: usize,
    /// Items per chunk unless the upload asks for another size.
    pub chunk_size: usize,
    /// How long a claimed chunk stays claimed without a heartbeat before another worker may
    /// take it over, in milliseconds.
    pub lease_ms: u64,
    /// How often an idle worker looks for work when nothing wakes it, in milliseconds.
    pub poll_interval_ms: u64,
    /// Time budget of one chunk, in milliseconds.
    pub chunk_timeout_ms: u64,
    /// Largest JSONL upload, in bytes.
    pub max_upload_bytes: usize,
    /// Directories whose files may be submitted by server-side path; empty turns paths off.
    pub allowed_paths: Vec<PathBuf>,
    /// Most items one job may hold; a larger upload is refused with 413 `too_many_items`.
    pub max_items: usize,
    /// This node's name in the database. A process restarted under the same name takes its dead
    /// predecessor's chunks back at once; other nodes wait for the lease to expire. The host
    /// name when absent.
    pub node_id: Option<String>,
}

/// The noisy-reward layer: corrections from per-verifier noise models, and appeals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NoiseConfig {
    /// Corrections are refused when the lower end of J = 1 − ρ0 − ρ1's 95% interval is below
    /// this floor.
    pub j_floor: f64,
    /// Sampled verdicts waiting for their appeal; further samples are dropped (and counted in
    /// metrics) while the queue is full.
    pub appeal_queue: usize,
    /// Most sampled verdicts the appeal checker receives as one batch.
    pub appeal_batch: usize,
    /// Time budget of one appeal batch, in milliseconds.
    pub appeal_timeout_ms: u64,
    /// How often tallies are written and noise models re-read from the database (so that
    /// changes made through another replica apply here), in milliseconds.
    pub refresh_interval_ms: u64,
    /// Monte Carlo draws behind the intervals of appeal estimates.
    pub monte_carlo_draws: u32,
    /// Overturns kept per noise model for `GET /v1/noise/{verifier}/appeals`.
    pub overturns_kept: u32,
    /// Seeds the draws that pick verdicts for appeal, making the sample reproducible for the
    /// same sequence of verdicts; unseeded draws when absent.
    pub appeal_seed: Option<u64>,
}

/// `POST /get_reward`, OpenRLHF's remote reward protocol; the query string may override both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpenRlhfConfig {
    /// The verifier that judges the rollouts.
    pub verifier: String,
    /// The verifier input field each label fills.
    pub label_field: String,
}

impl Default for OpenRlhfConfig {
    fn default() -> Self {
        OpenRlhfConfig { verifier: "math".to_owned(), label_field: "reference".to_owned() }
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
            noise: NoiseConfig::default(),
            openrlhf: OpenRlhfConfig::default(),
            log: LogConfig::default(),
            judge: referee_rubric::JudgeConfig::default(),
            code: CodeConfig::default(),
            rlpr: RlprConfig::default(),
            retention: crate::store::retention::RetentionConfig::default(),
        }
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        let machine = crate::machine::Machine::detect();
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            request_timeout_ms: 30_000,
            body_limit_bytes: 64 << 20,
            max_batch_items: 16_384,
            max_concurrent_requests: 64 * machine.cores,
            max_inflight_body_bytes: machine.default_body_budget(64 << 20),
            max_inflight_items: 4096 * machine.cores,
            max_connections: 10_000,
            header_read_timeout_ms: 10_000,
            body_read_timeout_ms: 30_000,
            max_header_bytes: 128 << 10,
            max_waiting_requests: 4096,
            retry_after_secs: 1,
            shutdown_grace_ms: 30_000,
        }
    }
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig { max_connections: 8 }
    }
}

impl Default for ScoringLogConfig {
    fn default() -> Self {
        ScoringLogConfig {
            mode: LogMode::Off,
            sample_rate: 0.01,
            queue_capacity: 100_000,
            flush_interval_ms: 200,
            enqueue_timeout_ms: 1_000,
            retry_window_ms: 30_000,
        }
    }
}

impl Default for JobsConfig {
    fn default() -> Self {
        JobsConfig {
            workers: 2,
            chunk_size: 1000,
            lease_ms: 60_000,
            poll_interval_ms: 1000,
            chunk_timeout_ms: 300_000,
            max_upload_bytes: 256 << 20,
            allowed_paths: Vec::new(),
            max_items: 1_000_000,
            node_id: None,
        }
    }
}

impl Default for NoiseConfig {
    fn default() -> Self {
        NoiseConfig {
            j_floor: 0.2,
            appeal_queue: 10_000,
            appeal_batch: 256,
            appeal_timeout_ms: 60_000,
            refresh_interval_ms: 1000,
            monte_carlo_draws: 10_000,
            overturns_kept: 1000,
            appeal_seed: None,
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
        if self.database.max_connections == 0 {
            return bad("database.max_connections must be at least 1");
        }
        if let Some(url) = &self.database_url
            && !(url.starts_with("sqlite:") || url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return bad("database_url must start with sqlite:, postgres:// or postgresql://");
        }
        self.judge.validate().map_err(ConfigError::Invalid)?;
        self.rlpr.validate().map_err(ConfigError::Invalid)?;
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

    /// The configuration as TOML, with key material shown only as digests.
    pub fn to_toml(&self) -> String {
        let mut shown = self.clone();
        shown.auth.api_keys = shown.auth.api_keys.iter().map(|k| crate::http::auth::digest_form(k)).collect();
        for table in &mut shown.auth.keys {
            if let Some(key) = table.key.take() {
                table.digest = Some(crate::http::auth::digest_form(&key));
            }
        }
        shown.rlpr.remote.api_key = shown.rlpr.remote.api_key.as_deref().map(crate::http::auth::digest_form);
        toml::to_string_pretty(&shown).unwrap_or_else(|e| format!("# cannot render configuration: {e}\n"))
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
    fn default_database_is_sqlite_in_the_data_dir() {
        let config = Config::default();
        assert_eq!(config.effective_database_url(), "sqlite://data/referee.db?mode=rwc");
    }
}
