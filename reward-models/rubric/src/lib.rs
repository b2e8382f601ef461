//! Rubric rewards: a response scored against weighted criteria, registered as `rubric`.
//!
//! A rubric ([`RubricDefinition`]) lists criteria. Each is a rule computed here (patterns,
//! keywords, length, JSON and JSON Schema, language, sections and formats, similarity to a
//! reference), a registered verifier reused as a criterion (`math`, `exact-match`, ...), or a
//! question to an LLM judge (`score`, `label`, `choices`, and RLBFF `principle`). Criterion
//! scores combine by weighted mean or by a formula; a failed veto criterion sets the score to
//! the rubric's floor.
//!
//! The judge is any OpenAI-compatible `/v1/chat/completions` endpoint ([`JudgeClient`]). A
//! judge that cannot be reached or answers nonsense fails the item (`internal_error` or
//! `timeout`), never scores it 0.
//!
//! The crate knows nothing of the server: stored rubrics and the judge's reply cache are
//! reached through [`RubricStore`] and [`JudgeCache`], connected later through a [`Backing`];
//! verifier criteria call the [`Scorer`]s in a [`VerifierSet`].

mod compile;
mod formula;
mod integers;
pub mod judge;
mod language;
mod model;
mod rules;
mod schema;
mod score;
mod similarity;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use futures::future::BoxFuture;
use referee_core::Scorer;
use serde::Deserialize;
use utoipa::ToSchema;

pub use compile::{CompileError, CompiledRubric, CriterionError, RUBRIC_ID, compile};
pub use formula::{Formula, FormulaError};
pub use judge::{
    JudgeClient, JudgeClientError, JudgeConfig, JudgeConfigError, JudgeError, JudgeReply, MessageTemplate,
    PrincipleFormat,
};
pub use model::{
    Aggregation, Criterion, CriterionKind, KeywordMode, LengthUnit, PrincipleScore, RubricDefinition, SimilarityMetric,
    TextFormat,
};
pub use rules::{Rule, RuleError};
pub use score::RubricScorer;
pub use similarity::{bleu, fuzzy_ratio, rouge_l};

/// A failure of the storage behind [`RubricStore`] or [`JudgeCache`] (a database error, say),
/// with its causes as sources.
pub type StoreError = Box<dyn std::error::Error + Send + Sync>;

/// Where stored rubrics are read from.
pub trait RubricStore: Send + Sync {
    /// The rubric with this id at `version`, or at its latest version when `None`: its version
    /// and definition. `Ok(None)` when there is no such rubric or version.
    fn load<'a>(
        &'a self,
        id: &'a str,
        version: Option<u32>,
    ) -> BoxFuture<'a, Result<Option<(u32, RubricDefinition)>, StoreError>>;
}

/// Where judge replies are cached, keyed by (model, prompt hash).
pub trait JudgeCache: Send + Sync {
    /// The stored reply, if any.
    fn get<'a>(&'a self, model: &'a str, prompt_hash: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// Stores a reply (keeping an existing one for the same key).
    fn put<'a>(&'a self, model: &'a str, prompt_hash: &'a str, reply: &'a str)
    -> BoxFuture<'a, Result<(), StoreError>>;
}

/// The stored-rubric source and judge cache, connected once the database is open. Until then
/// stored rubrics cannot be named and judge replies are not cached. Cheap to clone; clones
/// share the connection.
#[derive(Clone, Default)]
pub struct Backing {
    links: Arc<OnceLock<Links>>,
}

type Links = (Arc<dyn RubricStore>, Arc<dyn JudgeCache>);

impl std::fmt::Debug for Backing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Backing").field("connected", &self.links.get().is_some()).finish()
    }
}

impl Backing {
    /// Connects the store and the cache; only the first call has an effect.
    pub fn connect(&self, rubrics: Arc<dyn RubricStore>, cache: Arc<dyn JudgeCache>) {
        let _ = self.links.set((rubrics, cache));
    }

    /// The stored-rubric source, once connected.
    pub fn rubrics(&self) -> Option<&Arc<dyn RubricStore>> {
        self.links.get().map(|(rubrics, _)| rubrics)
    }

    /// The judge cache, once connected.
    pub fn cache(&self) -> Option<&Arc<dyn JudgeCache>> {
        self.links.get().map(|(_, cache)| cache)
    }
}

/// The registered verifiers a rubric may use as criteria, by id.
#[derive(Clone, Default)]
pub struct VerifierSet {
    by_id: HashMap<String, Scorer>,
}

impl std::fmt::Debug for VerifierSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut ids: Vec<&String> = self.by_id.keys().collect();
        ids.sort();
        f.debug_tuple("VerifierSet").field(&ids).finish()
    }
}

impl VerifierSet {
    /// These scorers, by their ids (`rubric` itself is left out).
    pub fn new(scorers: &[Scorer]) -> VerifierSet {
        let by_id = scorers
            .iter()
            .map(|scorer| (scorer.info().description.id.to_owned(), scorer.clone()))
            .filter(|(id, _)| id != RUBRIC_ID)
            .collect();
        VerifierSet { by_id }
    }

    /// The scorer registered as `id`.
    pub fn get(&self, id: &str) -> Option<&Scorer> {
        self.by_id.get(id)
    }

    /// True when `id` can be used as a criterion.
    pub fn knows(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }
}

/// One response to score against a rubric.
///
/// Give the rubric inline (`rubric`) or name a stored one (`rubric_id`, with `rubric_version`
/// to pin a version; the latest otherwise). Verdicts are `correct` at score 1, `incorrect` at 0
/// or when a veto criterion fails, `partial` between; `internal_error` or `timeout` when the
/// judge or a verifier criterion could not judge. Details list every criterion's score and
/// whether it passed, the vetoes, and each judge call's reply (truncated) and cache hit.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RubricInput {
    /// The response to score.
    #[schema(max_length = 1_000_000)]
    pub response: String,
    /// The task the response answers; the judge is shown it.
    #[serde(default)]
    #[schema(max_length = 1_000_000)]
    pub prompt: Option<String>,
    /// A reference answer: similarity criteria compare with it, verifier criteria receive it,
    /// the judge is shown it.
    #[serde(default)]
    #[schema(max_length = 1_000_000)]
    pub reference: Option<String>,
    /// An inline rubric.
    #[serde(default)]
    pub rubric: Option<RubricDefinition>,
    /// The id of a stored rubric.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 128)]
    pub rubric_id: Option<String>,
    /// The version of the stored rubric; the latest when absent.
    #[serde(default, deserialize_with = "integers::optional_integer")]
    #[schema(minimum = 1, maximum = 4_294_967_295_u64)]
    pub rubric_version: Option<u32>,
}
