//! Checking a rubric and compiling it for scoring: patterns compiled, the formula parsed, every
//! constraint the JSON schema cannot express enforced with a message that names the criterion.

use std::collections::HashSet;

use serde_json::Value;

use crate::formula::{Formula, FormulaError};
use crate::model::{Aggregation, Criterion, CriterionKind, RubricDefinition};
use crate::rules::{Rule, RuleError};

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

/// Why a rubric does not compile; the message names the criterion and the problem.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompileError {
    #[error("a rubric has 1 to 64 criteria")]
    CriterionCount,
    #[error("`veto_floor` must be a number from -1000 to 1000")]
    VetoFloor,
    #[error(
        "criterion name `{0}` must be an identifier (letters, digits and `_`, not starting with a digit, at most 64)"
    )]
    Name(String),
    #[error("two criteria are named `{0}`")]
    DuplicateName(String),
    #[error("criterion `{name}`: {problem}")]
    Criterion {
        name: String,
        #[source]
        problem: CriterionError,
    },
    #[error("the weighted mean needs a positive total weight")]
    NoWeight,
    #[error("the aggregation formula is longer than 4096 characters")]
    FormulaTooLong,
    #[error("aggregation formula: {0}")]
    Formula(#[source] FormulaError),
}

/// What is wrong with one criterion.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CriterionError {
    /// A field out of its range; the message names the field and the range.
    #[error("{0}")]
    Field(&'static str),
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error("no verifier is registered as `{0}`; GET /v1/verifiers lists them")]
    UnknownVerifier(String),
    #[error("`scores` must give one score per tier: {tiers} tiers, {scores} scores")]
    ScoreCount { tiers: usize, scores: usize },
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
) -> Result<CompiledRubric, CompileError> {
    if definition.criteria.is_empty() || definition.criteria.len() > 64 {
        return Err(CompileError::CriterionCount);
    }
    if !definition.veto_floor.is_finite() || definition.veto_floor.abs() > 1000.0 {
        return Err(CompileError::VetoFloor);
    }
    let mut names = HashSet::new();
    let mut methods = Vec::with_capacity(definition.criteria.len());
    for criterion in &definition.criteria {
        let name = &criterion.name;
        if !is_identifier(name) {
            return Err(CompileError::Name(name.clone()));
        }
        if !names.insert(name.as_str()) {
            return Err(CompileError::DuplicateName(name.clone()));
        }
        let method = criterion_method(criterion, knows_verifier)
            .map_err(|problem| CompileError::Criterion { name: name.clone(), problem })?;
        methods.push(method);
    }
    let formula = match &definition.aggregation {
        Aggregation::WeightedMean => {
            let total: f64 = definition.criteria.iter().map(|c| c.weight).sum();
            if total <= 0.0 {
                return Err(CompileError::NoWeight);
            }
            None
        }
        Aggregation::Formula { formula } => {
            if formula.chars().count() > 4096 {
                return Err(CompileError::FormulaTooLong);
            }
            let names: Vec<&str> = definition.criteria.iter().map(|c| c.name.as_str()).collect();
            Some(Formula::parse(formula, &names).map_err(CompileError::Formula)?)
        }
    };
    Ok(CompiledRubric { stored, definition: definition.clone(), methods, formula })
}

/// Checks one criterion's settings and compiles its scoring method.
fn criterion_method(criterion: &Criterion, knows_verifier: &dyn Fn(&str) -> bool) -> Result<Method, CriterionError> {
    if !(criterion.weight.is_finite() && (0.0..=1000.0).contains(&criterion.weight)) {
        return Err(CriterionError::Field("`weight` must be from 0 to 1000"));
    }
    if !(0.0..=1.0).contains(&criterion.pass_threshold) {
        return Err(CriterionError::Field("`pass_threshold` must be from 0 to 1"));
    }
    if criterion.description.chars().count() > 4000 {
        return Err(CriterionError::Field("`description` is longer than 4000 characters"));
    }
    Ok(match &criterion.kind {
        CriterionKind::Regex { pattern, absent } => {
            if pattern.is_empty() || pattern.chars().count() > 4096 {
                return Err(CriterionError::Field("`pattern` must have 1 to 4096 characters"));
            }
            Method::Rule(Rule::regex(pattern, *absent)?)
        }
        CriterionKind::Keywords { keywords, mode, case_sensitive } => {
            Method::Rule(Rule::keywords(keywords, *mode, *case_sensitive)?)
        }
        CriterionKind::Length { unit, min, max } => {
            if min.is_some_and(|m| m > 100_000_000) || max.is_some_and(|m| m > 100_000_000) {
                return Err(CriterionError::Field("`min` and `max` must be at most 100000000"));
            }
            Method::Rule(Rule::length(*unit, *min, *max)?)
        }
        CriterionKind::ValidJson => Method::Rule(Rule::ValidJson),
        CriterionKind::JsonSchema { schema } => {
            if !schema.is_object() {
                return Err(CriterionError::Field("`schema` must be a JSON Schema object"));
            }
            Method::Rule(Rule::json_schema(schema)?)
        }
        CriterionKind::Language { language } => Method::Rule(Rule::language(language)?),
        CriterionKind::Section { heading } => Method::Rule(Rule::section(heading)?),
        CriterionKind::Format { format } => Method::Rule(Rule::Format(*format)),
        CriterionKind::Similarity { metric, reference } => {
            if reference.as_ref().is_some_and(|r| r.chars().count() > 100_000) {
                return Err(CriterionError::Field("`reference` is longer than 100000 characters"));
            }
            Method::Rule(Rule::Similarity { metric: *metric, reference: reference.clone() })
        }
        CriterionKind::Verifier { verifier, input } => {
            if verifier.is_empty() || verifier.chars().count() > 64 {
                return Err(CriterionError::Field("`verifier` must have 1 to 64 characters"));
            }
            if verifier == RUBRIC_ID {
                return Err(CriterionError::Field("a rubric cannot use `rubric` as a verifier criterion"));
            }
            if !knows_verifier(verifier) {
                return Err(CriterionError::UnknownVerifier(verifier.clone()));
            }
            Method::Verifier { id: verifier.clone(), input: input.clone() }
        }
        CriterionKind::Score { min, max } => {
            if !(min.is_finite() && max.is_finite() && min < max) {
                return Err(CriterionError::Field("`min` must be below `max`"));
            }
            if min.abs() > 1_000_000.0 || max.abs() > 1_000_000.0 {
                return Err(CriterionError::Field("`min` and `max` must lie from -1000000 to 1000000"));
            }
            Method::Judge
        }
        CriterionKind::Label { labels, passing } => {
            if labels.len() < 2 || labels.len() > 32 || !distinct(labels) {
                return Err(CriterionError::Field("`labels` must be 2 to 32 distinct, non-empty labels"));
            }
            let known = |p: &String| labels.iter().any(|l| l.trim().eq_ignore_ascii_case(p.trim()));
            if passing.is_empty() || !passing.iter().all(known) {
                return Err(CriterionError::Field("`passing` must be a non-empty subset of `labels`"));
            }
            Method::Judge
        }
        CriterionKind::Choices { choices, scores } => {
            if choices.len() < 2 || choices.len() > 32 || !distinct(choices) {
                return Err(CriterionError::Field("`choices` must be 2 to 32 distinct, non-empty tiers"));
            }
            if let Some(scores) = scores {
                if scores.len() != choices.len() {
                    return Err(CriterionError::ScoreCount { tiers: choices.len(), scores: scores.len() });
                }
                if !scores.iter().all(|s| s.is_finite() && (0.0..=1.0).contains(s)) {
                    return Err(CriterionError::Field("every tier's score must be from 0 to 1"));
                }
                if scores.windows(2).any(|pair| pair[1] < pair[0]) {
                    return Err(CriterionError::Field(
                        "tier scores must not decrease: `choices` run from worst to best",
                    ));
                }
            }
            Method::Judge
        }
        CriterionKind::Principle { .. } => Method::Judge,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(rubric: Value) -> Result<CompiledRubric, String> {
        let definition: RubricDefinition = serde_json::from_value(rubric).map_err(|e| e.to_string())?;
        compile(&definition, None, &|id| id == "exact-match").map_err(|e| e.to_string())
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
