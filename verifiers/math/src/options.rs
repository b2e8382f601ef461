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

/// Whether units written after a number must match the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitPolicy {
    /// Units and unit words after a number are dropped on both sides (`3\,\mathrm{m}` answers
    /// `3`, `125 miles` answers `125`).
    #[default]
    Ignore,
    /// When the reference states units after its numbers, the response must state the same
    /// units (case-insensitive, singular or plural); a reference without units asks for none.
    Require,
}

/// Approximate acceptance of a rounded decimal for an exact value: `false` (the default),
/// `true` (at least [`DEFAULT_ROUNDED_FIGURES`] significant figures) or
/// `{"significant_figures": n}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AcceptRounded {
    /// `false`: only exact values are credited; `true`: rounded decimals of at least three
    /// significant figures are.
    Enabled(bool),
    /// Rounded decimals are credited when they state this many significant figures.
    Figures(RoundedFigures),
}

/// How precise a rounded decimal must be to be credited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoundedFigures {
    /// The fewest significant figures the decimal must state (leading zeros do not count):
    /// with 3, `3.14` may answer `\pi` but `3.1` may not. 0 counts as 1.
    pub significant_figures: u32,
}

/// Significant figures required when `accept_rounded` is `true`.
pub const DEFAULT_ROUNDED_FIGURES: u32 = 3;

impl Default for AcceptRounded {
    fn default() -> Self {
        AcceptRounded::Enabled(false)
    }
}

impl AcceptRounded {
    /// The significant figures a rounded decimal must state, or `None` when rounding is not
    /// accepted.
    pub fn min_figures(self) -> Option<u32> {
        match self {
            AcceptRounded::Enabled(false) => None,
            AcceptRounded::Enabled(true) => Some(DEFAULT_ROUNDED_FIGURES),
            AcceptRounded::Figures(f) => Some(f.significant_figures.max(1)),
        }
    }
}

/// Options of one math item; every field has a default.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MathOptions {
    /// Where to look for the answer in the response.
    pub extraction: ExtractionMode,
    /// Relative tolerance for expressions compared numerically when the *reference* is written
    /// with decimals (`\frac{9.5}{3.14159}`). A response's decimals never widen the comparison:
    /// against an exact reference only the exact value is credited.
    pub relative_tolerance: f64,
    /// Accept a decimal that is the exact value correctly rounded at its last written place
    /// (`0.33` for `\frac{1}{3}`, `1.414` for `\sqrt{2}`) when it states at least
    /// the required significant figures. Off by default (`false`): such an answer is
    /// close, not equal, and a policy that learns to round instead of solving is rewarded for
    /// it. A decimal wrong in its last stated digit (`0.12` for `0.125`, `1.41` truncated from
    /// a value that rounds to `1.42`) is never accepted.
    pub accept_rounded: AcceptRounded,
    /// How a percentage compares with a plain number.
    pub percent: PercentPolicy,
    /// Whether an answer in degrees may match one in radians (`\pi` for `180^\circ`). Off by
    /// default: a bare `\pi` against `180^\circ` is incorrect. When both sides state their unit
    /// (`60^\circ` against `\frac{\pi}{3}\text{ rad}`), they are converted regardless.
    pub angle_conversion: bool,
    /// Whether units after numbers are ignored or must match the reference's.
    pub units: UnitPolicy,
    /// Whether an assignment `x = 3` matches the value `3` (and `k = 1/3` matches `1/3`).
    pub allow_assignment: bool,
    /// Whether several boxed answers next to each other form one list answer (`\boxed{1}`
    /// and `\boxed{2}` answer `1, 2`). When false, only boxes that all restate the reference
    /// are credited. Either way, several boxes that are neither the list the reference asks for
    /// nor restatements of one answer are a hedge and score 0.
    pub allow_multiple_boxed: bool,
}

impl Default for MathOptions {
    fn default() -> Self {
        MathOptions {
            extraction: ExtractionMode::Auto,
            relative_tolerance: 1e-9,
            accept_rounded: AcceptRounded::Enabled(false),
            percent: PercentPolicy::Either,
            angle_conversion: false,
            units: UnitPolicy::Ignore,
            allow_assignment: true,
            allow_multiple_boxed: true,
        }
    }
}
