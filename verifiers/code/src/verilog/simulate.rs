//! Random-stimulus simulation: how an item is checked when its proof runs out of fuel.
//!
//! Yosys writes each design's gate-level netlist (BLIF, one net per bit, Yosys's own gate cells,
//! every flip-flop stepping once per step as in the proof); [`Netlist::parse`] reads it and
//! [`simulate`] runs both designs side by side on the same random input traces, 64 traces at a
//! time (one per bit of a machine word), from the proof's initial state: registers at zero and
//! the reset held for the steps the proof skips. Values are three-valued (0, 1 or unknown), and as
//! in the proof an unknown bit of the reference matches anything while an unknown bit of the
//! candidate matches only an unknown reference bit.

use std::collections::HashMap;
use std::time::Instant;

use referee_core::Verdict;
use referee_sandbox::Execution;

use super::Stop;
use super::design::{Log, NETLIST, Port, marker};
use super::report::{Step, Trace, annotate};
use super::script::{Plan, Timing};

/// The most gate evaluations one item's simulation may take (one evaluation covers 64 traces).
const WORK: u64 = 400_000_000;
/// Clock cycles of one trace after the reset.
pub(crate) const CYCLES: u32 = 500;
/// The most batches of 64 traces.
const MAX_BATCHES: u32 = 16;
/// Out of how many cycles after the first the reset is asserted again, on average.
const RESET_EVERY: u32 = 32;
/// The most steps of a trace shown in a counterexample (those up to the difference).
const SHOWN_STEPS: usize = 32;

type Net = u32;

/// The constant nets: `$false`, `$true` and `$undef` in Yosys's BLIF.
const FALSE: Net = 0;
const TRUE: Net = 1;
const UNDEF: Net = 2;

/// A gate of Yosys's internal library (`$_AND_` and the like): `y = op(a, b, c, d)`.
#[derive(Debug, Clone, Copy)]
struct Gate {
    op: Op,
    inputs: [Net; 4],
    output: Net,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Buf,
    Not,
    And,
    Nand,
    Or,
    Nor,
    Xor,
    Xnor,
    AndNot,
    OrNot,
    /// `s ? b : a`, pins `A`, `B`, `S`.
    Mux,
    NMux,
    Aoi3,
    Oai3,
    Aoi4,
    Oai4,
}

impl Op {
    /// The gate of a cell type and the pins it reads, in order.
    fn of(cell: &str) -> Option<(Op, &'static [&'static str])> {
        const A: &[&str] = &["A"];
        const AB: &[&str] = &["A", "B"];
        const ABS: &[&str] = &["A", "B", "S"];
        const ABC: &[&str] = &["A", "B", "C"];
        const ABCD: &[&str] = &["A", "B", "C", "D"];
        Some(match cell {
            "$_BUF_" => (Op::Buf, A),
            "$_NOT_" => (Op::Not, A),
            "$_AND_" => (Op::And, AB),
            "$_NAND_" => (Op::Nand, AB),
            "$_OR_" => (Op::Or, AB),
            "$_NOR_" => (Op::Nor, AB),
            "$_XOR_" => (Op::Xor, AB),
            "$_XNOR_" => (Op::Xnor, AB),
            "$_ANDNOT_" => (Op::AndNot, AB),
            "$_ORNOT_" => (Op::OrNot, AB),
            "$_MUX_" => (Op::Mux, ABS),
            "$_NMUX_" => (Op::NMux, ABS),
            "$_AOI3_" => (Op::Aoi3, ABC),
            "$_OAI3_" => (Op::Oai3, ABC),
            "$_AOI4_" => (Op::Aoi4, ABCD),
            "$_OAI4_" => (Op::Oai4, ABCD),
            _ => return None,
        })
    }
}

/// 64 three-valued bits: `known` says which bits are 0 or 1, `value` which of those are 1 (a bit
/// not known is 0 in `value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Bits {
    value: u64,
    known: u64,
}

impl Bits {
    const ZERO: Bits = Bits { value: 0, known: !0 };
    const ONE: Bits = Bits { value: !0, known: !0 };
    const UNKNOWN: Bits = Bits { value: 0, known: 0 };

    fn defined(value: u64) -> Bits {
        Bits { value, known: !0 }
    }

    fn not(self) -> Bits {
        Bits { value: !self.value & self.known, known: self.known }
    }

    fn and(self, other: Bits) -> Bits {
        let one = self.value & other.value;
        let zero = (self.known & !self.value) | (other.known & !other.value);
        Bits { value: one, known: one | zero }
    }

    fn or(self, other: Bits) -> Bits {
        let one = self.value | other.value;
        let zero = (self.known & !self.value) & (other.known & !other.value);
        Bits { value: one, known: one | zero }
    }

    fn xor(self, other: Bits) -> Bits {
        let known = self.known & other.known;
        Bits { value: (self.value ^ other.value) & known, known }
    }

    /// `select ? b : a`; with `select` unknown, known where `a` and `b` agree.
    fn mux(a: Bits, b: Bits, select: Bits) -> Bits {
        let pick_a = select.known & !select.value;
        let pick_b = select.value;
        let agree = !select.known & a.known & b.known & !(a.value ^ b.value);
        Bits {
            value: (pick_a & a.value) | (pick_b & b.value) | (agree & a.value),
            known: (pick_a & a.known) | (pick_b & b.known) | agree,
        }
    }

    fn apply(op: Op, [a, b, c, d]: [Bits; 4]) -> Bits {
        match op {
            Op::Buf => a,
            Op::Not => a.not(),
            Op::And => a.and(b),
            Op::Nand => a.and(b).not(),
            Op::Or => a.or(b),
            Op::Nor => a.or(b).not(),
            Op::Xor => a.xor(b),
            Op::Xnor => a.xor(b).not(),
            Op::AndNot => a.and(b.not()),
            Op::OrNot => a.or(b.not()),
            Op::Mux => Bits::mux(a, b, c),
            Op::NMux => Bits::mux(a, b, c).not(),
            Op::Aoi3 => a.and(b).or(c).not(),
            Op::Oai3 => a.or(b).and(c).not(),
            Op::Aoi4 => a.and(b).or(c.and(d)).not(),
            Op::Oai4 => a.or(b).and(c.or(d)).not(),
        }
    }
}

/// One design as gates and flip-flops over numbered nets.
#[derive(Debug, Clone)]
pub(crate) struct Netlist {
    /// Input bits by name (`clk`, `data[3]`) and their nets.
    inputs: Vec<(String, Net)>,
    outputs: Vec<(String, Net)>,
    /// In an order in which every gate comes after the gates driving its inputs.
    gates: Vec<Gate>,
    /// Each flip-flop's data input and output.
    flops: Vec<(Net, Net)>,
    nets: usize,
}

/// Net numbers by name while a netlist is read, and which nets have a driver.
struct Names<'a> {
    ids: HashMap<&'a str, Net>,
    driven: Vec<bool>,
}

impl<'a> Names<'a> {
    fn new() -> Self {
        Names { ids: HashMap::from([("$false", FALSE), ("$true", TRUE), ("$undef", UNDEF)]), driven: vec![true; 3] }
    }

    fn net(&mut self, name: &'a str) -> Result<Net, String> {
        if let Some(&id) = self.ids.get(name) {
            return Ok(id);
        }
        let id = Net::try_from(self.driven.len()).map_err(|_| "the netlist has too many nets".to_owned())?;
        self.ids.insert(name, id);
        self.driven.push(false);
        Ok(id)
    }

    /// The net `name`, now driven: `Err` if something drives it already (or it is a constant).
    fn drive(&mut self, name: &'a str) -> Result<Net, String> {
        let id = self.net(name)?;
        if std::mem::replace(&mut self.driven[id as usize], true) {
            return Err(format!("the net `{name}` has more than one driver"));
        }
        Ok(id)
    }
}

impl Netlist {
    /// Reads the model of a BLIF file as Yosys's `write_blif -icells -conn -impltf` writes it:
    /// `.inputs`, `.outputs`, `.subckt` of Yosys's gate cells and plain flip-flops, `.conn`.
    /// Anything else (a latch, a tristate buffer, a second model, a net with two drivers, a loop
    /// of gates) is an `Err` saying so.
    pub(crate) fn parse(blif: &str) -> Result<Netlist, String> {
        let mut names = Names::new();
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let mut gates = Vec::new();
        let mut flops = Vec::new();
        let mut in_model = false;
        for line in blif.lines() {
            let mut words = line.split_whitespace();
            let Some(keyword) = words.next() else { continue };
            if keyword.starts_with('#') {
                continue;
            }
            match (keyword, in_model) {
                (".model", false) => in_model = true,
                (".end", true) => {
                    let gates = in_order(gates, names.driven.len())?;
                    return Ok(Netlist { inputs, outputs, gates, flops, nets: names.driven.len() });
                }
                (_, false) => {}
                (".inputs", true) => {
                    for name in words {
                        inputs.push((name.to_owned(), names.drive(name)?));
                    }
                }
                (".outputs", true) => {
                    for name in words {
                        outputs.push((name.to_owned(), names.net(name)?));
                    }
                }
                (".conn", true) => {
                    let (Some(from), Some(to), None) = (words.next(), words.next(), words.next()) else {
                        return Err(format!("a malformed line in the netlist: {line}"));
                    };
                    let input = names.net(from)?;
                    gates.push(Gate { op: Op::Buf, inputs: [input, FALSE, FALSE, FALSE], output: names.drive(to)? });
                }
                (".subckt", true) => {
                    let cell = words.next().unwrap_or_default();
                    let pins: HashMap<&str, &str> = words.filter_map(|pin| pin.split_once('=')).collect();
                    let pin = |name: &str| {
                        pins.get(name).copied().ok_or_else(|| format!("a `{cell}` without its pin `{name}`"))
                    };
                    if let Some((op, reads)) = Op::of(cell) {
                        let mut inputs = [FALSE; 4];
                        for (slot, name) in inputs.iter_mut().zip(reads) {
                            *slot = names.net(pin(name)?)?;
                        }
                        gates.push(Gate { op, inputs, output: names.drive(pin("Y")?)? });
                    } else if matches!(cell, "$_FF_" | "$_DFF_P_" | "$_DFF_N_") {
                        // Every flip-flop steps once per step, as in the proof: the clock is not read.
                        let data = names.net(pin("D")?)?;
                        flops.push((data, names.drive(pin("Q")?)?));
                    } else {
                        return Err(format!("the simulation does not model `{cell}` cells"));
                    }
                }
                (other, true) => return Err(format!("the simulation does not read `{other}` in a netlist")),
            }
        }
        Err("the netlist has no complete model".to_owned())
    }

    /// How many gates and flip-flops it has.
    pub(crate) fn size(&self) -> u64 {
        (self.gates.len() + self.flops.len()) as u64
    }
}

/// `gates` in an order in which each comes after those that drive its inputs; `Err` on a loop.
fn in_order(gates: Vec<Gate>, nets: usize) -> Result<Vec<Gate>, String> {
    let mut driver = vec![usize::MAX; nets];
    for (index, gate) in gates.iter().enumerate() {
        driver[gate.output as usize] = index;
    }
    let mut waiting = vec![0usize; gates.len()];
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); gates.len()];
    for (index, gate) in gates.iter().enumerate() {
        for &input in &gate.inputs {
            let from = driver[input as usize];
            if from != usize::MAX {
                waiting[index] += 1;
                readers[from].push(index);
            }
        }
    }
    let mut ready: Vec<usize> = (0..gates.len()).filter(|&g| waiting[g] == 0).collect();
    let mut order = Vec::with_capacity(gates.len());
    while let Some(index) = ready.pop() {
        order.push(gates[index]);
        for &reader in &readers[index] {
            waiting[reader] -= 1;
            if waiting[reader] == 0 {
                ready.push(reader);
            }
        }
    }
    if order.len() != gates.len() {
        return Err("the design has a combinational loop".to_owned());
    }
    Ok(order)
}

/// Reads the reference's and the candidate's netlists from the log of the run that wrote them;
/// `Err` says why there are none.
pub(crate) fn read_netlists(execution: &Execution) -> Result<[Netlist; 2], String> {
    let log = Log::of(execution);
    if let Some(stop) = log.stop() {
        return Err(match stop {
            Stop::Timeout => "writing the netlists ran out of time".to_owned(),
            Stop::Memory => "writing the netlists went past the memory cap".to_owned(),
            Stop::Output => format!("a netlist is larger than {} MiB", super::NETLIST_LOG_BYTES >> 20),
            Stop::Reference(message)
            | Stop::Syntax(message)
            | Stop::Unsupported(message)
            | Stop::Crashed(message)
            | Stop::Failed(message) => format!("no netlist for the simulation: {message}"),
        });
    }
    let netlist = |side: &str| -> Result<Netlist, String> {
        let mut offset = 0;
        for line in log.stdout.split_inclusive('\n') {
            offset += line.len();
            if marker(line.trim_end()) == Some((side, NETLIST)) {
                return Netlist::parse(&log.stdout[offset..]);
            }
        }
        Err(format!("the log holds no netlist of the {side}"))
    };
    Ok([netlist("reference")?, netlist("candidate")?])
}

/// What the simulation found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// The outputs agreed on every trace: `traces` random traces of `cycles` clock cycles after
    /// the reset.
    Agree { traces: u32, cycles: u32 },
    /// A trace on which the outputs differ, up to the first difference.
    Differ(Trace),
}

impl Outcome {
    /// The verdict of the simulation, run because the proof ran out of fuel or memory (`proof`
    /// says which): equivalent on every trace simulated (not proved), or the trace on which the
    /// outputs differ.
    pub(crate) fn verdict(self, plan: &Plan, proof: &str) -> Verdict {
        let verdict = match self {
            Outcome::Agree { traces, cycles } => Verdict::correct()
                .with("verdict", "equivalent")
                .with("method", "simulation")
                .with("traces", traces)
                .with("cycles", cycles)
                .with("proof", proof),
            Outcome::Differ(trace) => Verdict::incorrect()
                .with("verdict", "counterexample")
                .with("method", "simulation")
                .with("message", trace.describe(plan))
                .with("counterexample", trace.steps),
        };
        annotate(verdict, plan)
    }
}

/// One input bit: its name, its net in each design, and how its values are drawn.
#[derive(Debug)]
struct Input {
    name: String,
    nets: [Option<Net>; 2],
    /// For a bit of the reset: its value while the reset is held, and for a one-bit reset
    /// whether it is active low (it is then asserted again now and then).
    reset: Option<(bool, Option<bool>)>,
}

/// Both designs and the stimulus rules of a plan.
struct Bench<'a> {
    designs: [&'a Netlist; 2],
    inputs: Vec<Input>,
    /// The reference's output bits, with the candidate's net of the same name.
    outputs: Vec<(String, Net, Option<Net>)>,
    /// Steps at the start whose outputs are not compared (the reset).
    held: u32,
    steps: u32,
}

/// Simulates `gold` (the reference) and `gate` (the candidate) on random traces under `plan`,
/// drawn from `seed`, until one differs, the work allowance is spent or `deadline` passes (after
/// the first batch of 64 traces). `ports` are the reference's.
pub(crate) fn simulate(
    gold: &Netlist,
    gate: &Netlist,
    ports: &[Port],
    plan: &Plan,
    seed: u64,
    deadline: Option<Instant>,
) -> Outcome {
    let per_cycle = match plan.timing {
        Timing::Cycles => 1,
        Timing::Events => 2,
    };
    let size = (gold.size() + gate.size()).max(1);
    let wanted = plan.skipped + per_cycle * CYCLES;
    let affordable = u32::try_from(WORK / size).unwrap_or(u32::MAX);
    let steps = wanted.min(affordable).max(plan.steps).max(1);
    let batches = u32::try_from(WORK / (size * u64::from(steps))).unwrap_or(u32::MAX).clamp(1, MAX_BATCHES);
    let bench = Bench::new(gold, gate, ports, plan, steps);
    let mut traces = 0;
    for batch in 0..batches {
        if batch > 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            break;
        }
        let batch_seed = seed ^ u64::from(batch).wrapping_mul(0xA24B_AED4_963E_E407);
        if let Some((step, lane)) = bench.run(batch_seed, None) {
            let mut trace = Trace::default();
            bench.run(batch_seed, Some((step, lane, ports, &mut trace)));
            return Outcome::Differ(trace);
        }
        traces += 64;
    }
    Outcome::Agree { traces, cycles: (steps - plan.skipped.min(steps)) / per_cycle }
}

impl<'a> Bench<'a> {
    fn new(gold: &'a Netlist, gate: &'a Netlist, ports: &[Port], plan: &Plan, steps: u32) -> Self {
        let reset_bits = plan.reset.as_ref().filter(|_| plan.skipped > 0).and_then(|(name, active_low)| {
            let port = ports.iter().find(|p| p.name == *name)?;
            let value = u64::from(!active_low);
            let bits = bit_names(port);
            let one_bit = bits.len() == 1;
            // While held, the reset takes the value the proof gives it: 1 (or 0) as a number.
            Some(
                bits.into_iter()
                    .rev()
                    .enumerate()
                    .map(|(lsb_index, bit)| {
                        (bit, ((value >> lsb_index.min(63)) & 1 == 1, one_bit.then_some(*active_low)))
                    })
                    .collect::<HashMap<_, _>>(),
            )
        });
        let mut inputs: Vec<Input> = Vec::new();
        for (side, design) in [gold, gate].into_iter().enumerate() {
            for (name, net) in &design.inputs {
                let index = match inputs.iter().position(|input| input.name == *name) {
                    Some(index) => index,
                    None => {
                        let reset = reset_bits.as_ref().and_then(|bits| bits.get(name).copied());
                        inputs.push(Input { name: name.clone(), nets: [None, None], reset });
                        inputs.len() - 1
                    }
                };
                inputs[index].nets[side] = Some(*net);
            }
        }
        let outputs = gold
            .outputs
            .iter()
            .map(|(name, net)| {
                let candidate = gate.outputs.iter().find(|(other, _)| other == name).map(|(_, net)| *net);
                (name.clone(), *net, candidate)
            })
            .collect();
        Bench { designs: [gold, gate], inputs, outputs, held: plan.skipped.min(steps), steps }
    }

    /// Runs 64 traces drawn from `seed`: the first step at which one differs and the lowest such
    /// trace, if one does. With `record`, the inputs and outputs of that trace up to that step go
    /// into the trace given.
    fn run(&self, seed: u64, mut record: Option<(u32, u32, &[Port], &mut Trace)>) -> Option<(u32, u32)> {
        let mut random = SplitMix(seed);
        let mut values: [Vec<Bits>; 2] = self.designs.map(|design| {
            let mut values = vec![Bits::UNKNOWN; design.nets];
            values[FALSE as usize] = Bits::ZERO;
            values[TRUE as usize] = Bits::ONE;
            for &(_, q) in &design.flops {
                values[q as usize] = Bits::ZERO;
            }
            values
        });
        let mut next: [Vec<Bits>; 2] = self.designs.map(|design| Vec::with_capacity(design.flops.len()));
        for step in 1..=self.steps {
            for input in &self.inputs {
                let word = match input.reset {
                    Some((held, _)) if step <= self.held => {
                        if held {
                            !0
                        } else {
                            0
                        }
                    }
                    Some((_, Some(active_low))) => {
                        let asserted = (0..RESET_EVERY.trailing_zeros()).fold(!0, |word, _| word & random.next());
                        if active_low { !asserted } else { asserted }
                    }
                    _ => random.next(),
                };
                for (values, net) in values.iter_mut().zip(input.nets) {
                    if let Some(net) = net {
                        values[net as usize] = Bits::defined(word);
                    }
                }
            }
            for (values, design) in values.iter_mut().zip(self.designs) {
                for gate in &design.gates {
                    let [a, b, c, d] = gate.inputs.map(|net| values[net as usize]);
                    values[gate.output as usize] = Bits::apply(gate.op, [a, b, c, d]);
                }
            }
            let mut differs = 0;
            if step > self.held {
                for &(_, gold, gate) in &self.outputs {
                    let expected = values[0][gold as usize];
                    let actual = gate.map_or(Bits::UNKNOWN, |net| values[1][net as usize]);
                    differs |= expected.known & (!actual.known | (expected.value ^ actual.value));
                }
            }
            if let Some((at, lane, ports, trace)) = record.as_mut() {
                trace.steps.push(self.step_of(step, *lane, &values, ports, differs >> *lane & 1 == 1));
                if trace.steps.len() > SHOWN_STEPS {
                    trace.steps.remove(0);
                }
                if step == *at {
                    return Some((step, *lane));
                }
            } else if differs != 0 {
                return Some((step, differs.trailing_zeros()));
            }
            for ((values, next), design) in values.iter_mut().zip(&mut next).zip(self.designs) {
                next.clear();
                next.extend(design.flops.iter().map(|&(d, _)| values[d as usize]));
                for (&(_, q), value) in design.flops.iter().zip(next.iter()) {
                    values[q as usize] = *value;
                }
            }
        }
        None
    }

    /// One step of trace `lane`, ports' values written most significant bit first.
    fn step_of(&self, step: u32, lane: u32, values: &[Vec<Bits>; 2], ports: &[Port], differs: bool) -> Step {
        let bit = |bits: Bits| match (bits.known >> lane & 1, bits.value >> lane & 1) {
            (0, _) => 'x',
            (_, 0) => '0',
            _ => '1',
        };
        let mut chars: [HashMap<&str, char>; 2] = [HashMap::new(), HashMap::new()];
        let mut inputs = HashMap::new();
        for input in &self.inputs {
            if let Some(net) = input.nets[0].or(input.nets[1]) {
                let side = usize::from(input.nets[0].is_none());
                inputs.insert(input.name.as_str(), bit(values[side][net as usize]));
            }
        }
        for (name, gold, gate) in &self.outputs {
            chars[0].insert(name.as_str(), bit(values[0][*gold as usize]));
            chars[1].insert(name.as_str(), gate.map_or('x', |net| bit(values[1][net as usize])));
        }
        let word = |port: &Port, chars: &HashMap<&str, char>| -> String {
            bit_names(port).iter().map(|name| chars.get(name.as_str()).copied().unwrap_or('x')).collect()
        };
        let mut row = Step { step, differs, ..Step::default() };
        for port in ports {
            match port.direction.as_str() {
                "input" => {
                    row.inputs.insert(port.name.clone(), word(port, &inputs));
                }
                "output" => {
                    row.expected.insert(port.name.clone(), word(port, &chars[0]));
                    row.actual.insert(port.name.clone(), word(port, &chars[1]));
                }
                _ => {}
            }
        }
        row
    }
}

/// The names Yosys's BLIF gives a port's bits, most significant first: the port's name for a
/// one-bit port, `name[i]` by declared index otherwise.
fn bit_names(port: &Port) -> Vec<String> {
    let range = port.range.trim_start_matches('[').trim_end_matches(']');
    let Some((Ok(left), Ok(right))) = range.split_once(':').map(|(l, r)| (l.parse::<i64>(), r.parse::<i64>())) else {
        return vec![port.name.clone()];
    };
    if left == right {
        return vec![port.name.clone()];
    }
    let indices: Box<dyn Iterator<Item = i64>> =
        if left > right { Box::new((right..=left).rev()) } else { Box::new(left..=right) };
    indices.map(|index| format!("{}[{index}]", port.name)).collect()
}

/// SplitMix64: a small, fast generator of 64 random bits, fixed by its seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A seed fixed by the item's designs (FNV-1a of both), so that an item's verdict is the same on
/// every run.
pub(crate) fn seed_of(reference: &str, candidate: &str) -> u64 {
    [reference.as_bytes(), &[0xff], candidate.as_bytes()]
        .into_iter()
        .flatten()
        .fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bit of three-valued logic: `None` is unknown.
    type Bit = Option<bool>;

    const BITS: [Bit; 3] = [Some(false), Some(true), None];

    /// A gate of up to three inputs as a Boolean function.
    type Gate3 = fn([bool; 3]) -> bool;

    fn pack(bits: &[Bit]) -> Bits {
        let mut packed = Bits::UNKNOWN;
        for (lane, bit) in bits.iter().enumerate() {
            if let Some(value) = bit {
                packed.known |= 1 << lane;
                packed.value |= u64::from(*value) << lane;
            }
        }
        packed
    }

    /// The exact value of a gate over unknown inputs: known when every way of filling them in
    /// gives the same output.
    fn exact(function: Gate3, inputs: [Bit; 3]) -> Bit {
        let mut outputs = (0..8u8).map(|fill| {
            let mut bits = [false; 3];
            for (index, bit) in inputs.iter().enumerate() {
                match bit {
                    Some(value) => bits[index] = *value,
                    None => bits[index] = fill >> index & 1 == 1,
                }
            }
            function(bits)
        });
        let first = outputs.next()?;
        outputs.all(|output| output == first).then_some(first)
    }

    #[test]
    fn each_basic_gate_is_exact_on_every_mix_of_known_and_unknown_inputs() {
        let gates: [(Op, Gate3); 5] = [
            (Op::Not, |[a, _, _]| !a),
            (Op::And, |[a, b, _]| a & b),
            (Op::Or, |[a, b, _]| a | b),
            (Op::Xor, |[a, b, _]| a ^ b),
            (Op::Mux, |[a, b, s]| if s { b } else { a }),
        ];
        let cases: Vec<[Bit; 3]> =
            BITS.iter().flat_map(|&a| BITS.iter().flat_map(move |&b| BITS.iter().map(move |&c| [a, b, c]))).collect();
        for (op, function) in gates {
            let columns: [Bits; 3] =
                std::array::from_fn(|pin| pack(&cases.iter().map(|case| case[pin]).collect::<Vec<_>>()));
            let got = Bits::apply(op, [columns[0], columns[1], columns[2], Bits::ZERO]);
            for (lane, case) in cases.iter().enumerate() {
                let expected = exact(function, *case);
                let known = got.known >> lane & 1 == 1;
                let value = got.value >> lane & 1 == 1;
                assert_eq!(known.then_some(value), expected, "{op:?} on {case:?}");
                assert!(known || !value, "{op:?}: an unknown bit with a value");
            }
        }
    }

    /// A two-bit counter that counts while `en`, with a synchronous reset, as Yosys writes it
    /// (`flip` inverts the low bit's next value when `en` is low: a different design).
    fn counter(flip: bool) -> String {
        let hold = if flip { ".subckt $_NOT_ A=q[0] Y=h0\n" } else { ".conn q[0] h0\n" };
        format!(
            ".model counter\n.inputs clk rst en\n.outputs q[0] q[1]\n\
             .subckt $_NOT_ A=q[0] Y=n0\n\
             .subckt $_XOR_ A=q[1] B=q[0] Y=n1\n\
             {hold}\
             .subckt $_MUX_ A=h0 B=n0 S=en Y=m0\n\
             .subckt $_MUX_ A=q[1] B=n1 S=en Y=m1\n\
             .subckt $_MUX_ A=m0 B=$false S=rst Y=d0\n\
             .subckt $_MUX_ A=m1 B=$false S=rst Y=d1\n\
             .subckt $_DFF_P_ C=clk D=d0 Q=q[0]\n\
             .subckt $_DFF_P_ C=clk D=d1 Q=q[1]\n\
             .end\n"
        )
    }

    fn port(direction: &str, range: &str, name: &str) -> Port {
        Port { direction: direction.to_owned(), range: range.to_owned(), name: name.to_owned() }
    }

    fn ports() -> Vec<Port> {
        vec![
            port("input", "[0:0]", "clk"),
            port("input", "[0:0]", "rst"),
            port("input", "[0:0]", "en"),
            port("output", "[1:0]", "q"),
        ]
    }

    fn plan() -> Plan {
        Plan {
            reset: Some(("rst".to_owned(), false)),
            timing: Timing::Cycles,
            sequential: true,
            steps: 21,
            skipped: 1,
            cycles: 20,
        }
    }

    #[test]
    fn equal_designs_agree_and_different_ones_differ_with_the_trace_of_a_difference() -> Result<(), String> {
        let gold = Netlist::parse(&counter(false))?;
        let same = Netlist::parse(&counter(false))?;
        let other = Netlist::parse(&counter(true))?;
        let outcome = simulate(&gold, &same, &ports(), &plan(), 7, None);
        assert_eq!(outcome, Outcome::Agree { traces: 64 * MAX_BATCHES, cycles: CYCLES });
        let Outcome::Differ(trace) = simulate(&gold, &other, &ports(), &plan(), 7, None) else {
            panic!("the designs differ when `en` is low after the reset");
        };
        let last = trace.steps.last().ok_or("an empty trace")?;
        assert!(last.differs && trace.steps.iter().rev().skip(1).all(|step| !step.differs));
        // The counters agree until `en` is low outside the reset; at that step they still agree
        // (the state is zero in both), and they differ from the next.
        assert_eq!(trace.steps[0].inputs["rst"], "1", "{trace:?}");
        assert_ne!(last.expected["q"], last.actual["q"]);
        assert_eq!(last.expected["q"].len(), 2);
        // The same seed finds the same trace.
        assert_eq!(simulate(&gold, &other, &ports(), &plan(), 7, None), Outcome::Differ(trace));
        Ok(())
    }

    #[test]
    fn an_unknown_reference_bit_matches_anything_and_an_unknown_candidate_bit_only_that() -> Result<(), String> {
        let model = |body: &str| format!(".model m\n.inputs a\n.outputs y\n{body}.end\n");
        let reference = Netlist::parse(&model(".subckt $_AND_ A=a B=$undef Y=y\n"))?;
        let candidate = Netlist::parse(&model(".conn a y\n"))?;
        let ports = [port("input", "[0:0]", "a"), port("output", "[0:0]", "y")];
        let plan = Plan { reset: None, sequential: false, steps: 1, skipped: 0, ..plan() };
        // `a & x` is 0 when `a` is 0 and unknown otherwise: `a` matches it.
        assert!(matches!(simulate(&reference, &candidate, &ports, &plan, 1, None), Outcome::Agree { .. }));
        // The other way round, the candidate's unknown bit fails where the reference's is known.
        assert!(matches!(simulate(&candidate, &reference, &ports, &plan, 1, None), Outcome::Differ(_)));
        Ok(())
    }

    #[test]
    fn netlists_outside_the_model_are_refused_with_the_reason() {
        let model = |body: &str| format!(".model m\n.inputs a\n.outputs y\n{body}.end\n");
        let refused = |body: &str| Netlist::parse(&model(body)).err().unwrap_or_default();
        assert!(refused(".conn a y\n.subckt $_NOT_ A=a Y=y\n").contains("more than one driver"));
        assert!(refused(".subckt $_AND_ A=a B=z Y=y\n.subckt $_NOT_ A=y Y=z\n").contains("combinational loop"));
        assert!(refused(".subckt $_DLATCH_P_ E=a D=a Q=y\n").contains("$_DLATCH_P_"));
        assert!(refused(".subckt $_NOT_ A=a Y=$true\n").contains("more than one driver"));
        assert!(refused(".names a y\n1 1\n").contains(".names"));
        assert!(Netlist::parse(".model m\n.inputs a\n").is_err_and(|e| e.contains("no complete model")));
        // Log lines before the model are skipped.
        assert!(Netlist::parse(&format!("1. Executing BLIF backend.\n{}", model(".conn a y\n"))).is_ok());
    }

    #[test]
    fn bit_names_follow_the_declared_range() {
        assert_eq!(bit_names(&port("input", "[0:0]", "a")), ["a"]);
        assert_eq!(bit_names(&port("input", "[7:4]", "a")), ["a[7]", "a[6]", "a[5]", "a[4]"]);
        assert_eq!(bit_names(&port("input", "[0:2]", "b")), ["b[0]", "b[1]", "b[2]"]);
    }
}
