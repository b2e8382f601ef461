//! The local model: a causal language model loaded from a Hugging Face-style directory and run
//! on the CPU or, with the `cuda` feature, on a CUDA device ([`ModelDevice`]), with its
//! tokenizer and chat template.
//!
//! - [`ChatTokenizer`] renders chat messages with the model's template and tokenises text with
//!   byte offsets, as the reference implementation tokenises the scored text (whole, without
//!   added special tokens);
//! - [`LocalModel::prepare`] turns a [`ScoringText`] into token ids and the positions of the
//!   tokens that overlap the reference answer;
//! - [`LocalModel::logprobs`] runs the decoder (Qwen2 or Llama) up to each sequence's last
//!   scored position and hands the final hidden states of the scored positions to the fused LM
//!   head ([`referee_kernels::token_logprobs`]), which never forms the `[tokens × vocab]` logits.

mod config;
mod decoder;
#[cfg(feature = "cuda")]
mod gpu;
#[cfg(any(test, feature = "cuda"))]
mod stack;
mod tokenizer;
mod weights;

use std::path::Path;
use std::str::FromStr;

pub use config::{Architecture, ModelConfig};
pub use tokenizer::{ChatMessage, ChatTokenizer, Encoded};

use crate::format::overlap_mask;
use crate::source::{ScoringText, SourceError, TokenSequence};

/// Why a model could not be loaded or could not score.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A file of the model directory could not be read.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// `config.json` is missing a field, or names an architecture or setting this runner does
    /// not support.
    #[error("config.json: {0}")]
    Config(String),
    /// A tensor is missing, has the wrong shape, or the safetensors files do not fit together.
    #[error("weights: {0}")]
    Weights(String),
    /// `tokenizer.json` could not be loaded, or a text could not be tokenised.
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    /// The chat template could not be parsed or rendered.
    #[error("chat template: {0}")]
    Template(String),
    /// The input cannot be scored as given (too long, a position or id out of range): the
    /// item's fault.
    #[error("{0}")]
    Input(String),
    /// The forward pass failed.
    #[error("forward pass: {0}")]
    Compute(String),
    /// The device cannot be used: no CUDA support in this build, no driver or device, or a
    /// missing CUDA library.
    #[error("device: {0}")]
    Device(String),
}

/// Where the model's forward pass runs: `cpu` (the default), or `cuda` / `cuda:N` (device N,
/// default 0; builds with the `cuda` feature). The weights are loaded as f32 either way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum ModelDevice {
    #[default]
    Cpu,
    Cuda(usize),
}

impl FromStr for ModelDevice {
    type Err = String;

    fn from_str(text: &str) -> Result<ModelDevice, String> {
        match text {
            "cpu" => Ok(ModelDevice::Cpu),
            "cuda" => Ok(ModelDevice::Cuda(0)),
            _ => text
                .strip_prefix("cuda:")
                .and_then(|ordinal| ordinal.parse().ok())
                .map(ModelDevice::Cuda)
                .ok_or_else(|| format!("unknown device {text:?}: expected \"cpu\", \"cuda\" or \"cuda:N\"")),
        }
    }
}

impl TryFrom<String> for ModelDevice {
    type Error = String;

    fn try_from(text: String) -> Result<ModelDevice, String> {
        text.parse()
    }
}

impl From<ModelDevice> for String {
    fn from(device: ModelDevice) -> String {
        device.to_string()
    }
}

impl std::fmt::Display for ModelDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelDevice::Cpu => f.write_str("cpu"),
            ModelDevice::Cuda(ordinal) => write!(f, "cuda:{ordinal}"),
        }
    }
}

impl ModelError {
    /// Whether the error is the input's fault rather than the model's.
    pub fn is_input(&self) -> bool {
        matches!(self, ModelError::Input(_) | ModelError::Template(_))
    }
}

impl From<ModelError> for SourceError {
    fn from(error: ModelError) -> SourceError {
        if error.is_input() { SourceError::Input(error.to_string()) } else { SourceError::Backend(error.to_string()) }
    }
}

impl From<candle_core::Error> for ModelError {
    fn from(error: candle_core::Error) -> ModelError {
        ModelError::Compute(error.to_string())
    }
}

/// Where the local model runs and the temperature its log-probs are computed at: what a
/// reload keeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalPlacement {
    /// The device of the forward pass.
    pub device: ModelDevice,
    /// The log-prob temperature ([`LocalModel::with_temperature`]).
    pub temperature: f32,
}

impl From<ModelDevice> for LocalPlacement {
    /// The device at temperature 1.
    fn from(device: ModelDevice) -> LocalPlacement {
        LocalPlacement { device, temperature: 1.0 }
    }
}

/// A causal language model and its tokenizer, loaded from a local directory. It holds no
/// per-request state, so one instance serves any number of threads.
#[derive(Debug)]
pub struct LocalModel {
    tokenizer: ChatTokenizer,
    decoder: decoder::Decoder,
    temperature: f32,
}

impl LocalModel {
    /// Loads a model directory onto the CPU: `config.json`, the weights (`model.safetensors`,
    /// or the shards named by `model.safetensors.index.json`), `tokenizer.json` and
    /// `tokenizer_config.json` (chat template, eos). Weights of any float type become f32.
    pub fn load(dir: &Path) -> Result<LocalModel, ModelError> {
        LocalModel::load_on(dir, ModelDevice::Cpu)
    }

    /// [`LocalModel::load`] with the forward pass on `device`.
    pub fn load_on(dir: &Path, device: ModelDevice) -> Result<LocalModel, ModelError> {
        let config = ModelConfig::load(dir)?;
        let tokenizer = ChatTokenizer::load(dir)?;
        if tokenizer.vocab_size() > config.vocab_size {
            return Err(ModelError::Config(format!(
                "the tokenizer has {} tokens but the model's vocabulary only {}",
                tokenizer.vocab_size(),
                config.vocab_size
            )));
        }
        let decoder = decoder::Decoder::load(dir, config, device)?;
        Ok(LocalModel { tokenizer, decoder, temperature: 1.0 })
    }

    /// The model scoring at `temperature`: every log-prob is `log softmax(logits / T)`, as
    /// RLPR's trainer computes them with its rollout temperature (1 in its Qwen scripts, 0.6
    /// in its Llama and Gemma scripts). A temperature that is not a positive finite number is
    /// a [`ModelError::Config`].
    pub fn with_temperature(mut self, temperature: f32) -> Result<LocalModel, ModelError> {
        if !(temperature.is_finite() && temperature > 0.0) {
            return Err(ModelError::Config(format!("the temperature must be a positive number, not {temperature}")));
        }
        self.temperature = temperature;
        Ok(self)
    }

    /// The temperature the log-probs are computed at (1 unless [`LocalModel::with_temperature`]
    /// set another).
    pub fn temperature(&self) -> f32 {
        self.temperature
    }

    /// The model's tokenizer and chat template.
    pub fn tokenizer(&self) -> &ChatTokenizer {
        &self.tokenizer
    }

    /// The model's configuration.
    pub fn config(&self) -> &ModelConfig {
        self.decoder.config()
    }

    /// The longest sequence the model accepts (`max_position_embeddings`).
    pub fn max_positions(&self) -> usize {
        self.decoder.config().max_position_embeddings
    }

    /// Tokenises the whole text (no special tokens added) and selects the tokens whose bytes
    /// overlap `text.answer` ([`crate::overlap_mask`]); the first token is never scored, since
    /// nothing precedes it. A text longer than [`LocalModel::max_positions`] tokens is an
    /// input error.
    pub fn prepare(&self, text: &ScoringText) -> Result<TokenSequence, ModelError> {
        if text.answer.start > text.answer.end || text.answer.end > text.text.len() {
            return Err(ModelError::Input(format!(
                "the answer's byte range {:?} lies outside the text of {} bytes",
                text.answer,
                text.text.len()
            )));
        }
        let (ids, offsets) = self.tokenizer.encode(&text.text)?;
        if ids.len() > self.max_positions() {
            return Err(ModelError::Input(format!(
                "the text has {} tokens; the model takes at most {}",
                ids.len(),
                self.max_positions()
            )));
        }
        let positions = overlap_mask(&offsets, &text.answer)
            .into_iter()
            .enumerate()
            .skip(1)
            .filter(|&(_, scored)| scored)
            .map(|(position, _)| position as u32)
            .collect();
        Ok(TokenSequence { ids, positions })
    }

    /// The log-probs (natural log, at [`LocalModel::temperature`]) of `ids[p]` given `ids[..p]`
    /// for every `p` in each sequence's `positions`, one vector per sequence, in order.
    /// Blocking: call it from a thread that may block.
    pub fn logprobs(&self, batch: &[TokenSequence]) -> Result<Vec<Vec<f32>>, ModelError> {
        self.decoder.logprobs_at(batch, self.temperature)
    }
}

/// The local model behind the batcher: what `rlpr.source = "local"` serves.
impl crate::batcher::BatchModel for LocalModel {
    fn run(&self, batch: &[TokenSequence]) -> Result<Vec<Vec<f32>>, String> {
        self.logprobs(batch).map_err(|e| e.to_string())
    }
}

impl crate::hosted::HostedModel for LocalModel {
    type Placement = LocalPlacement;

    fn load(dir: &Path, placement: &LocalPlacement) -> Result<LocalModel, String> {
        LocalModel::load_on(dir, placement.device)
            .and_then(|model| model.with_temperature(placement.temperature))
            .map_err(|e| e.to_string())
    }

    fn prepare(&self, text: &ScoringText) -> Result<TokenSequence, SourceError> {
        LocalModel::prepare(self, text).map_err(SourceError::from)
    }

    fn eos(&self) -> String {
        self.tokenizer().eos_token().to_owned()
    }

    fn render(&self, messages: &[ChatMessage]) -> Result<String, SourceError> {
        self.tokenizer().render(messages, true).map_err(SourceError::from)
    }
}
