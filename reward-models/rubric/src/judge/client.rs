//! The judge client: one OpenAI-compatible `/v1/chat/completions` endpoint over HTTP or HTTPS,
//! called under a concurrency limit, with per-call timeouts, retries with exponential backoff on
//! 429 and 5xx, and a response cache keyed by (model, prompt hash). Every call is counted in the
//! `referee_judge_*` metrics.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use super::prompt::Templates;
use super::template::{ChatMessage, MessageTemplate};
use crate::Backing;
use crate::http::{chain, read_ca_certificates, tls_failure};

/// How principle criteria are asked when `principle_messages` is not set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrincipleFormat {
    /// The built-in prompt: the task, reference and response, the principle, and "Answer with
    /// exactly one word: Yes or No", as one user message.
    #[default]
    Prompt,
    /// RLBFF's chat format for its principle GenRMs: the task as the user turn, the response as
    /// the assistant turn, the principle as a `principle` turn. The reference is not shown.
    Rlbff,
}

/// The judge endpoint and how it is called (`[judge]` in the server configuration).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JudgeConfig {
    /// Base URL of an OpenAI-compatible API, up to and including `/v1`
    /// (`http://127.0.0.1:8000/v1`, `https://api.example.com/v1`); `/chat/completions` is
    /// appended. Unset: judge criteria fail with `internal_error`.
    pub base_url: Option<String>,
    /// A PEM file of CA certificates trusted for an `https://` judge besides the bundled
    /// Mozilla roots, for a judge whose certificate a private CA signed.
    pub ca_cert: Option<PathBuf>,
    /// The model name sent with every call.
    pub model: String,
    /// The environment variable holding the API key, sent as `Authorization: Bearer`.
    pub api_key_env: Option<String>,
    /// Sampling temperature.
    pub temperature: f64,
    /// `max_tokens` of a call.
    pub max_tokens: u32,
    /// Log-probs asked for on principle calls (`top_logprobs`); 0 asks for none.
    pub top_logprobs: u32,
    /// Calls in flight at once, across all requests.
    pub concurrency: usize,
    /// Time limit of one attempt, in milliseconds.
    pub timeout_ms: u64,
    /// Further attempts after a 429, a 5xx, a refused connection or a timed-out attempt.
    pub max_retries: u32,
    /// Wait before the first retry, in milliseconds; doubled each retry, with jitter.
    pub backoff_ms: u64,
    /// Longest wait between retries, in milliseconds (also caps `Retry-After`).
    pub max_backoff_ms: u64,
    /// Score, label and choices criteria of one item asked in one call, at most this many.
    pub max_criteria_per_call: usize,
    /// Keep replies in the database and answer identical prompts from there.
    pub cache: bool,
    /// The messages of rubric calls (`score`, `label`, `choices` criteria), each a role and a
    /// content template; the built-in prompt when unset. Placeholders: `{prompt}`,
    /// `{reference}`, `{response}`, `{subject}` (the built-in fenced blocks of those three) and
    /// `{criteria}` (one line per criterion, with its options); `{criteria}` and one of
    /// `{response}`/`{subject}` are required.
    pub rubric_messages: Option<Vec<MessageTemplate>>,
    /// The messages of principle calls, as `rubric_messages` with `{principle}` in place of
    /// `{criteria}`; the built-in prompt (or RLBFF's format) when unset.
    pub principle_messages: Option<Vec<MessageTemplate>>,
    /// How principle calls are asked when `principle_messages` is unset: `prompt` (the built-in
    /// prompt) or `rlbff` (RLBFF's chat format with a `principle` turn).
    pub principle_format: PrincipleFormat,
}

impl Default for JudgeConfig {
    fn default() -> Self {
        JudgeConfig {
            base_url: None,
            ca_cert: None,
            model: "judge".to_owned(),
            api_key_env: None,
            temperature: 0.0,
            max_tokens: 1024,
            top_logprobs: 5,
            concurrency: 64,
            timeout_ms: 60_000,
            max_retries: 3,
            backoff_ms: 500,
            max_backoff_ms: 10_000,
            max_criteria_per_call: 8,
            cache: true,
            rubric_messages: None,
            principle_messages: None,
            principle_format: PrincipleFormat::Prompt,
        }
    }
}

impl JudgeConfig {
    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(url) = &self.base_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err("judge.base_url must start with http:// or https://".to_owned());
        }
        if self.concurrency == 0 || self.timeout_ms == 0 || self.max_criteria_per_call == 0 {
            return Err(
                "judge.concurrency, judge.timeout_ms and judge.max_criteria_per_call must be at least 1".to_owned()
            );
        }
        if !(0.0..=2.0).contains(&self.temperature) {
            return Err("judge.temperature must be between 0 and 2".to_owned());
        }
        if self.top_logprobs > 20 {
            return Err("judge.top_logprobs must be at most 20".to_owned());
        }
        if self.model.is_empty() {
            return Err("judge.model must not be empty".to_owned());
        }
        Templates::from_config(self)?;
        Ok(())
    }
}

/// One generated token: its text, its log-prob, and the top candidates at its position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenLogprobs {
    pub token: String,
    pub logprob: f64,
    #[serde(default)]
    pub top: Vec<(String, f64)>,
}

/// A judge's answer to one prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "StoredReply")]
pub struct JudgeReply {
    /// The message content.
    pub content: String,
    /// Every generated token with its log-probs, in order, when the endpoint returned them.
    #[serde(default)]
    pub tokens: Vec<TokenLogprobs>,
    /// True when the reply came from the cache.
    #[serde(skip)]
    pub cached: bool,
    /// The cache key of the prompt.
    #[serde(skip)]
    pub key: String,
}

/// A reply as the judge cache holds it. Replies cached before every token was kept hold only
/// `first_token`, the candidates of the first non-blank token; they become a one-token stream
/// (the likeliest candidate), which is read only where it spells the final answer.
#[derive(Deserialize)]
struct StoredReply {
    content: String,
    #[serde(default)]
    tokens: Vec<TokenLogprobs>,
    #[serde(default)]
    first_token: Vec<(String, f64)>,
}

impl From<StoredReply> for JudgeReply {
    fn from(stored: StoredReply) -> JudgeReply {
        let mut tokens = stored.tokens;
        if tokens.is_empty()
            && let Some((token, logprob)) = stored.first_token.iter().max_by(|a, b| a.1.total_cmp(&b.1))
        {
            tokens.push(TokenLogprobs { token: token.clone(), logprob: *logprob, top: stored.first_token.clone() });
        }
        JudgeReply { content: stored.content, tokens, cached: false, key: String::new() }
    }
}

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

/// Calls the judge endpoint. Cheap to clone.
#[derive(Debug, Clone)]
pub struct JudgeClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: JudgeConfig,
    templates: Templates,
    url: Option<String>,
    key: Option<String>,
    http: reqwest::Client,
    permits: Semaphore,
    backing: Backing,
}

/// What went wrong in one attempt, and whether another may help.
enum Attempt {
    Retry(String, Option<Duration>),
    TimedOut(String),
    Fatal(String),
}

impl JudgeClient {
    /// A client for `config`; replies are cached through `backing` once it is connected.
    pub fn new(config: JudgeConfig, backing: Backing) -> Result<JudgeClient, String> {
        config.validate()?;
        let templates = Templates::from_config(&config)?;
        let key = match &config.api_key_env {
            Some(name) => {
                Some(std::env::var(name).map_err(|_| format!("judge.api_key_env names `{name}`, which is not set"))?)
            }
            None => None,
        };
        let mut builder = reqwest::Client::builder().pool_max_idle_per_host(config.concurrency);
        if let Some(path) = &config.ca_cert {
            for certificate in read_ca_certificates(path, "judge.ca_cert")? {
                builder = builder.add_root_certificate(certificate);
            }
        }
        let http = builder.build().map_err(|e| format!("cannot build the judge's HTTP client: {}", chain(&e)))?;
        let url = config.base_url.as_ref().map(|base| format!("{}/chat/completions", base.trim_end_matches('/')));
        let permits = Semaphore::new(config.concurrency);
        Ok(JudgeClient { inner: Arc::new(Inner { config, templates, url, key, http, permits, backing }) })
    }

    /// A client with no endpoint: judge criteria fail with `internal_error`.
    pub fn unconfigured() -> JudgeClient {
        let config = JudgeConfig::default();
        let permits = Semaphore::new(config.concurrency);
        let templates = Templates::from_config(&config).unwrap_or_else(|e| unreachable!("built-in templates: {e}"));
        let inner = Inner {
            config,
            templates,
            url: None,
            key: None,
            http: reqwest::Client::new(),
            permits,
            backing: Backing::default(),
        };
        JudgeClient { inner: Arc::new(inner) }
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
        self.inner.url.is_some()
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
        let inner = &self.inner;
        let url = inner.url.as_deref().ok_or_else(|| {
            JudgeError::Failed("no judge is configured (set judge.base_url in the server configuration)".to_owned())
        })?;
        let body = self.body(messages, logprobs);
        let key = prompt_hash(&body);
        if inner.config.cache
            && let Some(cache) = inner.backing.cache()
        {
            match cache.get(&inner.config.model, &key).await {
                Ok(Some(stored)) => {
                    if let Ok(mut reply) = serde_json::from_str::<JudgeReply>(&stored) {
                        metrics::counter!("referee_judge_cache_hits_total").increment(1);
                        reply.cached = true;
                        reply.key = key;
                        return Ok(reply);
                    }
                }
                Ok(None) => {}
                Err(error) => tracing::warn!(%error, "judge cache lookup failed"),
            }
        }
        let expired = || JudgeError::Timeout("the item's deadline passed before the judge answered".to_owned());
        let permit = match deadline {
            Some(deadline) => tokio::time::timeout_at(deadline.into(), inner.permits.acquire()).await,
            None => Ok(inner.permits.acquire().await),
        };
        let _permit = match permit {
            Ok(Ok(permit)) => permit,
            Ok(Err(_)) => {
                count_call(Outcome::Failed, None);
                return Err(JudgeError::Failed("the judge client is closed".to_owned()));
            }
            Err(_) => {
                count_call(Outcome::Timeout, None);
                return Err(expired());
            }
        };

        let started = Instant::now();
        let result = self.call(url, &body, key, deadline).await;
        let outcome = match &result {
            Ok((_, 0)) => Outcome::Ok,
            Ok(_) => Outcome::Retried,
            Err(JudgeError::Timeout(_)) => Outcome::Timeout,
            Err(JudgeError::Failed(_)) => Outcome::Failed,
        };
        count_call(outcome, Some(started));
        result.map(|(reply, _)| reply)
    }

    /// The attempts of one call, holding a permit: the reply and how many retries it took.
    async fn call(
        &self,
        url: &str,
        body: &Value,
        key: String,
        deadline: Option<Instant>,
    ) -> Result<(JudgeReply, u32), JudgeError> {
        let expired = || JudgeError::Timeout("the item's deadline passed before the judge answered".to_owned());
        let config = &self.inner.config;
        let mut last = String::new();
        for attempt in 0..=config.max_retries {
            let mut limit = Duration::from_millis(config.timeout_ms);
            if let Some(deadline) = deadline {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(expired());
                }
                limit = limit.min(left);
            }
            let wait = match self.attempt(url, body, limit).await {
                Ok((content, tokens)) => {
                    return Ok((JudgeReply { content, tokens, cached: false, key }, attempt));
                }
                Err(Attempt::Fatal(reason)) => return Err(JudgeError::Failed(reason)),
                Err(Attempt::TimedOut(reason)) => {
                    last = reason;
                    if attempt == config.max_retries {
                        return Err(JudgeError::Timeout(last));
                    }
                    None
                }
                Err(Attempt::Retry(reason, retry_after)) => {
                    last = reason;
                    retry_after
                }
            };
            if attempt == config.max_retries {
                break;
            }
            tracing::debug!(attempt, reason = %last, "retrying a judge call");
            metrics::counter!("referee_judge_retries_total").increment(1);
            let backoff = Duration::from_millis(config.backoff_ms.saturating_mul(1 << attempt.min(16)));
            let jitter = backoff.mul_f64(rand::random::<f64>() * 0.25);
            let sleep = wait.unwrap_or(backoff + jitter).min(Duration::from_millis(config.max_backoff_ms));
            if deadline.is_some_and(|d| Instant::now() + sleep >= d) {
                return Err(JudgeError::Timeout(format!("no time left to retry after: {last}")));
            }
            tokio::time::sleep(sleep).await;
        }
        Err(JudgeError::Failed(format!("gave up after {} attempts: {last}", config.max_retries + 1)))
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

    async fn attempt(&self, url: &str, body: &Value, limit: Duration) -> Result<(String, Vec<TokenLogprobs>), Attempt> {
        let mut request = self.inner.http.post(url).json(body).timeout(limit);
        if let Some(key) = &self.inner.key {
            request = request.bearer_auth(key);
        }
        let response = match request.send().await {
            Ok(response) => response,
            Err(error) if error.is_timeout() => return Err(Attempt::TimedOut(format!("no answer within {limit:?}"))),
            Err(error) => {
                // A refused certificate or a failed handshake does not get better by retrying.
                if let Some(tls) = tls_failure(&error, "the judge", "judge.ca_cert") {
                    return Err(Attempt::Fatal(tls));
                }
                return Err(Attempt::Retry(format!("cannot reach the judge: {}", chain(&error)), None));
            }
        };
        let status = response.status();
        if status.as_u16() == 429 || status.is_server_error() {
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(|s| Duration::from_secs_f64(s.min(3600.0)));
            return Err(Attempt::Retry(format!("the judge answered HTTP {status}"), retry_after));
        }
        let text = match response.text().await {
            Ok(text) => text,
            Err(error) if error.is_timeout() => return Err(Attempt::TimedOut(format!("no answer within {limit:?}"))),
            Err(error) => return Err(Attempt::Retry(format!("the judge's answer broke off: {}", chain(&error)), None)),
        };
        if !status.is_success() {
            return Err(Attempt::Fatal(format!("the judge answered HTTP {status}: {}", truncate(&text, 300))));
        }
        parse_completion(&text).map_err(Attempt::Fatal)
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
fn count_call(outcome: Outcome, started: Option<Instant>) {
    metrics::counter!("referee_judge_calls_total", "outcome" => outcome.label()).increment(1);
    if let Some(started) = started {
        metrics::histogram!("referee_judge_call_seconds").record(started.elapsed().as_secs_f64());
    }
}

/// A reply as stored in the judge cache: the candidates of the reasoning's tokens are dropped
/// (only the final answer's positions are ever read), the token texts kept so the answer can
/// still be lined up with the content.
fn stored_form(reply: &JudgeReply) -> String {
    let mut joined = String::new();
    let ends: Vec<usize> = reply
        .tokens
        .iter()
        .map(|token| {
            joined.push_str(&token.token);
            joined.len()
        })
        .collect();
    let answer_starts = joined.rfind("</think>").map_or(0, |at| at + "</think>".len());
    let mut compact = reply.clone();
    for (token, end) in compact.tokens.iter_mut().zip(ends) {
        if end <= answer_starts {
            token.top = Vec::new();
        }
    }
    serde_json::to_string(&compact).unwrap_or_default()
}

/// The content and per-token log-probs of a chat completion response body.
fn parse_completion(text: &str) -> Result<(String, Vec<TokenLogprobs>), String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| format!("the judge's answer is not JSON ({e}): {}", truncate(text, 200)))?;
    let choice = value.pointer("/choices/0").ok_or_else(|| "the judge's answer has no choices".to_owned())?;
    let content = choice
        .pointer("/message/content")
        .and_then(Value::as_str)
        .ok_or_else(|| "the judge's answer has no message content".to_owned())?
        .to_owned();
    let mut tokens = Vec::new();
    for entry in choice.pointer("/logprobs/content").and_then(Value::as_array).into_iter().flatten() {
        let (Some(token), Some(logprob)) =
            (entry.get("token").and_then(Value::as_str), entry.get("logprob").and_then(Value::as_f64))
        else {
            // A position without its token cannot be lined up with the text: keep none of them,
            // so the answer is read from the text rather than at a wrong position.
            tokens.clear();
            break;
        };
        let top = entry
            .get("top_logprobs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|candidate| {
                Some((candidate.get("token")?.as_str()?.to_owned(), candidate.get("logprob")?.as_f64()?))
            })
            .collect();
        tokens.push(TokenLogprobs { token: token.to_owned(), logprob, top });
    }
    Ok((content, tokens))
}

/// SHA-256 of the request body (model, messages and sampling parameters), hex.
fn prompt_hash(body: &Value) -> String {
    hex::encode(Sha256::digest(body.to_string().as_bytes()))
}

/// At most `limit` characters of `text`, with `…` when cut.
pub fn truncate(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completions_parse_with_and_without_logprobs() {
        let body = r#"{"choices": [{"message": {"role": "assistant", "content": "Yes"},
            "logprobs": {"content": [{"token": "Yes", "logprob": -0.1,
                "top_logprobs": [{"token": "Yes", "logprob": -0.1}, {"token": "No", "logprob": -2.4}]}]}}]}"#;
        let (content, tokens) = parse_completion(body).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(content, "Yes");
        let top = vec![("Yes".to_owned(), -0.1), ("No".to_owned(), -2.4)];
        assert_eq!(tokens, [TokenLogprobs { token: "Yes".to_owned(), logprob: -0.1, top }]);
        // Every position is kept, in order, so the answer can be found after the reasoning.
        let reasoning = r#"{"choices": [{"message": {"content": "<think>x</think>No"}, "logprobs": {"content": [
            {"token": "<think>", "logprob": -0.01, "top_logprobs": [{"token": "Yes", "logprob": -5.0}]},
            {"token": "x</think>", "logprob": -0.2, "top_logprobs": []},
            {"token": "No", "logprob": -0.3, "top_logprobs": [{"token": "No", "logprob": -0.3}]}]}}]}"#;
        let (_, tokens) = parse_completion(reasoning).unwrap_or_else(|e| panic!("{e}"));
        let texts: Vec<&str> = tokens.iter().map(|t| t.token.as_str()).collect();
        assert_eq!(texts, ["<think>", "x</think>", "No"]);
        let gap = r#"{"choices": [{"message": {"content": "No"}, "logprobs": {"content": [{"logprob": -0.3}]}}]}"#;
        assert_eq!(parse_completion(gap).map(|(_, t)| t.len()), Ok(0), "a position without its token");
        let plain = r#"{"choices": [{"message": {"content": "No"}}]}"#;
        assert_eq!(parse_completion(plain).map(|(c, f)| (c, f.len())), Ok(("No".to_owned(), 0)));
        assert!(parse_completion("<html>").is_err());
        assert!(parse_completion(r#"{"choices": []}"#).is_err());
        assert!(parse_completion(r#"{"choices": [{"message": {"content": null}}]}"#).is_err());
    }

    #[test]
    fn cached_replies_keep_the_answer_and_read_old_entries() {
        let token = |text: &str, top: &[(&str, f64)]| TokenLogprobs {
            token: text.to_owned(),
            logprob: -0.1,
            top: top.iter().map(|(t, l)| ((*t).to_owned(), *l)).collect(),
        };
        let reply = JudgeReply {
            content: "<think>a</think> No".to_owned(),
            tokens: vec![
                token("<think>", &[("Yes", -4.0)]),
                token("a</", &[("b", -1.0)]),
                token("think>", &[]),
                token(" No", &[("No", -0.1), ("Yes", -2.0)]),
            ],
            cached: false,
            key: String::new(),
        };
        let stored: JudgeReply = serde_json::from_str(&stored_form(&reply)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stored.content, reply.content);
        assert_eq!(stored.tokens.iter().map(|t| t.top.len()).collect::<Vec<_>>(), [0, 0, 0, 2], "{stored:?}");
        assert_eq!(stored.tokens[3], reply.tokens[3]);
        // An entry cached with only the first token's candidates reads as a one-token stream.
        let old = r#"{"content": "Yes", "first_token": [["No", -2.0], ["Yes", -0.2]]}"#;
        let old: JudgeReply = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(old.tokens.len(), 1);
        assert_eq!((old.tokens[0].token.as_str(), old.tokens[0].top.len()), ("Yes", 2));
    }

    #[test]
    fn config_is_checked() {
        assert_eq!(JudgeConfig::default().validate(), Ok(()));
        let bad = JudgeConfig { base_url: Some("ftp://x".to_owned()), ..JudgeConfig::default() };
        assert!(bad.validate().is_err());
        let https = JudgeConfig { base_url: Some("https://judge.example/v1".to_owned()), ..JudgeConfig::default() };
        assert_eq!(https.validate(), Ok(()));
        assert!(JudgeConfig { concurrency: 0, ..JudgeConfig::default() }.validate().is_err());
        assert_eq!(truncate("abcdef", 3), "abc…");
    }

    #[test]
    fn a_ca_file_must_hold_certificates() {
        let dir = std::env::temp_dir().join(format!("referee-ca-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let missing = dir.join("missing.pem");
        let with = |path: &std::path::Path| JudgeConfig {
            base_url: Some("https://judge.example/v1".to_owned()),
            ca_cert: Some(path.to_owned()),
            ..JudgeConfig::default()
        };
        let refused = |config: JudgeConfig| match JudgeClient::new(config, Backing::default()) {
            Ok(_) => String::new(),
            Err(reason) => reason,
        };
        assert!(refused(with(&missing)).contains("cannot read"), "{}", refused(with(&missing)));
        let text = dir.join("text.pem");
        let _ = std::fs::write(&text, "not a certificate\n");
        assert!(refused(with(&text)).contains("holds no PEM certificate"), "{}", refused(with(&text)));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(truncate("abc", 3), "abc");
    }
}
