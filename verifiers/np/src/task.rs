//! The contract every task implements, and the generic machinery that turns a task into a
//! scoring environment.

use referee_core::utoipa::{self, ToSchema};
use referee_core::{Status, Verdict};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::extract::{RegionRule, find_region};
use crate::parse::{Node, ParseRule, parse_region};
use crate::reward::{Direction, Judgement, Quality, RewardMode, quality, reward};
use crate::rng::Rng;
use crate::violation::{ErrorKind, Violation};

/// How trustworthy a reference objective is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReferenceKind {
    /// Proven optimal by an exact solver (DP, branch and bound, enumeration).
    Exact,
    /// Optimal by construction: a planted solution that meets a proven bound.
    PlantedOptimal,
    /// The best solution a bounded heuristic found; an answer may beat it.
    Heuristic,
}

impl ReferenceKind {
    /// True when the reference objective is a proven optimum.
    pub fn proven(self) -> bool {
        match self {
            ReferenceKind::Exact | ReferenceKind::PlantedOptimal => true,
            ReferenceKind::Heuristic => false,
        }
    }
}

/// The reference solution of an instance, computed once at generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Reference {
    /// The reference objective value.
    pub objective: i64,
    /// Whether the objective is a proven optimum (`exact`, `planted_optimal`) or not.
    pub kind: ReferenceKind,
    /// A proven bound on the optimum from the other side, when one is known: a lower bound for
    /// minimisation, an upper bound for maximisation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<i64>,
    /// The objective of the task's cheap baseline solution (q_b in the quality reward).
    pub baseline_objective: i64,
    /// The reference solution in canonical form (any JSON value: a tour, a set, an assignment).
    #[schema(value_type = serde_json::Value)]
    pub solution: Value,
    /// The reference solution written in the task's answer format.
    pub answer: String,
}

/// A reference solver's result.
#[derive(Debug, Clone)]
pub struct Solved<S> {
    /// The best solution found.
    pub solution: S,
    /// How it was obtained.
    pub kind: ReferenceKind,
    /// A proven bound on the optimum, if any.
    pub bound: Option<i64>,
}

/// One difficulty level of a task.
#[derive(Debug, Clone, Copy)]
pub struct LevelSpec {
    /// 1-based level number.
    pub level: u8,
    /// Sizes and the reference kind at this level, for users.
    pub description: &'static str,
}

/// One NP optimisation (or decision) task: generator, verifier and reference solvers.
///
/// Implementations keep the verifier's hot path (`decode` + `objective`) allocation-light; the
/// reference solvers must be deterministic (budgets are counted in steps, never wall-clock
/// time), because a reference is part of what `(task, level, seed)` reproduces.
pub trait Problem: 'static {
    /// The instance, as stored and exchanged in JSON.
    type Instance: Serialize + DeserializeOwned + Send + Sync + 'static;
    /// A decoded answer.
    type Solution: std::fmt::Debug;
    /// Stable task id.
    const NAME: &'static str;
    /// One paragraph for users.
    const SUMMARY: &'static str;
    /// Objective direction.
    const DIRECTION: Direction;
    /// The answer format, as the prompt states it.
    const ANSWER_FORMAT: &'static str;
    /// Bumped whenever generation for an existing (level, seed) would change.
    const GENERATOR_VERSION: u32;
    /// The levels, 1-based and contiguous.
    const LEVELS: &'static [LevelSpec];

    /// A fresh instance for `level` (already validated) from `rng`, with the planted solution
    /// when the generator plants one.
    fn generate(level: u8, rng: &mut Rng) -> (Self::Instance, Option<Self::Solution>);
    /// Checks a caller-supplied instance: consistent dimensions and sizes within caps.
    fn validate(instance: &Self::Instance) -> Result<(), String>;
    /// The problem statement (the answer-format instructions are appended generically).
    fn prompt(instance: &Self::Instance) -> String;
    /// Turns a parsed answer into a solution: shape, ranges, duplicates.
    fn decode(instance: &Self::Instance, answer: &Node) -> Result<Self::Solution, Violation>;
    /// Tasks whose answers are not lists (an arithmetic expression) read the answer region
    /// themselves and return the rule they applied; `None` (the default) means the list parser
    /// and [`Problem::decode`].
    fn decode_text(
        _instance: &Self::Instance,
        _region: &str,
        _strict: bool,
    ) -> Option<Result<(Self::Solution, ParseRule), Violation>> {
        None
    }
    /// Checks feasibility and returns the objective.
    fn objective(instance: &Self::Instance, solution: &Self::Solution) -> Result<i64, Violation>;
    /// The canonical form of a solution (tour rotation and reversal, colour relabelling,
    /// partition and set order removed) so equal solutions compare equal.
    fn canonical(instance: &Self::Instance, solution: &Self::Solution) -> Value;
    /// The solution in the answer format.
    fn format(instance: &Self::Instance, solution: &Self::Solution) -> String;
    /// The reference solver: exact where the instance is small enough, else a bounded heuristic.
    /// `planted` is the generator's planted solution, when known (never for caller-supplied
    /// instances); a solver may return it as `planted_optimal` when a bound proves it optimal.
    fn solve(instance: &Self::Instance, planted: Option<&Self::Solution>) -> Solved<Self::Solution>;
    /// A cheap baseline solution, whose quality anchors the `quality` reward's zero point.
    fn baseline(instance: &Self::Instance) -> Self::Solution;
}

/// The outcome of checking one response against an instance, before any reward.
#[derive(Debug)]
pub struct Checked<S> {
    /// The rule that chose the answer region, if one was found.
    pub region_rule: Option<RegionRule>,
    /// The rule that parsed it, if it parsed.
    pub parse_rule: Option<ParseRule>,
    /// The decoded solution and its objective, or why there is none.
    pub result: Result<(S, i64), Violation>,
}

/// Extracts, parses, decodes and checks an answer: the whole verifier hot path, without reward.
pub fn check<P: Problem>(instance: &P::Instance, response: &str, strict: bool) -> Checked<P::Solution> {
    let region = match find_region(response, strict) {
        Ok(region) => region,
        Err(missing) => {
            return Checked {
                region_rule: None,
                parse_rule: None,
                result: Err(Violation::new(ErrorKind::NoAnswer, missing.message())),
            };
        }
    };
    if let Some(decoded) = P::decode_text(instance, region.text, strict) {
        let (parse_rule, result) = match decoded {
            Ok((solution, rule)) => {
                (Some(rule), P::objective(instance, &solution).map(|objective| (solution, objective)))
            }
            Err(e) => (None, Err(e)),
        };
        return Checked { region_rule: Some(region.rule), parse_rule, result };
    }
    let prefer_last = region.rule == RegionRule::LastBracket;
    let (node, parse_rule) = match parse_region(region.text, strict, prefer_last) {
        Ok(parsed) => parsed,
        Err(e) => {
            return Checked { region_rule: Some(region.rule), parse_rule: None, result: Err(e) };
        }
    };
    let result = P::decode(instance, &node).and_then(|solution| {
        let objective = P::objective(instance, &solution)?;
        Ok((solution, objective))
    });
    Checked { region_rule: Some(region.rule), parse_rule: Some(parse_rule), result }
}

/// Options of one scoring call.
#[derive(Debug, Clone, Copy)]
pub struct ScoreOptions {
    /// The reward mode.
    pub mode: RewardMode,
    /// Strict parsing: only marked regions, exactly one structure.
    pub strict: bool,
    /// The `quality` reward of a parsed but infeasible answer.
    pub infeasible_reward: f64,
}

/// Computes the reference of an instance.
pub fn reference_of<P: Problem>(instance: &P::Instance, planted: Option<&P::Solution>) -> Reference {
    let solved = P::solve(instance, planted);
    let baseline = P::baseline(instance);
    // Both come from the task's own solvers; an infeasible one is a bug that the property
    // tests catch, and here it degrades to the worst objective rather than a panic.
    let worst = match P::DIRECTION {
        Direction::Maximize => 0,
        Direction::Minimize | Direction::MinimizeShifted => i64::MAX / 4,
    };
    let objective = P::objective(instance, &solved.solution).unwrap_or(worst);
    let baseline_objective = P::objective(instance, &baseline).unwrap_or(worst);
    Reference {
        objective,
        kind: solved.kind,
        bound: solved.bound,
        baseline_objective,
        solution: P::canonical(instance, &solved.solution),
        answer: P::format(instance, &solved.solution),
    }
}

/// The full prompt: the task's statement plus the answer-format instructions.
pub fn full_prompt<P: Problem>(instance: &P::Instance) -> String {
    format!(
        "{}\n\nAnswer format: {}\nThink as long as you need, then end your response with a final line of the form `Answer: <your answer>`.",
        P::prompt(instance),
        P::ANSWER_FORMAT
    )
}

/// Scores one response: check, then reward, with every detail the issue asks for.
pub fn score<P: Problem>(
    instance: &P::Instance,
    reference: &Reference,
    response: &str,
    options: &ScoreOptions,
) -> Verdict {
    let checked = check::<P>(instance, response, options.strict);
    let has_answer_marker = response.contains("Answer:");
    let mut details = serde_json::Map::new();
    let mut put = |k: &str, v: Value| {
        details.insert(k.to_owned(), v);
    };
    put("task", Value::from(P::NAME));
    put("parsing", Value::from(if options.strict { "strict" } else { "lenient" }));
    put("region_rule", serde_json::to_value(checked.region_rule).unwrap_or(Value::Null));
    put("parse_rule", serde_json::to_value(checked.parse_rule).unwrap_or(Value::Null));
    put("reference_objective", Value::from(reference.objective));
    put("reference_kind", serde_json::to_value(reference.kind).unwrap_or(Value::Null));
    put("bound", serde_json::to_value(reference.bound).unwrap_or(Value::Null));
    put("baseline_objective", Value::from(reference.baseline_objective));
    let (judgement, q, status) = match &checked.result {
        Ok((solution, objective)) => {
            let q = quality(
                P::DIRECTION,
                *objective,
                reference.objective,
                reference.baseline_objective,
                reference.kind.proven(),
            );
            let canonical = P::canonical(instance, solution);
            put("feasible", Value::Bool(true));
            put("parsed", Value::Bool(true));
            put("objective", Value::from(*objective));
            put("ratio", Value::from(q.ratio));
            put("baseline_ratio", Value::from(q.baseline_ratio));
            put("gap_closed", Value::from(q.gap_closed));
            put("proven_optimal", Value::Bool(q.proven_optimal));
            put("beats_reference", Value::Bool(q.ratio > 1.0));
            put("matches_reference", Value::Bool(canonical == reference.solution));
            put("canonical", canonical);
            let status = if q.reaches_reference { Status::Correct } else { Status::Partial };
            (Judgement { parsed: true, objective: Some(*objective), has_answer_marker }, Some(q), status)
        }
        Err(v) => {
            put("feasible", Value::Bool(false));
            put("parsed", Value::Bool(v.kind.parsed()));
            put("objective", Value::Null);
            put("ratio", Value::Null);
            put("gap_closed", Value::Null);
            put("error", serde_json::to_value(v).unwrap_or(Value::Null));
            let status = if v.kind.parsed() { Status::Incorrect } else { Status::Unparseable };
            (Judgement { parsed: v.kind.parsed(), objective: None, has_answer_marker }, None, status)
        }
    };
    put("reward_mode", serde_json::to_value(options.mode).unwrap_or(Value::Null));
    let score = reward(options.mode, &judgement, q.as_ref(), options.infeasible_reward);
    Verdict { score, status, details }
}

/// Convenience for tests and benchmarks: the quality numbers of an objective.
pub fn quality_of<P: Problem>(reference: &Reference, objective: i64) -> Quality {
    quality(P::DIRECTION, objective, reference.objective, reference.baseline_objective, reference.kind.proven())
}
