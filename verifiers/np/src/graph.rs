//! Shared graph machinery: simple undirected graphs on at most 128 vertices as `u128` bitsets,
//! random generation and the exact maximum-clique search used by the clique, independent set
//! and vertex cover tasks.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// Largest vertex count of the bitset graphs.
pub const MAX_VERTICES: usize = 128;

/// An unweighted graph as it appears in instances: vertex count and edge list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphSpec {
    /// Number of vertices, labelled `0..n`.
    pub n: usize,
    /// Undirected edges `[u, v]` with `u < v`, each once.
    pub edges: Vec<[usize; 2]>,
}

/// Adjacency bitsets of a graph on at most 128 vertices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bitgraph {
    /// Vertex count.
    pub n: usize,
    /// `adj[v]` has bit `u` set when `{u, v}` is an edge.
    pub adj: Vec<u128>,
}

/// Bit of vertex `v`.
pub fn bit(v: usize) -> u128 {
    1u128 << v
}

/// The vertices of a bitset, ascending.
pub fn members(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let v = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(v)
    })
}

impl GraphSpec {
    /// Checks vertex count, endpoint ranges, self-loops and repeated edges.
    pub fn validate(&self, max_n: usize) -> Result<(), String> {
        if self.n == 0 || self.n > max_n {
            return Err(format!("n must be within 1..={max_n}, not {}", self.n));
        }
        let mut seen = std::collections::HashSet::new();
        for &[u, v] in &self.edges {
            if u >= self.n || v >= self.n || u == v {
                return Err(format!("edge [{u}, {v}] is not between two distinct vertices below {}", self.n));
            }
            if !seen.insert((u.min(v), u.max(v))) {
                return Err(format!("edge [{u}, {v}] is listed twice"));
            }
        }
        Ok(())
    }

    /// The adjacency bitsets (requires `n <= 128`, which `validate` enforces for callers).
    pub fn bitgraph(&self) -> Bitgraph {
        let mut adj = vec![0u128; self.n];
        for &[u, v] in &self.edges {
            if u < self.n && v < self.n && u != v && u < MAX_VERTICES && v < MAX_VERTICES {
                adj[u] |= bit(v);
                adj[v] |= bit(u);
            }
        }
        Bitgraph { n: self.n, adj }
    }

    /// G(n, p) plus `forced` edges, minus `forbidden` pairs (a planted structure).
    pub fn random(n: usize, p: f64, rng: &mut Rng, keep: impl Fn(usize, usize) -> Option<bool>) -> GraphSpec {
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                let present = rng.chance(p);
                if keep(u, v).unwrap_or(present) {
                    edges.push([u, v]);
                }
            }
        }
        GraphSpec { n, edges }
    }

    /// Lines `u v` for prompts.
    pub fn edge_text(&self) -> String {
        let parts: Vec<String> = self.edges.iter().map(|[u, v]| format!("{u}-{v}")).collect();
        parts.join(", ")
    }
}

impl Bitgraph {
    /// The complement graph.
    pub fn complement(&self) -> Bitgraph {
        let all = if self.n == MAX_VERTICES { u128::MAX } else { bit(self.n) - 1 };
        let adj = self.adj.iter().enumerate().map(|(v, &a)| !a & all & !bit(v)).collect();
        Bitgraph { n: self.n, adj }
    }

    /// All vertices.
    pub fn all(&self) -> u128 {
        if self.n == MAX_VERTICES { u128::MAX } else { bit(self.n) - 1 }
    }

    /// Greedy clique: repeatedly add the candidate with most candidate neighbours.
    pub fn greedy_clique(&self) -> Vec<usize> {
        let mut candidates = self.all();
        let mut clique = Vec::new();
        while candidates != 0 {
            let v =
                members(candidates).max_by_key(|&v| ((self.adj[v] & candidates).count_ones(), std::cmp::Reverse(v)));
            let Some(v) = v else { break };
            clique.push(v);
            candidates &= self.adj[v];
        }
        clique
    }

    /// Maximum clique by branch and bound with a greedy-colouring bound (Tomita's MCQ).
    ///
    /// Stops after `node_budget` search nodes; the flag says whether the search finished, i.e.
    /// whether the clique is proven maximum. Also returns the colouring bound at the root, an
    /// upper bound on the clique number either way.
    pub fn max_clique(&self, node_budget: u64) -> (Vec<usize>, bool, usize) {
        let mut search =
            CliqueSearch { g: self, best: self.greedy_clique(), current: Vec::new(), nodes: 0, budget: node_budget };
        let (_, root_bounds) = colour_sort(self, self.all());
        let root_bound = root_bounds.last().copied().unwrap_or(0);
        search.expand(self.all());
        let finished = search.nodes <= search.budget;
        let mut best = search.best;
        best.sort_unstable();
        (best, finished, root_bound)
    }
}

/// Greedy colouring of `set` in index order: vertices in colour order and each one's colour.
fn colour_sort(g: &Bitgraph, set: u128) -> (Vec<usize>, Vec<usize>) {
    let mut order = Vec::with_capacity(set.count_ones() as usize);
    let mut bounds = Vec::with_capacity(order.capacity());
    let mut uncoloured = set;
    let mut colour = 0;
    while uncoloured != 0 {
        colour += 1;
        let mut q = uncoloured;
        while q != 0 {
            let v = q.trailing_zeros() as usize;
            q &= !bit(v) & !g.adj[v];
            uncoloured &= !bit(v);
            order.push(v);
            bounds.push(colour);
        }
    }
    (order, bounds)
}

struct CliqueSearch<'a> {
    g: &'a Bitgraph,
    best: Vec<usize>,
    current: Vec<usize>,
    nodes: u64,
    budget: u64,
}

impl CliqueSearch<'_> {
    fn expand(&mut self, mut candidates: u128) {
        self.nodes += 1;
        if self.nodes > self.budget {
            return;
        }
        let (order, bounds) = colour_sort(self.g, candidates);
        for i in (0..order.len()).rev() {
            if self.current.len() + bounds[i] <= self.best.len() || self.nodes > self.budget {
                return;
            }
            let v = order[i];
            self.current.push(v);
            let next = candidates & self.g.adj[v];
            if next == 0 {
                if self.current.len() > self.best.len() {
                    self.best.clone_from(&self.current);
                }
            } else {
                self.expand(next);
            }
            self.current.pop();
            candidates &= !bit(v);
        }
    }
}

/// Prompt lines describing a graph.
pub fn describe(g: &GraphSpec) -> String {
    format!(
        "The graph has {} vertices labelled 0 to {} and {} edges:\n{}",
        g.n,
        g.n.saturating_sub(1),
        g.edges.len(),
        g.edge_text()
    )
}

/// Sorted copy of a vertex list, as JSON (canonical form of a vertex set).
pub fn sorted_json(vertices: &[usize]) -> serde_json::Value {
    let mut sorted = vertices.to_vec();
    sorted.sort_unstable();
    serde_json::json!(sorted)
}

/// The first pair of `set` that is (`want_edge == false`) or is not (`want_edge == true`)
/// adjacent: the witness against an independent set or a clique.
pub fn bad_pair(g: &Bitgraph, set: &[usize], want_edge: bool) -> Option<[usize; 2]> {
    for (i, &u) in set.iter().enumerate() {
        for &v in &set[i + 1..] {
            let adjacent = g.adj[u] & bit(v) != 0;
            if adjacent != want_edge {
                return Some([u.min(v), u.max(v)]);
            }
        }
    }
    None
}

/// Randomised greedy cliques from a fixed seed, best of `starts` (deterministic).
pub fn multistart_clique(g: &Bitgraph, starts: usize) -> Vec<usize> {
    let mut best = g.greedy_clique();
    let mut rng = Rng::from_seed(0xC11C);
    for _ in 0..starts {
        let mut candidates = g.all();
        let mut clique = Vec::new();
        while candidates != 0 {
            let pool: Vec<usize> = members(candidates).collect();
            let v = pool[rng.index(pool.len())];
            clique.push(v);
            candidates &= g.adj[v];
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best.sort_unstable();
    best
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Clique number by enumerating every subset (n <= 16).
    pub(crate) fn brute_clique(g: &Bitgraph) -> usize {
        let mut best = 0;
        for mask in 0u32..(1 << g.n) {
            let set = u128::from(mask);
            if members(set).all(|v| (g.adj[v] | bit(v)) & set == set) {
                best = best.max(mask.count_ones() as usize);
            }
        }
        best
    }

    #[test]
    fn clique_search_matches_enumeration() {
        let mut rng = Rng::from_seed(11);
        for _ in 0..400 {
            let n = rng.range_usize(1, 12);
            let p = rng.unit();
            let g = GraphSpec::random(n, p, &mut rng, |_, _| None).bitgraph();
            let (clique, finished, bound) = g.max_clique(u64::MAX);
            assert!(finished);
            assert_eq!(clique.len(), brute_clique(&g));
            assert!(bound >= clique.len());
            assert!(g.greedy_clique().len() <= clique.len());
            let c = g.complement().complement();
            assert_eq!(c, g);
        }
    }
}
