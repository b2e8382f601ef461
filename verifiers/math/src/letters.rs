//! Multiple-choice answers: a reference that is an option letter switches the answer side to
//! letter extraction.

use crate::extract::{answer_region, strip_delimiters};

/// Removes `\text{}`, `\boxed{}`, `\mathrm{}` wrappers and parentheses around a lone letter.
fn unwrap(s: &str) -> String {
    let mut t = strip_delimiters(s);
    for cmd in ["\\boxed", "\\text", "\\textbf", "\\mathrm", "\\mathbf", "\\fbox"] {
        t = t.replace(cmd, "");
    }
    t.chars().filter(|c| !matches!(c, '{' | '}')).collect::<String>().trim().trim_end_matches('.').trim().to_owned()
}

fn letter_alone(s: &str) -> Option<char> {
    let t = unwrap(s);
    let t = t.trim_start_matches('(').trim_end_matches(')').trim();
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() => Some(c),
        _ => None,
    }
}

/// A leading option label: `(D) Alina`, `C Cecile`, `D. it can't be`, `B不是 A`.
fn leading_label(s: &str, before_name: bool) -> Option<char> {
    let t = s.trim_start();
    let (paren, t) = match t.strip_prefix('(') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let mut chars = t.chars();
    let c = chars.next().filter(char::is_ascii_uppercase)?;
    let rest = chars.as_str();
    let rest = if paren { rest.strip_prefix(')')? } else { rest };
    let next = rest.chars().next();
    let ok = match next {
        None => true,
        Some('。' | '、') => true,
        Some('.' | ')' | ':' | ',') => rest[1..].chars().next().is_none_or(char::is_whitespace),
        Some(n) if !n.is_ascii() => true,
        // `C Cecile` in a reference: a space then a capitalised name.
        Some(' ') => paren || (before_name && rest.trim_start().starts_with(|x: char| x.is_uppercase())),
        Some('\n') => paren || before_name,
        _ => false,
    };
    ok.then_some(c)
}

/// Phrases after which the chosen letter follows.
const LETTER_MARKERS: &[&str] =
    &["answer is", "answer:", "answer", "réponse est", "réponse", "答案", "option", "choice"];

fn after_marker(s: &str) -> Option<&str> {
    let lower = s.to_ascii_lowercase();
    LETTER_MARKERS
        .iter()
        .filter_map(|m| lower.rfind(m).map(|p| (p, p + m.len())))
        .max_by_key(|(p, e)| (*p, *e))
        .map(|(_, e)| &s[e..])
}

/// The option letter a reference names, if it names one.
pub fn reference_letter(reference: &str) -> Option<char> {
    // An option label is short or ends a short answer; long references are solutions.
    if reference.len() > 300 || !reference.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    if let Some(c) = letter_alone(reference) {
        return Some(c);
    }
    let text = strip_delimiters(reference);
    if let Some(c) = leading_label(&text, true) {
        return Some(c);
    }
    after_marker(&text).and_then(|rest| leading_label(rest.trim_start_matches([':', ' ', '\n']), true))
}

/// The text after a leading `(X)` or `X` label.
fn after_label(s: &str) -> &str {
    let t = s.trim_start().trim_start_matches('(');
    t.chars().next().map_or("", |c| &t[c.len_utf8()..])
}

/// True when the letter at the start of `rest` is followed by another option joined with
/// `or`, `and`, `/` or a comma (`A or B`): a hedge, not a choice.
fn hedged_after(rest: &str) -> bool {
    let t = rest.trim_start();
    let t = t.trim_start_matches(')');
    let t = t.trim_start();
    let joined = ["or ", "and ", "/", ","].iter().find_map(|j| t.strip_prefix(j));
    let Some(next) = joined else { return false };
    leading_label(next.trim_start(), false).is_some() || {
        let n = next.trim_start().trim_start_matches('(');
        let mut chars = n.chars();
        chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.next().is_none_or(|c| !c.is_ascii_alphanumeric())
    }
}

/// The option letter a response chooses: boxed, leading, after an answer phrase, or the last
/// standalone option letter. A hedge (`A or B`, `\boxed{A, B}`) chooses nothing.
pub fn response_letter(response: &str, reference: char) -> Option<(char, &'static str)> {
    let text = answer_region(response);
    let highest = reference.max('E');
    if let crate::extract::Extraction::Candidates(c) =
        crate::extract::extract(text, crate::options::ExtractionMode::Boxed, true, crate::extract::Side::Response)
        && let Some(first) = c.first()
    {
        // A box is the answer: a letter in it, a leading label (`(B) 12`), or nothing.
        let inner = unwrap(&first.text);
        let label = letter_alone(&first.text).or_else(|| leading_label(&inner, false));
        return label.filter(|_| !hedged_after(after_label(&inner))).map(|l| (l, "boxed_letter"));
    }
    let stripped = strip_delimiters(text);
    if let Some(l) = letter_alone(&stripped) {
        return Some((l, "letter"));
    }
    if let Some(l) = leading_label(&stripped, false).filter(|l| *l <= highest) {
        return (!hedged_after(after_label(&stripped))).then_some((l, "leading_letter"));
    }
    if let Some(rest) = after_marker(&stripped) {
        let letters = standalone_letter_positions(rest, highest);
        if let Some((at, l)) = letters.first() {
            return (!hedged_after(&rest[at + 1..])).then_some((*l, "answer_phrase_letter"));
        }
    }
    standalone_letters(&stripped, highest).last().map(|l| (*l, "last_letter"))
}

fn standalone_letter_positions(s: &str, highest: char) -> Vec<(usize, char)> {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut out = Vec::new();
    for (k, (at, c)) in chars.iter().enumerate() {
        if !c.is_ascii_uppercase() || *c > highest {
            continue;
        }
        let before = k.checked_sub(1).map(|j| chars[j].1);
        let after = chars.get(k + 1).map(|x| x.1);
        let boundary = |x: Option<char>| x.is_none_or(|x| !x.is_ascii_alphanumeric() && x != '\'');
        if boundary(before) && boundary(after) {
            out.push((*at, *c));
        }
    }
    out
}

fn standalone_letters(s: &str, highest: char) -> Vec<char> {
    standalone_letter_positions(s, highest).into_iter().map(|(_, c)| c).collect()
}
