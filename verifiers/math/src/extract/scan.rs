//! Scanners over raw response text: math delimiters, boxes, markers, bold spans, numbers.

use crate::lexer::braced;

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

fn escaped(bytes: &[u8], at: usize) -> bool {
    let mut n = 0;
    let mut i = at;
    while i > 0 && bytes[i - 1] == b'\\' {
        n += 1;
        i -= 1;
    }
    n % 2 == 1
}

fn find_unescaped(s: &str, from: usize, pat: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut at = from;
    while let Some(rel) = s.get(at..)?.find(pat) {
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
    while i < bytes.len() {
        let (open_len, close, inline) = match bytes[i] {
            b'$' if !escaped(bytes, i) => {
                if bytes.get(i + 1) == Some(&b'$') {
                    (2, "$$", false)
                } else {
                    (1, "$", true)
                }
            }
            b'\\' if !escaped(bytes, i) && bytes.get(i + 1) == Some(&b'(') => (2, "\\)", true),
            b'\\' if !escaped(bytes, i) && bytes.get(i + 1) == Some(&b'[') => (2, "\\]", false),
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
    for (start, len) in starts {
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
        first -= 1;
    }
    let mut contents: Vec<String> = Vec::new();
    for (_, _, c) in &spans[first..] {
        let c = c.trim().to_owned();
        if !contents.iter().any(|x| x.split_whitespace().eq(c.split_whitespace())) {
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

/// Phrases that introduce a final answer, lowercase.
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

/// Byte offset just after the last answer marker, with fillers such as `is` skipped, and
/// whether the marker was "final answer".
pub fn find_markers(s: &str) -> Option<(usize, bool)> {
    // A final answer sits near the end: only the last few thousand bytes are searched.
    let mut window = s.len().saturating_sub(MARKER_WINDOW);
    while !s.is_char_boundary(window) {
        window += 1;
    }
    find_markers_in(&s[window..]).map(|(end, is_final)| (window + end, is_final))
}

/// How far from the end of a text answer phrases are looked for, in bytes.
const MARKER_WINDOW: usize = 3000;

fn find_markers_in(s: &str) -> Option<(usize, bool)> {
    // ASCII lowering keeps byte offsets; capitalised non-ASCII markers are listed as such.
    let hay = s.to_ascii_lowercase();
    let bytes = hay.as_bytes();
    // One backward scan: the first position (from the end) where a marker starts as a whole
    // word is the last marker; checking first bytes keeps it to one comparison per byte.
    let mut best: Option<(usize, usize)> = None;
    'scan: for pos in (0..bytes.len()).rev() {
        let b = bytes[pos];
        for m in MARKERS {
            let mb = m.as_bytes();
            if mb[0] != b || !bytes[pos..].starts_with(mb) {
                continue;
            }
            let end = pos + mb.len();
            let next_is_letter = bytes.get(end).is_some_and(u8::is_ascii_alphabetic);
            if !next_is_letter {
                best = Some((pos, end));
                break 'scan;
            }
        }
    }
    let (start, mut end) = best?;
    let is_final = hay[..start].trim_end().ends_with("final") && hay[end..].trim_start().starts_with(['i', ':']);
    loop {
        let rest = &hay[end..];
        let trimmed = rest.trim_start_matches([' ', '\t', ':', '：', '*', '=']);
        end += rest.len() - trimmed.len();
        let mut advanced = false;
        for filler in ["is", "est", "was", "es", "ist", "是", "would be", "should be", "will be", "is:"] {
            if trimmed.starts_with(filler) && !trimmed[filler.len()..].starts_with(|c: char| c.is_ascii_alphabetic()) {
                end += filler.len();
                advanced = true;
                break;
            }
        }
        if !advanced {
            break;
        }
    }
    Some((end, is_final))
}

/// The text from `from` to the end of its sentence; formulas do not end sentences.
pub fn sentence_after<'a>(s: &'a str, from: usize, segments: &[Segment]) -> &'a str {
    let bytes = s.as_bytes();
    let mut i = from;
    // Segments are in text order; `next` walks them alongside `i`.
    let mut next = segments.partition_point(|g| g.start < from);
    while i < s.len() {
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
            return &s[from..i];
        }
        i += c.len_utf8();
    }
    &s[from..]
}

/// Short `**bold**` spans that contain a digit, with their end offsets.
pub fn bold_spans(s: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(rel) = s[at..].find("**") {
        let start = at + rel + 2;
        let Some(len) = s[start..].find("**") else {
            break;
        };
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

/// A number token at `i` (`-12,000.5`, `2/3`, `25%`, `\frac{2}{5}`): its text and end.
fn number_at(s: &str, i: usize) -> Option<(String, usize)> {
    let rest = &s[i..];
    for cmd in ["\\frac", "\\dfrac", "\\tfrac"] {
        if let Some(after) = rest.strip_prefix(cmd)
            && let Some((r1, a)) = braced(after)
            && let Some((r2, b)) = braced(r1)
            && a.trim().trim_start_matches('-').chars().all(|c| c.is_ascii_digit())
            && b.trim().chars().all(|c| c.is_ascii_digit())
            && !a.trim().is_empty()
            && !b.trim().is_empty()
        {
            return Some((rest[..rest.len() - r2.len()].to_owned(), s.len() - r2.len()));
        }
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
    while i < to {
        let starts = bytes[i].is_ascii_digit()
            || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
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
    let (mut text, mut start, end) = all.last()?.clone();
    for (prev, prev_start, prev_end) in all.iter().rev().skip(1) {
        if !is_joiner(&s[*prev_end..start]) {
            break;
        }
        text = format!("{prev}{}{text}", &s[*prev_end..start]);
        start = *prev_start;
    }
    Some((text, end))
}

/// The first number between `from` and `to`.
pub fn first_number(s: &str, from: usize, to: usize, segments: &[Segment]) -> Option<(String, usize)> {
    numbers(s, from, to.min(s.len()), segments).into_iter().next().map(|(t, _, e)| (t, e))
}
