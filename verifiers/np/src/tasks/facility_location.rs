//! Uncapacitated facility location: open facilities; every customer uses its cheapest open one.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

const MAX_FACILITIES: usize = 60;
const MAX_CUSTOMERS: usize = 300;
const SEARCH_BUDGET: u64 = 2_000_000;
/// The exact search is tried up to this many facilities.
pub const EXACT_MAX: usize = 20;

/// A facility-location instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FacilityInstance {
    /// Cost of opening each facility.
    pub opening_costs: Vec<i64>,
    /// `costs[c][f]`: cost of serving customer c from facility f.
    pub costs: Vec<Vec<i64>>,
}

/// The facility-location task.
#[derive(Debug)]
pub struct FacilityLocation;

fn total_cost(inst: &FacilityInstance, open: &[usize]) -> i64 {
    let opening: i64 = open.iter().map(|&f| inst.opening_costs[f]).sum();
    let serving: i64 = inst.costs.iter().map(|row| open.iter().map(|&f| row[f]).min().unwrap_or(0)).sum();
    opening + serving
}

impl Problem for FacilityLocation {
    type Instance = FacilityInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "facility_location";
    const SUMMARY: &'static str = "Choose facilities to open; each customer is served by its cheapest open facility. \
        Minimise opening plus service cost. Exact branch and bound up to 20 facilities, add/drop/swap local search \
        above.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "the list of facilities to open, each at most once and at least one, e.g. \
        `[0, 3]`; customers are assigned automatically.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "5 facilities, 10 customers, exact" },
        LevelSpec { level: 2, description: "8 facilities, 20 customers, exact" },
        LevelSpec { level: 3, description: "12-15 facilities, 30-40 customers, exact" },
        LevelSpec { level: 4, description: "30-40 facilities, 80-100 customers, heuristic" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (FacilityInstance, Option<Vec<usize>>) {
        let (flo, fhi, clo, chi) = match level {
            1 => (5, 5, 10, 10),
            2 => (8, 8, 20, 20),
            3 => (12, 15, 30, 40),
            _ => (30, 40, 80, 100),
        };
        let f = rng.range_usize(flo, fhi);
        let c = rng.range_usize(clo, chi);
        let point = |rng: &mut Rng| (rng.range(0, 100), rng.range(0, 100));
        let sites: Vec<(i64, i64)> = (0..f).map(|_| point(rng)).collect();
        let opening_costs = (0..f).map(|_| rng.range(50, 200)).collect();
        let costs = (0..c)
            .map(|_| {
                let (x, y) = point(rng);
                sites.iter().map(|&(a, b)| (((x - a).pow(2) + (y - b).pow(2)) as f64).sqrt().round() as i64).collect()
            })
            .collect();
        (FacilityInstance { opening_costs, costs }, None)
    }

    fn validate(inst: &FacilityInstance) -> Result<(), String> {
        let f = inst.opening_costs.len();
        if f == 0 || f > MAX_FACILITIES || inst.costs.is_empty() || inst.costs.len() > MAX_CUSTOMERS {
            return Err(format!("1..={MAX_FACILITIES} facilities and 1..={MAX_CUSTOMERS} customers"));
        }
        if inst.costs.iter().any(|r| r.len() != f) {
            return Err("costs must have one row per customer and one column per facility".into());
        }
        if inst.opening_costs.iter().chain(inst.costs.iter().flatten()).any(|&x| !(0..=1_000_000).contains(&x)) {
            return Err("costs must be within 0..=1e6".into());
        }
        Ok(())
    }

    fn prompt(inst: &FacilityInstance) -> String {
        let opening: Vec<String> =
            inst.opening_costs.iter().enumerate().map(|(f, c)| format!("facility {f}: opening cost {c}")).collect();
        let rows: Vec<String> =
            inst.costs.iter().enumerate().map(|(c, r)| format!("customer {c}: {}", list_text(r))).collect();
        format!(
            "Facility location. There are {} candidate facilities and {} customers.\n{}\nService costs (row c lists the \
             cost of serving customer c from facilities 0..{}):\n{}\n\nChoose which facilities to open (at least one). \
             Every customer is served by its cheapest open facility. Minimise the total opening cost plus the total \
             service cost.",
            inst.opening_costs.len(),
            inst.costs.len(),
            opening.join("\n"),
            inst.opening_costs.len() - 1,
            rows.join("\n")
        )
    }

    fn decode(inst: &FacilityInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, inst.opening_costs.len(), "facility")
    }

    fn objective(inst: &FacilityInstance, open: &Vec<usize>) -> Result<i64, Violation> {
        if open.is_empty() {
            return Err(Violation::constraint("no facility is open, so no customer is served", json!({ "open": [] })));
        }
        Ok(total_cost(inst, open))
    }

    fn canonical(_: &FacilityInstance, open: &Vec<usize>) -> Value {
        let mut sorted = open.clone();
        sorted.sort_unstable();
        json!(sorted)
    }

    fn format(_: &FacilityInstance, open: &Vec<usize>) -> String {
        list_text(open)
    }

    fn solve(inst: &FacilityInstance, _: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        if inst.opening_costs.len() <= EXACT_MAX {
            let (open, finished) = branch_and_bound(inst, SEARCH_BUDGET);
            if finished {
                return Solved { solution: open, kind: ReferenceKind::Exact, bound: None };
            }
        }
        Solved { solution: local_search(inst), kind: ReferenceKind::Heuristic, bound: None }
    }

    fn baseline(inst: &FacilityInstance) -> Vec<usize> {
        // The single facility that is cheapest on its own.
        let best = (0..inst.opening_costs.len()).min_by_key(|&f| (total_cost(inst, &[f]), f)).unwrap_or(0);
        vec![best]
    }
}

/// Add/drop/swap local search from the greedy single facility, first improvement, until no move
/// helps.
pub fn local_search(inst: &FacilityInstance) -> Vec<usize> {
    let f = inst.opening_costs.len();
    let mut open = FacilityLocation::baseline(inst);
    let mut cost = total_cost(inst, &open);
    loop {
        let mut improved = false;
        let mut candidates: Vec<Vec<usize>> = Vec::new();
        for x in 0..f {
            if open.contains(&x) {
                if open.len() > 1 {
                    candidates.push(open.iter().copied().filter(|&y| y != x).collect());
                }
                for y in (0..f).filter(|y| !open.contains(y)) {
                    candidates.push(open.iter().map(|&z| if z == x { y } else { z }).collect());
                }
            } else {
                let mut with = open.clone();
                with.push(x);
                candidates.push(with);
            }
        }
        for c in candidates {
            let c_cost = total_cost(inst, &c);
            if c_cost < cost {
                cost = c_cost;
                open = c;
                improved = true;
                break;
            }
        }
        if !improved {
            open.sort_unstable();
            return open;
        }
    }
}

/// Exact branch and bound over open/closed decisions (facilities in index order), bounded by the
/// opening cost so far plus every customer's cheapest facility among those open or undecided.
/// Starts from the local-search solution; returns whether it finished within `budget` nodes.
pub fn branch_and_bound(inst: &FacilityInstance, budget: u64) -> (Vec<usize>, bool) {
    let best = local_search(inst);
    let best_cost = total_cost(inst, &best);
    let mut s = FacilitySearch { inst, open: Vec::new(), best, best_cost, nodes: 0, budget };
    s.go(0, 0);
    let finished = s.nodes <= budget;
    let mut best = s.best;
    best.sort_unstable();
    (best, finished)
}

struct FacilitySearch<'a> {
    inst: &'a FacilityInstance,
    open: Vec<usize>,
    best: Vec<usize>,
    best_cost: i64,
    nodes: u64,
    budget: u64,
}

impl FacilitySearch<'_> {
    fn go(&mut self, next: usize, opening: i64) {
        self.nodes += 1;
        if self.nodes > self.budget {
            return;
        }
        let f = self.inst.opening_costs.len();
        if self.open.is_empty() && next == f {
            // Everything closed serves nobody.
            return;
        }
        let bound = opening
            + self
                .inst
                .costs
                .iter()
                .map(|row| self.open.iter().copied().chain(next..f).map(|x| row[x]).min().unwrap_or(0))
                .sum::<i64>();
        if bound >= self.best_cost {
            return;
        }
        if next == f {
            if !self.open.is_empty() {
                self.best_cost = bound;
                self.best.clone_from(&self.open);
            }
            return;
        }
        self.open.push(next);
        self.go(next + 1, opening + self.inst.opening_costs[next]);
        self.open.pop();
        self.go(next + 1, opening);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for FacilityLocation {
        fn tiny(rng: &mut Rng) -> FacilityInstance {
            let f = rng.range_usize(1, 7);
            let c = rng.range_usize(1, 8);
            FacilityInstance {
                opening_costs: (0..f).map(|_| rng.range(0, 60)).collect(),
                costs: (0..c).map(|_| (0..f).map(|_| rng.range(0, 40)).collect()).collect(),
            }
        }

        fn brute_force(inst: &FacilityInstance) -> i64 {
            let f = inst.opening_costs.len();
            (1u32..1 << f)
                .map(|m| total_cost(inst, &(0..f).filter(|&x| m >> x & 1 == 1).collect::<Vec<_>>()))
                .min()
                .unwrap_or(0)
        }

        fn exact(inst: &FacilityInstance) -> Vec<usize> {
            branch_and_bound(inst, u64::MAX).0
        }

        fn heuristic(inst: &FacilityInstance) -> Vec<usize> {
            local_search(inst)
        }

        fn mutations(inst: &FacilityInstance, open: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut dup = open.clone();
            dup.push(open[0]);
            vec![
                (list_text(&dup), ErrorKind::Duplicate),
                (list_text(&[inst.opening_costs.len()]), ErrorKind::OutOfRange),
                ("[]".to_owned(), ErrorKind::ConstraintViolation),
                ("[0.5]".to_owned(), ErrorKind::ParseError),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<FacilityLocation>(2000, 24);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<FacilityLocation>(3);
    }
}
