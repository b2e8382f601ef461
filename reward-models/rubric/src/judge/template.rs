//! Judge prompt templates: the chat messages of a call, each a role and a content template with
//! named placeholders (`{response}`, `{criteria}`, ...). Templates are parsed once, when the
//! judge client is built, so a misspelt placeholder stops the server from starting instead of
//! reaching the judge. Rendering is one pass over the parsed pieces: values are put in as they
//! are and never scanned again, so braces in a response are inert.

use serde::{Deserialize, Serialize};

/// How principle criteria are asked when `principle_messages` is not set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrincipleFormat {
    /// The built-in prompt: the task, reference and response, the principle, and "Answer with
    /// exactly one word: Yes or No", as one user message.
    #[default]
    Prompt,
    /// RLBFF's chat format for its principle GenRMs: the task as the user turn, the response as
    /// the assistant turn, the principle as a `principle` turn. The reference is not shown.
    Rlbff,
}

/// One message of a judge call: its role and a template of its content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MessageTemplate {
    /// The chat role (`system`, `user`, `assistant`, or a role the judge's chat template
    /// knows, such as RLBFF's `principle`).
    pub role: String,
    /// The content, with `{placeholder}`s; `{{` and `}}` stand for literal braces.
    pub content: String,
}

/// One message as sent to the judge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatMessage {
    pub role: String,
    pub content: String,
}

/// A template that cannot be used; the message names the setting (`judge.rubric_messages`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TemplateError {
    #[error("{key} must list 1 to 16 messages")]
    MessageCount { key: &'static str },
    #[error("{key}[{index}].role must be 1 to 64 letters, digits or `_` (such as `system` or `user`), not `{role}`")]
    Role { key: &'static str, index: usize, role: String },
    #[error("{key}[{index}].content: {problem}")]
    Content {
        key: &'static str,
        index: usize,
        #[source]
        problem: PlaceholderError,
    },
    /// The template never names its call's own placeholder (`{criteria}`, `{principle}`).
    #[error("{key} never names `{{{own}}}`, so the judge would not see what it is asked")]
    MissingOwn { key: &'static str, own: &'static str },
    #[error("{key} names neither `{{response}}` nor `{{subject}}`, so the judge would not see the response")]
    MissingResponse { key: &'static str },
    #[error("set one of judge.principle_messages and judge.principle_format = \"rlbff\", not both")]
    Both,
}

/// A message content whose braces or placeholders are wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlaceholderError {
    #[error("a lone `}}` (write `}}}}` for a literal brace)")]
    LoneClose,
    #[error("a `{{` that is never closed (write `{{{{` for a literal brace)")]
    Unclosed,
    /// `allowed` lists the placeholders of this kind of template.
    #[error("unknown placeholder `{{{name}}}`; this template may use {allowed} (and `{{{{`/`}}}}` for braces)")]
    Unknown { name: String, allowed: String },
}

/// Which call a template is for; it decides the placeholders allowed and required.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// `score`, `label` and `choices` criteria asked together.
    Rubric,
    /// One `principle` criterion.
    Principle,
}

/// A value a template can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Prompt,
    Reference,
    Response,
    Subject,
    Criteria,
    Principle,
}

const SLOTS: [(&str, Slot); 6] = [
    ("prompt", Slot::Prompt),
    ("reference", Slot::Reference),
    ("response", Slot::Response),
    ("subject", Slot::Subject),
    ("criteria", Slot::Criteria),
    ("principle", Slot::Principle),
];

impl CallKind {
    fn allows(self, slot: Slot) -> bool {
        match slot {
            Slot::Prompt | Slot::Reference | Slot::Response | Slot::Subject => true,
            Slot::Criteria => self == CallKind::Rubric,
            Slot::Principle => self == CallKind::Principle,
        }
    }

    fn own_slot(self) -> (&'static str, Slot) {
        match self {
            CallKind::Rubric => ("criteria", Slot::Criteria),
            CallKind::Principle => ("principle", Slot::Principle),
        }
    }

    fn names(self) -> Vec<&'static str> {
        SLOTS.iter().filter(|(_, slot)| self.allows(*slot)).map(|(name, _)| *name).collect()
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Slot(Slot),
}

/// A parsed template: messages of pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    messages: Vec<(String, Vec<Piece>)>,
}

/// The values a template is rendered with. `subject` and `criteria` are the built-in blocks
/// (the task, reference and response in fences; one line per criterion).
#[derive(Debug, Clone, Copy, Default)]
pub struct Values<'a> {
    pub prompt: Option<&'a str>,
    pub reference: Option<&'a str>,
    pub response: &'a str,
    pub subject: &'a str,
    pub criteria: &'a str,
    pub principle: &'a str,
}

/// The built-in rubric prompt: the grading instruction, the subject, the criteria and the
/// request for a JSON object of verdicts.
pub const DEFAULT_RUBRIC: &str = "You are grading a response to a task against a list of criteria. Judge each \
criterion on its own.\n\n{subject}Criteria:\n{criteria}\nFor each criterion, reason briefly, then give its verdict \
under its exact name. End your answer with one JSON object and nothing after it:\n{{\"verdicts\": [{{\"name\": \
\"<criterion name>\", \"reason\": \"<one sentence>\", \"verdict\": \"<one of the options, or a number>\"}}]}}\n";

/// The built-in principle prompt: one question answered Yes or No.
pub const DEFAULT_PRINCIPLE: &str = "You judge whether a response fulfils a principle.\n\n{subject}Principle: \
{principle}\n\nDoes the response fulfil the principle? Answer with exactly one word: Yes or No.\n";

impl Template {
    /// One user message with `content`.
    pub fn user(content: &str, kind: CallKind) -> Result<Template, TemplateError> {
        Template::parse(&[MessageTemplate { role: "user".to_owned(), content: content.to_owned() }], kind, "template")
    }

    /// RLBFF's chat format: the task as the user turn, the response as the assistant turn and
    /// the principle in a `principle` turn, as its GenRM's chat template expects.
    pub fn rlbff() -> Template {
        let message = |role: &str, slot: Slot| (role.to_owned(), vec![Piece::Slot(slot)]);
        Template {
            messages: vec![
                message("user", Slot::Prompt),
                message("assistant", Slot::Response),
                message("principle", Slot::Principle),
            ],
        }
    }

    /// Parses `messages` for a `kind` call; `key` names the setting in error messages.
    pub fn parse(messages: &[MessageTemplate], kind: CallKind, key: &'static str) -> Result<Template, TemplateError> {
        if messages.is_empty() || messages.len() > 16 {
            return Err(TemplateError::MessageCount { key });
        }
        let mut parsed = Vec::with_capacity(messages.len());
        for (index, message) in messages.iter().enumerate() {
            let role = message.role.trim();
            if role.is_empty() || role.len() > 64 || !role.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(TemplateError::Role { key, index, role: message.role.clone() });
            }
            let pieces =
                pieces(&message.content, kind).map_err(|problem| TemplateError::Content { key, index, problem })?;
            parsed.push((role.to_owned(), pieces));
        }
        let template = Template { messages: parsed };
        let (own, slot) = kind.own_slot();
        if !template.names(slot) {
            return Err(TemplateError::MissingOwn { key, own });
        }
        if !template.names(Slot::Response) && !template.names(Slot::Subject) {
            return Err(TemplateError::MissingResponse { key });
        }
        Ok(template)
    }

    fn names(&self, slot: Slot) -> bool {
        self.messages.iter().flat_map(|(_, pieces)| pieces).any(|piece| *piece == Piece::Slot(slot))
    }

    /// The messages with every placeholder replaced; an absent prompt or reference is empty.
    pub fn render(&self, values: &Values<'_>) -> Vec<ChatMessage> {
        self.messages
            .iter()
            .map(|(role, pieces)| {
                let mut content = String::new();
                for piece in pieces {
                    match piece {
                        Piece::Text(text) => content.push_str(text),
                        Piece::Slot(slot) => content.push_str(match slot {
                            Slot::Prompt => values.prompt.unwrap_or_default(),
                            Slot::Reference => values.reference.unwrap_or_default(),
                            Slot::Response => values.response,
                            Slot::Subject => values.subject,
                            Slot::Criteria => values.criteria,
                            Slot::Principle => values.principle,
                        }),
                    }
                }
                ChatMessage { role: role.clone(), content }
            })
            .collect()
    }
}

/// Splits `content` into text and placeholders.
fn pieces(content: &str, kind: CallKind) -> Result<Vec<Piece>, PlaceholderError> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = content;
    while let Some(at) = rest.find(['{', '}']) {
        text.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("{{") {
            text.push('{');
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            text.push('}');
            rest = after;
        } else if tail.starts_with('}') {
            return Err(PlaceholderError::LoneClose);
        } else {
            let end = tail.find('}').ok_or(PlaceholderError::Unclosed)?;
            let name = &tail[1..end];
            let slot = SLOTS
                .iter()
                .find(|(known, _)| *known == name)
                .map(|(_, slot)| *slot)
                .filter(|slot| kind.allows(*slot))
                .ok_or_else(|| PlaceholderError::Unknown {
                    name: name.to_owned(),
                    allowed: kind.names().iter().map(|n| format!("`{{{n}}}`")).collect::<Vec<_>>().join(", "),
                })?;
            if !text.is_empty() {
                out.push(Piece::Text(std::mem::take(&mut text)));
            }
            out.push(Piece::Slot(slot));
            rest = &tail[end + 1..];
        }
    }
    text.push_str(rest);
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(role: &str, content: &str) -> MessageTemplate {
        MessageTemplate { role: role.to_owned(), content: content.to_owned() }
    }

    #[test]
    fn placeholders_are_substituted_once_and_braces_are_inert() {
        let template = Template::parse(
            &[message("system", "Grade {{strictly}}."), message("user", "{prompt}|{response}|{principle}")],
            CallKind::Principle,
            "judge.principle_messages",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let values = Values { response: "{principle} {{x}}", principle: "Be kind", ..Values::default() };
        let rendered = template.render(&values);
        assert_eq!(rendered[0], ChatMessage { role: "system".into(), content: "Grade {strictly}.".into() });
        assert_eq!(rendered[1].content, "|{principle} {{x}}|Be kind", "an absent prompt is empty");
    }

    #[test]
    fn bad_templates_are_refused_with_the_reason() {
        let key = "judge.rubric_messages";
        for (messages, kind, needle) in [
            (vec![], CallKind::Rubric, "1 to 16 messages"),
            (vec![message("user", "{respons} {criteria}")], CallKind::Rubric, "unknown placeholder `{respons}`"),
            (vec![message("user", "{response} {principle}")], CallKind::Rubric, "unknown placeholder `{principle}`"),
            (vec![message("user", "{response}")], CallKind::Rubric, "never names `{criteria}`"),
            (vec![message("user", "{criteria}")], CallKind::Rubric, "neither `{response}` nor `{subject}`"),
            (vec![message("user", "{response} {criteria} {")], CallKind::Rubric, "never closed"),
            (vec![message("user", "{response} {criteria} }")], CallKind::Rubric, "lone `}`"),
            (vec![message("", "{response} {criteria}")], CallKind::Rubric, "[0].role"),
            (vec![message("a b", "{subject} {principle}")], CallKind::Principle, "[0].role"),
        ] {
            let error = Template::parse(&messages, kind, key).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(error.contains(needle) && error.contains(key), "{messages:?}: {error}");
        }
    }

    #[test]
    fn the_rlbff_format_is_user_assistant_principle() {
        let values =
            Values { prompt: Some("Task"), response: "Answer", principle: "Is it short?", ..Values::default() };
        let rendered = Template::rlbff().render(&values);
        let roles: Vec<(&str, &str)> = rendered.iter().map(|m| (m.role.as_str(), m.content.as_str())).collect();
        assert_eq!(roles, [("user", "Task"), ("assistant", "Answer"), ("principle", "Is it short?")]);
    }
}
