//! 0/1 knapsack.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

/// Largest accepted instance.
const MAX_ITEMS: usize = 500;
/// Largest capacity the O(n·W) DP accepts; the generator stays well below.
const MAX_CAPACITY: i64 = 1_000_000;
/// Cap on items × capacity, bounding the DP's memory (one bit per cell) for inline instances.
const MAX_DP_CELLS: i64 = 50_000_000;

/// One item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// Weight, positive.
    pub weight: i64,
    /// Value, positive.
    pub value: i64,
}

/// A knapsack instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnapsackInstance {
    /// Capacity.
    pub capacity: i64,
    /// Items, labelled by position.
    pub items: Vec<Item>,
}

/// The 0/1 knapsack task.
#[derive(Debug)]
pub struct Knapsack;

impl Problem for Knapsack {
    type Instance = KnapsackInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "knapsack";
    const SUMMARY: &'static str = "Choose items of maximum total value whose total weight fits the capacity. \
        Exact dynamic-programming reference at every level.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str =
        "the list of chosen item indices, each at most once, e.g. `[0, 3, 5]` (`[]` for no item).";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-12 items, weights up to 30, exact" },
        LevelSpec { level: 2, description: "15-25 items, weights up to 100, exact" },
        LevelSpec { level: 3, description: "30-50 items, weights up to 300, exact" },
        LevelSpec { level: 4, description: "80-120 items, weights up to 1000, exact" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (KnapsackInstance, Option<Vec<usize>>) {
        let (lo, hi, wmax) = match level {
            1 => (8, 12, 30),
            2 => (15, 25, 100),
            3 => (30, 50, 300),
            _ => (80, 120, 1000),
        };
        let n = rng.range_usize(lo, hi);
        // Values correlated with weights make greedy-by-ratio a weak answer (harder instances).
        let items: Vec<Item> = (0..n)
            .map(|_| {
                let weight = rng.range(1, wmax);
                let value = (weight + rng.range(-wmax / 5, wmax / 5)).max(1);
                Item { weight, value }
            })
            .collect();
        let total: i64 = items.iter().map(|i| i.weight).sum();
        let capacity = (total * rng.range(30, 50) / 100).max(1);
        (KnapsackInstance { capacity, items }, None)
    }

    fn validate(inst: &KnapsackInstance) -> Result<(), String> {
        if inst.items.is_empty() || inst.items.len() > MAX_ITEMS {
            return Err(format!("between 1 and {MAX_ITEMS} items"));
        }
        if !(0..=MAX_CAPACITY).contains(&inst.capacity) {
            return Err(format!("capacity must be within 0..={MAX_CAPACITY}"));
        }
        // The DP keeps one bit per (item, capacity) pair for reconstruction.
        if inst.items.len() as i64 * (inst.capacity + 1) > MAX_DP_CELLS {
            return Err(format!("items x (capacity + 1) must be at most {MAX_DP_CELLS}"));
        }
        if inst.items.iter().any(|i| !(1..=MAX_CAPACITY).contains(&i.weight) || !(0..=1_000_000).contains(&i.value)) {
            return Err("weights must be within 1..=1e6 and values within 0..=1e6".into());
        }
        Ok(())
    }

    fn prompt(inst: &KnapsackInstance) -> String {
        let lines: Vec<String> = inst
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| format!("item {i}: weight {}, value {}", it.weight, it.value))
            .collect();
        format!(
            "0/1 knapsack problem. The knapsack holds a total weight of at most {}. There are {} items:\n{}\n\n\
             Choose a set of items (each at most once) whose total weight is at most {} and whose total value is as \
             large as possible.",
            inst.capacity,
            inst.items.len(),
            lines.join("\n"),
            inst.capacity
        )
    }

    fn decode(inst: &KnapsackInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, inst.items.len(), "item")
    }

    fn objective(inst: &KnapsackInstance, chosen: &Vec<usize>) -> Result<i64, Violation> {
        let (weight, value) =
            chosen.iter().fold((0, 0), |(w, v), &i| (w + inst.items[i].weight, v + inst.items[i].value));
        if weight > inst.capacity {
            return Err(Violation::constraint(
                format!("total weight {weight} exceeds the capacity {}", inst.capacity),
                json!({ "weight": weight, "capacity": inst.capacity }),
            ));
        }
        Ok(value)
    }

    fn canonical(_: &KnapsackInstance, chosen: &Vec<usize>) -> Value {
        let mut sorted = chosen.clone();
        sorted.sort_unstable();
        json!(sorted)
    }

    fn format(_: &KnapsackInstance, chosen: &Vec<usize>) -> String {
        list_text(chosen)
    }

    fn solve(inst: &KnapsackInstance, _: Option<&Self::Solution>) -> Solved<Vec<usize>> {
        Solved { solution: dp(inst), kind: ReferenceKind::Exact, bound: None }
    }

    fn baseline(inst: &KnapsackInstance) -> Vec<usize> {
        greedy(inst)
    }
}

/// Exact O(n·W) dynamic programme with a bit table for reconstruction.
pub fn dp(inst: &KnapsackInstance) -> Vec<usize> {
    let n = inst.items.len();
    let cap = inst.capacity.max(0) as usize;
    let mut best = vec![0i64; cap + 1];
    let words = (cap + 1).div_ceil(64);
    let mut take = vec![0u64; n * words];
    for (i, item) in inst.items.iter().enumerate() {
        let w = item.weight as usize;
        if w > cap {
            continue;
        }
        for c in (w..=cap).rev() {
            let cand = best[c - w] + item.value;
            if cand > best[c] {
                best[c] = cand;
                take[i * words + c / 64] |= 1 << (c % 64);
            }
        }
    }
    let mut chosen = Vec::new();
    let mut c = cap;
    for i in (0..n).rev() {
        if take[i * words + c / 64] & (1 << (c % 64)) != 0 {
            chosen.push(i);
            c -= inst.items[i].weight as usize;
        }
    }
    chosen.reverse();
    chosen
}

/// Greedy by value density, then the better of that and the single most valuable item that
/// fits (the classic 1/2-approximation).
pub fn greedy(inst: &KnapsackInstance) -> Vec<usize> {
    let mut order: Vec<usize> = (0..inst.items.len()).collect();
    // Compare value/weight ratios exactly by cross-multiplication.
    order.sort_by(|&a, &b| {
        let (x, y) = (&inst.items[a], &inst.items[b]);
        (y.value * x.weight).cmp(&(x.value * y.weight)).then(a.cmp(&b))
    });
    let mut chosen = Vec::new();
    let (mut weight, mut value) = (0, 0);
    for i in order {
        if weight + inst.items[i].weight <= inst.capacity {
            weight += inst.items[i].weight;
            value += inst.items[i].value;
            chosen.push(i);
        }
    }
    let single = (0..inst.items.len())
        .filter(|&i| inst.items[i].weight <= inst.capacity)
        .max_by_key(|&i| (inst.items[i].value, std::cmp::Reverse(i)));
    match single {
        Some(s) if inst.items[s].value > value => vec![s],
        _ => {
            chosen.sort_unstable();
            chosen
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for Knapsack {
        fn tiny(rng: &mut Rng) -> KnapsackInstance {
            let n = rng.range_usize(1, 10);
            let items = (0..n).map(|_| Item { weight: rng.range(1, 20), value: rng.range(0, 20) }).collect();
            KnapsackInstance { capacity: rng.range(0, 40), items }
        }

        fn brute_force(inst: &KnapsackInstance) -> i64 {
            let n = inst.items.len();
            (0u32..1 << n)
                .filter_map(|mask| {
                    let chosen: Vec<usize> = (0..n).filter(|&i| mask & (1 << i) != 0).collect();
                    Knapsack::objective(inst, &chosen).ok()
                })
                .max()
                .unwrap_or(0)
        }

        fn exact(inst: &KnapsackInstance) -> Vec<usize> {
            dp(inst)
        }

        fn heuristic(inst: &KnapsackInstance) -> Vec<usize> {
            greedy(inst)
        }

        fn mutations(inst: &KnapsackInstance, chosen: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.items.len();
            let mut out = vec![(list_text(&[n]), ErrorKind::OutOfRange), ("[-1]".into(), ErrorKind::OutOfRange)];
            if let Some(&first) = chosen.first() {
                let mut dup = chosen.clone();
                dup.push(first);
                out.push((list_text(&dup), ErrorKind::Duplicate));
            }
            let all: Vec<usize> = (0..n).collect();
            out.push((list_text(&all), ErrorKind::ConstraintViolation));
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<Knapsack>(2000, 2);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<Knapsack>(3);
    }
}
