//! Answers stated in prose: "the answer is X", "Answer: X", "the final answer is X".
//!
//! Read as a careful reader would:
//!
//! - only a statement counts: the word "answer" (or a marker of another language) followed by
//!   a colon, `=`, a verb such as "is" (`the answer to part (a) is`), or starting a line as a
//!   label (a heading with the value below it, or the value right after it: `Answer $9$`); a
//!   sentence that merely mentions an answer ("since I need a decimal answer, ...") states
//!   nothing;
//! - the value is the one the sentence concludes with: "60 divided by 2, which is 30" states
//!   30, "5 + 3 = 8" states 8;
//! - a value written as an interval or a tuple (`[-2, 7]`, `(1, 2)`) is read whole;
//! - a last statement that only restates the question (it names an ordinal term such as
//!   `n^{\text{th}}`, or asks a question, and concludes with no value) is skipped for the
//!   statement before it.

use super::scan::{Segment, number_at, sentence_after};
use crate::work::tick;

/// Words that introduce an answer, lowercase (ASCII lowering keeps byte offsets; capitalised
/// non-ASCII markers are listed as such).
const MARKERS: &[&str] = &[
    "answer",
    "réponse",
    "reponse",
    "respuesta",
    "resposta",
    "risposta",
    "antwort",
    "ответ",
    "Ответ",
    "答案",
    "答：",
    "答:",
    "الإجابة",
    "الجواب",
    "उत्तर",
    "cevap",
    "jawaban",
    "câu trả lời",
    "정답",
    "答え",
    "lösung",
];

/// Verbs and particles between a marker and its value (`the answer is`, `la réponse est`,
/// `答案是`); matched as whole words.
const FILLERS: &[&str] = &[
    "is:",
    "is",
    "are",
    "was",
    "would be",
    "should be",
    "will be",
    "must be",
    "equals",
    "est",
    "es",
    "ist",
    "lautet",
    "é",
    "è",
    "là",
    "adalah",
    "है",
    "是",
    "为",
    "為",
    "は",
    "은",
    "는",
];

/// How far from the end of a text answer statements are looked for, in bytes.
const MARKER_WINDOW: usize = 3000;

/// Statements examined from the end before giving up (restatements are skipped).
const MAX_STATEMENTS: usize = 8;

/// A statement of the answer in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Statement<'a> {
    /// Byte offset of the marker word.
    pub start: usize,
    /// Byte offset where the stated value begins (after `is`, `:` and the like).
    pub value_start: usize,
    /// The rest of the sentence from `value_start`.
    pub sentence: &'a str,
    /// Whether it says "final answer".
    pub is_final: bool,
}

/// What the last answer statement of a text is, and where a skipped restatement begins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Statements<'a> {
    /// The last statement that does not merely restate the question.
    pub found: Option<Statement<'a>>,
    /// Where the sentence of the last statement that was skipped as a restatement begins: the
    /// text from there on holds no answer.
    pub restated_from: Option<usize>,
}

/// The last statement of the answer in `s` (its last few thousand bytes, where a final answer
/// sits), skipping restatements of the question.
pub fn last_statement<'a>(s: &'a str, segments: &[Segment]) -> Statements<'a> {
    let mut window = s.len().saturating_sub(MARKER_WINDOW);
    while !s.is_char_boundary(window) {
        window += 1;
    }
    let hay = s[window..].to_ascii_lowercase();
    let bytes = hay.as_bytes();
    tick(bytes.len() * 2);
    let mut out = Statements::default();
    let mut examined = 0;
    // One backward scan; checking first bytes keeps it to about one comparison per byte.
    for pos in (0..bytes.len()).rev() {
        let b = bytes[pos];
        for m in MARKERS {
            let mb = m.as_bytes();
            if mb[0] != b || !bytes[pos..].starts_with(mb) {
                continue;
            }
            let end = pos + mb.len();
            let whole_word = !bytes.get(end).is_some_and(u8::is_ascii_alphabetic)
                && (pos == 0 || !(m.is_ascii() && bytes[pos - 1].is_ascii_alphabetic()));
            let Some((value_start, label)) = whole_word.then(|| stated_value(&hay, pos, end, m)).flatten() else {
                continue;
            };
            examined += 1;
            // A "Final Answer" label introduces what follows (often a box) rather than stating
            // a value that outranks it.
            let is_final = !label && hay[..pos].trim_end().ends_with("final");
            let sentence = sentence_after(s, window + value_start, segments);
            let statement = Statement { start: window + pos, value_start: window + value_start, sentence, is_final };
            if restates_question(sentence) && concluded_value(s, &statement, segments).is_none() {
                // From the start of the statement's sentence (`Final answer: ...` whole).
                let line = hay[..pos].rfind('\n').map_or(0, |i| i + 1);
                let sentence_start = hay[..pos].rfind(". ").map_or(line, |i| line.max(i + 2));
                tick(pos - sentence_start);
                out.restated_from = Some(window + sentence_start);
                if examined >= MAX_STATEMENTS {
                    return out;
                }
                break;
            }
            out.found = Some(statement);
            return out;
        }
    }
    out
}

/// Where the value of the marker at `start..end` of the lowercased `hay` begins, when the
/// marker makes a statement, and whether it is only a label at the start of a line; `None`
/// when it only mentions an answer.
fn stated_value(hay: &str, start: usize, end: usize, marker: &str) -> Option<(usize, bool)> {
    let mut end = end;
    let mut stated = marker.ends_with([':', '：']);
    // `the answer to part (a) is`, `the answer for this problem is`: a short clause, then a verb.
    let rest = hay[end..].trim_start_matches([' ', '*', '_']);
    if marker == "answer"
        && let Some(clause) = ["to ", "for ", "of "].iter().find_map(|p| rest.strip_prefix(p))
    {
        let mut clause_end = clause.find(['.', ',', ';', '\n', '$']).unwrap_or(clause.len()).min(60);
        while !clause.is_char_boundary(clause_end) {
            clause_end -= 1;
        }
        let verb = clause[..clause_end]
            .match_indices(' ')
            .map(|(i, _)| i + 1)
            .find(|&i| ["is", "are", "was", "would be", "will be"].iter().any(|v| is_word_at(&clause[i..], v)));
        if let Some(at) = verb {
            end = hay.len() - clause.len() + at;
        }
    } else if let Some(at) = after_qualifiers(rest) {
        end = hay.len() - rest.len() + at;
    }
    loop {
        let rest = &hay[end..];
        let trimmed = rest.trim_start_matches([' ', '\t', '*', '_']);
        let separator = trimmed.strip_prefix([':', '：', '=']);
        end += rest.len() - trimmed.len();
        if let Some(after) = separator {
            end += trimmed.len() - after.len();
            stated = true;
            continue;
        }
        match FILLERS.iter().find(|f| is_word_at(trimmed, f)) {
            Some(filler) => {
                end += filler.len();
                stated = true;
            }
            None => break,
        }
    }
    // A label that starts a line: a heading with the value below it (`## Final Answer`), or
    // the value right after it (`Answer \[ 9 \]`, `Answer 9`).
    let line_start = hay[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = hay[line_start..start].trim_matches([' ', '#', '*', '_']).trim_end();
    let after = hay[end..].trim_start_matches([' ', '\t', '*', '_']);
    let label = (before.is_empty() || before == "final")
        && (after.starts_with(['\n', '\r', '$', '-', '(', '['])
            || after.starts_with("\\(")
            || after.starts_with("\\[")
            || after.starts_with(|c: char| c.is_ascii_digit()));
    (stated || label).then_some((end, !stated))
}

/// Words that make `answer <word> is` a sentence about something else (`to answer it is hard`).
const NOT_QUALIFIERS: &[&str] = &["it", "this", "that", "we", "i", "you", "they", "he", "she", "one"];

/// `la réponse finale est`, `la respuesta correcta es`, `the answer choices are`: one or two
/// words after the marker, then a verb or a colon; where that verb or colon starts.
fn after_qualifiers(rest: &str) -> Option<usize> {
    let mut at = 0;
    for _ in 0..2 {
        let tail = &rest[at..];
        let word_len = tail.find(|c: char| !c.is_alphabetic()).unwrap_or(tail.len());
        let word = &tail[..word_len];
        if word.is_empty() || word.chars().count() > 12 || NOT_QUALIFIERS.contains(&word) || FILLERS.contains(&word) {
            return None;
        }
        at += word_len;
        at += rest[at..].len() - rest[at..].trim_start_matches([' ', '*', '_']).len();
        let next = &rest[at..];
        if next.starts_with([':', '：', '=']) || FILLERS.iter().any(|f| is_word_at(next, f)) {
            return Some(at);
        }
    }
    None
}

/// True when `s` starts with the word `w` (not followed by a letter).
fn is_word_at(s: &str, w: &str) -> bool {
    s.starts_with(w) && !s[w.len()..].starts_with(|c: char| c.is_alphabetic())
}

/// Ordinal superscripts that name a term rather than give a value (`n^{\text{th}}`).
const ORDINALS: &[&str] = &["^{\\text{th}}", "^\\text{th}", "^{th}", "^{\\text{st}}", "^{\\text{nd}}", "^{\\text{rd}}"];

/// True when a statement's sentence names an ordinal term or asks a question: it restates
/// what is asked instead of answering it.
fn restates_question(sentence: &str) -> bool {
    ORDINALS.iter().any(|o| sentence.contains(o)) || sentence.trim_end().ends_with('?')
}

/// Phrases after which a sentence gives the value it concludes with, lowercase.
const CONCLUSIONS: &[&str] = &[
    " which is ",
    " which equals ",
    " which gives ",
    " which makes ",
    " which comes to ",
    " gives ",
    " giving ",
    " equals ",
    " is equal to ",
    " simplifies to ",
    " yields ",
    " resulting in ",
];

/// Words that may follow a concluded value (`which is 30 apples`) are few and plain; these
/// make the value part of a description instead (`which is 5 squared`, `3 more than 9`).
const NOT_A_TAIL: &[&str] = &[
    "squared",
    "cubed",
    "more",
    "less",
    "times",
    "plus",
    "minus",
    "over",
    "divided",
    "multiplied",
    "than",
    "of",
    "to",
    "by",
    "and",
    "or",
    "greater",
    "smaller",
    "larger",
    "fewer",
    "higher",
    "lower",
    "bigger",
    "the",
    "a",
    "an",
];

/// Words between a conclusion phrase and its value.
const LEADS: &[&str] = &["approximately ", "about ", "exactly ", "just ", "equal to ", "simply "];

/// The value the statement's sentence concludes with (`60 divided by 2, which is 30` gives
/// `30`, `5 + 3 = 8` gives `8`), as text; `None` when the sentence draws no conclusion.
pub fn concluded_value(s: &str, st: &Statement<'_>, segments: &[Segment]) -> Option<String> {
    let lower = st.sentence.to_ascii_lowercase();
    tick(lower.len() * CONCLUSIONS.len() / 4 + 1);
    let math = math_ranges(st.value_start, st.sentence.len(), segments);
    let outside = |i: usize| !math.iter().any(|r| r.contains(&i));
    let mut best: Option<usize> = None;
    for phrase in CONCLUSIONS {
        if let Some(at) = lower.rmatch_indices(phrase).map(|(i, _)| i).find(|&i| outside(i)) {
            best = best.max(Some(at + phrase.len()));
        }
    }
    // `5 + 3 = 8` in plain text: the left side must be arithmetic, or `x = 8` would lose its
    // variable.
    if let Some(eq) = lower.rmatch_indices('=').map(|(i, _)| i).find(|&i| outside(i))
        && !lower[..eq].bytes().any(|b| b.is_ascii_alphabetic())
        && lower[..eq].bytes().any(|b| b.is_ascii_digit())
    {
        best = best.max(Some(eq + 1));
    }
    let after = best?;
    let mut rest = &st.sentence[after..];
    loop {
        let trimmed = rest.trim_start();
        let lead = LEADS.iter().find(|l| trimmed.get(..l.len()).is_some_and(|head| head.eq_ignore_ascii_case(l)));
        match lead {
            Some(l) => rest = &trimmed[l.len()..],
            None => {
                rest = trimmed;
                break;
            }
        }
    }
    let at = st.value_start + (st.sentence.len() - rest.len());
    let (value, end) = value_at(s, at, segments)?;
    let tail = s.get(end..st.value_start + st.sentence.len())?;
    plain_tail(tail).then_some(value)
}

/// The byte ranges of the formulas inside `from..from + len`, relative to `from`.
fn math_ranges(from: usize, len: usize, segments: &[Segment]) -> Vec<std::ops::Range<usize>> {
    let first = segments.partition_point(|g| g.end <= from);
    segments[first..]
        .iter()
        .take_while(|g| g.start < from + len)
        .map(|g| g.start.saturating_sub(from)..g.end.saturating_sub(from))
        .collect()
}

/// A value at `at`: a formula starting there (its content), an interval or tuple, or a number;
/// with the offset where it ends.
fn value_at(s: &str, at: usize, segments: &[Segment]) -> Option<(String, usize)> {
    if let Some(seg) = segments.iter().find(|g| g.start == at && g.valid) {
        return Some((seg.content.trim().to_owned(), seg.end));
    }
    if let Some((group, end)) = bracket_group(s, at) {
        return Some((group.to_owned(), end));
    }
    let c = s[at..].chars().next()?;
    if c.is_ascii_digit() || c == '-' || s[at..].starts_with("\\frac") {
        return number_at(s, at);
    }
    None
}

/// True when what follows a value to the end of its sentence is nothing, punctuation, or a
/// word or two that do not continue the arithmetic (`30 apples`, not `5 squared`).
fn plain_tail(tail: &str) -> bool {
    let t = tail.trim().trim_end_matches(['.', ',', ';', ':', '!', ')', '*']).trim();
    if t.is_empty() {
        return true;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    words.len() <= 2
        && words.iter().all(|w| {
            let w = w.trim_end_matches([',', '.']);
            w.chars().all(char::is_alphabetic) && !NOT_A_TAIL.contains(&w.to_ascii_lowercase().as_str())
        })
}

/// An interval or tuple at `at` (`[-2, 7]`, `(1, 2]`, `\left(0, 1\right)`): its text and end,
/// when the brackets close on the same line and hold a comma at their own level.
pub fn bracket_group(s: &str, at: usize) -> Option<(&str, usize)> {
    let rest = &s[at..];
    let body_from = if rest.starts_with("\\left(") || rest.starts_with("\\left[") {
        6
    } else if rest.starts_with(['(', '[']) {
        1
    } else {
        return None;
    };
    let bytes = rest.as_bytes();
    let mut depth = 0usize;
    let mut comma = false;
    for (i, &b) in bytes.iter().enumerate().skip(body_from).take(400) {
        match b {
            b'\n' => return None,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b')' | b']' => {
                tick(i);
                return comma.then(|| (&rest[..=i], at + i + 1));
            }
            b',' if depth == 0 => comma = true,
            _ => {}
        }
    }
    None
}

/// The first value of a statement's sentence: an interval or tuple kept whole when the first
/// number sits inside one, else the first number.
pub fn first_value(s: &str, st: &Statement<'_>, segments: &[Segment]) -> Option<(String, &'static str)> {
    let end = st.value_start + st.sentence.len();
    let (number, number_start) = super::scan::first_number_at(s, st.value_start, end, segments)?;
    // The nearest opening bracket before the number, within the sentence.
    let opener = s[st.value_start..number_start].rfind(['(', '[']).map(|i| st.value_start + i);
    let opener = opener.map(|o| if s[..o].ends_with("\\left") { o - 5 } else { o });
    if let Some((group, group_end)) = opener.and_then(|o| bracket_group(s, o))
        && group_end <= end
        && group_end > number_start
    {
        return Some((group.to_owned(), "answer_phrase_group"));
    }
    Some((number, "answer_phrase_number"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::math_segments;

    fn stated(text: &str) -> Option<(String, Option<String>)> {
        let segments = math_segments(text);
        let st = last_statement(text, &segments).found?;
        Some((st.sentence.trim().to_owned(), concluded_value(text, &st, &segments)))
    }

    #[test]
    fn statements_and_mentions() {
        assert_eq!(stated("So the answer is 4."), Some(("4".into(), None)));
        assert_eq!(stated("Answer: 4"), Some(("4".into(), None)));
        assert_eq!(stated("The answer to part (b) is 7."), Some(("7".into(), None)));
        assert_eq!(stated("## Final Answer\n4"), Some(("4".into(), None)));
        assert_eq!(stated("Since I need a decimal answer, I divide 7 by 2."), None);
        assert_eq!(stated("To get the final answer, I need the remainder mod 4."), None);
        assert_eq!(stated("I checked my answer twice."), None);
        assert_eq!(stated("Donc la réponse finale est 4."), Some(("4".into(), None)));
        assert_eq!(stated("La respuesta correcta es: 4"), Some(("4".into(), None)));
        assert_eq!(stated("To answer it is hard."), None);
    }

    #[test]
    fn conclusions() {
        let concluded = |t: &str| stated(t).and_then(|(_, c)| c);
        assert_eq!(concluded("The answer is 60 divided by 2, which is 30.").as_deref(), Some("30"));
        assert_eq!(concluded("The answer is 5 + 3 = 8.").as_deref(), Some("8"));
        assert_eq!(concluded("The answer is x = 8."), None);
        assert_eq!(concluded("The answer is 25, which is 5 squared."), None);
        assert_eq!(concluded("The answer is 12, which is 3 more than 9."), None);
        assert_eq!(concluded("The answer is 12, which is 30 apples.").as_deref(), Some("30"));
        assert_eq!(concluded("The answer is $2+3$, which equals $5$.").as_deref(), Some("5"));
    }

    #[test]
    fn groups_are_read_whole() {
        assert_eq!(bracket_group("[-2, 7] and more", 0), Some(("[-2, 7]", 7)));
        assert_eq!(bracket_group("(1, 2]", 0), Some(("(1, 2]", 6)));
        assert_eq!(bracket_group("\\left(0, 1\\right)", 0), Some(("\\left(0, 1\\right)", 17)));
        assert_eq!(bracket_group("(5)", 0), None);
        assert_eq!(bracket_group("(1,\n2)", 0), None);
    }

    #[test]
    fn restatements_are_skipped() {
        let text = "So the answer is 298.\nFinal answer: the $n^{\\text{th}}$ term";
        let segments = math_segments(text);
        let found = last_statement(text, &segments);
        assert_eq!(found.found.map(|st| st.sentence.trim()), Some("298"));
        assert_eq!(found.restated_from, text.find("Final"));
    }

    #[test]
    fn multibyte_text_after_markers_never_panics() {
        for text in [
            "the answer to ééééééééééééééééééééééééééééééééééééééé is 5",
            "the answer to 日本日本日本日本日本日本日本日本日本日本日本日本日本日本 is 5",
            "the answer is 5, which is approximatelyé",
            "the answer is 5, which is é",
            "answer: [1. 2, 3]",
            "Answer 日本",
        ] {
            let segments = math_segments(text);
            if let Some(st) = last_statement(text, &segments).found {
                let _ = concluded_value(text, &st, &segments);
                let _ = first_value(text, &st, &segments);
            }
        }
    }
}
