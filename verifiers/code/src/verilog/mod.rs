//! The `verilog` verifier: a model's Verilog module against a golden reference module, checked
//! formally by Yosys running in the sandbox ([`referee_sandbox::YosysRuntime`]).
//!
//! Each item takes two Yosys runs. The first reads both designs (each on its own, so that their
//! submodules may share names), elaborates them and lists their ports and cells: a design that
//! does not parse is a `syntax_error`, designs whose ports differ a `port_mismatch`. The second
//! builds a miter of the two (`miter -equiv`: outputs compared bit by bit, an `x` of the
//! reference matching anything) and proves that it never fires with a SAT-based temporal
//! induction (`sat -tempinduct`): every register starts at zero, the reset (when the design has
//! one) is held for the first cycle, and the proof either closes by induction (equivalent for
//! every cycle), finds a counterexample (the input trace that makes the outputs differ), or
//! reaches the item's bound (equivalent for that many cycles from reset). A purely combinational
//! design is proved at the first step. When the proof runs out of fuel or memory, a third run writes both
//! designs' gate-level netlists and [`simulate`] runs them side by side on random input traces
//! (the verdict says `method: simulation`). See docs/verifiers/verilog.md.

mod design;
mod input;
mod report;
mod script;
mod simulate;

pub use input::{MAX_CYCLES, VerilogInput};

use referee_core::{Admission, Budget, Busy, Description, RewardModel, Verdict};
use referee_sandbox::{Limits, SandboxError, Termination, YOSYS_VERSION};

use crate::CodeVerifier;
use crate::sandbox::SandboxCell;
use design::Elaborated;
use report::Proof;

/// The verifier's id.
pub const VERILOG_ID: &str = "verilog";

/// The `verilog` verifier: on the `code` verifier's sandbox, taking its items from the same
/// queue.
#[derive(Debug, Clone)]
pub struct VerilogVerifier {
    code: CodeVerifier,
}

impl CodeVerifier {
    /// The `verilog` verifier on this verifier's sandbox and queue.
    pub fn verilog_verifier(&self) -> VerilogVerifier {
        VerilogVerifier { code: self.clone() }
    }
}

impl RewardModel for VerilogVerifier {
    type Input = VerilogInput;

    fn description(&self) -> Description {
        Description {
            id: VERILOG_ID,
            version: "2",
            summary: "Checks a model's Verilog module (given, or the last fenced block of a response) against a \
                      golden reference module with Yosys in the WebAssembly sandbox: a SAT proof for combinational \
                      designs, temporal induction or a bounded proof over N cycles from reset for sequential ones, \
                      random-stimulus simulation where the proof runs out of fuel. \
                      Score 1 when equivalent; 0 with the verdict (counterexample with its input trace, \
                      syntax_error, port_mismatch) otherwise.",
        }
    }

    async fn score_batch(&self, inputs: Vec<VerilogInput>, budget: Budget) -> Vec<Verdict> {
        let sandbox = &self.code.sandbox;
        futures::future::join_all(inputs.into_iter().map(|input| judge(input, budget, sandbox.clone()))).await
    }

    /// One item takes one place in the `code` verifier's queue.
    fn admit(&self, items: usize) -> Result<Admission, Busy> {
        self.code.admit(items)
    }
}

/// What one Yosys run may spend.
fn limits(budget: Budget) -> Limits {
    let wall_time = budget.remaining().map_or(WALL_TIME, |left| left.min(WALL_TIME));
    Limits { fuel: FUEL, wall_time, memory_bytes: 1 << 30, stdout_bytes: 8 << 20, stderr_bytes: 1 << 20 }
}

/// Fuel of one Yosys run: about ten seconds of guest CPU.
const FUEL: u64 = 100_000_000_000;
/// Wall-clock backstop of one Yosys run.
const WALL_TIME: std::time::Duration = std::time::Duration::from_secs(30);

/// Judges one item.
async fn judge(input: VerilogInput, budget: Budget, sandbox: SandboxCell) -> Verdict {
    let checked = match input.check() {
        Ok(checked) => checked,
        Err(reason) => return Verdict::invalid_input(reason),
    };
    let candidate = match input.candidate() {
        Ok(source) => source,
        Err(reason) => return Verdict::unparseable(reason).with("verdict", "no_module"),
    };
    let yosys = match tokio::task::spawn_blocking(move || sandbox.get().and_then(|s| s.yosys().map(|y| (s, y)))).await {
        Ok(Ok(loaded)) => loaded,
        Ok(Err(error)) => return unavailable(&error),
        Err(error) => return Verdict::internal_error(format!("loading Yosys: {error}")),
    };
    let (sandbox, yosys) = yosys;
    let files = vec![
        ("reference.v".to_owned(), input::for_yosys(&input.reference)),
        ("candidate.v".to_owned(), input::for_yosys(&candidate)),
    ];

    let script = script::elaborate(&checked);
    let run = std::sync::Arc::clone(&yosys).run_on(sandbox.host(), script, files.clone(), limits(budget)).await;
    let elaborated = match run.map(|execution| Elaborated::read(&execution)) {
        Ok(Ok(elaborated)) => elaborated,
        Ok(Err(stop)) => return stop.verdict(),
        Err(error) => return sandbox_failure(&error),
    };
    if let Some(mismatch) = elaborated.port_mismatch() {
        return Verdict::incorrect().with("verdict", "port_mismatch").with("message", mismatch);
    }
    let plan = match script::Plan::of(&checked, &elaborated) {
        Ok(plan) => plan,
        Err(reason) => return Verdict::invalid_input(reason),
    };
    let script = script::prove(&checked, &plan);
    let run = std::sync::Arc::clone(&yosys).run_on(sandbox.host(), script, files.clone(), limits(budget)).await;
    match run.map(|execution| Proof::read(&execution)) {
        Ok(Ok(proof)) => proof.verdict(&plan),
        Ok(Err(stop @ (Stop::Timeout | Stop::Memory))) if checked.simulate => {
            let proof = if stop == Stop::Timeout { "timeout" } else { "memory_limit" };
            let seed = simulate::seed_of(&input.reference, &candidate);
            let ports = elaborated.reference.ports;
            let script = script::netlists(&checked, &plan);
            let limits = Limits { stdout_bytes: NETLIST_LOG_BYTES, ..limits(budget) };
            let run = yosys.run_on(sandbox.host(), script, files, limits).await;
            match run.map(|execution| simulate::read_netlists(&execution)) {
                Ok(Ok([gold, gate])) => {
                    let deadline = budget.remaining().map(|left| std::time::Instant::now() + left);
                    let simulated = tokio::task::spawn_blocking(move || {
                        let outcome = simulate::simulate(&gold, &gate, &ports, &plan, seed, deadline);
                        outcome.verdict(&plan, proof)
                    });
                    simulated.await.unwrap_or_else(|error| Verdict::internal_error(format!("simulating: {error}")))
                }
                // The netlists could not be had (too large, out of fuel): the proof's verdict stands.
                Ok(Err(reason)) => stop.verdict().with("simulation", reason),
                Err(error) => sandbox_failure(&error),
            }
        }
        Ok(Err(stop)) => stop.verdict(),
        Err(error) => sandbox_failure(&error),
    }
}

/// The log cap of the run that writes the netlists for a simulation (two designs of up to
/// [`script::MAX_NETLIST_CELLS`] cells, some 40 bytes a cell).
const NETLIST_LOG_BYTES: usize = 64 << 20;

/// An item whose Yosys cannot be set up here: `invalid_input` with the reason, as an unknown
/// verifier would be, since the item says nothing about the response.
fn unavailable(error: &SandboxError) -> Verdict {
    if error.is_unavailable() {
        let unavailable = serde_json::json!({
            "runtime": format!("Yosys {YOSYS_VERSION}"),
            "reason": error.reason(),
            "fix": error.fix(),
        });
        return Verdict::invalid_input(format!("{}; {}", error.reason(), error.fix())).with("unavailable", unavailable);
    }
    sandbox_failure(error)
}

/// The sandbox failed: the item says nothing about the response.
fn sandbox_failure(error: &SandboxError) -> Verdict {
    Verdict::internal_error(format!("the sandbox failed: {}", referee_sandbox::Chain(error)))
}

/// Why a Yosys run stopped short of an answer, and the verdict that says so.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stop {
    /// The reference does not parse or elaborate: the item is malformed.
    Reference(String),
    /// The candidate does not parse or elaborate.
    Syntax(String),
    /// Yosys cannot model part of the candidate for a proof (an unsupported cell).
    Unsupported(String),
    /// The run's fuel or time ran out.
    Timeout,
    /// The run's memory cap (or its stack) was reached.
    Memory,
    /// Yosys's log went past its cap (a design that makes it warn without end).
    Output,
    /// Yosys trapped on the candidate (its stack overflowing on a deeply recursive design).
    Crashed(String),
    /// Yosys ended in a way none of the above explains.
    Failed(String),
}

impl Stop {
    /// How a run ended when it did not finish normally, if so; `stage` is the last one it began.
    fn of_termination(termination: &Termination, stage: Option<(&str, &str)>) -> Option<Stop> {
        match termination {
            Termination::Exited => None,
            Termination::OutOfFuel | Termination::TimedOut => Some(Stop::Timeout),
            Termination::MemoryExhausted | Termination::StackOverflow => Some(Stop::Memory),
            Termination::OutputExceeded => Some(Stop::Output),
            Termination::Crashed(trap) => {
                // A trap in Yosys: most often its stack, which lives in its memory, overflowing
                // on a deeply recursive design. The design's doing, the reference's or the
                // candidate's.
                let message = format!("Yosys stopped with a trap ({trap}), most often its stack overflowing");
                Some(match stage {
                    Some(("reference", _)) => Stop::Reference(message),
                    _ => Stop::Crashed(message),
                })
            }
        }
    }

    fn verdict(self) -> Verdict {
        match self {
            Stop::Reference(message) => {
                Verdict::invalid_input(format!("the reference design does not elaborate: {message}"))
            }
            Stop::Syntax(message) => Verdict::incorrect().with("verdict", "syntax_error").with("message", message),
            Stop::Unsupported(message) => {
                Verdict::invalid_input(format!("the design uses what the equivalence check cannot model: {message}"))
                    .with("verdict", "unsupported")
            }
            Stop::Timeout => Verdict::failure(
                referee_core::Status::Timeout,
                "a Yosys run went past its fuel (10^11) or its time (30 s, or the item's deadline)",
            )
            .with("verdict", "timeout"),
            Stop::Memory => Verdict::failure(
                referee_core::Status::ResourceLimit,
                "the check went past its memory cap (1 GiB) or its stack",
            )
            .with("verdict", "memory_limit"),
            Stop::Crashed(message) => {
                Verdict::failure(referee_core::Status::ResourceLimit, message).with("verdict", "crashed")
            }
            Stop::Output => {
                Verdict::failure(referee_core::Status::ResourceLimit, "Yosys's log went past its cap (8 MiB)")
                    .with("verdict", "output_limit")
            }
            Stop::Failed(message) => Verdict::internal_error(format!("Yosys failed: {message}")),
        }
    }
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn a_stop_of_the_reference_is_the_items_fault_and_of_the_candidate_the_responses() {
        assert_eq!(Stop::Reference("x".into()).verdict().status, referee_core::Status::InvalidInput);
        assert_eq!(Stop::Syntax("x".into()).verdict().status, referee_core::Status::Incorrect);
        assert_eq!(Stop::Unsupported("x".into()).verdict().status, referee_core::Status::InvalidInput);
        assert_eq!(Stop::Timeout.verdict().status, referee_core::Status::Timeout);
        assert_eq!(Stop::Memory.verdict().status, referee_core::Status::ResourceLimit);
        assert_eq!(Stop::Output.verdict().status, referee_core::Status::ResourceLimit);
        assert_eq!(Stop::Crashed("x".into()).verdict().status, referee_core::Status::ResourceLimit);
        assert_eq!(Stop::Failed("x".into()).verdict().status, referee_core::Status::InternalError);
    }
}
