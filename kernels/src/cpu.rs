//! The CPU kernels: the twins of the CUDA ones, organised the same way (token groups × vocabulary
//! splits, partial maxima and sums, then a combine), run on the rayon pool.

use rayon::prelude::*;

use crate::score::ScoreKind;
use crate::shape::{KernelError, Matrix, check_offsets, check_token_logprobs};

/// Tokens whose logits are computed together, so that each LM-head row is read once per group.
pub const TOKEN_GROUP: usize = 8;
/// Vocabulary rows per split: the unit of parallel work along the vocabulary.
pub const VOCAB_SPLIT: usize = 4096;

/// An online log-sum-exp: the running maximum and the sum of `exp(x − max)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogSumExp {
    pub max: f32,
    pub sum: f32,
}

impl LogSumExp {
    pub const EMPTY: LogSumExp = LogSumExp { max: f32::NEG_INFINITY, sum: 0.0 };

    /// Adds one value.
    #[inline]
    pub fn push(&mut self, x: f32) {
        if x > self.max {
            self.sum = self.sum * (self.max - x).exp() + 1.0;
            self.max = x;
        } else {
            self.sum += (x - self.max).exp();
        }
    }

    /// Merges another partial result.
    pub fn merge(self, other: LogSumExp) -> LogSumExp {
        if other.sum == 0.0 {
            return self;
        }
        if self.sum == 0.0 {
            return other;
        }
        let max = self.max.max(other.max);
        LogSumExp { max, sum: self.sum * (self.max - max).exp() + other.sum * (other.max - max).exp() }
    }

    /// `log Σ exp(x)`.
    pub fn value(self) -> f32 {
        self.max + self.sum.ln()
    }
}

/// `log softmax(weight · hidden_i)[targets_i]` for every row `i` of `hidden`, streaming the
/// vocabulary without materialising logits.
///
/// `hidden` is `[tokens × features]` (the final hidden states of the scored positions, after
/// the model's last norm), `weight` is the LM head `[vocab × features]`, and `targets` holds one
/// token id per row of `hidden`.
pub fn token_logprobs(hidden: Matrix<'_>, weight: Matrix<'_>, targets: &[u32]) -> Result<Vec<f32>, KernelError> {
    check_token_logprobs(&hidden, &weight, targets)?;
    let tokens = hidden.rows();
    if tokens == 0 {
        return Ok(Vec::new());
    }
    let groups = tokens.div_ceil(TOKEN_GROUP);
    let splits = weight.rows().div_ceil(VOCAB_SPLIT);
    // Partials by (group, split), each holding the group's tokens' log-sum-exp over the split and
    // the target logits that fell in it.
    let partials: Vec<([LogSumExp; TOKEN_GROUP], [Option<f32>; TOKEN_GROUP])> = (0..groups * splits)
        .into_par_iter()
        .map(|job| {
            let (group, split) = (job / splits, job % splits);
            let first = group * TOKEN_GROUP;
            let members = (tokens - first).min(TOKEN_GROUP);
            let rows = split * VOCAB_SPLIT..((split + 1) * VOCAB_SPLIT).min(weight.rows());
            partial(&hidden, &weight, &targets[first..first + members], first, rows)
        })
        .collect();
    let mut logprobs = Vec::with_capacity(tokens);
    for group in 0..groups {
        let members = (tokens - group * TOKEN_GROUP).min(TOKEN_GROUP);
        for member in 0..members {
            let mut total = LogSumExp::EMPTY;
            let mut target = f32::NAN;
            for (sums, hits) in &partials[group * splits..(group + 1) * splits] {
                total = total.merge(sums[member]);
                if let Some(logit) = hits[member] {
                    target = logit;
                }
            }
            logprobs.push(target - total.value());
        }
    }
    Ok(logprobs)
}

/// One (token group, vocabulary split) cell: reads each LM-head row of the split once and
/// scores it against every token of the group.
fn partial(
    hidden: &Matrix<'_>,
    weight: &Matrix<'_>,
    targets: &[u32],
    first: usize,
    rows: std::ops::Range<usize>,
) -> ([LogSumExp; TOKEN_GROUP], [Option<f32>; TOKEN_GROUP]) {
    let mut sums = [LogSumExp::EMPTY; TOKEN_GROUP];
    let mut hits = [None; TOKEN_GROUP];
    let states: Vec<&[f32]> = (0..targets.len()).map(|member| hidden.row(first + member)).collect();
    for row in rows {
        let w = weight.row(row);
        for (member, state) in states.iter().enumerate() {
            let logit = dot(state, w);
            sums[member].push(logit);
            if targets[member] as usize == row {
                hits[member] = Some(logit);
            }
        }
    }
    (sums, hits)
}

/// A dot product in eight lanes, which the compiler turns into vector instructions.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let (a_chunks, a_tail) = a.as_chunks::<8>();
    let (b_chunks, b_tail) = b.as_chunks::<8>();
    let mut lanes = [0.0f32; 8];
    for (x, y) in a_chunks.iter().zip(b_chunks) {
        for ((lane, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *lane += x * y;
        }
    }
    let tail: f32 = a_tail.iter().zip(b_tail).map(|(x, y)| x * y).sum();
    lanes.iter().sum::<f32>() + tail
}

/// One score per sequence: sequence `i` is `logprobs[offsets[i]..offsets[i + 1]]`, reduced
/// by `kind`. An empty sequence scores 0.
pub fn sequence_scores(logprobs: &[f32], offsets: &[u32], kind: ScoreKind) -> Result<Vec<f64>, KernelError> {
    check_offsets(offsets, logprobs.len())?;
    Ok(offsets
        .par_windows(2)
        .map(|bounds| kind.of(logprobs[bounds[0] as usize..bounds[1] as usize].iter().map(|&x| f64::from(x))))
        .collect())
}
