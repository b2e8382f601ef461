//! The checkpoint's weights: the safetensors files of a model directory, read into f32 tensors
//! on the CPU with their shapes checked against the configuration, and the decoder layers they
//! make. Both forward passes read them: candle's (`decoder`), and the device pass (`stack`),
//! which copies them into its own storage.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};

use super::ModelError;
use super::config::ModelConfig;

/// A linear map `x·Wᵀ + b`, with `Wᵀ` stored contiguous (`[in × out]`) so the matrix product
/// reads it row-major.
#[derive(Debug)]
pub(super) struct Linear {
    pub(super) transposed: Tensor,
    pub(super) bias: Option<Tensor>,
}

impl Linear {
    pub(super) fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let y = x.matmul(&self.transposed)?;
        match &self.bias {
            Some(bias) => y.broadcast_add(bias),
            None => Ok(y),
        }
    }
}

/// One decoder block's weights.
#[derive(Debug)]
pub(super) struct Layer {
    pub(super) input_norm: Tensor,
    pub(super) post_norm: Tensor,
    pub(super) q: Linear,
    pub(super) k: Linear,
    pub(super) v: Linear,
    pub(super) o: Linear,
    pub(super) gate: Linear,
    pub(super) up: Linear,
    pub(super) down: Linear,
}

/// A checkpoint's weights in f32 on the CPU.
#[derive(Debug)]
pub(super) struct Weights {
    /// `[vocab × hidden]`, row-major.
    pub(super) embed: Vec<f32>,
    /// `[vocab × hidden]`; `None` when tied to the embeddings.
    pub(super) lm_head: Option<Vec<f32>>,
    pub(super) layers: Vec<Layer>,
    /// The final RMSNorm's weight.
    pub(super) norm: Tensor,
}

impl Weights {
    /// Reads the weights of the model in `dir` whose configuration is `config`.
    pub(super) fn load(dir: &Path, config: &ModelConfig) -> Result<Weights, ModelError> {
        let device = Device::Cpu;
        let mut tensors = Tensors(HashMap::new());
        for file in weight_files(dir)? {
            let loaded = candle_core::safetensors::load(&file, &device)
                .map_err(|e| ModelError::Weights(format!("{}: {e}", file.display())))?;
            tensors.0.extend(loaded);
        }
        let c = config;
        let (h, heads, kv, d) = (c.hidden_size, c.num_attention_heads, c.num_key_value_heads, c.head_dim);
        let embed = tensors.flat("model.embed_tokens.weight", &[c.vocab_size, h])?;
        let lm_head = if tensors.0.contains_key("lm_head.weight") && !c.tie_word_embeddings {
            Some(tensors.flat("lm_head.weight", &[c.vocab_size, h])?)
        } else if c.tie_word_embeddings {
            None
        } else {
            return Err(ModelError::Weights("lm_head.weight is missing and tie_word_embeddings is false".to_owned()));
        };
        let mut layers = Vec::with_capacity(c.num_hidden_layers);
        for i in 0..c.num_hidden_layers {
            let p = format!("model.layers.{i}");
            layers.push(Layer {
                input_norm: tensors.take(&format!("{p}.input_layernorm.weight"), &[h])?,
                post_norm: tensors.take(&format!("{p}.post_attention_layernorm.weight"), &[h])?,
                q: tensors.linear(&format!("{p}.self_attn.q_proj"), heads * d, h, c.attention_bias)?,
                k: tensors.linear(&format!("{p}.self_attn.k_proj"), kv * d, h, c.attention_bias)?,
                v: tensors.linear(&format!("{p}.self_attn.v_proj"), kv * d, h, c.attention_bias)?,
                o: tensors.linear(&format!("{p}.self_attn.o_proj"), h, heads * d, c.output_bias)?,
                gate: tensors.linear(&format!("{p}.mlp.gate_proj"), c.intermediate_size, h, c.mlp_bias)?,
                up: tensors.linear(&format!("{p}.mlp.up_proj"), c.intermediate_size, h, c.mlp_bias)?,
                down: tensors.linear(&format!("{p}.mlp.down_proj"), h, c.intermediate_size, c.mlp_bias)?,
            });
        }
        let norm = tensors.take("model.norm.weight", &[h])?;
        Ok(Weights { embed, lm_head, layers, norm })
    }
}

fn weight_error(error: candle_core::Error) -> ModelError {
    ModelError::Weights(error.to_string())
}

/// The safetensors files of a model directory: the shards of `model.safetensors.index.json`,
/// or `model.safetensors`, or every `*.safetensors` file.
fn weight_files(dir: &Path) -> Result<Vec<PathBuf>, ModelError> {
    let index = dir.join("model.safetensors.index.json");
    if index.is_file() {
        let text = std::fs::read_to_string(&index)
            .map_err(|e| ModelError::File { path: index.display().to_string(), message: e.to_string() })?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| ModelError::Weights(format!("model.safetensors.index.json: {e}")))?;
        let Some(map) = value.get("weight_map").and_then(serde_json::Value::as_object) else {
            return Err(ModelError::Weights("model.safetensors.index.json has no weight_map".to_owned()));
        };
        let mut files: Vec<PathBuf> = Vec::new();
        for file in map.values() {
            let Some(name) = file.as_str().filter(|n| !n.contains('/') && !n.contains('\\') && !n.starts_with('.'))
            else {
                return Err(ModelError::Weights(format!("weight_map names an unusable file {file}")));
            };
            let path = dir.join(name);
            if !files.contains(&path) {
                files.push(path);
            }
        }
        return Ok(files);
    }
    let single = dir.join("model.safetensors");
    if single.is_file() {
        return Ok(vec![single]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| ModelError::File { path: dir.display().to_string(), message: e.to_string() })?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "safetensors"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(ModelError::Weights(format!("no *.safetensors file in {}", dir.display())));
    }
    Ok(files)
}

/// The tensors of a checkpoint, taken one by one with their shapes checked.
struct Tensors(HashMap<String, Tensor>);

impl Tensors {
    fn take(&mut self, name: &str, shape: &[usize]) -> Result<Tensor, ModelError> {
        let tensor = self.0.remove(name).ok_or_else(|| ModelError::Weights(format!("{name} is missing")))?;
        if tensor.dims() != shape {
            return Err(ModelError::Weights(format!("{name} has shape {:?}, expected {shape:?}", tensor.dims())));
        }
        tensor.to_dtype(DType::F32).map_err(weight_error)
    }

    fn linear(&mut self, prefix: &str, out: usize, inp: usize, bias: bool) -> Result<Linear, ModelError> {
        let weight = self.take(&format!("{prefix}.weight"), &[out, inp])?;
        let bias = if bias { Some(self.take(&format!("{prefix}.bias"), &[out])?) } else { None };
        let transposed = weight.t().and_then(|t| t.contiguous()).map_err(weight_error)?;
        Ok(Linear { transposed, bias })
    }

    fn flat(&mut self, name: &str, shape: &[usize]) -> Result<Vec<f32>, ModelError> {
        self.take(name, shape)?.flatten_all().and_then(|t| t.to_vec1::<f32>()).map_err(weight_error)
    }
}
