//! `np-feedback`: every NP task as a multi-turn environment. The agent answers; an infeasible
//! answer is told which constraint it broke (and where), and may answer again; the reward is the
//! `np` verifier's score of the final answer, or of the best feasible one when the agent is asked
//! to keep improving.

use std::sync::Arc;

use futures::FutureExt as _;
use futures::future::BoxFuture;
use referee_core::utoipa::{self, ToSchema};
use referee_core::{
    Environment, EnvironmentDescription, EnvironmentError, EnvironmentInfo, Episode, InputSchema, Started, Status,
    Step, Verdict,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::catalogue::find;
use crate::reward::RewardMode;
use crate::task::Reference;
use crate::verifier::{NpInput, NpVerifier};

/// The id the environment is registered under.
pub const NP_FEEDBACK_ID: &str = "np-feedback";

/// The most turns an episode may be given.
pub const MAX_TURNS: u32 = 64;

/// An NP task as an episode: the first observation is the instance's prompt; each action is an
/// answer, scored as the `np` verifier scores it. An infeasible or unreadable answer gets the
/// violation as the observation (which constraint, which element) and the episode goes on; the
/// first feasible answer ends it with its reward, unless `keep_improving` asks for better answers
/// until the turns run out (the reward is then the best answer's). Out of turns, the episode ends
/// with the best answer's reward. `turn_penalty` is taken off the final reward for every turn
/// after the first. Every step before the last rewards 0.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NpFeedbackOptions {
    /// Task id, as listed by `GET /v1/environments` (e.g. `"tsp"`).
    pub task: String,
    /// Difficulty level; with `seed`, generates the instance. Alternative to `instance`.
    #[serde(default)]
    pub level: Option<u8>,
    /// Generation seed; with `level`, generates the instance.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The instance as JSON, as returned by instance generation.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub instance: Option<Value>,
    /// The reference for an inline `instance`; computed on the spot when absent.
    #[serde(default)]
    pub reference: Option<Reference>,
    /// Answers the agent may give, 1 to 64. Default 4.
    #[serde(default = "default_turns")]
    #[schema(minimum = 1, maximum = 64, default = 4)]
    pub max_turns: u32,
    /// How answers are rewarded (`quality`, `forge`, `ratio`, `binary`), as in the `np` verifier.
    #[serde(default)]
    pub reward_mode: RewardMode,
    /// Strict answer parsing, as in the `np` verifier.
    #[serde(default)]
    pub strict: bool,
    /// Taken off the final reward for each turn after the first, 0 to 1. Default 0.
    #[serde(default)]
    #[schema(minimum = 0.0, maximum = 1.0, default = 0.0)]
    pub turn_penalty: f64,
    /// Keep the episode going after a feasible answer, until the turns run out or an answer
    /// reaches the reference; the reward is the best answer's. Default false.
    #[serde(default)]
    pub keep_improving: bool,
}

fn default_turns() -> u32 {
    4
}

/// One answer.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NpFeedbackAction {
    /// The agent's response; its answer is read as the `np` verifier reads it (the last
    /// `<answer>` or `Answer:` line after any `</think>`).
    pub response: String,
}

/// The `np-feedback` environment.
#[derive(Debug, Clone, Default)]
pub struct NpFeedback {
    verifier: Arc<NpVerifier>,
}

impl NpFeedback {
    pub fn new() -> Self {
        NpFeedback::default()
    }
}

fn invalid(message: impl Into<String>) -> EnvironmentError {
    EnvironmentError::InvalidOptions(message.into())
}

impl Environment for NpFeedback {
    fn info(&self) -> EnvironmentInfo {
        EnvironmentInfo {
            description: EnvironmentDescription {
                id: NP_FEEDBACK_ID,
                version: "1",
                summary: "An NP optimisation task (TSP, knapsack, colouring, ...) over several turns: an infeasible \
                          answer is told which constraint it broke and may answer again; the reward is the np \
                          verifier's score of the final (or best) feasible answer, less an optional turn penalty.",
            },
            options: InputSchema::of::<NpFeedbackOptions>(),
            action: InputSchema::of::<NpFeedbackAction>(),
        }
    }

    fn start(&self, options: Value) -> BoxFuture<'static, Result<Started, EnvironmentError>> {
        let verifier = Arc::clone(&self.verifier);
        // Generating an instance solves its reference: milliseconds to seconds of CPU.
        referee_core::on_pool(move || start(verifier, options))
            .map(|started| {
                started.unwrap_or_else(|| Err(EnvironmentError::Internal("instance generation ended".into())))
            })
            .boxed()
    }
}

fn start(verifier: Arc<NpVerifier>, options: Value) -> Result<Started, EnvironmentError> {
    let options: NpFeedbackOptions = serde_json::from_value(options).map_err(|e| invalid(e.to_string()))?;
    if !(1..=MAX_TURNS).contains(&options.max_turns) {
        return Err(invalid(format!("max_turns must be 1 to {MAX_TURNS}, not {}", options.max_turns)));
    }
    if !(0.0..=1.0).contains(&options.turn_penalty) {
        return Err(invalid(format!("turn_penalty must be within [0, 1], not {}", options.turn_penalty)));
    }
    let task = find(&options.task).map_err(|e| invalid(e.to_string()))?;
    let (instance, reference, prompt) = match (&options.instance, options.level, options.seed) {
        (Some(instance), None, None) => {
            let prompt = task.prompt(instance).map_err(|e| invalid(e.to_string()))?;
            (instance.clone(), options.reference.clone(), prompt)
        }
        (None, Some(level), Some(seed)) => {
            let generated = task.generate(level, seed).map_err(|e| invalid(e.to_string()))?;
            (generated.instance, Some(generated.reference), generated.prompt)
        }
        _ => return Err(invalid("give either `instance` or both `level` and `seed`")),
    };
    let input = NpInput {
        task: options.task.clone(),
        instance: Some(instance),
        reference,
        level: None,
        seed: None,
        response: String::new(),
        reward_mode: options.reward_mode,
        strict: options.strict,
        infeasible_reward: None,
    };
    let observation = json!({
        "prompt": prompt,
        "task": options.task,
        "max_turns": options.max_turns,
        "keep_improving": options.keep_improving,
    });
    let episode =
        NpEpisode { verifier, input, options, turn: 0, best: None, last: None, outcome: None, best_status: None };
    Ok(Started { episode: Box::new(episode), observation })
}

/// One live `np-feedback` episode.
#[derive(Debug)]
struct NpEpisode {
    verifier: Arc<NpVerifier>,
    /// The scoring input; each answer replaces its response.
    input: NpInput,
    options: NpFeedbackOptions,
    turn: u32,
    /// The best feasible answer so far: (score, turn).
    best: Option<(f64, u32)>,
    /// The score of the last answer.
    last: Option<f64>,
    /// Once done, the status of the answer the final reward is (the best feasible one, else the
    /// last).
    outcome: Option<Status>,
    /// The status of the best feasible answer so far.
    best_status: Option<Status>,
}

impl NpEpisode {
    fn answer(&mut self, action: Value) -> Result<Step, EnvironmentError> {
        let action: NpFeedbackAction =
            serde_json::from_value(action).map_err(|e| EnvironmentError::InvalidAction(e.to_string()))?;
        self.input.response = action.response;
        let verdict = self.verifier.verify_one(&self.input);
        if verdict.status == Status::InvalidInput {
            let error =
                verdict.details.get("error").and_then(Value::as_str).unwrap_or("the episode's instance is invalid");
            return Err(EnvironmentError::InvalidOptions(error.to_owned()));
        }
        self.turn += 1;
        let feasible = verdict.details.get("feasible").and_then(Value::as_bool).unwrap_or(false);
        self.last = Some(verdict.score);
        if feasible && self.best.is_none_or(|(best, _)| verdict.score > best) {
            self.best = Some((verdict.score, self.turn));
            self.best_status = Some(verdict.status);
        }
        let reached = verdict.status == Status::Correct;
        let out_of_turns = self.turn >= self.options.max_turns;
        let done = out_of_turns || (feasible && (!self.options.keep_improving || reached));
        let reward = if done { self.final_reward() } else { 0.0 };
        if done {
            self.outcome = Some(self.best_status.unwrap_or(verdict.status));
        }
        let observation = self.observation(&verdict, feasible, done);
        Ok(Step { observation, reward, done })
    }

    /// The best feasible answer's score when keeping on improving or out of turns, else the last
    /// answer's; less the turn penalty.
    fn final_reward(&self) -> f64 {
        let score = match self.best {
            Some((best, _)) => best,
            None => self.last.unwrap_or(0.0),
        };
        score - self.options.turn_penalty * f64::from(self.turn.saturating_sub(1))
    }

    fn observation(&self, verdict: &Verdict, feasible: bool, done: bool) -> Value {
        let details = &verdict.details;
        let turns_left = self.options.max_turns - self.turn;
        let feedback = if feasible {
            let objective = details.get("objective").cloned().unwrap_or(Value::Null);
            if done {
                format!("Feasible; objective {objective}.")
            } else {
                format!(
                    "Feasible; objective {objective}, reference {}. You may improve it ({turns_left} turns left).",
                    details.get("reference_objective").cloned().unwrap_or(Value::Null)
                )
            }
        } else {
            let error = details.get("error");
            let message = error.and_then(|e| e.get("message")).and_then(Value::as_str).unwrap_or("no answer found");
            let kind = error.and_then(|e| e.get("kind")).and_then(Value::as_str).unwrap_or("unparseable");
            if done {
                format!("Not a feasible answer ({kind}): {message}.")
            } else {
                format!(
                    "Not a feasible answer ({kind}): {message}. Fix it and answer again ({turns_left} turns left); end \
                     with a final line `Answer: <your answer>`."
                )
            }
        };
        json!({
            "feedback": feedback,
            "turn": self.turn,
            "turns_left": turns_left,
            "feasible": feasible,
            "status": verdict.status,
            "score": verdict.score,
            "objective": details.get("objective").cloned().unwrap_or(Value::Null),
            "error": details.get("error").cloned().unwrap_or(Value::Null),
            "best": self.best.map(|(score, turn)| json!({"score": score, "turn": turn})),
        })
    }
}

impl Episode for NpEpisode {
    fn step(&mut self, action: Value) -> BoxFuture<'_, Result<Step, EnvironmentError>> {
        // Scoring an answer is microseconds to a millisecond: done in place.
        let step = self.answer(action);
        async move { step }.boxed()
    }

    fn state(&self) -> Value {
        json!({
            "task": self.input.task,
            "turn": self.turn,
            "max_turns": self.options.max_turns,
            "best": self.best.map(|(score, turn)| json!({"score": score, "turn": turn})),
            "last_score": self.last,
        })
    }

    fn outcome(&self) -> Option<Status> {
        self.outcome
    }
}
