use std::collections::BTreeSet;
use std::sync::LazyLock;

use referee_core::utoipa::{self, ToSchema};
use referee_core::{Budget, Description, Status, Verdict, Verifier, verify_each};
use regex::Regex;
use serde::Deserialize;

use referee_core::anatomy::{Anatomy, Marker};

/// Options assumed when neither `options` nor `num_options` is given: A to J.
const DEFAULT_OPTION_COUNT: u8 = 10;
/// A region longer than this is not a "bare" answer.
const BARE_ANSWER_MAX_CHARS: usize = 24;

/// The correct option letter(s): `"B"`, `"A, C"`, `"(B)"` or `["A", "C"]`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum ChoiceReference {
    /// One string naming one or more letters.
    Text(String),
    /// A list of letters.
    Letters(Vec<String>),
}

/// Extracts the option letter(s) a free-text response chooses ("The answer is (B)",
/// `\boxed{B}`, "**B**", `<answer>B</answer>`) and compares them with the reference. A response
/// that names more options than the reference has (hedging, "A or B") is incorrect.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MultipleChoiceInput {
    /// The model's output; its reasoning is ignored (the shared response anatomy), and a response
    /// whose `<think>` never closed is `unparseable`.
    pub response: String,
    /// The correct option letter(s).
    pub reference: ChoiceReference,
    /// The option texts in order (A first). Bounds the valid letters, and a response whose
    /// answer is exactly one option's text (ignoring case) chooses that option.
    #[serde(default)]
    pub options: Option<Vec<String>>,
    /// How many options there are when `options` is not given (default 10: A to J).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 26)]
    pub num_options: Option<u8>,
}

/// The `multiple-choice` verifier.
#[derive(Debug, Clone, Copy, Default)]
pub struct MultipleChoice;

/// Which marker located the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    Boxed,
    AnswerTag,
    AnswerPhrase,
    Bold,
    FinalLine,
    OptionText,
}

impl Rule {
    fn as_str(self) -> &'static str {
        match self {
            Rule::Boxed => "boxed",
            Rule::AnswerTag => "answer_tag",
            Rule::AnswerPhrase => "answer_phrase",
            Rule::Bold => "bold",
            Rule::FinalLine => "final_line",
            Rule::OptionText => "option_text",
        }
    }
}

static ANSWER_PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:final\s+answer|answer|correct\s+(?:option|choice)|best\s+(?:option|choice)|option|choice)\s*(?:is|would\s+be|will\s+be|should\s+be|:)\s*:?",
    )
    .unwrap_or_else(|e| unreachable!("static pattern: {e}"))
});
static BOLD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\*\*([^*\n]{1,60})\*\*").unwrap_or_else(|e| unreachable!("static pattern: {e}")));
static OPTION_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^A-Za-z0-9])\(?([A-Z])\)?(?:[^A-Za-z0-9]|$)")
        .unwrap_or_else(|e| unreachable!("static pattern: {e}"))
});

/// Words that follow the pronoun "I" in a response ("I think", "I would pick"): an `I` before
/// one of them, or before a contraction ("I'm", "I'd"), is not option I.
const PRONOUN_VERBS: &[&str] = &[
    "agree", "am", "assume", "believe", "bet", "can", "cannot", "choose", "conclude", "could", "do", "feel", "go",
    "guess", "have", "know", "lean", "may", "might", "must", "need", "pick", "prefer", "reckon", "say", "see",
    "select", "should", "suspect", "think", "want", "was", "will", "would",
];

/// Whether the `I` that ends at `end` of `region` is the pronoun, not option I.
fn is_pronoun(region: &str, end: usize) -> bool {
    let rest = &region[end..];
    if let Some(contraction) = rest.strip_prefix(['\'', '’']) {
        return contraction.starts_with(|c: char| c.is_ascii_lowercase());
    }
    let Some(after) = rest.strip_prefix(' ') else { return false };
    let word = after.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or_default();
    PRONOUN_VERBS.contains(&word)
}

/// The letters named in `region` that are valid options, in order of first mention.
fn letters_in(region: &str, valid: u8) -> BTreeSet<char> {
    let mut found = BTreeSet::new();
    // Overlapping tokens ("A,B") share a separator, so scan from each match's letter onwards.
    let mut at = 0;
    while let Some(caps) = OPTION_TOKEN.captures_at(region, at) {
        let Some(letter) = caps.get(1) else { break };
        let c = region[letter.range()].chars().next().unwrap_or('?');
        if (c as u32) < u32::from(b'A') + u32::from(valid) && !(c == 'I' && is_pronoun(region, letter.end())) {
            found.insert(c);
        }
        at = letter.end();
    }
    if found.is_empty() {
        let bare = region.trim().trim_matches(|c: char| "()[]*_.:$ ".contains(c));
        let mut chars = bare.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            let c = c.to_ascii_uppercase();
            if c.is_ascii_uppercase() && (c as u32) < u32::from(b'A') + u32::from(valid) {
                found.insert(c);
            }
        }
    }
    found
}

/// The sentence that follows the last answer phrase.
fn after_last_answer_phrase(text: &str) -> Option<&str> {
    let found = ANSWER_PHRASE.find_iter(text).last()?;
    let rest = &text[found.end()..];
    let end = rest.find('\n').unwrap_or(rest.len());
    let line = &rest[..end];
    let sentence_end = line.match_indices(". ").map(|(i, _)| i + 1).next().unwrap_or(line.len());
    Some(&line[..sentence_end])
}

impl MultipleChoice {
    /// Judges one item.
    pub fn judge(input: &MultipleChoiceInput) -> Verdict {
        let valid = match (&input.options, input.num_options) {
            (Some(options), _) => options.len().min(26) as u8,
            (None, Some(n)) => n.min(26),
            (None, None) => DEFAULT_OPTION_COUNT,
        };
        if valid == 0 {
            return Verdict::invalid_input("there must be at least one option");
        }
        let expected = match reference_letters(&input.reference, valid) {
            Ok(expected) => expected,
            Err(reason) => return Verdict::invalid_input(reason),
        };
        let anatomy = Anatomy::read(&input.response);
        if anatomy.reasoning_unclosed() {
            return Verdict::unparseable("the response ended inside its reasoning (`<think>` without `</think>`)");
        }
        let Some((rule, chosen)) = choose(&anatomy, valid, input.options.as_deref()) else {
            return Verdict::unparseable("no option letter found in the response");
        };
        let hedged = chosen.len() > expected.len();
        let verdict = if chosen == expected { Verdict::correct() } else { Verdict::new(0.0, Status::Incorrect) };
        verdict
            .with("chosen", chosen.iter().map(char::to_string).collect::<Vec<_>>())
            .with("expected", expected.iter().map(char::to_string).collect::<Vec<_>>())
            .with("rule", rule.as_str())
            .with("hedged", hedged)
    }
}

/// The letters the response chooses, from the most explicit marker present.
fn choose(anatomy: &Anatomy<'_>, valid: u8, options: Option<&[String]>) -> Option<(Rule, BTreeSet<char>)> {
    let response = anatomy.final_text();
    let marked = [
        (Rule::Boxed, anatomy.get(Marker::Boxed).map(|c| c.text)),
        (Rule::AnswerTag, anatomy.get(Marker::AnswerTag).map(|c| c.text)),
        (Rule::AnswerPhrase, after_last_answer_phrase(response)),
        (Rule::Bold, BOLD.captures_iter(response).last().and_then(|c| c.get(1)).map(|m| m.as_str())),
        (
            Rule::FinalLine,
            response
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .filter(|l| l.trim().chars().count() <= BARE_ANSWER_MAX_CHARS),
        ),
    ];
    for (rule, region) in marked {
        let Some(region) = region else { continue };
        let letters = letters_in(region, valid);
        if !letters.is_empty() {
            return Some((rule, letters));
        }
        if let Some(letter) = option_text_match(region, options) {
            return Some((Rule::OptionText, BTreeSet::from([letter])));
        }
    }
    None
}

/// The option whose text the region is, ignoring case and surrounding punctuation.
fn option_text_match(region: &str, options: Option<&[String]>) -> Option<char> {
    let region = region.trim().trim_matches(|c: char| ".*_:$ ".contains(c));
    let options = options?;
    let mut hits = options.iter().enumerate().filter(|(_, text)| text.trim().eq_ignore_ascii_case(region));
    let (index, _) = hits.next()?;
    if hits.next().is_some() {
        return None;
    }
    char::from_u32(u32::from(b'A') + index as u32)
}

fn reference_letters(reference: &ChoiceReference, valid: u8) -> Result<BTreeSet<char>, String> {
    let letters = match reference {
        ChoiceReference::Text(text) => letters_in(text, 26),
        ChoiceReference::Letters(list) => list.iter().flat_map(|l| letters_in(l, 26)).collect(),
    };
    if letters.is_empty() {
        return Err("the reference names no option letter".to_owned());
    }
    let last = char::from_u32(u32::from(b'A') + u32::from(valid) - 1).unwrap_or('Z');
    if let Some(bad) = letters.iter().find(|&&c| c > last) {
        return Err(format!("reference option {bad} is beyond the last option {last}"));
    }
    Ok(letters)
}

impl Verifier for MultipleChoice {
    type Input = MultipleChoiceInput;

    fn description(&self) -> Description {
        Description {
            id: "multiple-choice",
            version: "1",
            summary: "Extracts the option letter(s) a free-text response chooses, from the most explicit marker \
                      present: \\boxed{}, <answer> tags, 'the answer is (B)', a bold **B**, or a bare final \
                      line, or an option's exact text. Scores 1 when the chosen set equals the reference set. A \
                      response that names more options than the reference (hedging, 'A or B') scores 0.",
        }
    }

    fn verify_batch(&self, inputs: &[MultipleChoiceInput], budget: &Budget) -> Vec<Verdict> {
        verify_each(inputs, budget, |input, _| MultipleChoice::judge(input))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(response: &str, reference: &str) -> Verdict {
        MultipleChoice::judge(&MultipleChoiceInput {
            response: response.to_owned(),
            reference: ChoiceReference::Text(reference.to_owned()),
            options: None,
            num_options: Some(4),
        })
    }

    #[test]
    fn finds_the_choice() {
        for response in [
            "The answer is (B).",
            "Therefore the answer is B. A is wrong because it ignores friction.",
            r"So \boxed{B}",
            r"\boxed{\text{(B)}}",
            "<answer>B</answer>",
            "Let me think.\n**B**",
            "After comparing A and C... the correct option is: B",
            "B",
            "(b)",
            "Answer: **B**",
            "<think>maybe A or C</think>B",
        ] {
            assert_eq!(judge(response, "B").status, Status::Correct, "{response}");
        }
    }

    #[test]
    fn wrong_and_hedged() {
        assert_eq!(judge("The answer is (C).", "B").status, Status::Incorrect);
        let hedged = judge("The answer is (A) or (B).", "B");
        assert_eq!(hedged.status, Status::Incorrect);
        assert_eq!(hedged.details["hedged"], true);
        assert_eq!(judge(r"\boxed{A, B}", "B").status, Status::Incorrect);
        assert_eq!(judge("I have no idea what this question asks about at all", "B").status, Status::Unparseable);
    }

    /// With ten options (A to J, the default, as in MMLU-Pro), the pronoun "I" is not option I.
    #[test]
    fn the_pronoun_i_is_not_option_i() {
        let ten = |response: &str, reference: &str| {
            MultipleChoice::judge(&MultipleChoiceInput {
                response: response.to_owned(),
                reference: ChoiceReference::Text(reference.to_owned()),
                options: None,
                num_options: None,
            })
        };
        for response in ["I pick B", "I would say B.", "I'm sure it is B", "I think B", "I’d go with B"] {
            let verdict = ten(response, "B");
            assert_eq!(verdict.status, Status::Correct, "{response}: {:?}", verdict.details);
        }
        for response in ["I", "(I)", "The answer is I.", "I is correct", "I or B"] {
            let verdict = ten(response, "I");
            let hedged = response == "I or B";
            let expected = if hedged { Status::Incorrect } else { Status::Correct };
            assert_eq!(verdict.status, expected, "{response}: {:?}", verdict.details);
        }
    }

    #[test]
    fn several_letters_expected() {
        assert_eq!(judge(r"\boxed{A, C}", "A,C").status, Status::Correct);
        assert_eq!(judge(r"\boxed{C and A}", "A, C").status, Status::Correct);
        assert_eq!(judge(r"\boxed{A}", "A,C").status, Status::Incorrect);
    }

    #[test]
    fn option_text_and_bounds() {
        let input = MultipleChoiceInput {
            response: "The answer is: paris".to_owned(),
            reference: ChoiceReference::Letters(vec!["C".to_owned()]),
            options: Some(vec!["London".to_owned(), "Rome".to_owned(), "Paris".to_owned()]),
            num_options: None,
        };
        assert_eq!(MultipleChoice::judge(&input).status, Status::Correct);
        assert_eq!(judge("The answer is E", "B").status, Status::Unparseable);
        assert_eq!(judge("x", "E").status, Status::InvalidInput);
    }
}
