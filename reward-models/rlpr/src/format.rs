//! The reference-answer substitution (`replace_answer_with_gt_batch`), the no-reasoning
//! baseline text (`get_scoreA`), the format check and the scoring mask.
//!
//! RLPR's structure checks are the reference code's, byte for byte: its counts of exact-case
//! tags and its regexes decide whether a response is scored and whether the format term holds.
//! They are deliberately stricter than the project's response anatomy
//! (`referee_core::anatomy`), since they define the reward the reference trains on. Where the
//! two read the same thing, the anatomy is used: whether the generated answer is blank
//! ([`answer_blank`], asked only with `score_blank_answers: false`) is read from the anatomy's
//! answer tag, after its turn-end cut and reasoning split.

use std::ops::Range;
use std::sync::LazyLock;

use referee_core::anatomy::{Anatomy, Marker};
use regex::Regex;
use serde::{Deserialize, Serialize};

/// The response structure a policy is trained to produce.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormatMode {
    /// `<think> reasoning </think> ... <answer> answer </answer>` (Qwen, DeepSeek).
    #[default]
    R1,
    /// `... <answer> answer </answer>` without a thinking block (Llama, Gemma).
    R1Nothink,
}

const THINK: &str = "<think>";
const THINK_END: &str = "</think>";
const ANSWER: &str = "<answer>";
const ANSWER_END: &str = "</answer>";

static R1_SHAPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)\A.*<think>.*</think>.*<answer>.*\z").unwrap_or_else(|e| unreachable!("static pattern: {e}"))
});
static R1_FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)\A<think>.*</think>.*<answer>.*</answer>.*\z")
        .unwrap_or_else(|e| unreachable!("static pattern: {e}"))
});
static NOTHINK_FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)\A.*<answer>.*</answer>.*\z").unwrap_or_else(|e| unreachable!("static pattern: {e}"))
});

/// A text to score and the characters of the reference answer in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substituted {
    pub text: String,
    /// Byte range of the reference answer in `text`.
    pub answer: Range<usize>,
}

/// The format term of the reward (`format_reward`): each tag exactly once, in order, and for
/// `R1` the response opens with `<think>`.
pub fn format_ok(response: &str, mode: FormatMode) -> bool {
    let once = |tag: &str| response.matches(tag).count() == 1;
    match mode {
        FormatMode::R1 => {
            once(THINK) && once(THINK_END) && once(ANSWER) && once(ANSWER_END) && R1_FORMAT.is_match(response)
        }
        FormatMode::R1Nothink => once(ANSWER) && once(ANSWER_END) && NOTHINK_FORMAT.is_match(response),
    }
}

/// The response with its answer replaced by `reference`, as the policy is scored on it, or
/// `None` when the response lacks the structure or its answer is blank ([`answer_blank`]).
///
/// `response` is the generated text without padding; `eos` is appended when it does not end
/// with it. For `R1`, the response needs exactly one `<think>`, `</think>` and `<answer>`, in
/// that order; the result keeps everything up to the last `</think>` and the text between it
/// and `<answer>`, then `<answer>` + leading whitespace of the generated answer (one space if
/// none) + `reference` + `" </answer>"` + `eos`. `R1Nothink` needs one `<answer>` and keeps
/// everything before it.
pub fn substitute(response: &str, reference: &str, eos: &str, mode: FormatMode) -> Option<Substituted> {
    substitute_any(response, reference, eos, mode).filter(|_| !answer_blank(response))
}

/// Whether the generated answer is blank, read as the project's response anatomy reads an
/// answer tag: the last `<answer>` of the final text (after the reasoning, before the turn's
/// end token) up to its `</answer>` or the end. A response without an answer tag there has no
/// answer, so it counts as blank too.
pub fn answer_blank(response: &str) -> bool {
    Anatomy::read(response).get(Marker::AnswerTag).is_none_or(|answer| answer.text.trim().is_empty())
}

/// The reference's substitution itself: the structure check and the substituted text, whatever
/// the generated answer is. The reference never finds a structured answer blank (it appends
/// the end-of-sequence text before looking, so the answer section always holds it), so this is
/// what it scores.
pub(crate) fn substitute_any(response: &str, reference: &str, eos: &str, mode: FormatMode) -> Option<Substituted> {
    let once = |tag: &str| response.matches(tag).count() == 1;
    let shaped = match mode {
        FormatMode::R1 => once(THINK) && once(THINK_END) && once(ANSWER) && R1_SHAPE.is_match(response),
        FormatMode::R1Nothink => once(ANSWER),
    };
    if !shaped {
        return None;
    }
    let answer_at = response.rfind(ANSWER)?;
    let generated = &response[answer_at + ANSWER.len()..];
    let generated = generated.strip_suffix(eos).filter(|_| !eos.is_empty()).unwrap_or(generated);
    let lead: &str = {
        let end = generated.find(|c: char| !matches!(c, ' ' | '\n' | '\t' | '\r')).unwrap_or(generated.len());
        if end == 0 { " " } else { &generated[..end] }
    };
    let mut text = String::with_capacity(answer_at + reference.len() + lead.len() + 32);
    text.push_str(&response[..answer_at]);
    text.push_str(ANSWER);
    text.push_str(lead);
    let start = text.len();
    text.push_str(reference);
    let end = text.len();
    text.push(' ');
    text.push_str(ANSWER_END);
    text.push_str(eos);
    Some(Substituted { text, answer: start..end })
}

/// The no-reasoning baseline (`get_scoreA`): the prompt, rendered up to the assistant's turn,
/// then `" " + reference + " " + eos`.
pub fn baseline(prompt: &str, reference: &str, eos: &str) -> Substituted {
    let mut text = String::with_capacity(prompt.len() + reference.len() + eos.len() + 2);
    text.push_str(prompt);
    text.push(' ');
    let start = text.len();
    text.push_str(reference);
    let end = text.len();
    text.push(' ');
    text.push_str(eos);
    Substituted { text, answer: start..end }
}

/// The scoring mask: the tokens whose byte span overlaps `answer` (a token straddling its
/// boundary counts), given each token's `(start, end)` offsets in the text.
pub fn overlap_mask(offsets: &[(usize, usize)], answer: &Range<usize>) -> Vec<bool> {
    offsets.iter().map(|&(start, end)| start < answer.end && end > answer.start).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EOS: &str = "<|im_end|>";

    #[test]
    fn the_answer_is_replaced_and_the_reasoning_kept() {
        let response = "<think>2+2 is 4</think>\nSo:\n<answer>\n 5 </answer><|im_end|>";
        let Some(out) = substitute(response, "4", EOS, FormatMode::R1) else { panic!("structured response") };
        assert_eq!(out.text, "<think>2+2 is 4</think>\nSo:\n<answer>\n 4 </answer><|im_end|>");
        assert_eq!(&out.text[out.answer.clone()], "4");
        // No whitespace before the generated answer: one space; eos appended once.
        let Some(out) = substitute("<think>x</think><answer>7</answer>", "42", EOS, FormatMode::R1) else {
            panic!("structured response")
        };
        assert_eq!(out.text, "<think>x</think><answer> 42 </answer><|im_end|>");
        assert_eq!(&out.text[out.answer], "42");
    }

    #[test]
    fn unstructured_responses_are_not_scored() {
        for response in [
            "just 4",
            "<think>a</think> no answer tag",
            "<answer>4</answer><think>late</think>",
            "<think>a</think><think>b</think><answer>4</answer>",
            "<think>a</think><answer>  </answer>",
            "<think>a</think><answer>1</answer><answer>2</answer>",
        ] {
            assert_eq!(substitute(response, "4", EOS, FormatMode::R1), None, "{response}");
        }
        let Some(out) = substitute("Reasoning. <answer>3</answer>", "4", EOS, FormatMode::R1Nothink) else {
            panic!("one answer tag is enough without thinking")
        };
        assert_eq!(out.text, "Reasoning. <answer> 4 </answer><|im_end|>");
    }

    #[test]
    fn the_format_term_wants_every_tag_once_in_order() {
        assert!(format_ok("<think>a</think> b <answer>c</answer>", FormatMode::R1));
        assert!(!format_ok("x<think>a</think><answer>c</answer>", FormatMode::R1), "must open with <think>");
        assert!(!format_ok("<think>a</think><answer>c", FormatMode::R1), "needs </answer>");
        assert!(format_ok("text <answer>c</answer>", FormatMode::R1Nothink));
        assert!(!format_ok("<answer>c</answer><answer>d</answer>", FormatMode::R1Nothink));
    }

    /// The text between a response's `<answer>` and its `</answer>` (or the end), as the
    /// reference cuts it: the answer the substitution replaces.
    fn replaced_answer(response: &str) -> &str {
        let Some(at) = response.rfind(ANSWER) else { return "" };
        response[at + ANSWER.len()..].split(ANSWER_END).next().unwrap_or_default()
    }

    /// Every row of the shared anatomy fixture that RLPR scores is read by RLPR as by the
    /// anatomy: the reasoning (R1) and the answer it replaces are the anatomy's reasoning and
    /// answer tag. Rows RLPR does not score fail its exact structure, which is stricter.
    #[test]
    fn rlpr_reads_the_shared_anatomy_fixture_as_the_anatomy_does() {
        let mut scored = 0;
        for row in referee_core::anatomy::fixtures::rows() {
            for mode in [FormatMode::R1, FormatMode::R1Nothink] {
                let Some(out) = substitute(&row.response, "REF", EOS, mode) else {
                    // Not scored: the exact structure fails, or the anatomy finds no non-blank
                    // answer tag.
                    let structured = substitute_any(&row.response, "REF", EOS, mode).is_some();
                    let answer = row.candidates.get(&Marker::AnswerTag).map(|a| a.trim().to_owned());
                    assert!(!structured || answer.is_none_or(|a| a.is_empty()), "{}: {mode:?}", row.name);
                    continue;
                };
                scored += 1;
                assert!(out.text.contains("REF </answer>"), "{}: {}", row.name, out.text);
                let answer = row.candidates.get(&Marker::AnswerTag);
                assert_eq!(answer.map(String::as_str), Some(replaced_answer(&row.response)), "{}", row.name);
                if mode == FormatMode::R1 {
                    let (open, close) = (row.response.find(THINK), row.response.rfind(THINK_END));
                    let reasoning = open.zip(close).map(|(o, c)| &row.response[o + THINK.len()..c]);
                    assert_eq!(row.reasoning.as_deref(), reasoning, "{}", row.name);
                }
            }
        }
        assert!(scored >= 3, "the fixture has structured responses ({scored} scored)");
    }

    /// Where RLPR deliberately differs from the anatomy: tags are exact-case and counted over
    /// the whole response, the format term wants the exact structure, and the reasoning is
    /// scored, not dropped.
    #[test]
    fn rlpr_keeps_the_reference_structure_where_the_anatomy_is_looser() {
        // The anatomy reads `<ANSWER>` (any case) and a second answer tag; RLPR's counts refuse.
        assert_eq!(substitute("<think>a</think><ANSWER>4</ANSWER>", "4", EOS, FormatMode::R1), None);
        assert_eq!(substitute("<think>a</think><answer>3</answer><answer>4</answer>", "4", EOS, FormatMode::R1), None);
        // A response with an answer but text before `<think>`: scored (the substitution's regex
        // allows it) but without the format term, as the reference's `format_reward` wants the
        // response to open with `<think>`.
        let response = "Sure. <think>a</think><answer>4</answer>";
        assert!(substitute(response, "4", EOS, FormatMode::R1).is_some());
        assert!(!format_ok(response, FormatMode::R1));
        // The substituted text keeps the reasoning: RLPR scores the answer after it.
        let Some(out) = substitute("<think>2+2=4</think><answer>5</answer>", "4", EOS, FormatMode::R1) else {
            panic!("structured")
        };
        assert!(out.text.starts_with("<think>2+2=4</think>"));
        // Blankness is the anatomy's: an answer that is only another turn's end token is blank.
        assert!(answer_blank("<think>a</think><answer><|endoftext|>"));
        assert!(!answer_blank("<think>a</think><answer> 4 </answer>"));
        assert_eq!(substitute("<think>a</think><answer><|endoftext|>", "4", EOS, FormatMode::R1), None);
        let Some(out) = substitute_any("<think>a</think><answer><|endoftext|>", "4", EOS, FormatMode::R1) else {
            panic!("the reference scores it")
        };
        assert_eq!(out.text, "<think>a</think><answer> 4 </answer><|im_end|>");
    }

    #[test]
    fn the_baseline_is_the_prompt_then_the_reference() {
        let out = baseline("<|im_start|>assistant\n", "x = 2", EOS);
        assert_eq!(out.text, "<|im_start|>assistant\n x = 2 <|im_end|>");
        assert_eq!(&out.text[out.answer], "x = 2");
    }

    #[test]
    fn boundary_tokens_join_the_mask() {
        // "ab| c|d |e": the answer is bytes 1..5 ("b cd").
        let offsets = [(0, 2), (2, 4), (4, 6), (6, 7), (7, 7)];
        assert_eq!(overlap_mask(&offsets, &(1..5)), [true, true, true, false, false]);
        assert_eq!(overlap_mask(&offsets, &(2..2)), [false; 5]);
    }
}
