//! The two-phase path (`POST /v1/reward-models/rlpr/prepare`): the token ids and scored
//! positions of the texts model mode would score, for a trainer that runs its own forward pass.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::format::{FormatMode, baseline};
use crate::reward_model::{after_prompt, rendered_prompt, substitute_scored};
use crate::source::{ChatMessage, LogprobSource, ScoringText, SourceError, TokenSequence};

/// One rollout to prepare for a trainer's own forward pass
/// (`POST /v1/reward-models/rlpr/prepare`).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PrepareItem {
    /// The prompt already rendered with the chat template, up to the assistant's turn; instead
    /// of `messages`.
    #[serde(default)]
    pub prompt: Option<String>,
    /// The prompt as chat messages, rendered by the model's chat template; instead of `prompt`.
    #[serde(default)]
    pub messages: Option<Vec<ChatMessage>>,
    /// The generated response, without padding.
    pub response: String,
    /// The reference answer substituted into the response.
    pub reference: String,
    /// The response structure (`r1` or `r1_nothink`).
    #[serde(default)]
    pub format_mode: FormatMode,
    /// Prepare a response whose answer is blank like any other, as the reference scores it
    /// (the `rlpr` option of the same name).
    #[serde(default = "blank_answers_scored")]
    pub score_blank_answers: bool,
}

fn blank_answers_scored() -> bool {
    true
}

/// Token ids for a forward pass and the scored positions among them.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PreparedSequence {
    /// The whole text's token ids (prompt and substituted response, or the baseline text).
    pub ids: Vec<u32>,
    /// Indices into `ids` of the reference-answer tokens, ascending: send the log-probs of
    /// these tokens (each predicted from the ones before it), in this order.
    pub positions: Vec<u32>,
}

/// One prepared rollout: `ok` with both sequences, `unparseable` (no answer structure: nothing
/// is scored, send empty `logprobs`), or `invalid_input` with the reason.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PreparedItem {
    /// `ok`, `unparseable` or `invalid_input`.
    pub status: &'static str,
    /// Why the item is not `ok`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The substituted sequence, whose scored tokens' log-probs go in `logprobs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence: Option<PreparedSequence>,
    /// The no-reasoning baseline, whose scored tokens' log-probs go in `baseline_logprobs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<PreparedSequence>,
}

impl PreparedItem {
    fn refused(status: &'static str, message: String) -> PreparedItem {
        PreparedItem { status, message: Some(message), sequence: None, baseline: None }
    }
}

/// Prepares rollouts for a trainer's own forward pass with `source`'s tokenizer and chat
/// template: the same texts and masks model mode scores. One answer per item, in order.
pub async fn prepare(source: &dyn LogprobSource, items: &[PrepareItem]) -> Vec<PreparedItem> {
    let mut answers: Vec<Option<PreparedItem>> = vec![None; items.len()];
    let mut texts = Vec::new();
    let mut waiting = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let prompt = match rendered_prompt(source, item.prompt.as_deref(), item.messages.as_deref()) {
            Ok(prompt) => prompt,
            Err(error) => {
                answers[index] = Some(PreparedItem::refused("invalid_input", error.to_string()));
                continue;
            }
        };
        match substitute_scored(
            &item.response,
            &item.reference,
            source.eos(),
            item.format_mode,
            item.score_blank_answers,
        ) {
            None => {
                let message = "no answer structure for the format mode: nothing is scored".to_owned();
                answers[index] = Some(PreparedItem::refused("unparseable", message));
            }
            Some(substituted) => {
                texts.push(after_prompt(&prompt, substituted));
                let text = baseline(&prompt, &item.reference, source.eos());
                texts.push(ScoringText { text: text.text, answer: text.answer });
                waiting.push(index);
            }
        }
    }
    let mut tokenized = source.tokenize(texts).await.into_iter();
    let sequence = |result: Option<Result<TokenSequence, SourceError>>| match result {
        Some(Ok(TokenSequence { ids, positions })) => Ok(PreparedSequence { ids, positions }),
        Some(Err(error)) => Err(error.to_string()),
        None => Err("the tokenizer answered fewer texts than it was sent".to_owned()),
    };
    for index in waiting {
        let scored = sequence(tokenized.next());
        let base = sequence(tokenized.next());
        answers[index] = Some(match (scored, base) {
            (Ok(scored), Ok(base)) => {
                PreparedItem { status: "ok", message: None, sequence: Some(scored), baseline: Some(base) }
            }
            (Err(message), _) | (_, Err(message)) => PreparedItem::refused("invalid_input", message),
        });
    }
    answers
        .into_iter()
        .map(|a| a.unwrap_or_else(|| PreparedItem::refused("invalid_input", "the item was not prepared".to_owned())))
        .collect()
}
