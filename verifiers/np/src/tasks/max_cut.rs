//! Weighted maximum cut.

use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;
use crate::weighted::{WeightedGraph, canonical_sides, decode_sides};

const MAX_N: usize = 200;
/// Gray-code enumeration is used up to this many vertices.
pub const EXACT_MAX: usize = 24;

/// The maximum cut task.
#[derive(Debug)]
pub struct MaxCut;

impl Problem for MaxCut {
    type Instance = WeightedGraph;
    type Solution = Vec<u8>;
    const NAME: &'static str = "max_cut";
    const SUMMARY: &'static str = "Split the vertices into two sides maximising the total weight of edges between \
        the sides. Exact Gray-code enumeration up to 24 vertices, multi-start local search above; the baseline \
        (index parity, a random cut) gets about half the weight, which the quality reward normalises away.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "one side (0 or 1) per vertex in vertex order, e.g. `[0, 1, 1, 0]`; two vertex \
        lists such as `[[0, 3], [1, 2]]` are also accepted.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-10 vertices, p=0.5, weights 1-10, exact" },
        LevelSpec { level: 2, description: "12-16 vertices, p=0.4, weights 1-10, exact" },
        LevelSpec { level: 3, description: "18-22 vertices, p=0.3, weights 1-10, exact" },
        LevelSpec { level: 4, description: "40-60 vertices, p=0.15, weights 1-10, heuristic (bound: total weight)" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (WeightedGraph, Option<Vec<u8>>) {
        let (lo, hi, p) = match level {
            1 => (8, 10, 0.5),
            2 => (12, 16, 0.4),
            3 => (18, 22, 0.3),
            _ => (40, 60, 0.15),
        };
        let n = rng.range_usize(lo, hi);
        (WeightedGraph::random(n, p, 10, rng), None)
    }

    fn validate(g: &WeightedGraph) -> Result<(), String> {
        g.validate(MAX_N)
    }

    fn prompt(g: &WeightedGraph) -> String {
        format!(
            "Maximum cut. {}\n\nSplit the vertices into two sides so that the total weight of the edges with one endpoint \
             on each side is as large as possible.",
            g.describe()
        )
    }

    fn decode(g: &WeightedGraph, answer: &Node) -> Result<Vec<u8>, Violation> {
        decode_sides(answer, g.n, "vertex")
    }

    fn objective(g: &WeightedGraph, sides: &Vec<u8>) -> Result<i64, Violation> {
        Ok(g.cut(sides))
    }

    fn canonical(_: &WeightedGraph, sides: &Vec<u8>) -> Value {
        json!(canonical_sides(sides))
    }

    fn format(_: &WeightedGraph, sides: &Vec<u8>) -> String {
        list_text(sides)
    }

    fn solve(g: &WeightedGraph, _: Option<&Vec<u8>>) -> Solved<Vec<u8>> {
        if g.n <= EXACT_MAX {
            Solved { solution: gray_code(g), kind: ReferenceKind::Exact, bound: None }
        } else {
            let total = g.edges.iter().map(|e| e.2).sum();
            Solved { solution: local_search(g, 64), kind: ReferenceKind::Heuristic, bound: Some(total) }
        }
    }

    fn baseline(g: &WeightedGraph) -> Vec<u8> {
        (0..g.n).map(|v| (v % 2) as u8).collect()
    }
}

/// Exact maximum cut: vertex `n-1` stays on side 0 and the other vertices run through a Gray
/// code, so each step flips one vertex and updates the cut in O(degree).
pub fn gray_code(g: &WeightedGraph) -> Vec<u8> {
    let n = g.n;
    let adj = g.adjacency();
    let mut sides = vec![0u8; n];
    let mut best = sides.clone();
    let (mut cut, mut best_cut) = (0i64, 0i64);
    let free = n.saturating_sub(1);
    for step in 1u64..(1u64 << free) {
        let v = step.trailing_zeros() as usize;
        for &(u, w) in &adj[v] {
            cut += if sides[u] == sides[v] { w } else { -w };
        }
        sides[v] ^= 1;
        if cut > best_cut {
            best_cut = cut;
            best.clone_from(&sides);
        }
    }
    best
}

/// Multi-start 1-flip local search from random sides (fixed seed, deterministic).
pub fn local_search(g: &WeightedGraph, starts: usize) -> Vec<u8> {
    let adj = g.adjacency();
    let mut rng = Rng::from_seed(0xC07);
    let mut best: Vec<u8> = (0..g.n).map(|v| (v % 2) as u8).collect();
    let mut best_cut = g.cut(&best);
    for _ in 0..starts {
        let mut sides: Vec<u8> = (0..g.n).map(|_| rng.below(2) as u8).collect();
        loop {
            let mut improved = false;
            for v in 0..g.n {
                let gain: i64 = adj[v].iter().map(|&(u, w)| if sides[u] == sides[v] { w } else { -w }).sum();
                if gain > 0 {
                    sides[v] ^= 1;
                    improved = true;
                }
            }
            if !improved {
                break;
            }
        }
        let cut = g.cut(&sides);
        if cut > best_cut {
            best_cut = cut;
            best = sides;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for MaxCut {
        fn tiny(rng: &mut Rng) -> WeightedGraph {
            let n = rng.range_usize(2, 11);
            let p = rng.unit();
            WeightedGraph::random(n, p, 9, rng)
        }

        fn brute_force(g: &WeightedGraph) -> i64 {
            (0u32..1 << g.n)
                .map(|m| g.cut(&(0..g.n).map(|v| (m >> v & 1) as u8).collect::<Vec<u8>>()))
                .max()
                .unwrap_or(0)
        }

        fn exact(g: &WeightedGraph) -> Vec<u8> {
            gray_code(g)
        }

        fn heuristic(g: &WeightedGraph) -> Vec<u8> {
            local_search(g, 8)
        }

        fn mutations(g: &WeightedGraph, sides: &Vec<u8>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut three = sides.clone();
            three[0] = 3;
            vec![
                (list_text(&three), ErrorKind::OutOfRange),
                (list_text(&sides[1..]), ErrorKind::WrongLength),
                (
                    format!("[[0], [0, {}]]", list_text(&(1..g.n).collect::<Vec<_>>()).trim_matches(['[', ']'])),
                    ErrorKind::Duplicate,
                ),
                ("[[0], [1]]".to_owned(), ErrorKind::MissingElement),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<MaxCut>(1500, 9);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<MaxCut>(3);
    }
}
