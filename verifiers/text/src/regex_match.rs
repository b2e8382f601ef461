use std::collections::HashMap;

use referee_core::utoipa::{self, ToSchema};
use referee_core::{Budget, Description, Status, Verdict, Verifier, verify_each};
use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use referee_core::anatomy::Reasoning;

use crate::{Extraction, extract, missing_reason};

/// Longest pattern accepted, in bytes.
const MAX_PATTERN_BYTES: usize = 4096;
/// Compiled-program size limit; bounds memory, and with it the work per input byte.
const COMPILED_SIZE_LIMIT: usize = 1 << 20;
/// Deepest group nesting accepted.
const NEST_LIMIT: u32 = 64;

/// Whether the pattern must match the whole answer or any part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchMode {
    /// The pattern matches somewhere in the answer.
    #[default]
    Partial,
    /// The pattern matches the whole answer.
    Full,
}

/// Matches a regular expression against the response (or the answer extracted from it).
/// Patterns use the Rust `regex` syntax, which has no backreferences or look-around and runs in
/// time linear in the input, so no pattern can backtrack catastrophically.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegexMatchInput {
    /// The model's output; its reasoning is dropped unless `reasoning` is `keep`.
    pub response: String,
    /// The pattern, at most 4096 bytes, nesting at most 64 deep.
    pub pattern: String,
    /// Full or partial match.
    #[serde(default)]
    pub mode: MatchMode,
    /// Match letters regardless of case.
    #[serde(default)]
    pub case_insensitive: bool,
    /// Where to find the answer inside the response.
    #[serde(default)]
    pub extract: Extraction,
    /// What to do with a `<think>...</think>` block: `drop` (default) compares only the text
    /// after it, and a response whose reasoning never closed is `unparseable`; `keep` reads the
    /// whole response.
    #[serde(default)]
    pub reasoning: Reasoning,
}

/// The `regex-match` verifier. Each distinct pattern of a batch is compiled once.
#[derive(Debug, Clone, Copy, Default)]
pub struct RegexMatch;

type PatternKey<'a> = (&'a str, MatchMode, bool);

fn compile(pattern: &str, mode: MatchMode, case_insensitive: bool) -> Result<Regex, String> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(format!("pattern is {} bytes; the limit is {MAX_PATTERN_BYTES}", pattern.len()));
    }
    let source = match mode {
        MatchMode::Partial => pattern.to_owned(),
        MatchMode::Full => format!(r"\A(?:{pattern})\z"),
    };
    RegexBuilder::new(&source)
        .case_insensitive(case_insensitive)
        .size_limit(COMPILED_SIZE_LIMIT)
        .dfa_size_limit(COMPILED_SIZE_LIMIT)
        .nest_limit(NEST_LIMIT)
        .build()
        .map_err(|e| format!("invalid pattern: {e}"))
}

impl RegexMatch {
    fn judge(input: &RegexMatchInput, regex: &Result<Regex, String>) -> Verdict {
        let regex = match regex {
            Ok(regex) => regex,
            Err(reason) => return Verdict::invalid_input(reason.clone()),
        };
        let Some(answer) = extract(&input.response, input.extract, input.reasoning) else {
            return Verdict::unparseable(missing_reason(&input.response, input.extract, input.reasoning));
        };
        match regex.find(answer) {
            Some(found) => Verdict::correct().with("matched", found.as_str()),
            None => Verdict::new(0.0, Status::Incorrect),
        }
    }
}

impl Verifier for RegexMatch {
    type Input = RegexMatchInput;

    fn description(&self) -> Description {
        Description {
            id: "regex-match",
            version: "1",
            summary: "Matches a user-supplied regular expression (Rust regex syntax: linear time, no \
                      backreferences or look-around, size and nesting limits) against the response or the \
                      answer extracted from it, as a full or partial match, optionally ignoring case. Scores 1 \
                      on a match and 0 otherwise; an invalid pattern is that item's invalid_input.",
        }
    }

    fn verify_batch(&self, inputs: &[RegexMatchInput], budget: &Budget) -> Vec<Verdict> {
        let mut compiled: HashMap<PatternKey<'_>, Result<Regex, String>> = HashMap::new();
        for input in inputs {
            compiled
                .entry((input.pattern.as_str(), input.mode, input.case_insensitive))
                .or_insert_with(|| compile(&input.pattern, input.mode, input.case_insensitive));
        }
        verify_each(inputs, budget, |input, _| {
            let key = (input.pattern.as_str(), input.mode, input.case_insensitive);
            match compiled.get(&key) {
                Some(regex) => RegexMatch::judge(input, regex),
                None => Verdict::internal_error("pattern missing from the batch's compiled set"),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(json: serde_json::Value) -> Verdict {
        let input: RegexMatchInput = serde_json::from_value(json).unwrap_or_else(|e| panic!("bad test input: {e}"));
        RegexMatch.verify_batch(std::slice::from_ref(&input), &Budget::unlimited()).remove(0)
    }

    #[test]
    fn partial_and_full() {
        assert_eq!(run(serde_json::json!({"response": "x = 42;", "pattern": r"\d+"})).status, Status::Correct);
        assert_eq!(
            run(serde_json::json!({"response": "x = 42;", "pattern": r"\d+", "mode": "full"})).status,
            Status::Incorrect
        );
        assert_eq!(
            run(serde_json::json!({"response": "42", "pattern": r"\d+", "mode": "full"})).status,
            Status::Correct
        );
        assert_eq!(run(serde_json::json!({"response": "2", "pattern": "1|2", "mode": "full"})).status, Status::Correct);
        assert_eq!(
            run(serde_json::json!({"response": "12", "pattern": "1|2", "mode": "full"})).status,
            Status::Incorrect
        );
        assert_eq!(
            run(serde_json::json!({"response": "HELLO", "pattern": "hello", "case_insensitive": true})).status,
            Status::Correct
        );
    }

    #[test]
    fn bad_patterns_are_invalid_input() {
        let v = run(serde_json::json!({"response": "a", "pattern": "("}));
        assert_eq!(v.status, Status::InvalidInput);
        let v = run(serde_json::json!({"response": "a", "pattern": "(a)\\1"}));
        assert_eq!(v.status, Status::InvalidInput);
        let long = "a".repeat(MAX_PATTERN_BYTES + 1);
        assert_eq!(run(serde_json::json!({"response": "a", "pattern": long})).status, Status::InvalidInput);
        let deep = format!("{}a{}", "(".repeat(200), ")".repeat(200));
        assert_eq!(run(serde_json::json!({"response": "a", "pattern": deep})).status, Status::InvalidInput);
        let huge = "\\w{1000}{1000}";
        assert_eq!(run(serde_json::json!({"response": "a", "pattern": huge})).status, Status::InvalidInput);
    }

    #[test]
    fn classic_catastrophic_pattern_is_linear() {
        let response = format!("{}!", "a".repeat(100_000));
        let v = run(serde_json::json!({"response": response, "pattern": "^(a+)+$"}));
        assert_eq!(v.status, Status::Incorrect);
    }
}
