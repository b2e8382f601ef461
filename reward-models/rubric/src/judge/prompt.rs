//! Prompts, one per kind of call, and the parsing of the judge's replies.
//!
//! `score`, `label` and `choices` criteria of one item share one call (the rubric template):
//! the judge reasons, then ends with a JSON object of verdicts by criterion name. `principle`
//! criteria get one call each (the principle template), because their score is the probability
//! of the answer token being "Yes": the token of the final answer's Yes or No, after any
//! reasoning, not the first token generated.

use referee_model_client::truncate;
use serde_json::Value;

use super::reply::TokenLogprobs;
use super::template::{
    CallKind, ChatMessage, DEFAULT_PRINCIPLE, DEFAULT_RUBRIC, MessageTemplate, PrincipleFormat, Template,
    TemplateError, Values,
};
use crate::model::CriterionKind;

/// What the judge is shown about the item.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub prompt: Option<&'a str>,
    pub reference: Option<&'a str>,
    pub response: &'a str,
}

/// A judge criterion as the templates need it.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub kind: &'a CriterionKind,
}

fn push_block(out: &mut String, title: &str, text: &str) {
    out.push_str(title);
    out.push_str(":\n```\n");
    out.push_str(text);
    out.push_str("\n```\n\n");
}

fn push_subject(out: &mut String, subject: &Subject<'_>) {
    if let Some(prompt) = subject.prompt {
        push_block(out, "Task", prompt);
    }
    if let Some(reference) = subject.reference {
        push_block(out, "Reference answer", reference);
    }
    push_block(out, "Response", subject.response);
}

/// The built-in block of what the judge is shown (`{subject}`): the task, the reference when
/// there is one, and the response, each in a fence.
pub fn subject_block(subject: &Subject<'_>) -> String {
    let mut out = String::new();
    push_subject(&mut out, subject);
    out
}

/// One line per criterion (`{criteria}`), with the options or the range it is answered in.
/// Built by concatenation, so braces or placeholders in the texts are never substituted.
pub fn criteria_block(criteria: &[Asked<'_>]) -> String {
    let mut out = String::new();
    for criterion in criteria {
        out.push_str("- ");
        out.push_str(criterion.name);
        out.push_str(": ");
        // A criterion without a description is asked by its name.
        out.push_str(if criterion.description.trim().is_empty() { criterion.name } else { criterion.description });
        match criterion.kind {
            CriterionKind::Choices { choices, .. } => {
                out.push_str(" (answer one of, worst to best: ");
                out.push_str(&choices.join(", "));
                out.push(')');
            }
            CriterionKind::Label { labels, .. } => {
                out.push_str(" (answer one of: ");
                out.push_str(&labels.join(", "));
                out.push(')');
            }
            CriterionKind::Score { min, max } => out.push_str(&format!(" (answer a number from {min} to {max})")),
            CriterionKind::Regex { .. }
            | CriterionKind::Keywords { .. }
            | CriterionKind::Length { .. }
            | CriterionKind::ValidJson
            | CriterionKind::JsonSchema { .. }
            | CriterionKind::Language { .. }
            | CriterionKind::Section { .. }
            | CriterionKind::Format { .. }
            | CriterionKind::Similarity { .. }
            | CriterionKind::Verifier { .. }
            | CriterionKind::Principle { .. } => {}
        }
        out.push('\n');
    }
    out
}

/// The prompt templates of the two kinds of call, parsed from the judge configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Templates {
    rubric: Template,
    principle: Template,
}

impl Templates {
    /// The templates of `judge.rubric_messages` (or the built-in rubric prompt) and of
    /// `judge.principle_messages`, RLBFF's chat format (`principle_format = "rlbff"`) or the
    /// built-in principle prompt. The error names the setting.
    pub fn new(
        rubric_messages: Option<&[MessageTemplate]>,
        principle_messages: Option<&[MessageTemplate]>,
        principle_format: PrincipleFormat,
    ) -> Result<Templates, TemplateError> {
        let rubric = match rubric_messages {
            Some(messages) => Template::parse(messages, CallKind::Rubric, "judge.rubric_messages")?,
            None => Template::user(DEFAULT_RUBRIC, CallKind::Rubric)?,
        };
        let principle = match (principle_messages, principle_format) {
            (Some(_), PrincipleFormat::Rlbff) => return Err(TemplateError::Both),
            (Some(messages), PrincipleFormat::Prompt) => {
                Template::parse(messages, CallKind::Principle, "judge.principle_messages")?
            }
            (None, PrincipleFormat::Rlbff) => Template::rlbff(),
            (None, PrincipleFormat::Prompt) => Template::user(DEFAULT_PRINCIPLE, CallKind::Principle)?,
        };
        Ok(Templates { rubric, principle })
    }

    /// The messages of a rubric call: several `score` / `label` / `choices` criteria at once.
    pub fn rubric(&self, subject: &Subject<'_>, criteria: &[Asked<'_>]) -> Vec<ChatMessage> {
        let (subject_text, criteria_text) = (subject_block(subject), criteria_block(criteria));
        self.rubric.render(&Values {
            prompt: subject.prompt,
            reference: subject.reference,
            response: subject.response,
            subject: &subject_text,
            criteria: &criteria_text,
            principle: "",
        })
    }

    /// The messages of a principle call (RLBFF): does the response fulfil `principle`.
    pub fn principle(&self, subject: &Subject<'_>, principle: &str) -> Vec<ChatMessage> {
        let subject_text = subject_block(subject);
        self.principle.render(&Values {
            prompt: subject.prompt,
            reference: subject.reference,
            response: subject.response,
            subject: &subject_text,
            criteria: "",
            principle,
        })
    }
}

/// The text after the model's reasoning: after the last `</think>`. A `<think>` that is never
/// closed means the answer was cut off.
fn after_thinking(reply: &str) -> Result<&str, String> {
    if let Some(at) = reply.rfind("</think>") {
        return Ok(&reply[at + "</think>".len()..]);
    }
    if reply.contains("<think>") {
        return Err("the judge's reasoning never ended (`<think>` without `</think>`)".to_owned());
    }
    Ok(reply)
}

/// The last JSON object in `text` that has a `verdicts` array.
fn verdicts_object(text: &str) -> Option<Vec<Value>> {
    let mut found = None;
    for (at, _) in text.match_indices('{') {
        let mut stream = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        if let Some(Ok(Value::Object(object))) = stream.next()
            && let Some(Value::Array(verdicts)) = object.get("verdicts")
        {
            found = Some(verdicts.clone());
        }
    }
    found
}

/// One criterion's parsed verdict: its score in [0, 1] and the judge's raw value.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub score: f64,
    pub raw: Value,
}

/// Reads the verdict of every criterion from a rubric-template reply, in the order asked.
pub fn parse_rubric_reply(reply: &str, criteria: &[Asked<'_>]) -> Result<Vec<Parsed>, String> {
    let text = after_thinking(reply)?;
    let verdicts =
        verdicts_object(text).ok_or_else(|| "the judge's reply has no JSON object with `verdicts`".to_owned())?;
    criteria
        .iter()
        .map(|criterion| {
            let mut matching = verdicts.iter().filter(|v| {
                v.get("name").and_then(Value::as_str).is_some_and(|n| n.trim().eq_ignore_ascii_case(criterion.name))
            });
            let entry = matching.next().ok_or_else(|| format!("the judge gave no verdict for `{}`", criterion.name))?;
            if matching.next().is_some() {
                return Err(format!("the judge gave several verdicts for `{}`", criterion.name));
            }
            let raw = entry.get("verdict").cloned().unwrap_or(Value::Null);
            let score = score_verdict(&raw, criterion).map_err(|e| format!("`{}`: {e}", criterion.name))?;
            Ok(Parsed { score, raw })
        })
        .collect()
}

fn pick<'a>(raw: &Value, options: &'a [String]) -> Result<(usize, &'a String), String> {
    let Value::String(text) = raw else {
        return Err(format!("the verdict {raw} is not one of the options"));
    };
    let text = text.trim().trim_matches(|c: char| c == '"' || c == '\'' || c == '.').trim();
    options
        .iter()
        .enumerate()
        .find(|(_, option)| option.trim().eq_ignore_ascii_case(text))
        .ok_or_else(|| format!("the verdict {raw} is not one of {}", options.join(", ")))
}

fn score_verdict(raw: &Value, criterion: &Asked<'_>) -> Result<f64, String> {
    match criterion.kind {
        CriterionKind::Choices { choices, scores } => {
            let (index, _) = pick(raw, choices)?;
            // Explicit tier scores (Rubicon) when the rubric gives them, else evenly spaced.
            match scores.as_ref().and_then(|scores| scores.get(index)) {
                Some(score) => Ok(*score),
                None => Ok(index as f64 / (choices.len() - 1).max(1) as f64),
            }
        }
        CriterionKind::Label { labels, passing } => {
            let (_, label) = pick(raw, labels)?;
            Ok(if passing.iter().any(|p| p.trim().eq_ignore_ascii_case(label.trim())) { 1.0 } else { 0.0 })
        }
        CriterionKind::Score { min, max } => {
            let value = raw
                .as_f64()
                .or_else(|| raw.as_str().and_then(|s| s.trim().parse::<f64>().ok()))
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("the verdict {raw} is not a number"))?;
            let clipped = value.clamp(*min, *max);
            Ok(if max > min { (clipped - min) / (max - min) } else { 1.0 })
        }
        CriterionKind::Regex { .. }
        | CriterionKind::Keywords { .. }
        | CriterionKind::Length { .. }
        | CriterionKind::ValidJson
        | CriterionKind::JsonSchema { .. }
        | CriterionKind::Language { .. }
        | CriterionKind::Section { .. }
        | CriterionKind::Format { .. }
        | CriterionKind::Similarity { .. }
        | CriterionKind::Verifier { .. }
        | CriterionKind::Principle { .. } => Err("not a rubric-template criterion".to_owned()),
    }
}

/// The judge's Yes or No to a principle, where it stands in the final answer, and how likely
/// each was where the answer was generated.
#[derive(Debug, Clone, PartialEq)]
pub struct PrincipleReading {
    /// The answer in the reply's text.
    pub yes: bool,
    /// P(Yes) normalised over Yes and No at the answer position, or 1 / 0 from the text.
    pub p_yes: f64,
    /// ln P(Yes) − ln P(No) at the answer position (RLBFF's reward); `None` from the text.
    pub logit: Option<f64>,
    /// True when only one of Yes and No was among the candidates and the other's probability
    /// was bounded (see [`MISSING_FLOOR`]).
    pub clamped: bool,
    /// Why the log-probs were not used, when the reading comes from the text although log-probs
    /// were returned.
    pub fallback: Option<String>,
}

impl PrincipleReading {
    /// `logprobs_at_answer` or `text`: what the score was read from.
    pub fn source(&self) -> &'static str {
        if self.logit.is_some() { "logprobs_at_answer" } else { "text" }
    }
}

/// The least probability given to Yes or No at the answer position. A side that is missing
/// from the top candidates is bounded by the least likely candidate returned and by the mass
/// the candidates leave over, and never below this, so P(Yes) is never exactly 0 or 1 and the
/// logit stays finite.
pub const MISSING_FLOOR: f64 = 1e-6;

/// "yes", "no" or something else: a candidate token's text without spaces and punctuation.
fn yes_or_no(token: &str) -> Option<bool> {
    let word = token.trim().trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    match word.as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// The Yes or No word starting at byte `at` of `text`, when the word there is exactly that.
fn word_at(text: &str, at: usize) -> Option<bool> {
    let word: String = text.get(at..)?.chars().take_while(|c| c.is_alphabetic()).collect::<String>().to_lowercase();
    match word.as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// Lines such as `Final Judgement: Yes` or `Verdict: No`, for judges that reason before they
/// answer without a `<think>` block.
fn marker() -> &'static regex::Regex {
    static MARKER: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    MARKER.get_or_init(|| {
        regex::Regex::new(
            r"(?i)\b(?:final\s+judge?ment|final\s+answer|final\s+verdict|judge?ment|verdict|answer)\s*[:：]\s*\**\s*(yes|no)\b",
        )
        .unwrap_or_else(|e| unreachable!("the marker pattern is valid: {e}"))
    })
}

/// The final answer's text (after the reasoning, leading blanks removed), the judge's Yes or No
/// and the byte offset of that word in it: the answer's first word, or the word after an
/// answer marker (`Final Judgement: Yes`) when the first word is neither. Markers that
/// disagree are an error.
pub fn principle_answer(reply: &str) -> Result<(&str, bool, usize), String> {
    let text = after_thinking(reply)?.trim_start();
    if let Some(yes) = word_at(text, 0) {
        return Ok((text, yes, 0));
    }
    let mut found: Option<(bool, usize)> = None;
    for captures in marker().captures_iter(text) {
        let Some(word) = captures.get(1) else { continue };
        let yes = word.as_str().eq_ignore_ascii_case("yes");
        match found {
            None => found = Some((yes, word.start())),
            Some((first, _)) if first != yes => {
                return Err(format!("the judge answered both Yes and No: {}", truncate(text.trim(), 80)));
            }
            Some(_) => {}
        }
    }
    let (yes, at) =
        found.ok_or_else(|| format!("the judge answered neither Yes nor No: {}", truncate(text.trim(), 80)))?;
    Ok((text, yes, at))
}

/// The candidates at the position of the answer word: the token stream's text after its
/// reasoning must spell the final answer through that word, and one token must start at the
/// word and be exactly Yes or No. `Err` says why the position cannot be located.
fn answer_candidates(
    tokens: &[TokenLogprobs],
    answer: &str,
    word: usize,
) -> Result<(usize, Vec<(String, f64)>), String> {
    if tokens.is_empty() {
        return Err("the judge returned no log-probs".to_owned());
    }
    let mut joined = String::new();
    let mut starts = Vec::with_capacity(tokens.len());
    for token in tokens {
        starts.push(joined.len());
        joined.push_str(&token.token);
    }
    // Tokens may split the tag (`</`, `think`, `>`): search the joined text, not single tokens.
    let after = match joined.rfind("</think>") {
        Some(at) => at + "</think>".len(),
        None if joined.contains("<think>") => return Err("the log-probs end inside the reasoning".to_owned()),
        None => 0,
    };
    let tail = &joined[after..];
    let begin = after + (tail.len() - tail.trim_start().len());
    let word_end = answer[word..].find(|c: char| !c.is_alphabetic()).map_or(answer.len(), |n| word + n);
    if joined.get(begin..begin + word_end) != answer.get(..word_end) {
        return Err("the log-probs do not spell the final answer".to_owned());
    }
    let target = begin + word;
    let index = starts
        .iter()
        .rposition(|&start| start <= target)
        .filter(|&i| joined[starts[i]..target].trim().is_empty())
        .ok_or_else(|| "no token starts at the answer".to_owned())?;
    let token = &tokens[index];
    if yes_or_no(&token.token).is_none() {
        return Err(format!("the answer's token is {:?}, not Yes or No", token.token));
    }
    let mut candidates = token.top.clone();
    if !candidates.iter().any(|(text, _)| *text == token.token) {
        candidates.push((token.token.clone(), token.logprob));
    }
    Ok((index, candidates))
}

/// Reads a principle reply: the Yes or No of the final answer (after any reasoning), and
/// P(Yes) from the log-probs at that answer's token when they can be located there, else 1 or 0
/// from the text. Anything but a Yes or a No is an error.
pub fn parse_principle_reply(reply: &str, tokens: &[TokenLogprobs]) -> Result<PrincipleReading, String> {
    let (answer, yes, word) = principle_answer(reply)?;
    let from_text = |fallback: Option<String>| PrincipleReading {
        yes,
        p_yes: if yes { 1.0 } else { 0.0 },
        logit: None,
        clamped: false,
        fallback,
    };
    let candidates = match answer_candidates(tokens, answer, word) {
        Ok((_, candidates)) => candidates,
        Err(_) if tokens.is_empty() => return Ok(from_text(None)),
        Err(reason) => return Ok(from_text(Some(reason))),
    };
    let probabilities: Vec<(Option<bool>, f64)> = candidates
        .iter()
        .map(|(text, logprob)| (yes_or_no(text), logprob.exp()))
        .filter(|(_, p)| p.is_finite())
        .collect();
    let sum = |side: bool| probabilities.iter().filter(|(s, _)| *s == Some(side)).map(|(_, p)| p).sum::<f64>();
    let (mut p_yes, mut p_no) = (sum(true), sum(false));
    // A side absent from the top candidates is at most as likely as the least likely one listed,
    // and at most the mass the listed ones leave.
    let smallest = probabilities.iter().map(|(_, p)| *p).fold(f64::INFINITY, f64::min);
    let left = (1.0 - probabilities.iter().map(|(_, p)| p).sum::<f64>()).max(0.0);
    let bound = smallest.min(left).max(MISSING_FLOOR);
    let clamped = p_yes == 0.0 || p_no == 0.0;
    if p_yes == 0.0 {
        p_yes = bound;
    }
    if p_no == 0.0 {
        p_no = bound;
    }
    let (p_yes, p_no) = (p_yes.max(MISSING_FLOOR), p_no.max(MISSING_FLOOR));
    Ok(PrincipleReading {
        yes,
        p_yes: p_yes / (p_yes + p_no),
        logit: Some(p_yes.ln() - p_no.ln()),
        clamped,
        fallback: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::config::JudgeConfig;

    fn kinds() -> Vec<(String, CriterionKind)> {
        vec![
            (
                "clarity".to_owned(),
                CriterionKind::Choices { choices: vec!["poor".into(), "fair".into(), "good".into()], scores: None },
            ),
            (
                "tone".to_owned(),
                CriterionKind::Label {
                    labels: vec!["rude".into(), "neutral".into(), "warm".into()],
                    passing: vec!["warm".into(), "neutral".into()],
                },
            ),
            ("depth".to_owned(), CriterionKind::Score { min: 1.0, max: 10.0 }),
        ]
    }

    fn asked(kinds: &[(String, CriterionKind)]) -> Vec<Asked<'_>> {
        kinds.iter().map(|(name, kind)| Asked { name, description: "d", kind }).collect()
    }

    fn default_templates() -> Templates {
        JudgeConfig::default().templates().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_rubric_template_lists_options_and_never_substitutes() {
        let kinds = kinds();
        let subject = Subject { prompt: Some("Write {response}"), reference: None, response: "{prompt} text" };
        let messages = default_templates().rubric(&subject, &asked(&kinds));
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0].role, "user");
        // The built-in template renders the prompt exactly as before templates were configurable,
        // so replies cached under its hash stay valid.
        let expected = "You are grading a response to a task against a list of criteria. Judge each criterion on \
            its own.\n\nTask:\n```\nWrite {response}\n```\n\nResponse:\n```\n{prompt} text\n```\n\nCriteria:\n\
            - clarity: d (answer one of, worst to best: poor, fair, good)\n- tone: d (answer one of: rude, neutral, \
            warm)\n- depth: d (answer a number from 1 to 10)\n\nFor each criterion, reason briefly, then give its \
            verdict under its exact name. End your answer with one JSON object and nothing after it:\n{\"verdicts\": \
            [{\"name\": \"<criterion name>\", \"reason\": \"<one sentence>\", \"verdict\": \"<one of the options, or a \
            number>\"}]}\n";
        assert_eq!(messages[0].content, expected);
        let principle = default_templates().principle(&subject, "Be {brief}");
        assert_eq!(
            principle[0].content,
            "You judge whether a response fulfils a principle.\n\nTask:\n```\nWrite {response}\n```\n\nResponse:\n\
             ```\n{prompt} text\n```\n\nPrinciple: Be {brief}\n\nDoes the response fulfil the principle? Answer with \
             exactly one word: Yes or No.\n"
        );
    }

    #[test]
    fn configured_templates_and_the_rlbff_format() {
        let subject = Subject { prompt: Some("Task"), reference: Some("Ref"), response: "Answer" };
        let config = JudgeConfig { principle_format: PrincipleFormat::Rlbff, ..JudgeConfig::default() };
        let rlbff = config.templates().unwrap_or_else(|e| panic!("{e}")).principle(&subject, "Short?");
        let roles: Vec<(&str, &str)> = rlbff.iter().map(|m| (m.role.as_str(), m.content.as_str())).collect();
        assert_eq!(roles, [("user", "Task"), ("assistant", "Answer"), ("principle", "Short?")]);

        let message =
            |role: &str, content: &str| MessageTemplate { role: role.to_owned(), content: content.to_owned() };
        let config = JudgeConfig {
            rubric_messages: Some(vec![
                message("system", "You grade strictly."),
                message("user", "{response}\n{criteria}Reference: {reference}"),
            ]),
            ..JudgeConfig::default()
        };
        let kinds = kinds();
        let rubric = config.templates().unwrap_or_else(|e| panic!("{e}")).rubric(&subject, &asked(&kinds));
        assert_eq!(rubric[0].content, "You grade strictly.");
        assert!(rubric[1].content.starts_with("Answer\n- clarity: d (answer one of"), "{}", rubric[1].content);
        assert!(rubric[1].content.ends_with("Reference: Ref"));

        let both = JudgeConfig {
            principle_format: PrincipleFormat::Rlbff,
            principle_messages: Some(vec![message("user", "{subject}{principle}")]),
            ..JudgeConfig::default()
        };
        assert_eq!(both.templates().err(), Some(TemplateError::Both));
        let misspelt = JudgeConfig {
            principle_messages: Some(vec![message("user", "{response} {principal}")]),
            ..JudgeConfig::default()
        };
        let error = misspelt.templates().err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("judge.principle_messages[0].content") && error.contains("`{principal}`"), "{error}");
    }

    #[test]
    fn rubric_replies_parse_every_kind() {
        let kinds = kinds();
        let reply = r#"<think>{"verdicts": []}</think> Clarity is fine.
            {"verdicts": [{"name": "clarity", "reason": "ok", "verdict": "Fair"},
                          {"name": "Tone", "verdict": "neutral."},
                          {"name": "depth", "verdict": "12"}]}"#;
        let parsed = parse_rubric_reply(reply, &asked(&kinds)).unwrap_or_else(|e| panic!("{e}"));
        let scores: Vec<f64> = parsed.iter().map(|p| p.score).collect();
        assert_eq!(scores, [0.5, 1.0, 1.0], "12 is clipped to 10");
        let low = r#"{"verdicts": [{"name": "clarity", "verdict": "poor"}, {"name": "tone", "verdict": "rude"},
            {"name": "depth", "verdict": 3.25}]}"#;
        let scores: Vec<f64> =
            parse_rubric_reply(low, &asked(&kinds)).unwrap_or_default().iter().map(|p| p.score).collect();
        assert_eq!(scores, [0.0, 0.0, 0.25]);
    }

    #[test]
    fn scored_tiers_score_as_given() {
        let kinds = vec![(
            "clarity".to_owned(),
            CriterionKind::Choices {
                choices: vec!["poor".into(), "fair".into(), "good".into()],
                scores: Some(vec![0.0, 0.2, 1.0]),
            },
        )];
        let reply = r#"{"verdicts": [{"name": "clarity", "verdict": "fair"}]}"#;
        let parsed = parse_rubric_reply(reply, &asked(&kinds)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed[0].score, 0.2, "Rubicon's tier score, not the evenly spaced 0.5");
    }

    #[test]
    fn bad_rubric_replies_are_errors() {
        let kinds = kinds();
        for (reply, needle) in [
            ("no json here", "no JSON object"),
            ("<think>still thinking", "never ended"),
            (
                r#"{"verdicts": [{"name": "clarity", "verdict": "good"}, {"name": "tone", "verdict": "warm"}]}"#,
                "no verdict for `depth`",
            ),
            (
                r#"{"verdicts": [{"name": "clarity", "verdict": "excellent"}, {"name": "tone", "verdict": "warm"}, {"name": "depth", "verdict": 5}]}"#,
                "not one of poor, fair, good",
            ),
            (
                r#"{"verdicts": [{"name": "clarity", "verdict": "good"}, {"name": "tone", "verdict": "warm"}, {"name": "depth", "verdict": "high"}]}"#,
                "not a number",
            ),
            (
                r#"{"verdicts": [{"name": "clarity", "verdict": "good"}, {"name": "clarity", "verdict": "poor"}, {"name": "tone", "verdict": "warm"}, {"name": "depth", "verdict": 5}]}"#,
                "several verdicts",
            ),
        ] {
            let error = parse_rubric_reply(reply, &asked(&kinds)).err().unwrap_or_default();
            assert!(error.contains(needle), "{reply}: {error}");
        }
    }

    /// A token stream: each token with its own log-prob and no other candidates.
    fn stream(texts: &[&str]) -> Vec<TokenLogprobs> {
        texts.iter().map(|t| TokenLogprobs { token: (*t).to_owned(), logprob: -0.01, top: Vec::new() }).collect()
    }

    fn top(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
        pairs.iter().map(|(t, p)| ((*t).to_owned(), p.ln())).collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn principle_scores_from_logprobs_or_text() {
        let mut tokens = stream(&["Yes"]);
        tokens[0].top = top(&[("Yes", 0.8), (" no", 0.1), ("Maybe", 0.05)]);
        let reading = parse_principle_reply("Yes", &tokens).unwrap_or_else(|e| panic!("{e}"));
        assert!(close(reading.p_yes, 0.8 / 0.9) && reading.source() == "logprobs_at_answer" && !reading.clamped);
        assert!(close(reading.logit.unwrap_or_default(), (0.8f64 / 0.1).ln()));
        let text = |reply: &str| parse_principle_reply(reply, &[]).map(|r| (r.p_yes, r.source()));
        assert_eq!(text("Yes."), Ok((1.0, "text")));
        assert_eq!(text("  no, it does not"), Ok((0.0, "text")));
        assert_eq!(text("<think>hmm</think>\nYES"), Ok((1.0, "text")));
        assert_eq!(text("The response is brief.\nFinal Judgement: No"), Ok((0.0, "text")));
        assert!(text("Perhaps").is_err());
        assert!(text("Yesterday").is_err());
        assert!(text("<think>Yes</think>").is_err(), "a Yes inside the reasoning is not an answer");
        assert!(text("Answer: Yes. Final answer: No").err().unwrap_or_default().contains("both"));
    }

    #[test]
    fn a_reasoning_judge_is_read_at_its_answer_not_its_first_token() {
        // The first token is `<think>`, with a "Yes" among its candidates; the reasoning says
        // "Yes" with confidence; the closing tag is split over three tokens; the answer is No.
        let mut tokens =
            stream(&["<think>", "\n", "Yes", ",", " it", " might", "\n", "</", "think", ">", "\n\n", "No"]);
        tokens[0].top = top(&[("<think>", 0.98), ("Yes", 0.01)]);
        tokens[2].top = top(&[("Yes", 0.9), ("No", 0.1)]);
        tokens[11].top = top(&[("No", 0.7), ("Yes", 0.2), ("Maybe", 0.1)]);
        let reply = "<think>\nYes, it might\n</think>\n\nNo";
        let reading = parse_principle_reply(reply, &tokens).unwrap_or_else(|e| panic!("{e}"));
        assert!(!reading.yes);
        assert!(close(reading.p_yes, 0.2 / 0.9), "{reading:?}");
        assert_eq!(reading.source(), "logprobs_at_answer");

        // A server with a reasoning parser returns only the answer as content; the log-probs still
        // cover the reasoning.
        let split = parse_principle_reply("No", &tokens).unwrap_or_else(|e| panic!("{e}"));
        assert!(close(split.p_yes, 0.2 / 0.9), "{split:?}");

        // Log-probs that stop inside the reasoning, or spell another answer, are not used.
        let cut = parse_principle_reply(reply, &tokens[..5]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((cut.p_yes, cut.source()), (0.0, "text"));
        assert_eq!(cut.fallback.as_deref(), Some("the log-probs end inside the reasoning"));
        let other = parse_principle_reply("<think>x</think>Yes", &tokens).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((other.p_yes, other.source()), (1.0, "text"));
        assert!(other.fallback.is_some());

        // An answer after a marker line is read at its own token.
        let mut marked = stream(&["The", " answer", " is", " clear", ".\n", "Final", " Judgement", ":", " Yes"]);
        marked[8].top = top(&[(" Yes", 0.6), (" No", 0.4)]);
        let reading = parse_principle_reply("The answer is clear.\nFinal Judgement: Yes", &marked)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(close(reading.p_yes, 0.6), "{reading:?}");
        // A word split over tokens cannot be read from one position.
        let pieces = stream(&["Y", "es"]);
        let reading = parse_principle_reply("Yes", &pieces).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((reading.p_yes, reading.source()), (1.0, "text"));
    }

    #[test]
    fn one_sided_candidates_are_clamped_never_certain() {
        // Only Yes among the candidates: No is at most as likely as the least likely candidate
        // (0.03) and at most what the candidates leave (1 − 0.95 − 0.03 = 0.02).
        let mut tokens = stream(&["Yes"]);
        tokens[0].top = top(&[("Yes", 0.95), ("Sure", 0.03)]);
        let reading = parse_principle_reply("Yes", &tokens).unwrap_or_else(|e| panic!("{e}"));
        assert!(reading.clamped && reading.p_yes < 1.0);
        assert!(close(reading.p_yes, 0.95 / (0.95 + 0.02)), "the mass left over bounds No: {reading:?}");
        // Only the chosen token, nothing else: No is bounded by 1 − P(Yes).
        let mut alone = stream(&["No"]);
        alone[0].logprob = 0.7f64.ln();
        let reading = parse_principle_reply("No", &alone).unwrap_or_else(|e| panic!("{e}"));
        assert!(reading.clamped && close(reading.p_yes, 0.3 / 1.0), "{reading:?}");
        // Certainty in the log-probs (ln 1 = 0) still leaves the floor.
        let mut certain = stream(&["Yes"]);
        certain[0].logprob = 0.0;
        let reading = parse_principle_reply("Yes", &certain).unwrap_or_else(|e| panic!("{e}"));
        assert!(reading.p_yes < 1.0 && close(reading.p_yes, 1.0 / (1.0 + MISSING_FLOOR)), "{reading:?}");
        assert!(close(reading.logit.unwrap_or_default(), -MISSING_FLOOR.ln()));
    }
}
