//! The steps of a decoder layer (Qwen2, Llama) as plain loops on the CPU: the twins of the
//! device kernels in `cuda/decoder.cu` and of the cuBLAS products that [`crate::cuda`] runs.
//! They define what the device computes, and the GPU tests compare the two; the CPU model
//! itself runs these steps through candle's optimised operators, and its tests check that those
//! agree with the twins too. Every matrix is row-major.

use crate::shape::{KernelError, Matrix};

fn shape(message: String) -> KernelError {
    KernelError::Shape(message)
}

/// `x · w_t` for `x` of `n × k` and `w_t` of `k × m`: a linear layer whose weight is stored
/// transposed, `[in × out]`.
pub fn matmul(x: Matrix<'_>, w_t: Matrix<'_>) -> Result<Vec<f32>, KernelError> {
    if x.cols() != w_t.rows() {
        return Err(shape(format!("cannot multiply {} × {} by {} × {}", x.rows(), x.cols(), w_t.rows(), w_t.cols())));
    }
    let m = w_t.cols();
    let mut out = vec![0.0f32; x.rows() * m];
    for (r, row) in out.chunks_exact_mut(m.max(1)).enumerate().take(x.rows()) {
        for (i, &a) in x.row(r).iter().enumerate() {
            for (o, &w) in row.iter_mut().zip(w_t.row(i)) {
                *o += a * w;
            }
        }
    }
    Ok(out)
}

/// Each row divided by its root mean square (plus `eps` under the root), times `weight`.
pub fn rms_norm(x: Matrix<'_>, weight: &[f32], eps: f32) -> Result<Vec<f32>, KernelError> {
    if weight.len() != x.cols() {
        return Err(shape(format!("an RMSNorm weight of {} for rows of {}", weight.len(), x.cols())));
    }
    let mut out = Vec::with_capacity(x.data().len());
    for r in 0..x.rows() {
        let row = x.row(r);
        let mean_square = row.iter().map(|v| v * v).sum::<f32>() / row.len() as f32;
        let scale = 1.0 / (mean_square + eps).sqrt();
        out.extend(row.iter().zip(weight).map(|(v, w)| v * scale * w));
    }
    Ok(out)
}

/// Adds `bias` to every row of `x`, whose length must be a multiple of the bias's.
pub fn add_bias(x: &mut [f32], bias: &[f32]) -> Result<(), KernelError> {
    if bias.is_empty() || !x.len().is_multiple_of(bias.len()) {
        return Err(shape(format!("a bias of {} for {} values", bias.len(), x.len())));
    }
    for row in x.chunks_exact_mut(bias.len()) {
        for (v, b) in row.iter_mut().zip(bias) {
            *v += b;
        }
    }
    Ok(())
}

/// `x[i] += y[i]`: the residual connection.
pub fn add_in_place(x: &mut [f32], y: &[f32]) -> Result<(), KernelError> {
    if x.len() != y.len() {
        return Err(shape(format!("{} values plus {} values", x.len(), y.len())));
    }
    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
    Ok(())
}

/// `gate[i] = silu(gate[i]) · up[i]`: the SwiGLU activation, in place.
pub fn silu_mul(gate: &mut [f32], up: &[f32]) -> Result<(), KernelError> {
    if gate.len() != up.len() {
        return Err(shape(format!("{} gate values for {} up values", gate.len(), up.len())));
    }
    for (g, u) in gate.iter_mut().zip(up) {
        *g = *g / (1.0 + (-*g).exp()) * u;
    }
    Ok(())
}

/// The rotary embedding, in place, on `x` of `rows × heads × 2·half` values, with `cos` and
/// `sin` of `rows × half` (one row per position): the halves `a`, `b` of each head's vector
/// become `a·cos − b·sin` and `b·cos + a·sin` (the rotate-half form of Qwen2 and Llama).
pub fn rope(x: &mut [f32], heads: usize, cos: Matrix<'_>, sin: Matrix<'_>) -> Result<(), KernelError> {
    let (rows, half) = (cos.rows(), cos.cols());
    if sin.rows() != rows || sin.cols() != half || half == 0 || x.len() != rows * heads * 2 * half {
        return Err(shape(format!(
            "rotary tables of {rows} × {half} and {} × {} for {} values in {heads} heads",
            sin.rows(),
            sin.cols(),
            x.len()
        )));
    }
    for (vector_index, vector) in x.chunks_exact_mut(2 * half).enumerate() {
        let position = vector_index / heads.max(1);
        let (first, second) = vector.split_at_mut(half);
        for (j, (a, b)) in first.iter_mut().zip(second.iter_mut()).enumerate() {
            let (c, s) = (cos.row(position)[j], sin.row(position)[j]);
            let (x0, x1) = (*a, *b);
            *a = x0 * c - x1 * s;
            *b = x1 * c + x0 * s;
        }
    }
    Ok(())
}

/// Causal grouped-query attention: `q` is `n × heads·d`, `k` and `v` are `n × kv_heads·d`, and
/// query head `h` reads key/value head `h / (heads / kv_heads)`. Query `i` attends to keys
/// `0..=i` with weights `softmax(scale · q·k)`. The result is `n × heads·d`.
pub fn causal_attention(
    q: Matrix<'_>,
    k: Matrix<'_>,
    v: Matrix<'_>,
    heads: usize,
    kv_heads: usize,
    scale: f32,
) -> Result<Vec<f32>, KernelError> {
    let n = q.rows();
    if heads == 0 || kv_heads == 0 || !heads.is_multiple_of(kv_heads) || !q.cols().is_multiple_of(heads) {
        return Err(shape(format!("{heads} query heads, {kv_heads} key/value heads, rows of {}", q.cols())));
    }
    let d = q.cols() / heads;
    if k.rows() != n || v.rows() != n || k.cols() != kv_heads * d || v.cols() != kv_heads * d {
        return Err(shape(format!(
            "keys {} × {} and values {} × {} for queries {n} × {} in {heads} heads over {kv_heads}",
            k.rows(),
            k.cols(),
            v.rows(),
            v.cols(),
            q.cols()
        )));
    }
    let group = heads / kv_heads;
    let mut out = vec![0.0f32; n * heads * d];
    let mut weights = vec![0.0f32; n];
    for h in 0..heads {
        let g = h / group;
        for i in 0..n {
            let query = &q.row(i)[h * d..(h + 1) * d];
            for (j, weight) in weights.iter_mut().enumerate().take(i + 1) {
                let key = &k.row(j)[g * d..(g + 1) * d];
                *weight = scale * query.iter().zip(key).map(|(a, b)| a * b).sum::<f32>();
            }
            let highest = weights[..=i].iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0;
            for weight in &mut weights[..=i] {
                *weight = (*weight - highest).exp();
                sum += *weight;
            }
            let target = &mut out[i * heads * d + h * d..i * heads * d + (h + 1) * d];
            for (j, weight) in weights[..=i].iter().enumerate() {
                let value = &v.row(j)[g * d..(g + 1) * d];
                for (t, x) in target.iter_mut().zip(value) {
                    *t += weight / sum * x;
                }
            }
        }
    }
    Ok(out)
}

/// [`causal_attention`] over sequences laid end to end: rows `segments[i]..segments[i + 1]` are
/// one sequence and attend only to earlier rows of their own. `segments` rises from 0 to the row
/// count; an empty segment is allowed.
pub fn segmented_causal_attention<'a>(
    q: Matrix<'a>,
    k: Matrix<'a>,
    v: Matrix<'a>,
    segments: &[usize],
    heads: usize,
    kv_heads: usize,
    scale: f32,
) -> Result<Vec<f32>, KernelError> {
    check_segments(segments, q.rows())?;
    if k.rows() != q.rows() || v.rows() != q.rows() {
        return Err(shape(format!("{} query rows against {} keys and {} values", q.rows(), k.rows(), v.rows())));
    }
    let mut out = Vec::with_capacity(q.rows() * q.cols());
    for bounds in segments.windows(2) {
        let (first, n) = (bounds[0], bounds[1] - bounds[0]);
        let rows = |m: Matrix<'a>| Matrix::new(&m.data()[first * m.cols()..(first + n) * m.cols()], n, m.cols());
        out.extend(causal_attention(rows(q)?, rows(k)?, rows(v)?, heads, kv_heads, scale)?);
    }
    Ok(out)
}

/// Checks that `segments` rises from 0 to `rows`.
pub fn check_segments(segments: &[usize], rows: usize) -> Result<(), KernelError> {
    let rises = segments.windows(2).all(|pair| pair[0] <= pair[1]);
    if segments.first() != Some(&0) || segments.last() != Some(&rows) || !rises {
        return Err(shape(format!("segment bounds {segments:?} do not rise from 0 to {rows}")));
    }
    Ok(())
}

/// The rows of `x` at `rows`, in that order.
pub fn gather_rows(x: Matrix<'_>, rows: &[u32]) -> Result<Vec<f32>, KernelError> {
    let mut out = Vec::with_capacity(rows.len() * x.cols());
    for &r in rows {
        if r as usize >= x.rows() {
            return Err(shape(format!("row {r} of a matrix of {} rows", x.rows())));
        }
        out.extend_from_slice(x.row(r as usize));
    }
    Ok(out)
}
