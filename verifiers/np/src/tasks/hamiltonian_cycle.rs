//! Hamiltonian cycle (a decision task with a planted certificate).

use serde_json::{Value, json};

use crate::graph::{Bitgraph, GraphSpec, bit, describe, members};
use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::tasks::max_clique::MAX_N;
use crate::tasks::tsp::canonical_tour;
use crate::violation::Violation;

/// Subset dynamic programming decides Hamiltonicity exactly up to this many vertices.
pub const EXACT_MAX: usize = 20;
const SEARCH_BUDGET: u64 = 2_000_000;

/// The Hamiltonian cycle task.
#[derive(Debug)]
pub struct HamiltonianCycle;

impl Problem for HamiltonianCycle {
    type Instance = GraphSpec;
    type Solution = Vec<usize>;
    const NAME: &'static str = "hamiltonian_cycle";
    const SUMMARY: &'static str = "Find a cycle through every vertex exactly once using only edges of the graph. A \
        planted cycle guarantees one exists; every Hamiltonian cycle is optimal (objective = number of vertices).";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the cycle as a list of all n vertices in order, each exactly once, e.g. \
        `[0, 4, 2, 1, 3]` (repeating the first vertex at the end is allowed); consecutive vertices, and the last and \
        first, must be joined by edges.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-12 vertices, extra-edge density 0.15, planted" },
        LevelSpec { level: 2, description: "15-20 vertices, density 0.1, planted" },
        LevelSpec { level: 3, description: "25-35 vertices, density 0.08, planted" },
        LevelSpec { level: 4, description: "40-50 vertices, density 0.06, planted" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (GraphSpec, Option<Vec<usize>>) {
        let (lo, hi, p) = match level {
            1 => (8, 12, 0.15),
            2 => (15, 20, 0.1),
            3 => (25, 35, 0.08),
            _ => (40, 50, 0.06),
        };
        let n = rng.range_usize(lo, hi);
        let cycle = rng.permutation(n);
        (planted_graph(&cycle, p, rng), Some(cycle))
    }

    fn validate(g: &GraphSpec) -> Result<(), String> {
        g.validate(MAX_N)?;
        if g.n < 3 {
            return Err("a Hamiltonian cycle needs at least 3 vertices".into());
        }
        match find_cycle(&g.bitgraph(), SEARCH_BUDGET) {
            (Some(_), _) => Ok(()),
            (None, true) => Err("the graph has no Hamiltonian cycle".into()),
            (None, false) => Err("no Hamiltonian cycle found within the search budget".into()),
        }
    }

    fn prompt(g: &GraphSpec) -> String {
        format!(
            "Hamiltonian cycle. {}\n\nFind a cycle that visits every vertex exactly once and returns to its start, \
             moving only along edges of the graph.",
            describe(g)
        )
    }

    fn decode(g: &GraphSpec, answer: &Node) -> Result<Vec<usize>, Violation> {
        let mut values = answer.ints()?;
        if values.len() == g.n + 1 && values.first() == values.last() {
            values.pop();
        }
        if values.len() != g.n {
            return Err(Violation::wrong_length("vertices", g.n, values.len()));
        }
        distinct_indices(&values, g.n, "vertex")
    }

    fn objective(g: &GraphSpec, cycle: &Vec<usize>) -> Result<i64, Violation> {
        let bg = g.bitgraph();
        for k in 0..cycle.len() {
            let (u, v) = (cycle[k], cycle[(k + 1) % cycle.len()]);
            if bg.adj[u] & bit(v) == 0 {
                return Err(Violation::constraint(format!("{u}-{v} is not an edge"), json!({ "non_edge": [u, v] })));
            }
        }
        Ok(cycle.len() as i64)
    }

    fn canonical(_: &GraphSpec, cycle: &Vec<usize>) -> Value {
        json!(canonical_tour(cycle))
    }

    fn format(_: &GraphSpec, cycle: &Vec<usize>) -> String {
        list_text(cycle)
    }

    fn solve(g: &GraphSpec, planted: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        if let Some(p) = planted
            && HamiltonianCycle::objective(g, p).is_ok()
        {
            return Solved { solution: canonical_tour(p), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        match find_cycle(&g.bitgraph(), SEARCH_BUDGET).0 {
            Some(c) => Solved { solution: canonical_tour(&c), kind: ReferenceKind::Exact, bound: None },
            None => Solved { solution: (0..g.n).collect(), kind: ReferenceKind::Heuristic, bound: None },
        }
    }

    fn baseline(g: &GraphSpec) -> Vec<usize> {
        // Every Hamiltonian cycle is optimal; the search result is the baseline.
        find_cycle(&g.bitgraph(), SEARCH_BUDGET).0.unwrap_or_else(|| (0..g.n).collect())
    }
}

/// The planted cycle's edges plus G(n, p).
fn planted_graph(cycle: &[usize], p: f64, rng: &mut Rng) -> GraphSpec {
    let n = cycle.len();
    let mut on_cycle = std::collections::HashSet::new();
    for k in 0..n {
        let (u, v) = (cycle[k], cycle[(k + 1) % n]);
        on_cycle.insert((u.min(v), u.max(v)));
    }
    GraphSpec::random(n, p, rng, |u, v| on_cycle.contains(&(u, v)).then_some(true))
}

/// A Hamiltonian cycle or `None`; the flag says whether the answer is proven (subset DP up to
/// [`EXACT_MAX`] vertices, else depth-first search that may run out of budget).
pub fn find_cycle(g: &Bitgraph, budget: u64) -> (Option<Vec<usize>>, bool) {
    if g.n <= EXACT_MAX {
        return (subset_dp(g), true);
    }
    let mut s = CycleSearch { g, path: vec![0], visited: bit(0), nodes: 0, budget };
    let found = s.go();
    (found.then_some(s.path), s.nodes <= budget)
}

/// `reach[mask]`: the vertices v such that some path from 0 through exactly `mask` ends at v.
fn subset_dp(g: &Bitgraph) -> Option<Vec<usize>> {
    let n = g.n;
    if n < 3 {
        return None;
    }
    let full = (1usize << n) - 1;
    let mut reach = vec![0u32; 1 << n];
    reach[1] = 1;
    for mask in 1..=full {
        if mask & 1 == 0 || reach[mask] == 0 {
            continue;
        }
        for v in members(u128::from(reach[mask])) {
            let mut next = g.adj[v] as u32 & !(mask as u32);
            while next != 0 {
                let u = next.trailing_zeros() as usize;
                next &= next - 1;
                reach[mask | 1 << u] |= 1 << u;
            }
        }
    }
    let end = members(u128::from(reach[full])).find(|&v| g.adj[v] & 1 != 0)?;
    let mut cycle = vec![end];
    let (mut mask, mut v) = (full, end);
    while v != 0 {
        let prev_mask = mask & !(1 << v);
        let prev = members(u128::from(reach[prev_mask]) & g.adj[v]).find(|&u| prev_mask & (1 << u) != 0)?;
        cycle.push(prev);
        mask = prev_mask;
        v = prev;
    }
    cycle.reverse();
    Some(cycle)
}

struct CycleSearch<'a> {
    g: &'a Bitgraph,
    path: Vec<usize>,
    visited: u128,
    nodes: u64,
    budget: u64,
}

impl CycleSearch<'_> {
    /// Depth-first with Warnsdorff's rule: try the neighbours with fewest unvisited neighbours first.
    fn go(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        let Some(&last) = self.path.last() else { return false };
        if self.path.len() == self.g.n {
            return self.g.adj[last] & 1 != 0;
        }
        let mut next: Vec<usize> = members(self.g.adj[last] & !self.visited).collect();
        next.sort_by_key(|&v| ((self.g.adj[v] & !self.visited).count_ones(), v));
        for v in next {
            self.path.push(v);
            self.visited |= bit(v);
            if self.go() {
                return true;
            }
            self.visited &= !bit(v);
            self.path.pop();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::max_clique::tests::tiny_graph;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    fn brute_exists(g: &GraphSpec) -> bool {
        fn go(g: &Bitgraph, path: &mut Vec<usize>, visited: u128) -> bool {
            let last = path[path.len() - 1];
            if path.len() == g.n {
                return g.adj[last] & 1 != 0;
            }
            for v in 1..g.n {
                if visited & bit(v) == 0 && g.adj[last] & bit(v) != 0 {
                    path.push(v);
                    if go(g, path, visited | bit(v)) {
                        return true;
                    }
                    path.pop();
                }
            }
            false
        }
        g.n >= 3 && go(&g.bitgraph(), &mut vec![0], 1)
    }

    impl Testable for HamiltonianCycle {
        fn tiny(rng: &mut Rng) -> GraphSpec {
            let n = rng.range_usize(3, 9);
            let cycle = rng.permutation(n);
            let p = rng.unit() * 0.5;
            planted_graph(&cycle, p, rng)
        }

        fn brute_force(g: &GraphSpec) -> i64 {
            if brute_exists(g) { g.n as i64 } else { 0 }
        }

        fn exact(g: &GraphSpec) -> Vec<usize> {
            subset_dp(&g.bitgraph()).unwrap_or_default()
        }

        fn heuristic(g: &GraphSpec) -> Vec<usize> {
            let mut s = CycleSearch { g: &g.bitgraph(), path: vec![0], visited: 1, nodes: 0, budget: u64::MAX };
            if s.go() { s.path } else { Vec::new() }
        }

        fn mutations(g: &GraphSpec, cycle: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = g.n;
            let mut dup = cycle.clone();
            dup[1] = dup[0];
            let mut out =
                vec![(list_text(&dup), ErrorKind::Duplicate), (list_text(&cycle[1..]), ErrorKind::WrongLength)];
            // Swapping two vertices usually breaks an edge; keep the mutation only when it does.
            let bg = g.bitgraph();
            for i in 0..n {
                for j in i + 1..n {
                    let mut swapped = cycle.clone();
                    swapped.swap(i, j);
                    let broken = (0..n).any(|k| bg.adj[swapped[k]] & bit(swapped[(k + 1) % n]) == 0);
                    if broken {
                        out.push((list_text(&swapped), ErrorKind::ConstraintViolation));
                        return out;
                    }
                }
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<HamiltonianCycle>(1000, 19);
        // Existence on arbitrary graphs, most of them not Hamiltonian.
        let mut rng = Rng::from_seed(20);
        for _ in 0..1500 {
            let g = tiny_graph(&mut rng);
            if g.n < 3 {
                continue;
            }
            let found = subset_dp(&g.bitgraph());
            assert_eq!(found.is_some(), brute_exists(&g));
            if let Some(c) = found {
                assert_eq!(HamiltonianCycle::objective(&g, &c).ok(), Some(g.n as i64));
            }
        }
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<HamiltonianCycle>(3);
    }
}
