//! The Yosys scripts of a check: one that elaborates both designs and describes them, one that
//! proves them equivalent.
//!
//! The scripts read `reference.v` and `candidate.v` from the run's folder; nothing of an item
//! reaches a script but module and signal names, which [`super::input`] checked to be
//! identifiers. The script writes marker lines (`log <marker> <stage>`) between its stages, so
//! that the log says which stage an `ERROR` came from.

use std::fmt::Write as _;

use referee_sandbox::YOSYS_WORK_DIR;

use super::design::{Elaborated, FLOPS, LATCHES, MARKER, MITER, NEGEDGE, NETLIST, PORTS, POSEDGE, PROVE, READ};
use super::input::{Checked, RESET_NAMES};

/// The two designs' files and the names their stages carry.
pub(crate) const SIDES: [(&str, &str); 2] = [("reference", "reference.v"), ("candidate", "candidate.v")];

/// Reads one design and brings it to the form the proof needs: processes to cells, memories to
/// flip-flops and logic, the hierarchy flattened into its top module.
fn read(script: &mut String, side: &str, file: &str, top: Option<&str>) {
    let _ = writeln!(script, "log {MARKER} {side} {READ}");
    let _ = writeln!(script, "read_verilog -sv {YOSYS_WORK_DIR}/{file}");
    match top {
        Some(top) => {
            let _ = writeln!(script, "hierarchy -check -top {top}");
        }
        None => script.push_str("hierarchy -check -auto-top\n"),
    }
    script.push_str("proc\nmemory\nflatten\nopt_clean\n");
}

/// The first run: each design elaborated on its own, with its ports and its kinds of state.
pub(crate) fn elaborate(checked: &Checked) -> String {
    let mut script = String::new();
    for ((side, file), top) in SIDES.into_iter().zip([&checked.top, &checked.candidate_top]) {
        read(&mut script, side, file, top.as_deref());
        let _ = writeln!(script, "log {MARKER} {side} {PORTS}\nportlist");
        for (stage, selection) in [
            (FLOPS, "t:$*ff*"),
            (NEGEDGE, "t:$*ff* r:CLK_POLARITY=1'b0 %i"),
            (POSEDGE, "t:$*ff* r:CLK_POLARITY=1'b1 %i"),
            (LATCHES, "t:$*latch* t:$sr"),
        ] {
            let _ = writeln!(script, "log {MARKER} {side} {stage}\nselect -count {selection}");
        }
        script.push_str("design -reset\n");
    }
    script
}

/// How the proof treats time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Timing {
    /// Every flip-flop steps once per step (a clock cycle); asynchronous resets act within
    /// the step (`async2sync`).
    Cycles,
    /// Latches, or flip-flops on both clock edges: clocks and enables are inputs like any other
    /// and a step is one instant (`clk2fflogic`), so a clock cycle takes two steps.
    Events,
}

/// What the proof of an item does: decided from the item and the elaborated designs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The reset input and the value that makes it active.
    pub reset: Option<(String, bool)>,
    pub timing: Timing,
    /// Whether either design holds state (a flip-flop or a latch).
    pub sequential: bool,
    /// The most steps the proof looks at.
    pub steps: u32,
    /// Steps at the start whose outputs are not compared (the reset).
    pub skipped: u32,
    /// The item's cycles.
    pub cycles: u32,
}

impl Plan {
    /// The plan for `checked` on designs `elaborated`; `Err` when the named reset is not an input
    /// of the reference.
    pub(crate) fn of(checked: &Checked, elaborated: &Elaborated) -> Result<Plan, String> {
        let inputs: Vec<&str> = elaborated.reference.inputs().collect();
        let reset = match checked.reset.as_deref() {
            Some("") => None,
            Some(name) => {
                if !inputs.contains(&name) {
                    return Err(format!("the reset `{name}` is not an input of the reference"));
                }
                let low = RESET_NAMES.iter().find(|(known, _)| *known == name).is_some_and(|(_, low)| *low);
                Some((name.to_owned(), checked.reset_active_low.unwrap_or(low)))
            }
            None => RESET_NAMES
                .iter()
                .find(|(known, _)| inputs.contains(known))
                .map(|(name, low)| ((*name).to_owned(), checked.reset_active_low.unwrap_or(*low))),
        };
        let designs = [&elaborated.reference, &elaborated.candidate];
        let events = designs.iter().any(|d| d.latches > 0 || (d.negedge > 0 && d.posedge > 0));
        let sequential = designs.iter().any(|d| d.flops > 0 || d.latches > 0);
        let timing = if events { Timing::Events } else { Timing::Cycles };
        let per_cycle = if events { 2 } else { 1 };
        let skipped = if reset.is_some() && sequential { per_cycle } else { 0 };
        Ok(Plan {
            reset,
            timing,
            sequential,
            steps: checked.cycles * per_cycle + skipped,
            skipped,
            cycles: checked.cycles,
        })
    }
}

/// The most cells (gates and flip-flops) of a design's netlist written for the simulation.
pub(crate) const MAX_NETLIST_CELLS: u32 = 500_000;

/// The time model of the proof, as a pass.
fn timing_pass(plan: &Plan) -> &'static str {
    match plan.timing {
        Timing::Cycles => "async2sync\n",
        Timing::Events => "clk2fflogic\n",
    }
}

/// The run that follows a proof out of fuel: each design under the proof's time model, lowered
/// to single-bit gates and plain flip-flops and written as BLIF, for [`super::simulate`].
pub(crate) fn netlists(checked: &Checked, plan: &Plan) -> String {
    let mut script = String::new();
    for ((side, file), top) in SIDES.into_iter().zip([&checked.top, &checked.candidate_top]) {
        read(&mut script, side, file, top.as_deref());
        script.push_str(timing_pass(plan));
        script.push_str("dffunmap\ntechmap\nopt_clean -purge\nrename -enumerate -pattern n%\n");
        let _ = writeln!(script, "select -assert-max {MAX_NETLIST_CELLS} t:*");
        let _ = writeln!(script, "log {MARKER} {side} {NETLIST}\nwrite_blif -icells -conn -impltf\ndesign -reset");
    }
    script
}

/// The second run: both designs read again, a miter of the two, and a temporal induction that
/// its trigger never fires.
pub(crate) fn prove(checked: &Checked, plan: &Plan) -> String {
    let mut script = String::new();
    for ((side, file), (top, stash)) in
        SIDES.into_iter().zip([(&checked.top, "gold"), (&checked.candidate_top, "gate")])
    {
        read(&mut script, side, file, top.as_deref());
        let _ = writeln!(script, "rename -top {stash}\ndesign -stash {stash}");
    }
    let _ = writeln!(script, "log {MARKER} both {MITER}");
    script.push_str("design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n");
    script.push_str("miter -equiv -flatten -make_outputs -ignore_gold_x gold gate miter\nhierarchy -top miter\n");
    script.push_str(timing_pass(plan));
    let _ = writeln!(script, "log {MARKER} both {PROVE}");
    // Undefined values are modelled (`-enable_undef`), so that a reference's `x` matches any value
    // and nothing else does; inputs are defined, and so is every state the induction starts from.
    let _ = write!(
        script,
        "sat -tempinduct -prove trigger 0 -set-init-zero -enable_undef -set-def-inputs -tempinduct-def -maxsteps {}",
        plan.steps.max(1)
    );
    if let Some((reset, active_low)) = plan.reset.as_ref().filter(|_| plan.skipped > 0) {
        for step in 1..=plan.skipped {
            let _ = write!(script, " -set-at {step} in_{reset} {}", u8::from(!active_low));
        }
        let _ = write!(script, " -seq {}", plan.skipped);
    }
    script.push_str(" -show-ports miter\n");
    script
}
