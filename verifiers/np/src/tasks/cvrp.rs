//! Capacitated vehicle routing from one depot.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, index};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::tsp::{euclidean, improve};
use crate::tasks::{list_text, nested_text};
use crate::violation::Violation;

const MAX_CUSTOMERS: usize = 100;
/// The subset dynamic programme is used up to this many customers.
pub const EXACT_MAX: usize = 11;

/// A CVRP instance; node 0 is the depot, nodes `1..=n` are customers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CvrpInstance {
    /// Vehicle capacity.
    pub capacity: i64,
    /// Demand per node; `demands[0]` (the depot) is 0.
    pub demands: Vec<i64>,
    /// Symmetric distance matrix over depot and customers.
    pub distances: Vec<Vec<i64>>,
}

impl CvrpInstance {
    fn customers(&self) -> usize {
        self.demands.len() - 1
    }
}

/// The CVRP task.
#[derive(Debug)]
pub struct Cvrp;

fn route_length(d: &[Vec<i64>], route: &[usize]) -> i64 {
    let (Some(&first), Some(&last)) = (route.first(), route.last()) else { return 0 };
    d[0][first] + route.windows(2).map(|w| d[w[0]][w[1]]).sum::<i64>() + d[last][0]
}

fn total_length(d: &[Vec<i64>], routes: &[Vec<usize>]) -> i64 {
    routes.iter().map(|r| route_length(d, r)).sum()
}

impl Problem for Cvrp {
    type Instance = CvrpInstance;
    type Solution = Vec<Vec<usize>>;
    const NAME: &'static str = "cvrp";
    const SUMMARY: &'static str = "Serve every customer exactly once with depot-based routes whose loads fit the vehicle \
        capacity, minimising total distance. Exact subset DP up to 11 customers, Clarke-Wright savings with 2-opt above.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "the routes as lists of customers in visiting order, e.g. `[[3, 1, 7], [2, 5], \
        [4, 6]]`; each route starts and ends at the depot 0, which may be written or left out (a single list with 0 \
        between routes, `[0, 3, 1, 7, 0, 2, 5, 0]`, is also accepted).";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "5-6 customers, exact" },
        LevelSpec { level: 2, description: "7-8 customers, exact" },
        LevelSpec { level: 3, description: "9-11 customers, exact" },
        LevelSpec { level: 4, description: "25-35 customers, heuristic" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (CvrpInstance, Option<Vec<Vec<usize>>>) {
        let (lo, hi) = match level {
            1 => (5, 6),
            2 => (7, 8),
            3 => (9, 11),
            _ => (25, 35),
        };
        let n = rng.range_usize(lo, hi);
        let points: Vec<(i64, i64)> = (0..=n).map(|_| (rng.range(0, 100), rng.range(0, 100))).collect();
        let mut demands: Vec<i64> = (0..=n).map(|_| rng.range(1, 9)).collect();
        demands[0] = 0;
        let total: i64 = demands.iter().sum();
        let routes = (n as i64 / 3).max(2);
        let capacity = (total + routes - 1) / routes + rng.range(0, 4);
        let capacity = capacity.max(9);
        (CvrpInstance { capacity, demands, distances: euclidean(&points).distances }, None)
    }

    fn validate(inst: &CvrpInstance) -> Result<(), String> {
        let n = inst.demands.len();
        if !(2..=MAX_CUSTOMERS + 1).contains(&n) {
            return Err(format!("1..={MAX_CUSTOMERS} customers"));
        }
        if inst.distances.len() != n || inst.distances.iter().any(|r| r.len() != n) {
            return Err("distances must be a square matrix over depot and customers".into());
        }
        if inst.demands[0] != 0
            || inst.demands[1..].iter().any(|&d| d < 1 || d > inst.capacity)
            || inst.capacity > 1_000_000
        {
            return Err("the depot demand must be 0 and every customer demand within 1..=capacity".into());
        }
        for i in 0..n {
            for j in 0..n {
                let v = inst.distances[i][j];
                if !(0..=1_000_000).contains(&v) || v != inst.distances[j][i] || (i == j && v != 0) {
                    return Err("distances must be symmetric, within 0..=1e6, zero on the diagonal".into());
                }
            }
        }
        Ok(())
    }

    fn prompt(inst: &CvrpInstance) -> String {
        let rows: Vec<String> =
            inst.distances.iter().enumerate().map(|(i, r)| format!("{i}: {}", list_text(r))).collect();
        let demands: Vec<String> =
            (1..inst.demands.len()).map(|c| format!("customer {c}: {}", inst.demands[c])).collect();
        format!(
            "Capacitated vehicle routing. Node 0 is the depot and nodes 1 to {} are customers. Each vehicle carries at \
             most {} units. Demands:\n{}\nRow i of the symmetric distance matrix lists the distances from node i to nodes \
             0..{}:\n{}\n\nPlan routes that each start and end at the depot, visit every customer exactly once in total, \
             and carry at most the capacity each, with the smallest total distance.",
            inst.customers(),
            inst.capacity,
            demands.join("\n"),
            inst.customers(),
            rows.join("\n")
        )
    }

    fn decode(inst: &CvrpInstance, answer: &Node) -> Result<Vec<Vec<usize>>, Violation> {
        let lists = if answer.is_nested() { answer.nested()? } else { vec![answer.ints()?] };
        let n = inst.demands.len();
        let mut seen = vec![false; n];
        let mut routes = Vec::new();
        for list in lists {
            // The depot separates routes wherever it is written.
            for segment in list.split(|&v| v == 0) {
                let mut route = Vec::with_capacity(segment.len());
                for &v in segment {
                    let c = index(v, n, "customer")?;
                    if std::mem::replace(&mut seen[c], true) {
                        return Err(Violation::duplicate("customer", c));
                    }
                    route.push(c);
                }
                if !route.is_empty() {
                    routes.push(route);
                }
            }
        }
        if let Some(c) = (1..n).find(|&c| !seen[c]) {
            return Err(Violation::missing("customer", c));
        }
        Ok(routes)
    }

    fn objective(inst: &CvrpInstance, routes: &Vec<Vec<usize>>) -> Result<i64, Violation> {
        for (r, route) in routes.iter().enumerate() {
            let load: i64 = route.iter().map(|&c| inst.demands[c]).sum();
            if load > inst.capacity {
                return Err(Violation::constraint(
                    format!("route {r} carries {load} > capacity {}", inst.capacity),
                    json!({ "route": route, "load": load, "capacity": inst.capacity }),
                ));
            }
        }
        Ok(total_length(&inst.distances, routes))
    }

    fn canonical(_: &CvrpInstance, routes: &Vec<Vec<usize>>) -> Value {
        let mut oriented: Vec<Vec<usize>> = routes
            .iter()
            .map(|r| {
                let mut r = r.clone();
                if r.last() < r.first() {
                    r.reverse();
                }
                r
            })
            .collect();
        oriented.sort();
        json!(oriented)
    }

    fn format(_: &CvrpInstance, routes: &Vec<Vec<usize>>) -> String {
        nested_text(routes)
    }

    fn solve(inst: &CvrpInstance, _: Option<&Vec<Vec<usize>>>) -> Solved<Vec<Vec<usize>>> {
        if inst.customers() <= EXACT_MAX {
            Solved { solution: exact(inst), kind: ReferenceKind::Exact, bound: None }
        } else {
            Solved { solution: savings(inst), kind: ReferenceKind::Heuristic, bound: None }
        }
    }

    fn baseline(inst: &CvrpInstance) -> Vec<Vec<usize>> {
        (1..inst.demands.len()).map(|c| vec![c]).collect()
    }
}

/// Exact: Held-Karp over customer subsets gives every feasible subset's best route; a second
/// DP partitions all customers into such subsets.
pub fn exact(inst: &CvrpInstance) -> Vec<Vec<usize>> {
    let n = inst.customers();
    let d = &inst.distances;
    let full = (1usize << n) - 1;
    const INF: i64 = i64::MAX / 4;
    let demand = |mask: usize| (0..n).filter(|&i| mask >> i & 1 == 1).map(|i| inst.demands[i + 1]).sum::<i64>();
    // path[mask * n + j]: depot, then all of `mask`, ending at customer j+1.
    let mut path = vec![INF; (full + 1) * n];
    for j in 0..n {
        path[(1 << j) * n + j] = d[0][j + 1];
    }
    let load: Vec<i64> = (0..=full).map(demand).collect();
    for mask in 1..=full {
        if load[mask] > inst.capacity {
            continue;
        }
        for j in 0..n {
            let cur = path[mask * n + j];
            if cur >= INF {
                continue;
            }
            for k in 0..n {
                if mask >> k & 1 == 0 && load[mask | 1 << k] <= inst.capacity {
                    let slot = &mut path[(mask | 1 << k) * n + k];
                    *slot = (*slot).min(cur + d[j + 1][k + 1]);
                }
            }
        }
    }
    let route_cost: Vec<(i64, usize)> = (0..=full)
        .map(|mask| (0..n).map(|j| (path[mask * n + j].saturating_add(d[j + 1][0]), j)).min().unwrap_or((INF, 0)))
        .collect();
    let mut best = vec![INF; full + 1];
    let mut choice = vec![0usize; full + 1];
    best[0] = 0;
    for mask in 1..=full {
        let low = mask & mask.wrapping_neg();
        let mut sub = mask;
        while sub > 0 {
            if sub & low != 0 && load[sub] <= inst.capacity && best[mask ^ sub] < INF {
                let c = route_cost[sub].0 + best[mask ^ sub];
                if c < best[mask] {
                    best[mask] = c;
                    choice[mask] = sub;
                }
            }
            sub = (sub - 1) & mask;
        }
    }
    let mut routes = Vec::new();
    let mut mask = full;
    while mask > 0 {
        let sub = choice[mask];
        if sub == 0 {
            break;
        }
        // Walk the route of `sub` back from its best last customer.
        let mut route = Vec::new();
        let (mut m, mut j) = (sub, route_cost[sub].1);
        loop {
            route.push(j + 1);
            let prev = m & !(1 << j);
            if prev == 0 {
                break;
            }
            let target = path[m * n + j];
            let Some(p) = (0..n).find(|&p| prev >> p & 1 == 1 && path[prev * n + p] + d[p + 1][j + 1] == target) else {
                break;
            };
            m = prev;
            j = p;
        }
        route.reverse();
        routes.push(route);
        mask ^= sub;
    }
    routes
}

/// Clarke-Wright savings (parallel version), then 2-opt/Or-opt inside each route.
pub fn savings(inst: &CvrpInstance) -> Vec<Vec<usize>> {
    let n = inst.demands.len();
    let d = &inst.distances;
    let mut routes: Vec<Option<Vec<usize>>> = (0..n).map(|c| (c > 0).then(|| vec![c])).collect();
    let mut owner: Vec<usize> = (0..n).collect();
    let mut load: Vec<i64> = inst.demands.clone();
    let mut pairs: Vec<(i64, usize, usize)> = Vec::new();
    for i in 1..n {
        for j in i + 1..n {
            pairs.push((d[0][i] + d[0][j] - d[i][j], i, j));
        }
    }
    pairs.sort_by_key(|&(s, i, j)| (std::cmp::Reverse(s), i, j));
    for (s, i, j) in pairs {
        if s <= 0 {
            break;
        }
        let (ri, rj) = (owner[i], owner[j]);
        if ri == rj || load[ri] + load[rj] > inst.capacity {
            continue;
        }
        let (Some(a), Some(b)) = (routes[ri].take(), routes[rj].take()) else { continue };
        // Join at the ends holding i and j, orienting the routes as needed.
        let (mut a, mut b) = (a, b);
        let ends = |r: &Vec<usize>, x: usize| r.first() == Some(&x) || r.last() == Some(&x);
        if !ends(&a, i) || !ends(&b, j) {
            routes[ri] = Some(a);
            routes[rj] = Some(b);
            continue;
        }
        if a.last() != Some(&i) {
            a.reverse();
        }
        if b.first() != Some(&j) {
            b.reverse();
        }
        a.extend(b);
        for &c in &a {
            owner[c] = ri;
        }
        load[ri] += load[rj];
        routes[ri] = Some(a);
    }
    routes
        .into_iter()
        .flatten()
        .map(|r| {
            let mut tour: Vec<usize> = std::iter::once(0).chain(r).collect();
            improve(d, &mut tour);
            let start = tour.iter().position(|&c| c == 0).unwrap_or(0);
            tour.rotate_left(start);
            tour[1..].to_vec()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
        if items.is_empty() {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for (i, &x) in items.iter().enumerate() {
            let rest: Vec<usize> = items.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &y)| y).collect();
            for mut p in permutations(&rest) {
                p.insert(0, x);
                out.push(p);
            }
        }
        out
    }

    impl Testable for Cvrp {
        fn tiny(rng: &mut Rng) -> CvrpInstance {
            let n = rng.range_usize(1, 6);
            let points: Vec<(i64, i64)> = (0..=n).map(|_| (rng.range(0, 30), rng.range(0, 30))).collect();
            let mut demands: Vec<i64> = (0..=n).map(|_| rng.range(1, 5)).collect();
            demands[0] = 0;
            CvrpInstance { capacity: rng.range(5, 12), demands, distances: euclidean(&points).distances }
        }

        fn brute_force(inst: &CvrpInstance) -> i64 {
            // Every solution is some customer order cut into consecutive routes.
            let customers: Vec<usize> = (1..inst.demands.len()).collect();
            let d = &inst.distances;
            permutations(&customers)
                .into_iter()
                .map(|p| {
                    let mut cost = vec![i64::MAX; p.len() + 1];
                    cost[0] = 0;
                    for end in 1..=p.len() {
                        for start in 0..end {
                            let seg = &p[start..end];
                            if cost[start] < i64::MAX
                                && seg.iter().map(|&c| inst.demands[c]).sum::<i64>() <= inst.capacity
                            {
                                cost[end] = cost[end].min(cost[start] + route_length(d, seg));
                            }
                        }
                    }
                    cost[p.len()]
                })
                .min()
                .unwrap_or(0)
        }

        fn exact(inst: &CvrpInstance) -> Vec<Vec<usize>> {
            exact(inst)
        }

        fn heuristic(inst: &CvrpInstance) -> Vec<Vec<usize>> {
            savings(inst)
        }

        fn mutations(inst: &CvrpInstance, routes: &Vec<Vec<usize>>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.customers();
            let mut dup = routes.clone();
            dup[0].push(routes[0][0]);
            let mut missing = routes.clone();
            missing[0].remove(0);
            let all_in_one: Vec<usize> = (1..=n).collect();
            vec![
                (nested_text(&dup), ErrorKind::Duplicate),
                (nested_text(&missing), ErrorKind::MissingElement),
                (format!("[[{}]]", n + 1), ErrorKind::OutOfRange),
                (list_text(&all_in_one), ErrorKind::ConstraintViolation),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<Cvrp>(1000, 22);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<Cvrp>(3);
    }

    #[test]
    fn depot_separated_giant_tour_is_accepted() {
        let inst = CvrpInstance {
            capacity: 2,
            demands: vec![0, 1, 1, 1],
            distances: euclidean(&[(0, 0), (0, 1), (0, 2), (3, 0)]).distances,
        };
        let a = crate::task::check::<Cvrp>(&inst, "Answer: [0, 1, 2, 0, 3, 0]", true).result.ok();
        let b = crate::task::check::<Cvrp>(&inst, "Answer: [[1, 2], [3]]", true).result.ok();
        assert!(a.is_some());
        assert_eq!(a, b);
    }
}
