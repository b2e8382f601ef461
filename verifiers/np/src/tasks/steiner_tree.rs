//! Steiner tree in graphs: connect the terminals with minimum total edge weight.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, index};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::nested_text;
use crate::violation::Violation;
use crate::weighted::WeightedGraph;

const MAX_N: usize = 100;
const MAX_TERMINALS: usize = 12;
/// Steiner-vertex subsets are enumerated when at most this many vertices are not terminals.
const ENUMERATE_MAX_FREE: usize = 16;

/// A Steiner tree instance: a connected weighted graph and the terminals to connect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SteinerInstance {
    /// Number of vertices, labelled `0..n`.
    pub n: usize,
    /// Edges `[u, v, weight]`, each once.
    pub edges: Vec<(usize, usize, i64)>,
    /// The vertices that must be connected.
    pub terminals: Vec<usize>,
}

impl SteinerInstance {
    fn graph(&self) -> WeightedGraph {
        WeightedGraph { n: self.n, edges: self.edges.clone() }
    }

    fn edge_index(&self) -> HashMap<(usize, usize), usize> {
        self.edges.iter().enumerate().map(|(i, &(u, v, _))| ((u.min(v), u.max(v)), i)).collect()
    }
}

/// The Steiner tree task.
#[derive(Debug)]
pub struct SteinerTree;

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Kruskal over the edges whose endpoints are both in `allowed`: the tree's edge indices and
/// whether it spans every allowed vertex.
fn mst(inst: &SteinerInstance, allowed: &[bool], order: &[usize]) -> (Vec<usize>, bool) {
    let mut parent: Vec<usize> = (0..inst.n).collect();
    let mut tree = Vec::new();
    for &e in order {
        let (u, v, _) = inst.edges[e];
        if allowed[u] && allowed[v] {
            let (a, b) = (find(&mut parent, u), find(&mut parent, v));
            if a != b {
                parent[a] = b;
                tree.push(e);
            }
        }
    }
    let count = allowed.iter().filter(|&&a| a).count();
    let spans = tree.len() + 1 == count;
    (tree, spans)
}

/// Repeatedly removes non-terminal leaves (they only add weight).
fn prune(inst: &SteinerInstance, tree: &mut Vec<usize>) {
    let mut is_terminal = vec![false; inst.n];
    for &t in &inst.terminals {
        is_terminal[t] = true;
    }
    loop {
        let mut degree = vec![0; inst.n];
        for &e in tree.iter() {
            degree[inst.edges[e].0] += 1;
            degree[inst.edges[e].1] += 1;
        }
        let before = tree.len();
        tree.retain(|&e| {
            let (u, v, _) = inst.edges[e];
            let removable = |x: usize| degree[x] == 1 && !is_terminal[x];
            !removable(u) && !removable(v)
        });
        if tree.len() == before {
            return;
        }
    }
}

fn weight(inst: &SteinerInstance, tree: &[usize]) -> i64 {
    tree.iter().map(|&e| inst.edges[e].2).sum()
}

fn by_weight(inst: &SteinerInstance) -> Vec<usize> {
    let mut order: Vec<usize> = (0..inst.edges.len()).collect();
    order.sort_by_key(|&e| (inst.edges[e].2, e));
    order
}

impl Problem for SteinerTree {
    type Instance = SteinerInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "steiner_tree";
    const SUMMARY: &'static str = "Choose edges of minimum total weight that connect all terminals (other vertices may \
        be used). Exact by enumerating Steiner vertices when few are free; above, shortest-path heuristic with the \
        exact Dreyfus-Wagner optimum as bound (the reference is exact when they meet).";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str =
        "the chosen edges as vertex pairs, each edge once, e.g. `[[0, 3], [3, 5], [5, 2]]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-10 vertices, 3 terminals, exact" },
        LevelSpec { level: 2, description: "12-15 vertices, 4 terminals, exact" },
        LevelSpec { level: 3, description: "16-20 vertices, 5-6 terminals, exact" },
        LevelSpec {
            level: 4,
            description: "40-60 vertices, 8-10 terminals, heuristic with Dreyfus-Wagner optimum as bound",
        },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (SteinerInstance, Option<Vec<usize>>) {
        let (lo, hi, klo, khi, p) = match level {
            1 => (8, 10, 3, 3, 0.3),
            2 => (12, 15, 4, 4, 0.2),
            3 => (16, 20, 5, 6, 0.15),
            _ => (40, 60, 8, 10, 0.08),
        };
        let n = rng.range_usize(lo, hi);
        let k = rng.range_usize(klo, khi);
        // A random spanning tree keeps the graph connected; G(n, p) adds alternatives.
        let mut present = std::collections::HashSet::new();
        let mut edges = Vec::new();
        for v in 1..n {
            let u = rng.index(v);
            present.insert((u, v));
            edges.push((u, v, rng.range(1, 20)));
        }
        for u in 0..n {
            for v in u + 1..n {
                if !present.contains(&(u, v)) && rng.chance(p) {
                    edges.push((u, v, rng.range(1, 20)));
                }
            }
        }
        let mut terminals = rng.permutation(n)[..k].to_vec();
        terminals.sort_unstable();
        (SteinerInstance { n, edges, terminals }, None)
    }

    fn validate(inst: &SteinerInstance) -> Result<(), String> {
        inst.graph().validate(MAX_N)?;
        if inst.terminals.is_empty() || inst.terminals.len() > MAX_TERMINALS {
            return Err(format!("1..={MAX_TERMINALS} terminals"));
        }
        let mut seen = vec![false; inst.n];
        for &t in &inst.terminals {
            if t >= inst.n || std::mem::replace(&mut seen[t], true) {
                return Err("terminals must be distinct vertices".into());
            }
        }
        let all = vec![true; inst.n];
        let (_, connected) = mst(inst, &all, &by_weight(inst));
        if !connected {
            return Err("the graph must be connected".into());
        }
        Ok(())
    }

    fn prompt(inst: &SteinerInstance) -> String {
        format!(
            "Steiner tree. {}\nThe terminals are {:?}.\n\nChoose a set of edges that connects all terminals to each other \
             (other vertices may be used along the way) with the smallest total weight.",
            inst.graph().describe(),
            inst.terminals
        )
    }

    fn decode(inst: &SteinerInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        let pairs =
            if matches!(answer, Node::Ints(items) if items.is_empty()) { Vec::new() } else { answer.nested()? };
        let index_of = inst.edge_index();
        let mut used = vec![false; inst.edges.len()];
        let mut chosen = Vec::with_capacity(pairs.len());
        for pair in pairs {
            let [u, v] = pair[..] else {
                return Err(Violation::parse(format!("an edge is two vertices, found {} values", pair.len())));
            };
            let (u, v) = (index(u, inst.n, "vertex")?, index(v, inst.n, "vertex")?);
            let Some(&e) = index_of.get(&(u.min(v), u.max(v))) else {
                return Err(Violation::constraint(format!("{u}-{v} is not an edge"), json!({ "non_edge": [u, v] })));
            };
            if std::mem::replace(&mut used[e], true) {
                return Err(Violation::duplicate("edge", e).witness(json!({ "edge": [u, v] })));
            }
            chosen.push(e);
        }
        Ok(chosen)
    }

    fn objective(inst: &SteinerInstance, chosen: &Vec<usize>) -> Result<i64, Violation> {
        let mut parent: Vec<usize> = (0..inst.n).collect();
        for &e in chosen {
            let (u, v, _) = inst.edges[e];
            let (a, b) = (find(&mut parent, u), find(&mut parent, v));
            parent[a] = b;
        }
        let root = find(&mut parent, inst.terminals[0]);
        if let Some(&t) = inst.terminals.iter().find(|&&t| find(&mut parent, t) != root) {
            return Err(Violation::constraint(
                format!("terminal {t} is not connected to terminal {}", inst.terminals[0]),
                json!({ "disconnected": [inst.terminals[0], t] }),
            ));
        }
        Ok(weight(inst, chosen))
    }

    fn canonical(inst: &SteinerInstance, chosen: &Vec<usize>) -> Value {
        let mut pairs: Vec<[usize; 2]> = chosen
            .iter()
            .map(|&e| [inst.edges[e].0.min(inst.edges[e].1), inst.edges[e].0.max(inst.edges[e].1)])
            .collect();
        pairs.sort_unstable();
        json!(pairs)
    }

    fn format(inst: &SteinerInstance, chosen: &Vec<usize>) -> String {
        let pairs: Vec<Vec<usize>> = chosen.iter().map(|&e| vec![inst.edges[e].0, inst.edges[e].1]).collect();
        nested_text(&pairs)
    }

    fn solve(inst: &SteinerInstance, _: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        if inst.n - inst.terminals.len() <= ENUMERATE_MAX_FREE {
            return Solved { solution: enumerate(inst), kind: ReferenceKind::Exact, bound: None };
        }
        let tree = shortest_path_heuristic(inst);
        let optimum = dreyfus_wagner(inst);
        let kind = if weight(inst, &tree) == optimum { ReferenceKind::Exact } else { ReferenceKind::Heuristic };
        Solved { solution: tree, kind, bound: Some(optimum) }
    }

    fn baseline(inst: &SteinerInstance) -> Vec<usize> {
        // Union of shortest paths from the first terminal to every other one.
        let (_, pred) = dijkstra(inst, &[inst.terminals[0]]);
        let mut chosen = std::collections::BTreeSet::new();
        for &t in &inst.terminals[1..] {
            let mut v = t;
            while let Some(e) = pred[v] {
                chosen.insert(e);
                let (a, b, _) = inst.edges[e];
                v = if a == v { b } else { a };
            }
        }
        chosen.into_iter().collect()
    }
}

/// Dijkstra from a set of sources: distances and the edge into each vertex on a shortest path.
fn dijkstra(inst: &SteinerInstance, sources: &[usize]) -> (Vec<i64>, Vec<Option<usize>>) {
    let mut adj = vec![Vec::new(); inst.n];
    for (e, &(u, v, _)) in inst.edges.iter().enumerate() {
        adj[u].push((v, e));
        adj[v].push((u, e));
    }
    let mut dist = vec![i64::MAX; inst.n];
    let mut pred = vec![None; inst.n];
    let mut heap = std::collections::BinaryHeap::new();
    for &s in sources {
        dist[s] = 0;
        heap.push(std::cmp::Reverse((0i64, s)));
    }
    while let Some(std::cmp::Reverse((d, u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        for &(v, e) in &adj[u] {
            let nd = d + inst.edges[e].2;
            if nd < dist[v] {
                dist[v] = nd;
                pred[v] = Some(e);
                heap.push(std::cmp::Reverse((nd, v)));
            }
        }
    }
    (dist, pred)
}

/// Exact: the best spanning tree of terminals plus each subset of the other vertices (an
/// optimal Steiner tree is an MST of its own vertex set).
pub fn enumerate(inst: &SteinerInstance) -> Vec<usize> {
    let order = by_weight(inst);
    let mut is_terminal = vec![false; inst.n];
    for &t in &inst.terminals {
        is_terminal[t] = true;
    }
    let free: Vec<usize> = (0..inst.n).filter(|&v| !is_terminal[v]).collect();
    let mut best: Option<(i64, Vec<usize>)> = None;
    for mask in 0u32..(1u32 << free.len()) {
        let mut allowed = is_terminal.clone();
        for (i, &v) in free.iter().enumerate() {
            if mask >> i & 1 == 1 {
                allowed[v] = true;
            }
        }
        let (tree, spans) = mst(inst, &allowed, &order);
        if spans {
            let w = weight(inst, &tree);
            if best.as_ref().is_none_or(|(b, _)| w < *b) {
                best = Some((w, tree));
            }
        }
    }
    let mut tree = best.map(|b| b.1).unwrap_or_default();
    tree.sort_unstable();
    tree
}

/// Shortest-path heuristic from every terminal: grow a tree by the nearest unconnected
/// terminal's shortest path, then take the MST of the vertices used and prune non-terminal
/// leaves. Best over starting terminals.
pub fn shortest_path_heuristic(inst: &SteinerInstance) -> Vec<usize> {
    let order = by_weight(inst);
    let mut best: Option<(i64, Vec<usize>)> = None;
    for &start in &inst.terminals {
        let mut in_tree = vec![false; inst.n];
        in_tree[start] = true;
        let mut remaining: Vec<usize> = inst.terminals.iter().copied().filter(|&t| t != start).collect();
        while !remaining.is_empty() {
            let sources: Vec<usize> = (0..inst.n).filter(|&v| in_tree[v]).collect();
            let (dist, pred) = dijkstra(inst, &sources);
            let Some((k, _)) = remaining.iter().enumerate().min_by_key(|&(_, &t)| (dist[t], t)) else { break };
            let t = remaining.swap_remove(k);
            let mut v = t;
            while !in_tree[v] {
                in_tree[v] = true;
                let Some(e) = pred[v] else { break };
                let (a, b, _) = inst.edges[e];
                v = if a == v { b } else { a };
            }
        }
        let (mut tree, _) = mst(inst, &in_tree, &order);
        prune(inst, &mut tree);
        let w = weight(inst, &tree);
        if best.as_ref().is_none_or(|(b, _)| w < *b) {
            best = Some((w, tree));
        }
    }
    let mut tree = best.map(|b| b.1).unwrap_or_default();
    tree.sort_unstable();
    tree
}

/// The optimum weight by Dreyfus-Wagner dynamic programming over terminal subsets,
/// O(3^k·n + 2^k·n²) on the metric closure.
pub fn dreyfus_wagner(inst: &SteinerInstance) -> i64 {
    let n = inst.n;
    let k = inst.terminals.len();
    if k <= 1 {
        return 0;
    }
    let dist: Vec<Vec<i64>> = (0..n).map(|s| dijkstra(inst, &[s]).0).collect();
    const INF: i64 = i64::MAX / 4;
    let full = (1usize << k) - 1;
    let mut dp = vec![vec![INF; n]; full + 1];
    for (i, &t) in inst.terminals.iter().enumerate() {
        for v in 0..n {
            dp[1 << i][v] = dist[t][v];
        }
    }
    for mask in 1..=full {
        if mask.count_ones() < 2 {
            continue;
        }
        let mut row = vec![INF; n];
        let low = mask & mask.wrapping_neg();
        let mut sub = (mask - 1) & mask;
        while sub > 0 {
            if sub & low != 0 {
                let other = mask ^ sub;
                for v in 0..n {
                    row[v] = row[v].min(dp[sub][v] + dp[other][v]);
                }
            }
            sub = (sub - 1) & mask;
        }
        let joined: Vec<i64> = (0..n).map(|v| (0..n).map(|u| row[u] + dist[u][v]).min().unwrap_or(INF)).collect();
        dp[mask] = joined;
    }
    dp[full][inst.terminals[0]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for SteinerTree {
        fn tiny(rng: &mut Rng) -> SteinerInstance {
            let n = rng.range_usize(2, 7);
            let mut edges = Vec::new();
            for v in 1..n {
                edges.push((rng.index(v), v, rng.range(1, 9)));
            }
            for u in 0..n {
                for v in u + 1..n {
                    if edges.len() < 12 && !edges.iter().any(|e| (e.0, e.1) == (u, v)) && rng.chance(0.3) {
                        edges.push((u, v, rng.range(1, 9)));
                    }
                }
            }
            let k = rng.range_usize(1, n);
            let mut terminals = rng.permutation(n)[..k].to_vec();
            terminals.sort_unstable();
            SteinerInstance { n, edges, terminals }
        }

        fn brute_force(inst: &SteinerInstance) -> i64 {
            let m = inst.edges.len();
            (0u32..1 << m)
                .filter_map(|mask| SteinerTree::objective(inst, &(0..m).filter(|&e| mask >> e & 1 == 1).collect()).ok())
                .min()
                .unwrap_or(i64::MAX)
        }

        fn exact(inst: &SteinerInstance) -> Vec<usize> {
            let tree = enumerate(inst);
            assert_eq!(weight(inst, &tree), dreyfus_wagner(inst), "Dreyfus-Wagner disagrees");
            tree
        }

        fn heuristic(inst: &SteinerInstance) -> Vec<usize> {
            shortest_path_heuristic(inst)
        }

        fn mutations(inst: &SteinerInstance, tree: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let pair = |e: usize| vec![inst.edges[e].0, inst.edges[e].1];
            let mut out = vec![
                (format!("[[0, {}]]", inst.n), ErrorKind::OutOfRange),
                ("[[1, 2, 3]]".to_owned(), ErrorKind::ParseError),
            ];
            if let Some(&e) = tree.first() {
                let mut twice: Vec<Vec<usize>> = tree.iter().map(|&e| pair(e)).collect();
                twice.push(pair(e).into_iter().rev().collect());
                out.push((nested_text(&twice), ErrorKind::Duplicate));
                // A tree edge removed disconnects some terminal (the reference is pruned).
                let rest: Vec<Vec<usize>> = tree[1..].iter().map(|&e| pair(e)).collect();
                out.push((nested_text(&rest), ErrorKind::ConstraintViolation));
            }
            let edges = inst.edge_index();
            if let Some((u, v)) =
                (0..inst.n).flat_map(|u| (u + 1..inst.n).map(move |v| (u, v))).find(|p| !edges.contains_key(p))
            {
                out.push((format!("[[{u}, {v}]]"), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<SteinerTree>(1000, 21);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<SteinerTree>(3);
    }
}
