//! What the proving run found, and the verdict it makes.

use std::collections::BTreeMap;

use referee_core::Verdict;
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

    /// The verdict of this proof under `plan`.
    pub(crate) fn verdict(self, plan: &Plan) -> Verdict {
        let method = match (&self, plan.sequential) {
            (Proof::Proven { .. }, false) => "sat",
            (Proof::Proven { .. }, true) => "induction",
            (Proof::Bounded, _) => "bounded",
            (Proof::Counterexample(_), _) => "counterexample",
        };
        let base = match self {
            Proof::Proven { length } => {
                let verdict = Verdict::correct().with("verdict", "equivalent").with("method", method);
                if plan.sequential { verdict.with("induction_length", length) } else { verdict }
            }
            Proof::Bounded => {
                Verdict::correct().with("verdict", "equivalent").with("method", method).with("cycles", plan.cycles)
            }
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

/// The fields every verdict of a check carries: how time was modelled, the Yosys version and
/// the reset.
pub(crate) fn annotate(verdict: Verdict, plan: &Plan) -> Verdict {
    let timing = match plan.timing {
        Timing::Cycles => "cycles",
        Timing::Events => "events",
    };
    let verdict = verdict.with("timing", timing).with("yosys", YOSYS_VERSION);
    match &plan.reset {
        Some((reset, active_low)) if plan.sequential => {
            verdict.with("reset", serde_json::json!({"signal": reset, "active_low": active_low}))
        }
        _ => verdict,
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
