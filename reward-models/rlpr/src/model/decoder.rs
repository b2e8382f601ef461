//! The decoder: embeddings, `num_hidden_layers` pre-norm blocks (RMSNorm, rotary grouped-query
//! attention with a causal mask, SwiGLU MLP), the final RMSNorm, and the fused LM head at the
//! scored positions only. One sequence at a time, in f32, without a cache: scoring reads each
//! sequence once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use referee_kernels::{Matrix, token_logprobs};

use super::ModelError;
use super::config::ModelConfig;
use crate::source::TokenSequence;

/// A linear map `x·Wᵀ + b`, with `Wᵀ` stored contiguous (`[in × out]`) so the matrix product
/// reads it row-major.
#[derive(Debug)]
struct Linear {
    transposed: Tensor,
    bias: Option<Tensor>,
}

impl Linear {
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let y = x.matmul(&self.transposed)?;
        match &self.bias {
            Some(bias) => y.broadcast_add(bias),
            None => Ok(y),
        }
    }
}

#[derive(Debug)]
struct Layer {
    input_norm: Tensor,
    post_norm: Tensor,
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    gate: Linear,
    up: Linear,
    down: Linear,
}

/// The loaded weights and the forward pass.
#[derive(Debug)]
pub(super) struct Decoder {
    config: ModelConfig,
    /// `[vocab × hidden]`, row-major.
    embed: Vec<f32>,
    /// `[vocab × hidden]`; `None` when tied to the embeddings.
    lm_head: Option<Vec<f32>>,
    layers: Vec<Layer>,
    norm: Tensor,
    inverse_frequencies: Vec<f32>,
    device: Device,
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

impl Decoder {
    pub(super) fn load(dir: &Path, config: ModelConfig) -> Result<Decoder, ModelError> {
        let device = Device::Cpu;
        let mut tensors = Tensors(HashMap::new());
        for file in weight_files(dir)? {
            let loaded = candle_core::safetensors::load(&file, &device)
                .map_err(|e| ModelError::Weights(format!("{}: {e}", file.display())))?;
            tensors.0.extend(loaded);
        }
        let c = &config;
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
        let inverse_frequencies = c.rope_scaling.inverse_frequencies(c.rope_theta, d);
        Ok(Decoder { config, embed, lm_head, layers, norm, inverse_frequencies, device })
    }

    pub(super) fn config(&self) -> &ModelConfig {
        &self.config
    }

    /// Checks a sequence against the model: ids in the vocabulary, positions ascending within
    /// `1..ids.len()`, length within `max_position_embeddings`.
    fn check(&self, sequence: &TokenSequence) -> Result<(), ModelError> {
        let c = &self.config;
        if sequence.ids.len() > c.max_position_embeddings {
            return Err(ModelError::Input(format!(
                "the sequence has {} tokens; the model takes at most {}",
                sequence.ids.len(),
                c.max_position_embeddings
            )));
        }
        if let Some(id) = sequence.ids.iter().find(|&&id| id as usize >= c.vocab_size) {
            return Err(ModelError::Input(format!("token id {id} is outside the vocabulary of {}", c.vocab_size)));
        }
        let mut previous = 0;
        for &p in &sequence.positions {
            if p <= previous || p as usize >= sequence.ids.len() {
                return Err(ModelError::Input(format!(
                    "scored positions must ascend within 1..{} (got {p} after {previous})",
                    sequence.ids.len()
                )));
            }
            previous = p;
        }
        Ok(())
    }

    /// The log-probs of the scored tokens of every sequence: the decoder runs sequence by
    /// sequence, then one fused LM-head call scores every sequence's positions together, so
    /// the LM-head matrix is streamed once per group of tokens rather than once per sequence.
    pub(super) fn logprobs(&self, batch: &[TokenSequence]) -> Result<Vec<Vec<f32>>, ModelError> {
        for sequence in batch {
            self.check(sequence)?;
        }
        let h = self.config.hidden_size;
        let mut hidden = Vec::new();
        let mut targets = Vec::new();
        for sequence in batch {
            let Some(&last) = sequence.positions.last() else { continue };
            // The last scored token is predicted from the tokens before it: nothing after it
            // matters.
            let rows: Vec<u32> = sequence.positions.iter().map(|&p| p - 1).collect();
            hidden.extend(self.hidden_states(&sequence.ids[..last as usize], &rows)?);
            targets.extend(sequence.positions.iter().map(|&p| sequence.ids[p as usize]));
        }
        let head = Matrix::new(self.lm_head.as_deref().unwrap_or(&self.embed), self.config.vocab_size, h)
            .map_err(|e| ModelError::Compute(e.to_string()))?;
        let states = Matrix::new(&hidden, targets.len(), h).map_err(|e| ModelError::Compute(e.to_string()))?;
        let mut logprobs =
            token_logprobs(states, head, &targets).map_err(|e| ModelError::Compute(e.to_string()))?.into_iter();
        Ok(batch.iter().map(|sequence| logprobs.by_ref().take(sequence.positions.len()).collect()).collect())
    }

    /// The final-norm hidden states of `rows` (indices into `ids`), flattened `[rows × hidden]`.
    fn hidden_states(&self, ids: &[u32], rows: &[u32]) -> Result<Vec<f32>, ModelError> {
        let c = &self.config;
        let (n, h) = (ids.len(), c.hidden_size);
        let (heads, kv, d) = (c.num_attention_heads, c.num_key_value_heads, c.head_dim);
        let group = heads / kv;
        let eps = c.rms_norm_eps as f32;
        let mut gathered = Vec::with_capacity(n * h);
        for &id in ids {
            gathered.extend_from_slice(&self.embed[id as usize * h..(id as usize + 1) * h]);
        }
        let mut x = Tensor::from_vec(gathered, (n, h), &self.device)?;
        let (cos, sin) = self.rotary(n)?;
        let mask = causal_mask(n, &self.device)?;
        let scale = 1.0 / (d as f64).sqrt();
        for layer in &self.layers {
            let normed = candle_nn::ops::rms_norm(&x, &layer.input_norm, eps)?;
            let split = |t: Tensor, count: usize| -> candle_core::Result<Tensor> {
                t.reshape((n, count, d))?.transpose(0, 1)?.contiguous()?.unsqueeze(0)
            };
            let q = candle_nn::rotary_emb::rope(&split(layer.q.forward(&normed)?, heads)?, &cos, &sin)?;
            let k = candle_nn::rotary_emb::rope(&split(layer.k.forward(&normed)?, kv)?, &cos, &sin)?;
            let v = split(layer.v.forward(&normed)?, kv)?.squeeze(0)?;
            // Query heads `j·group .. (j+1)·group` share key/value head `j`: stack them along
            // the rows so each key/value head is multiplied once.
            let q = q.reshape((kv, group * n, d))?;
            let k = k.squeeze(0)?;
            let scores = (q.matmul(&k.t()?)? * scale)?.reshape((kv, group, n, n))?.broadcast_add(&mask)?;
            let probs = candle_nn::ops::softmax_last_dim(&scores)?.reshape((kv, group * n, n))?;
            let attended =
                probs.matmul(&v)?.reshape((heads, n, d))?.transpose(0, 1)?.contiguous()?.reshape((n, heads * d))?;
            x = (x + layer.o.forward(&attended)?)?;
            let normed = candle_nn::ops::rms_norm(&x, &layer.post_norm, eps)?;
            let gated = (candle_nn::ops::silu(&layer.gate.forward(&normed)?)? * layer.up.forward(&normed)?)?;
            x = (x + layer.down.forward(&gated)?)?;
        }
        let index = Tensor::from_vec(rows.to_vec(), rows.len(), &self.device)?;
        let selected = candle_nn::ops::rms_norm(&x.index_select(&index, 0)?, &self.norm, eps)?;
        Ok(selected.flatten_all()?.to_vec1::<f32>()?)
    }

    /// The rotary tables `cos(p·f_i)`, `sin(p·f_i)` for positions `0..n`, `[n × head_dim/2]`.
    fn rotary(&self, n: usize) -> Result<(Tensor, Tensor), ModelError> {
        let half = self.inverse_frequencies.len();
        let mut cos = Vec::with_capacity(n * half);
        let mut sin = Vec::with_capacity(n * half);
        for p in 0..n {
            for &f in &self.inverse_frequencies {
                let angle = p as f32 * f;
                cos.push(angle.cos());
                sin.push(angle.sin());
            }
        }
        Ok((Tensor::from_vec(cos, (n, half), &self.device)?, Tensor::from_vec(sin, (n, half), &self.device)?))
    }
}

/// `[n × n]`: 0 where a query may attend (key ≤ query), −∞ elsewhere.
fn causal_mask(n: usize, device: &Device) -> candle_core::Result<Tensor> {
    let mask: Vec<f32> =
        (0..n).flat_map(|q| (0..n).map(move |k| if k <= q { 0.0 } else { f32::NEG_INFINITY })).collect();
    Tensor::from_vec(mask, (n, n), device)
}
