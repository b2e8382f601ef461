//! The remote source: an OpenAI-compatible completions server that returns the log-probs of
//! the prompt's own tokens (vLLM, SGLang). Each text is sent as a prompt with `echo: true` and
//! `logprobs: 1`; the reply's `tokens`, `token_logprobs` and `text_offset` give each prompt
//! token's log-prob and character offset, from which the tokens overlapping the reference
//! answer are selected ([`crate::overlap_mask`]). Texts are sent in batches (`prompt` as a
//! list) through a [`ModelClient`]: a bounded number of requests at once, each attempt under a
//! time limit, with retries and exponential backoff on 429, 5xx, refused connections and
//! timeouts (a `Retry-After` header taking the place of the next wait).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt;
use futures::future::{BoxFuture, join_all};
use referee_model_client::{Endpoint, ModelClient, ModelError, RetryPolicy, truncate};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::format::overlap_mask;
use crate::source::{LogprobSource, ScoringText, SourceError};

/// The completions server and how it is called (`[rlpr.remote]` in the server configuration).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RemoteConfig {
    /// Base URL of the server (`http://127.0.0.1:8000`); `/v1/completions` is appended (a
    /// trailing `/v1` is accepted and not doubled).
    pub url: Option<String>,
    /// The model name sent with every request (vLLM's `--served-model-name`).
    pub model: String,
    /// The API key, sent as `Authorization: Bearer`; instead of `api_key_file`.
    pub api_key: Option<String>,
    /// A file whose first line is the API key; instead of `api_key`.
    pub api_key_file: Option<PathBuf>,
    /// A PEM file of CA certificates trusted for an `https://` server besides the bundled
    /// Mozilla roots.
    pub ca_cert: Option<PathBuf>,
    /// The model's end-of-sequence text, appended after `</answer>` as the reference
    /// implementation does (`<|im_end|>` for Qwen chat models, `<|eot_id|>` for Llama 3).
    pub eos_token: Option<String>,
    /// Time limit of one attempt, in milliseconds.
    pub timeout_ms: u64,
    /// Texts sent in one request, at most.
    pub max_batch_texts: usize,
    /// Requests in flight at once, across all scoring requests.
    pub max_concurrency: usize,
    /// Further attempts after a 429, a 5xx, a refused connection or a timed-out attempt.
    pub max_retries: u32,
    /// Wait before the first retry, in milliseconds; doubled each retry, with jitter.
    pub backoff_ms: u64,
    /// Longest wait between retries, in milliseconds.
    pub max_backoff_ms: u64,
    /// `max_tokens` of a request: 1 (vLLM needs at least one generated token; it is dropped),
    /// or 0 for servers that accept it.
    pub max_tokens: u32,
    /// `add_special_tokens` of a request. False by default: the texts are whole rendered chats
    /// that already hold the template's own BOS (Llama's `<|begin_of_text|>`, Gemma's `<bos>`),
    /// and the reference tokenises them with `add_special_tokens=False`; vLLM's default (true)
    /// would put a second BOS in front and shift every log-prob.
    pub add_special_tokens: bool,
}

impl Default for RemoteConfig {
    fn default() -> Self {
        RemoteConfig {
            url: None,
            model: "policy".to_owned(),
            api_key: None,
            api_key_file: None,
            ca_cert: None,
            eos_token: None,
            timeout_ms: 60_000,
            max_batch_texts: 64,
            max_concurrency: 8,
            max_retries: 3,
            backoff_ms: 200,
            max_backoff_ms: 5_000,
            max_tokens: 1,
            add_special_tokens: false,
        }
    }
}

impl RemoteConfig {
    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        match &self.url {
            None => return Err("rlpr.remote.url must be set when rlpr.source is \"remote\"".to_owned()),
            Some(url) if !(url.starts_with("http://") || url.starts_with("https://")) => {
                return Err("rlpr.remote.url must start with http:// or https://".to_owned());
            }
            Some(_) => {}
        }
        if self.eos_token.as_deref().is_none_or(str::is_empty) {
            return Err("rlpr.remote.eos_token must be set to the model's end-of-sequence text (e.g. \"<|im_end|>\")"
                .to_owned());
        }
        if self.api_key.is_some() && self.api_key_file.is_some() {
            return Err("give rlpr.remote.api_key or rlpr.remote.api_key_file, not both".to_owned());
        }
        if self.timeout_ms == 0 || self.max_batch_texts == 0 || self.max_concurrency == 0 {
            return Err(
                "rlpr.remote.timeout_ms, rlpr.remote.max_batch_texts and rlpr.remote.max_concurrency must be at \
                 least 1"
                    .to_owned(),
            );
        }
        if self.max_tokens > 1 {
            return Err("rlpr.remote.max_tokens must be 0 or 1".to_owned());
        }
        if self.model.is_empty() {
            return Err("rlpr.remote.model must not be empty".to_owned());
        }
        Ok(())
    }
}

/// Scores texts with a remote completions server. Cheap to clone.
#[derive(Debug, Clone)]
pub struct RemoteSource {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: RemoteConfig,
    eos: String,
    client: ModelClient,
}

impl RemoteSource {
    /// A source for `config`, which must be valid; reads the API key file and the CA file.
    pub fn new(config: RemoteConfig) -> Result<RemoteSource, String> {
        config.validate()?;
        let api_key = match (&config.api_key, &config.api_key_file) {
            (Some(key), _) => Some(key.clone()),
            (None, Some(path)) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("rlpr.remote.api_key_file: cannot read {}: {e}", path.display()))?;
                let key = text.lines().next().unwrap_or_default().trim().to_owned();
                if key.is_empty() {
                    return Err(format!("rlpr.remote.api_key_file: {} holds no key", path.display()));
                }
                Some(key)
            }
            (None, None) => None,
        };
        let base = config.url.as_deref().unwrap_or_default().trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base);
        let endpoint = Endpoint {
            url: format!("{base}/v1/completions"),
            api_key,
            ca_cert: config.ca_cert.clone(),
            ca_key: "rlpr.remote.ca_cert",
            peer: "the completions server",
            timeout: Duration::from_millis(config.timeout_ms),
            retry: RetryPolicy {
                max_retries: config.max_retries,
                backoff: Duration::from_millis(config.backoff_ms),
                max_backoff: Duration::from_millis(config.max_backoff_ms),
            },
            concurrency: config.max_concurrency,
        };
        let client = ModelClient::new(endpoint).map_err(|e| e.to_string())?;
        let eos = config.eos_token.clone().unwrap_or_default();
        Ok(RemoteSource { inner: Arc::new(Inner { config, eos, client }) })
    }

    /// The configuration in effect.
    pub fn config(&self) -> &RemoteConfig {
        &self.inner.config
    }

    /// Scores one request's worth of texts; a text the server refuses when sent with others is
    /// sent again alone, so one over-long text fails only itself.
    async fn score_chunk(self, texts: Vec<ScoringText>) -> Vec<Result<Vec<f64>, SourceError>> {
        match self.request(&texts).await {
            Ok(replies) => replies,
            Err(SourceError::Input(_)) if texts.len() > 1 => {
                let alone = texts.into_iter().map(|text| {
                    let this = self.clone();
                    async move { this.score_chunk_one(text).await }
                });
                join_all(alone).await
            }
            Err(error) => vec![Err(error); texts.len()],
        }
    }

    async fn score_chunk_one(self, text: ScoringText) -> Result<Vec<f64>, SourceError> {
        let mut replies = self.request(std::slice::from_ref(&text)).await?;
        replies.pop().unwrap_or_else(|| Err(SourceError::Backend("no reply".to_owned())))
    }

    /// One request with its retries: each text's log-probs, or why the whole request failed
    /// (`Input` when the server refused the texts with HTTP 400).
    async fn request(&self, texts: &[ScoringText]) -> Result<Vec<Result<Vec<f64>, SourceError>>, SourceError> {
        let config = &self.inner.config;
        let prompts: Vec<&str> = texts.iter().map(|t| t.text.as_str()).collect();
        let body = json!({
            "model": config.model,
            "prompt": prompts,
            "max_tokens": config.max_tokens,
            "echo": true,
            "logprobs": 1,
            "temperature": 1.0,
            "add_special_tokens": config.add_special_tokens,
        });
        let call = self.inner.client.post(&body, None).await;
        if call.retries > 0 {
            metrics::counter!("referee_rlpr_remote_retries_total").increment(u64::from(call.retries));
        }
        match call.result {
            Ok(reply) => {
                let parsed = parse_reply(&reply, texts);
                count(match (&parsed, call.retries) {
                    (Err(_), _) => "malformed",
                    (Ok(_), 0) => "ok",
                    (Ok(_), _) => "retried",
                });
                parsed.map_err(SourceError::Backend)
            }
            Err(error) => {
                count("failed");
                Err(self.source_error(error))
            }
        }
    }

    /// A failed request as its texts report it: HTTP 400 is the texts' fault, the rest the
    /// server's.
    fn source_error(&self, error: ModelError) -> SourceError {
        let url = &self.inner.client.endpoint().url;
        let gave_up = |attempts: u32, last: String| {
            SourceError::Backend(format!(
                "the completions server at {url} gave no answer after {attempts} attempts: {last}"
            ))
        };
        match error {
            ModelError::Refused { status, body, .. } if status.as_u16() == 400 => {
                SourceError::Input(format!("the completions server refused the text (HTTP 400): {body}"))
            }
            ModelError::Unavailable { attempts, ref last } => gave_up(attempts, last.to_string()),
            // Its message is the last attempt's: "no answer within ...".
            ModelError::TimedOut { attempts, .. } => gave_up(attempts, error.to_string()),
            other @ (ModelError::Refused { .. }
            | ModelError::Expired { .. }
            | ModelError::NoTimeToRetry { .. }
            | ModelError::Tls { .. }
            | ModelError::Malformed { .. }
            | ModelError::Closed { .. }) => SourceError::Backend(other.to_string()),
        }
    }
}

fn count(outcome: &'static str) {
    metrics::counter!("referee_rlpr_remote_requests_total", "outcome" => outcome).increment(1);
}

/// The scored tokens' log-probs of each text from a completions reply with echoed prompts.
/// A reply that does not fit the request fails every text; a problem with one choice fails
/// that text.
fn parse_reply(reply: &Value, texts: &[ScoringText]) -> Result<Vec<Result<Vec<f64>, SourceError>>, String> {
    let choices = reply.get("choices").and_then(Value::as_array).ok_or_else(|| {
        format!("the completions server's answer has no `choices`: {}", truncate(&reply.to_string(), 200))
    })?;
    if choices.len() != texts.len() {
        return Err(format!("the completions server answered {} choices for {} prompts", choices.len(), texts.len()));
    }
    let mut ordered: Vec<Option<&Value>> = vec![None; texts.len()];
    for (position, choice) in choices.iter().enumerate() {
        let index = match choice.get("index") {
            Some(index) => index.as_u64().and_then(|i| usize::try_from(i).ok()).filter(|&i| i < texts.len()),
            None => Some(position),
        };
        match index.map(|i| &mut ordered[i]) {
            Some(slot @ None) => *slot = Some(choice),
            Some(Some(_)) | None => {
                return Err(format!("the completions server's choice {position} has a bad `index`"));
            }
        }
    }
    Ok(ordered
        .into_iter()
        .zip(texts)
        .map(|(choice, text)| match choice {
            Some(choice) => scored_logprobs(choice, text),
            None => Err(SourceError::Backend("the completions server left a prompt unanswered".to_owned())),
        })
        .collect())
}

/// The log-probs of the prompt tokens that overlap the answer, from one echoed choice.
fn scored_logprobs(choice: &Value, text: &ScoringText) -> Result<Vec<f64>, SourceError> {
    let bad = |what: &str| SourceError::Backend(format!("the completions server's logprobs are malformed: {what}"));
    let logprobs = choice
        .get("logprobs")
        .filter(|l| !l.is_null())
        .ok_or_else(|| bad("no `logprobs` in the choice (does the server return prompt log-probs with `echo`?)"))?;
    let field =
        |name: &str| logprobs.get(name).and_then(Value::as_array).ok_or_else(|| bad(&format!("no `{name}` list")));
    let tokens = field("tokens")?;
    let values = field("token_logprobs")?;
    let offsets = field("text_offset")?;
    if tokens.len() != values.len() || tokens.len() != offsets.len() {
        return Err(bad("`tokens`, `token_logprobs` and `text_offset` differ in length"));
    }
    // text_offset counts characters (a Python str's indices); spans are in bytes.
    let mut byte_at: Vec<usize> = text.text.char_indices().map(|(at, _)| at).collect();
    let chars = byte_at.len();
    byte_at.push(text.text.len());
    let mut starts = Vec::with_capacity(offsets.len());
    for offset in offsets {
        let offset =
            offset.as_u64().and_then(|o| usize::try_from(o).ok()).ok_or_else(|| bad("an offset is not a count"))?;
        if offset >= chars {
            break; // generated tokens follow the echoed prompt
        }
        if starts.last().is_some_and(|&previous| offset < previous) {
            return Err(bad("`text_offset` goes backwards"));
        }
        starts.push(offset);
    }
    let spans: Vec<(usize, usize)> = starts
        .iter()
        .enumerate()
        .map(|(i, &start)| (byte_at[start], starts.get(i + 1).map_or(text.text.len(), |&next| byte_at[next])))
        .collect();
    let mask = overlap_mask(&spans, &text.answer);
    let mut scored = Vec::new();
    for (position, _) in mask.iter().enumerate().filter(|(_, m)| **m) {
        match values[position].as_f64() {
            Some(value) => scored.push(value),
            None if position == 0 => {
                return Err(SourceError::Input(
                    "the reference answer starts at the text's first token, which has no log-prob".to_owned(),
                ));
            }
            None => return Err(bad(&format!("token {position}'s log-prob is not a number"))),
        }
    }
    Ok(scored)
}

impl LogprobSource for RemoteSource {
    fn name(&self) -> &'static str {
        "remote"
    }

    fn eos(&self) -> &str {
        &self.inner.eos
    }

    fn logprobs(&self, batch: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<Vec<f64>, SourceError>>> {
        let size = self.inner.config.max_batch_texts;
        let mut chunks = Vec::new();
        let mut batch = batch.into_iter().peekable();
        while batch.peek().is_some() {
            chunks.push(batch.by_ref().take(size).collect::<Vec<_>>());
        }
        let requests: Vec<_> = chunks.into_iter().map(|chunk| self.clone().score_chunk(chunk)).collect();
        async move { join_all(requests).await.into_iter().flatten().collect() }.boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(text: &str, answer: &str) -> ScoringText {
        let start = text.find(answer).unwrap_or_default();
        ScoringText { text: text.to_owned(), answer: start..start + answer.len() }
    }

    #[test]
    fn prompt_tokens_overlapping_the_answer_are_selected_by_character_offsets() {
        // "é=" then " 42" then " !" and a generated token past the end; "é" is two bytes.
        let scored = text("é= 42 !", "42");
        let choice = json!({"index": 0, "logprobs": {
            "tokens": ["é=", " 4", "2", " !", "x"],
            "token_logprobs": [null, -0.5, -0.25, -1.0, -3.0],
            "text_offset": [0, 2, 4, 5, 7]}});
        assert_eq!(scored_logprobs(&choice, &scored), Ok(vec![-0.5, -0.25]));
        let first = text("42 is it", "42");
        let choice = json!({"logprobs": {"tokens": ["42"], "token_logprobs": [null], "text_offset": [0]}});
        assert!(matches!(scored_logprobs(&choice, &first), Err(SourceError::Input(_))));
    }

    #[test]
    fn malformed_replies_are_backend_errors() {
        let scored = text("a b", "b");
        for choice in [
            json!({}),
            json!({"logprobs": null}),
            json!({"logprobs": {"tokens": ["a"], "token_logprobs": [], "text_offset": [0]}}),
            json!({"logprobs": {"tokens": ["a", " b"], "token_logprobs": [null, -1.0], "text_offset": [1, 0]}}),
            json!({"logprobs": {"tokens": ["a", " b"], "token_logprobs": [null, "x"], "text_offset": [0, 1]}}),
        ] {
            assert!(matches!(scored_logprobs(&choice, &scored), Err(SourceError::Backend(_))), "{choice}");
        }
        assert!(parse_reply(&json!({"choices": []}), std::slice::from_ref(&scored)).is_err());
        let twice = json!({"choices": [{"index": 0}, {"index": 0}]});
        assert!(parse_reply(&twice, &[scored.clone(), scored]).is_err());
    }

    #[test]
    fn config_is_checked() {
        let good = RemoteConfig {
            url: Some("http://127.0.0.1:8000".to_owned()),
            eos_token: Some("<|im_end|>".to_owned()),
            ..RemoteConfig::default()
        };
        assert_eq!(good.validate(), Ok(()));
        assert!(RemoteConfig { url: None, ..good.clone() }.validate().is_err());
        assert!(RemoteConfig { eos_token: None, ..good.clone() }.validate().is_err());
        assert!(RemoteConfig { max_tokens: 2, ..good.clone() }.validate().is_err());
        assert!(RemoteConfig { max_batch_texts: 0, ..good.clone() }.validate().is_err());
        let both = RemoteConfig { api_key: Some("k".to_owned()), api_key_file: Some("f".into()), ..good.clone() };
        assert!(both.validate().is_err());
        let source = RemoteSource::new(RemoteConfig { url: Some("http://h:1/v1/".to_owned()), ..good });
        assert_eq!(source.map(|s| s.inner.client.endpoint().url.clone()), Ok("http://h:1/v1/completions".to_owned()));
    }
}
