//! Edge-weighted graphs and the two-sided answers of the cut tasks.

use serde::{Deserialize, Serialize};

use crate::parse::{Node, index};
use crate::rng::Rng;
use crate::violation::Violation;

/// An undirected graph with integer edge weights.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeightedGraph {
    /// Number of vertices, labelled `0..n`.
    pub n: usize,
    /// Edges `[u, v, weight]` with `u < v`, each once, weight positive.
    pub edges: Vec<(usize, usize, i64)>,
}

impl WeightedGraph {
    /// G(n, p) with weights uniform in `1..=max_weight`.
    pub fn random(n: usize, p: f64, max_weight: i64, rng: &mut Rng) -> WeightedGraph {
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                if rng.chance(p) {
                    edges.push((u, v, rng.range(1, max_weight)));
                }
            }
        }
        WeightedGraph { n, edges }
    }

    /// Checks sizes, endpoints, repeats and weights.
    pub fn validate(&self, max_n: usize) -> Result<(), String> {
        if self.n < 2 || self.n > max_n {
            return Err(format!("n must be within 2..={max_n}"));
        }
        let mut seen = std::collections::HashSet::new();
        for &(u, v, w) in &self.edges {
            if u >= self.n || v >= self.n || u == v || !(0..=1_000_000).contains(&w) {
                return Err(format!("edge [{u}, {v}, {w}] is not between distinct vertices with weight in 0..=1e6"));
            }
            if !seen.insert((u.min(v), u.max(v))) {
                return Err(format!("edge [{u}, {v}] is listed twice"));
            }
        }
        Ok(())
    }

    /// Weight of the edges whose endpoints are on different sides.
    pub fn cut(&self, sides: &[u8]) -> i64 {
        self.edges.iter().filter(|&&(u, v, _)| sides[u] != sides[v]).map(|e| e.2).sum()
    }

    /// Adjacency lists `(neighbour, weight)`.
    pub fn adjacency(&self) -> Vec<Vec<(usize, i64)>> {
        let mut adj = vec![Vec::new(); self.n];
        for &(u, v, w) in &self.edges {
            adj[u].push((v, w));
            adj[v].push((u, w));
        }
        adj
    }

    /// Prompt text.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self.edges.iter().map(|(u, v, w)| format!("{u}-{v} (weight {w})")).collect();
        format!(
            "The graph has {} vertices labelled 0 to {} and {} weighted edges:\n{}",
            self.n,
            self.n - 1,
            self.edges.len(),
            parts.join(", ")
        )
    }
}

/// A side (0 or 1) per vertex, from a side vector `[0, 1, 1, 0]` (or a map) or two vertex lists
/// `[[0, 3], [1, 2]]` that together hold every vertex exactly once.
pub fn decode_sides(answer: &Node, n: usize, what: &str) -> Result<Vec<u8>, Violation> {
    if answer.is_nested() {
        let groups = answer.nested()?;
        if groups.len() != 2 {
            return Err(Violation::wrong_length("groups", 2, groups.len()));
        }
        let mut sides = vec![u8::MAX; n];
        for (side, group) in groups.iter().enumerate() {
            for &v in group {
                let i = index(v, n, what)?;
                if sides[i] != u8::MAX {
                    return Err(Violation::duplicate(what, i));
                }
                sides[i] = side as u8;
            }
        }
        if let Some(missing) = sides.iter().position(|&s| s == u8::MAX) {
            return Err(Violation::missing(what, missing));
        }
        return Ok(sides);
    }
    answer
        .per_index(n, what)?
        .into_iter()
        .map(|s| match s {
            0 | 1 => Ok(s as u8),
            other => Err(Violation::out_of_range("side", other, 2)),
        })
        .collect()
}

/// Sides with vertex 0 on side 0 (which side is which does not matter).
pub fn canonical_sides(sides: &[u8]) -> Vec<u8> {
    let flip = sides.first().copied().unwrap_or(0);
    sides.iter().map(|&s| s ^ flip).collect()
}
