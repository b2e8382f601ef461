//! Cutting a response into the answers of its parts, by a declared rule. Every rule reads the
//! final text of the response's [`Anatomy`] (reasoning and whatever follows the end of the turn
//! left out), so an answer the model only considered in its reasoning is never taken.

use std::sync::LazyLock;

use referee_core::Anatomy;
use referee_core::utoipa::{self, ToSchema};
use regex::Regex;
use serde::Deserialize;
use serde_json::Value;

/// How the response is cut into the parts' answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CompositeSplit)]
pub enum Split {
    /// The `\boxed{...}` (or `\fbox{...}`) contents of the final text, in order: part k gets
    /// the k-th box. With more boxes than parts, the last boxes count (earlier ones are taken
    /// as intermediate results).
    #[default]
    Boxes,
    /// Numbered lines: `1. x`, `2) x`, `(3) x`, `Answer 4: x`, `Part 5 - x`, `Q6: x` (markdown
    /// bold and list bullets allowed). Line `k` answers part k; when a number repeats, its last
    /// line counts.
    Numbered,
    /// The `<answer>...</answer>` tags of the final text, in order (a last tag left open runs to
    /// the end); with more tags than parts, the last tags count.
    AnswerTags,
    /// A JSON array in the final text (the last one that parses): element k answers part k; a
    /// string element is the answer as it stands, any other element its JSON text.
    Json,
    /// The non-empty lines of the last `<answer>` tag, or of the final text without one: the
    /// last lines count, one per part.
    Lines,
}

impl Split {
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Boxes => "boxes",
            Split::Numbered => "numbered",
            Split::AnswerTags => "answer_tags",
            Split::Json => "json",
            Split::Lines => "lines",
        }
    }
}

/// The answers found for `parts` parts: one slot per part, and how many the rule found in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answers {
    pub slots: Vec<Option<String>>,
    pub found: usize,
}

/// The most `[` positions tried as the start of a JSON array: a hostile response full of
/// brackets costs a bounded number of parse attempts.
const JSON_ATTEMPTS: usize = 64;

/// Cuts `response` into the answers of `parts` parts by `rule`.
pub fn split(response: &str, rule: Split, parts: usize) -> Answers {
    let anatomy = Anatomy::read(response);
    let text = anatomy.final_text();
    match rule {
        Split::Boxes => in_order(anatomy.boxes().map(|(boxed, _)| boxed.trim().to_owned()).collect(), parts),
        Split::AnswerTags => in_order(answer_tags(text).into_iter().map(|tag| tag.trim().to_owned()).collect(), parts),
        Split::Lines => {
            let region = answer_tags(text).pop().unwrap_or(text);
            let lines = region.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_owned).collect();
            in_order(lines, parts)
        }
        Split::Json => in_order(last_json_array(text).unwrap_or_default(), parts),
        Split::Numbered => numbered(text, parts),
    }
}

/// The first answers in order, or the last `parts` of them when there are more.
fn in_order(mut answers: Vec<String>, parts: usize) -> Answers {
    let found = answers.len();
    if found > parts {
        answers.drain(..found - parts);
    }
    let mut slots: Vec<Option<String>> = answers.into_iter().map(Some).collect();
    slots.resize(parts, None);
    Answers { slots, found }
}

/// The contents of every `<answer>` tag, in order; a last tag left open runs to the end.
fn answer_tags(text: &str) -> Vec<&str> {
    const OPEN: &str = "<answer>";
    const CLOSE: &str = "</answer>";
    let mut tags = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find(OPEN) {
        let body = &rest[open + OPEN.len()..];
        match body.find(CLOSE) {
            Some(close) => {
                tags.push(&body[..close]);
                rest = &body[close + CLOSE.len()..];
            }
            None => {
                tags.push(body);
                break;
            }
        }
    }
    tags
}

/// The elements of the last JSON array in `text` that parses, as answers.
fn last_json_array(text: &str) -> Option<Vec<String>> {
    let starts = text.match_indices('[').map(|(at, _)| at).collect::<Vec<_>>();
    starts.into_iter().rev().take(JSON_ATTEMPTS).find_map(|at| {
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(Value::Array(elements))) => Some(
                elements
                    .into_iter()
                    .map(|element| match element {
                        Value::String(answer) => answer.trim().to_owned(),
                        other @ (Value::Null
                        | Value::Bool(_)
                        | Value::Number(_)
                        | Value::Array(_)
                        | Value::Object(_)) => other.to_string(),
                    })
                    .collect(),
            ),
            _ => None,
        }
    })
}

static NUMBERED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^\s* (?:[-*]\s+)? (?:\*\*)?
          (?: (?:answer|part|problem|question|q) \s* \#? \s* (\d{1,3}) \s* (?:\*\*)? \s* [.):\-]? \s* (?:\*\*)?
            | \( (\d{1,3}) \) \s* (?:\*\*)?
            | (\d{1,3}) [.)] (?:\*\*)? \s )
          \s* (\S.*?) \s*$",
    )
    .unwrap_or_else(|e| unreachable!("static pattern: {e}"))
});

/// Numbered lines: line `k` answers part `k`, the last line of a number counting.
fn numbered(text: &str, parts: usize) -> Answers {
    let mut slots = vec![None; parts];
    let mut found = 0;
    for line in text.lines() {
        let Some(captures) = NUMBERED.captures(line) else { continue };
        let number = (1..=3).find_map(|group| captures.get(group)).and_then(|m| m.as_str().parse::<usize>().ok());
        let (Some(number), Some(answer)) = (number, captures.get(4)) else { continue };
        found += 1;
        if (1..=parts).contains(&number) {
            slots[number - 1] = Some(answer.as_str().trim_end_matches("**").trim().to_owned());
        }
    }
    Answers { slots, found }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(response: &str, rule: Split, parts: usize) -> Vec<Option<String>> {
        split(response, rule, parts).slots
    }

    fn expect(values: &[Option<&str>]) -> Vec<Option<String>> {
        values.iter().map(|value| value.map(str::to_owned)).collect()
    }

    #[test]
    fn boxes_in_order_and_the_last_ones_when_more() {
        let response = r"<think>\boxed{99}</think> First \boxed{3}, then \boxed{\frac{1}{2}}.";
        assert_eq!(answers(response, Split::Boxes, 2), expect(&[Some("3"), Some(r"\frac{1}{2}")]));
        assert_eq!(answers(response, Split::Boxes, 3), expect(&[Some("3"), Some(r"\frac{1}{2}"), None]));
        assert_eq!(answers(response, Split::Boxes, 1), expect(&[Some(r"\frac{1}{2}")]));
        assert_eq!(split(response, Split::Boxes, 1).found, 2, "the box in the reasoning is not counted");
    }

    #[test]
    fn an_unclosed_reasoning_block_has_no_answers() {
        let response = r"<think>maybe \boxed{3} and \boxed{4}";
        assert_eq!(answers(response, Split::Boxes, 2), expect(&[None, None]));
    }

    #[test]
    fn numbered_lines_in_their_forms() {
        let response =
            "Work first.\n1. 12\n2) x = 3\n(3) 7\n**Answer 4:** 9\nPart 5 - yes\nQ6: 2\n3.14 is pi\n- 7. last";
        assert_eq!(
            answers(response, Split::Numbered, 7),
            expect(&[Some("12"), Some("x = 3"), Some("7"), Some("9"), Some("yes"), Some("2"), Some("last")])
        );
    }

    #[test]
    fn a_repeated_number_takes_its_last_line_and_numbers_past_the_parts_are_ignored() {
        let response = "1. 5\n2. 6\n1. 8\n9. 100";
        assert_eq!(answers(response, Split::Numbered, 2), expect(&[Some("8"), Some("6")]));
        assert_eq!(split(response, Split::Numbered, 2).found, 4);
    }

    #[test]
    fn answer_tags_lines_and_json() {
        let tags = "<answer>4</answer> and <answer> 5 </answer> and <answer>6";
        assert_eq!(answers(tags, Split::AnswerTags, 3), expect(&[Some("4"), Some("5"), Some("6")]));
        let lines = "The answers:\n<answer>\n10\n\n20\n</answer>";
        assert_eq!(answers(lines, Split::Lines, 2), expect(&[Some("10"), Some("20")]));
        let json = "Not this [1, 2]. Final: [\"a b\", 3.5, {\"x\": 1}] and a stray [";
        assert_eq!(answers(json, Split::Json, 3), expect(&[Some("a b"), Some("3.5"), Some("{\"x\":1}")]));
        assert_eq!(answers("no array here", Split::Json, 1), expect(&[None]));
    }

    #[test]
    fn thousands_of_brackets_are_bounded() {
        let response = "[".repeat(100_000);
        assert_eq!(answers(&response, Split::Json, 2), expect(&[None, None]));
        let boxes = r"\boxed{1}".repeat(10_000);
        let got = split(&boxes, Split::Boxes, 2);
        assert_eq!((got.found, got.slots.len()), (10_000, 2));
    }
}
