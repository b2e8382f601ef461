//! Referee's math answer-equivalence verifier.
//!
//! [`MathVerifier`] judges whether a model's full response reaches the same final answer as a
//! reference. It extracts the answer ([`extract`]), parses LaTeX or plain text with a nom
//! tokenizer and a precedence parser ([`parser`]), and decides equivalence exactly on big
//! rationals and polynomial normal forms where it can, and numerically at pseudo-random points
//! where it cannot ([`compare`]). Every step is bounded by the caps in [`limits`] and by the
//! item's [`Budget`] deadline; nothing panics on hostile input.
//!
//! The policy (what counts as equal, tolerances, percentages, hedging) is documented in
//! `docs/verifiers/math.md`.

// Answers are trees over the many-variant `ast::Node`; each rule matches the few shapes it
// handles and treats every other node alike, so listing all variants in every match would
// bury the rule. Adding a variant means reviewing the rules in `compare` anyway.
#![warn(missing_docs)]
#![allow(clippy::wildcard_enum_match_arm, reason = "rules match a few shapes of a large tree enum")]

pub mod ast;
mod compare;
pub mod extract;
mod functions;
mod latex;
mod letters;
mod lexer;
pub mod limits;
mod normal;
mod numeric;
mod options;
pub mod parser;
mod verify;
pub mod work;

use referee_core::{Budget, Description, Verdict, Verifier, verify_each};
use serde::Deserialize;
use utoipa::ToSchema;

pub use options::{
    AcceptRounded, DEFAULT_ROUNDED_FIGURES, ExtractionMode, MathOptions, PercentPolicy, RoundedFigures, UnitPolicy,
};
pub use verify::{Judgement, judge};

/// One math item: a model response and the reference answer it is judged against.
///
/// The response may be a full solution; the final answer is extracted from `\boxed{}`,
/// `<answer>` tags, "final answer" phrases, bold values, the last formula or the last number.
/// The reference may be LaTeX or plain text, with or without `$...$` or `\boxed{}`.
#[derive(Debug, Clone, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MathInput {
    /// The full model output.
    pub response: String,
    /// The gold answer, LaTeX or plain text (`\frac{1}{2}`, `1/2`, `$x \in [0, 1)$`).
    pub reference: String,
    /// How to extract and compare; every option has a default.
    #[serde(default)]
    pub options: MathOptions,
}

/// The math answer-equivalence verifier, registered as `math`.
///
/// Verdicts are `correct` (score 1) or `incorrect` (score 0) when both sides were understood;
/// `unparseable` when no answer could be found in the response; `timeout` when the item's
/// deadline passed; `resource_limit` when an input exceeds the size caps; `invalid_input` when
/// the reference itself cannot be read. Details carry the
/// extracted answer, its parsed form, the rule that decided and the reason for a rejection.
#[derive(Debug, Clone, Copy, Default)]
pub struct MathVerifier;

impl MathVerifier {
    /// A verifier with the built-in caps.
    pub fn new() -> Self {
        MathVerifier
    }
}

impl Verifier for MathVerifier {
    type Input = MathInput;

    fn description(&self) -> Description {
        Description {
            id: "math",
            version: "2",
            summary: "Math answer equivalence: extracts the final answer from a response and compares it with the \
                      reference exactly (big rationals, radicals, polynomial normal forms), numerically where exact \
                      forms cannot decide, and structurally for sets, intervals, tuples, matrices and equations. \
                      Score 1 when equivalent, else 0.",
        }
    }

    fn verify_batch(&self, inputs: &[MathInput], budget: &Budget) -> Vec<Verdict> {
        verify_each(inputs, budget, |input, budget| {
            judge(&input.response, &input.reference, &input.options, budget).into_verdict()
        })
    }
}
