//! Minimum dominating set.

use serde_json::Value;

use crate::cover::{greedy_cover, min_cover};
use crate::graph::{GraphSpec, bit, describe, sorted_json};
use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::tasks::max_clique::MAX_N;
use crate::violation::Violation;

const DOMINATION_BUDGET: u64 = 2_000_000;

/// The minimum dominating set task.
#[derive(Debug)]
pub struct DominatingSet;

/// Closed neighbourhoods N[v] as bitsets: choosing v dominates exactly these vertices.
fn closed_neighbourhoods(g: &GraphSpec) -> Vec<u128> {
    let bg = g.bitgraph();
    (0..g.n).map(|v| bg.adj[v] | bit(v)).collect()
}

impl Problem for DominatingSet {
    type Instance = GraphSpec;
    type Solution = Vec<usize>;
    const NAME: &'static str = "dominating_set";
    const SUMMARY: &'static str = "Smallest set of vertices such that every vertex is in the set or adjacent to it. \
        Exact branch and bound (set cover over closed neighbourhoods).";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "the list of chosen vertices, each at most once, e.g. `[2, 5, 9]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "10-15 vertices, p=0.25, exact" },
        LevelSpec { level: 2, description: "20-30 vertices, p=0.15, exact" },
        LevelSpec { level: 3, description: "35-50 vertices, p=0.1, exact" },
        LevelSpec { level: 4, description: "50-70 vertices, p=0.08, exact within budget, else heuristic" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (GraphSpec, Option<Vec<usize>>) {
        let (lo, hi, p) = match level {
            1 => (10, 15, 0.25),
            2 => (20, 30, 0.15),
            3 => (35, 50, 0.1),
            _ => (50, 70, 0.08),
        };
        let n = rng.range_usize(lo, hi);
        (GraphSpec::random(n, p, rng, |_, _| None), None)
    }

    fn validate(g: &GraphSpec) -> Result<(), String> {
        g.validate(MAX_N)
    }

    fn prompt(g: &GraphSpec) -> String {
        format!(
            "Minimum dominating set. {}\n\nFind a smallest set of vertices such that every vertex is either in the set or \
             joined by an edge to a vertex in the set.",
            describe(g)
        )
    }

    fn decode(g: &GraphSpec, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, g.n, "vertex")
    }

    fn objective(g: &GraphSpec, set: &Vec<usize>) -> Result<i64, Violation> {
        let nbhd = closed_neighbourhoods(g);
        let dominated = set.iter().fold(0u128, |a, &v| a | nbhd[v]);
        if let Some(v) = (0..g.n).find(|&v| dominated & bit(v) == 0) {
            return Err(Violation::missing("undominated vertex", v));
        }
        Ok(set.len() as i64)
    }

    fn canonical(_: &GraphSpec, set: &Vec<usize>) -> Value {
        sorted_json(set)
    }

    fn format(_: &GraphSpec, set: &Vec<usize>) -> String {
        list_text(set)
    }

    fn solve(g: &GraphSpec, _: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        let all = g.bitgraph().all();
        let nbhd = closed_neighbourhoods(g);
        match min_cover(all, &nbhd, DOMINATION_BUDGET) {
            Some((set, true)) => Solved { solution: set, kind: ReferenceKind::Exact, bound: None },
            Some((set, false)) => Solved { solution: set, kind: ReferenceKind::Heuristic, bound: None },
            None => Solved { solution: (0..g.n).collect(), kind: ReferenceKind::Heuristic, bound: None },
        }
    }

    fn baseline(g: &GraphSpec) -> Vec<usize> {
        // Each vertex not yet dominated, in index order, joins the set itself.
        let nbhd = closed_neighbourhoods(g);
        let mut dominated = 0u128;
        let mut set = Vec::new();
        for v in 0..g.n {
            if dominated & bit(v) == 0 {
                dominated |= nbhd[v];
                set.push(v);
            }
        }
        set
    }
}

/// Greedy dominating set for tests and benchmarks.
pub fn heuristic(g: &GraphSpec) -> Vec<usize> {
    greedy_cover(g.bitgraph().all(), &closed_neighbourhoods(g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::max_clique::tests::tiny_graph;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for DominatingSet {
        fn tiny(rng: &mut Rng) -> GraphSpec {
            tiny_graph(rng)
        }

        fn brute_force(g: &GraphSpec) -> i64 {
            (0u32..1 << g.n)
                .filter_map(|m| DominatingSet::objective(g, &(0..g.n).filter(|&v| m >> v & 1 == 1).collect()).ok())
                .min()
                .unwrap_or(i64::MAX)
        }

        fn exact(g: &GraphSpec) -> Vec<usize> {
            min_cover(g.bitgraph().all(), &closed_neighbourhoods(g), u64::MAX).map(|c| c.0).unwrap_or_default()
        }

        fn heuristic(g: &GraphSpec) -> Vec<usize> {
            heuristic(g)
        }

        fn mutations(g: &GraphSpec, set: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut dup = set.clone();
            dup.push(set[0]);
            vec![
                (list_text(&dup), ErrorKind::Duplicate),
                (list_text(&[g.n]), ErrorKind::OutOfRange),
                (list_text(&set[1..]), ErrorKind::MissingElement),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<DominatingSet>(1500, 14);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<DominatingSet>(3);
    }
}
