//! Choosing the answer region of a response.
//!
//! Order: drop everything up to the last `</think>`; then the last `<answer>...</answer>`; else
//! the last `Answer:` line (case-insensitive, markdown emphasis allowed) up to a blank line;
//! else (lenient only) the last fenced code block; else (lenient only) the whole remaining text,
//! where the parser takes the last balanced structure. Only the final [`MAX_TAIL_BYTES`] of a
//! response are searched, so extraction is O(tail) however long the reasoning was.

use referee_core::utoipa::{self, ToSchema};
use serde::Serialize;

/// Bytes at the end of a response that are searched for the answer.
pub const MAX_TAIL_BYTES: usize = 256 * 1024;

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

fn tail(response: &str) -> &str {
    if response.len() <= MAX_TAIL_BYTES {
        return response;
    }
    let mut start = response.len() - MAX_TAIL_BYTES;
    while !response.is_char_boundary(start) {
        start += 1;
    }
    &response[start..]
}

/// Byte offset of the last ASCII-case-insensitive occurrence of a tag (which starts with `<`).
fn rfind_tag(hay: &[u8], tag: &[u8]) -> Option<usize> {
    let mut end = hay.len();
    while let Some(i) = hay[..end].iter().rposition(|&c| c == b'<') {
        if hay.len() - i >= tag.len() && hay[i..i + tag.len()].eq_ignore_ascii_case(tag) {
            return Some(i);
        }
        end = i;
    }
    None
}

/// Byte offset just after the last `answer` followed by optional `*`/spaces and a `:`.
fn answer_line(hay: &[u8]) -> Option<usize> {
    let mut end = hay.len();
    // Walk backwards over colons; each is checked for a preceding "answer" marker.
    while let Some(colon) = hay[..end].iter().rposition(|&c| c == b':') {
        let mut j = colon;
        while j > 0 && matches!(hay[j - 1], b'*' | b' ' | b'_') {
            j -= 1;
        }
        if j >= 6 && hay[j - 6..j].eq_ignore_ascii_case(b"answer") {
            let mut after = colon + 1;
            while after < hay.len() && matches!(hay[after], b'*' | b'_') {
                after += 1;
            }
            return Some(after);
        }
        end = colon;
    }
    None
}

/// Picks the answer region; `None` means no answer (strict mode found no marker, or the text
/// after reasoning is empty).
pub fn find_region(response: &str, strict: bool) -> Option<Region<'_>> {
    let mut text = tail(response);
    if let Some(i) = text.rfind("</think>") {
        text = &text[i + "</think>".len()..];
    }
    let bytes = text.as_bytes();
    if let Some(close) = rfind_tag(bytes, b"</answer>")
        && let Some(open) = rfind_tag(&bytes[..close], b"<answer>")
    {
        return Some(Region { text: &text[open + "<answer>".len()..close], rule: RegionRule::AnswerTag });
    }
    if let Some(open) = rfind_tag(bytes, b"<answer>") {
        // An unclosed tag at the end (generation cut at a stop string) still marks the answer.
        return Some(Region { text: &text[open + "<answer>".len()..], rule: RegionRule::AnswerTag });
    }
    if let Some(start) = answer_line(bytes) {
        let rest = &text[start..];
        let end = rest.find("\n\n").or_else(|| rest.find("\r\n\r\n")).unwrap_or(rest.len());
        return Some(Region { text: &rest[..end], rule: RegionRule::AnswerLine });
    }
    if strict {
        return None;
    }
    if let Some(block) = last_fenced_block(text) {
        return Some(Region { text: block, rule: RegionRule::FencedBlock });
    }
    if text.trim().is_empty() {
        return None;
    }
    Some(Region { text, rule: RegionRule::LastBracket })
}

fn last_fenced_block(text: &str) -> Option<&str> {
    let close = text.rfind("```")?;
    let open = text[..close].rfind("```")?;
    let inner = &text[open + 3..close];
    // Drop an info string such as "json" on the opening line.
    let body = match inner.find('\n') {
        Some(nl) if !inner[..nl].contains(['[', '(', '{']) => &inner[nl + 1..],
        _ => inner,
    };
    Some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(s: &str, strict: bool) -> Option<(String, RegionRule)> {
        find_region(s, strict).map(|r| (r.text.trim().to_owned(), r.rule))
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
    fn long_responses_search_only_the_tail() {
        let mut s = "é".repeat(MAX_TAIL_BYTES);
        s.push_str("Answer: [1]");
        assert_eq!(region(&s, true), Some(("[1]".into(), RegionRule::AnswerLine)));
    }
}
