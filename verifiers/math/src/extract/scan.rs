//! Scanners over raw response text: math delimiters, boxes, markers, bold spans, numbers.

use crate::lexer::braced;
use crate::work::tick;

/// A delimited formula in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Byte offset of the opening delimiter.
    pub start: usize,
    /// Byte offset just past the closing delimiter.
    pub end: usize,
    /// The text between the delimiters.
    pub content: String,
    /// False for inline math that spans a line break, which is not a formula (`$ \n 9 \n $`):
    /// its content is neither an answer nor a source of numbers.
    pub valid: bool,
}

/// True when an odd run of backslashes ends just before `at`. Callers ask only at the few
/// bytes that can open or close a formula, so each run of backslashes is walked at most once
/// or twice and the scan stays linear.
fn escaped(bytes: &[u8], at: usize) -> bool {
    let mut n = 0;
    let mut i = at;
    while i > 0 && bytes[i - 1] == b'\\' {
        n += 1;
        i -= 1;
    }
    tick(n);
    n % 2 == 1
}

fn find_unescaped(s: &str, from: usize, pat: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut at = from;
    while let Some(rel) = s.get(at..)?.find(pat) {
        tick(rel + 1);
        let pos = at + rel;
        if !escaped(bytes, pos) {
            return Some(pos);
        }
        at = pos + 1;
    }
    None
}

/// Every `$...$`, `$$...$$`, `\(...\)` and `\[...\]` formula, in order.
pub fn math_segments(s: &str) -> Vec<Segment> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    // Once a closing delimiter is missing from some point on, it is missing from every later
    // point too: remembering that keeps unmatched openers linear instead of quadratic.
    let mut unclosed: Vec<&str> = Vec::new();
    let mut i = 0;
    tick(bytes.len());
    while i < bytes.len() {
        // The next byte is looked at before the backslashes behind: a run of backslashes
        // costs one walk back, not one per backslash.
        let (open_len, close, inline) = match bytes[i] {
            b'$' if !escaped(bytes, i) => {
                if bytes.get(i + 1) == Some(&b'$') {
                    (2, "$$", false)
                } else {
                    (1, "$", true)
                }
            }
            b'\\' if bytes.get(i + 1) == Some(&b'(') && !escaped(bytes, i) => (2, "\\)", true),
            b'\\' if bytes.get(i + 1) == Some(&b'[') && !escaped(bytes, i) => (2, "\\]", false),
            _ => {
                i += 1;
                continue;
            }
        };
        let body_start = i + open_len;
        let found = if unclosed.contains(&close) { None } else { find_unescaped(s, body_start, close) };
        let Some(close_at) = found else {
            unclosed.push(close);
            i += open_len;
            continue;
        };
        let content = &s[body_start..close_at];
        let valid = !(inline && content.contains('\n'));
        out.push(Segment { start: i, end: close_at + close.len(), content: content.to_owned(), valid });
        i = close_at + close.len();
    }
    out
}

/// The boxed answers of a response.
pub enum Boxed {
    None,
    /// The contents of the last run of boxes joined by short separators, duplicates removed.
    Run(Vec<String>),
}

fn box_spans(s: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut starts: Vec<(usize, usize)> =
        ["\\boxed", "\\fbox"].iter().flat_map(|p| s.match_indices(p).map(|(i, m)| (i, m.len()))).collect();
    starts.sort_unstable();
    let mut at = 0;
    tick(s.len());
    for (start, len) in starts {
        tick(1);
        if start < at {
            continue;
        }
        let after = &s[start + len..];
        if after.starts_with(|c: char| c.is_ascii_alphabetic()) {
            at = start + len;
            continue;
        }
        let trimmed = after.trim_start();
        let skipped = after.len() - trimmed.len();
        let body_start = start + len + skipped;
        if let Some((rest, content)) = braced(trimmed) {
            let end = s.len() - rest.len();
            out.push((start, end, content.to_owned()));
            at = end;
        } else if let Some(body) = trimmed.strip_prefix('{') {
            // Unclosed: everything to the end is the box.
            out.push((start, s.len(), body.to_owned()));
            break;
        } else {
            // `\boxed 5`: one token.
            let token: String = trimmed.chars().take_while(|c| !c.is_whitespace() && *c != '$').collect();
            tick(token.len());
            let end = body_start + token.len();
            if !token.is_empty() {
                out.push((start, end, token));
            }
            at = end.max(start + len);
        }
    }
    out
}

/// True when the text between two boxes is a short separator (`and`, `,`, `\quad`).
fn short_gap(gap: &str) -> bool {
    if gap.len() > 80 || gap.contains("\n\n") || gap.to_ascii_lowercase().contains("answer") {
        return false;
    }
    let mut words = 0;
    for w in gap.split(|c: char| c.is_whitespace() || c == '{' || c == '}' || c == '$') {
        let w = w.trim_start_matches('\\');
        if matches!(w, "text" | "quad" | "qquad" | "mbox" | "textbf" | "(" | ")" | "[" | "]") {
            continue;
        }
        if w.chars().any(char::is_alphanumeric) {
            words += 1;
        }
    }
    words <= 4
}

/// The boxed answers: the last box, joined with the boxes before it while the gaps are short.
pub fn boxes(s: &str) -> Boxed {
    let spans = box_spans(s);
    let Some(last) = spans.last() else {
        return Boxed::None;
    };
    let mut first = spans.len() - 1;
    while first > 0 && short_gap(&s[spans[first - 1].1..spans[first].0]) {
        tick(spans[first].0 - spans[first - 1].1 + 1);
        first -= 1;
    }
    let mut contents: Vec<String> = Vec::new();
    // Boxes that differ only in spacing are one answer; a set keeps a long run linear.
    let mut seen = std::collections::HashSet::new();
    for (_, _, c) in &spans[first..] {
        tick(c.len() + 1);
        let c = c.trim().to_owned();
        if seen.insert(c.split_whitespace().collect::<Vec<_>>().join(" ")) {
            contents.push(c);
        }
    }
    // `\boxed{28}\%` or `$\boxed{28}$ percent`: the unit sits outside the box.
    let after = s[last.1..].trim_start_matches(|c: char| c.is_whitespace() || c == '$');
    let lower = after.to_ascii_lowercase();
    if contents.len() == 1
        && (after.starts_with('%')
            || after.starts_with("\\%")
            || lower.starts_with("percent")
            || lower.starts_with("pct"))
        && let Some(only) = contents.first_mut()
    {
        only.push_str("\\%");
    }
    Boxed::Run(contents)
}

/// The text from `from` to the end of its sentence; formulas do not end sentences.
pub fn sentence_after<'a>(s: &'a str, from: usize, segments: &[Segment]) -> &'a str {
    let bytes = s.as_bytes();
    let mut i = from;
    // Segments are in text order; `next` walks them alongside `i`.
    let mut next = segments.partition_point(|g| g.start < from);
    let mut steps = 0;
    while i < s.len() {
        steps += 1;
        while next < segments.len() && segments[next].start < i {
            next += 1;
        }
        if let Some(seg) = segments.get(next).filter(|g| g.start == i && g.valid) {
            i = seg.end;
            continue;
        }
        let c = s[i..].chars().next().unwrap_or(' ');
        let ends = match c {
            '\n' | '。' => true,
            '.' => bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()),
            _ => false,
        };
        if ends && i > from {
            tick(steps);
            return &s[from..i];
        }
        i += c.len_utf8();
    }
    tick(steps);
    &s[from..]
}

/// Short `**bold**` spans that contain a digit, with their end offsets.
pub fn bold_spans(s: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    tick(s.len());
    while let Some(rel) = s[at..].find("**") {
        let start = at + rel + 2;
        let Some(len) = s[start..].find("**") else {
            break;
        };
        tick(1);
        let content = &s[start..start + len];
        if content.len() <= 40 && content.chars().any(|c| c.is_ascii_digit()) {
            out.push((start + len + 2, content.to_owned()));
        }
        at = start + len + 2;
    }
    out
}

fn inside_invalid(pos: usize, segments: &[Segment]) -> bool {
    // Segments are in text order and do not overlap: only the last one starting at or before
    // `pos` can contain it.
    let at = segments.partition_point(|g| g.start <= pos);
    at.checked_sub(1).and_then(|k| segments.get(k)).is_some_and(|g| !g.valid && pos < g.end)
}

/// `{digits}` at the start of `s` (spaces and a minus sign allowed) and what follows it. The
/// scan stops at the first other character, so an unclosed `\frac{1}{` costs a few bytes, not
/// the rest of the text.
fn digit_group(s: &str) -> Option<(&str, &str)> {
    let body = s.strip_prefix('{')?;
    let len = body.find(|c: char| !(c.is_ascii_digit() || c == ' ' || c == '-'))?;
    tick(len + 1);
    body[len..].starts_with('}').then(|| (&body[len + 1..], &body[..len]))
}

/// A number token at `i` (`-12,000.5`, `2/3`, `25%`, `\frac{2}{5}`): its text and end.
pub(super) fn number_at(s: &str, i: usize) -> Option<(String, usize)> {
    let rest = &s[i..];
    for cmd in ["\\frac", "\\dfrac", "\\tfrac"] {
        if let Some(after) = rest.strip_prefix(cmd)
            && let Some((r1, a)) = digit_group(after)
            && let Some((r2, b)) = digit_group(r1)
            && a.trim().trim_start_matches('-').chars().all(|c| c.is_ascii_digit())
            && b.trim().chars().all(|c| c.is_ascii_digit())
            && !a.trim().is_empty()
            && !b.trim().is_empty()
        {
            return Some((rest[..rest.len() - r2.len()].to_owned(), s.len() - r2.len()));
        }
    }
    if let Some(c) = rest.chars().next().filter(|&c| crate::latex::vulgar_fraction(c).is_some()) {
        return Some((c.to_string(), i + c.len_utf8()));
    }
    let bytes = s.as_bytes();
    let mut j = i;
    if bytes.get(j) == Some(&b'-') {
        j += 1;
    }
    let digits_start = j;
    while j < bytes.len() && bytes[j].is_ascii_digit() {
        j += 1;
    }
    if j == digits_start {
        return None;
    }
    loop {
        // Separators inside a number: `12,000`, `12,\!000`, `2,74`, `1.5`.
        let sep_len = if s[j..].starts_with(",\\!") {
            3
        } else if matches!(bytes.get(j), Some(b',' | b'.')) {
            1
        } else {
            0
        };
        if sep_len == 0 {
            break;
        }
        let k = j + sep_len;
        let mut m = k;
        while m < bytes.len() && bytes[m].is_ascii_digit() {
            m += 1;
        }
        if m == k {
            break;
        }
        j = m;
    }
    if bytes.get(j) == Some(&b'/') {
        let mut m = j + 1;
        while m < bytes.len() && bytes[m].is_ascii_digit() {
            m += 1;
        }
        if m > j + 1 {
            j = m;
        }
    }
    // A whole number and a vulgar fraction are one mixed number: `137½`, `137 ½`, `137 and ½`.
    for joint in ["", " ", " and "] {
        if let Some(c) = s[j..].strip_prefix(joint).and_then(|r| r.chars().next())
            && crate::latex::vulgar_fraction(c).is_some()
        {
            j += joint.len() + c.len_utf8();
            break;
        }
    }
    let mut text = s[i..j].replace(",\\!", ",");
    let tail = &s[j..];
    let spaced = tail.trim_start();
    if spaced.starts_with('%') || spaced.starts_with("\\%") {
        text.push('%');
    }
    Some((text, j))
}

fn numbers(s: &str, from: usize, to: usize, segments: &[Segment]) -> Vec<(String, usize, usize)> {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    tick(to.saturating_sub(from));
    while i < to {
        let starts = bytes[i].is_ascii_digit()
            || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
            || s[i..].chars().next().is_some_and(|c| crate::latex::vulgar_fraction(c).is_some())
            || s[i..].starts_with("\\frac")
            || s[i..].starts_with("\\dfrac")
            || s[i..].starts_with("\\tfrac");
        let after_digit = i > 0 && (bytes[i - 1].is_ascii_digit() || bytes[i - 1] == b'.');
        if starts
            && !after_digit
            && !inside_invalid(i, segments)
            && let Some((text, end)) = number_at(s, i)
        {
            out.push((text, i, end));
            i = end.max(i + 1);
            continue;
        }
        i += s[i..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// Words that join numbers into one answer (`2 and 3`) or a hedge (`4 or 5`).
/// Words that join answers into one list.
const JOINERS: &[&str] = &["or", "and", "ou", "et", "oder", "und", "o", "y", "或", "和", "或者"];

pub fn is_joiner(gap: &str) -> bool {
    let words: Vec<&str> = gap.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    words.len() == 1 && JOINERS.contains(&words[0].to_lowercase().as_str())
}

/// The last number in the text, outside malformed formulas, together with the numbers joined
/// to it by `and`/`or` (`4 or 5` is read whole so a hedge is not credited as its last part).
pub fn last_number(s: &str, segments: &[Segment]) -> Option<(String, usize)> {
    let all = numbers(s, 0, s.len(), segments);
    let (_, _, end) = all.last()?;
    // The run of numbers joined to the last one, found first and written once: building the
    // text number by number would copy it once per number.
    let mut first = all.len() - 1;
    while first > 0 && is_joiner(&s[all[first - 1].2..all[first].1]) {
        tick(all[first].1 - all[first - 1].2 + 1);
        first -= 1;
    }
    let mut text = String::new();
    for (k, (number, _, _)) in all[first..].iter().enumerate() {
        if k > 0 {
            text.push_str(&s[all[first + k - 1].2..all[first + k].1]);
        }
        text.push_str(number);
    }
    tick(text.len());
    Some((text, *end))
}

/// The first number between `from` and `to`, with its start.
pub fn first_number_at(s: &str, from: usize, to: usize, segments: &[Segment]) -> Option<(String, usize)> {
    numbers(s, from, to.min(s.len()), segments).into_iter().next().map(|(t, start, _)| (t, start))
}
