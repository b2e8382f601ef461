//! What the elaborating run says of the two designs: their ports and kinds of state, or the
//! error that stopped it.

use std::collections::BTreeMap;

use referee_sandbox::Execution;

use super::Stop;

/// The prefix of the scripts' marker lines (`log <marker> <side> <stage>`): long enough that no Yosys message starts with it.
pub(crate) const MARKER: &str = "referee-stage-7c1d";

/// The stages of the elaborating script, in order.
pub(crate) const READ: &str = "read";
pub(crate) const PORTS: &str = "ports";
pub(crate) const FLOPS: &str = "flops";
pub(crate) const NEGEDGE: &str = "negedge";
pub(crate) const POSEDGE: &str = "posedge";
pub(crate) const LATCHES: &str = "latches";
/// The stages of the proving script after both designs are read.
pub(crate) const MITER: &str = "miter";
pub(crate) const PROVE: &str = "prove";
/// The stage of the simulating run at which a design's netlist is written.
pub(crate) const NETLIST: &str = "netlist";

/// One port of a design's top module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Port {
    /// `input`, `output` or `inout`.
    pub direction: String,
    /// The range as Yosys prints it (`[3:0]`).
    pub range: String,
    pub name: String,
}

impl std::fmt::Display for Port {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.range == "[0:0]" {
            write!(f, "{} {}", self.direction, self.name)
        } else {
            write!(f, "{} {} {}", self.direction, self.range, self.name)
        }
    }
}

/// One elaborated design.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Design {
    pub ports: Vec<Port>,
    /// Flip-flops, those clocked on a falling edge, those on a rising edge.
    pub flops: u64,
    pub negedge: u64,
    pub posedge: u64,
    pub latches: u64,
}

impl Design {
    /// The names of its inputs.
    pub(crate) fn inputs(&self) -> impl Iterator<Item = &str> {
        self.ports.iter().filter(|p| p.direction == "input").map(|p| p.name.as_str())
    }
}

/// Both designs, elaborated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Elaborated {
    pub reference: Design,
    pub candidate: Design,
}

impl Elaborated {
    /// Reads the log of the elaborating run: both designs, or why the run stopped.
    pub(crate) fn read(execution: &Execution) -> Result<Elaborated, Stop> {
        let log = Log::of(execution);
        if let Some(stop) = log.stop() {
            return Err(stop);
        }
        let mut designs = BTreeMap::<&str, Design>::new();
        let mut at: Option<(&str, &str)> = None;
        for line in log.stdout.lines() {
            if let Some((side, stage)) = marker(line) {
                at = Some((side, stage));
                designs.entry(side).or_default();
                continue;
            }
            let Some((side, stage)) = at else { continue };
            let Some(design) = designs.get_mut(side) else { continue };
            match stage {
                PORTS => {
                    let mut words = line.split_whitespace();
                    if let (Some(direction @ ("input" | "output" | "inout")), Some(range), Some(name), None) =
                        (words.next(), words.next(), words.next(), words.next())
                    {
                        let name = name.strip_prefix('\\').unwrap_or(name).to_owned();
                        design.ports.push(Port { direction: direction.to_owned(), range: range.to_owned(), name });
                    }
                }
                FLOPS | NEGEDGE | POSEDGE | LATCHES => {
                    if let Some(count) = line.strip_suffix(" objects.").and_then(|n| n.trim().parse::<u64>().ok()) {
                        let field = match stage {
                            FLOPS => &mut design.flops,
                            NEGEDGE => &mut design.negedge,
                            POSEDGE => &mut design.posedge,
                            _ => &mut design.latches,
                        };
                        *field = count;
                    }
                }
                _ => {}
            }
        }
        match (designs.remove("reference"), designs.remove("candidate")) {
            (Some(reference), Some(candidate)) if execution.exit_code == 0 => Ok(Elaborated { reference, candidate }),
            _ => Err(Stop::Failed(format!("the elaborating run ended early: {}", log.tail()))),
        }
    }

    /// How the candidate's ports differ from the reference's, if they do.
    pub(crate) fn port_mismatch(&self) -> Option<String> {
        let find = |ports: &[Port], name: &str| ports.iter().find(|p| p.name == name).cloned();
        let mut differences = Vec::new();
        for port in &self.reference.ports {
            match find(&self.candidate.ports, &port.name) {
                None => differences.push(format!("missing `{port}`")),
                Some(other) if other != *port => differences.push(format!("`{other}` should be `{port}`")),
                Some(_) => {}
            }
        }
        for port in &self.candidate.ports {
            if find(&self.reference.ports, &port.name).is_none() {
                differences.push(format!("unexpected `{port}`"));
            }
        }
        (!differences.is_empty()).then(|| format!("the ports differ from the reference's: {}", differences.join("; ")))
    }
}

/// A marker line: the side (`reference`, `candidate`, `both`) and the stage.
pub(crate) fn marker(line: &str) -> Option<(&str, &str)> {
    let mut words = line.strip_prefix(MARKER)?.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(side), Some(stage), None) => Some((side, stage)),
        _ => None,
    }
}

/// A Yosys run's output, read for how it ended.
pub(crate) struct Log<'a> {
    pub stdout: std::borrow::Cow<'a, str>,
    stderr: std::borrow::Cow<'a, str>,
    execution: &'a Execution,
}

impl<'a> Log<'a> {
    pub(crate) fn of(execution: &'a Execution) -> Self {
        Log {
            stdout: String::from_utf8_lossy(&execution.stdout),
            stderr: String::from_utf8_lossy(&execution.stderr),
            execution,
        }
    }

    /// Why the run stopped early, if it did: a limit, or an `ERROR` at a stage.
    pub(crate) fn stop(&self) -> Option<Stop> {
        let mut stage = None;
        let mut error = None;
        for line in self.stdout.lines() {
            if let Some(at) = marker(line) {
                stage = Some(at);
            } else if error.is_none() && line.contains("ERROR:") {
                error = Some((stage, line.trim().to_owned()));
            }
        }
        if let Some(stop) = Stop::of_termination(&self.execution.termination, stage) {
            return Some(stop);
        }
        if error.is_none() && self.execution.exit_code != 0 {
            let line = self.stderr.lines().find(|l| l.contains("ERROR:")).map(|l| l.trim().to_owned());
            error = line.map(|line| (stage, line));
        }
        let (stage, message) = error?;
        let message = message.replace(&format!("{}/", referee_sandbox::YOSYS_WORK_DIR), "");
        Some(match stage {
            Some(("reference", _)) => Stop::Reference(message),
            Some(("candidate", _)) => Stop::Syntax(message),
            _ if message.contains("No SAT model available") || message.contains("not supported") => {
                Stop::Unsupported(message)
            }
            _ => Stop::Failed(message),
        })
    }

    /// The last lines of the log, for a failure's message.
    pub(crate) fn tail(&self) -> String {
        let lines: Vec<&str> = self.stdout.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(3)..].join(" / ")
    }
}
