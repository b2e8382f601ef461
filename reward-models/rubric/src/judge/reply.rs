//! The judge's replies: read from a chat completion, and stored in the reply cache.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One generated token: its text, its log-prob, and the top candidates at its position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenLogprobs {
    pub token: String,
    pub logprob: f64,
    #[serde(default)]
    pub top: Vec<(String, f64)>,
}

/// A judge's answer to one prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "StoredReply")]
pub struct JudgeReply {
    /// The message content.
    pub content: String,
    /// Every generated token with its log-probs, in order, when the endpoint returned them.
    #[serde(default)]
    pub tokens: Vec<TokenLogprobs>,
    /// True when the reply came from the cache.
    #[serde(skip)]
    pub cached: bool,
    /// The cache key of the prompt.
    #[serde(skip)]
    pub key: String,
}

/// A reply as the judge cache holds it. Replies cached before every token was kept hold only
/// `first_token`, the candidates of the first non-blank token; they become a one-token stream
/// (the likeliest candidate), which is read only where it spells the final answer.
#[derive(Deserialize)]
struct StoredReply {
    content: String,
    #[serde(default)]
    tokens: Vec<TokenLogprobs>,
    #[serde(default)]
    first_token: Vec<(String, f64)>,
}

impl From<StoredReply> for JudgeReply {
    fn from(stored: StoredReply) -> JudgeReply {
        let mut tokens = stored.tokens;
        if tokens.is_empty()
            && let Some((token, logprob)) = stored.first_token.iter().max_by(|a, b| a.1.total_cmp(&b.1))
        {
            tokens.push(TokenLogprobs { token: token.clone(), logprob: *logprob, top: stored.first_token.clone() });
        }
        JudgeReply { content: stored.content, tokens, cached: false, key: String::new() }
    }
}

/// A reply as stored in the judge cache: the candidates of the reasoning's tokens are dropped
/// (only the final answer's positions are ever read), the token texts kept so the answer can
/// still be lined up with the content.
pub(super) fn stored_form(reply: &JudgeReply) -> String {
    let mut joined = String::new();
    let ends: Vec<usize> = reply
        .tokens
        .iter()
        .map(|token| {
            joined.push_str(&token.token);
            joined.len()
        })
        .collect();
    let answer_starts = joined.rfind("</think>").map_or(0, |at| at + "</think>".len());
    let mut compact = reply.clone();
    for (token, end) in compact.tokens.iter_mut().zip(ends) {
        if end <= answer_starts {
            token.top = Vec::new();
        }
    }
    serde_json::to_string(&compact).unwrap_or_default()
}

/// The content and per-token log-probs of a chat completion response body.
pub(super) fn parse_completion(value: &Value) -> Result<(String, Vec<TokenLogprobs>), String> {
    let choice = value.pointer("/choices/0").ok_or_else(|| "the judge's answer has no choices".to_owned())?;
    let content = choice
        .pointer("/message/content")
        .and_then(Value::as_str)
        .ok_or_else(|| "the judge's answer has no message content".to_owned())?
        .to_owned();
    let mut tokens = Vec::new();
    for entry in choice.pointer("/logprobs/content").and_then(Value::as_array).into_iter().flatten() {
        let (Some(token), Some(logprob)) =
            (entry.get("token").and_then(Value::as_str), entry.get("logprob").and_then(Value::as_f64))
        else {
            // A position without its token cannot be lined up with the text: keep none of them,
            // so the answer is read from the text rather than at a wrong position.
            tokens.clear();
            break;
        };
        let top = entry
            .get("top_logprobs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|candidate| {
                Some((candidate.get("token")?.as_str()?.to_owned(), candidate.get("logprob")?.as_f64()?))
            })
            .collect();
        tokens.push(TokenLogprobs { token: token.to_owned(), logprob, top });
    }
    Ok((content, tokens))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<(String, Vec<TokenLogprobs>), String> {
        parse_completion(&serde_json::from_str(text).map_err(|e| e.to_string())?)
    }

    #[test]
    fn completions_parse_with_and_without_logprobs() {
        let body = r#"{"choices": [{"message": {"role": "assistant", "content": "Yes"},
            "logprobs": {"content": [{"token": "Yes", "logprob": -0.1,
                "top_logprobs": [{"token": "Yes", "logprob": -0.1}, {"token": "No", "logprob": -2.4}]}]}}]}"#;
        let (content, tokens) = parse(body).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(content, "Yes");
        let top = vec![("Yes".to_owned(), -0.1), ("No".to_owned(), -2.4)];
        assert_eq!(tokens, [TokenLogprobs { token: "Yes".to_owned(), logprob: -0.1, top }]);
        // Every position is kept, in order, so the answer can be found after the reasoning.
        let reasoning = r#"{"choices": [{"message": {"content": "<think>x</think>No"}, "logprobs": {"content": [
            {"token": "<think>", "logprob": -0.01, "top_logprobs": [{"token": "Yes", "logprob": -5.0}]},
            {"token": "x</think>", "logprob": -0.2, "top_logprobs": []},
            {"token": "No", "logprob": -0.3, "top_logprobs": [{"token": "No", "logprob": -0.3}]}]}}]}"#;
        let (_, tokens) = parse(reasoning).unwrap_or_else(|e| panic!("{e}"));
        let texts: Vec<&str> = tokens.iter().map(|t| t.token.as_str()).collect();
        assert_eq!(texts, ["<think>", "x</think>", "No"]);
        let gap = r#"{"choices": [{"message": {"content": "No"}, "logprobs": {"content": [{"logprob": -0.3}]}}]}"#;
        assert_eq!(parse(gap).map(|(_, t)| t.len()), Ok(0), "a position without its token");
        let plain = r#"{"choices": [{"message": {"content": "No"}}]}"#;
        assert_eq!(parse(plain).map(|(c, f)| (c, f.len())), Ok(("No".to_owned(), 0)));
        assert!(parse(r#"{"choices": []}"#).is_err());
        assert!(parse(r#"{"choices": [{"message": {"content": null}}]}"#).is_err());
    }

    #[test]
    fn cached_replies_keep_the_answer_and_read_old_entries() {
        let token = |text: &str, top: &[(&str, f64)]| TokenLogprobs {
            token: text.to_owned(),
            logprob: -0.1,
            top: top.iter().map(|(t, l)| ((*t).to_owned(), *l)).collect(),
        };
        let reply = JudgeReply {
            content: "<think>a</think> No".to_owned(),
            tokens: vec![
                token("<think>", &[("Yes", -4.0)]),
                token("a</", &[("b", -1.0)]),
                token("think>", &[]),
                token(" No", &[("No", -0.1), ("Yes", -2.0)]),
            ],
            cached: false,
            key: String::new(),
        };
        let stored: JudgeReply = serde_json::from_str(&stored_form(&reply)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stored.content, reply.content);
        assert_eq!(stored.tokens.iter().map(|t| t.top.len()).collect::<Vec<_>>(), [0, 0, 0, 2], "{stored:?}");
        assert_eq!(stored.tokens[3], reply.tokens[3]);
        // An entry cached with only the first token's candidates reads as a one-token stream.
        let old = r#"{"content": "Yes", "first_token": [["No", -2.0], ["Yes", -0.2]]}"#;
        let old: JudgeReply = serde_json::from_str(old).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(old.tokens.len(), 1);
        assert_eq!((old.tokens[0].token.as_str(), old.tokens[0].top.len()), ("Yes", 2));
    }
}
