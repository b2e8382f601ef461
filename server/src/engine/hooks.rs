//! The pipeline's hooks: a feature that works on verdicts (noise correction and appeals, run
//! statistics) plugs in here, so the engine never imports a feature.

use futures::future::BoxFuture;
use referee_core::Budget;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::ScoreResult;

/// Whether a scored item's `score` is replaced by its corrected reward.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Correction {
    /// `score` stays the raw verdict; `details.reward` carries the corrections.
    #[default]
    None,
    /// `score` is the backward-corrected reward wherever a noise model allows one.
    Backward,
}

/// The training run an item belongs to: its `run`, `step` (0 when not given), `prompt_id` and
/// `group`, as the item or its request named them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunTag {
    pub run: String,
    pub step: i64,
    pub prompt_id: Option<String>,
    pub group: Option<String>,
}

/// What a hook sees of an item before its input goes to the verifier.
#[derive(Debug, Clone, Copy)]
pub struct Observed<'a> {
    /// The item's position in the request.
    pub position: usize,
    pub verifier: &'static str,
    /// The task/source label.
    pub label: Option<&'a str>,
    pub run: Option<&'a RunTag>,
    pub input: &'a Value,
}

/// Work a feature does around the scoring of each request.
pub trait ScoringHook: Send + Sync + std::fmt::Debug {
    /// Starts on a request; `None` when the hook has nothing to do for it (the request then
    /// pays nothing for the hook).
    fn begin(self: std::sync::Arc<Self>) -> Option<Box<dyn RequestHook>>;
}

/// A hook's work on one request.
pub trait RequestHook: Send {
    /// Sees an item before its input goes to the verifier.
    fn observe(&mut self, item: Observed<'_>);

    /// Finishes once every item has its verdict: `results` in item order, `labels` and `runs`
    /// the items' labels and run tags by position; may rewrite results within `budget`.
    fn finish<'a>(
        self: Box<Self>,
        results: &'a mut [ScoreResult],
        labels: &'a [Option<String>],
        runs: &'a [Option<RunTag>],
        correction: Correction,
        budget: Budget,
    ) -> BoxFuture<'a, ()>;
}
