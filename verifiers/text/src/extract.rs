//! Answer extraction for the text verifiers, on the shared response anatomy
//! ([`referee_core::anatomy`]): reasoning is dropped unless `reasoning: "keep"`, and the markers
//! mean what they mean everywhere else in Referee.

use referee_core::anatomy::{Anatomy, Marker, Reasoning};
use referee_core::utoipa::{self, ToSchema};
use serde::Deserialize;

/// Where to find the answer inside a full response before comparing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Extraction {
    /// Compare the whole final text (the response after its reasoning).
    #[default]
    None,
    /// The content of the last `<answer>` tag (up to `</answer>`, or the end when it is missing).
    AnswerTag,
    /// The content of the last `\boxed{...}` or `\fbox{...}`, braces balanced.
    Boxed,
    /// The first line after the last `Answer:` or `Final answer:` (any case), or the sentence
    /// after the last "the final answer is".
    AnswerLine,
    /// The rest of the last line that starts with `####` (GSM8K's final-answer marker).
    Gsm8kMarker,
    /// The first marker present, in the anatomy's order (answer tag, boxed, `####`, answer
    /// line), else the whole final text.
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
            Extraction::Gsm8kMarker => "gsm8k_marker",
            Extraction::Auto => "auto",
        }
    }
}

/// The answer of the highest-priority candidate among `markers` (an answer line's first line).
fn answer_text<'a>(anatomy: &Anatomy<'a>, markers: &[Marker]) -> Option<&'a str> {
    anatomy.first_of(markers).map(|found| found.answer())
}

/// Extracts the answer from `response`, or `None` when the requested marker is absent (or the
/// reasoning never closed, so there is no final text).
///
/// `Auto` fails only when there is no final text: without a marker the final text is the answer.
pub fn extract(response: &str, how: Extraction, reasoning: Reasoning) -> Option<&str> {
    let anatomy = Anatomy::read_with(response, reasoning);
    if anatomy.reasoning_unclosed() {
        return None;
    }
    match how {
        Extraction::None => Some(anatomy.final_text()),
        Extraction::AnswerTag => answer_text(&anatomy, &[Marker::AnswerTag]),
        Extraction::Boxed => answer_text(&anatomy, &[Marker::Boxed]),
        Extraction::AnswerLine => answer_text(&anatomy, &[Marker::AnswerLine]),
        Extraction::Gsm8kMarker => answer_text(&anatomy, &[Marker::Gsm8kMarker]),
        Extraction::Auto => {
            const AUTO: [Marker; 4] = [Marker::AnswerTag, Marker::Boxed, Marker::Gsm8kMarker, Marker::AnswerLine];
            answer_text(&anatomy, &AUTO).or(Some(anatomy.final_text()))
        }
    }
}

/// Why [`extract`] found nothing, for the item's verdict.
pub fn missing_reason(response: &str, how: Extraction, reasoning: Reasoning) -> String {
    if Anatomy::read_with(response, reasoning).reasoning_unclosed() {
        "the response ended inside its reasoning (`<think>` without `</think>`), so it has no answer".to_owned()
    } else {
        format!("no {} found in the response", how.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(response: &str, how: Extraction) -> Option<&str> {
        extract(response, how, Reasoning::Drop)
    }

    #[test]
    fn markers() {
        assert_eq!(ex("<answer>1</answer> then <ANSWER> 2 </Answer>", Extraction::AnswerTag), Some(" 2 "));
        assert_eq!(ex(r"\boxed{1} and \boxed{\frac{1}{2}}", Extraction::Boxed), Some(r"\frac{1}{2}"));
        assert_eq!(ex("work\n**Final Answer:** 42\n", Extraction::AnswerLine), Some("42"));
        assert_eq!(ex("The answer is 3", Extraction::AnswerLine), None);
        assert_eq!(ex("48 + 24 = 72\n#### 72\nI used 2 steps.", Extraction::Auto), Some("72"));
    }

    #[test]
    fn reasoning_is_dropped_unless_kept() {
        let response = "<think>Paris? No.</think>Lyon";
        assert_eq!(ex(response, Extraction::None), Some("Lyon"));
        assert_eq!(extract(response, Extraction::None, Reasoning::Keep), Some(response));
        assert_eq!(ex("<think>\\boxed{3}", Extraction::Auto), None);
        assert!(missing_reason("<think>\\boxed{3}", Extraction::Auto, Reasoning::Drop).contains("reasoning"));
    }

    #[test]
    fn auto_falls_back_to_the_final_text() {
        assert_eq!(ex("just 5", Extraction::Auto), Some("just 5"));
        assert_eq!(ex(r"x \boxed{5}", Extraction::Auto), Some("5"));
        assert_eq!(ex("x", Extraction::Boxed), None);
    }

    #[test]
    fn auto_agrees_with_the_shared_anatomy_fixture() {
        use referee_core::anatomy::fixtures::rows;
        for row in rows() {
            // `auto` accepts every marker but the fenced block, then falls back to the final text.
            let marked = [Marker::AnswerTag, Marker::Boxed, Marker::Gsm8kMarker, Marker::AnswerLine]
                .iter()
                .any(|m| row.candidates.contains_key(m));
            let expected = match (row.unclosed, marked) {
                (true, _) => None,
                (false, true) => row.answer.clone(),
                (false, false) => Some(row.final_text.clone()),
            };
            let found = ex(&row.response, Extraction::Auto).map(|a| a.trim().to_owned());
            assert_eq!(found, expected.map(|e| e.trim().to_owned()), "{}", row.name);
        }
    }
}
