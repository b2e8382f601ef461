//! Where the log-probs come from when the trainer does not send them: a model that reads a
//! text and returns the log-probs of the reference answer's tokens in it.
//!
//! The request is text, not token ids, so one contract serves a model hosted here (which
//! tokenises with its own tokenizer) and a remote completions server (which tokenises on its
//! side and reports each token's offsets).

use std::ops::Range;
use std::path::PathBuf;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One text to score and the bytes of the reference answer in it. As in the reference
/// implementation, the whole text (the prompt rendered with the chat template, then the
/// substituted response; or the no-reasoning baseline) is tokenised at once, and the scored
/// tokens are those whose bytes overlap `answer` ([`crate::overlap_mask`]), each predicted from
/// everything before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoringText {
    /// The rendered prompt followed by the substituted response ([`crate::substitute`]), or the
    /// baseline text ([`crate::baseline`]).
    pub text: String,
    /// Byte range of the reference answer in `text`.
    pub answer: Range<usize>,
}

/// Token ids ready for a forward pass, and which of them are scored.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TokenSequence {
    /// The text's ids.
    pub ids: Vec<u32>,
    /// Indices into `ids` of the scored tokens, ascending; each is at least 1, since a token is
    /// scored from the ones before it.
    pub positions: Vec<u32>,
}

/// Why a source could not score a text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// The text cannot be scored as given (too long for the model, not tokenisable): the
    /// item's fault, answered as `invalid_input`.
    #[error("{0}")]
    Input(String),
    /// The model or the remote server failed: not the item's fault, answered as
    /// `internal_error` so a trainer can mask it.
    #[error("{0}")]
    Backend(String),
    /// The source's queue is full; the request should be retried later.
    #[error("the model is busy: {0}")]
    Busy(String),
}

/// One chat message, rendered into a prompt by the source's chat template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The message text.
    pub content: String,
}

/// Why a source could not swap in another checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReloadError {
    /// This source cannot be reloaded (a remote server, or no source at all).
    #[error("{0}")]
    NotSupported(String),
    /// The request names no usable checkpoint (a missing directory, a malformed model).
    #[error("{0}")]
    Invalid(String),
    /// Loading failed for another reason; the previous checkpoint stays in use.
    #[error("{0}")]
    Failed(String),
}

/// What a successful reload swapped in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Reloaded {
    /// The source's name (`local`).
    pub source: String,
    /// The checkpoint directory now in use.
    pub model_dir: String,
    /// How many checkpoints this source has loaded, the first one included: it changes with
    /// every reload, so cached baseline scores of older checkpoints are not reused.
    pub generation: u64,
}

/// A model that scores texts: the log-probs (natural log, at the source's temperature: 1 unless
/// the local model was given another) of each text's scored tokens, in order, one result per
/// text.
pub trait LogprobSource: Send + Sync + std::fmt::Debug + 'static {
    /// The source's name in verdict details and metrics (`local`, `remote`).
    fn name(&self) -> &'static str;

    /// The end-of-sequence text the substitution appends after `</answer>`.
    fn eos(&self) -> &str;

    /// Scores a batch of texts; exactly one result per text, in order.
    fn logprobs(&self, batch: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<Vec<f64>, SourceError>>>;

    /// The prompt `messages` make under the model's chat template, up to and including the
    /// opening of the assistant's turn. By default the source has no chat template, and items
    /// must send `prompt` already rendered.
    fn render(&self, messages: &[ChatMessage]) -> Result<String, SourceError> {
        let _ = messages;
        Err(SourceError::Input(format!(
            "the `{}` source has no chat template; send `prompt` rendered up to the assistant's turn instead of \
             `messages`",
            self.name()
        )))
    }

    /// Whether `texts` more texts would be taken now rather than refused as busy, for an
    /// admission check before a request is scored. By default a source is never full.
    fn has_room(&self, texts: usize) -> bool {
        let _ = texts;
        true
    }

    /// The token ids of each text and the positions of its scored tokens, under this source's
    /// tokenizer: what a trainer running its own forward pass needs
    /// (`POST /v1/reward-models/rlpr/prepare`). A source that does not tokenise here (a remote
    /// server) answers every text with [`SourceError::Input`] saying so.
    fn tokenize(&self, texts: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<TokenSequence, SourceError>>> {
        let reason = format!("the `{}` source does not tokenise on this server", self.name());
        let answers = texts.iter().map(|_| Err(SourceError::Input(reason.clone()))).collect();
        Box::pin(std::future::ready(answers))
    }

    /// The most texts the source queues at once, when it has a bound; a batch is admitted when
    /// the smaller of its texts and this bound fit.
    fn queue_capacity(&self) -> Option<usize> {
        None
    }

    /// Identifies the checkpoint in use; it changes when [`LogprobSource::reload`] swaps in
    /// another, so scores cached under one generation are not used under the next.
    fn generation(&self) -> u64 {
        0
    }

    /// Swaps in the checkpoint in `model_dir` (or reloads the configured one when `None`)
    /// without dropping queued requests. By default a source cannot be reloaded.
    fn reload(&self, model_dir: Option<PathBuf>) -> BoxFuture<'static, Result<Reloaded, ReloadError>> {
        let _ = model_dir;
        let reason = format!("the `{}` source cannot be reloaded; only a local model can", self.name());
        Box::pin(std::future::ready(Err(ReloadError::NotSupported(reason))))
    }
}
