//! One response anatomy: how every verifier reads a model's response.
//!
//! A response is split once, by one policy, into three parts:
//!
//! 1. **The end of the turn.** Everything from the first end-of-turn token (`<|im_end|>`,
//!    `<|endoftext|>`, `<|eot_id|>`, `<end_of_turn>`, ...) on was not generated as part of the
//!    answer and is cut off.
//! 2. **Reasoning.** Everything up to the last `</think>` is reasoning (a leading `<think>` may
//!    or may not be there: some chat templates put it in the prompt). A `<think>` that is never
//!    closed means the response was cut off while reasoning: all of it is reasoning and there is
//!    no final text, so nothing the model merely considered can be scored as its answer.
//!    [`Reasoning::Keep`] turns this off (the whole response is the final text).
//! 3. **Answer candidates**, found in the final text only, at most one per [`Marker`], in this
//!    priority order:
//!    - `answer_tag`: the last `<answer>`, up to its `</answer>` or, when the closing tag is
//!      missing (generation stopped at it), up to the end;
//!    - `boxed`: the last `\boxed{...}` or `\fbox{...}` with balanced braces (every box is in
//!      [`Anatomy::boxes`]);
//!    - `gsm8k_marker`: the rest of the last line that starts with `####` (GSM8K's final-answer
//!      marker, which outranks any number written after it);
//!    - `answer_line`: after the last `Answer:` or `Final answer:` (any case, markdown emphasis
//!      allowed, at the start of a word) up to the next blank line, or the rest of the sentence
//!      after the last "final answer is", whichever comes later;
//!    - `fenced_block`: the body of the last fenced code block (a final fence left open, as in a
//!      truncated response, runs to the end).
//!
//! Verifiers choose which markers they accept and what they fall back to when none is present
//! (the whole final text, the last number, ...); those choices are documented per verifier. The
//! scan is linear in the response's length and never panics.

#[cfg(feature = "fixtures")]
pub mod fixtures;

use std::ops::Range;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Tokens that end a model's turn; whatever follows was not part of the answer.
pub const TURN_ENDS: &[&str] = &[
    "<|im_end|>",
    "<|im_start|>",
    "<|endoftext|>",
    "<|eot_id|>",
    "<|end|>",
    "<end_of_turn>",
    "<\u{ff5c}end\u{2581}of\u{2581}sentence\u{ff5c}>",
];

const THINK_OPEN: &str = "<think>";
const THINK_CLOSE: &str = "</think>";

/// What to do with a `<think>...</think>` reasoning block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reasoning {
    /// Ignore the reasoning: answers are looked for after the last `</think>` only, and a
    /// response whose `<think>` never closed has no answer.
    #[default]
    Drop,
    /// Treat the whole response, reasoning included, as the final text.
    Keep,
}

/// A kind of answer marker, in the order the anatomy ranks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Marker {
    /// The last `<answer>...</answer>` (closing tag optional at the end).
    AnswerTag,
    /// The last `\boxed{...}` or `\fbox{...}`.
    Boxed,
    /// The last `#### ...` line.
    Gsm8kMarker,
    /// The last `Answer:` / `Final answer:` paragraph or "the final answer is" sentence.
    AnswerLine,
    /// The last fenced code block.
    FencedBlock,
}

impl Marker {
    /// Every marker, highest priority first.
    pub const ALL: [Marker; 5] =
        [Marker::AnswerTag, Marker::Boxed, Marker::Gsm8kMarker, Marker::AnswerLine, Marker::FencedBlock];

    /// The wire name, for verdict details.
    pub fn as_str(self) -> &'static str {
        match self {
            Marker::AnswerTag => "answer_tag",
            Marker::Boxed => "boxed",
            Marker::Gsm8kMarker => "gsm8k_marker",
            Marker::AnswerLine => "answer_line",
            Marker::FencedBlock => "fenced_block",
        }
    }
}

/// One place the final text marks as its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate<'a> {
    /// Which marker found it.
    pub marker: Marker,
    /// The answer text, untrimmed.
    pub text: &'a str,
    /// Byte range of `text` in the original response.
    pub span: Range<usize>,
}

impl<'a> Candidate<'a> {
    /// The first non-blank line of the text, trimmed, markdown emphasis removed: the answer of
    /// an `Answer:` paragraph whose explanation follows on the next lines.
    pub fn first_line(&self) -> &'a str {
        let line = self.text.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
        line.trim().trim_matches(['*', '_']).trim()
    }

    /// The answer this candidate holds for a verifier that takes one line: an answer line's
    /// [`first_line`](Candidate::first_line), any other marker's whole text.
    pub fn answer(&self) -> &'a str {
        if self.marker == Marker::AnswerLine { self.first_line() } else { self.text }
    }
}

/// A response split into reasoning, final text and answer candidates. See the module docs for
/// the policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anatomy<'a> {
    reasoning: Option<&'a str>,
    reasoning_unclosed: bool,
    final_text: &'a str,
    final_start: usize,
    boxes: Vec<(&'a str, usize)>,
    candidates: Vec<Candidate<'a>>,
}

impl<'a> Anatomy<'a> {
    /// Reads `response` under the default policy ([`Reasoning::Drop`]).
    pub fn read(response: &'a str) -> Self {
        Self::read_with(response, Reasoning::Drop)
    }

    /// Reads `response`, keeping or dropping its reasoning.
    pub fn read_with(response: &'a str, reasoning: Reasoning) -> Self {
        let end = TURN_ENDS.iter().filter_map(|t| response.find(t)).min().unwrap_or(response.len());
        let turn = &response[..end];
        let (reasoning_text, unclosed, final_start) = match reasoning {
            Reasoning::Keep => (None, false, 0),
            Reasoning::Drop => split_reasoning(turn),
        };
        let final_text = &turn[final_start..];
        let boxes = all_boxes(final_text);
        let mut candidates = Vec::with_capacity(Marker::ALL.len());
        let mut push = |marker, range: Option<Range<usize>>| {
            if let Some(r) = range {
                let span = final_start + r.start..final_start + r.end;
                candidates.push(Candidate { marker, text: &final_text[r], span });
            }
        };
        push(Marker::AnswerTag, answer_tag(final_text));
        push(Marker::Boxed, boxes.last().map(|&(text, at)| at..at + text.len()));
        push(Marker::Gsm8kMarker, gsm8k_marker(final_text));
        // "Final Answer: The final answer is $x$." reads as `$x$`: the later marker wins.
        let line = answer_line(final_text);
        let sentence = final_answer_sentence(final_text);
        push(Marker::AnswerLine, line.into_iter().chain(sentence).max_by_key(|r| r.start));
        push(Marker::FencedBlock, last_fenced_block(final_text));
        let boxes = boxes.into_iter().map(|(text, at)| (text, final_start + at)).collect();
        Anatomy { reasoning: reasoning_text, reasoning_unclosed: unclosed, final_text, final_start, boxes, candidates }
    }

    /// The reasoning text (without its tags), when the response had a reasoning block.
    pub fn reasoning(&self) -> Option<&'a str> {
        self.reasoning
    }

    /// True when a `<think>` was never closed: the response ended while reasoning.
    pub fn reasoning_unclosed(&self) -> bool {
        self.reasoning_unclosed
    }

    /// The text after the reasoning and before the end of the turn.
    pub fn final_text(&self) -> &'a str {
        self.final_text
    }

    /// Byte offset of the final text in the response.
    pub fn final_start(&self) -> usize {
        self.final_start
    }

    /// Every candidate found, highest priority first.
    pub fn candidates(&self) -> &[Candidate<'a>] {
        &self.candidates
    }

    /// The candidate of one marker.
    pub fn get(&self, marker: Marker) -> Option<&Candidate<'a>> {
        self.candidates.iter().find(|c| c.marker == marker)
    }

    /// The highest-priority candidate among `markers`.
    pub fn first_of(&self, markers: &[Marker]) -> Option<&Candidate<'a>> {
        self.candidates.iter().find(|c| markers.contains(&c.marker))
    }

    /// The highest-priority candidate of all.
    pub fn answer(&self) -> Option<&Candidate<'a>> {
        self.candidates.first()
    }

    /// The contents of every `\boxed{}`/`\fbox{}` of the final text, in order, with their
    /// byte offsets in the response.
    pub fn boxes(&self) -> impl ExactSizeIterator<Item = (&'a str, usize)> + '_ {
        self.boxes.iter().copied()
    }
}

/// `(reasoning, unclosed, final_start)` for a turn under [`Reasoning::Drop`].
fn split_reasoning(turn: &str) -> (Option<&str>, bool, usize) {
    let last_open = turn.rfind(THINK_OPEN);
    match turn.rfind(THINK_CLOSE) {
        Some(close) if last_open.is_none_or(|open| open < close) => {
            let start = turn.find(THINK_OPEN).filter(|&open| open < close).map_or(0, |open| open + THINK_OPEN.len());
            (Some(&turn[start..close]), false, close + THINK_CLOSE.len())
        }
        // A `<think>` after the last `</think>` (or with none at all) never closed.
        Some(_) | None => match last_open {
            Some(open) => (Some(&turn[open + THINK_OPEN.len()..]), true, turn.len()),
            None => (None, false, 0),
        },
    }
}

/// Byte offset of the last ASCII-case-insensitive occurrence of `needle` in `hay[..end]`.
fn rfind_ci(hay: &str, needle: &str, end: usize) -> Option<usize> {
    let (h, n) = (&hay.as_bytes()[..end], needle.as_bytes());
    (0..(h.len() + 1).saturating_sub(n.len())).rev().find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Byte offset of the first ASCII-case-insensitive occurrence of `needle` in `hay[start..]`.
fn find_ci(hay: &str, needle: &str, start: usize) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    (start..(h.len() + 1).saturating_sub(n.len())).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

fn answer_tag(text: &str) -> Option<Range<usize>> {
    let open = rfind_ci(text, "<answer>", text.len())? + "<answer>".len();
    let close = find_ci(text, "</answer>", open).unwrap_or(text.len());
    Some(open..close)
}

/// Every balanced `\boxed{...}`/`\fbox{...}` content with its offset, in order; a box nested
/// inside another counts as part of it. One pass with a stack of open braces (`\{`, `\}`
/// skipped), so a response of ten thousand unclosed boxes costs no more than its length.
fn all_boxes(text: &str) -> Vec<(&str, usize)> {
    let bytes = text.as_bytes();
    // Content start of each open brace, and whether a box command opened it.
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut closed: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                let rest = &bytes[i + 1..];
                if let Some(command) = [&b"boxed"[..], b"fbox"].into_iter().find(|c| rest.starts_with(c)) {
                    let mut j = i + 1 + command.len();
                    while bytes.get(j).is_some_and(u8::is_ascii_whitespace) {
                        j += 1;
                    }
                    if bytes.get(j) == Some(&b'{') {
                        open.push((j + 1, true));
                        j += 1;
                    }
                    i = j;
                } else if matches!(rest.first(), Some(b'{' | b'}')) {
                    i += 2;
                } else {
                    i += 1;
                }
            }
            b'{' => {
                open.push((i + 1, false));
                i += 1;
            }
            b'}' => {
                if let Some((start, true)) = open.pop() {
                    closed.push(start..i);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    // Inner boxes close first; keep the outermost, in order of their start.
    closed.sort_by_key(|r| r.start);
    let mut out: Vec<(&str, usize)> = Vec::new();
    let mut covered_to = 0;
    for range in closed {
        if range.start >= covered_to {
            covered_to = range.end;
            out.push((&text[range.clone()], range.start));
        }
    }
    out
}

/// Line spans `(start, end)` without the line terminator, last line first.
fn lines_rev(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut end = text.len();
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line_end = if text[start..end].ends_with('\r') { end - 1 } else { end };
        let item = (start, line_end);
        if start == 0 {
            done = true;
        } else {
            end = start - 1;
        }
        Some(item)
    })
}

fn gsm8k_marker(text: &str) -> Option<Range<usize>> {
    lines_rev(text).find_map(|(start, end)| {
        let line = &text[start..end];
        let body = line.trim_start().strip_prefix("####")?;
        let offset = end - body.len();
        let trimmed = body.trim();
        let lead = body.len() - body.trim_start().len();
        Some(offset + lead..offset + lead + trimmed.len())
    })
}

/// After the last word `answer` followed by optional emphasis and a colon, up to a blank line.
fn answer_line(text: &str) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut end = text.len();
    while let Some(colon) = text[..end].rfind([':', '\u{ff1a}']) {
        end = colon;
        let mut j = colon;
        while j > 0 && matches!(bytes[j - 1], b'*' | b' ' | b'_' | b'\t') {
            j -= 1;
        }
        let word_start = j.checked_sub(6).filter(|&s| bytes[s..j].eq_ignore_ascii_case(b"answer"));
        let Some(word_start) = word_start else { continue };
        if word_start > 0 && bytes[word_start - 1].is_ascii_alphanumeric() {
            continue;
        }
        let colon_len = text[colon..].chars().next().map_or(1, char::len_utf8);
        let mut after = colon + colon_len;
        while after < bytes.len() && matches!(bytes[after], b'*' | b'_') {
            after += 1;
        }
        let rest = &text[after..];
        let para_end = paragraph_end(rest);
        return Some(after..after + para_end);
    }
    None
}

/// Offset of the first blank line in `rest` (its end when there is none), ignoring blank lines
/// before any text.
fn paragraph_end(rest: &str) -> usize {
    let lead = rest.len() - rest.trim_start().len();
    let body = &rest[lead..];
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        if line.trim().is_empty() {
            return lead + at;
        }
        at += line.len();
    }
    rest.len()
}

/// The rest of the sentence after the last "the final answer is" (outside `$...$`, a period
/// followed by a space or the end of the line ends the sentence).
fn final_answer_sentence(text: &str) -> Option<Range<usize>> {
    const PHRASE: &str = "final answer is";
    let start = rfind_ci(text, PHRASE, text.len())? + PHRASE.len();
    let rest = &text[start..];
    let line_end = rest.find('\n').unwrap_or(rest.len());
    let mut in_math = false;
    let mut end = line_end;
    let bytes = rest.as_bytes();
    for (i, c) in rest[..line_end].char_indices() {
        match c {
            '$' => in_math = !in_math,
            '.' | '\u{3002}' if !in_math => {
                let next = bytes.get(i + c.len_utf8()).copied();
                if next.is_none_or(|n| n == b' ' || n == b'\n' || n == b'\r') {
                    end = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let lead = rest[..end].len() - rest[..end].trim_start_matches([' ', ':', '*', '_']).len();
    Some(start + lead..start + end)
}

/// The body of the last fenced code block; a final fence left open runs to the end.
fn last_fenced_block(text: &str) -> Option<Range<usize>> {
    let mut last = None;
    let mut open: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if !line.trim_start().starts_with("```") {
            continue;
        }
        match open {
            None => open = Some(offset),
            Some(body) => {
                last = Some(body..start);
                open = None;
            }
        }
    }
    match open {
        Some(body) => Some(body..text.len()),
        None => last,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(response: &str, marker: Marker) -> Option<&str> {
        Anatomy::read(response).get(marker).map(|c| c.text)
    }

    #[test]
    fn reasoning_is_split_at_the_last_close() {
        let a = Anatomy::read("<think>a \\boxed{1}</think>b</think> so \\boxed{2}");
        assert_eq!(a.reasoning(), Some("a \\boxed{1}</think>b"));
        assert_eq!(a.final_text(), " so \\boxed{2}");
        assert_eq!(a.answer().map(|c| c.text), Some("2"));
        let a = Anatomy::read("no opening tag</think>\\boxed{3}");
        assert_eq!(a.reasoning(), Some("no opening tag"));
        assert_eq!(a.answer().map(|c| c.text), Some("3"));
    }

    #[test]
    fn an_unclosed_think_has_no_answer() {
        let a = Anatomy::read("<think>maybe \\boxed{5}\n#### 5\nAnswer: 5");
        assert!(a.reasoning_unclosed());
        assert_eq!(a.final_text(), "");
        assert!(a.candidates().is_empty());
        let a = Anatomy::read("<think>one</think> x <think>again \\boxed{5}");
        assert!(a.reasoning_unclosed());
        assert!(a.answer().is_none());
        let kept = Anatomy::read_with("<think>maybe \\boxed{5}", Reasoning::Keep);
        assert_eq!(kept.answer().map(|c| c.text), Some("5"));
    }

    #[test]
    fn turn_end_cuts_the_response() {
        let a = Anatomy::read("\\boxed{1}<|im_end|>\\boxed{2}");
        assert_eq!(a.answer().map(|c| c.text), Some("1"));
        assert_eq!(a.final_text(), "\\boxed{1}");
    }

    #[test]
    fn markers_rank_and_spans_point_into_the_response() {
        let response = "<think>r</think>Answer: 3\n#### 4\n\\boxed{5} <answer>6</answer>";
        let a = Anatomy::read(response);
        let markers: Vec<_> = a.candidates().iter().map(|c| c.marker).collect();
        assert_eq!(markers, [Marker::AnswerTag, Marker::Boxed, Marker::Gsm8kMarker, Marker::AnswerLine]);
        for c in a.candidates() {
            assert_eq!(&response[c.span.clone()], c.text);
        }
        assert_eq!(a.first_of(&[Marker::AnswerLine, Marker::Gsm8kMarker]).map(|c| c.text), Some("4"));
    }

    #[test]
    fn gsm8k_marker_wins_over_later_numbers() {
        assert_eq!(text_of("48 + 24 = 72\n#### 72\nI used 2 steps.", Marker::Gsm8kMarker), Some("72"));
        assert_eq!(text_of("####   1,000  \r\n", Marker::Gsm8kMarker), Some("1,000"));
        assert_eq!(text_of("a #### b", Marker::Gsm8kMarker), None);
    }

    #[test]
    fn answer_tag_closing_is_optional() {
        assert_eq!(text_of("<answer>1</answer> then <ANSWER> 2 </Answer>", Marker::AnswerTag), Some(" 2 "));
        assert_eq!(text_of("<answer>cut off", Marker::AnswerTag), Some("cut off"));
    }

    #[test]
    fn boxes_balance_and_nest() {
        let a = Anatomy::read(r"\boxed{1} and \fbox {\frac{1}{2}} \boxed{\boxed{3}} \boxed{open");
        let boxes: Vec<_> = a.boxes().map(|(t, _)| t).collect();
        assert_eq!(boxes, ["1", r"\frac{1}{2}", r"\boxed{3}"]);
        assert_eq!(text_of(r"\boxed {\{x\}}", Marker::Boxed), Some(r"\{x\}"));
    }

    #[test]
    fn answer_lines_take_the_paragraph() {
        let a = Anatomy::read("work\n**Final Answer:** 42\nbecause\n\nbye");
        let c = a.get(Marker::AnswerLine).cloned();
        assert_eq!(c.as_ref().map(|c| c.text), Some(" 42\nbecause\n"));
        assert_eq!(c.map(|c| c.first_line()), Some("42"));
        assert_eq!(text_of("first answer: [1]; final ANSWER: [2]", Marker::AnswerLine), Some(" [2]"));
        assert_eq!(text_of("Answer:\n\n[3]\n\nmore", Marker::AnswerLine), Some("\n\n[3]\n"));
        assert_eq!(text_of("reanswer: 5", Marker::AnswerLine), None);
        assert_eq!(text_of("So the final answer is $3.5$. I hope it is correct.", Marker::AnswerLine), Some("$3.5$"));
    }

    #[test]
    fn fenced_blocks() {
        let response = "First:\n```python\nprint(1)\n```\nBetter:\n```py\nprint(2)\n```\nDone.";
        assert_eq!(text_of(response, Marker::FencedBlock), Some("print(2)\n"));
        assert_eq!(text_of("```\nx = 1\n", Marker::FencedBlock), Some("x = 1\n"));
        assert_eq!(text_of("<think>```\nbad\n```</think>\n```\ngood\n```", Marker::FencedBlock), Some("good\n"));
    }

    #[test]
    fn never_panics_on_odd_text() {
        for text in [
            "ä\\boxed{é}ö",
            "<answer>日本",
            "Answé: x",
            "ß\u{0}\\boxed",
            "answer：答",
            "####",
            "\\",
            "</think>",
            "<think>",
            "final answer is",
            "```",
            "\r\n\r\n",
        ] {
            let a = Anatomy::read(text);
            for c in a.candidates() {
                assert_eq!(&text[c.span.clone()], c.text);
                let _ = c.first_line();
            }
        }
    }
}
