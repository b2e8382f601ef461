//! Maximum satisfiability and satisfiability (3-CNF formulas).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::{ErrorKind, Violation};

const MAX_VARIABLES: usize = 200;
const MAX_CLAUSES: usize = 2000;
/// Exhaustive branch and bound is used up to this many variables.
pub const EXACT_MAX: usize = 24;
const SEARCH_BUDGET: u64 = 5_000_000;

/// A CNF formula.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CnfInstance {
    /// Variables are `1..=variables`.
    pub variables: usize,
    /// Clauses as DIMACS literals: `3` is x3, `-3` is not x3.
    pub clauses: Vec<Vec<i64>>,
}

/// The maximum satisfiability task.
#[derive(Debug)]
pub struct MaxSat;

/// The satisfiability task (planted satisfiable formulas; every clause must hold).
#[derive(Debug)]
pub struct Sat;

fn satisfied(inst: &CnfInstance, assignment: &[bool]) -> usize {
    inst.clauses.iter().filter(|c| c.iter().any(|&l| assignment[l.unsigned_abs() as usize - 1] == (l > 0))).count()
}

fn validate_cnf(inst: &CnfInstance) -> Result<(), String> {
    if inst.variables == 0
        || inst.variables > MAX_VARIABLES
        || inst.clauses.is_empty()
        || inst.clauses.len() > MAX_CLAUSES
    {
        return Err(format!("1..={MAX_VARIABLES} variables and 1..={MAX_CLAUSES} clauses"));
    }
    if inst.clauses.iter().flatten().any(|&l| l == 0 || l.unsigned_abs() as usize > inst.variables) {
        return Err("literals must be non-zero with |literal| <= variables".into());
    }
    if inst.clauses.iter().any(Vec::is_empty) {
        return Err("clauses must not be empty".into());
    }
    Ok(())
}

fn describe(inst: &CnfInstance) -> String {
    let lines: Vec<String> =
        inst.clauses.iter().enumerate().map(|(i, c)| format!("clause {i}: {}", list_text(c))).collect();
    format!(
        "The formula has {} boolean variables x1..x{} and {} clauses. Each clause is a list of literals: k means xk, -k \
         means NOT xk; a clause holds when at least one of its literals is true.\n{}",
        inst.variables,
        inst.variables,
        inst.clauses.len(),
        lines.join("\n")
    )
}

const ANSWER_FORMAT: &str = "one literal per variable, each variable exactly once: k if xk is true, -k if it is \
    false, e.g. `[1, -2, 3]`; a 0/1 vector of length n (e.g. `[1, 0, 1]`) is also accepted.";

/// A truth value per variable, from a literal list or a 0/1 vector of length n.
fn decode_assignment(inst: &CnfInstance, answer: &Node) -> Result<Vec<bool>, Violation> {
    let n = inst.variables;
    let values = answer.ints()?;
    let is_vector = values.len() == n && values.iter().all(|&v| v == 0 || v == 1) && !(n == 1 && values[0] == 1);
    if is_vector {
        return Ok(values.iter().map(|&v| v == 1).collect());
    }
    let mut assignment = vec![None; n];
    for &l in &values {
        if l == 0 || l.unsigned_abs() as usize > n {
            return Err(Violation::new(ErrorKind::OutOfRange, format!("literal {l} names no variable of 1..={n}"))
                .witness(json!({ "literal": l })));
        }
        let var = l.unsigned_abs() as usize - 1;
        if assignment[var].replace(l > 0).is_some() {
            return Err(Violation::duplicate("variable", var + 1));
        }
    }
    assignment.into_iter().enumerate().map(|(i, v)| v.ok_or_else(|| Violation::missing("variable", i + 1))).collect()
}

fn literals(assignment: &[bool]) -> Vec<i64> {
    assignment.iter().enumerate().map(|(i, &v)| if v { i as i64 + 1 } else { -(i as i64 + 1) }).collect()
}

/// Random 3-CNF with `m` clauses on `n` variables (distinct variables per clause); with a
/// `planted` assignment, clauses it falsifies are redrawn, so it satisfies them all.
fn random_cnf(n: usize, m: usize, planted: Option<&[bool]>, rng: &mut Rng) -> CnfInstance {
    let mut clauses = Vec::with_capacity(m);
    while clauses.len() < m {
        let vars = rng.permutation(n);
        let clause: Vec<i64> =
            vars[..3.min(n)].iter().map(|&v| if rng.chance(0.5) { v as i64 + 1 } else { -(v as i64 + 1) }).collect();
        if planted.is_some_and(|a| !clause.iter().any(|&l| a[l.unsigned_abs() as usize - 1] == (l > 0))) {
            continue;
        }
        clauses.push(clause);
    }
    CnfInstance { variables: n, clauses }
}

/// Exact maximum satisfiability by branch and bound over variables in order: a clause is
/// decided once it has a true literal or all its variables are set; prune when satisfied +
/// undecided clauses cannot beat the best. Returns the assignment and whether it finished.
pub fn exact(inst: &CnfInstance, budget: u64) -> (Vec<bool>, bool) {
    let n = inst.variables;
    // Clause i is fully decided once variable last[i] is set.
    let last: Vec<usize> =
        inst.clauses.iter().map(|c| c.iter().map(|l| l.unsigned_abs() as usize - 1).max().unwrap_or(0)).collect();
    let mut by_last = vec![Vec::new(); n];
    for (i, &v) in last.iter().enumerate() {
        by_last[v].push(i);
    }
    let start = walksat(inst, 2000);
    let best_count = satisfied(inst, &start);
    let mut s = SatSearch { inst, by_last, assignment: vec![false; n], best: start, best_count, nodes: 0, budget };
    s.go(0, 0);
    let finished = s.nodes <= budget;
    (s.best, finished)
}

struct SatSearch<'a> {
    inst: &'a CnfInstance,
    by_last: Vec<Vec<usize>>,
    assignment: Vec<bool>,
    best: Vec<bool>,
    best_count: usize,
    nodes: u64,
    budget: u64,
}

impl SatSearch<'_> {
    /// `lost`: clauses already decided false.
    fn go(&mut self, var: usize, lost: usize) {
        self.nodes += 1;
        if self.nodes > self.budget || self.inst.clauses.len() - lost <= self.best_count {
            return;
        }
        if var == self.inst.variables {
            self.best_count = self.inst.clauses.len() - lost;
            self.best.clone_from(&self.assignment);
            return;
        }
        for value in [true, false] {
            self.assignment[var] = value;
            let newly_lost = self.by_last[var]
                .iter()
                .filter(|&&c| {
                    !self.inst.clauses[c].iter().any(|&l| self.assignment[l.unsigned_abs() as usize - 1] == (l > 0))
                })
                .count();
            self.go(var + 1, lost + newly_lost);
        }
        self.assignment[var] = false;
    }
}

/// WalkSAT from all-true (fixed seed, `flips` steps): pick a random unsatisfied clause and
/// flip its variable that breaks the fewest satisfied clauses, or a random one of its variables
/// with probability 0.4. True-literal counts per clause are kept incrementally, so a flip costs
/// O(occurrences). Returns the best assignment seen.
pub fn walksat(inst: &CnfInstance, flips: usize) -> Vec<bool> {
    let n = inst.variables;
    let mut occurs: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
    for (c, clause) in inst.clauses.iter().enumerate() {
        for &l in clause {
            occurs[l.unsigned_abs() as usize - 1].push((c, l > 0));
        }
    }
    let mut rng = Rng::from_seed(0x5A7);
    let mut a = vec![true; n];
    let mut true_count: Vec<u32> = inst
        .clauses
        .iter()
        .map(|c| c.iter().filter(|&&l| a[l.unsigned_abs() as usize - 1] == (l > 0)).count() as u32)
        .collect();
    // Unsatisfied clauses with their positions, for O(1) add, remove and random pick.
    let mut unsat: Vec<usize> = (0..inst.clauses.len()).filter(|&c| true_count[c] == 0).collect();
    let mut slot = vec![usize::MAX; inst.clauses.len()];
    for (k, &c) in unsat.iter().enumerate() {
        slot[c] = k;
    }
    let mut best = a.clone();
    let mut best_unsat = unsat.len();
    for _ in 0..flips {
        if unsat.is_empty() {
            return a;
        }
        let clause = &inst.clauses[unsat[rng.index(unsat.len())]];
        let var = if rng.chance(0.4) {
            clause[rng.index(clause.len())].unsigned_abs() as usize - 1
        } else {
            // Break count: satisfied clauses whose only true literal is this variable's.
            let breaks =
                |v: usize| occurs[v].iter().filter(|&&(c, positive)| positive == a[v] && true_count[c] == 1).count();
            let mut pick = clause[0].unsigned_abs() as usize - 1;
            let mut fewest = usize::MAX;
            for &l in clause {
                let v = l.unsigned_abs() as usize - 1;
                let b = breaks(v);
                if b < fewest {
                    fewest = b;
                    pick = v;
                }
            }
            pick
        };
        a[var] = !a[var];
        for &(c, positive) in &occurs[var] {
            if positive == a[var] {
                true_count[c] += 1;
                if true_count[c] == 1 {
                    let k = slot[c];
                    let moved = unsat[unsat.len() - 1];
                    unsat.swap_remove(k);
                    if moved != c {
                        slot[moved] = k;
                    }
                    slot[c] = usize::MAX;
                }
            } else {
                true_count[c] -= 1;
                if true_count[c] == 0 {
                    slot[c] = unsat.len();
                    unsat.push(c);
                }
            }
        }
        if unsat.len() < best_unsat {
            best_unsat = unsat.len();
            best.clone_from(&a);
        }
    }
    best
}

impl Problem for MaxSat {
    type Instance = CnfInstance;
    type Solution = Vec<bool>;
    const NAME: &'static str = "max_sat";
    const SUMMARY: &'static str = "Assign truth values maximising the number of satisfied clauses of an over-constrained \
        random 3-CNF formula. Exact branch and bound up to 24 variables, WalkSAT above (bound: clause count).";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = ANSWER_FORMAT;
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "6-8 variables, 6 clauses per variable, exact" },
        LevelSpec { level: 2, description: "10-12 variables, 6 clauses per variable, exact" },
        LevelSpec { level: 3, description: "16-20 variables, 6 clauses per variable, exact" },
        LevelSpec { level: 4, description: "40-50 variables, 6 clauses per variable, heuristic" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (CnfInstance, Option<Vec<bool>>) {
        let (lo, hi) = match level {
            1 => (6, 8),
            2 => (10, 12),
            3 => (16, 20),
            _ => (40, 50),
        };
        let n = rng.range_usize(lo, hi);
        (random_cnf(n, 6 * n, None, rng), None)
    }

    fn validate(inst: &CnfInstance) -> Result<(), String> {
        validate_cnf(inst)
    }

    fn prompt(inst: &CnfInstance) -> String {
        format!(
            "Maximum satisfiability. {}\n\nAssign true or false to every variable so that as many clauses as possible hold.",
            describe(inst)
        )
    }

    fn decode(inst: &CnfInstance, answer: &Node) -> Result<Vec<bool>, Violation> {
        decode_assignment(inst, answer)
    }

    fn objective(inst: &CnfInstance, a: &Vec<bool>) -> Result<i64, Violation> {
        Ok(satisfied(inst, a) as i64)
    }

    fn canonical(_: &CnfInstance, a: &Vec<bool>) -> Value {
        json!(literals(a))
    }

    fn format(_: &CnfInstance, a: &Vec<bool>) -> String {
        list_text(&literals(a))
    }

    fn solve(inst: &CnfInstance, _: Option<&Vec<bool>>) -> Solved<Vec<bool>> {
        if inst.variables <= EXACT_MAX {
            let (a, finished) = exact(inst, SEARCH_BUDGET);
            if finished {
                return Solved { solution: a, kind: ReferenceKind::Exact, bound: None };
            }
        }
        Solved {
            solution: walksat(inst, 20_000),
            kind: ReferenceKind::Heuristic,
            bound: Some(inst.clauses.len() as i64),
        }
    }

    fn baseline(inst: &CnfInstance) -> Vec<bool> {
        // Signs are random, so all-true satisfies about 7/8 of the clauses, like a random assignment.
        vec![true; inst.variables]
    }
}

impl Problem for Sat {
    type Instance = CnfInstance;
    type Solution = Vec<bool>;
    const NAME: &'static str = "sat";
    const SUMMARY: &'static str = "Find an assignment satisfying every clause of a planted satisfiable 3-CNF formula \
        near the satisfiability threshold (4.2 clauses per variable). Feasible means all clauses hold.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = ANSWER_FORMAT;
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-10 variables, planted" },
        LevelSpec { level: 2, description: "15-20 variables, planted" },
        LevelSpec { level: 3, description: "30-40 variables, planted" },
        LevelSpec { level: 4, description: "60-80 variables, planted" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (CnfInstance, Option<Vec<bool>>) {
        let (lo, hi) = match level {
            1 => (8, 10),
            2 => (15, 20),
            3 => (30, 40),
            _ => (60, 80),
        };
        let n = rng.range_usize(lo, hi);
        let planted: Vec<bool> = (0..n).map(|_| rng.chance(0.5)).collect();
        let inst = random_cnf(n, n * 42 / 10, Some(&planted), rng);
        (inst, Some(planted))
    }

    fn validate(inst: &CnfInstance) -> Result<(), String> {
        validate_cnf(inst)?;
        if inst.variables <= EXACT_MAX {
            let (a, finished) = exact(inst, SEARCH_BUDGET);
            if finished && satisfied(inst, &a) < inst.clauses.len() {
                return Err("the formula is unsatisfiable".into());
            }
        }
        Ok(())
    }

    fn prompt(inst: &CnfInstance) -> String {
        format!(
            "Satisfiability. {}\n\nAssign true or false to every variable so that every clause holds.",
            describe(inst)
        )
    }

    fn decode(inst: &CnfInstance, answer: &Node) -> Result<Vec<bool>, Violation> {
        decode_assignment(inst, answer)
    }

    fn objective(inst: &CnfInstance, a: &Vec<bool>) -> Result<i64, Violation> {
        if let Some(c) =
            inst.clauses.iter().position(|c| !c.iter().any(|&l| a[l.unsigned_abs() as usize - 1] == (l > 0)))
        {
            return Err(Violation::constraint(
                format!("clause {c} is false"),
                json!({ "clause": c, "literals": inst.clauses[c] }),
            ));
        }
        Ok(inst.clauses.len() as i64)
    }

    fn canonical(_: &CnfInstance, a: &Vec<bool>) -> Value {
        json!(literals(a))
    }

    fn format(_: &CnfInstance, a: &Vec<bool>) -> String {
        list_text(&literals(a))
    }

    fn solve(inst: &CnfInstance, planted: Option<&Vec<bool>>) -> Solved<Vec<bool>> {
        if let Some(p) = planted
            && Sat::objective(inst, p).is_ok()
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        let a = if inst.variables <= EXACT_MAX { exact(inst, SEARCH_BUDGET).0 } else { walksat(inst, 50_000) };
        let kind = if Sat::objective(inst, &a).is_ok() { ReferenceKind::Exact } else { ReferenceKind::Heuristic };
        Solved { solution: a, kind, bound: None }
    }

    fn baseline(inst: &CnfInstance) -> Vec<bool> {
        // Every satisfying assignment is optimal; the local search usually finds one.
        walksat(inst, 20_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};

    fn brute(inst: &CnfInstance) -> i64 {
        let n = inst.variables;
        (0u32..1 << n)
            .map(|m| satisfied(inst, &(0..n).map(|v| m >> v & 1 == 1).collect::<Vec<_>>()) as i64)
            .max()
            .unwrap_or(0)
    }

    fn sat_mutations(inst: &CnfInstance, a: &[bool]) -> Vec<(String, ErrorKind)> {
        let lits = literals(a);
        let n = inst.variables as i64;
        let mut dup = lits.clone();
        dup[1] = -dup[0];
        vec![
            (list_text(&dup), ErrorKind::Duplicate),
            (list_text(&lits[1..]), ErrorKind::MissingElement),
            (list_text(&[lits.as_slice(), &[n + 1]].concat()), ErrorKind::OutOfRange),
            ("[0]".to_owned(), ErrorKind::OutOfRange),
        ]
    }

    impl Testable for MaxSat {
        fn tiny(rng: &mut Rng) -> CnfInstance {
            let n = rng.range_usize(3, 10);
            let m = rng.range_usize(1, 40);
            random_cnf(n, m, None, rng)
        }

        fn brute_force(inst: &CnfInstance) -> i64 {
            brute(inst)
        }

        fn exact(inst: &CnfInstance) -> Vec<bool> {
            exact(inst, u64::MAX).0
        }

        fn heuristic(inst: &CnfInstance) -> Vec<bool> {
            walksat(inst, 200)
        }

        fn mutations(inst: &CnfInstance, a: &Vec<bool>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            sat_mutations(inst, a)
        }
    }

    impl Testable for Sat {
        fn tiny(rng: &mut Rng) -> CnfInstance {
            let n = rng.range_usize(3, 10);
            let planted: Vec<bool> = (0..n).map(|_| rng.chance(0.5)).collect();
            let m = rng.range_usize(1, 40);
            random_cnf(n, m, Some(&planted), rng)
        }

        fn brute_force(inst: &CnfInstance) -> i64 {
            brute(inst)
        }

        fn exact(inst: &CnfInstance) -> Vec<bool> {
            exact(inst, u64::MAX).0
        }

        fn heuristic(inst: &CnfInstance) -> Vec<bool> {
            // WalkSAT may fail on a satisfiable formula; the exact search is the fallback.
            let a = walksat(inst, 500);
            if Sat::objective(inst, &a).is_ok() { a } else { exact(inst, u64::MAX).0 }
        }

        fn mutations(inst: &CnfInstance, a: &Vec<bool>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut out = sat_mutations(inst, a);
            // Flipping every variable of a clause's literals falsifies that clause.
            let clause = &inst.clauses[0];
            let mut flipped = a.clone();
            for &l in clause {
                flipped[l.unsigned_abs() as usize - 1] = l < 0;
            }
            out.push((list_text(&literals(&flipped)), ErrorKind::ConstraintViolation));
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<MaxSat>(1500, 17);
        check_tiny::<Sat>(500, 18);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<MaxSat>(3);
        check_generated::<Sat>(3);
    }

    #[test]
    fn vectors_and_literal_lists_agree() {
        let inst = CnfInstance { variables: 3, clauses: vec![vec![1, -2, 3], vec![-1, 2, -3]] };
        let a = crate::task::check::<MaxSat>(&inst, "Answer: [1, 0, 1]", true).result.ok();
        let b = crate::task::check::<MaxSat>(&inst, "Answer: [1, -2, 3]", true).result.ok();
        assert_eq!(a, b);
    }
}
