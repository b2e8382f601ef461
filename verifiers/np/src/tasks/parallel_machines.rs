//! Makespan minimisation on identical parallel machines (P||Cmax).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::assign::{decode_groups, loads, random_cut, relabel};
use crate::tasks::list_text;
use crate::violation::Violation;

const MAX_JOBS: usize = 500;
const MAX_MACHINES: usize = 64;
const SCHEDULE_BUDGET: u64 = 1_000_000;

/// A P||Cmax instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachinesInstance {
    /// Number of identical machines.
    pub machines: usize,
    /// Processing time of each job, labelled by position.
    pub times: Vec<i64>,
}

/// The parallel-machines scheduling task.
#[derive(Debug)]
pub struct ParallelMachines;

/// max(longest job, ⌈Σ times / m⌉), a lower bound on the makespan.
pub fn lower_bound(inst: &MachinesInstance) -> i64 {
    let total: i64 = inst.times.iter().sum();
    let m = inst.machines.max(1) as i64;
    ((total + m - 1) / m).max(inst.times.iter().copied().max().unwrap_or(0))
}

impl Problem for ParallelMachines {
    type Instance = MachinesInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "parallel_machines";
    const SUMMARY: &'static str = "Assign jobs to identical machines minimising the makespan (largest machine load). \
        Job times are cut from equal machine loads, so the planted schedule meets the ⌈Σ/m⌉ bound and is optimal.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "one machine number (0 to m-1) per job in job order, e.g. `[0, 2, 1, 0]`; the \
        machines' job lists (e.g. `[[0, 3], [2], [1]]`) are also accepted.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "2 machines, 6-8 jobs, planted optimal" },
        LevelSpec { level: 2, description: "3 machines, 10-14 jobs, planted optimal" },
        LevelSpec { level: 3, description: "4-5 machines, 16-25 jobs, planted optimal" },
        LevelSpec { level: 4, description: "6-8 machines, 30-50 jobs, planted optimal" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (MachinesInstance, Option<Vec<usize>>) {
        let (mlo, mhi, per, load) = match level {
            1 => (2, 2, (3, 4), 30),
            2 => (3, 3, (3, 5), 60),
            3 => (4, 5, (4, 5), 100),
            _ => (6, 8, (5, 6), 500),
        };
        let machines = rng.range_usize(mlo, mhi);
        let mut jobs: Vec<(i64, usize)> = Vec::new();
        for m in 0..machines {
            let pieces = rng.range_usize(per.0, per.1);
            jobs.extend(random_cut(load, pieces, rng).into_iter().map(|t| (t, m)));
        }
        rng.shuffle(&mut jobs);
        let planted = jobs.iter().map(|j| j.1).collect();
        (MachinesInstance { machines, times: jobs.iter().map(|j| j.0).collect() }, Some(planted))
    }

    fn validate(inst: &MachinesInstance) -> Result<(), String> {
        if inst.times.is_empty() || inst.times.len() > MAX_JOBS || !(1..=MAX_MACHINES).contains(&inst.machines) {
            return Err(format!("1..={MAX_JOBS} jobs and 1..={MAX_MACHINES} machines"));
        }
        if inst.times.iter().any(|&t| !(1..=1_000_000).contains(&t)) {
            return Err("times must be within 1..=1e6".into());
        }
        Ok(())
    }

    fn prompt(inst: &MachinesInstance) -> String {
        let lines: Vec<String> = inst.times.iter().enumerate().map(|(i, t)| format!("job {i}: time {t}")).collect();
        format!(
            "Scheduling on identical parallel machines. There are {} machines (numbered 0 to {}) and {} jobs:\n{}\n\n\
             Assign every job to one machine. A machine's load is the sum of its jobs' times. Minimise the largest load \
             (the makespan).",
            inst.machines,
            inst.machines - 1,
            inst.times.len(),
            lines.join("\n")
        )
    }

    fn decode(inst: &MachinesInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        decode_groups(answer, inst.times.len(), inst.machines, "job")
    }

    fn objective(inst: &MachinesInstance, assignment: &Vec<usize>) -> Result<i64, Violation> {
        Ok(loads(assignment, &inst.times, inst.machines).into_iter().max().unwrap_or(0))
    }

    fn canonical(_: &MachinesInstance, assignment: &Vec<usize>) -> Value {
        // Machines are identical, so their numbering does not matter.
        json!(relabel(assignment))
    }

    fn format(_: &MachinesInstance, assignment: &Vec<usize>) -> String {
        list_text(assignment)
    }

    fn solve(inst: &MachinesInstance, planted: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        let lower = lower_bound(inst);
        if let Some(p) = planted
            && ParallelMachines::objective(inst, p).is_ok_and(|c| c <= lower)
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: Some(lower) };
        }
        let (assignment, finished) = exact(inst, SCHEDULE_BUDGET);
        let makespan = ParallelMachines::objective(inst, &assignment).unwrap_or(i64::MAX);
        let kind = if finished || makespan <= lower { ReferenceKind::Exact } else { ReferenceKind::Heuristic };
        Solved { solution: assignment, kind, bound: Some(lower) }
    }

    fn baseline(inst: &MachinesInstance) -> Vec<usize> {
        list_schedule(inst, (0..inst.times.len()).collect())
    }
}

/// Each job in `order` to the least-loaded machine (lowest number on ties).
fn list_schedule(inst: &MachinesInstance, order: Vec<usize>) -> Vec<usize> {
    let mut load = vec![0i64; inst.machines];
    let mut assignment = vec![0; inst.times.len()];
    for j in order {
        let m = (0..inst.machines).min_by_key(|&m| (load[m], m)).unwrap_or(0);
        load[m] += inst.times[j];
        assignment[j] = m;
    }
    assignment
}

/// Longest processing time first.
pub fn lpt(inst: &MachinesInstance) -> Vec<usize> {
    let mut order: Vec<usize> = (0..inst.times.len()).collect();
    order.sort_by_key(|&j| (std::cmp::Reverse(inst.times[j]), j));
    list_schedule(inst, order)
}

/// Exact branch and bound: jobs by decreasing time onto machines (machines with equal loads
/// tried once), pruned by the current makespan and the average-load bound; starts from LPT.
pub fn exact(inst: &MachinesInstance, budget: u64) -> (Vec<usize>, bool) {
    let mut order: Vec<usize> = (0..inst.times.len()).collect();
    order.sort_by_key(|&j| (std::cmp::Reverse(inst.times[j]), j));
    let best = lpt(inst);
    let best_makespan = ParallelMachines::objective(inst, &best).unwrap_or(i64::MAX);
    let mut s = MachineSearch {
        inst,
        order,
        load: vec![0; inst.machines],
        assign: vec![0; inst.times.len()],
        best,
        best_makespan,
        lower: lower_bound(inst),
        nodes: 0,
        budget,
    };
    s.go(0, 0);
    let finished = s.nodes <= budget;
    (s.best, finished)
}

struct MachineSearch<'a> {
    inst: &'a MachinesInstance,
    order: Vec<usize>,
    load: Vec<i64>,
    assign: Vec<usize>,
    best: Vec<usize>,
    best_makespan: i64,
    lower: i64,
    nodes: u64,
    budget: u64,
}

impl MachineSearch<'_> {
    fn go(&mut self, k: usize, makespan: i64) {
        self.nodes += 1;
        if self.nodes > self.budget || self.best_makespan <= self.lower || makespan >= self.best_makespan {
            return;
        }
        if k == self.order.len() {
            self.best_makespan = makespan;
            self.best.clone_from(&self.assign);
            return;
        }
        let job = self.order[k];
        let t = self.inst.times[job];
        let mut tried = Vec::new();
        for m in 0..self.inst.machines {
            if tried.contains(&self.load[m]) {
                continue;
            }
            tried.push(self.load[m]);
            self.load[m] += t;
            self.assign[job] = m;
            self.go(k + 1, makespan.max(self.load[m]));
            self.load[m] -= t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for ParallelMachines {
        fn tiny(rng: &mut Rng) -> MachinesInstance {
            let n = rng.range_usize(1, 8);
            MachinesInstance { machines: rng.range_usize(1, 3), times: (0..n).map(|_| rng.range(1, 20)).collect() }
        }

        fn brute_force(inst: &MachinesInstance) -> i64 {
            let (n, m) = (inst.times.len(), inst.machines);
            (0..m.pow(n as u32))
                .map(|mut code| {
                    let a: Vec<usize> = (0..n)
                        .map(|_| {
                            let x = code % m;
                            code /= m;
                            x
                        })
                        .collect();
                    ParallelMachines::objective(inst, &a).unwrap_or(i64::MAX)
                })
                .min()
                .unwrap_or(0)
        }

        fn exact(inst: &MachinesInstance) -> Vec<usize> {
            exact(inst, u64::MAX).0
        }

        fn heuristic(inst: &MachinesInstance) -> Vec<usize> {
            lpt(inst)
        }

        fn mutations(inst: &MachinesInstance, a: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut bad = a.clone();
            bad[0] = inst.machines;
            vec![
                (list_text(&bad), ErrorKind::OutOfRange),
                (list_text(&a[1..]), ErrorKind::WrongLength),
                ("[[0, 0]]".to_owned(), ErrorKind::Duplicate),
                ("[[0]]".to_owned(), ErrorKind::MissingElement),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<ParallelMachines>(1500, 12);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<ParallelMachines>(3);
    }
}
