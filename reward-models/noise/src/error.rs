use thiserror::Error;

/// Why a noise model, correction or group computation could not be produced.
///
/// Every variant names what was missing or wrong, so the server can return it as a 4xx body
/// without adding context of its own.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum NoiseError {
    /// A proportion had no samples to estimate from.
    #[error("no {what} to estimate from")]
    Empty {
        /// What was missing, e.g. "re-checked negatives".
        what: &'static str,
    },
    /// The counts exist but pin a rate to a value where the formulas are undefined.
    #[error("degenerate noise estimate: {reason}")]
    Degenerate {
        /// Which quantity is undefined and why.
        reason: String,
    },
    /// A rate, interval, count or option is out of its domain.
    #[error("invalid {field}: {reason}")]
    Invalid {
        /// The offending field.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A correction was asked for but the noise model is too uncertain to correct with.
    #[error("correction refused: {reason}")]
    Refused {
        /// The refusal, as in [`crate::RewardCorrection::refused`].
        reason: String,
    },
}

impl NoiseError {
    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> Self {
        NoiseError::Invalid { field, reason: reason.into() }
    }

    pub(crate) fn degenerate(reason: impl Into<String>) -> Self {
        NoiseError::Degenerate { reason: reason.into() }
    }
}
