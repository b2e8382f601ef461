//! Referee's text verifiers: small, exact checks that need no model.
//!
//! - [`ExactMatch`] (`exact-match`): OpenAI `string_check` operations with normalisation.
//! - [`RegexMatch`] (`regex-match`): a user pattern, linear-time by construction.
//! - [`MultipleChoice`] (`multiple-choice`): the chosen option letter(s) from free text.
//!
//! All three share [`Extraction`], which pulls the final answer out of a full response.

mod exact_match;
mod extract;
mod multiple_choice;
mod normalize;
mod regex_match;

pub use exact_match::{ExactMatch, ExactMatchInput, Operation};
pub use extract::{Extraction, extract, missing_reason};
pub use multiple_choice::{MultipleChoice, MultipleChoiceInput};
pub use normalize::Normalization;
pub use regex_match::{MatchMode, RegexMatch, RegexMatchInput};
