//! Finding the answer in a full response: boxed answers, answer tags, "final answer" phrases
//! in several languages, bold values, the last formula and the last number.

mod scan;
mod statement;

use referee_core::anatomy::{Anatomy, Marker};

use crate::options::ExtractionMode;
pub use scan::{Segment, math_segments};
use scan::{bold_spans, boxes, last_number};

/// One place an answer may be, in the order they are tried.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The answer text as found.
    pub text: String,
    /// Which extraction rule found it.
    pub rule: &'static str,
    /// True when the text carries no LaTeX (enables the decimal comma).
    pub plain: bool,
    /// Whether a parse to free text (not math) is acceptable for this candidate.
    pub allow_text: bool,
}

/// What extraction produced.
#[derive(Debug, Clone, PartialEq)]
pub enum Extraction {
    /// Candidates in priority order (possibly empty).
    Candidates(Vec<Candidate>),
    /// Several different boxed answers while they are not allowed.
    Hedged(Vec<String>),
}

/// The part of the response that can hold the final answer: its final text under the shared
/// response anatomy ([`referee_core::anatomy`]), which cuts the turn at its end token and drops
/// the reasoning. A response whose `<think>` never closed has no final text: it yields "".
pub fn answer_region(response: &str) -> &str {
    Anatomy::read(response).final_text()
}

/// The number after GSM8K's `####` marker as the math parser reads it: thousands separators
/// (`1,000`), a currency sign and a closing full stop removed.
fn gsm8k_answer(marked: &str) -> String {
    let text = marked.trim().trim_end_matches('.').trim();
    let text = text.strip_prefix('$').unwrap_or(text).trim();
    let digits_and_commas =
        !text.is_empty() && text.chars().all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '-'));
    let grouped =
        text.split(',').skip(1).all(|group| group.len() >= 3 && group[..3].chars().all(|c| c.is_ascii_digit()));
    if digits_and_commas && text.contains(',') && grouped { text.replace(',', "") } else { text.to_owned() }
}

fn is_plain(s: &str) -> bool {
    !s.contains('\\') && !s.contains('$') && !s.contains('{')
}

fn candidate(text: &str, rule: &'static str, allow_text: bool, plain: bool) -> Candidate {
    Candidate { text: text.trim().to_owned(), rule, plain, allow_text }
}

/// The text with malformed formulas (inline math across a line break) blanked out, byte
/// offsets unchanged, and the formulas of the result; borrowed when nothing was malformed.
fn blank_invalid(text: &str) -> (std::borrow::Cow<'_, str>, Vec<Segment>) {
    let segments = math_segments(text);
    if segments.iter().all(|s| s.valid) {
        return (std::borrow::Cow::Borrowed(text), segments);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for seg in segments.iter().filter(|s| !s.valid) {
        out.push_str(&text[at..seg.start]);
        out.extend(std::iter::repeat_n(' ', seg.end - seg.start));
        at = seg.end;
    }
    out.push_str(&text[at..]);
    let segments = math_segments(&out);
    (std::borrow::Cow::Owned(out), segments)
}

/// Removes math delimiters so an answer written as `$1$ and $2$` reads as `1 and 2`.
pub fn strip_delimiters(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' => {}
            '\\' if matches!(chars.peek(), Some('(' | ')' | '[' | ']')) => {
                chars.next();
                out.push(' ');
            }
            '\\' => {
                out.push('\\');
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn word_count(s: &str) -> usize {
    s.split_whitespace().filter(|w| w.chars().any(char::is_alphanumeric)).count()
}

/// Which side of the pair a text is: references skip the last-number fallback unless they are
/// written as prose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The gold answer.
    Reference,
    /// The model's output.
    Response,
}

/// Extracts the answer candidates from a response (or a reference written like one).
pub fn extract(response: &str, mode: ExtractionMode, allow_multiple_boxed: bool, side: Side) -> Extraction {
    extract_with(response, mode, allow_multiple_boxed, side, true)
}

/// Like [`extract`]; with `fallbacks` false it stops after the answer tags, boxes, the final
/// answer phrase and the whole text, which is all most responses need.
pub fn extract_with(
    response: &str,
    mode: ExtractionMode,
    allow_multiple_boxed: bool,
    side: Side,
    fallbacks: bool,
) -> Extraction {
    let anatomy = Anatomy::read(response);
    let region = anatomy.final_text();
    let (blanked, segments) = blank_invalid(region);
    let text: &str = &blanked;
    let mut out = Vec::new();
    if let Some(tagged) = anatomy.get(Marker::AnswerTag).map(|c| c.text) {
        out.push(candidate(tagged, "answer_tag", true, is_plain(tagged)));
    }
    let statements =
        if mode == ExtractionMode::Auto { statement::last_statement(text, &segments) } else { Default::default() };
    let stated = statements.found;
    let conclusion = stated.as_ref().and_then(|st| statement::concluded_value(text, st, &segments));
    // "The final answer is X" outranks earlier boxes, as in the usual answer templates.
    if let Some(st) = stated.filter(|st| st.is_final) {
        if let Some(value) = &conclusion {
            out.push(candidate(value, "final_answer_conclusion", false, is_plain(value)));
        }
        let stripped = strip_delimiters(st.sentence);
        out.push(candidate(&stripped, "final_answer_phrase", word_count(&stripped) <= 3, is_plain(st.sentence)));
    }
    match boxes(region) {
        scan::Boxed::None => {}
        scan::Boxed::Run(contents) => {
            if contents.len() > 1 && !allow_multiple_boxed {
                return Extraction::Hedged(contents);
            }
            let joined = contents.join("; ");
            out.push(candidate(&joined, if contents.len() > 1 { "boxed_list" } else { "boxed" }, true, false));
        }
    }
    if let Some(marked) = anatomy.get(Marker::Gsm8kMarker) {
        let number = gsm8k_answer(marked.text);
        let plain = is_plain(&number);
        out.push(candidate(&number, "gsm8k_marker", false, plain));
    }
    if mode == ExtractionMode::Boxed {
        return Extraction::Candidates(out);
    }
    if mode == ExtractionMode::Whole {
        out.push(candidate(&strip_delimiters(text), "whole", true, is_plain(text)));
        return Extraction::Candidates(out);
    }
    if text.len() <= 400 {
        let whole = strip_delimiters(text);
        let allow_text = word_count(&whole) <= 3 || text.contains("\\text");
        out.push(candidate(&whole, "whole", allow_text, is_plain(text)));
    }
    if !fallbacks {
        return Extraction::Candidates(out);
    }
    if let Some(st) = stated {
        if let Some(value) = &conclusion {
            out.push(candidate(value, "answer_phrase_conclusion", false, is_plain(value)));
        }
        let (marker_end, sentence) = (st.value_start, st.sentence);
        let trimmed = sentence.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '：' | '*'));
        if let Some(seg) = segments
            .iter()
            .find(|s| s.valid && s.start >= marker_end && s.start <= marker_end + (sentence.len() - trimmed.len()) + 4)
        {
            out.push(candidate(&seg.content, "answer_phrase", true, false));
        }
        let stripped = strip_delimiters(trimmed);
        out.push(candidate(&stripped, "answer_phrase", word_count(&stripped) <= 3, is_plain(trimmed)));
        if let Some((value, rule)) = statement::first_value(text, &st, &segments) {
            out.push(candidate(&value, rule, false, is_plain(&value)));
        }
    }
    // The latest of: the last formula, the last short bold value, the last number; before a
    // last statement that only restates the question.
    let limit = statements.restated_from.unwrap_or(text.len());
    let (text, segments) = (&text[..limit], &segments[..segments.partition_point(|s| s.end <= limit)]);
    let mut positional: Vec<(usize, Candidate)> = Vec::new();
    if let Some(last) = segments.iter().rposition(|s| s.valid) {
        // Formulas joined by `and`/`or` (`$x=1$ and $x=-1$`) are read together, so a hedge is
        // not credited as its last part and a list answer is read whole.
        let mut first = last;
        while first > 0
            && segments[first - 1].valid
            && scan::is_joiner(&text[segments[first - 1].end..segments[first].start])
        {
            first -= 1;
        }
        let joined: Vec<&str> = segments[first..=last].iter().map(|s| s.content.as_str()).collect();
        let rule = if first == last { "last_formula" } else { "last_formulas" };
        positional.push((segments[last].end, candidate(&joined.join("; "), rule, false, false)));
    }
    if let Some((end, content)) = bold_spans(text).into_iter().next_back() {
        positional.push((end, candidate(&content, "bold", false, is_plain(&content))));
    }
    let prose = side == Side::Response || word_count(text) >= 5;
    if prose && let Some((number, end)) = last_number(text, segments) {
        positional.push((end, candidate(&number, "last_number", false, true)));
    }
    positional.sort_by_key(|b| std::cmp::Reverse(b.0));
    out.extend(positional.into_iter().map(|(_, c)| c));
    Extraction::Candidates(out)
}
