//! Symmetric travelling salesman on rounded Euclidean distances.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

/// Largest accepted instance.
const MAX_CITIES: usize = 200;
/// Held-Karp is used up to this many cities (2^15 subsets of the non-start cities).
pub const EXACT_MAX: usize = 16;

/// A TSP instance: a symmetric integer distance matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TspInstance {
    /// Number of cities, labelled `0..n`.
    pub n: usize,
    /// `distances[i][j]`: symmetric, zero diagonal, non-negative.
    pub distances: Vec<Vec<i64>>,
}

/// The travelling salesman task.
#[derive(Debug)]
pub struct Tsp;

fn tour_length(d: &[Vec<i64>], tour: &[usize]) -> i64 {
    let Some(&last) = tour.last() else { return 0 };
    let mut total = d[last][tour[0]];
    for w in tour.windows(2) {
        total += d[w[0]][w[1]];
    }
    total
}

impl Problem for Tsp {
    type Instance = TspInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "tsp";
    const SUMMARY: &'static str = "Shortest closed tour through every city of a symmetric integer distance matrix. \
        Exact Held-Karp reference up to 16 cities, iterated 2-opt/Or-opt with a 1-tree lower bound above.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "the tour as a list of all n city indices in visiting order, each exactly once, \
        e.g. `[0, 3, 1, 2]` (repeating the start city at the end is allowed).";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "6-9 cities, exact" },
        LevelSpec { level: 2, description: "10-13 cities, exact" },
        LevelSpec { level: 3, description: "14-16 cities, exact (Held-Karp)" },
        LevelSpec { level: 4, description: "40-50 cities, heuristic reference with 1-tree lower bound" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (TspInstance, Option<Vec<usize>>) {
        let (lo, hi) = match level {
            1 => (6, 9),
            2 => (10, 13),
            3 => (14, 16),
            _ => (40, 50),
        };
        let n = rng.range_usize(lo, hi);
        let points: Vec<(i64, i64)> = (0..n).map(|_| (rng.range(0, 1000), rng.range(0, 1000))).collect();
        (euclidean(&points), None)
    }

    fn validate(inst: &TspInstance) -> Result<(), String> {
        if inst.n < 3 || inst.n > MAX_CITIES {
            return Err(format!("n must be within 3..={MAX_CITIES}"));
        }
        if inst.distances.len() != inst.n || inst.distances.iter().any(|r| r.len() != inst.n) {
            return Err("distances must be an n x n matrix".into());
        }
        for i in 0..inst.n {
            for j in 0..inst.n {
                let v = inst.distances[i][j];
                if !(0..=1_000_000).contains(&v) || v != inst.distances[j][i] || (i == j && v != 0) {
                    return Err(format!(
                        "distances must be symmetric, within 0..=1e6, zero on the diagonal (at {i},{j})"
                    ));
                }
            }
        }
        Ok(())
    }

    fn prompt(inst: &TspInstance) -> String {
        let rows: Vec<String> =
            inst.distances.iter().enumerate().map(|(i, r)| format!("{i}: {}", list_text(r))).collect();
        format!(
            "Travelling salesman problem. There are {} cities labelled 0 to {}. Row i of the symmetric distance \
             matrix below lists the distances from city i to cities 0..{}.\n{}\n\nFind a tour that visits every city \
             exactly once and returns to its start, with the smallest total distance.",
            inst.n,
            inst.n - 1,
            inst.n - 1,
            rows.join("\n")
        )
    }

    fn decode(inst: &TspInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        let mut values = answer.ints()?;
        if values.len() == inst.n + 1 && values.first() == values.last() {
            values.pop();
        }
        if values.len() != inst.n {
            return Err(Violation::wrong_length("cities", inst.n, values.len()));
        }
        distinct_indices(&values, inst.n, "city")
    }

    fn objective(inst: &TspInstance, tour: &Vec<usize>) -> Result<i64, Violation> {
        Ok(tour_length(&inst.distances, tour))
    }

    fn canonical(_: &TspInstance, tour: &Vec<usize>) -> Value {
        json!(canonical_tour(tour))
    }

    fn format(_: &TspInstance, tour: &Vec<usize>) -> String {
        list_text(tour)
    }

    fn solve(inst: &TspInstance, _: Option<&Self::Solution>) -> Solved<Vec<usize>> {
        if inst.n <= EXACT_MAX {
            Solved { solution: held_karp(&inst.distances), kind: ReferenceKind::Exact, bound: None }
        } else {
            let bound = one_tree_bound(&inst.distances);
            Solved { solution: local_search(&inst.distances, 60), kind: ReferenceKind::Heuristic, bound: Some(bound) }
        }
    }

    fn baseline(inst: &TspInstance) -> Vec<usize> {
        // Cities are placed at random, so index order is a random tour.
        (0..inst.n).collect()
    }
}

/// Rounded Euclidean distance matrix of points.
pub fn euclidean(points: &[(i64, i64)]) -> TspInstance {
    let n = points.len();
    let mut distances = vec![vec![0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let (dx, dy) = ((points[i].0 - points[j].0) as f64, (points[i].1 - points[j].1) as f64);
            distances[i][j] = (dx * dx + dy * dy).sqrt().round() as i64;
        }
    }
    TspInstance { n, distances }
}

/// Rotation to start at the smallest city, direction with the smaller second city.
pub fn canonical_tour(tour: &[usize]) -> Vec<usize> {
    let n = tour.len();
    let Some(start) = tour.iter().enumerate().min_by_key(|&(_, &c)| c).map(|(i, _)| i) else {
        return Vec::new();
    };
    let forward: Vec<usize> = (0..n).map(|k| tour[(start + k) % n]).collect();
    let backward: Vec<usize> = (0..n).map(|k| tour[(start + n - k) % n]).collect();
    if n > 1 && backward[1] < forward[1] { backward } else { forward }
}

/// Exact tour by Held-Karp dynamic programming over subsets of cities `1..n`.
pub fn held_karp(d: &[Vec<i64>]) -> Vec<usize> {
    let n = d.len();
    if n <= 3 {
        return (0..n).collect();
    }
    let m = n - 1;
    let full = (1usize << m) - 1;
    const INF: i64 = i64::MAX / 4;
    // dp[mask * m + j]: shortest path from city 0 through `mask` (cities 1..n as bits) ending at j+1.
    let mut dp = vec![INF; (1usize << m) * m];
    for j in 0..m {
        dp[(1 << j) * m + j] = d[0][j + 1];
    }
    for mask in 1..=full {
        for j in 0..m {
            let cur = dp[mask * m + j];
            if cur >= INF || mask & (1 << j) == 0 {
                continue;
            }
            let row = &d[j + 1];
            let mut rest = full & !mask;
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let next = mask | (1 << k);
                let cand = cur + row[k + 1];
                let slot = &mut dp[next * m + k];
                if cand < *slot {
                    *slot = cand;
                }
            }
        }
    }
    let (mut last, _) = (0..m).map(|j| (j, dp[full * m + j] + d[j + 1][0])).min_by_key(|&(_, c)| c).unwrap_or((0, 0));
    let mut tour = Vec::with_capacity(n);
    let mut mask = full;
    loop {
        tour.push(last + 1);
        let prev_mask = mask & !(1 << last);
        if prev_mask == 0 {
            break;
        }
        let target = dp[mask * m + last];
        let prev = (0..m).find(|&p| prev_mask & (1 << p) != 0 && dp[prev_mask * m + p] + d[p + 1][last + 1] == target);
        let Some(prev) = prev else { break };
        last = prev;
        mask = prev_mask;
    }
    tour.push(0);
    tour.reverse();
    tour
}

/// Nearest-neighbour tour from `start`.
pub fn nearest_neighbour(d: &[Vec<i64>], start: usize) -> Vec<usize> {
    let n = d.len();
    let mut visited = vec![false; n];
    let mut tour = Vec::with_capacity(n);
    let mut cur = start;
    visited[cur] = true;
    tour.push(cur);
    for _ in 1..n {
        let next = (0..n).filter(|&c| !visited[c]).min_by_key(|&c| (d[cur][c], c));
        let Some(next) = next else { break };
        visited[next] = true;
        tour.push(next);
        cur = next;
    }
    tour
}

/// 2-opt and Or-opt moves until neither improves.
pub(crate) fn improve(d: &[Vec<i64>], tour: &mut [usize]) {
    let n = tour.len();
    if n < 4 {
        return;
    }
    loop {
        let mut improved = false;
        for i in 0..n - 1 {
            for j in i + 2..n {
                let (a, b) = (tour[i], tour[i + 1]);
                let (c, e) = (tour[j], tour[(j + 1) % n]);
                if e == a {
                    continue;
                }
                if d[a][c] + d[b][e] < d[a][b] + d[c][e] {
                    tour[i + 1..=j].reverse();
                    improved = true;
                }
            }
        }
        improved |= or_opt(d, tour);
        if !improved {
            return;
        }
    }
}

/// Moves a segment of 1-3 cities elsewhere (either orientation) when that shortens the tour.
fn or_opt(d: &[Vec<i64>], tour: &mut [usize]) -> bool {
    let n = tour.len();
    let mut improved = false;
    for len in 1..=3usize {
        if n < len + 3 {
            break;
        }
        let mut i = 0;
        while i + len <= n {
            let prev = tour[(i + n - 1) % n];
            let first = tour[i];
            let last = tour[i + len - 1];
            let next = tour[(i + len) % n];
            let removed_gain = d[prev][first] + d[last][next] - d[prev][next];
            let mut best: Option<(i64, usize, bool)> = None;
            for k in 0..n {
                let (p, q) = (tour[k], tour[(k + 1) % n]);
                let inside = |x: usize| (i..i + len).contains(&x);
                if inside(k) || inside((k + 1) % n) || (k + 1) % n == i {
                    continue;
                }
                let forward = d[p][first] + d[last][q] - d[p][q];
                let reverse = d[p][last] + d[first][q] - d[p][q];
                for (cost, rev) in [(forward, false), (reverse, true)] {
                    if cost < removed_gain && best.is_none_or(|(b, _, _)| cost < b) {
                        best = Some((cost, k, rev));
                    }
                }
            }
            if let Some((_, k, rev)) = best {
                let mut segment: Vec<usize> = tour[i..i + len].to_vec();
                if rev {
                    segment.reverse();
                }
                let after = tour[k];
                let rest: Vec<usize> = tour
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|&(x, _)| !(i..i + len).contains(&x))
                    .map(|(_, c)| c)
                    .collect();
                let mut rebuilt = Vec::with_capacity(n);
                for &c in &rest {
                    rebuilt.push(c);
                    if c == after {
                        rebuilt.extend_from_slice(&segment);
                    }
                }
                tour.copy_from_slice(&rebuilt);
                improved = true;
            }
            i += 1;
        }
    }
    improved
}

/// Nearest neighbour + 2-opt/Or-opt, then iterated local search with `kicks` double-bridge
/// perturbations from a fixed seed (deterministic).
pub fn local_search(d: &[Vec<i64>], kicks: usize) -> Vec<usize> {
    let n = d.len();
    let mut best = nearest_neighbour(d, 0);
    improve(d, &mut best);
    let mut best_len = tour_length(d, &best);
    for start in 1..n.min(8) {
        let mut t = nearest_neighbour(d, start);
        improve(d, &mut t);
        let l = tour_length(d, &t);
        if l < best_len {
            best = t;
            best_len = l;
        }
    }
    if n < 8 {
        return best;
    }
    let mut rng = Rng::from_seed(0x7359);
    for _ in 0..kicks {
        let mut cuts = [rng.range_usize(1, n - 1), rng.range_usize(1, n - 1), rng.range_usize(1, n - 1)];
        cuts.sort_unstable();
        let [a, b, c] = cuts;
        if a == b || b == c {
            continue;
        }
        let mut t = Vec::with_capacity(n);
        t.extend_from_slice(&best[..a]);
        t.extend_from_slice(&best[b..c]);
        t.extend_from_slice(&best[a..b]);
        t.extend_from_slice(&best[c..]);
        improve(d, &mut t);
        let l = tour_length(d, &t);
        if l < best_len {
            best = t;
            best_len = l;
        }
    }
    best
}

/// The best 1-tree bound over the choice of special city: a minimum spanning tree of the other
/// cities plus the special city's two cheapest edges. Every tour is a 1-tree, so this is a lower
/// bound on the optimum.
pub fn one_tree_bound(d: &[Vec<i64>]) -> i64 {
    let n = d.len();
    let mut best = 0;
    for special in 0..n {
        let mut in_tree = vec![false; n];
        let mut key = vec![i64::MAX; n];
        in_tree[special] = true;
        let first = if special == 0 { 1 } else { 0 };
        key[first] = 0;
        let mut total = 0;
        for _ in 0..n - 1 {
            let Some(u) = (0..n).filter(|&v| !in_tree[v]).min_by_key(|&v| key[v]) else {
                break;
            };
            in_tree[u] = true;
            total += key[u];
            for v in 0..n {
                if !in_tree[v] && d[u][v] < key[v] {
                    key[v] = d[u][v];
                }
            }
        }
        let mut edges: Vec<i64> = (0..n).filter(|&v| v != special).map(|v| d[special][v]).collect();
        edges.sort_unstable();
        total += edges.iter().take(2).sum::<i64>();
        best = best.max(total);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    fn permutations(k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(k - 1) {
            for pos in 0..=p.len() {
                let mut q = p.clone();
                q.insert(pos, k - 1);
                out.push(q);
            }
        }
        out
    }

    impl Testable for Tsp {
        fn tiny(rng: &mut Rng) -> TspInstance {
            let n = rng.range_usize(3, 8);
            if rng.chance(0.5) {
                let points: Vec<(i64, i64)> = (0..n).map(|_| (rng.range(0, 100), rng.range(0, 100))).collect();
                euclidean(&points)
            } else {
                // Non-metric random matrices are harder for heuristics.
                let mut distances = vec![vec![0; n]; n];
                for i in 0..n {
                    for j in i + 1..n {
                        let v = rng.range(1, 50);
                        distances[i][j] = v;
                        distances[j][i] = v;
                    }
                }
                TspInstance { n, distances }
            }
        }

        fn brute_force(inst: &TspInstance) -> i64 {
            permutations(inst.n - 1)
                .into_iter()
                .map(|p| {
                    let tour: Vec<usize> = std::iter::once(0).chain(p.into_iter().map(|c| c + 1)).collect();
                    tour_length(&inst.distances, &tour)
                })
                .min()
                .unwrap_or(0)
        }

        fn exact(inst: &TspInstance) -> Vec<usize> {
            held_karp(&inst.distances)
        }

        fn heuristic(inst: &TspInstance) -> Vec<usize> {
            local_search(&inst.distances, 20)
        }

        fn mutations(inst: &TspInstance, tour: &Vec<usize>, rng: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.n;
            let mut dup = tour.clone();
            let i = rng.range_usize(1, n - 1);
            dup[i] = dup[i - 1];
            let mut out_of_range = tour.clone();
            out_of_range[rng.index(n)] = n;
            let mut closed_wrong = tour.clone();
            closed_wrong.push(tour[1]);
            vec![
                (list_text(&dup), ErrorKind::Duplicate),
                (list_text(&out_of_range), ErrorKind::OutOfRange),
                (list_text(&tour[..n - 1]), ErrorKind::WrongLength),
                (list_text(&closed_wrong), ErrorKind::WrongLength),
                ("[0, 1.5, 2]".into(), ErrorKind::ParseError),
                ("[[0, 1], [2]]".into(), ErrorKind::ParseError),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<Tsp>(1500, 1);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<Tsp>(3);
    }

    #[test]
    fn canonical_form_ignores_rotation_and_direction() {
        let a = canonical_tour(&[2, 0, 3, 1]);
        assert_eq!(a, canonical_tour(&[1, 3, 0, 2]));
        assert_eq!(a, canonical_tour(&[0, 3, 1, 2]));
        assert_eq!(a, vec![0, 2, 1, 3]);
    }

    #[test]
    fn closed_tours_and_free_text_are_accepted() {
        let inst = euclidean(&[(0, 0), (0, 3), (4, 3), (4, 0)]);
        let checked = crate::task::check::<Tsp>(&inst, "I'd go 0 -> 1 -> 2 -> 3 -> 0 for 14", false);
        assert_eq!(checked.result.map(|(_, l)| l).ok(), Some(14));
        let strict = crate::task::check::<Tsp>(&inst, "Answer: [0, 1, 2, 3, 0]", true);
        assert_eq!(strict.result.map(|(_, l)| l).ok(), Some(14));
    }
}
