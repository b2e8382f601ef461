//! Job-shop scheduling with makespan minimisation (J||Cmax).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, index};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::nested_text;
use crate::violation::Violation;

const MAX_JOBS: usize = 30;
const MAX_MACHINES: usize = 20;
const SEARCH_BUDGET: u64 = 500_000;
/// Shops with more operations than this skip the exact search (it cannot finish) and get the
/// priority-rule heuristic with more restarts.
const EXACT_MAX_OPERATIONS: usize = 25;

/// A job-shop instance: every job visits every machine once, in its own order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobShopInstance {
    /// Number of machines, labelled `0..machines`.
    pub machines: usize,
    /// Per job, its operations in order as `[machine, duration]`.
    pub jobs: Vec<Vec<(usize, i64)>>,
}

/// The job-shop task.
#[derive(Debug)]
pub struct JobShop;

/// max(longest job, most loaded machine): a lower bound on the makespan.
pub fn lower_bound(inst: &JobShopInstance) -> i64 {
    let job = inst.jobs.iter().map(|j| j.iter().map(|o| o.1).sum::<i64>()).max().unwrap_or(0);
    let mut load = vec![0; inst.machines];
    for op in inst.jobs.iter().flatten() {
        load[op.0] += op.1;
    }
    job.max(load.into_iter().max().unwrap_or(0))
}

/// The semi-active schedule of per-machine job orders: each operation starts as soon as its
/// job predecessor and machine predecessor finish. `Err(scheduled)` when the orders contradict
/// the job routes (a cycle), with how many operations could be scheduled.
pub fn makespan(inst: &JobShopInstance, orders: &[Vec<usize>]) -> Result<i64, usize> {
    let n = inst.jobs.len();
    // Position of each job's operation on each machine: step[j][m] = operation index.
    let mut step = vec![vec![usize::MAX; inst.machines]; n];
    for (j, ops) in inst.jobs.iter().enumerate() {
        for (k, &(m, _)) in ops.iter().enumerate() {
            step[j][m] = k;
        }
    }
    let mut job_next = vec![0usize; n];
    let mut machine_next = vec![0usize; inst.machines];
    let mut job_end = vec![0i64; n];
    let mut machine_end = vec![0i64; inst.machines];
    let total: usize = inst.jobs.iter().map(Vec::len).sum();
    let mut done = 0;
    // Repeatedly schedule any machine whose next job is also at that machine in its route.
    loop {
        let mut progressed = false;
        for m in 0..inst.machines {
            while let Some(&j) = orders[m].get(machine_next[m]) {
                if step[j][m] != job_next[j] {
                    break;
                }
                let duration = inst.jobs[j][job_next[j]].1;
                let end = job_end[j].max(machine_end[m]) + duration;
                job_end[j] = end;
                machine_end[m] = end;
                job_next[j] += 1;
                machine_next[m] += 1;
                done += 1;
                progressed = true;
            }
        }
        if done == total {
            return Ok(machine_end.into_iter().max().unwrap_or(0));
        }
        if !progressed {
            return Err(done);
        }
    }
}

impl Problem for JobShop {
    type Instance = JobShopInstance;
    type Solution = Vec<Vec<usize>>;
    const NAME: &'static str = "job_shop";
    const SUMMARY: &'static str = "Order the jobs on every machine to minimise the makespan; each job visits the \
        machines in its own fixed order. The server builds the earliest schedule from the orders and rejects cyclic \
        ones. Exact Giffler-Thompson branch and bound on small shops, priority-rule heuristic with the job/machine \
        bound above.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "one list per machine (machine 0 first) giving the order in which it processes \
        the jobs, every job exactly once per machine, e.g. `[[0, 2, 1], [2, 0, 1], [1, 0, 2]]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "3 jobs x 3 machines, exact" },
        LevelSpec { level: 2, description: "4 jobs x 4 machines, exact" },
        LevelSpec { level: 3, description: "5 jobs x 4-5 machines, exact within budget" },
        LevelSpec { level: 4, description: "8 jobs x 6-8 machines, heuristic with job/machine lower bound" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (JobShopInstance, Option<Vec<Vec<usize>>>) {
        let (n, mlo, mhi) = match level {
            1 => (3, 3, 3),
            2 => (4, 4, 4),
            3 => (5, 4, 5),
            _ => (8, 6, 8),
        };
        let machines = rng.range_usize(mlo, mhi);
        let jobs =
            (0..n).map(|_| rng.permutation(machines).into_iter().map(|m| (m, rng.range(1, 20))).collect()).collect();
        (JobShopInstance { machines, jobs }, None)
    }

    fn validate(inst: &JobShopInstance) -> Result<(), String> {
        if inst.jobs.is_empty() || inst.jobs.len() > MAX_JOBS || !(1..=MAX_MACHINES).contains(&inst.machines) {
            return Err(format!("1..={MAX_JOBS} jobs and 1..={MAX_MACHINES} machines"));
        }
        for ops in &inst.jobs {
            let mut machines: Vec<usize> = ops.iter().map(|o| o.0).collect();
            machines.sort_unstable();
            if machines != (0..inst.machines).collect::<Vec<_>>() || ops.iter().any(|o| !(1..=10_000).contains(&o.1)) {
                return Err("every job must visit every machine exactly once, with durations in 1..=10000".into());
            }
        }
        Ok(())
    }

    fn prompt(inst: &JobShopInstance) -> String {
        let lines: Vec<String> = inst
            .jobs
            .iter()
            .enumerate()
            .map(|(j, ops)| {
                let steps: Vec<String> = ops.iter().map(|(m, d)| format!("machine {m} for {d}")).collect();
                format!("job {j}: {}", steps.join(", then "))
            })
            .collect();
        format!(
            "Job-shop scheduling. There are {} jobs and {} machines (numbered from 0). Each job must be processed on the \
             machines in the order given, one operation at a time; a machine processes one job at a time, without \
             interruption.\n{}\n\nChoose, for every machine, the order in which it processes the jobs, so that the time \
             when all jobs are finished (the makespan) is as small as possible. Each operation starts as early as its \
             job and its machine allow.",
            inst.jobs.len(),
            inst.machines,
            lines.join("\n")
        )
    }

    fn decode(inst: &JobShopInstance, answer: &Node) -> Result<Vec<Vec<usize>>, Violation> {
        let lists = answer.nested()?;
        if lists.len() != inst.machines {
            return Err(Violation::wrong_length("machine orders", inst.machines, lists.len()));
        }
        let n = inst.jobs.len();
        lists
            .iter()
            .map(|list| {
                let mut seen = vec![false; n];
                let mut order = Vec::with_capacity(n);
                for &v in list {
                    let j = index(v, n, "job")?;
                    if std::mem::replace(&mut seen[j], true) {
                        return Err(Violation::duplicate("job", j));
                    }
                    order.push(j);
                }
                match seen.iter().position(|&s| !s) {
                    Some(j) => Err(Violation::missing("job", j)),
                    None => Ok(order),
                }
            })
            .collect()
    }

    fn objective(inst: &JobShopInstance, orders: &Vec<Vec<usize>>) -> Result<i64, Violation> {
        makespan(inst, orders).map_err(|scheduled| {
            Violation::constraint(
                "the machine orders contradict the job routes (cyclic waiting)",
                json!({ "scheduled_operations": scheduled, "operations": inst.jobs.len() * inst.machines }),
            )
        })
    }

    fn canonical(_: &JobShopInstance, orders: &Vec<Vec<usize>>) -> Value {
        json!(orders)
    }

    fn format(_: &JobShopInstance, orders: &Vec<Vec<usize>>) -> String {
        nested_text(orders)
    }

    fn solve(inst: &JobShopInstance, _: Option<&Vec<Vec<usize>>>) -> Solved<Vec<Vec<usize>>> {
        let bound = lower_bound(inst);
        let (orders, finished) = if inst.jobs.len() * inst.machines <= EXACT_MAX_OPERATIONS {
            branch_and_bound(inst, SEARCH_BUDGET)
        } else {
            (priority_rules(inst, 200), false)
        };
        let value = makespan(inst, &orders).unwrap_or(i64::MAX);
        let kind = if finished || value == bound { ReferenceKind::Exact } else { ReferenceKind::Heuristic };
        Solved { solution: orders, kind, bound: Some(bound) }
    }

    fn baseline(inst: &JobShopInstance) -> Vec<Vec<usize>> {
        // The same job priority on every machine can never wait in a cycle.
        vec![(0..inst.jobs.len()).collect(); inst.machines]
    }
}

/// State of a partial Giffler-Thompson schedule.
#[derive(Clone)]
struct Partial {
    job_next: Vec<usize>,
    job_ready: Vec<i64>,
    machine_ready: Vec<i64>,
    orders: Vec<Vec<usize>>,
}

impl Partial {
    fn new(inst: &JobShopInstance) -> Self {
        Partial {
            job_next: vec![0; inst.jobs.len()],
            job_ready: vec![0; inst.jobs.len()],
            machine_ready: vec![0; inst.machines],
            orders: vec![Vec::new(); inst.machines],
        }
    }

    /// The Giffler-Thompson conflict set: jobs whose next operation is on the machine of the
    /// earliest-completing operation and could start before that completion. Empty when done.
    fn conflict_set(&self, inst: &JobShopInstance) -> Vec<usize> {
        let mut best: Option<(i64, usize)> = None;
        for (j, ops) in inst.jobs.iter().enumerate() {
            if let Some(&(m, d)) = ops.get(self.job_next[j]) {
                let end = self.job_ready[j].max(self.machine_ready[m]) + d;
                if best.is_none_or(|(e, _)| end < e) {
                    best = Some((end, m));
                }
            }
        }
        let Some((end, machine)) = best else { return Vec::new() };
        (0..inst.jobs.len())
            .filter(|&j| {
                inst.jobs[j]
                    .get(self.job_next[j])
                    .is_some_and(|&(m, _)| m == machine && self.job_ready[j].max(self.machine_ready[m]) < end)
            })
            .collect()
    }

    fn schedule(&mut self, inst: &JobShopInstance, j: usize) {
        let (m, d) = inst.jobs[j][self.job_next[j]];
        let end = self.job_ready[j].max(self.machine_ready[m]) + d;
        self.job_ready[j] = end;
        self.machine_ready[m] = end;
        self.job_next[j] += 1;
        self.orders[m].push(j);
    }

    /// Remaining work bounds: each job's ready time plus its remaining operations, each
    /// machine's ready time plus its remaining load.
    fn bound(&self, inst: &JobShopInstance) -> i64 {
        let mut bound = 0;
        let mut machine_left = vec![0i64; inst.machines];
        for (j, ops) in inst.jobs.iter().enumerate() {
            let rest = &ops[self.job_next[j]..];
            bound = bound.max(self.job_ready[j] + rest.iter().map(|o| o.1).sum::<i64>());
            for &(m, d) in rest {
                machine_left[m] += d;
            }
        }
        (0..inst.machines).fold(bound, |b, m| b.max(self.machine_ready[m] + machine_left[m]))
    }
}

/// Exact search over active schedules (an optimal schedule is active), pruned by the partial
/// bound; starts from the priority-rule heuristic. Returns the orders and whether it finished.
pub fn branch_and_bound(inst: &JobShopInstance, budget: u64) -> (Vec<Vec<usize>>, bool) {
    let best = priority_rules(inst, 16);
    let best_value = makespan(inst, &best).unwrap_or(i64::MAX);
    let mut s = ShopSearch { inst, best, best_value, lower: lower_bound(inst), nodes: 0, budget };
    s.go(Partial::new(inst));
    let finished = s.nodes <= budget;
    (s.best, finished)
}

struct ShopSearch<'a> {
    inst: &'a JobShopInstance,
    best: Vec<Vec<usize>>,
    best_value: i64,
    lower: i64,
    nodes: u64,
    budget: u64,
}

impl ShopSearch<'_> {
    fn go(&mut self, state: Partial) {
        self.nodes += 1;
        if self.nodes > self.budget || self.best_value <= self.lower || state.bound(self.inst) >= self.best_value {
            return;
        }
        let conflict = state.conflict_set(self.inst);
        if conflict.is_empty() {
            let value = state.machine_ready.iter().copied().max().unwrap_or(0);
            if value < self.best_value {
                self.best_value = value;
                self.best = state.orders;
            }
            return;
        }
        for j in conflict {
            let mut next = state.clone();
            next.schedule(self.inst, j);
            self.go(next);
        }
    }
}

/// Giffler-Thompson with dispatch rules (most work remaining, shortest operation) and
/// `random_starts` random-priority runs from a fixed seed; the best schedule found.
pub fn priority_rules(inst: &JobShopInstance, random_starts: usize) -> Vec<Vec<usize>> {
    let remaining = |s: &Partial, j: usize| inst.jobs[j][s.job_next[j]..].iter().map(|o| o.1).sum::<i64>();
    let mut rng = Rng::from_seed(0x10B);
    let mut best: Option<(i64, Vec<Vec<usize>>)> = None;
    for run in 0..random_starts + 2 {
        let priority: Vec<u64> = (0..inst.jobs.len()).map(|_| rng.next_u64()).collect();
        let mut s = Partial::new(inst);
        loop {
            let conflict = s.conflict_set(inst);
            let pick = match run {
                0 => conflict.iter().copied().max_by_key(|&j| (remaining(&s, j), std::cmp::Reverse(j))),
                1 => conflict.iter().copied().min_by_key(|&j| (inst.jobs[j][s.job_next[j]].1, j)),
                _ => conflict.iter().copied().max_by_key(|&j| priority[j]),
            };
            let Some(j) = pick else { break };
            s.schedule(inst, j);
        }
        let value = s.machine_ready.iter().copied().max().unwrap_or(0);
        if best.as_ref().is_none_or(|(b, _)| value < *b) {
            best = Some((value, s.orders));
        }
    }
    best.map(|b| b.1).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for pos in 0..=p.len() {
                let mut q = p.clone();
                q.insert(pos, n - 1);
                out.push(q);
            }
        }
        out
    }

    impl Testable for JobShop {
        fn tiny(rng: &mut Rng) -> JobShopInstance {
            let n = rng.range_usize(1, 3);
            let machines = rng.range_usize(1, 3);
            let jobs =
                (0..n).map(|_| rng.permutation(machines).into_iter().map(|m| (m, rng.range(1, 9))).collect()).collect();
            JobShopInstance { machines, jobs }
        }

        fn brute_force(inst: &JobShopInstance) -> i64 {
            let perms = permutations(inst.jobs.len());
            let combos = perms.len().pow(inst.machines as u32);
            (0..combos)
                .filter_map(|mut code| {
                    let orders: Vec<Vec<usize>> = (0..inst.machines)
                        .map(|_| {
                            let p = perms[code % perms.len()].clone();
                            code /= perms.len();
                            p
                        })
                        .collect();
                    makespan(inst, &orders).ok()
                })
                .min()
                .unwrap_or(i64::MAX)
        }

        fn exact(inst: &JobShopInstance) -> Vec<Vec<usize>> {
            branch_and_bound(inst, u64::MAX).0
        }

        fn heuristic(inst: &JobShopInstance) -> Vec<Vec<usize>> {
            priority_rules(inst, 4)
        }

        fn mutations(inst: &JobShopInstance, orders: &Vec<Vec<usize>>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.jobs.len();
            let mut dup = orders.clone();
            dup[0][1] = dup[0][0];
            let mut out_of_range = orders.clone();
            out_of_range[0][0] = n;
            let mut out = vec![
                (nested_text(&dup), ErrorKind::Duplicate),
                (nested_text(&out_of_range), ErrorKind::OutOfRange),
                (nested_text(&orders[1..]), ErrorKind::WrongLength),
                ("[0, 1, 2]".to_owned(), ErrorKind::ParseError),
            ];
            // Job 0 first on the machine of job 1's first operation and vice versa is a cycle
            // whenever neither job starts on the other's first machine.
            let (m0, m1) = (inst.jobs[0][0].0, inst.jobs[1][0].0);
            if m0 != m1 {
                let mut cyclic = orders.clone();
                for (m, first) in [(m0, 1usize), (m1, 0usize)] {
                    cyclic[m].retain(|&j| j != first);
                    cyclic[m].insert(0, first);
                }
                out.push((nested_text(&cyclic), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<JobShop>(1500, 23);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<JobShop>(3);
    }
}
