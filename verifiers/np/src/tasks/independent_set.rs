//! Maximum independent set and minimum vertex cover (its complement).

use serde_json::{Value, json};

use crate::graph::{Bitgraph, GraphSpec, bad_pair, bit, describe, multistart_clique, sorted_json};
use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::tasks::max_clique::{CLIQUE_BUDGET, MAX_N, planted_graph};
use crate::violation::Violation;

/// The maximum independent set task.
#[derive(Debug)]
pub struct MaxIndependentSet;

/// The minimum vertex cover task.
#[derive(Debug)]
pub struct MinVertexCover;

const LEVELS: &[LevelSpec] = &[
    LevelSpec { level: 1, description: "12-16 vertices, p=0.3, exact" },
    LevelSpec { level: 2, description: "20-30 vertices, p=0.25, exact" },
    LevelSpec { level: 3, description: "40-60 vertices, p=0.2, exact" },
    LevelSpec {
        level: 4,
        description: "80-100 vertices, p=0.15, exact when the search finishes in budget, else heuristic with a clique-cover bound",
    },
];

fn generate_graph(level: u8, rng: &mut Rng) -> (GraphSpec, Vec<usize>) {
    let (lo, hi, p) = match level {
        1 => (12, 16, 0.3),
        2 => (20, 30, 0.25),
        3 => (40, 60, 0.2),
        _ => (80, 100, 0.15),
    };
    let n = rng.range_usize(lo, hi);
    // A planted independent set a little above the typical one keeps the optimum non-trivial.
    let k = n / 3;
    planted_graph(n, p, k, rng, false)
}

/// Maximum independent set: maximum clique of the complement. Returns the set, whether it is
/// proven, and an upper bound.
pub fn max_independent_set(g: &GraphSpec, budget: u64) -> (Vec<usize>, bool, usize) {
    g.bitgraph().complement().max_clique(budget)
}

/// Greedy independent set: repeatedly take a vertex of minimum remaining degree.
pub fn greedy_independent_set(bg: &Bitgraph) -> Vec<usize> {
    let mut c = bg.complement().greedy_clique();
    c.sort_unstable();
    c
}

fn complement_of(n: usize, set: &[usize]) -> Vec<usize> {
    let mut inside = vec![false; n];
    for &v in set {
        inside[v] = true;
    }
    (0..n).filter(|&v| !inside[v]).collect()
}

impl Problem for MaxIndependentSet {
    type Instance = GraphSpec;
    type Solution = Vec<usize>;
    const NAME: &'static str = "max_independent_set";
    const SUMMARY: &'static str = "Largest set of pairwise non-adjacent vertices; repeated vertices are rejected, not \
        counted. Exact branch and bound on the complement graph.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the list of vertices in the independent set, each once, e.g. `[1, 3, 8]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = LEVELS;

    fn generate(level: u8, rng: &mut Rng) -> (GraphSpec, Option<Vec<usize>>) {
        let (g, planted) = generate_graph(level, rng);
        (g, Some(planted))
    }

    fn validate(g: &GraphSpec) -> Result<(), String> {
        g.validate(MAX_N)
    }

    fn prompt(g: &GraphSpec) -> String {
        format!(
            "Maximum independent set. {}\n\nFind a largest set of vertices no two of which are joined by an edge.",
            describe(g)
        )
    }

    fn decode(g: &GraphSpec, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, g.n, "vertex")
    }

    fn objective(g: &GraphSpec, set: &Vec<usize>) -> Result<i64, Violation> {
        if let Some(edge) = bad_pair(&g.bitgraph(), set, false) {
            return Err(Violation::constraint(
                format!("vertices {} and {} are adjacent", edge[0], edge[1]),
                json!({ "edge": edge }),
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
        let (set, finished, bound) = max_independent_set(g, CLIQUE_BUDGET);
        let (kind, bound) =
            if finished { (ReferenceKind::Exact, None) } else { (ReferenceKind::Heuristic, Some(bound as i64)) };
        Solved { solution: set, kind, bound }
    }

    fn baseline(g: &GraphSpec) -> Vec<usize> {
        greedy_independent_set(&g.bitgraph())
    }
}

impl Problem for MinVertexCover {
    type Instance = GraphSpec;
    type Solution = Vec<usize>;
    const NAME: &'static str = "min_vertex_cover";
    const SUMMARY: &'static str = "Smallest set of vertices touching every edge. Exact via the complement of a maximum \
        independent set; maximal-matching baseline (a 2-approximation) and matching lower bound.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "the list of vertices in the cover, each once, e.g. `[0, 2, 5]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = LEVELS;

    fn generate(level: u8, rng: &mut Rng) -> (GraphSpec, Option<Vec<usize>>) {
        let (g, planted) = generate_graph(level, rng);
        let cover = complement_of(g.n, &planted);
        (g, Some(cover))
    }

    fn validate(g: &GraphSpec) -> Result<(), String> {
        g.validate(MAX_N)
    }

    fn prompt(g: &GraphSpec) -> String {
        format!(
            "Minimum vertex cover. {}\n\nFind a smallest set of vertices such that every edge has at least one endpoint in \
             the set.",
            describe(g)
        )
    }

    fn decode(g: &GraphSpec, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, g.n, "vertex")
    }

    fn objective(g: &GraphSpec, cover: &Vec<usize>) -> Result<i64, Violation> {
        let mut inside: u128 = 0;
        for &v in cover {
            inside |= bit(v);
        }
        if let Some(&[u, v]) = g.edges.iter().find(|[u, v]| inside & (bit(*u) | bit(*v)) == 0) {
            return Err(Violation::constraint(format!("edge {u}-{v} is not covered"), json!({ "edge": [u, v] })));
        }
        Ok(cover.len() as i64)
    }

    fn canonical(_: &GraphSpec, cover: &Vec<usize>) -> Value {
        sorted_json(cover)
    }

    fn format(_: &GraphSpec, cover: &Vec<usize>) -> String {
        list_text(cover)
    }

    fn solve(g: &GraphSpec, _: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        let (set, finished, _) = max_independent_set(g, CLIQUE_BUDGET);
        let matching = maximal_matching(g).len() as i64;
        let kind = if finished { ReferenceKind::Exact } else { ReferenceKind::Heuristic };
        Solved { solution: complement_of(g.n, &set), kind, bound: Some(matching) }
    }

    fn baseline(g: &GraphSpec) -> Vec<usize> {
        let mut cover: Vec<usize> = maximal_matching(g).into_iter().flatten().collect();
        cover.sort_unstable();
        cover
    }
}

/// A greedy maximal matching in edge-list order. Its size is a lower bound on any vertex
/// cover (each matched edge needs its own cover vertex); its endpoints form a cover.
pub fn maximal_matching(g: &GraphSpec) -> Vec<[usize; 2]> {
    let mut used = vec![false; g.n];
    let mut matching = Vec::new();
    for &[u, v] in &g.edges {
        if !used[u] && !used[v] {
            used[u] = true;
            used[v] = true;
            matching.push([u, v]);
        }
    }
    matching
}

/// Heuristic independent set for tests and benchmarks: multistart greedy on the complement.
pub fn heuristic_independent_set(g: &GraphSpec) -> Vec<usize> {
    multistart_clique(&g.bitgraph().complement(), 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::tests::brute_clique;
    use crate::tasks::max_clique::tests::tiny_graph;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for MaxIndependentSet {
        fn tiny(rng: &mut Rng) -> GraphSpec {
            tiny_graph(rng)
        }

        fn brute_force(g: &GraphSpec) -> i64 {
            brute_clique(&g.bitgraph().complement()) as i64
        }

        fn exact(g: &GraphSpec) -> Vec<usize> {
            max_independent_set(g, u64::MAX).0
        }

        fn heuristic(g: &GraphSpec) -> Vec<usize> {
            heuristic_independent_set(g)
        }

        fn mutations(g: &GraphSpec, set: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            // NP-Engine accepted `[2,2,2,2,2]` as an independent set of size 5.
            let mut out =
                vec![(list_text(&[set[0]; 5]), ErrorKind::Duplicate), (list_text(&[g.n + 3]), ErrorKind::OutOfRange)];
            if let Some(&[u, v]) = g.edges.first() {
                out.push((list_text(&[u, v]), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    impl Testable for MinVertexCover {
        fn tiny(rng: &mut Rng) -> GraphSpec {
            tiny_graph(rng)
        }

        fn brute_force(g: &GraphSpec) -> i64 {
            g.n as i64 - brute_clique(&g.bitgraph().complement()) as i64
        }

        fn exact(g: &GraphSpec) -> Vec<usize> {
            complement_of(g.n, &max_independent_set(g, u64::MAX).0)
        }

        fn heuristic(g: &GraphSpec) -> Vec<usize> {
            complement_of(g.n, &heuristic_independent_set(g))
        }

        fn mutations(g: &GraphSpec, cover: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut out = vec![(list_text(&[g.n]), ErrorKind::OutOfRange)];
            if let Some(&first) = cover.first() {
                let mut dup = cover.clone();
                dup.push(first);
                out.push((list_text(&dup), ErrorKind::Duplicate));
                // Removing a vertex with an incident edge uncovers it (every cover vertex of a
                // minimum cover has one).
                out.push((list_text(&cover[1..]), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<MaxIndependentSet>(1500, 6);
        check_tiny::<MinVertexCover>(1500, 7);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<MaxIndependentSet>(3);
        check_generated::<MinVertexCover>(3);
    }

    #[test]
    fn duplicate_exploit_is_rejected() {
        let g = GraphSpec { n: 5, edges: vec![[0, 1], [1, 2]] };
        let checked = crate::task::check::<MaxIndependentSet>(&g, "Answer: [2,2,2,2,2]", true);
        assert_eq!(checked.result.err().map(|e| e.kind), Some(ErrorKind::Duplicate));
    }
}
