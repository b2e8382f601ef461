//! Prompt templates, one per judge kind, and the parsing of the judge's replies.
//!
//! `score`, `label` and `choices` criteria of one item share one call (the rubric template):
//! the judge reasons, then ends with a JSON object of verdicts by criterion name. `principle`
//! criteria get one call each (the principle template), because their score is the probability
//! of the first answer token being "Yes".

use serde_json::Value;

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

/// The rubric template: several `score` / `label` / `choices` criteria in one call. Built by
/// concatenation, so braces or placeholders in the texts are never substituted.
pub fn rubric_prompt(subject: &Subject<'_>, criteria: &[Asked<'_>]) -> String {
    let mut out = String::from(
        "You are grading a response to a task against a list of criteria. Judge each criterion on its own.\n\n",
    );
    push_subject(&mut out, subject);
    out.push_str("Criteria:\n");
    for criterion in criteria {
        out.push_str("- ");
        out.push_str(criterion.name);
        out.push_str(": ");
        // A criterion without a description is asked by its name.
        out.push_str(if criterion.description.trim().is_empty() { criterion.name } else { criterion.description });
        match criterion.kind {
            CriterionKind::Choices { choices } => {
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
            | CriterionKind::Principle => {}
        }
        out.push('\n');
    }
    out.push_str(
        "\nFor each criterion, reason briefly, then give its verdict under its exact name. End your answer with one \
         JSON object and nothing after it:\n{\"verdicts\": [{\"name\": \"<criterion name>\", \"reason\": \"<one \
         sentence>\", \"verdict\": \"<one of the options, or a number>\"}]}\n",
    );
    out
}

/// The principle template (RLBFF): does the response fulfil one principle, Yes or No.
pub fn principle_prompt(subject: &Subject<'_>, principle: &str) -> String {
    let mut out = String::from("You judge whether a response fulfils a principle.\n\n");
    push_subject(&mut out, subject);
    out.push_str("Principle: ");
    out.push_str(principle);
    out.push_str("\n\nDoes the response fulfil the principle? Answer with exactly one word: Yes or No.\n");
    out
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
        CriterionKind::Choices { choices } => {
            let (index, _) = pick(raw, choices)?;
            Ok(index as f64 / (choices.len() - 1).max(1) as f64)
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
        | CriterionKind::Principle => Err("not a rubric-template criterion".to_owned()),
    }
}

/// The score of a principle reply: P(Yes) normalised over Yes and No among the first token's
/// log-probs when they hold either, else 1 for a Yes and 0 for a No. Anything else is an error.
pub fn parse_principle_reply(reply: &str, first_token: &[(String, f64)]) -> Result<(f64, bool), String> {
    let mut yes = 0.0;
    let mut no = 0.0;
    for (token, logprob) in first_token {
        match token.trim().to_lowercase().as_str() {
            "yes" => yes += logprob.exp(),
            "no" => no += logprob.exp(),
            _ => {}
        }
    }
    if yes + no > 0.0 && (yes + no).is_finite() {
        return Ok((yes / (yes + no), true));
    }
    let text = after_thinking(reply)?;
    let word: String = text.trim().chars().take_while(|c| c.is_alphabetic()).collect::<String>().to_lowercase();
    match word.as_str() {
        "yes" => Ok((1.0, false)),
        "no" => Ok((0.0, false)),
        _ => Err(format!("the judge answered neither Yes nor No: {}", super::client::truncate(text.trim(), 80))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds() -> Vec<(String, CriterionKind)> {
        vec![
            (
                "clarity".to_owned(),
                CriterionKind::Choices { choices: vec!["poor".into(), "fair".into(), "good".into()] },
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

    #[test]
    fn the_rubric_template_lists_options_and_never_substitutes() {
        let kinds = kinds();
        let subject = Subject { prompt: Some("Write {response}"), reference: None, response: "{prompt} text" };
        let prompt = rubric_prompt(&subject, &asked(&kinds));
        assert!(prompt.contains("Write {response}") && prompt.contains("{prompt} text"));
        assert!(prompt.contains("- clarity: d (answer one of, worst to best: poor, fair, good)"));
        assert!(prompt.contains("- tone: d (answer one of: rude, neutral, warm)"));
        assert!(prompt.contains("- depth: d (answer a number from 1 to 10)"));
        assert!(!prompt.contains("Reference answer"));
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

    #[test]
    fn principle_scores_from_logprobs_or_text() {
        let logprobs =
            vec![("Yes".to_owned(), (0.8f64).ln()), (" no".to_owned(), (0.1f64).ln()), ("Maybe".to_owned(), -3.0)];
        let (score, from_logprobs) = parse_principle_reply("Yes", &logprobs).unwrap_or_default();
        assert!((score - 0.8 / 0.9).abs() < 1e-12 && from_logprobs);
        assert_eq!(parse_principle_reply("Yes.", &[]), Ok((1.0, false)));
        assert_eq!(parse_principle_reply("  no, it does not", &[]), Ok((0.0, false)));
        assert_eq!(parse_principle_reply("<think>hmm</think>\nYES", &[]), Ok((1.0, false)));
        assert!(parse_principle_reply("Perhaps", &[]).is_err());
        assert!(parse_principle_reply("Yesterday", &[]).is_err());
        let unrelated = vec![("Maybe".to_owned(), -0.1)];
        assert_eq!(parse_principle_reply("No", &unrelated), Ok((0.0, false)));
    }
}
