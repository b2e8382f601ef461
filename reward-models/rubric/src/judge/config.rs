//! The judge's configuration (`[judge]` in the server configuration) and its checks.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::prompt::Templates;
pub use super::template::PrincipleFormat;
use super::template::{MessageTemplate, TemplateError};

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

/// A `[judge]` value out of range; the message names the key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JudgeConfigError {
    #[error("judge.base_url must start with http:// or https://")]
    BaseUrl,
    #[error("judge.concurrency, judge.timeout_ms and judge.max_criteria_per_call must be at least 1")]
    Zero,
    #[error("judge.temperature must be between 0 and 2")]
    Temperature,
    #[error("judge.top_logprobs must be at most 20")]
    TopLogprobs,
    #[error("judge.model must not be empty")]
    Model,
    /// `rubric_messages`, `principle_messages` or `principle_format`.
    #[error(transparent)]
    Template(#[from] TemplateError),
}

impl JudgeConfig {
    /// The prompt templates this configuration asks for; the error names the setting.
    pub fn templates(&self) -> Result<Templates, TemplateError> {
        Templates::new(self.rubric_messages.as_deref(), self.principle_messages.as_deref(), self.principle_format)
    }

    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), JudgeConfigError> {
        if let Some(url) = &self.base_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err(JudgeConfigError::BaseUrl);
        }
        if self.concurrency == 0 || self.timeout_ms == 0 || self.max_criteria_per_call == 0 {
            return Err(JudgeConfigError::Zero);
        }
        if !(0.0..=2.0).contains(&self.temperature) {
            return Err(JudgeConfigError::Temperature);
        }
        if self.top_logprobs > 20 {
            return Err(JudgeConfigError::TopLogprobs);
        }
        if self.model.is_empty() {
            return Err(JudgeConfigError::Model);
        }
        self.templates()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_is_checked() {
        assert_eq!(JudgeConfig::default().validate(), Ok(()));
        let bad = JudgeConfig { base_url: Some("ftp://x".to_owned()), ..JudgeConfig::default() };
        assert_eq!(bad.validate(), Err(JudgeConfigError::BaseUrl));
        let https = JudgeConfig { base_url: Some("https://judge.example/v1".to_owned()), ..JudgeConfig::default() };
        assert_eq!(https.validate(), Ok(()));
        let idle = JudgeConfig { concurrency: 0, ..JudgeConfig::default() };
        assert_eq!(
            idle.validate().map_err(|e| e.to_string()),
            Err("judge.concurrency, judge.timeout_ms and judge.max_criteria_per_call must be at least 1".to_owned())
        );
        let both = JudgeConfig {
            principle_messages: Some(vec![MessageTemplate {
                role: "user".to_owned(),
                content: "{response} {principle}".to_owned(),
            }]),
            principle_format: PrincipleFormat::Rlbff,
            ..JudgeConfig::default()
        };
        assert_eq!(both.validate(), Err(JudgeConfigError::Template(TemplateError::Both)));
    }
}
