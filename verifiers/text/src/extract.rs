use referee_core::utoipa::{self, ToSchema};
use serde::Deserialize;

/// Where to find the answer inside a full response before comparing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Extraction {
    /// Compare the whole response.
    #[default]
    None,
    /// The content of the last `<answer>...</answer>` pair.
    AnswerTag,
    /// The content of the last `\boxed{...}` or `\fbox{...}`, braces balanced.
    Boxed,
    /// The rest of the last line that starts with `Answer:` or `Final answer:` (any case).
    AnswerLine,
    /// The first of answer tag, boxed, answer line that is present, else the whole response.
    Auto,
}

impl Extraction {
    /// The wire name, for details.
    pub fn as_str(self) -> &'static str {
        match self {
            Extraction::None => "none",
            Extraction::AnswerTag => "answer_tag",
            Extraction::Boxed => "boxed",
            Extraction::AnswerLine => "answer_line",
            Extraction::Auto => "auto",
        }
    }
}

/// Extracts the answer from `response`, or `None` when the requested marker is absent.
///
/// `Auto` never fails: without a marker the whole response is the answer.
pub fn extract(response: &str, how: Extraction) -> Option<&str> {
    match how {
        Extraction::None => Some(response),
        Extraction::AnswerTag => last_answer_tag(response),
        Extraction::Boxed => last_boxed(response),
        Extraction::AnswerLine => last_answer_line(response),
        Extraction::Auto => last_answer_tag(response)
            .or_else(|| last_boxed(response))
            .or_else(|| last_answer_line(response))
            .or(Some(response)),
    }
}

/// The content of the last complete `<answer>...</answer>` pair (tag names in any case).
pub(crate) fn last_answer_tag(text: &str) -> Option<&str> {
    const OPEN: &str = "<answer>";
    const CLOSE: &str = "</answer>";
    let close = rfind_ascii_ci(text, CLOSE)?;
    let open = rfind_ascii_ci(&text[..close], OPEN)?;
    Some(&text[open + OPEN.len()..close])
}

/// The content of the last `\boxed{...}` or `\fbox{...}` whose braces balance.
pub(crate) fn last_boxed(text: &str) -> Option<&str> {
    let mut best: Option<(usize, &str)> = None;
    for command in ["\\boxed", "\\fbox"] {
        let mut search_end = text.len();
        while let Some(at) = text[..search_end].rfind(command) {
            if let Some(content) = braced_after(&text[at + command.len()..]) {
                if best.is_none_or(|(pos, _)| at > pos) {
                    best = Some((at, content));
                }
                break;
            }
            search_end = at;
        }
    }
    best.map(|(_, content)| content)
}

/// The content of a `{...}` group at the start of `rest` (after optional spaces), braces
/// balanced and `\{`, `\}` skipped.
pub(crate) fn braced_after(rest: &str) -> Option<&str> {
    let body = rest.trim_start();
    let inner = body.strip_prefix('{')?;
    let mut depth = 1usize;
    let mut escaped = false;
    for (i, c) in inner.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&inner[..i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The rest of the last line that starts with `Answer:` or `Final answer:`, markdown bold and
/// heading marks allowed in front.
pub(crate) fn last_answer_line(text: &str) -> Option<&str> {
    text.lines().rev().find_map(|line| {
        let line = line.trim_start().trim_start_matches(['#', '*', '_', ' ']);
        ["final answer", "answer"].iter().find_map(|marker| {
            let head = line.get(..marker.len())?;
            if !head.eq_ignore_ascii_case(marker) {
                return None;
            }
            let rest = line[marker.len()..].trim_start_matches(['*', '_']).trim_start();
            let rest = rest.strip_prefix(':')?;
            Some(rest.trim_start_matches(['*', '_']).trim().trim_end_matches(['*', '_']).trim())
        })
    })
}

/// Byte offset of the last ASCII-case-insensitive occurrence of `needle` in `haystack`.
fn rfind_ascii_ci(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    if n.len() > h.len() {
        return None;
    }
    (0..=h.len() - n.len()).rev().find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_tag_takes_the_last_pair() {
        let text = "<answer>1</answer> then <ANSWER> 2 </Answer>";
        assert_eq!(last_answer_tag(text), Some(" 2 "));
        assert_eq!(last_answer_tag("<answer>unterminated"), None);
    }

    #[test]
    fn boxed_balances_braces_and_takes_the_last() {
        assert_eq!(last_boxed(r"\boxed{1} and \boxed{\frac{1}{2}}"), Some(r"\frac{1}{2}"));
        assert_eq!(last_boxed(r"\fbox{7} after \boxed{3}"), Some("3"));
        assert_eq!(last_boxed(r"\boxed{3} after \fbox{7}"), Some("7"));
        assert_eq!(last_boxed(r"\boxed{3} then \boxed{unclosed"), Some("3"));
        assert_eq!(last_boxed(r"\boxed {\{x\}}"), Some(r"\{x\}"));
        assert_eq!(last_boxed("no box"), None);
    }

    #[test]
    fn answer_line_accepts_markdown() {
        assert_eq!(last_answer_line("work\n**Final Answer:** 42\n"), Some("42"));
        assert_eq!(last_answer_line("Answer: 1\nanswer: 2"), Some("2"));
        assert_eq!(last_answer_line("The answer is 3"), None);
    }

    #[test]
    fn auto_falls_back_to_the_whole_response() {
        assert_eq!(extract("just 5", Extraction::Auto), Some("just 5"));
        assert_eq!(extract(r"x \boxed{5}", Extraction::Auto), Some("5"));
        assert_eq!(extract("x", Extraction::Boxed), None);
    }

    #[test]
    fn never_panics_on_multibyte_text() {
        for text in ["ä\\boxed{é}ö", "<answer>日本</answer>", "Answé: x", "ß\u{0}\\boxed"] {
            for how in [Extraction::AnswerTag, Extraction::Boxed, Extraction::AnswerLine, Extraction::Auto] {
                let _ = extract(text, how);
            }
        }
    }
}
