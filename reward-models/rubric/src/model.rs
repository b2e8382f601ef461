//! What a rubric is: its criteria, their kinds, and how their scores combine. These types are
//! the wire format of stored and inline rubrics.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// A rubric without its id and version: the criteria, the aggregation and the veto floor.
///
/// Sent inline with an item (`rubric`), or stored and managed through `/v1/rubrics` and named
/// by `rubric_id` (and optionally `rubric_version`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RubricDefinition {
    /// The criteria, each with a unique name. 1 to 64 of them.
    #[schema(min_items = 1, max_items = 64)]
    pub criteria: Vec<Criterion>,
    /// How criterion scores combine; the weighted mean when absent.
    #[serde(default)]
    pub aggregation: Aggregation,
    /// The score of an item that fails a veto criterion (default 0).
    #[serde(default)]
    #[schema(minimum = -1000.0, maximum = 1000.0)]
    pub veto_floor: f64,
}

/// One thing a response is judged on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Criterion {
    /// Unique within the rubric; an identifier (`clarity`, `has_title`) so formulas can name it.
    #[schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z_][A-Za-z0-9_]*$")]
    pub name: String,
    /// What the criterion asks, in words. Judge criteria send it to the judge (for `principle`
    /// it is the principle itself); without one, the judge is asked the criterion's name.
    #[serde(default)]
    #[schema(max_length = 4000)]
    pub description: String,
    /// Weight in the weighted mean (default 1).
    #[serde(default = "one")]
    #[schema(minimum = 0.0, maximum = 1000.0)]
    pub weight: f64,
    /// When true, a score below `pass_threshold` sets the item's score to the rubric's
    /// `veto_floor`, whatever the other criteria say.
    #[serde(default)]
    pub veto: bool,
    /// The score at or above which the criterion counts as passed (default 0.5).
    #[serde(default = "half")]
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub pass_threshold: f64,
    /// How the criterion is scored.
    pub kind: CriterionKind,
}

fn one() -> f64 {
    1.0
}

fn half() -> f64 {
    0.5
}

/// How a criterion is scored: a rule computed locally, a registered verifier, or a question to
/// the LLM judge. Every kind scores in [0, 1], except a `principle` with `score: logit`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum CriterionKind {
    /// 1 when the pattern matches somewhere in the response (or, with `absent`, when it does not).
    Regex {
        /// A Rust `regex` pattern (linear time; `(?i)` for case-insensitive).
        #[schema(min_length = 1, max_length = 4096)]
        pattern: String,
        /// Pass when the pattern does not match.
        #[serde(default)]
        absent: bool,
    },
    /// Keywords found in the response, matched as whole words.
    Keywords {
        /// 1 to 256 keywords or phrases.
        #[schema(min_items = 1, max_items = 256)]
        keywords: Vec<String>,
        /// `all`: the fraction of keywords present; `any`: 1 if one is present; `none`: 1 if
        /// none is present.
        #[serde(default)]
        mode: KeywordMode,
        /// Match case exactly (default: case-insensitive).
        #[serde(default)]
        case_sensitive: bool,
    },
    /// 1 when the response's length is within the bounds.
    Length {
        /// What is counted.
        unit: LengthUnit,
        /// Least length, inclusive.
        #[serde(default, deserialize_with = "crate::integers::optional_integer")]
        #[schema(minimum = 0, maximum = 100_000_000)]
        min: Option<u64>,
        /// Greatest length, inclusive.
        #[serde(default, deserialize_with = "crate::integers::optional_integer")]
        #[schema(minimum = 0, maximum = 100_000_000)]
        max: Option<u64>,
    },
    /// 1 when the response (or the one fenced code block it consists of) is valid JSON.
    ValidJson,
    /// 1 when the response is JSON valid against the schema (the JSON Schema keywords listed in
    /// `docs/verifiers/rubric.md`).
    JsonSchema {
        /// A JSON Schema object.
        #[schema(value_type = Object)]
        schema: Value,
    },
    /// 1 when the response is written in the language (ISO 639-1 code, e.g. `en`, `de`).
    Language {
        /// One of `en de fr es it pt nl ru uk zh ja ko ar he el hi th`.
        #[schema(min_length = 2, max_length = 2)]
        language: String,
    },
    /// 1 when the response has a section with this heading (a Markdown heading, a bold line or
    /// a `Heading:` line; case-insensitive).
    Section {
        #[schema(min_length = 1, max_length = 200)]
        heading: String,
    },
    /// 1 when the response contains the format.
    Format { format: TextFormat },
    /// Similarity to a reference text, in [0, 1].
    Similarity {
        metric: SimilarityMetric,
        /// The reference; the item's `reference` when absent.
        #[serde(default)]
        #[schema(max_length = 100_000)]
        reference: Option<String>,
    },
    /// The score of a registered verifier (`math`, `exact-match`, ...), called with
    /// `{"response": <the response>, "reference": <the item's reference>}` overlaid with `input`.
    /// A verifier that cannot judge the item fails the item.
    Verifier {
        /// A verifier id from `GET /v1/verifiers` (not `rubric`).
        #[schema(min_length = 1, max_length = 64)]
        verifier: String,
        /// Fields of the verifier's input besides the response.
        #[serde(default)]
        #[schema(value_type = Object)]
        input: Map<String, Value>,
    },
    /// The judge gives a number in [min, max]; it is clipped to the range and mapped to [0, 1].
    /// A reply without a number fails the item.
    Score {
        #[schema(minimum = -1_000_000.0, maximum = 1_000_000.0)]
        min: f64,
        #[schema(minimum = -1_000_000.0, maximum = 1_000_000.0)]
        max: f64,
    },
    /// The judge picks a label; 1 when it is one of `passing`.
    Label {
        /// 2 to 32 distinct labels.
        #[schema(min_items = 2, max_items = 32)]
        labels: Vec<String>,
        /// The labels that pass.
        #[schema(min_items = 1, max_items = 32)]
        passing: Vec<String>,
    },
    /// The judge picks one of ordered tiers, worst to best; tier i of k scores `scores[i]`, or
    /// i/(k-1) without `scores`.
    Choices {
        /// 2 to 32 distinct tiers, worst first.
        #[schema(min_items = 2, max_items = 32)]
        choices: Vec<String>,
        /// Each tier's score (Rubicon's scored tiers): one per tier, in [0, 1], never lower than
        /// the tier before. Evenly spaced when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(min_items = 2, max_items = 32)]
        scores: Option<Vec<f64>>,
    },
    /// A binary principle (RLBFF): the judge answers Yes or No to whether the response fulfils
    /// the `description`. Read from the judge's log-probs at its answer's Yes/No token (after
    /// any reasoning) when it returns them, else from the answer's text (1 or 0).
    Principle {
        /// `p_yes` (default): P(Yes) normalised over Yes and No, in [0, 1]. `logit`: RLBFF's
        /// reward, ln P(Yes) − ln P(No), unbounded; it needs the log-probs, so an answer
        /// without them fails the item.
        #[serde(default, skip_serializing_if = "PrincipleScore::is_default")]
        score: PrincipleScore,
    },
}

/// What a principle criterion scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PrincipleScore {
    /// P(Yes) / (P(Yes) + P(No)), in [0, 1].
    #[default]
    PYes,
    /// ln P(Yes) − ln P(No): the logit of `p_yes`, RLBFF's reward.
    Logit,
}

impl PrincipleScore {
    fn is_default(&self) -> bool {
        *self == PrincipleScore::PYes
    }
}

impl CriterionKind {
    /// True for the kinds asked of the LLM judge.
    pub fn is_judge(&self) -> bool {
        match self {
            CriterionKind::Score { .. }
            | CriterionKind::Label { .. }
            | CriterionKind::Choices { .. }
            | CriterionKind::Principle { .. } => true,
            CriterionKind::Regex { .. }
            | CriterionKind::Keywords { .. }
            | CriterionKind::Length { .. }
            | CriterionKind::ValidJson
            | CriterionKind::JsonSchema { .. }
            | CriterionKind::Language { .. }
            | CriterionKind::Section { .. }
            | CriterionKind::Format { .. }
            | CriterionKind::Similarity { .. }
            | CriterionKind::Verifier { .. } => false,
        }
    }
}

/// How keywords are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum KeywordMode {
    #[default]
    All,
    Any,
    None,
}

/// What a length bound counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LengthUnit {
    /// Unicode scalar values.
    Chars,
    /// Runs of non-whitespace.
    Words,
    /// Word pieces and punctuation marks (`\w+` runs and single other symbols), a
    /// tokenizer-independent approximation of model tokens.
    Tokens,
}

/// A text format a response must contain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TextFormat {
    /// At least two lines starting with `-`, `*` or `+`.
    BulletList,
    /// At least two lines starting with `1.` / `1)` style numbers.
    NumberedList,
    /// A Markdown heading (`#` to `######`).
    Heading,
    /// A fenced code block.
    CodeBlock,
    /// A Markdown table (a header row and a `|---|` separator).
    Table,
}

/// A text-similarity metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SimilarityMetric {
    /// Sentence BLEU-4 on lower-cased words, add-one smoothed for n > 1, with brevity penalty.
    Bleu,
    /// ROUGE-L F1 on lower-cased words.
    RougeL,
    /// Character-level Indel similarity, 2·LCS / (|a| + |b|), as rapidfuzz's `ratio` / 100.
    FuzzyRatio,
}

/// How criterion scores combine into the item's score.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Aggregation {
    /// Σ weight·score / Σ weight over the criteria.
    #[default]
    WeightedMean,
    /// A formula over the criterion names with `+ - * /`, parentheses, numbers and the
    /// functions `min max abs clip exp log sqrt`, e.g. `0.7 * clarity + 0.3 * min(tone, 1)`.
    Formula {
        #[schema(min_length = 1, max_length = 4096)]
        formula: String,
    },
}
