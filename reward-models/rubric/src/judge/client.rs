//! The judge client: one OpenAI-compatible `/v1/chat/completions` endpoint over HTTP or HTTPS,
//! called through a [`ModelClient`] (concurrency limit, per-attempt timeouts, retries with
//! exponential backoff on 429 and 5xx), with a response cache keyed by (model, prompt hash).
//! Every call is counted in the `referee_judge_*` metrics.

use std::sync::Arc;
use std::time::{Duration, Instant};

use referee_model_client::{BuildError, Endpoint, ModelClient, ModelError, RetryPolicy, read_ca_certificates};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::config::{JudgeConfig, JudgeConfigError};
use super::prompt::Templates;
use super::reply::{JudgeReply, parse_completion, stored_form};
use super::template::ChatMessage;
use crate::Backing;

/// The setting that adds a private CA, named in messages.
const CA_KEY: &str = "judge.ca_cert";

/// Why a judge call produced no reply.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JudgeError {
    /// The item's deadline or the attempts' time limits ran out.
    #[error("the judge did not answer in time: {0}")]
    Timeout(String),
    /// The endpoint failed, refused the call, or answered something that is not a completion.
    #[error("the judge failed: {0}")]
    Failed(String),
}

/// Why a [`JudgeClient`] cannot be built; the message names the setting.
#[derive(Debug, thiserror::Error)]
pub enum JudgeClientError {
    #[error(transparent)]
    Config(#[from] JudgeConfigError),
    #[error("judge.api_key_env names `{name}`, which is not set")]
    ApiKeyEnv { name: String, source: std::env::VarError },
    /// The CA file, or the HTTP client itself.
    #[error(transparent)]
    Client(#[from] BuildError),
}

/// Calls the judge endpoint. Cheap to clone.
#[derive(Debug, Clone)]
pub struct JudgeClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: JudgeConfig,
    templates: Templates,
    /// `None` when no endpoint is configured.
    client: Option<ModelClient>,
    backing: Backing,
}

impl JudgeClient {
    /// A client for `config`; replies are cached through `backing` once it is connected.
    pub fn new(config: JudgeConfig, backing: Backing) -> Result<JudgeClient, JudgeClientError> {
        config.validate()?;
        let templates = config.templates().map_err(JudgeConfigError::from)?;
        let api_key = match &config.api_key_env {
            Some(name) => {
                Some(std::env::var(name).map_err(|source| JudgeClientError::ApiKeyEnv { name: name.clone(), source })?)
            }
            None => None,
        };
        let client = match &config.base_url {
            Some(base) => Some(ModelClient::new(endpoint(&config, base, api_key))?),
            None => {
                // A CA file is checked even without an endpoint, so a bad one is found at start.
                if let Some(path) = &config.ca_cert {
                    read_ca_certificates(path, CA_KEY).map_err(BuildError::from)?;
                }
                None
            }
        };
        Ok(JudgeClient { inner: Arc::new(Inner { config, templates, client, backing }) })
    }

    /// A client with no endpoint: judge criteria fail with `internal_error`.
    pub fn unconfigured() -> JudgeClient {
        let config = JudgeConfig::default();
        let templates = config.templates().unwrap_or_else(|e| unreachable!("built-in templates: {e}"));
        JudgeClient { inner: Arc::new(Inner { config, templates, client: None, backing: Backing::default() }) }
    }

    /// The configuration in effect.
    pub fn config(&self) -> &JudgeConfig {
        &self.inner.config
    }

    /// The prompt templates in effect.
    pub fn templates(&self) -> &Templates {
        &self.inner.templates
    }

    /// True when an endpoint is configured.
    pub fn is_configured(&self) -> bool {
        self.inner.client.is_some()
    }

    /// The request body for `messages`.
    fn body(&self, messages: &[ChatMessage], logprobs: bool) -> Value {
        let config = &self.inner.config;
        let mut body = json!({
            "model": config.model,
            "messages": messages,
            "temperature": config.temperature,
            "max_tokens": config.max_tokens,
        });
        if logprobs && config.top_logprobs > 0 {
            body["logprobs"] = json!(true);
            body["top_logprobs"] = json!(config.top_logprobs);
        }
        body
    }

    /// Asks `messages`; `logprobs` asks for the top log-probs of the generated tokens. Answers
    /// from the cache when the same model was asked the same messages before.
    pub async fn ask(
        &self,
        messages: &[ChatMessage],
        logprobs: bool,
        deadline: Option<Instant>,
    ) -> Result<JudgeReply, JudgeError> {
        let client = self.inner.client.as_ref().ok_or_else(|| {
            JudgeError::Failed("no judge is configured (set judge.base_url in the server configuration)".to_owned())
        })?;
        let body = self.body(messages, logprobs);
        let key = prompt_hash(&body);
        if let Some(reply) = self.cached(&key).await {
            return Ok(reply);
        }
        let call = client.post(&body, deadline).await;
        if call.retries > 0 {
            metrics::counter!("referee_judge_retries_total").increment(u64::from(call.retries));
        }
        let parsed = call.result.map_err(judge_error).and_then(|value| {
            parse_completion(&value).map_err(JudgeError::Failed).map(|(content, tokens)| JudgeReply {
                content,
                tokens,
                cached: false,
                key,
            })
        });
        let outcome = match (&parsed, call.retries) {
            (Ok(_), 0) => Outcome::Ok,
            (Ok(_), _) => Outcome::Retried,
            (Err(JudgeError::Timeout(_)), _) => Outcome::Timeout,
            (Err(JudgeError::Failed(_)), _) => Outcome::Failed,
        };
        count_call(outcome, call.took);
        parsed
    }

    /// The cached reply to the prompt hashed as `key`, when caching is on and there is one.
    async fn cached(&self, key: &str) -> Option<JudgeReply> {
        let inner = &self.inner;
        if !inner.config.cache {
            return None;
        }
        let stored = match inner.backing.cache()?.get(&inner.config.model, key).await {
            Ok(stored) => stored?,
            Err(error) => {
                tracing::warn!(%error, "judge cache lookup failed");
                return None;
            }
        };
        let mut reply = serde_json::from_str::<JudgeReply>(&stored).ok()?;
        metrics::counter!("referee_judge_cache_hits_total").increment(1);
        reply.cached = true;
        reply.key = key.to_owned();
        Some(reply)
    }

    /// Stores a reply that parsed, so the same prompt is answered from the cache next time.
    pub async fn remember(&self, reply: &JudgeReply) {
        let inner = &self.inner;
        if reply.cached || !inner.config.cache {
            return;
        }
        let Some(cache) = inner.backing.cache() else { return };
        let stored = stored_form(reply);
        if let Err(error) = cache.put(&inner.config.model, &reply.key, &stored).await {
            tracing::warn!(%error, "judge cache write failed");
        }
    }
}

/// The endpoint of `config`, whose base URL is `base`.
fn endpoint(config: &JudgeConfig, base: &str, api_key: Option<String>) -> Endpoint {
    Endpoint {
        url: format!("{}/chat/completions", base.trim_end_matches('/')),
        api_key,
        ca_cert: config.ca_cert.clone(),
        ca_key: CA_KEY,
        peer: "the judge",
        timeout: Duration::from_millis(config.timeout_ms),
        retry: RetryPolicy {
            max_retries: config.max_retries,
            backoff: Duration::from_millis(config.backoff_ms),
            max_backoff: Duration::from_millis(config.max_backoff_ms),
        },
        concurrency: config.concurrency,
    }
}

/// A failed call as a judge criterion reports it.
fn judge_error(error: ModelError) -> JudgeError {
    match error {
        ModelError::Expired { .. } => {
            JudgeError::Timeout("the item's deadline passed before the judge answered".to_owned())
        }
        error @ (ModelError::TimedOut { .. } | ModelError::NoTimeToRetry { .. }) => {
            JudgeError::Timeout(error.to_string())
        }
        error @ (ModelError::Refused { .. }
        | ModelError::Tls { .. }
        | ModelError::Unavailable { .. }
        | ModelError::Malformed { .. }
        | ModelError::Closed { .. }) => JudgeError::Failed(error.to_string()),
    }
}

/// How a judge call ended, as counted in `referee_judge_calls_total`.
#[derive(Debug, Clone, Copy)]
enum Outcome {
    /// Answered at the first attempt.
    Ok,
    /// Answered after one or more retries.
    Retried,
    /// No answer: a refused or failed call, or retries exhausted.
    Failed,
    /// No answer in time.
    Timeout,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Retried => "retried",
            Outcome::Failed => "failed",
            Outcome::Timeout => "timeout",
        }
    }
}

/// Counts a call that reached for the endpoint (not one answered from the cache) by its
/// outcome, and records its latency from the first attempt when it made one.
fn count_call(outcome: Outcome, took: Option<Duration>) {
    metrics::counter!("referee_judge_calls_total", "outcome" => outcome.label()).increment(1);
    if let Some(took) = took {
        metrics::histogram!("referee_judge_call_seconds").record(took.as_secs_f64());
    }
}

/// SHA-256 of the request body (model, messages and sampling parameters), hex.
fn prompt_hash(body: &Value) -> String {
    hex::encode(Sha256::digest(body.to_string().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_must_hold_certificates() {
        let dir = std::env::temp_dir().join(format!("referee-ca-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let missing = dir.join("missing.pem");
        let with = |path: &std::path::Path, base_url: Option<&str>| JudgeConfig {
            base_url: base_url.map(str::to_owned),
            ca_cert: Some(path.to_owned()),
            ..JudgeConfig::default()
        };
        let refused = |config: JudgeConfig| match JudgeClient::new(config, Backing::default()) {
            Ok(_) => String::new(),
            Err(reason) => reason.to_string(),
        };
        let https = Some("https://judge.example/v1");
        let reason = refused(with(&missing, https));
        assert!(reason.starts_with("judge.ca_cert: cannot read") && reason.contains("missing.pem"), "{reason}");
        let text = dir.join("text.pem");
        let _ = std::fs::write(&text, "not a certificate\n");
        assert!(refused(with(&text, https)).contains("holds no PEM certificate"), "{}", refused(with(&text, https)));
        assert!(refused(with(&text, None)).contains("holds no PEM certificate"), "checked without an endpoint too");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_api_key_is_named() {
        let config =
            JudgeConfig { api_key_env: Some("REFEREE_TEST_NO_SUCH_VARIABLE".to_owned()), ..JudgeConfig::default() };
        let reason = JudgeClient::new(config, Backing::default()).err().map(|e| e.to_string());
        assert_eq!(
            reason.as_deref(),
            Some("judge.api_key_env names `REFEREE_TEST_NO_SUCH_VARIABLE`, which is not set")
        );
    }
}
