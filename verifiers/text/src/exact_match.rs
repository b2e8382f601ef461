use referee_core::utoipa::{self, ToSchema};
use referee_core::{Budget, Description, Verdict, Verifier, verify_each};
use serde::Deserialize;

use referee_core::anatomy::Reasoning;

use crate::{Extraction, Normalization, extract, missing_reason};

/// The comparison, as in OpenAI's `string_check` grader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    /// The answer equals the reference.
    #[default]
    Eq,
    /// The answer differs from the reference.
    Ne,
    /// The answer contains the reference.
    Like,
    /// The answer contains the reference, ignoring case.
    Ilike,
}

/// Compares a response with a reference string after optional answer extraction and
/// normalisation. Scores 1 when the operation holds, else 0.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExactMatchInput {
    /// The model's output; its reasoning is dropped unless `reasoning` is `keep`.
    pub response: String,
    /// The expected answer. It is normalised like the response but never extracted from.
    pub reference: String,
    /// The comparison to apply.
    #[serde(default)]
    pub operation: Operation,
    /// Where to find the answer inside the response. When the marker is missing the item is
    /// `unparseable` (except with `auto`, which falls back to the whole response).
    #[serde(default)]
    pub extract: Extraction,
    /// What to do with a `<think>...</think>` block: `drop` (default) compares only the text
    /// after it, and a response whose reasoning never closed is `unparseable`; `keep` reads the
    /// whole response.
    #[serde(default)]
    pub reasoning: Reasoning,
    /// Strip leading and trailing whitespace from both sides.
    #[serde(default = "yes")]
    #[schema(default = true)]
    pub trim: bool,
    /// Replace every run of whitespace with one space on both sides.
    #[serde(default = "yes")]
    #[schema(default = true)]
    pub collapse_whitespace: bool,
    /// Compare case-insensitively (Unicode lowercase).
    #[serde(default)]
    pub case_fold: bool,
    /// Apply Unicode NFKC first: full-width digits, ligatures and compatibility forms become
    /// plain ones.
    #[serde(default)]
    pub nfkc: bool,
}

fn yes() -> bool {
    true
}

impl ExactMatchInput {
    /// The normalisation these options ask for.
    pub fn normalization(&self) -> Normalization {
        Normalization {
            nfkc: self.nfkc,
            trim: self.trim,
            collapse_whitespace: self.collapse_whitespace,
            case_fold: self.case_fold,
        }
    }
}

/// The `exact-match` verifier.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExactMatch;

impl ExactMatch {
    /// Judges one item.
    pub fn judge(input: &ExactMatchInput) -> Verdict {
        let Some(answer) = extract(&input.response, input.extract, input.reasoning) else {
            return Verdict::unparseable(missing_reason(&input.response, input.extract, input.reasoning))
                .with("extract", input.extract.as_str());
        };
        let norm = input.normalization();
        let (answer, reference) = (norm.apply(answer), norm.apply(&input.reference));
        let holds = match input.operation {
            Operation::Eq => answer == reference,
            Operation::Ne => answer != reference,
            Operation::Like => answer.contains(reference.as_ref()),
            Operation::Ilike => answer.to_lowercase().contains(&reference.to_lowercase()),
        };
        let verdict = Verdict::binary(holds);
        if input.extract == Extraction::None { verdict } else { verdict.with("extracted", answer.as_ref()) }
    }
}

impl Verifier for ExactMatch {
    type Input = ExactMatchInput;

    fn description(&self) -> Description {
        Description {
            id: "exact-match",
            version: "1",
            summary: "Compares the response with a reference string using OpenAI string_check operations \
                      (eq, ne, like, ilike) after optional answer extraction (<answer> tags, \\boxed{}, a final \
                      'Answer:' line) and normalisation (trim, whitespace collapse, case folding, Unicode NFKC). \
                      Scores 1 when the operation holds and 0 otherwise.",
        }
    }

    fn verify_batch(&self, inputs: &[ExactMatchInput], budget: &Budget) -> Vec<Verdict> {
        verify_each(inputs, budget, |input, _| ExactMatch::judge(input))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_core::Status;

    fn input(json: serde_json::Value) -> ExactMatchInput {
        serde_json::from_value(json).unwrap_or_else(|e| panic!("bad test input: {e}"))
    }

    #[test]
    fn operations() {
        let cases = [
            (serde_json::json!({"response": " Paris ", "reference": "Paris"}), Status::Correct),
            (serde_json::json!({"response": "paris", "reference": "Paris"}), Status::Incorrect),
            (serde_json::json!({"response": "paris", "reference": "Paris", "case_fold": true}), Status::Correct),
            (serde_json::json!({"response": "a", "reference": "b", "operation": "ne"}), Status::Correct),
            (
                serde_json::json!({"response": "it is Paris.", "reference": "Paris", "operation": "like"}),
                Status::Correct,
            ),
            (
                serde_json::json!({"response": "it is PARIS.", "reference": "Paris", "operation": "like"}),
                Status::Incorrect,
            ),
            (
                serde_json::json!({"response": "it is PARIS.", "reference": "Paris", "operation": "ilike"}),
                Status::Correct,
            ),
            (serde_json::json!({"response": "x \\boxed{42}", "reference": "42", "extract": "boxed"}), Status::Correct),
            (serde_json::json!({"response": "x 42", "reference": "42", "extract": "boxed"}), Status::Unparseable),
            (serde_json::json!({"response": "ＡＢ", "reference": "AB", "nfkc": true}), Status::Correct),
            (
                serde_json::json!({"response": "a  b", "reference": "a b", "collapse_whitespace": false}),
                Status::Incorrect,
            ),
        ];
        for (json, expected) in cases {
            let got = ExactMatch::judge(&input(json.clone()));
            assert_eq!(got.status, expected, "{json}");
        }
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = serde_json::from_value::<ExactMatchInput>(
            serde_json::json!({"response": "a", "reference": "a", "opration": "eq"}),
        );
        assert!(err.is_err());
    }
}
