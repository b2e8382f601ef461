//! The decoder: embeddings, `num_hidden_layers` pre-norm blocks (RMSNorm, rotary grouped-query
//! attention with a causal mask, SwiGLU MLP), the final RMSNorm, and the fused LM head at the
//! scored positions only. One sequence at a time, in f32, without a cache: scoring reads each
//! sequence once. On the CPU the blocks run as candle operators; on a CUDA device (the `cuda`
//! feature) as [`super::stack::Stack`] over the device's operations.

use std::path::Path;

use candle_core::{Device, Tensor};
use referee_kernels::{Matrix, token_logprobs};

use super::config::ModelConfig;
#[cfg(test)]
use super::stack::HostOps;
#[cfg(any(test, feature = "cuda"))]
use super::stack::Stack;
use super::weights::{Layer, Weights};
use super::{ModelDevice, ModelError};
use crate::source::TokenSequence;

/// Where the blocks run.
#[derive(Debug)]
enum Backend {
    /// candle's operators on the CPU.
    Candle { layers: Vec<Layer>, norm: Tensor },
    /// The device pass over the CPU twins of the device operations: what the GPU runs, checked
    /// on the CPU.
    #[cfg(test)]
    Twins(Box<Stack<HostOps>>),
    /// A CUDA device.
    #[cfg(feature = "cuda")]
    Cuda(Box<Stack<super::gpu::GpuOps>>),
}

/// The loaded weights and the forward pass.
#[derive(Debug)]
pub(super) struct Decoder {
    config: ModelConfig,
    /// `[vocab × hidden]`, row-major.
    embed: Vec<f32>,
    /// `[vocab × hidden]`; `None` when tied to the embeddings.
    lm_head: Option<Vec<f32>>,
    backend: Backend,
    inverse_frequencies: Vec<f32>,
}

impl Decoder {
    /// Loads the weights in `dir` and places them on `device`.
    pub(super) fn load(dir: &Path, config: ModelConfig, device: ModelDevice) -> Result<Decoder, ModelError> {
        let mut decoder = Decoder::load_on_cpu(dir, config)?;
        if let ModelDevice::Cuda(ordinal) = device {
            decoder.backend = decoder.cuda_backend(ordinal)?;
        }
        Ok(decoder)
    }

    fn load_on_cpu(dir: &Path, config: ModelConfig) -> Result<Decoder, ModelError> {
        let Weights { embed, lm_head, layers, norm } = Weights::load(dir, &config)?;
        let inverse_frequencies = config.rope_scaling.inverse_frequencies(config.rope_theta, config.head_dim);
        Ok(Decoder { config, embed, lm_head, backend: Backend::Candle { layers, norm }, inverse_frequencies })
    }

    /// The LM head, `vocab × hidden`: its own matrix, or the embeddings when tied.
    fn head(&self) -> Result<Matrix<'_>, ModelError> {
        Matrix::new(self.lm_head.as_deref().unwrap_or(&self.embed), self.config.vocab_size, self.config.hidden_size)
            .map_err(|e| ModelError::Compute(e.to_string()))
    }

    /// The embeddings, `vocab × hidden`, where the head is a matrix of its own (`None` when tied).
    #[cfg(any(test, feature = "cuda"))]
    fn untied_embeddings(&self) -> Result<Option<Matrix<'_>>, ModelError> {
        if self.lm_head.is_none() {
            return Ok(None);
        }
        Matrix::new(&self.embed, self.config.vocab_size, self.config.hidden_size)
            .map(Some)
            .map_err(|e| ModelError::Compute(e.to_string()))
    }

    /// The blocks moved from candle's CPU tensors to CUDA device `ordinal`.
    #[cfg(feature = "cuda")]
    fn cuda_backend(&self, ordinal: usize) -> Result<Backend, ModelError> {
        use referee_kernels::cuda::{Gpu, cublas_available};
        let Backend::Candle { layers, norm } = &self.backend else {
            return Err(ModelError::Device("the weights are no longer on the CPU".to_owned()));
        };
        let gpu = Gpu::open(ordinal)
            .map_err(|e| ModelError::Device(format!("cuda:{ordinal}: {e}")))?
            .ok_or_else(|| ModelError::Device(format!("cuda:{ordinal}: no CUDA driver or no such device")))?;
        if !cublas_available() {
            return Err(ModelError::Device(
                "the cuBLAS library (libcublas.so.12) cannot be loaded; put it on LD_LIBRARY_PATH".to_owned(),
            ));
        }
        let stack = Stack::build(super::gpu::GpuOps::new(gpu), layers, norm, self.head()?, self.untied_embeddings()?)?;
        Ok(Backend::Cuda(Box::new(stack)))
    }

    #[cfg(not(feature = "cuda"))]
    fn cuda_backend(&self, _ordinal: usize) -> Result<Backend, ModelError> {
        Err(ModelError::Device("this build has no CUDA support: build referee with `--features cuda`".to_owned()))
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
    #[cfg(test)]
    pub(super) fn logprobs(&self, batch: &[TokenSequence]) -> Result<Vec<Vec<f32>>, ModelError> {
        self.logprobs_at(batch, 1.0)
    }

    /// [`Decoder::logprobs`] at a sampling temperature: `log softmax(logits / T)`. The logits
    /// are `W·h`, so `logits / T = W·(h / T)`: the final hidden states are divided by `T`
    /// before the fused LM head, on every backend, and neither LM-head kernel needs a
    /// temperature of its own.
    pub(super) fn logprobs_at(&self, batch: &[TokenSequence], temperature: f32) -> Result<Vec<Vec<f32>>, ModelError> {
        if !(temperature.is_finite() && temperature > 0.0) {
            return Err(ModelError::Input(format!("the temperature must be a positive number, not {temperature}")));
        }
        for sequence in batch {
            self.check(sequence)?;
        }
        let h = self.config.hidden_size;
        let scored: Vec<&TokenSequence> = batch.iter().filter(|sequence| !sequence.positions.is_empty()).collect();
        let targets: Vec<u32> =
            scored.iter().flat_map(|sequence| sequence.positions.iter().map(|&p| sequence.ids[p as usize])).collect();
        let mut hidden = Vec::with_capacity(targets.len() * h);
        for pack in self.packs(&scored) {
            hidden.extend(self.pack_hidden_states(pack)?);
        }
        if temperature != 1.0 {
            hidden.iter_mut().for_each(|x| *x /= temperature);
        }
        let states = Matrix::new(&hidden, targets.len(), h).map_err(|e| ModelError::Compute(e.to_string()))?;
        let logprobs = match &self.backend {
            Backend::Candle { .. } => {
                token_logprobs(states, self.head()?, &targets).map_err(|e| ModelError::Compute(e.to_string()))?
            }
            #[cfg(test)]
            Backend::Twins(stack) => stack.lm_head(states, &targets)?,
            #[cfg(feature = "cuda")]
            Backend::Cuda(stack) => stack.lm_head(states, &targets)?,
        };
        let mut logprobs = logprobs.into_iter();
        Ok(batch.iter().map(|sequence| logprobs.by_ref().take(sequence.positions.len()).collect()).collect())
    }

    /// The batch cut into the sequences of one forward pass each: one sequence on the candle
    /// backend; on the device, sequences laid end to end up to [`PACK_TOKENS`] tokens (a longer
    /// sequence alone), so that each weight's product runs once per pass over all of them.
    fn packs<'s>(&self, scored: &'s [&'s TokenSequence]) -> Vec<&'s [&'s TokenSequence]> {
        let limit = match self.backend {
            Backend::Candle { .. } => 0,
            #[cfg(test)]
            Backend::Twins(_) => PACK_TOKENS,
            #[cfg(feature = "cuda")]
            Backend::Cuda(_) => PACK_TOKENS,
        };
        let mut packs = Vec::new();
        let (mut start, mut tokens) = (0, 0);
        for (i, sequence) in scored.iter().enumerate() {
            let n = input_length(sequence);
            if i > start && tokens + n > limit {
                packs.push(&scored[start..i]);
                (start, tokens) = (i, 0);
            }
            tokens += n;
        }
        if start < scored.len() {
            packs.push(&scored[start..]);
        }
        packs
    }

    /// The final-norm hidden states of the scored positions of one pack, flattened
    /// `[positions × hidden]`. Each sequence is fed up to its last scored token (the last
    /// scored token is predicted from the tokens before it: nothing after it matters).
    fn pack_hidden_states(&self, pack: &[&TokenSequence]) -> Result<Vec<f32>, ModelError> {
        let parts: Vec<(&[u32], Vec<u32>)> = pack
            .iter()
            .map(|sequence| {
                let rows = sequence.positions.iter().map(|&p| p - 1).collect();
                (&sequence.ids[..input_length(sequence)], rows)
            })
            .collect();
        self.hidden_states_of(&parts)
    }

    /// The final-norm hidden states of `rows` (indices into `ids`), flattened `[rows × hidden]`.
    #[cfg(test)]
    fn hidden_states(&self, ids: &[u32], rows: &[u32]) -> Result<Vec<f32>, ModelError> {
        self.hidden_states_of(&[(ids, rows.to_vec())])
    }

    /// The hidden states of several sequences' rows, `(ids, rows into ids)`, in order: in one
    /// pass on the device; the candle backend takes one sequence per call.
    fn hidden_states_of(&self, parts: &[(&[u32], Vec<u32>)]) -> Result<Vec<f32>, ModelError> {
        let longest = parts.iter().map(|(ids, _)| ids.len()).max().unwrap_or(0);
        let (cos, sin) = self.rotary_tables(longest);
        let half = self.inverse_frequencies.len();
        match &self.backend {
            Backend::Candle { layers, norm } => {
                let h = self.config.hidden_size;
                let mut hidden = Vec::new();
                for (ids, rows) in parts {
                    let mut embedded = Vec::with_capacity(ids.len() * h);
                    for &id in *ids {
                        embedded.extend_from_slice(&self.embed[id as usize * h..(id as usize + 1) * h]);
                    }
                    let tables = (cos[..ids.len() * half].to_vec(), sin[..ids.len() * half].to_vec());
                    hidden.extend(self.candle_hidden_states(layers, norm, embedded, tables, rows)?);
                }
                Ok(hidden)
            }
            #[cfg(test)]
            Backend::Twins(stack) => self.stack_hidden_states(stack, parts, (&cos, &sin)),
            #[cfg(feature = "cuda")]
            Backend::Cuda(stack) => self.stack_hidden_states(stack, parts, (&cos, &sin)),
        }
    }

    /// One pass of the stack over `parts` laid end to end, with the rotary tables of the
    /// longest.
    #[cfg(any(test, feature = "cuda"))]
    fn stack_hidden_states<O: super::stack::Ops>(
        &self,
        stack: &Stack<O>,
        parts: &[(&[u32], Vec<u32>)],
        (cos, sin): (&[f32], &[f32]),
    ) -> Result<Vec<f32>, ModelError> {
        let half = self.inverse_frequencies.len();
        let total: usize = parts.iter().map(|(ids, _)| ids.len()).sum();
        let mut ids = Vec::with_capacity(total);
        let (mut cos_all, mut sin_all) = (Vec::with_capacity(total * half), Vec::with_capacity(total * half));
        let mut segments = Vec::with_capacity(parts.len() + 1);
        let mut rows = Vec::new();
        segments.push(0);
        for (part, part_rows) in parts {
            let offset = ids.len() as u32;
            rows.extend(part_rows.iter().map(|&r| offset + r));
            ids.extend_from_slice(part);
            cos_all.extend_from_slice(&cos[..part.len() * half]);
            sin_all.extend_from_slice(&sin[..part.len() * half]);
            segments.push(ids.len());
        }
        let compute = |e: referee_kernels::KernelError| ModelError::Compute(e.to_string());
        let tables = (
            Matrix::new(&cos_all, total, half).map_err(compute)?,
            Matrix::new(&sin_all, total, half).map_err(compute)?,
        );
        stack.hidden_states(&self.config, &ids, tables, &segments, &rows)
    }

    fn candle_hidden_states(
        &self,
        layers: &[Layer],
        norm: &Tensor,
        embedded: Vec<f32>,
        (cos, sin): (Vec<f32>, Vec<f32>),
        rows: &[u32],
    ) -> Result<Vec<f32>, ModelError> {
        let c = &self.config;
        let device = &Device::Cpu;
        let (n, h) = (embedded.len() / c.hidden_size, c.hidden_size);
        let (heads, kv, d) = (c.num_attention_heads, c.num_key_value_heads, c.head_dim);
        let group = heads / kv;
        let eps = c.rms_norm_eps as f32;
        let mut x = Tensor::from_vec(embedded, (n, h), device)?;
        let half = self.inverse_frequencies.len();
        let (cos, sin) = (Tensor::from_vec(cos, (n, half), device)?, Tensor::from_vec(sin, (n, half), device)?);
        let mask = causal_mask(n, device)?;
        let scale = 1.0 / (d as f64).sqrt();
        for layer in layers {
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
        let index = Tensor::from_vec(rows.to_vec(), rows.len(), device)?;
        let selected = candle_nn::ops::rms_norm(&x.index_select(&index, 0)?, norm, eps)?;
        Ok(selected.flatten_all()?.to_vec1::<f32>()?)
    }

    /// The rotary tables `cos(p·f_i)`, `sin(p·f_i)` for positions `0..n`, each `[n × head_dim/2]`.
    fn rotary_tables(&self, n: usize) -> (Vec<f32>, Vec<f32>) {
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
        (cos, sin)
    }
}

/// The tokens one forward pass of the device holds at most (a longer sequence goes alone): it
/// bounds the activations of a pass (the MLP's gate and up activations alone take 8 bytes per
/// token and intermediate unit: 1.3 GB at 32,768 tokens for an intermediate size of 4,864).
#[cfg(any(test, feature = "cuda"))]
const PACK_TOKENS: usize = 32_768;

/// The tokens fed for a sequence: up to its last scored token.
fn input_length(sequence: &TokenSequence) -> usize {
    sequence.positions.last().map_or(0, |&last| last as usize)
}

/// `[n × n]`: 0 where a query may attend (key ≤ query), −∞ elsewhere.
fn causal_mask(n: usize, device: &Device) -> candle_core::Result<Tensor> {
    let mask: Vec<f32> =
        (0..n).flat_map(|q| (0..n).map(move |k| if k <= q { 0.0 } else { f32::NEG_INFINITY })).collect();
    Tensor::from_vec(mask, (n, n), device)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::rngs::StdRng;
    use rand::{Rng as _, SeedableRng as _};
    use serde_json::json;

    use super::*;

    /// A seeded random decoder in `dir`: Qwen2-shaped (q/k/v biases, its own LM head) or
    /// Llama-shaped (no biases, the head tied to the embeddings), with grouped-query attention.
    fn write_model(dir: &Path, qwen: bool, seed: u64) -> Result<ModelConfig, ModelError> {
        let (vocab, h, inter, layers, heads, kv, d) = (97, 32, 48, 2, 4, 2, 8);
        let architecture = if qwen { "Qwen2ForCausalLM" } else { "LlamaForCausalLM" };
        let config = json!({
            "architectures": [architecture], "vocab_size": vocab, "hidden_size": h,
            "intermediate_size": inter, "num_hidden_layers": layers, "num_attention_heads": heads,
            "num_key_value_heads": kv, "max_position_embeddings": 64, "rms_norm_eps": 1e-6,
            "rope_theta": 10000.0, "tie_word_embeddings": !qwen, "hidden_act": "silu",
        });
        std::fs::write(dir.join("config.json"), config.to_string()).map_err(|e| ModelError::Compute(e.to_string()))?;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut tensors = HashMap::new();
        let mut add = |name: String, shape: &[usize], range: std::ops::Range<f32>| -> Result<(), ModelError> {
            let values: Vec<f32> = (0..shape.iter().product()).map(|_| rng.random_range(range.clone())).collect();
            tensors.insert(name, Tensor::from_vec(values, shape, &Device::Cpu)?);
            Ok(())
        };
        add("model.embed_tokens.weight".to_owned(), &[vocab, h], -1.0..1.0)?;
        if qwen {
            add("lm_head.weight".to_owned(), &[vocab, h], -0.5..0.5)?;
        }
        add("model.norm.weight".to_owned(), &[h], 0.5..1.5)?;
        let spread = 1.0 / (h as f32).sqrt();
        for i in 0..layers {
            let p = format!("model.layers.{i}");
            add(format!("{p}.input_layernorm.weight"), &[h], 0.5..1.5)?;
            add(format!("{p}.post_attention_layernorm.weight"), &[h], 0.5..1.5)?;
            for (name, out, inp) in [
                ("self_attn.q_proj", heads * d, h),
                ("self_attn.k_proj", kv * d, h),
                ("self_attn.v_proj", kv * d, h),
                ("self_attn.o_proj", h, heads * d),
                ("mlp.gate_proj", inter, h),
                ("mlp.up_proj", inter, h),
                ("mlp.down_proj", h, inter),
            ] {
                add(format!("{p}.{name}.weight"), &[out, inp], -spread..spread)?;
                if qwen && name.starts_with("self_attn") && name != "self_attn.o_proj" {
                    add(format!("{p}.{name}.bias"), &[out], -0.1..0.1)?;
                }
            }
        }
        candle_core::safetensors::save(&tensors, dir.join("model.safetensors"))?;
        ModelConfig::load(dir)
    }

    /// Sequences of 1 to 40 random tokens, each scoring a random ascending subset of its
    /// positions (none, for some).
    fn batch(seed: u64, vocab: u32) -> Vec<TokenSequence> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..6)
            .map(|i| {
                let len = if i == 0 { 1 } else { rng.random_range(2..=40) };
                let ids: Vec<u32> = (0..len).map(|_| rng.random_range(0..vocab)).collect();
                let positions = (1..len as u32).filter(|_| rng.random_bool(0.4)).collect();
                TokenSequence { ids, positions }
            })
            .collect()
    }

    fn assert_close(expected: &[Vec<f32>], actual: &[Vec<f32>], what: &str) {
        assert_eq!(expected.len(), actual.len(), "{what}: sequence count");
        for (e, a) in expected.iter().zip(actual) {
            assert_eq!(e.len(), a.len(), "{what}: scored positions");
            for (x, y) in e.iter().zip(a) {
                assert!((x - y).abs() < 1e-4, "{what}: {x} against {y}");
            }
        }
    }

    /// `log softmax(logits / T)[target]` worked out in f64 from the full logit row `W·h`, as
    /// the reference computes it (`logits.div_(temperature)` before `log_softmax`).
    #[test]
    fn the_temperature_divides_the_logits_before_the_log_softmax() -> Result<(), ModelError> {
        let dir = tempfile::tempdir().map_err(|e| ModelError::Compute(e.to_string()))?;
        let config = write_model(dir.path(), true, 7)?;
        let (vocab, h) = (config.vocab_size, config.hidden_size);
        let decoder = Decoder::load(dir.path(), config, ModelDevice::Cpu)?;
        let sequence = TokenSequence { ids: vec![5, 17, 3, 44, 90, 12], positions: vec![2, 4, 5] };
        let head = decoder.head()?;
        let rows: Vec<u32> = sequence.positions.iter().map(|&p| p - 1).collect();
        let hidden = decoder.hidden_states(&sequence.ids, &rows)?;
        for temperature in [1.0f32, 0.6, 1.7] {
            let got = decoder.logprobs_at(std::slice::from_ref(&sequence), temperature)?;
            for (k, &p) in sequence.positions.iter().enumerate() {
                let state = &hidden[k * h..(k + 1) * h];
                let logits: Vec<f64> = (0..vocab)
                    .map(|v| head.row(v).iter().zip(state).map(|(w, x)| f64::from(*w) * f64::from(*x)).sum::<f64>())
                    .map(|logit| logit / f64::from(temperature))
                    .collect();
                let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let log_z = max + logits.iter().map(|l| (l - max).exp()).sum::<f64>().ln();
                let expected = logits[sequence.ids[p as usize] as usize] - log_z;
                let actual = f64::from(got[0][k]);
                assert!(
                    (expected - actual).abs() < 1e-4,
                    "T = {temperature}, position {p}: {expected} against {actual}"
                );
            }
        }
        // The temperature changes the log-probs (the test is not vacuous), and a temperature
        // that is not a positive number is refused.
        let cold = decoder.logprobs_at(std::slice::from_ref(&sequence), 0.6)?;
        let warm = decoder.logprobs(std::slice::from_ref(&sequence))?;
        assert!(cold[0].iter().zip(&warm[0]).all(|(c, w)| (c - w).abs() > 1e-3), "{cold:?} {warm:?}");
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(decoder.logprobs_at(std::slice::from_ref(&sequence), bad), Err(ModelError::Input(_))));
        }
        Ok(())
    }

    #[test]
    fn the_device_pass_over_the_cpu_twins_matches_the_candle_pass() -> Result<(), ModelError> {
        for (qwen, seed) in [(true, 1), (false, 2)] {
            let dir = tempfile::tempdir().map_err(|e| ModelError::Compute(e.to_string()))?;
            let config = write_model(dir.path(), qwen, seed)?;
            let vocab = config.vocab_size as u32;
            let candle = Decoder::load(dir.path(), config.clone(), ModelDevice::Cpu)?;
            let mut twins = Decoder::load(dir.path(), config, ModelDevice::Cpu)?;
            let Backend::Candle { layers, norm } = &twins.backend else { panic!("loaded on the CPU") };
            let stack = Stack::build(HostOps, layers, norm, twins.head()?, twins.untied_embeddings()?)?;
            twins.backend = Backend::Twins(Box::new(stack));
            let batch = batch(seed, vocab);
            let expected = candle.logprobs(&batch)?;
            assert!(expected.iter().map(Vec::len).sum::<usize>() > 10, "the batch scores tokens");
            assert!(expected.iter().flatten().all(|x| x.is_finite() && *x < 0.0));
            assert_close(&expected, &twins.logprobs(&batch)?, if qwen { "qwen2" } else { "llama" });
        }
        Ok(())
    }

    #[test]
    fn a_cuda_device_needs_the_cuda_feature_or_a_gpu() -> Result<(), ModelError> {
        let dir = tempfile::tempdir().map_err(|e| ModelError::Compute(e.to_string()))?;
        let config = write_model(dir.path(), true, 3)?;
        match Decoder::load(dir.path(), config, ModelDevice::Cuda(99)) {
            Err(ModelError::Device(message)) => assert!(message.contains("cuda"), "{message}"),
            other => panic!("expected a device error for cuda:99, got {other:?}"),
        }
        Ok(())
    }

    /// The whole pass on a CUDA device against the candle pass on the CPU. Skips, saying so,
    /// without a GPU; `REFEREE_REQUIRE_GPU` makes a missing GPU a failure.
    #[cfg(feature = "cuda")]
    #[test]
    fn the_gpu_pass_matches_the_cpu_pass() -> Result<(), ModelError> {
        for (qwen, seed) in [(true, 4), (false, 5)] {
            let dir = tempfile::tempdir().map_err(|e| ModelError::Compute(e.to_string()))?;
            let config = write_model(dir.path(), qwen, seed)?;
            let vocab = config.vocab_size as u32;
            let gpu = match Decoder::load(dir.path(), config.clone(), ModelDevice::Cuda(0)) {
                Ok(gpu) => gpu,
                Err(ModelError::Device(why)) if std::env::var_os("REFEREE_REQUIRE_GPU").is_none() => {
                    eprintln!("SKIPPED the_gpu_pass_matches_the_cpu_pass: {why}");
                    return Ok(());
                }
                Err(error) => return Err(error),
            };
            let cpu = Decoder::load(dir.path(), config, ModelDevice::Cpu)?;
            let batch = batch(seed, vocab);
            assert_close(&cpu.logprobs(&batch)?, &gpu.logprobs(&batch)?, "gpu against cpu");
        }
        Ok(())
    }
}
