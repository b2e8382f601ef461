//! The decoder's forward pass written once over a set of matrix operations ([`Ops`]), so the
//! same code runs on the GPU ([`super::gpu`], cuBLAS and `referee_kernels::cuda`) and on the
//! CPU twins of those operations ([`HostOps`], `referee_kernels::layers`). The CPU model runs
//! candle's operators instead (faster on the CPU); the tests check that this pass over the
//! twins gives the candle pass's log-probs, so what the GPU runs is the tested composition.

use candle_core::Tensor;
use referee_kernels::{KernelError, Matrix};
#[cfg(test)]
use referee_kernels::{layers, token_logprobs};

use super::ModelError;
use super::config::ModelConfig;
use super::weights::{Layer, Linear};

/// The matrix operations a decoder layer needs, on some kind of storage.
pub(super) trait Ops {
    /// A row-major f32 matrix in this storage.
    type Matrix;

    fn upload(&self, matrix: Matrix<'_>) -> Result<Self::Matrix, KernelError>;
    fn download(&self, matrix: &Self::Matrix) -> Result<Vec<f32>, KernelError>;
    fn matmul(&self, x: &Self::Matrix, w_t: &Self::Matrix) -> Result<Self::Matrix, KernelError>;
    fn add_bias(&self, x: &mut Self::Matrix, bias: &Self::Matrix) -> Result<(), KernelError>;
    fn add_in_place(&self, x: &mut Self::Matrix, y: &Self::Matrix) -> Result<(), KernelError>;
    fn silu_mul(&self, gate: &mut Self::Matrix, up: &Self::Matrix) -> Result<(), KernelError>;
    fn rms_norm(&self, x: &Self::Matrix, weight: &Self::Matrix, eps: f32) -> Result<Self::Matrix, KernelError>;
    fn rope(
        &self,
        x: &mut Self::Matrix,
        heads: usize,
        cos: &Self::Matrix,
        sin: &Self::Matrix,
    ) -> Result<(), KernelError>;
    /// Attention over sequences laid end to end (rows `segments[i]..segments[i + 1]`).
    #[allow(clippy::too_many_arguments)]
    fn causal_attention(
        &self,
        q: &Self::Matrix,
        k: &Self::Matrix,
        v: &Self::Matrix,
        segments: &[usize],
        heads: usize,
        kv_heads: usize,
        scale: f32,
    ) -> Result<Self::Matrix, KernelError>;
    fn gather_rows(&self, x: &Self::Matrix, rows: &[u32]) -> Result<Self::Matrix, KernelError>;
    /// The fused LM head over `hidden` (host, `rows × head.cols`).
    fn token_logprobs(&self, hidden: Matrix<'_>, head: &Self::Matrix, targets: &[u32])
    -> Result<Vec<f32>, KernelError>;
}

/// A matrix in host memory.
#[cfg(test)]
#[derive(Debug)]
pub(super) struct HostMatrix {
    data: Vec<f32>,
    rows: usize,
    cols: usize,
}

#[cfg(test)]
impl HostMatrix {
    fn view(&self) -> Result<Matrix<'_>, KernelError> {
        Matrix::new(&self.data, self.rows, self.cols)
    }
}

/// The CPU twins of the device operations.
#[cfg(test)]
#[derive(Debug, Default)]
pub(super) struct HostOps;

#[cfg(test)]
impl Ops for HostOps {
    type Matrix = HostMatrix;

    fn upload(&self, matrix: Matrix<'_>) -> Result<HostMatrix, KernelError> {
        Ok(HostMatrix { data: matrix.data().to_vec(), rows: matrix.rows(), cols: matrix.cols() })
    }

    fn download(&self, matrix: &HostMatrix) -> Result<Vec<f32>, KernelError> {
        Ok(matrix.data.clone())
    }

    fn matmul(&self, x: &HostMatrix, w_t: &HostMatrix) -> Result<HostMatrix, KernelError> {
        Ok(HostMatrix { data: layers::matmul(x.view()?, w_t.view()?)?, rows: x.rows, cols: w_t.cols })
    }

    fn add_bias(&self, x: &mut HostMatrix, bias: &HostMatrix) -> Result<(), KernelError> {
        layers::add_bias(&mut x.data, &bias.data)
    }

    fn add_in_place(&self, x: &mut HostMatrix, y: &HostMatrix) -> Result<(), KernelError> {
        if (x.rows, x.cols) != (y.rows, y.cols) {
            return Err(KernelError::Shape(format!("{} × {} and {} × {} differ", x.rows, x.cols, y.rows, y.cols)));
        }
        layers::add_in_place(&mut x.data, &y.data)
    }

    fn silu_mul(&self, gate: &mut HostMatrix, up: &HostMatrix) -> Result<(), KernelError> {
        layers::silu_mul(&mut gate.data, &up.data)
    }

    fn rms_norm(&self, x: &HostMatrix, weight: &HostMatrix, eps: f32) -> Result<HostMatrix, KernelError> {
        Ok(HostMatrix { data: layers::rms_norm(x.view()?, &weight.data, eps)?, rows: x.rows, cols: x.cols })
    }

    fn rope(&self, x: &mut HostMatrix, heads: usize, cos: &HostMatrix, sin: &HostMatrix) -> Result<(), KernelError> {
        layers::rope(&mut x.data, heads, cos.view()?, sin.view()?)
    }

    fn causal_attention(
        &self,
        q: &HostMatrix,
        k: &HostMatrix,
        v: &HostMatrix,
        segments: &[usize],
        heads: usize,
        kv_heads: usize,
        scale: f32,
    ) -> Result<HostMatrix, KernelError> {
        let data =
            layers::segmented_causal_attention(q.view()?, k.view()?, v.view()?, segments, heads, kv_heads, scale)?;
        Ok(HostMatrix { data, rows: q.rows, cols: q.cols })
    }

    fn gather_rows(&self, x: &HostMatrix, rows: &[u32]) -> Result<HostMatrix, KernelError> {
        Ok(HostMatrix { data: layers::gather_rows(x.view()?, rows)?, rows: rows.len(), cols: x.cols })
    }

    fn token_logprobs(&self, hidden: Matrix<'_>, head: &HostMatrix, targets: &[u32]) -> Result<Vec<f32>, KernelError> {
        token_logprobs(hidden, head.view()?, targets)
    }
}

struct StackLinear<M> {
    w_t: M,
    bias: Option<M>,
}

struct StackLayer<M> {
    input_norm: M,
    post_norm: M,
    q: StackLinear<M>,
    k: StackLinear<M>,
    v: StackLinear<M>,
    o: StackLinear<M>,
    gate: StackLinear<M>,
    up: StackLinear<M>,
    down: StackLinear<M>,
}

/// The decoder's weights in an [`Ops`] storage, and its forward pass there.
pub(super) struct Stack<O: Ops> {
    ops: O,
    layers: Vec<StackLayer<O::Matrix>>,
    norm: O::Matrix,
    head: O::Matrix,
    /// The token embeddings; `None` when tied to the head.
    embed: Option<O::Matrix>,
}

impl<O: Ops> std::fmt::Debug for Stack<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stack").field("layers", &self.layers.len()).finish_non_exhaustive()
    }
}

fn compute(error: KernelError) -> ModelError {
    ModelError::Compute(error.to_string())
}

fn host_values(tensor: &Tensor) -> Result<(Vec<f32>, usize, usize), ModelError> {
    let (rows, cols) = match tensor.dims() {
        [n] => (1, *n),
        [rows, cols] => (*rows, *cols),
        dims => return Err(ModelError::Weights(format!("a weight of shape {dims:?} where a matrix was expected"))),
    };
    Ok((tensor.flatten_all()?.to_vec1::<f32>()?, rows, cols))
}

impl<O: Ops> Stack<O> {
    /// Copies the loaded weights (candle tensors on the CPU), the LM head (`vocab × hidden`) and
    /// the embeddings (`None` when tied to the head) into `ops`'s storage.
    pub(super) fn build(
        ops: O,
        layers: &[Layer],
        norm: &Tensor,
        head: Matrix<'_>,
        embed: Option<Matrix<'_>>,
    ) -> Result<Stack<O>, ModelError> {
        let upload = |tensor: &Tensor| -> Result<O::Matrix, ModelError> {
            let (values, rows, cols) = host_values(tensor)?;
            ops.upload(Matrix::new(&values, rows, cols).map_err(compute)?).map_err(compute)
        };
        let linear = |linear: &Linear| -> Result<StackLinear<O::Matrix>, ModelError> {
            Ok(StackLinear { w_t: upload(&linear.transposed)?, bias: linear.bias.as_ref().map(upload).transpose()? })
        };
        let mut stacked = Vec::with_capacity(layers.len());
        for layer in layers {
            stacked.push(StackLayer {
                input_norm: upload(&layer.input_norm)?,
                post_norm: upload(&layer.post_norm)?,
                q: linear(&layer.q)?,
                k: linear(&layer.k)?,
                v: linear(&layer.v)?,
                o: linear(&layer.o)?,
                gate: linear(&layer.gate)?,
                up: linear(&layer.up)?,
                down: linear(&layer.down)?,
            });
        }
        let norm = upload(norm)?;
        let head = ops.upload(head).map_err(compute)?;
        let embed = embed.map(|embed| ops.upload(embed)).transpose().map_err(compute)?;
        Ok(Stack { ops, layers: stacked, norm, head, embed })
    }

    fn linear(&self, x: &O::Matrix, linear: &StackLinear<O::Matrix>) -> Result<O::Matrix, KernelError> {
        let mut y = self.ops.matmul(x, &linear.w_t)?;
        if let Some(bias) = &linear.bias {
            self.ops.add_bias(&mut y, bias)?;
        }
        Ok(y)
    }

    /// The final-norm hidden states of `rows`, flattened `[rows × hidden]`, from the token ids
    /// (`n`, embedded on the device) and the rotary tables (`n × head_dim/2`) of sequences laid end to
    /// end (rows `segments[i]..segments[i + 1]`, each with its own positions from 0): the same
    /// steps as the candle pass in [`super::decoder`], with every sequence in one product per
    /// weight and attention kept within each sequence.
    pub(super) fn hidden_states(
        &self,
        config: &ModelConfig,
        ids: &[u32],
        tables: (Matrix<'_>, Matrix<'_>),
        segments: &[usize],
        rows: &[u32],
    ) -> Result<Vec<f32>, ModelError> {
        let (heads, kv) = (config.num_attention_heads, config.num_key_value_heads);
        let eps = config.rms_norm_eps as f32;
        let scale = 1.0 / (config.head_dim as f32).sqrt();
        let ops = &self.ops;
        let run = || -> Result<Vec<f32>, KernelError> {
            let mut x = ops.gather_rows(self.embed.as_ref().unwrap_or(&self.head), ids)?;
            let (cos, sin) = (ops.upload(tables.0)?, ops.upload(tables.1)?);
            for layer in &self.layers {
                let normed = ops.rms_norm(&x, &layer.input_norm, eps)?;
                let mut q = self.linear(&normed, &layer.q)?;
                let mut k = self.linear(&normed, &layer.k)?;
                let v = self.linear(&normed, &layer.v)?;
                ops.rope(&mut q, heads, &cos, &sin)?;
                ops.rope(&mut k, kv, &cos, &sin)?;
                let attended = ops.causal_attention(&q, &k, &v, segments, heads, kv, scale)?;
                ops.add_in_place(&mut x, &self.linear(&attended, &layer.o)?)?;
                let normed = ops.rms_norm(&x, &layer.post_norm, eps)?;
                let mut gated = self.linear(&normed, &layer.gate)?;
                ops.silu_mul(&mut gated, &self.linear(&normed, &layer.up)?)?;
                ops.add_in_place(&mut x, &self.linear(&gated, &layer.down)?)?;
            }
            let selected = ops.gather_rows(&x, rows)?;
            ops.download(&ops.rms_norm(&selected, &self.norm, eps)?)
        };
        run().map_err(compute)
    }

    /// The fused LM head over the gathered hidden states (`targets.len() × hidden`).
    pub(super) fn lm_head(&self, hidden: Matrix<'_>, targets: &[u32]) -> Result<Vec<f32>, ModelError> {
        self.ops.token_logprobs(hidden, &self.head, targets).map_err(compute)
    }
}
