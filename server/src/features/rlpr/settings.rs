//! `[rlpr]`: where the `rlpr` reward model gets log-probs.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

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
