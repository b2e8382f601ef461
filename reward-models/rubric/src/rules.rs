//! Rule criteria: computed locally from the response, in [0, 1].

use referee_core::Status;
use regex::{Regex, RegexBuilder};
use serde_json::Value;

use crate::model::{KeywordMode, LengthUnit, SimilarityMetric, TextFormat};
use crate::schema::CompiledSchema;
use crate::{language, schema, similarity};

/// Largest compiled size of one user pattern, so a rubric cannot make the regex engine
/// allocate without bound.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Why a rule criterion's settings cannot be compiled.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuleError {
    #[error("invalid pattern: {0}")]
    Pattern(#[source] regex::Error),
    #[error("keywords must be a non-empty list of non-empty strings")]
    NoKeywords,
    #[error("a length criterion needs `min`, `max` or both")]
    NoBounds,
    #[error("length bounds are reversed: min {min} > max {max}")]
    Reversed { min: u64, max: u64 },
    /// The schema uses what the validator does not support; the text names where.
    #[error("invalid JSON Schema: {0}")]
    Schema(String),
    #[error("language `{code}` is not supported; use one of {}", language::SUPPORTED.join(" "))]
    Language { code: String },
    #[error("a section heading is longer than 200 characters")]
    HeadingTooLong,
    #[error("a section heading must not be empty")]
    EmptyHeading,
}

/// A rule criterion, compiled once per rubric.
#[derive(Debug, Clone)]
pub enum Rule {
    Regex { regex: Regex, absent: bool },
    Keywords { patterns: Vec<Regex>, mode: KeywordMode },
    Length { unit: LengthUnit, min: Option<u64>, max: Option<u64> },
    ValidJson,
    JsonSchema(Box<CompiledSchema>),
    Language(String),
    Section(String),
    Format(TextFormat),
    Similarity { metric: SimilarityMetric, reference: Option<String> },
}

fn compile(pattern: &str, case_insensitive: bool) -> Result<Regex, RuleError> {
    RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(RuleError::Pattern)
}

impl Rule {
    pub fn regex(pattern: &str, absent: bool) -> Result<Rule, RuleError> {
        Ok(Rule::Regex { regex: compile(pattern, false)?, absent })
    }

    pub fn keywords(keywords: &[String], mode: KeywordMode, case_sensitive: bool) -> Result<Rule, RuleError> {
        if keywords.is_empty() || keywords.iter().any(|k| k.trim().is_empty()) {
            return Err(RuleError::NoKeywords);
        }
        let patterns = keywords
            .iter()
            .map(|k| compile(&format!(r"(?:^|[^\w]){}(?:[^\w]|$)", regex::escape(k.trim())), !case_sensitive))
            .collect::<Result<_, _>>()?;
        Ok(Rule::Keywords { patterns, mode })
    }

    pub fn length(unit: LengthUnit, min: Option<u64>, max: Option<u64>) -> Result<Rule, RuleError> {
        if min.is_none() && max.is_none() {
            return Err(RuleError::NoBounds);
        }
        if let (Some(lo), Some(hi)) = (min, max)
            && lo > hi
        {
            return Err(RuleError::Reversed { min: lo, max: hi });
        }
        Ok(Rule::Length { unit, min, max })
    }

    pub fn json_schema(schema: &Value) -> Result<Rule, RuleError> {
        let compiled = schema::check(schema).map_err(RuleError::Schema)?;
        Ok(Rule::JsonSchema(Box::new(compiled)))
    }

    pub fn language(code: &str) -> Result<Rule, RuleError> {
        let code = code.to_ascii_lowercase();
        if !language::SUPPORTED.contains(&code.as_str()) {
            return Err(RuleError::Language { code });
        }
        Ok(Rule::Language(code))
    }

    pub fn section(heading: &str) -> Result<Rule, RuleError> {
        if heading.chars().count() > 200 {
            return Err(RuleError::HeadingTooLong);
        }
        let heading = normalise_heading(heading);
        if heading.is_empty() {
            return Err(RuleError::EmptyHeading);
        }
        Ok(Rule::Section(heading))
    }

    /// The score of `response`. An error is the status and reason of an item this rule cannot
    /// judge: a similarity criterion with no reference (`invalid_input`), texts too long to
    /// compare (`resource_limit`).
    pub fn score(&self, response: &str, reference: Option<&str>) -> Result<f64, (Status, String)> {
        let pass = |ok: bool| Ok(if ok { 1.0 } else { 0.0 });
        match self {
            Rule::Regex { regex, absent } => pass(regex.is_match(response) != *absent),
            Rule::Keywords { patterns, mode } => {
                let found = patterns.iter().filter(|p| p.is_match(response)).count();
                match mode {
                    KeywordMode::All => Ok(found as f64 / patterns.len().max(1) as f64),
                    KeywordMode::Any => pass(found > 0),
                    KeywordMode::None => pass(found == 0),
                }
            }
            Rule::Length { unit, min, max } => {
                let length = measure(response, *unit) as u64;
                pass(min.is_none_or(|m| length >= m) && max.is_none_or(|m| length <= m))
            }
            Rule::ValidJson => pass(parse_json(response).is_some()),
            Rule::JsonSchema(schema) => pass(parse_json(response).is_some_and(|v| schema.validate(&v).is_ok())),
            Rule::Language(code) => pass(language::detect(response) == Some(code.as_str())),
            Rule::Section(heading) => pass(response.lines().any(|line| is_heading_line(line, heading))),
            Rule::Format(format) => pass(has_format(response, *format)),
            Rule::Similarity { metric, reference: own } => {
                let reference = own.as_deref().or(reference).ok_or_else(|| {
                    (
                        Status::InvalidInput,
                        "a similarity criterion needs a `reference` in the criterion or the item".to_owned(),
                    )
                })?;
                let score = match metric {
                    SimilarityMetric::Bleu => Some(similarity::bleu(response, reference)),
                    SimilarityMetric::RougeL => similarity::rouge_l(response, reference),
                    SimilarityMetric::FuzzyRatio => similarity::fuzzy_ratio(response, reference),
                };
                score.ok_or_else(|| {
                    let limit = similarity::MAX_LCS_CELLS;
                    (Status::ResourceLimit, format!("the texts are too long to compare (over {limit} LCS cells)"))
                })
            }
        }
    }
}

/// The length of `text` in `unit`.
pub fn measure(text: &str, unit: LengthUnit) -> usize {
    match unit {
        LengthUnit::Chars => text.chars().count(),
        LengthUnit::Words => text.split_whitespace().count(),
        LengthUnit::Tokens => {
            let mut count = 0;
            let mut in_word = false;
            for c in text.chars() {
                if c.is_alphanumeric() || c == '_' {
                    count += usize::from(!in_word);
                    in_word = true;
                } else {
                    in_word = false;
                    count += usize::from(!c.is_whitespace());
                }
            }
            count
        }
    }
}

/// The response as JSON: the whole trimmed text, or the body of the one fenced code block it
/// consists of.
fn parse_json(response: &str) -> Option<Value> {
    let trimmed = response.trim();
    if let Ok(value) = serde_json::from_str(trimmed) {
        return Some(value);
    }
    let inner = trimmed.strip_prefix("```")?.strip_suffix("```")?;
    let body = inner.split_once('\n').map_or("", |(_, body)| body);
    serde_json::from_str(body.trim()).ok()
}

fn normalise_heading(text: &str) -> String {
    let text = text.trim().trim_start_matches('#').trim();
    let text = text.trim_matches(|c| c == '*' || c == '_').trim();
    let text = text.trim_end_matches(':').trim();
    text.trim_matches(|c| c == '*' || c == '_').trim().to_lowercase()
}

/// A Markdown heading, a line in bold, or a `Heading:` line, whose text is `heading`.
fn is_heading_line(line: &str, heading: &str) -> bool {
    let trimmed = line.trim();
    let marked = trimmed.starts_with('#')
        || (trimmed.starts_with("**") && trimmed.len() > 4)
        || (trimmed.starts_with("__") && trimmed.len() > 4)
        || trimmed.ends_with(':')
        || trimmed.trim_end_matches(['*', '_']).ends_with(':');
    marked && normalise_heading(trimmed) == heading
}

fn list_marker(line: &str, numbered: bool) -> bool {
    let line = line.trim_start();
    if numbered {
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        let rest = &line[digits..];
        digits > 0 && (rest.starts_with(". ") || rest.starts_with(") "))
    } else {
        ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m)) && line.len() > 2
    }
}

fn is_table_separator(line: &str) -> bool {
    let line = line.trim().trim_matches('|');
    let cells: Vec<&str> = line.split('|').map(str::trim).collect();
    !cells.is_empty()
        && cells.iter().all(|cell| {
            let dashes = cell.trim_matches(':');
            dashes.len() >= 3 && dashes.chars().all(|c| c == '-')
        })
}

fn has_format(text: &str, format: TextFormat) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    match format {
        TextFormat::BulletList => lines.iter().filter(|l| list_marker(l, false)).count() >= 2,
        TextFormat::NumberedList => lines.iter().filter(|l| list_marker(l, true)).count() >= 2,
        TextFormat::Heading => lines.iter().any(|l| {
            let hashes = l.chars().take_while(|c| *c == '#').count();
            (1..=6).contains(&hashes) && l[hashes..].starts_with(' ') && !l[hashes..].trim().is_empty()
        }),
        TextFormat::CodeBlock => lines.iter().filter(|l| l.trim_start().starts_with("```")).count() >= 2,
        TextFormat::Table => lines.windows(2).any(|pair| {
            let header = pair[0].trim();
            header.contains('|') && header.len() > 2 && is_table_separator(pair[1])
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn score(rule: Result<Rule, RuleError>, response: &str) -> f64 {
        let rule = rule.unwrap_or_else(|e| panic!("{e}"));
        rule.score(response, None).unwrap_or_else(|(_, e)| panic!("{e}"))
    }

    #[test]
    fn regex_present_and_absent() {
        assert_eq!(score(Rule::regex(r"\d{4}", false), "in 1969 they landed"), 1.0);
        assert_eq!(score(Rule::regex(r"\d{4}", false), "long ago"), 0.0);
        assert_eq!(score(Rule::regex(r"(?i)as an ai", true), "As an AI, I cannot"), 0.0);
        assert_eq!(score(Rule::regex(r"(?i)as an ai", true), "Here you go"), 1.0);
        assert!(Rule::regex("(", false).is_err());
        assert!(Rule::regex("a{1000}{1000}", false).is_err(), "size limit");
    }

    #[test]
    fn keywords_count_whole_words() {
        let words = vec!["photosynthesis".to_owned(), "chlorophyll".to_owned(), "light energy".to_owned()];
        let text = "Photosynthesis uses light energy; leaves are green.";
        let all = score(Rule::keywords(&words, KeywordMode::All, false), text);
        assert!((all - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(score(Rule::keywords(&words, KeywordMode::Any, false), text), 1.0);
        assert_eq!(score(Rule::keywords(&words, KeywordMode::None, false), text), 0.0);
        assert_eq!(score(Rule::keywords(&words, KeywordMode::All, true), text), 1.0 / 3.0);
        let cat = vec!["cat".to_owned()];
        assert_eq!(score(Rule::keywords(&cat, KeywordMode::Any, false), "concatenate"), 0.0);
        assert_eq!(score(Rule::keywords(&cat, KeywordMode::Any, false), "a cat."), 1.0);
        assert!(Rule::keywords(&[], KeywordMode::Any, false).is_err());
        assert!(Rule::keywords(&[" ".to_owned()], KeywordMode::Any, false).is_err());
    }

    #[test]
    fn length_in_each_unit() {
        let text = "Hello, wörld! It's 42.";
        assert_eq!(measure(text, LengthUnit::Chars), 22);
        assert_eq!(measure(text, LengthUnit::Words), 4);
        // Hello , wörld ! It ' s 42 .
        assert_eq!(measure(text, LengthUnit::Tokens), 9);
        assert_eq!(score(Rule::length(LengthUnit::Words, Some(3), Some(4)), text), 1.0);
        assert_eq!(score(Rule::length(LengthUnit::Words, Some(5), None), text), 0.0);
        assert_eq!(score(Rule::length(LengthUnit::Chars, None, Some(10)), text), 0.0);
        assert!(Rule::length(LengthUnit::Chars, None, None).is_err());
        assert!(Rule::length(LengthUnit::Chars, Some(5), Some(4)).is_err());
    }

    #[test]
    fn json_and_schema() {
        assert_eq!(score(Ok(Rule::ValidJson), r#" {"a": 1} "#), 1.0);
        assert_eq!(score(Ok(Rule::ValidJson), "```json\n{\"a\": [1, 2]}\n```"), 1.0);
        assert_eq!(score(Ok(Rule::ValidJson), "{a: 1}"), 0.0);
        assert_eq!(score(Ok(Rule::ValidJson), "Sure! {\"a\": 1}"), 0.0);
        let schema = json!({"type": "object", "required": ["answer"], "properties": {"answer": {"type": "integer"}}});
        assert_eq!(score(Rule::json_schema(&schema), r#"{"answer": 42}"#), 1.0);
        assert_eq!(score(Rule::json_schema(&schema), r#"{"answer": "42"}"#), 0.0);
        assert_eq!(score(Rule::json_schema(&schema), "not json"), 0.0);
        assert!(Rule::json_schema(&json!({"type": "object", "if": {}})).is_err());
    }

    #[test]
    fn language_section_and_format() {
        assert_eq!(score(Rule::language("de"), "Ich glaube, dass das nicht stimmt und die Zahl falsch ist."), 1.0);
        assert_eq!(score(Rule::language("en"), "Ich glaube, dass das nicht stimmt und die Zahl falsch ist."), 0.0);
        assert!(Rule::language("xx").is_err());
        let essay = "# Title\n\nSome text.\n\n## Conclusion\nDone.\n**Sources:**\n- a\n- b\n";
        assert_eq!(score(Rule::section("conclusion"), essay), 1.0);
        assert_eq!(score(Rule::section("Sources"), essay), 1.0);
        assert_eq!(score(Rule::section("## Summary"), essay), 0.0);
        assert_eq!(score(Rule::section("Conclusion"), "In conclusion, done."), 0.0);
        assert_eq!(score(Rule::section("Answer"), "Answer: 42"), 0.0, "text after the colon is not a heading line");
        assert_eq!(score(Rule::section("Answer"), "Answer:\n42"), 1.0);
        assert!(has_format(essay, TextFormat::BulletList));
        assert!(has_format(essay, TextFormat::Heading));
        assert!(!has_format(essay, TextFormat::NumberedList));
        assert!(has_format("1. a\n2) b", TextFormat::NumberedList));
        assert!(has_format("```rust\nfn main() {}\n```", TextFormat::CodeBlock));
        assert!(!has_format("```rust\nfn main() {}", TextFormat::CodeBlock));
        assert!(has_format("| a | b |\n|---|:---:|\n| 1 | 2 |", TextFormat::Table));
        assert!(!has_format("| a | b |\n| 1 | 2 |", TextFormat::Table));
        assert!(!has_format("#hashtag", TextFormat::Heading));
    }

    #[test]
    fn similarity_needs_a_reference() {
        let rule = Rule::Similarity { metric: SimilarityMetric::RougeL, reference: None };
        assert_eq!(rule.score("text", None).map_err(|(status, _)| status), Err(Status::InvalidInput));
        assert_eq!(rule.score("the same", Some("the same")), Ok(1.0));
        let own = Rule::Similarity { metric: SimilarityMetric::FuzzyRatio, reference: Some("abc".to_owned()) };
        assert_eq!(own.score("abc", Some("zzz")), Ok(1.0));
    }
}
