//! What the proving run found, and the verdict it makes.

use std::collections::BTreeMap;

use referee_core::{Status, Verdict};
use referee_sandbox::{Execution, YOSYS_VERSION};
use serde::Serialize;

use super::Stop;
use super::design::{Log, PROVE, marker};
use super::script::{Plan, Timing};

/// Yosys's line when the induction step holds: equivalent for every step.
const PROVEN: &str = "Induction step proven: SUCCESS!";
/// Yosys's line when a base case fails: a trace on which the outputs differ follows.
const FAILED: &str = "model found for base case: FAIL!";
/// Yosys's line when the induction did not close within the steps allowed (the base cases held).
const BOUNDED: &str = "Reached maximum number of time steps -> proof failed.";
/// The line of each induction length tried.
const TRYING: &str = "** Trying induction with length ";

/// The proving run's answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Proof {
    /// Equivalent at every step, by induction of this length.
    Proven { length: u32 },
    /// Equivalent for the plan's steps from the initial state; beyond them, not proved.
    Bounded,
    /// A trace on which the outputs differ.
    Counterexample(Trace),
}

/// A counterexample: each step's inputs and both designs' outputs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Trace {
    pub steps: Vec<Step>,
}

/// One step of a counterexample. Values are binary, most significant bit first.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Step {
    pub step: u32,
    pub inputs: BTreeMap<String, String>,
    /// The reference's outputs.
    pub expected: BTreeMap<String, String>,
    /// The candidate's outputs.
    pub actual: BTreeMap<String, String>,
    /// Whether the outputs differ at this step.
    pub differs: bool,
}

impl Proof {
    /// Reads the log of the proving run.
    pub(crate) fn read(execution: &Execution) -> Result<Proof, Stop> {
        let log = Log::of(execution);
        if let Some(stop) = log.stop() {
            return Err(stop);
        }
        let mut proving = false;
        let mut length = 0;
        let mut trace: Option<Trace> = None;
        for line in log.stdout.lines() {
            if let Some((_, stage)) = marker(line) {
                proving = stage == PROVE;
                continue;
            }
            if !proving {
                continue;
            }
            if let Some(rest) = line.trim().strip_prefix(TRYING) {
                length = rest.trim_end_matches(" **").trim().parse().unwrap_or(length);
            } else if line.contains(PROVEN) {
                return Ok(Proof::Proven { length });
            } else if line.contains(BOUNDED) {
                return Ok(Proof::Bounded);
            } else if line.contains(FAILED) {
                trace = Some(Trace::default());
            } else if let Some(trace) = trace.as_mut() {
                trace.read_row(line);
            }
        }
        match trace {
            Some(trace) if !trace.steps.is_empty() => Ok(Proof::Counterexample(trace)),
            _ => Err(Stop::Failed(format!("the proof ended without an answer: {}", log.tail()))),
        }
    }

    /// The verdict of this proof under `plan`; a bounded one is scored `bounded_score` (see
    /// [`Unproved::equivalent`]).
    pub(crate) fn verdict(self, plan: &Plan, bounded_score: f64) -> Verdict {
        let base = match self {
            Proof::Proven { length } => {
                let method = if plan.sequential { "induction" } else { "sat" };
                let verdict = Verdict::correct().with("verdict", "equivalent").with("method", method);
                if plan.sequential { verdict.with("induction_length", length) } else { verdict }
            }
            Proof::Bounded => return Unproved::Bounded { depth: plan.cycles }.equivalent(bounded_score, plan),
            Proof::Counterexample(trace) => {
                let message = trace.describe(plan);
                Verdict::incorrect()
                    .with("verdict", "counterexample")
                    .with("message", message)
                    .with("counterexample", trace.steps)
            }
        };
        annotate(base, plan)
    }
}

/// What a proof left open when it gave no complete answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Unproved {
    /// It reached its bound: the outputs agree on every input sequence of `depth` cycles from
    /// reset, and nothing is proved beyond.
    Bounded { depth: u32 },
    /// It ran out of fuel ([`Stop::Timeout`]) or memory ([`Stop::Memory`]) before any answer.
    Stopped(Stop),
}

impl Unproved {
    /// How the details name it: `proof` (`bounded`, `timeout` or `memory_limit`), and the
    /// `depth` of a bounded proof.
    fn describe(&self, verdict: Verdict) -> Verdict {
        match self {
            Unproved::Bounded { depth } => verdict.with("proof", "bounded").with("depth", depth),
            Unproved::Stopped(Stop::Memory) => verdict.with("proof", "memory_limit"),
            Unproved::Stopped(_) => verdict.with("proof", "timeout"),
        }
    }

    /// The verdict `equivalent` on this evidence, which is not a complete proof (`bounded: true`):
    /// scored `score` (the item's `bounded_score`), `correct` at 1 and `partial` below. `method`
    /// is `bounded` (the bounded proof, then the simulation past it where one ran) or
    /// `simulation` (in place of the proof).
    pub(crate) fn equivalent(&self, score: f64, plan: &Plan) -> Verdict {
        let status = if score >= 1.0 { Status::Correct } else { Status::Partial };
        let method = match self {
            Unproved::Bounded { .. } => "bounded",
            Unproved::Stopped(_) => "simulation",
        };
        let verdict = Verdict::new(score, status).with("verdict", "equivalent").with("method", method);
        annotate(self.describe(verdict).with("bounded", true), plan)
    }

    /// The verdict of a counterexample that random simulation found where the proof left off.
    pub(crate) fn counterexample(&self, trace: Trace, plan: &Plan) -> Verdict {
        let verdict = Verdict::incorrect()
            .with("verdict", "counterexample")
            .with("method", "simulation")
            .with("message", trace.describe(plan))
            .with("counterexample", trace.steps);
        annotate(self.describe(verdict), plan)
    }
}

/// The fields every verdict of a check carries: how time was modelled, the Yosys version and,
/// for a sequential design, the reset held in its first cycle (null when none).
fn annotate(verdict: Verdict, plan: &Plan) -> Verdict {
    let timing = match plan.timing {
        Timing::Cycles => "cycles",
        Timing::Events => "events",
    };
    let verdict = verdict.with("timing", timing).with("yosys", YOSYS_VERSION);
    if !plan.sequential {
        return verdict;
    }
    match &plan.reset {
        Some((reset, active_low)) => {
            verdict.with("reset", serde_json::json!({"signal": reset, "active_low": active_low}))
        }
        None => verdict.with("reset", serde_json::Value::Null),
    }
}

impl Trace {
    /// Reads one row of Yosys's table (`  <step> \<signal>  <dec>  <hex>  <bin>`), if `line` is one.
    fn read_row(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [step, signal, .., bits] = words.as_slice() else { return };
        let (Ok(step), Some(signal)) = (step.parse::<u32>(), signal.strip_prefix('\\')) else { return };
        if words.len() < 5 {
            return;
        }
        if self.steps.last().is_none_or(|last| last.step != step) {
            self.steps.push(Step { step, ..Step::default() });
        }
        let Some(row) = self.steps.last_mut() else { return };
        let bits = (*bits).to_owned();
        if signal == "trigger" {
            row.differs = bits.contains('1');
        } else if let Some(name) = signal.strip_prefix("in_") {
            row.inputs.insert(name.to_owned(), bits);
        } else if let Some(name) = signal.strip_prefix("gold_") {
            row.expected.insert(name.to_owned(), bits);
        } else if let Some(name) = signal.strip_prefix("gate_") {
            row.actual.insert(name.to_owned(), bits);
        }
    }

    /// One sentence on the first difference, for a trainer to show the model.
    pub(crate) fn describe(&self, plan: &Plan) -> String {
        let Some(step) = self.steps.iter().find(|s| s.differs) else {
            return "the outputs differ on the trace in `counterexample`".to_owned();
        };
        let outputs: Vec<String> = step
            .expected
            .iter()
            .filter_map(|(name, expected)| {
                let actual = step.actual.get(name)?;
                (actual != expected).then(|| format!("`{name}` is {actual}, expected {expected}"))
            })
            .collect();
        let when = match (plan.timing, plan.sequential) {
            (_, false) => "with the inputs in `counterexample`".to_owned(),
            (Timing::Cycles, true) => format!("at cycle {} of the trace in `counterexample`", step.step),
            (Timing::Events, true) => format!("at step {} (half cycle) of the trace in `counterexample`", step.step),
        };
        let inputs: Vec<String> = step.inputs.iter().map(|(name, bits)| format!("{name}={bits}")).collect();
        format!("{when} ({}): {}", inputs.join(", "), outputs.join("; "))
    }
}
