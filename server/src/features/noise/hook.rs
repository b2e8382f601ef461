//! The noise layer as a hook of the scoring pipeline: it draws appeal candidates before the
//! items are scored, and corrects, counts and appeals their verdicts after.

use std::sync::Arc;

use futures::future::BoxFuture;
use referee_core::Budget;

use super::{Candidate, NoiseLayer, Snapshot};
use crate::engine::{Correction, Observed, RequestHook, RunTag, ScoreResult, ScoringHook};

/// The noise layer on one request: the models in force when it began, and the appeal candidates
/// drawn before scoring.
struct NoiseRequest {
    layer: Arc<NoiseLayer>,
    snapshot: Arc<Snapshot>,
    candidates: Vec<Option<Candidate>>,
}

impl ScoringHook for NoiseLayer {
    fn begin(self: Arc<Self>) -> Option<Box<dyn RequestHook>> {
        let snapshot = self.snapshot();
        if snapshot.is_empty() {
            return None;
        }
        Some(Box::new(NoiseRequest { layer: self, snapshot, candidates: Vec::new() }))
    }
}

impl RequestHook for NoiseRequest {
    fn observe(&mut self, item: Observed<'_>) {
        if let Some(candidate) = self.layer.candidate(&self.snapshot, item.verifier, item.label, item.input) {
            if self.candidates.len() <= item.position {
                self.candidates.resize_with(item.position + 1, || None);
            }
            self.candidates[item.position] = Some(candidate);
        }
    }

    fn finish<'a>(
        self: Box<Self>,
        results: &'a mut [ScoreResult],
        labels: &'a [Option<String>],
        _: &'a [Option<RunTag>],
        correction: Correction,
        budget: Budget,
    ) -> BoxFuture<'a, ()> {
        let NoiseRequest { layer, snapshot, candidates } = *self;
        Box::pin(async move { layer.after_scoring(&snapshot, results, labels, candidates, correction, budget).await })
    }
}
