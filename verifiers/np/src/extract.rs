//! Choosing the answer region of a response, on the shared response anatomy
//! ([`referee_core::anatomy`]).
//!
//! Order: the reasoning is dropped (a response whose `<think>` never closed has no answer); then
//! the last `<answer>` tag (closing tag optional at the end); else the last `Answer:` paragraph
//! (up to a blank line); else (lenient only) the last fenced code block; else (lenient only) the
//! whole final text, where the parser takes the last balanced structure.

use referee_core::anatomy::{Anatomy, Marker};
use referee_core::utoipa::{self, ToSchema};
use serde::Serialize;

/// Which rule chose the answer region, reported in verdict details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RegionRule {
    /// The last `<answer>...</answer>` block.
    AnswerTag,
    /// The text after the last `Answer:` marker.
    AnswerLine,
    /// The last fenced code block (lenient only).
    FencedBlock,
    /// No marker: the whole text after reasoning, searched for its last structure (lenient only).
    LastBracket,
}

/// The chosen slice of the response and the rule that chose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region<'a> {
    /// The answer text.
    pub text: &'a str,
    /// The rule that fired.
    pub rule: RegionRule,
}

/// Why a response has no answer region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRegion {
    /// The response ended inside its reasoning.
    ReasoningUnclosed,
    /// Strict mode found neither an answer tag nor an `Answer:` marker.
    NoMarker,
    /// Nothing follows the reasoning.
    Empty,
}

impl NoRegion {
    /// The message of the verdict.
    pub fn message(self) -> &'static str {
        match self {
            NoRegion::ReasoningUnclosed => {
                "the response ended inside its reasoning (`<think>` without `</think>`), so it has no answer"
            }
            NoRegion::NoMarker => "no <answer> tag or 'Answer:' marker",
            NoRegion::Empty => "the response is empty after reasoning",
        }
    }
}

const STRICT: [(Marker, RegionRule); 2] =
    [(Marker::AnswerTag, RegionRule::AnswerTag), (Marker::AnswerLine, RegionRule::AnswerLine)];
const LENIENT: [(Marker, RegionRule); 3] = [
    (Marker::AnswerTag, RegionRule::AnswerTag),
    (Marker::AnswerLine, RegionRule::AnswerLine),
    (Marker::FencedBlock, RegionRule::FencedBlock),
];

/// Picks the answer region of a response.
pub fn find_region(response: &str, strict: bool) -> Result<Region<'_>, NoRegion> {
    let anatomy = Anatomy::read(response);
    if anatomy.reasoning_unclosed() {
        return Err(NoRegion::ReasoningUnclosed);
    }
    let rules: &[(Marker, RegionRule)] = if strict { &STRICT } else { &LENIENT };
    // The anatomy lists candidates highest priority first.
    let chosen = anatomy.candidates().iter().find_map(|c| {
        let (_, rule) = rules.iter().find(|(marker, _)| *marker == c.marker)?;
        Some(Region { text: c.text, rule: *rule })
    });
    if let Some(region) = chosen {
        return Ok(region);
    }
    if strict {
        return Err(NoRegion::NoMarker);
    }
    let text = anatomy.final_text();
    if text.trim().is_empty() {
        return Err(NoRegion::Empty);
    }
    Ok(Region { text, rule: RegionRule::LastBracket })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(s: &str, strict: bool) -> Option<(String, RegionRule)> {
        find_region(s, strict).ok().map(|r| (r.text.trim().to_owned(), r.rule))
    }

    #[test]
    fn marker_priority() {
        let s = "<think>Answer: [9]</think>I think <answer>[1, 2]</answer> then Answer: [3]";
        assert_eq!(region(s, true), Some(("[1, 2]".into(), RegionRule::AnswerTag)));
        let s = "<think>Answer: [9]</think>so **Answer:** [3, 4]\n\nbye";
        assert_eq!(region(s, true), Some(("[3, 4]".into(), RegionRule::AnswerLine)));
        let s = "<think><answer>[9]</answer></think> nothing";
        assert_eq!(region(s, true), None);
        assert_eq!(region(s, false), Some(("nothing".into(), RegionRule::LastBracket)));
        let s = "text\n```json\n[1, 2]\n```\nmore";
        assert_eq!(region(s, false), Some(("[1, 2]".into(), RegionRule::FencedBlock)));
        assert_eq!(region(s, true), None);
        let s = "first answer: [1]; final ANSWER: [2]";
        assert_eq!(region(s, true), Some(("[2]".into(), RegionRule::AnswerLine)));
        assert_eq!(region("<answer>[5, 6]", true), Some(("[5, 6]".into(), RegionRule::AnswerTag)));
    }

    #[test]
    fn long_responses_are_read_to_the_end() {
        let mut s = "é".repeat(300 * 1024);
        s.push_str("Answer: [1]");
        assert_eq!(region(&s, true), Some(("[1]".into(), RegionRule::AnswerLine)));
    }

    #[test]
    fn unfinished_reasoning_has_no_answer() {
        assert_eq!(find_region("<think>Answer: [1]", false), Err(NoRegion::ReasoningUnclosed));
    }

    #[test]
    fn agrees_with_the_shared_anatomy_fixture() {
        use referee_core::anatomy::fixtures::rows;
        for row in rows() {
            let expected = [Marker::AnswerTag, Marker::AnswerLine, Marker::FencedBlock]
                .iter()
                .find_map(|m| row.candidates.get(m))
                .map(String::as_str)
                .or_else(|| Some(row.final_text.as_str()).filter(|t| !t.trim().is_empty()));
            assert_eq!(find_region(&row.response, false).ok().map(|r| r.text), expected, "{}", row.name);
        }
    }
}
