//! The one list of scorers this server offers. Adding a verifier means adding a line here.

use std::collections::HashMap;
use std::sync::Arc;

use referee_code::CodeVerifier;
use referee_composite::CompositeScorer;
use referee_core::{Environment, Scorer, ScorerInfo};
use referee_grounding::GroundingScorer;
use referee_math::MathVerifier;
use referee_np::{NpFeedback, NpVerifier};
use referee_process::ProcessScorer;
use referee_rlpr::RlprModel;
use referee_rubric::{Backing, JudgeClient, RubricScorer, VerifierSet};
use referee_text::{ExactMatch, MultipleChoice, RegexMatch};

/// A registered scorer with its description and input schema, computed once.
#[derive(Debug, Clone)]
pub struct Entry {
    pub scorer: Scorer,
    pub info: ScorerInfo,
}

impl Entry {
    /// The scorer's id.
    pub fn id(&self) -> &'static str {
        self.info.description.id
    }

    /// The scorer's version.
    pub fn version(&self) -> &'static str {
        self.info.description.version
    }
}

/// The scorers by id, in registration order.
#[derive(Debug, Clone)]
pub struct Registry {
    entries: Vec<Entry>,
    by_id: HashMap<&'static str, usize>,
    /// The `code` verifier, for its languages' availability (a clone sharing its sandbox).
    code: Option<CodeVerifier>,
    /// The multi-turn environments episodes start from.
    environments: Vec<Arc<dyn Environment>>,
}

impl Registry {
    /// Every scorer Referee ships, with no judge configured and no database for `rubric`, no
    /// model for `rlpr`, and `code` on a sandbox of the default configuration made at its first
    /// use (so building the registry for a listing or a schema starts nothing).
    pub fn builtin() -> Registry {
        Registry::builtin_with(
            JudgeClient::unconfigured(),
            Backing::default(),
            CodeVerifier::new(),
            RlprModel::default(),
        )
    }

    /// Every scorer Referee ships; `rubric` asks `judge` and reads stored rubrics through
    /// `backing`, and may use every other scorer as a criterion; `composite` hands its parts to
    /// the scorers before it; `grounding` checks answers with the scorers before it and `rubric`;
    /// `process` scores steps with `judge` or with the scorers before `rubric`;
    /// `code` is the configured code
    /// verifier, on the server's sandbox, and `code-tests` and `verilog` share its sandbox and queue; `rlpr` scores with its source when an item sends no
    /// log-probs.
    pub fn builtin_with(judge: JudgeClient, backing: Backing, code: CodeVerifier, rlpr: RlprModel) -> Registry {
        let languages = code.clone();
        let code_tests = code.tests_verifier();
        let verilog = code.verilog_verifier();
        let scorers = vec![
            Scorer::verifier(ExactMatch),
            Scorer::verifier(RegexMatch),
            Scorer::verifier(MultipleChoice),
            Scorer::verifier(MathVerifier::new()),
            Scorer::verifier(NpVerifier::new()),
            Scorer::reward_model(rlpr),
            Scorer::reward_model(code),
            Scorer::reward_model(code_tests),
            Scorer::reward_model(verilog),
        ];
        let process = Scorer::reward_model(ProcessScorer::new(&scorers, judge.clone()));
        let rubric = Scorer::reward_model(RubricScorer::new(VerifierSet::new(&scorers), judge, backing));
        let composite = Scorer::reward_model(CompositeScorer::new(&scorers));
        // The answer of a grounded response may be judged by any scorer above, `rubric` (an LLM
        // judge) included.
        let answer_checks: Vec<Scorer> = scorers.iter().cloned().chain([rubric.clone()]).collect();
        let grounding = Scorer::reward_model(GroundingScorer::new(&answer_checks));
        let all: Vec<Scorer> = scorers.into_iter().chain([rubric, composite, grounding, process]).collect();
        // A python-tool episode's answer may be judged by any scorer.
        let environments: Vec<Arc<dyn Environment>> = vec![
            Arc::new(NpFeedback::new()),
            Arc::new(languages.repair_environment()),
            Arc::new(languages.tool_environment(languages.sessions(), &all)),
        ];
        let mut registry = Registry::new(all);
        registry.code = Some(languages);
        registry.environments = environments;
        registry
    }

    /// A registry of exactly these scorers.
    ///
    /// # Panics
    /// When two scorers share an id: that is a programming error in the list above.
    pub fn new(scorers: Vec<Scorer>) -> Registry {
        let entries: Vec<Entry> = scorers.into_iter().map(|scorer| Entry { info: scorer.info(), scorer }).collect();
        let mut by_id = HashMap::new();
        for (index, entry) in entries.iter().enumerate() {
            let previous = by_id.insert(entry.id(), index);
            assert!(previous.is_none(), "two scorers are registered as {}", entry.id());
        }
        Registry { entries, by_id, code: None, environments: Vec::new() }
    }

    /// The scorer with this id.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.by_id.get(id).map(|&i| &self.entries[i])
    }

    /// The position of the scorer with this id.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// The scorer at a position from [`Registry::index_of`].
    pub fn at(&self, index: usize) -> &Entry {
        &self.entries[index]
    }

    /// All scorers in registration order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The multi-turn environments, in registration order.
    pub fn environments(&self) -> &[Arc<dyn Environment>] {
        &self.environments
    }

    /// The `code` verifier of a registry built by [`Registry::builtin_with`] or
    /// [`Registry::builtin`]: which languages it can run here.
    pub fn code(&self) -> Option<&CodeVerifier> {
        self.code.as_ref()
    }
}
