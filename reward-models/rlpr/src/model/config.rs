//! `config.json`: the architecture and its sizes.

use std::path::Path;

use serde::Deserialize;

use super::ModelError;

/// The decoder families the runner implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Architecture {
    /// `Qwen2ForCausalLM`: biases on the query, key and value projections.
    Qwen2,
    /// `LlamaForCausalLM`: biases only where `attention_bias` / `mlp_bias` say.
    Llama,
}

/// How rotary position embeddings scale with position (`rope_scaling`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RopeScaling {
    /// Plain RoPE.
    None,
    /// Llama 3.1's frequency-dependent scaling (`rope_type: "llama3"`).
    Llama3 { factor: f32, low_freq_factor: f32, high_freq_factor: f32, original_max_position_embeddings: f32 },
}

/// The settings of a model, read from `config.json` and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelConfig {
    pub architecture: Architecture,
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub num_key_value_heads: usize,
    pub head_dim: usize,
    pub max_position_embeddings: usize,
    pub rms_norm_eps: f64,
    pub rope_theta: f32,
    pub rope_scaling: RopeScaling,
    /// The LM head is the embedding matrix (no `lm_head.weight`).
    pub tie_word_embeddings: bool,
    /// Biases on the query, key and value projections.
    pub attention_bias: bool,
    /// Biases on the output projection (Llama's `attention_bias` covers it too).
    pub output_bias: bool,
    /// Biases on the MLP projections.
    pub mlp_bias: bool,
}

#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    architectures: Vec<String>,
    model_type: Option<String>,
    vocab_size: Option<usize>,
    hidden_size: Option<usize>,
    intermediate_size: Option<usize>,
    num_hidden_layers: Option<usize>,
    num_attention_heads: Option<usize>,
    num_key_value_heads: Option<usize>,
    head_dim: Option<usize>,
    max_position_embeddings: Option<usize>,
    rms_norm_eps: Option<f64>,
    rope_theta: Option<f64>,
    rope_scaling: Option<serde_json::Value>,
    rope_parameters: Option<serde_json::Value>,
    tie_word_embeddings: Option<bool>,
    attention_bias: Option<bool>,
    mlp_bias: Option<bool>,
    hidden_act: Option<String>,
    use_sliding_window: Option<bool>,
}

fn required(value: Option<usize>, name: &str) -> Result<usize, ModelError> {
    match value {
        Some(0) => Err(ModelError::Config(format!("{name} must be positive"))),
        Some(v) => Ok(v),
        None => Err(ModelError::Config(format!("{name} is missing"))),
    }
}

impl ModelConfig {
    /// Reads and checks `dir/config.json`.
    pub fn load(dir: &Path) -> Result<ModelConfig, ModelError> {
        let path = dir.join("config.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ModelError::File { path: path.display().to_string(), message: e.to_string() })?;
        ModelConfig::parse(&text)
    }

    /// Parses and checks the text of a `config.json`.
    pub fn parse(text: &str) -> Result<ModelConfig, ModelError> {
        let raw: Raw = serde_json::from_str(text).map_err(|e| ModelError::Config(e.to_string()))?;
        // `architectures` decides; `model_type` only when it is absent.
        let names = || {
            let from_type = raw.model_type.as_deref().filter(|_| raw.architectures.is_empty());
            raw.architectures.iter().map(String::as_str).chain(from_type)
        };
        let architecture = if names().any(|n| n == "Qwen2ForCausalLM" || n == "qwen2") {
            Architecture::Qwen2
        } else if names().any(|n| n == "LlamaForCausalLM" || n == "llama") {
            Architecture::Llama
        } else {
            return Err(ModelError::Config(format!(
                "unsupported architecture {:?} (model_type {:?}); supported: Qwen2ForCausalLM, LlamaForCausalLM",
                raw.architectures, raw.model_type
            )));
        };
        if let Some(act) = raw.hidden_act.as_deref().filter(|a| *a != "silu") {
            return Err(ModelError::Config(format!("hidden_act {act:?} is not supported (only silu)")));
        }
        if raw.use_sliding_window == Some(true) {
            return Err(ModelError::Config("sliding-window attention is not supported".to_owned()));
        }
        let hidden_size = required(raw.hidden_size, "hidden_size")?;
        let num_attention_heads = required(raw.num_attention_heads, "num_attention_heads")?;
        let num_key_value_heads =
            required(raw.num_key_value_heads.or(Some(num_attention_heads)), "num_key_value_heads")?;
        if num_attention_heads % num_key_value_heads != 0 {
            return Err(ModelError::Config(format!(
                "num_attention_heads ({num_attention_heads}) is not a multiple of num_key_value_heads \
                 ({num_key_value_heads})"
            )));
        }
        let head_dim = match raw.head_dim {
            Some(d) => required(Some(d), "head_dim")?,
            None if hidden_size % num_attention_heads == 0 => hidden_size / num_attention_heads,
            None => {
                return Err(ModelError::Config(format!(
                    "hidden_size ({hidden_size}) is not a multiple of num_attention_heads ({num_attention_heads})"
                )));
            }
        };
        if head_dim % 2 != 0 {
            return Err(ModelError::Config(format!("head_dim ({head_dim}) must be even for rotary embeddings")));
        }
        // transformers 5 writes `rope_parameters` (theta and scaling together); older configs
        // have `rope_theta` and `rope_scaling`.
        let parameters = raw.rope_parameters.as_ref().filter(|p| p.is_object());
        let rope_theta = parameters
            .and_then(|p| p.get("rope_theta"))
            .and_then(serde_json::Value::as_f64)
            .or(raw.rope_theta)
            .unwrap_or(10000.0);
        if !(rope_theta.is_finite() && rope_theta > 0.0) {
            return Err(ModelError::Config(format!("rope_theta must be positive, got {rope_theta}")));
        }
        let rope_scaling = rope_scaling(raw.rope_scaling.as_ref().filter(|s| !s.is_null()).or(parameters))?;
        let (attention_bias, output_bias) = match architecture {
            Architecture::Qwen2 => (true, false),
            Architecture::Llama => (raw.attention_bias.unwrap_or(false), raw.attention_bias.unwrap_or(false)),
        };
        let rms_norm_eps = raw.rms_norm_eps.unwrap_or(1e-6);
        if !(rms_norm_eps.is_finite() && rms_norm_eps > 0.0) {
            return Err(ModelError::Config(format!("rms_norm_eps must be positive, got {rms_norm_eps}")));
        }
        Ok(ModelConfig {
            architecture,
            vocab_size: required(raw.vocab_size, "vocab_size")?,
            hidden_size,
            intermediate_size: required(raw.intermediate_size, "intermediate_size")?,
            num_hidden_layers: required(raw.num_hidden_layers, "num_hidden_layers")?,
            num_attention_heads,
            num_key_value_heads,
            head_dim,
            max_position_embeddings: required(raw.max_position_embeddings, "max_position_embeddings")?,
            rms_norm_eps,
            rope_theta: rope_theta as f32,
            rope_scaling,
            tie_word_embeddings: raw.tie_word_embeddings.unwrap_or(matches!(architecture, Architecture::Qwen2)),
            attention_bias,
            output_bias,
            mlp_bias: matches!(architecture, Architecture::Llama) && raw.mlp_bias.unwrap_or(false),
        })
    }
}

fn rope_scaling(value: Option<&serde_json::Value>) -> Result<RopeScaling, ModelError> {
    let Some(value) = value else { return Ok(RopeScaling::None) };
    let kind = value.get("rope_type").or_else(|| value.get("type")).and_then(serde_json::Value::as_str);
    let number = |name: &str| {
        value
            .get(name)
            .and_then(serde_json::Value::as_f64)
            .filter(|v| v.is_finite() && *v > 0.0)
            .map(|v| v as f32)
            .ok_or_else(|| ModelError::Config(format!("rope scaling needs a positive {name}")))
    };
    match kind {
        None | Some("default") => Ok(RopeScaling::None),
        Some("llama3") => {
            let scaling = RopeScaling::Llama3 {
                factor: number("factor")?,
                low_freq_factor: number("low_freq_factor")?,
                high_freq_factor: number("high_freq_factor")?,
                original_max_position_embeddings: number("original_max_position_embeddings")?,
            };
            if let RopeScaling::Llama3 { low_freq_factor, high_freq_factor, .. } = scaling
                && high_freq_factor <= low_freq_factor
            {
                return Err(ModelError::Config("rope scaling needs high_freq_factor > low_freq_factor".to_owned()));
            }
            Ok(scaling)
        }
        Some(other) => Err(ModelError::Config(format!("rope scaling {other:?} is not supported (default, llama3)"))),
    }
}

impl RopeScaling {
    /// The inverse frequencies `1 / θ^(2i/d)` for `i < d/2`, scaled, in f32 as transformers
    /// computes them.
    pub fn inverse_frequencies(self, theta: f32, head_dim: usize) -> Vec<f32> {
        let base: Vec<f32> = (0..head_dim / 2).map(|i| 1.0 / theta.powf((2 * i) as f32 / head_dim as f32)).collect();
        match self {
            RopeScaling::None => base,
            RopeScaling::Llama3 { factor, low_freq_factor, high_freq_factor, original_max_position_embeddings } => {
                let low_wavelen = original_max_position_embeddings / low_freq_factor;
                let high_wavelen = original_max_position_embeddings / high_freq_factor;
                base.into_iter()
                    .map(|inv| {
                        let wavelen = 2.0 * std::f32::consts::PI / inv;
                        let scaled = if wavelen > low_wavelen { inv / factor } else { inv };
                        if wavelen < high_wavelen || wavelen > low_wavelen {
                            scaled
                        } else {
                            let smooth = (original_max_position_embeddings / wavelen - low_freq_factor)
                                / (high_freq_factor - low_freq_factor);
                            (1.0 - smooth) * scaled / factor + smooth * scaled
                        }
                    })
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwen2_and_llama_configs_are_read_and_checked() {
        let qwen = r#"{"architectures":["Qwen2ForCausalLM"],"vocab_size":100,"hidden_size":16,
            "intermediate_size":32,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,
            "max_position_embeddings":64,"rope_theta":1000000.0,"tie_word_embeddings":true}"#;
        let Ok(config) = ModelConfig::parse(qwen) else { panic!("valid config") };
        assert_eq!((config.architecture, config.head_dim, config.attention_bias), (Architecture::Qwen2, 4, true));
        let llama = qwen.replace("Qwen2ForCausalLM", "LlamaForCausalLM");
        let Ok(config) = ModelConfig::parse(&llama) else { panic!("valid config") };
        assert_eq!((config.architecture, config.attention_bias), (Architecture::Llama, false));
        for (from, to, message) in [
            ("Qwen2ForCausalLM", "GPT2LMHeadModel", "unsupported architecture"),
            ("\"num_key_value_heads\":2", "\"num_key_value_heads\":3", "multiple of num_key_value_heads"),
            ("\"vocab_size\":100,", "", "vocab_size is missing"),
            ("\"rope_theta\":1000000.0", "\"rope_theta\":1.0,\"hidden_act\":\"gelu\"", "hidden_act"),
        ] {
            let Err(error) = ModelConfig::parse(&qwen.replace(from, to)) else { panic!("{to} must be refused") };
            assert!(error.to_string().contains(message), "{error}");
        }
    }

    #[test]
    fn llama3_scaling_divides_low_frequencies_only() {
        let scaling = RopeScaling::Llama3 {
            factor: 8.0,
            low_freq_factor: 1.0,
            high_freq_factor: 4.0,
            original_max_position_embeddings: 1024.0,
        };
        let plain = RopeScaling::None.inverse_frequencies(500000.0, 64);
        let scaled = scaling.inverse_frequencies(500000.0, 64);
        assert_eq!(plain[0], scaled[0], "the highest frequency is kept");
        assert!((scaled[31] - plain[31] / 8.0).abs() < 1e-12, "the lowest is divided by the factor");
    }
}
