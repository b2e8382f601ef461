//! Shapes and the errors of mismatched ones.

/// A row-major matrix borrowed from a flat slice.
#[derive(Debug, Clone, Copy)]
pub struct Matrix<'a> {
    data: &'a [f32],
    rows: usize,
    cols: usize,
}

impl<'a> Matrix<'a> {
    /// A `rows × cols` view of `data`, which must hold exactly `rows · cols` values.
    pub fn new(data: &'a [f32], rows: usize, cols: usize) -> Result<Matrix<'a>, KernelError> {
        if rows.checked_mul(cols) != Some(data.len()) {
            return Err(KernelError::Shape(format!(
                "a {rows} × {cols} matrix needs {} values, got {}",
                rows.saturating_mul(cols),
                data.len()
            )));
        }
        Ok(Matrix { data, rows, cols })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn data(&self) -> &'a [f32] {
        self.data
    }

    /// Row `i`; `i` must be below [`Matrix::rows`].
    pub fn row(&self, i: usize) -> &'a [f32] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }
}

/// Why a kernel could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum KernelError {
    /// Inputs whose shapes do not fit together.
    #[error("shape: {0}")]
    Shape(String),
    /// A target token outside the vocabulary.
    #[error("target token {token} at position {position} is outside the vocabulary of {vocab}")]
    Target { position: usize, token: u32, vocab: usize },
    /// Segment offsets that do not partition the log-probs.
    #[error("offsets: {0}")]
    Offsets(String),
    /// The CUDA driver, NVRTC or a device call failed.
    #[error("cuda: {0}")]
    Cuda(String),
}

/// Checks the operands of the fused LM head.
pub(crate) fn check_token_logprobs(hidden: &Matrix, weight: &Matrix, targets: &[u32]) -> Result<(), KernelError> {
    check_token_logprob_shapes((hidden.rows(), hidden.cols()), (weight.rows(), weight.cols()), targets)
}

/// Checks the shapes (rows, cols) of the fused LM head's operands, wherever they are stored.
pub(crate) fn check_token_logprob_shapes(
    hidden: (usize, usize),
    weight: (usize, usize),
    targets: &[u32],
) -> Result<(), KernelError> {
    if hidden.1 != weight.1 {
        return Err(KernelError::Shape(format!(
            "hidden states have {} features but the LM head has {}",
            hidden.1, weight.1
        )));
    }
    if targets.len() != hidden.0 {
        return Err(KernelError::Shape(format!("{} targets for {} hidden states", targets.len(), hidden.0)));
    }
    if weight.0 == 0 {
        return Err(KernelError::Shape("the LM head has no vocabulary rows".to_owned()));
    }
    if let Some((position, &token)) = targets.iter().enumerate().find(|(_, t)| **t as usize >= weight.0) {
        return Err(KernelError::Target { position, token, vocab: weight.0 });
    }
    Ok(())
}

/// Checks that `offsets` (one more than the number of sequences) partition `len` values.
pub(crate) fn check_offsets(offsets: &[u32], len: usize) -> Result<(), KernelError> {
    let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) else {
        return Err(KernelError::Offsets("needs at least one offset (0)".to_owned()));
    };
    if first != 0 || last as usize != len {
        return Err(KernelError::Offsets(format!(
            "must start at 0 and end at the number of log-probs ({len}); got {first}..{last}"
        )));
    }
    if offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err(KernelError::Offsets("must not decrease".to_owned()));
    }
    Ok(())
}
