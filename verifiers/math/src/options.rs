//! The per-item options of the math verifier.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Where the answer is looked for in the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExtractionMode {
    /// `\boxed{}`, `<answer>` tags, "final answer" phrases (several languages), bold final
    /// values, the last formula, and as a last resort the last number.
    #[default]
    Auto,
    /// Only `\boxed{}`/`\fbox{}` content or `<answer>` tags count; anything else is unparseable.
    Boxed,
    /// The whole response is the answer, as in a short-answer field.
    Whole,
}

/// How `x%` compares with a plain number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PercentPolicy {
    /// `28%` matches both `28` and `0.28`.
    #[default]
    Either,
    /// `28%` matches `28` only: the sign is a unit.
    Number,
    /// `28%` matches `0.28` only: the sign divides by 100.
    Fraction,
}

/// Options of one math item; every field has a default.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MathOptions {
    /// Where to look for the answer in the response.
    pub extraction: ExtractionMode,
    /// Relative tolerance for comparisons in which either side is written with decimals
    /// (`3.14159265` against `\pi`). Exact values are always compared exactly.
    pub relative_tolerance: f64,
    /// Accept a decimal that equals the exact value rounded to the places written, when it
    /// has at least two significant digits (`0.33` for `1/3`, `16386.17` for `16386.169...`).
    pub accept_rounded: bool,
    /// How a percentage compares with a plain number.
    pub percent: PercentPolicy,
    /// Whether an assignment `x = 3` matches the value `3` (and `k = 1/3` matches `1/3`).
    pub allow_assignment: bool,
    /// Whether several boxed answers next to each other form one list answer (`\boxed{1}`
    /// and `\boxed{2}` answer `1, 2`). When false, a response with several different boxed
    /// answers is treated as hedging and scored incorrect.
    pub allow_multiple_boxed: bool,
}

impl Default for MathOptions {
    fn default() -> Self {
        MathOptions {
            extraction: ExtractionMode::Auto,
            relative_tolerance: 1e-9,
            accept_rounded: true,
            percent: PercentPolicy::Either,
            allow_assignment: true,
            allow_multiple_boxed: true,
        }
    }
}
