//! Graph colouring with the fewest colours.

use serde_json::{Value, json};

use crate::graph::{Bitgraph, GraphSpec, bit, describe, members};
use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::tasks::max_clique::{CLIQUE_BUDGET, MAX_N};
use crate::violation::Violation;

/// Search nodes of the exact colouring search before the reference falls back to DSATUR.
const COLOUR_BUDGET: u64 = 2_000_000;

/// Colour labels are arbitrary non-negative integers below this (only their count matters).
const MAX_COLOUR_LABEL: i64 = 1_000_000;

/// The graph colouring task.
#[derive(Debug)]
pub struct GraphColoring;

/// A graph colouring instance (a plain graph).
pub type ColoringInstance = GraphSpec;

/// G(n, p) without planting, for benchmarks and comparisons.
pub fn random_graph(n: usize, p: f64, rng: &mut Rng) -> GraphSpec {
    GraphSpec::random(n, p, rng, |_, _| None)
}

fn colour_count(colours: &[usize]) -> usize {
    let mut seen: u128 = 0;
    let mut extra = std::collections::BTreeSet::new();
    for &c in colours {
        if c < 128 {
            seen |= 1 << c;
        } else {
            extra.insert(c);
        }
    }
    seen.count_ones() as usize + extra.len()
}

/// Relabels colours by order of first appearance (the canonical form).
pub fn relabel(colours: &[usize]) -> Vec<usize> {
    let mut map = std::collections::HashMap::new();
    colours
        .iter()
        .map(|&c| {
            let next = map.len();
            *map.entry(c).or_insert(next)
        })
        .collect()
}

impl Problem for GraphColoring {
    type Instance = GraphSpec;
    type Solution = Vec<usize>;
    const NAME: &'static str = "graph_coloring";
    const SUMMARY: &'static str = "Colour the vertices so adjacent vertices differ, with as few colours as possible. \
        Planted k-partite graphs with a planted k-clique make k provably optimal; exact DSATUR branch and bound otherwise.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "one colour (a non-negative integer) per vertex in vertex order, e.g. \
        `[0, 1, 0, 2]`; a map `{\"0\": 0, \"1\": 1, ...}` is also accepted. Only the number of distinct colours counts.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-12 vertices, 3 colours planted, planted optimal" },
        LevelSpec { level: 2, description: "15-22 vertices, 4-5 colours planted, planted optimal" },
        LevelSpec { level: 3, description: "25-35 vertices, 5-7 colours planted, planted optimal" },
        LevelSpec { level: 4, description: "45-70 vertices, 7-10 colours planted, planted optimal" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (GraphSpec, Option<Vec<usize>>) {
        let (lo, hi, klo, khi, p) = match level {
            1 => (8, 12, 3, 3, 0.4),
            2 => (15, 22, 4, 5, 0.45),
            3 => (25, 35, 5, 7, 0.5),
            _ => (45, 70, 7, 10, 0.5),
        };
        let n = rng.range_usize(lo, hi);
        let k = rng.range_usize(klo, khi);
        // Parts: the first k vertices of a random order get parts 0..k (one clique vertex per
        // part), the rest random parts.
        let order = rng.permutation(n);
        let mut part = vec![0usize; n];
        for (i, &v) in order.iter().enumerate() {
            part[v] = if i < k { i } else { rng.index(k) };
        }
        let clique: Vec<bool> = (0..n).map(|v| order[..k].contains(&v)).collect();
        let g = GraphSpec::random(n, p, rng, |u, v| {
            if part[u] == part[v] {
                Some(false)
            } else if clique[u] && clique[v] {
                Some(true)
            } else {
                None
            }
        });
        (g, Some(relabel(&part)))
    }

    fn validate(g: &GraphSpec) -> Result<(), String> {
        g.validate(MAX_N)
    }

    fn prompt(g: &GraphSpec) -> String {
        format!(
            "Graph colouring. {}\n\nAssign a colour to every vertex so that the two endpoints of every edge get different \
             colours, using as few distinct colours as possible.",
            describe(g)
        )
    }

    fn decode(g: &GraphSpec, answer: &Node) -> Result<Vec<usize>, Violation> {
        answer
            .per_index(g.n, "vertex")?
            .into_iter()
            .map(|c| {
                if (0..MAX_COLOUR_LABEL).contains(&c) {
                    Ok(c as usize)
                } else {
                    Err(Violation::out_of_range("colour", c, MAX_COLOUR_LABEL as usize))
                }
            })
            .collect()
    }

    fn objective(g: &GraphSpec, colours: &Vec<usize>) -> Result<i64, Violation> {
        if let Some(&[u, v]) = g.edges.iter().find(|[u, v]| colours[*u] == colours[*v]) {
            return Err(Violation::constraint(
                format!("adjacent vertices {u} and {v} share colour {}", colours[u]),
                json!({ "edge": [u, v], "colour": colours[u] }),
            ));
        }
        Ok(colour_count(colours) as i64)
    }

    fn canonical(_: &GraphSpec, colours: &Vec<usize>) -> Value {
        json!(relabel(colours))
    }

    fn format(_: &GraphSpec, colours: &Vec<usize>) -> String {
        list_text(colours)
    }

    fn solve(g: &GraphSpec, planted: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        let bg = g.bitgraph();
        let (clique, _, _) = bg.max_clique(CLIQUE_BUDGET);
        let lower = clique.len();
        if let Some(p) = planted
            && colour_count(p) <= lower
            && GraphColoring::objective(g, p).is_ok()
        {
            return Solved { solution: relabel(p), kind: ReferenceKind::PlantedOptimal, bound: Some(lower as i64) };
        }
        let (colours, finished) = exact_colouring(&bg, lower, COLOUR_BUDGET);
        let proven = finished || colour_count(&colours) == lower;
        let kind = if proven { ReferenceKind::Exact } else { ReferenceKind::Heuristic };
        Solved { solution: colours, kind, bound: Some(lower as i64) }
    }

    fn baseline(g: &GraphSpec) -> Vec<usize> {
        first_fit(&g.bitgraph())
    }
}

/// First-fit colouring in index order.
pub fn first_fit(g: &Bitgraph) -> Vec<usize> {
    let mut colours = vec![usize::MAX; g.n];
    for v in 0..g.n {
        let used: u128 = members(g.adj[v]).filter(|&u| colours[u] != usize::MAX).fold(0, |m, u| m | 1 << colours[u]);
        colours[v] = (!used).trailing_zeros() as usize;
    }
    colours
}

/// DSATUR: colour the vertex with the most distinct neighbour colours next, smallest colour.
pub fn dsatur(g: &Bitgraph) -> Vec<usize> {
    let mut colours = vec![usize::MAX; g.n];
    let mut uncoloured = g.all();
    let mut neighbour_colours = vec![0u128; g.n];
    while uncoloured != 0 {
        let Some(v) = members(uncoloured).max_by_key(|&v| {
            (neighbour_colours[v].count_ones(), (g.adj[v] & uncoloured).count_ones(), std::cmp::Reverse(v))
        }) else {
            break;
        };
        let c = (!neighbour_colours[v]).trailing_zeros() as usize;
        colours[v] = c;
        uncoloured &= !bit(v);
        for u in members(g.adj[v]) {
            neighbour_colours[u] |= 1 << c;
        }
    }
    colours
}

/// Exact colouring by DSATUR branch and bound, stopping early at `lower` colours or after
/// `budget` nodes. Returns the best colouring and whether it is proven optimal by search.
pub fn exact_colouring(g: &Bitgraph, lower: usize, budget: u64) -> (Vec<usize>, bool) {
    let best = dsatur(g);
    let best_count = colour_count(&best);
    let mut search = ColourSearch {
        g,
        colours: vec![usize::MAX; g.n],
        neighbour_colours: vec![0; g.n],
        best,
        best_count,
        lower,
        nodes: 0,
        budget,
    };
    if best_count > lower {
        search.branch(g.all(), 0);
    }
    let finished = search.nodes <= budget;
    (search.best, finished)
}

struct ColourSearch<'a> {
    g: &'a Bitgraph,
    colours: Vec<usize>,
    neighbour_colours: Vec<u128>,
    best: Vec<usize>,
    best_count: usize,
    lower: usize,
    nodes: u64,
    budget: u64,
}

impl ColourSearch<'_> {
    fn branch(&mut self, uncoloured: u128, used: usize) {
        self.nodes += 1;
        if self.nodes > self.budget || self.best_count <= self.lower {
            return;
        }
        if uncoloured == 0 {
            self.best_count = used;
            self.best.clone_from(&self.colours);
            return;
        }
        let g = self.g;
        let Some(v) = members(uncoloured).max_by_key(|&v| {
            (self.neighbour_colours[v].count_ones(), (g.adj[v] & uncoloured).count_ones(), std::cmp::Reverse(v))
        }) else {
            return;
        };
        // Colours 0..used, then one new colour if that can still beat the best.
        let limit = if used + 1 < self.best_count { used + 1 } else { used };
        for c in 0..limit {
            if self.neighbour_colours[v] & (1 << c) != 0 {
                continue;
            }
            let saved: Vec<(usize, u128)> =
                members(g.adj[v] & uncoloured).map(|u| (u, self.neighbour_colours[u])).collect();
            for &(u, _) in &saved {
                self.neighbour_colours[u] |= 1 << c;
            }
            self.colours[v] = c;
            self.branch(uncoloured & !bit(v), used.max(c + 1));
            self.colours[v] = usize::MAX;
            for (u, old) in saved {
                self.neighbour_colours[u] = old;
            }
            if self.nodes > self.budget || self.best_count <= self.lower {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::max_clique::tests::tiny_graph;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    /// Chromatic number by enumerating every partition (restricted growth strings).
    fn brute_chromatic(g: &Bitgraph) -> usize {
        fn go(g: &Bitgraph, v: usize, colours: &mut Vec<usize>, used: usize, best: &mut usize) {
            if used >= *best {
                return;
            }
            if v == g.n {
                *best = used;
                return;
            }
            for c in 0..=used {
                if members(g.adj[v]).any(|u| u < v && colours[u] == c) {
                    continue;
                }
                colours.push(c);
                go(g, v + 1, colours, used.max(c + 1), best);
                colours.pop();
            }
        }
        let mut best = g.n + 1;
        go(g, 0, &mut Vec::new(), 0, &mut best);
        best.min(g.n)
    }

    impl Testable for GraphColoring {
        fn tiny(rng: &mut Rng) -> GraphSpec {
            tiny_graph(rng)
        }

        fn brute_force(g: &GraphSpec) -> i64 {
            brute_chromatic(&g.bitgraph()) as i64
        }

        fn exact(g: &GraphSpec) -> Vec<usize> {
            exact_colouring(&g.bitgraph(), 1, u64::MAX).0
        }

        fn heuristic(g: &GraphSpec) -> Vec<usize> {
            dsatur(&g.bitgraph())
        }

        fn mutations(g: &GraphSpec, colours: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut out = vec![
                (list_text(&colours[1..]), ErrorKind::WrongLength),
                (format!("{{\"0\": {}}}", colours[0]), ErrorKind::MissingElement),
            ];
            let mut negative: Vec<i64> = colours.iter().map(|&c| c as i64).collect();
            negative[0] = -1;
            out.push((list_text(&negative), ErrorKind::OutOfRange));
            if let Some(&[u, v]) = g.edges.first() {
                let mut clash = colours.clone();
                clash[u] = clash[v];
                out.push((list_text(&clash), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<GraphColoring>(1500, 8);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<GraphColoring>(3);
    }

    #[test]
    fn maps_and_relabelled_colours_are_equivalent() {
        let g = GraphSpec { n: 3, edges: vec![[0, 1], [1, 2]] };
        let a = crate::task::check::<GraphColoring>(&g, "Answer: {\"0\": 5, \"1\": 2, \"2\": 5}", true);
        let (colours, k) = a.result.unwrap_or_default();
        assert_eq!(k, 2);
        assert_eq!(GraphColoring::canonical(&g, &colours), json!([0, 1, 0]));
    }
}
