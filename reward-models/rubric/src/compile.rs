//! Checking a rubric and compiling it for scoring: patterns compiled, the formula parsed, every
//! constraint the JSON schema cannot express enforced with a message that names the criterion.

use std::collections::HashSet;

use serde_json::Value;

use crate::formula::Formula;
use crate::model::{Aggregation, CriterionKind, RubricDefinition};
use crate::rules::Rule;

/// The id under which this reward model is registered; it cannot be a criterion of itself.
pub const RUBRIC_ID: &str = "rubric";

/// How a compiled criterion is scored.
#[derive(Debug, Clone)]
pub enum Method {
    Rule(Rule),
    Verifier { id: String, input: serde_json::Map<String, Value> },
    Judge,
}

/// A rubric ready to score with: where it came from, its definition and compiled criteria.
#[derive(Debug, Clone)]
pub struct CompiledRubric {
    /// `(id, version)` of a stored rubric; `None` for an inline one.
    pub stored: Option<(String, u32)>,
    pub definition: RubricDefinition,
    pub methods: Vec<Method>,
    pub formula: Option<Formula>,
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

fn distinct(options: &[String]) -> bool {
    let mut seen = HashSet::new();
    options.iter().all(|o| !o.trim().is_empty() && seen.insert(o.trim().to_lowercase()))
}

/// Checks `definition` and compiles it. `knows_verifier` says whether a verifier id is
/// registered. The error names the criterion and the problem.
pub fn compile(
    definition: &RubricDefinition,
    stored: Option<(String, u32)>,
    knows_verifier: &dyn Fn(&str) -> bool,
) -> Result<CompiledRubric, String> {
    if definition.criteria.is_empty() || definition.criteria.len() > 64 {
        return Err("a rubric has 1 to 64 criteria".to_owned());
    }
    if !definition.veto_floor.is_finite() || definition.veto_floor.abs() > 1000.0 {
        return Err("`veto_floor` must be a number from -1000 to 1000".to_owned());
    }
    let mut names = HashSet::new();
    let mut methods = Vec::with_capacity(definition.criteria.len());
    for criterion in &definition.criteria {
        let name = &criterion.name;
        let fail = |problem: String| format!("criterion `{name}`: {problem}");
        if !is_identifier(name) {
            return Err(format!(
                "criterion name `{name}` must be an identifier (letters, digits and `_`, not starting with a digit, at most 64)"
            ));
        }
        if !names.insert(name.as_str()) {
            return Err(format!("two criteria are named `{name}`"));
        }
        if !(criterion.weight.is_finite() && (0.0..=1000.0).contains(&criterion.weight)) {
            return Err(fail("`weight` must be from 0 to 1000".to_owned()));
        }
        if !(0.0..=1.0).contains(&criterion.pass_threshold) {
            return Err(fail("`pass_threshold` must be from 0 to 1".to_owned()));
        }
        if criterion.description.chars().count() > 4000 {
            return Err(fail("`description` is longer than 4000 characters".to_owned()));
        }
        let method = match &criterion.kind {
            CriterionKind::Regex { pattern, absent } => {
                if pattern.is_empty() || pattern.chars().count() > 4096 {
                    return Err(fail("`pattern` must have 1 to 4096 characters".to_owned()));
                }
                Method::Rule(Rule::regex(pattern, *absent).map_err(fail)?)
            }
            CriterionKind::Keywords { keywords, mode, case_sensitive } => {
                Method::Rule(Rule::keywords(keywords, *mode, *case_sensitive).map_err(fail)?)
            }
            CriterionKind::Length { unit, min, max } => {
                if min.is_some_and(|m| m > 100_000_000) || max.is_some_and(|m| m > 100_000_000) {
                    return Err(fail("`min` and `max` must be at most 100000000".to_owned()));
                }
                Method::Rule(Rule::length(*unit, *min, *max).map_err(fail)?)
            }
            CriterionKind::ValidJson => Method::Rule(Rule::ValidJson),
            CriterionKind::JsonSchema { schema } => {
                if !schema.is_object() {
                    return Err(fail("`schema` must be a JSON Schema object".to_owned()));
                }
                Method::Rule(Rule::json_schema(schema).map_err(fail)?)
            }
            CriterionKind::Language { language } => Method::Rule(Rule::language(language).map_err(fail)?),
            CriterionKind::Section { heading } => Method::Rule(Rule::section(heading).map_err(fail)?),
            CriterionKind::Format { format } => Method::Rule(Rule::Format(*format)),
            CriterionKind::Similarity { metric, reference } => {
                if reference.as_ref().is_some_and(|r| r.chars().count() > 100_000) {
                    return Err(fail("`reference` is longer than 100000 characters".to_owned()));
                }
                Method::Rule(Rule::Similarity { metric: *metric, reference: reference.clone() })
            }
            CriterionKind::Verifier { verifier, input } => {
                if verifier.is_empty() || verifier.chars().count() > 64 {
                    return Err(fail("`verifier` must have 1 to 64 characters".to_owned()));
                }
                if verifier == RUBRIC_ID {
                    return Err(fail("a rubric cannot use `rubric` as a verifier criterion".to_owned()));
                }
                if !knows_verifier(verifier) {
                    return Err(fail(format!(
                        "no verifier is registered as `{verifier}`; GET /v1/verifiers lists them"
                    )));
                }
                Method::Verifier { id: verifier.clone(), input: input.clone() }
            }
            CriterionKind::Score { min, max } => {
                if !(min.is_finite() && max.is_finite() && min < max) {
                    return Err(fail("`min` must be below `max`".to_owned()));
                }
                if min.abs() > 1_000_000.0 || max.abs() > 1_000_000.0 {
                    return Err(fail("`min` and `max` must lie from -1000000 to 1000000".to_owned()));
                }
                Method::Judge
            }
            CriterionKind::Label { labels, passing } => {
                if labels.len() < 2 || labels.len() > 32 || !distinct(labels) {
                    return Err(fail("`labels` must be 2 to 32 distinct, non-empty labels".to_owned()));
                }
                let known = |p: &String| labels.iter().any(|l| l.trim().eq_ignore_ascii_case(p.trim()));
                if passing.is_empty() || !passing.iter().all(known) {
                    return Err(fail("`passing` must be a non-empty subset of `labels`".to_owned()));
                }
                Method::Judge
            }
            CriterionKind::Choices { choices, scores } => {
                if choices.len() < 2 || choices.len() > 32 || !distinct(choices) {
                    return Err(fail("`choices` must be 2 to 32 distinct, non-empty tiers".to_owned()));
                }
                if let Some(scores) = scores {
                    if scores.len() != choices.len() {
                        return Err(fail(format!(
                            "`scores` must give one score per tier: {} tiers, {} scores",
                            choices.len(),
                            scores.len()
                        )));
                    }
                    if !scores.iter().all(|s| s.is_finite() && (0.0..=1.0).contains(s)) {
                        return Err(fail("every tier's score must be from 0 to 1".to_owned()));
                    }
                    if scores.windows(2).any(|pair| pair[1] < pair[0]) {
                        return Err(fail("tier scores must not decrease: `choices` run from worst to best".to_owned()));
                    }
                }
                Method::Judge
            }
            CriterionKind::Principle { .. } => Method::Judge,
        };
        methods.push(method);
    }
    let formula = match &definition.aggregation {
        Aggregation::WeightedMean => {
            let total: f64 = definition.criteria.iter().map(|c| c.weight).sum();
            if total <= 0.0 {
                return Err("the weighted mean needs a positive total weight".to_owned());
            }
            None
        }
        Aggregation::Formula { formula } => {
            if formula.chars().count() > 4096 {
                return Err("the aggregation formula is longer than 4096 characters".to_owned());
            }
            let names: Vec<&str> = definition.criteria.iter().map(|c| c.name.as_str()).collect();
            Some(Formula::parse(formula, &names).map_err(|e| format!("aggregation formula: {e}"))?)
        }
    };
    Ok(CompiledRubric { stored, definition: definition.clone(), methods, formula })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(rubric: Value) -> Result<CompiledRubric, String> {
        let definition: RubricDefinition = serde_json::from_value(rubric).map_err(|e| e.to_string())?;
        compile(&definition, None, &|id| id == "exact-match")
    }

    #[test]
    fn constraints_beyond_the_schema_are_enforced() {
        let ok = json!({"criteria": [
            {"name": "a", "kind": {"type": "regex", "pattern": "x"}},
            {"name": "b", "description": "Is it kind?", "kind": {"type": "principle"}},
            {"name": "d", "description": "Is it short?", "kind": {"type": "principle", "score": "logit"}},
            {"name": "e", "kind": {"type": "choices", "choices": ["bad", "ok", "good"], "scores": [0, 0.8, 1]}},
            {"name": "c", "kind": {"type": "verifier", "verifier": "exact-match", "input": {"reference": "4"}}}
        ], "aggregation": {"type": "formula", "formula": "min(a, b) + c"}});
        assert!(check(ok).is_ok());
        for (rubric, needle) in [
            (json!({"criteria": []}), "1 to 64"),
            (json!({"criteria": [{"name": "1a", "kind": {"type": "valid_json"}}]}), "identifier"),
            (
                json!({"criteria": [{"name": "a", "kind": {"type": "valid_json"}}, {"name": "a", "kind": {"type": "valid_json"}}]}),
                "two criteria",
            ),
            (
                json!({"criteria": [{"name": "a", "weight": 0, "kind": {"type": "valid_json"}}]}),
                "positive total weight",
            ),
            (
                json!({"criteria": [{"name": "a", "kind": {"type": "similarity", "metric": "bleu", "reference": "x".repeat(100_001)}}]}),
                "longer than 100000",
            ),
            (
                json!({"criteria": [{"name": "a", "kind": {"type": "verifier", "verifier": "rubric"}}]}),
                "cannot use `rubric`",
            ),
            (json!({"criteria": [{"name": "a", "kind": {"type": "verifier", "verifier": "nope"}}]}), "no verifier"),
            (
                json!({"criteria": [{"name": "a", "description": "d", "kind": {"type": "score", "min": 5, "max": 5}}]}),
                "below `max`",
            ),
            (
                json!({"criteria": [{"name": "a", "description": "d", "kind": {"type": "label", "labels": ["x", "y"], "passing": ["z"]}}]}),
                "subset",
            ),
            (
                json!({"criteria": [{"name": "a", "description": "d", "kind": {"type": "choices", "choices": ["x", "X"]}}]}),
                "distinct",
            ),
            (json!({"criteria": [{"name": "a", "kind": {"type": "regex", "pattern": "("}}]}), "invalid pattern"),
            (
                json!({"criteria": [{"name": "a", "kind": {"type": "choices", "choices": ["x", "y"], "scores": [0.5]}}]}),
                "one score per tier",
            ),
            (
                json!({"criteria": [{"name": "a", "kind": {"type": "choices", "choices": ["x", "y"], "scores": [0, 1.5]}}]}),
                "from 0 to 1",
            ),
            (
                json!({"criteria": [{"name": "a", "kind": {"type": "choices", "choices": ["x", "y"], "scores": [0.9, 0.2]}}]}),
                "must not decrease",
            ),
            (json!({"criteria": [{"name": "a", "kind": {"type": "principle", "score": "odds"}}]}), "unknown variant"),
            (
                json!({"criteria": [{"name": "a", "kind": {"type": "valid_json"}}], "aggregation": {"type": "formula", "formula": "a + b"}}),
                "not a criterion",
            ),
            (json!({"criteria": [{"name": "a", "kind": {"type": "nope"}}]}), "unknown variant"),
            (json!({"criteria": [{"name": "a", "kind": {"type": "valid_json"}, "extra": 1}]}), "unknown field"),
        ] {
            let error = check(rubric.clone()).err().unwrap_or_default();
            assert!(error.contains(needle), "{rubric}: {error}");
        }
    }
}
