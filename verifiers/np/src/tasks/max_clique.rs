//! Maximum clique, and the independent set and vertex cover tasks built on the same search.

use serde_json::{Value, json};

use crate::graph::{GraphSpec, bad_pair, describe, multistart_clique, sorted_json};
use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

/// Largest accepted graph for the vertex-set tasks.
pub(crate) const MAX_N: usize = 128;
/// Search nodes the exact clique search may visit before the reference falls back to heuristic.
pub(crate) const CLIQUE_BUDGET: u64 = 2_000_000;

/// The maximum clique task.
#[derive(Debug)]
pub struct MaxClique;

/// G(n, p) with a clique planted on `k` random vertices.
pub(crate) fn planted_graph(n: usize, p: f64, k: usize, rng: &mut Rng, edge_inside: bool) -> (GraphSpec, Vec<usize>) {
    let order = rng.permutation(n);
    let mut inside = vec![false; n];
    for &v in &order[..k.min(n)] {
        inside[v] = true;
    }
    let g = GraphSpec::random(n, p, rng, |u, v| (inside[u] && inside[v]).then_some(edge_inside));
    let mut planted: Vec<usize> = order[..k.min(n)].to_vec();
    planted.sort_unstable();
    (g, planted)
}

impl Problem for MaxClique {
    type Instance = GraphSpec;
    type Solution = Vec<usize>;
    const NAME: &'static str = "max_clique";
    const SUMMARY: &'static str = "Largest set of pairwise adjacent vertices. Exact bitset branch and bound (greedy \
        colouring bound) reference.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the list of vertices in the clique, each once, e.g. `[0, 4, 7]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-12 vertices, p=0.5, planted clique 3-4, exact" },
        LevelSpec { level: 2, description: "15-25 vertices, p=0.5, planted clique 5-6, exact" },
        LevelSpec { level: 3, description: "30-50 vertices, p=0.5, planted clique 7-9, exact" },
        LevelSpec { level: 4, description: "80-120 vertices, p=0.5, planted clique 10-14, exact" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (GraphSpec, Option<Vec<usize>>) {
        let (lo, hi, klo, khi) = match level {
            1 => (8, 12, 3, 4),
            2 => (15, 25, 5, 6),
            3 => (30, 50, 7, 9),
            _ => (80, 120, 10, 14),
        };
        let n = rng.range_usize(lo, hi);
        let k = rng.range_usize(klo, khi);
        let (g, planted) = planted_graph(n, 0.5, k, rng, true);
        (g, Some(planted))
    }

    fn validate(g: &GraphSpec) -> Result<(), String> {
        g.validate(MAX_N)
    }

    fn prompt(g: &GraphSpec) -> String {
        format!(
            "Maximum clique. {}\n\nFind a largest set of vertices in which every two vertices are joined by an edge.",
            describe(g)
        )
    }

    fn decode(g: &GraphSpec, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, g.n, "vertex")
    }

    fn objective(g: &GraphSpec, set: &Vec<usize>) -> Result<i64, Violation> {
        if let Some(pair) = bad_pair(&g.bitgraph(), set, true) {
            return Err(Violation::constraint(
                format!("vertices {} and {} are not adjacent", pair[0], pair[1]),
                json!({ "non_edge": pair }),
            ));
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
        let (clique, finished, bound) = g.bitgraph().max_clique(CLIQUE_BUDGET);
        if finished {
            Solved { solution: clique, kind: ReferenceKind::Exact, bound: None }
        } else {
            Solved { solution: clique, kind: ReferenceKind::Heuristic, bound: Some(bound as i64) }
        }
    }

    fn baseline(g: &GraphSpec) -> Vec<usize> {
        let mut c = g.bitgraph().greedy_clique();
        c.sort_unstable();
        c
    }
}

/// Heuristic clique for tests and benchmarks.
pub fn heuristic_clique(g: &GraphSpec) -> Vec<usize> {
    multistart_clique(&g.bitgraph(), 64)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::graph::tests::brute_clique;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    pub(crate) fn tiny_graph(rng: &mut Rng) -> GraphSpec {
        let n = rng.range_usize(1, 11);
        let p = rng.unit();
        GraphSpec::random(n, p, rng, |_, _| None)
    }

    impl Testable for MaxClique {
        fn tiny(rng: &mut Rng) -> GraphSpec {
            tiny_graph(rng)
        }

        fn brute_force(g: &GraphSpec) -> i64 {
            brute_clique(&g.bitgraph()) as i64
        }

        fn exact(g: &GraphSpec) -> Vec<usize> {
            g.bitgraph().max_clique(u64::MAX).0
        }

        fn heuristic(g: &GraphSpec) -> Vec<usize> {
            heuristic_clique(g)
        }

        fn mutations(g: &GraphSpec, set: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut out = vec![
                (list_text(&vec![set[0]; set.len() + 1]), ErrorKind::Duplicate),
                (list_text(&[g.n]), ErrorKind::OutOfRange),
            ];
            let bg = g.bitgraph();
            if let Some(outsider) =
                (0..g.n).find(|&v| !set.contains(&v) && set.iter().any(|&u| bg.adj[u] & crate::graph::bit(v) == 0))
            {
                let mut bad = set.clone();
                bad.push(outsider);
                out.push((list_text(&bad), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<MaxClique>(1500, 5);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<MaxClique>(3);
    }
}
