//! The `np` verifier: [`referee_core::Verifier`] over every task in the catalogue.

use referee_core::utoipa::{self, ToSchema};
use referee_core::{Budget, Description, Verdict, Verifier, verify_each};
use serde::Deserialize;
use serde_json::Value;

use crate::api::NpError;
use crate::catalogue::find;
use crate::environment::{InstanceCache, InstanceSource};
use crate::reward::RewardMode;
use crate::task::{Reference, ScoreOptions};

/// Scores a response to one NP environment instance.
///
/// Give the instance either inline (`instance`, optionally with the `reference` that
/// generation returned) or as `level` + `seed`, which regenerates it exactly. The answer is
/// taken from the response after the last `</think>`: the last `<answer>...</answer>`, else the
/// last `Answer:` line, else (lenient parsing only) the last fenced block or the last bracketed
/// structure. It is tokenised, never evaluated.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NpInput {
    /// Task id, as listed by `GET /v1/environments` (e.g. `"tsp"`).
    pub task: String,
    /// The instance as JSON, as returned by instance generation. Alternative to `level` + `seed`.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub instance: Option<Value>,
    /// The reference for an inline `instance`; computed on the spot when absent.
    #[serde(default)]
    pub reference: Option<Reference>,
    /// Difficulty level; with `seed`, regenerates the instance instead of passing it.
    #[serde(default)]
    pub level: Option<u8>,
    /// Generation seed; with `level`, regenerates the instance.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The model's full response text.
    pub response: String,
    /// `quality` (default), `forge`, `ratio` or `binary`.
    #[serde(default)]
    pub reward_mode: RewardMode,
    /// Strict parsing: require an `<answer>` tag or `Answer:` marker and exactly one structure
    /// after it. Default lenient.
    #[serde(default)]
    pub strict: bool,
    /// `quality` reward for an answer that parses but is infeasible, in [0, 1]. Default 0.1.
    #[serde(default)]
    pub infeasible_reward: Option<f64>,
}

/// The `np` verifier. Holds a cache of instances regenerated from (task, level, seed).
#[derive(Debug, Default)]
pub struct NpVerifier {
    cache: InstanceCache,
}

impl NpVerifier {
    /// A verifier with an empty instance cache.
    pub fn new() -> Self {
        NpVerifier::default()
    }

    /// Scores one input (what `verify_batch` does per item).
    pub fn verify_one(&self, input: &NpInput) -> Verdict {
        match self.try_verify(input) {
            Ok(verdict) => verdict,
            Err(e) => Verdict::invalid_input(e.to_string()),
        }
    }

    fn try_verify(&self, input: &NpInput) -> Result<Verdict, NpError> {
        let env = find(&input.task)?;
        let infeasible_reward = input.infeasible_reward.unwrap_or(0.1);
        if !(0.0..=1.0).contains(&infeasible_reward) {
            return Err(NpError::InvalidInstance {
                task: input.task.clone(),
                reason: format!("infeasible_reward must be within [0, 1], not {infeasible_reward}"),
            });
        }
        let options = ScoreOptions { mode: input.reward_mode, strict: input.strict, infeasible_reward };
        let source = match (&input.instance, input.level, input.seed) {
            (Some(instance), None, None) => InstanceSource::Given { instance, reference: input.reference.as_ref() },
            (None, Some(level), Some(seed)) => InstanceSource::Seeded { level, seed },
            _ => return Err(NpError::MissingInstance),
        };
        env.score(source, &input.response, &options, &self.cache)
    }
}

impl Verifier for NpVerifier {
    type Input = NpInput;

    fn description(&self) -> Description {
        Description {
            id: "np",
            version: "1",
            summary: "NP optimisation environments (TSP, knapsack, graph colouring, ...): parses the answer without \
                      evaluating it, checks feasibility with typed errors, and rewards quality against an exact, \
                      planted-optimal or heuristic reference.",
        }
    }

    fn verify_batch(&self, inputs: &[NpInput], budget: &Budget) -> Vec<Verdict> {
        verify_each(inputs, budget, |input, _| self.verify_one(input))
    }
}
