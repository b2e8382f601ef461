//! A model hosted in this process as a [`LogprobSource`]: texts are tokenised by the model's
//! own tokenizer (on the blocking pool), queued in the [`Batcher`], and run in coalesced forward
//! passes; a reload loads another checkpoint and swaps it in between passes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use futures::FutureExt;
use futures::future::BoxFuture;

use crate::batcher::{BatchModel, Batcher, BatcherConfig};
use crate::source::{ChatMessage, LogprobSource, ReloadError, Reloaded, ScoringText, SourceError, TokenSequence};

/// What a checkpoint loaded in this process offers besides its forward pass.
pub trait HostedModel: BatchModel + Sized {
    /// Where a checkpoint is loaded (a device); reloads use the same.
    type Placement: Clone + Send + Sync + 'static;

    /// Loads the checkpoint in `dir` (Hugging Face layout) onto `placement`. Blocking.
    fn load(dir: &Path, placement: &Self::Placement) -> Result<Self, String>;

    /// The text's token ids and the positions of the tokens overlapping its answer.
    fn prepare(&self, text: &ScoringText) -> Result<TokenSequence, SourceError>;

    /// The end-of-sequence text of the model's chat template.
    fn eos(&self) -> String;

    /// The prompt `messages` make under the chat template, up to the assistant's turn.
    fn render(&self, messages: &[ChatMessage]) -> Result<String, SourceError>;
}

/// A [`HostedModel`] behind a [`Batcher`], serving as the `local` source.
pub struct HostedSource<M: HostedModel> {
    batcher: Arc<Batcher<M>>,
    eos: String,
    model_dir: Arc<Mutex<PathBuf>>,
    placement: M::Placement,
}

impl<M: HostedModel> std::fmt::Debug for HostedSource<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostedSource").field("eos", &self.eos).field("batcher", &self.batcher).finish()
    }
}

impl<M: HostedModel> HostedSource<M> {
    /// Loads the checkpoint in `dir` onto `placement` and starts its batcher. Blocking.
    pub fn load(dir: &Path, placement: M::Placement, config: BatcherConfig) -> Result<HostedSource<M>, String> {
        config.validate()?;
        let model = M::load(dir, &placement).map_err(|e| format!("cannot load the model in {}: {e}", dir.display()))?;
        let eos = model.eos();
        let batcher = Batcher::start(model, config).map_err(|e| format!("cannot start the batcher thread: {e}"))?;
        let model_dir = Arc::new(Mutex::new(dir.to_owned()));
        Ok(HostedSource { batcher: Arc::new(batcher), eos, model_dir, placement })
    }

    /// The batcher, for admission checks ([`Batcher::has_room`], [`Batcher::reserve`]).
    pub fn batcher(&self) -> &Arc<Batcher<M>> {
        &self.batcher
    }
}

impl<M: HostedModel> LogprobSource for HostedSource<M> {
    fn name(&self) -> &'static str {
        "local"
    }

    fn eos(&self) -> &str {
        &self.eos
    }

    fn logprobs(&self, batch: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<Vec<f64>, SourceError>>> {
        let batcher = Arc::clone(&self.batcher);
        let count = batch.len();
        let tokenized = self.tokenize(batch);
        async move {
            let prepared = tokenized.await;
            let mut results: Vec<Result<Vec<f64>, SourceError>> = Vec::with_capacity(count);
            let mut sequences = Vec::new();
            for item in prepared {
                match item {
                    Ok(sequence) => {
                        sequences.push(sequence);
                        results.push(Ok(Vec::new()));
                    }
                    Err(error) => results.push(Err(error)),
                }
            }
            let answers = match batcher.run(sequences).await {
                Ok(answers) => answers,
                Err(error) => {
                    return results.into_iter().map(|r| r.and(Err(error.clone()))).collect();
                }
            };
            let mut answers = answers.into_iter();
            for slot in results.iter_mut().filter(|r| r.is_ok()) {
                *slot = match answers.next() {
                    Some(Ok(values)) => Ok(values.into_iter().map(f64::from).collect()),
                    Some(Err(reason)) => Err(SourceError::Backend(reason)),
                    None => Err(SourceError::Backend("the batcher left a sequence unanswered".to_owned())),
                };
            }
            results
        }
        .boxed()
    }

    fn render(&self, messages: &[ChatMessage]) -> Result<String, SourceError> {
        self.batcher.model().render(messages)
    }

    fn has_room(&self, texts: usize) -> bool {
        self.batcher.has_room(texts)
    }

    fn tokenize(&self, texts: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<TokenSequence, SourceError>>> {
        let model = self.batcher.model();
        let count = texts.len();
        async move {
            tokio::task::spawn_blocking(move || texts.iter().map(|t| model.prepare(t)).collect())
                .await
                .unwrap_or_else(|e| vec![Err(SourceError::Backend(format!("tokenising failed: {e}"))); count])
        }
        .boxed()
    }

    fn queue_capacity(&self) -> Option<usize> {
        Some(self.batcher.config().queue_capacity)
    }

    fn generation(&self) -> u64 {
        self.batcher.generation()
    }

    fn reload(&self, model_dir: Option<PathBuf>) -> BoxFuture<'static, Result<Reloaded, ReloadError>> {
        let batcher = Arc::clone(&self.batcher);
        let current = Arc::clone(&self.model_dir);
        let eos = self.eos.clone();
        let placement = self.placement.clone();
        async move {
            let dir = match model_dir {
                Some(dir) => dir,
                None => {
                    current.lock().map(|d| d.clone()).map_err(|_| ReloadError::Failed("lock poisoned".to_owned()))?
                }
            };
            if !dir.is_dir() {
                return Err(ReloadError::Invalid(format!("model_dir: {} is not a directory", dir.display())));
            }
            let loading = dir.clone();
            let model = tokio::task::spawn_blocking(move || M::load(&loading, &placement))
                .await
                .map_err(|e| ReloadError::Failed(format!("loading stopped: {e}")))?
                .map_err(|e| ReloadError::Invalid(format!("cannot load the model in {}: {e}", dir.display())))?;
            if model.eos() != eos {
                return Err(ReloadError::Invalid(format!(
                    "the checkpoint in {} ends sequences with {:?}, not {eos:?} as the one it would replace",
                    dir.display(),
                    model.eos()
                )));
            }
            let generation = batcher.reload(model);
            if let Ok(mut current) = current.lock() {
                current.clone_from(&dir);
            }
            Ok::<Reloaded, ReloadError>(Reloaded {
                source: "local".to_owned(),
                model_dir: dir.display().to_string(),
                generation,
            })
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test double for a checkpoint: the directory's name is its scale; a token is a byte,
    /// scored −byte/scale.
    struct Bytes {
        scale: f32,
    }

    impl BatchModel for Bytes {
        fn run(&self, batch: &[TokenSequence]) -> Result<Vec<Vec<f32>>, String> {
            Ok(batch
                .iter()
                .map(|s| s.positions.iter().map(|&p| -(s.ids[p as usize] as f32) / self.scale).collect())
                .collect())
        }
    }

    impl HostedModel for Bytes {
        type Placement = ();

        fn load(dir: &Path, _: &()) -> Result<Self, String> {
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.parse().map(|scale| Bytes { scale }).map_err(|_| format!("no scale in {name:?}"))
        }

        fn prepare(&self, text: &ScoringText) -> Result<TokenSequence, SourceError> {
            if text.answer.start == 0 {
                return Err(SourceError::Input("nothing before the answer".to_owned()));
            }
            let ids = text.text.bytes().map(u32::from).collect();
            Ok(TokenSequence { ids, positions: text.answer.clone().map(|p| p as u32).collect() })
        }

        fn eos(&self) -> String {
            "</s>".to_owned()
        }

        fn render(&self, messages: &[ChatMessage]) -> Result<String, SourceError> {
            Ok(messages.iter().map(|m| format!("{}: {}\n", m.role, m.content)).collect())
        }
    }

    #[tokio::test]
    async fn texts_are_prepared_batched_and_scored_and_a_reload_swaps_the_model() -> Result<(), String> {
        let root = std::env::temp_dir().join(format!("referee-hosted-{}", std::process::id()));
        for scale in ["10", "100"] {
            std::fs::create_dir_all(root.join(scale)).map_err(|e| e.to_string())?;
        }
        let source = HostedSource::<Bytes>::load(&root.join("10"), (), BatcherConfig::default())?;
        let texts = vec![
            ScoringText { text: "ab".to_owned(), answer: 1..2 },
            ScoringText { text: "x".to_owned(), answer: 0..1 },
        ];
        let answers = source.logprobs(texts.clone()).await;
        assert_eq!(answers[0], Ok(vec![f64::from(-98.0f32 / 10.0)]));
        assert!(matches!(answers[1], Err(SourceError::Input(_))));
        let message = ChatMessage { role: "user".to_owned(), content: "hi".to_owned() };
        assert_eq!(source.render(&[message]), Ok("user: hi\n".to_owned()));

        let reloaded = source.reload(Some(root.join("100"))).await.map_err(|e| e.to_string())?;
        assert_eq!((reloaded.generation, source.generation()), (2, 2));
        assert_eq!(source.logprobs(texts).await[0], Ok(vec![f64::from(-98.0f32 / 100.0)]));
        assert!(matches!(source.reload(Some(root.join("missing"))).await, Err(ReloadError::Invalid(_))));
        std::fs::create_dir_all(root.join("bad")).map_err(|e| e.to_string())?;
        assert!(matches!(source.reload(Some(root.join("bad"))).await, Err(ReloadError::Invalid(_))));
        assert_eq!(source.generation(), 2, "a failed reload keeps the model");
        let _ = std::fs::remove_dir_all(&root);
        Ok(())
    }

    #[tokio::test]
    async fn a_full_queue_refuses_admission_with_503() -> Result<(), String> {
        use referee_core::{BusyStatus, RewardModel};

        let root = std::env::temp_dir().join(format!("referee-hosted-admit-{}", std::process::id()));
        std::fs::create_dir_all(root.join("10")).map_err(|e| e.to_string())?;
        let config = BatcherConfig { queue_capacity: 4, ..BatcherConfig::default() };
        let source = Arc::new(HostedSource::<Bytes>::load(&root.join("10"), (), config)?);
        let model = crate::RlprModel::new(Some(source.clone() as Arc<dyn LogprobSource>), 0);

        // An empty queue admits a batch larger than itself (capped at the whole queue).
        assert!(model.admit(100).is_ok());
        let held = source.batcher().reserve(3).map_err(|e| e.to_string())?;
        assert!(model.admit(1).is_err(), "two texts do not fit in the one free place");
        match model.admit(1) {
            Err(busy) => assert_eq!((busy.status, busy.retry_after_secs), (BusyStatus::Unavailable, 1)),
            Ok(_) => return Err("admitted into a full queue".to_owned()),
        }
        drop(held);
        assert!(model.admit(2).is_ok(), "room comes back when the reservation is dropped");
        assert!(crate::RlprModel::new(None, 0).admit(1_000).is_ok(), "without a source nothing is queued");
        let _ = std::fs::remove_dir_all(&root);
        Ok(())
    }
}
