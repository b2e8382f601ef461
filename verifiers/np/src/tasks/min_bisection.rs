//! Balanced minimum bisection (NP-Engine's "minimum cut").

use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;
use crate::weighted::{WeightedGraph, canonical_sides, decode_sides};

const MAX_N: usize = 200;
/// Balanced subsets are enumerated up to this many vertices.
pub const EXACT_MAX: usize = 20;

/// The balanced minimum bisection task.
#[derive(Debug)]
pub struct MinBisection;

fn side_sizes(sides: &[u8]) -> (usize, usize) {
    let ones = sides.iter().filter(|&&s| s == 1).count();
    (sides.len() - ones, ones)
}

impl Problem for MinBisection {
    type Instance = WeightedGraph;
    type Solution = Vec<u8>;
    const NAME: &'static str = "min_bisection";
    const SUMMARY: &'static str = "Split the vertices into two halves (sizes differing by at most one) minimising the \
        weight of edges between them. Exact enumeration up to 20 vertices, multi-start swap search above. Reward ratio \
        (c*+1)/(c+1); the baseline (index halves, a random bisection) is normalised away.";
    const DIRECTION: Direction = Direction::MinimizeShifted;
    const ANSWER_FORMAT: &'static str = "the two halves as vertex lists, e.g. `[[0, 3, 4], [1, 2, 5]]`; a side vector \
        (0 or 1 per vertex, e.g. `[0, 1, 1, 0, 0, 1]`) is also accepted.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-10 vertices, p=0.5, exact" },
        LevelSpec { level: 2, description: "12-14 vertices, p=0.4, exact" },
        LevelSpec { level: 3, description: "16-20 vertices, p=0.3, exact" },
        LevelSpec { level: 4, description: "40-50 vertices, p=0.15, heuristic" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (WeightedGraph, Option<Vec<u8>>) {
        let (lo, hi, p) = match level {
            1 => (8, 10, 0.5),
            2 => (12, 14, 0.4),
            3 => (16, 20, 0.3),
            _ => (40, 50, 0.15),
        };
        let n = rng.range_usize(lo, hi);
        (WeightedGraph::random(n, p, 10, rng), None)
    }

    fn validate(g: &WeightedGraph) -> Result<(), String> {
        g.validate(MAX_N)
    }

    fn prompt(g: &WeightedGraph) -> String {
        format!(
            "Minimum bisection. {}\n\nSplit the vertices into two groups whose sizes differ by at most one, so that the \
             total weight of the edges between the groups is as small as possible.",
            g.describe()
        )
    }

    fn decode(g: &WeightedGraph, answer: &Node) -> Result<Vec<u8>, Violation> {
        decode_sides(answer, g.n, "vertex")
    }

    fn objective(g: &WeightedGraph, sides: &Vec<u8>) -> Result<i64, Violation> {
        let (a, b) = side_sizes(sides);
        if a.abs_diff(b) > 1 {
            return Err(Violation::constraint(
                format!("the groups have {a} and {b} vertices"),
                json!({ "sizes": [a, b] }),
            ));
        }
        Ok(g.cut(sides))
    }

    fn canonical(_: &WeightedGraph, sides: &Vec<u8>) -> Value {
        json!(canonical_sides(sides))
    }

    fn format(_: &WeightedGraph, sides: &Vec<u8>) -> String {
        let group = |s: u8| (0..sides.len()).filter(|&v| sides[v] == s).collect::<Vec<usize>>();
        format!("[{}, {}]", list_text(&group(0)), list_text(&group(1)))
    }

    fn solve(g: &WeightedGraph, _: Option<&Vec<u8>>) -> Solved<Vec<u8>> {
        if g.n <= EXACT_MAX {
            Solved { solution: enumerate(g), kind: ReferenceKind::Exact, bound: None }
        } else {
            Solved { solution: swap_search(g, 32), kind: ReferenceKind::Heuristic, bound: None }
        }
    }

    fn baseline(g: &WeightedGraph) -> Vec<u8> {
        (0..g.n).map(|v| u8::from(v >= g.n / 2)).collect()
    }
}

/// Exact: every balanced split with vertex 0 on side 0, cut computed from a weight matrix.
pub fn enumerate(g: &WeightedGraph) -> Vec<u8> {
    let n = g.n;
    let mut w = vec![vec![0i64; n]; n];
    for &(u, v, x) in &g.edges {
        w[u][v] = x;
        w[v][u] = x;
    }
    let rest = n - 1;
    // Side 1 gets floor(n/2) or ceil(n/2) of the other vertices; both are balanced.
    let sizes = [n / 2, n.div_ceil(2)];
    let mut best: Option<(i64, u32)> = None;
    for mask in 0u32..(1u32 << rest) {
        let ones = mask.count_ones() as usize;
        if !sizes.contains(&ones) {
            continue;
        }
        let on_one = |v: usize| v > 0 && mask >> (v - 1) & 1 == 1;
        let mut cut = 0;
        for u in 0..n {
            if on_one(u) {
                continue;
            }
            for v in 0..n {
                if on_one(v) {
                    cut += w[u][v];
                }
            }
        }
        if best.is_none_or(|(c, _)| cut < c) {
            best = Some((cut, mask));
        }
    }
    let mask = best.map_or(0, |(_, m)| m);
    (0..n).map(|v| u8::from(v > 0 && mask >> (v - 1) & 1 == 1)).collect()
}

/// Multi-start pairwise swap descent from random balanced splits (fixed seed).
pub fn swap_search(g: &WeightedGraph, starts: usize) -> Vec<u8> {
    let n = g.n;
    let mut w = vec![vec![0i64; n]; n];
    for &(u, v, x) in &g.edges {
        w[u][v] = x;
        w[v][u] = x;
    }
    let mut rng = Rng::from_seed(0xB15);
    let mut best: Vec<u8> = (0..n).map(|v| u8::from(v >= n / 2)).collect();
    let mut best_cut = g.cut(&best);
    for _ in 0..starts {
        let perm = rng.permutation(n);
        let mut sides = vec![0u8; n];
        for &v in &perm[..n / 2] {
            sides[v] = 1;
        }
        // gain(v): weight to the other side minus weight to its own side.
        loop {
            let d: Vec<i64> =
                (0..n).map(|v| (0..n).map(|u| if sides[u] != sides[v] { w[v][u] } else { -w[v][u] }).sum()).collect();
            let mut best_move: Option<(i64, usize, usize)> = None;
            for a in 0..n {
                for b in a + 1..n {
                    if sides[a] == sides[b] {
                        continue;
                    }
                    let gain = d[a] + d[b] - 2 * w[a][b];
                    if gain > 0 && best_move.is_none_or(|(g0, _, _)| gain > g0) {
                        best_move = Some((gain, a, b));
                    }
                }
            }
            let Some((_, a, b)) = best_move else { break };
            sides[a] ^= 1;
            sides[b] ^= 1;
        }
        let cut = g.cut(&sides);
        if cut < best_cut {
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

    impl Testable for MinBisection {
        fn tiny(rng: &mut Rng) -> WeightedGraph {
            let n = rng.range_usize(2, 11);
            let p = rng.unit();
            WeightedGraph::random(n, p, 9, rng)
        }

        fn brute_force(g: &WeightedGraph) -> i64 {
            (0u32..1 << g.n)
                .filter_map(|m| {
                    MinBisection::objective(g, &(0..g.n).map(|v| (m >> v & 1) as u8).collect::<Vec<u8>>()).ok()
                })
                .min()
                .unwrap_or(0)
        }

        fn exact(g: &WeightedGraph) -> Vec<u8> {
            enumerate(g)
        }

        fn heuristic(g: &WeightedGraph) -> Vec<u8> {
            swap_search(g, 4)
        }

        fn mutations(g: &WeightedGraph, sides: &Vec<u8>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut lopsided = vec![0u8; g.n];
            lopsided[0] = 1;
            vec![
                (list_text(&lopsided), ErrorKind::ConstraintViolation),
                (list_text(&sides[1..]), ErrorKind::WrongLength),
                ("[[0, 1], [1]]".to_owned(), ErrorKind::Duplicate),
                (format!("[[0], [{}]]", g.n), ErrorKind::OutOfRange),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<MinBisection>(1500, 10);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<MinBisection>(3);
    }
}
