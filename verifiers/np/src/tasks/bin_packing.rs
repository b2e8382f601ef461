//! One-dimensional bin packing with the fewest bins.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::assign::{decode_groups, loads, random_cut, relabel};
use crate::tasks::nested_text;
use crate::violation::Violation;

const MAX_ITEMS: usize = 500;
/// Search nodes of the exact packing search.
const PACK_BUDGET: u64 = 1_000_000;

/// A bin-packing instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BinPackingInstance {
    /// Bin capacity.
    pub capacity: i64,
    /// Item sizes, labelled by position, each at most the capacity.
    pub sizes: Vec<i64>,
}

/// The bin-packing task.
#[derive(Debug)]
pub struct BinPacking;

/// ⌈Σ sizes / capacity⌉, a lower bound on the number of bins.
pub fn l1_bound(inst: &BinPackingInstance) -> usize {
    let total: i64 = inst.sizes.iter().sum();
    (total + inst.capacity - 1).div_euclid(inst.capacity).max(0) as usize
}

impl Problem for BinPacking {
    type Instance = BinPackingInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "bin_packing";
    const SUMMARY: &'static str = "Pack items into as few bins as possible without exceeding the capacity. Items are \
        cut from completely full bins, so the planted packing meets the ⌈Σ/C⌉ bound and is provably optimal.";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "the bins as lists of item indices, every item in exactly one bin, e.g. \
        `[[0, 4], [1, 2], [3]]`; one bin number per item (e.g. `[0, 1, 1, 2, 0]`) is also accepted.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "3 bins of capacity 20 cut into 8-10 items, planted optimal" },
        LevelSpec { level: 2, description: "4-5 bins of capacity 50, 14-20 items, planted optimal" },
        LevelSpec { level: 3, description: "6-8 bins of capacity 100, 24-36 items, planted optimal" },
        LevelSpec { level: 4, description: "12-16 bins of capacity 1000, 50-80 items, planted optimal" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (BinPackingInstance, Option<Vec<usize>>) {
        let (klo, khi, capacity, per_bin) = match level {
            1 => (3, 3, 20, (2, 4)),
            2 => (4, 5, 50, (3, 4)),
            3 => (6, 8, 100, (4, 5)),
            _ => (12, 16, 1000, (4, 5)),
        };
        let bins = rng.range_usize(klo, khi);
        let mut items: Vec<(i64, usize)> = Vec::new();
        for b in 0..bins {
            let pieces = rng.range_usize(per_bin.0, per_bin.1);
            items.extend(random_cut(capacity, pieces, rng).into_iter().map(|s| (s, b)));
        }
        rng.shuffle(&mut items);
        let sizes = items.iter().map(|i| i.0).collect();
        let planted = relabel(&items.iter().map(|i| i.1).collect::<Vec<_>>());
        (BinPackingInstance { capacity, sizes }, Some(planted))
    }

    fn validate(inst: &BinPackingInstance) -> Result<(), String> {
        if inst.sizes.is_empty() || inst.sizes.len() > MAX_ITEMS {
            return Err(format!("between 1 and {MAX_ITEMS} items"));
        }
        if !(1..=1_000_000_000).contains(&inst.capacity) || inst.sizes.iter().any(|&s| s < 1 || s > inst.capacity) {
            return Err("sizes must be within 1..=capacity".into());
        }
        Ok(())
    }

    fn prompt(inst: &BinPackingInstance) -> String {
        let lines: Vec<String> = inst.sizes.iter().enumerate().map(|(i, s)| format!("item {i}: size {s}")).collect();
        format!(
            "Bin packing. Every bin holds a total size of at most {}. There are {} items:\n{}\n\nPut every item into \
             exactly one bin without exceeding any bin's capacity, using as few bins as possible.",
            inst.capacity,
            inst.sizes.len(),
            lines.join("\n")
        )
    }

    fn decode(inst: &BinPackingInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        decode_groups(answer, inst.sizes.len(), inst.sizes.len(), "item")
    }

    fn objective(inst: &BinPackingInstance, bins: &Vec<usize>) -> Result<i64, Violation> {
        let load = loads(bins, &inst.sizes, inst.sizes.len());
        if let Some(b) = load.iter().position(|&l| l > inst.capacity) {
            let items: Vec<usize> = (0..bins.len()).filter(|&i| bins[i] == b).collect();
            return Err(Violation::constraint(
                format!("bin {b} holds {} > capacity {}", load[b], inst.capacity),
                json!({ "bin": b, "items": items, "load": load[b], "capacity": inst.capacity }),
            ));
        }
        Ok(load.iter().filter(|&&l| l > 0).count() as i64)
    }

    fn canonical(_: &BinPackingInstance, bins: &Vec<usize>) -> Value {
        json!(relabel(bins))
    }

    fn format(_: &BinPackingInstance, bins: &Vec<usize>) -> String {
        let labels = relabel(bins);
        let count = labels.iter().max().map_or(0, |m| m + 1);
        let groups: Vec<Vec<usize>> =
            (0..count).map(|b| (0..labels.len()).filter(|&i| labels[i] == b).collect()).collect();
        nested_text(&groups)
    }

    fn solve(inst: &BinPackingInstance, planted: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        let lower = l1_bound(inst);
        if let Some(p) = planted
            && BinPacking::objective(inst, p).is_ok_and(|k| k as usize <= lower)
        {
            return Solved { solution: relabel(p), kind: ReferenceKind::PlantedOptimal, bound: Some(lower as i64) };
        }
        let (bins, finished) = exact(inst, PACK_BUDGET);
        let used = bins.iter().max().map_or(0, |m| m + 1);
        let kind = if finished || used <= lower { ReferenceKind::Exact } else { ReferenceKind::Heuristic };
        Solved { solution: bins, kind, bound: Some(lower as i64) }
    }

    fn baseline(inst: &BinPackingInstance) -> Vec<usize> {
        next_fit(inst)
    }
}

/// Next fit in index order: open a new bin whenever the item does not fit the current one.
pub fn next_fit(inst: &BinPackingInstance) -> Vec<usize> {
    let (mut bin, mut load) = (0, 0);
    inst.sizes
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            if i > 0 && load + s > inst.capacity {
                bin += 1;
                load = 0;
            }
            load += s;
            bin
        })
        .collect()
}

/// First fit decreasing.
pub fn first_fit_decreasing(inst: &BinPackingInstance) -> Vec<usize> {
    let mut order: Vec<usize> = (0..inst.sizes.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(inst.sizes[i]), i));
    let mut load: Vec<i64> = Vec::new();
    let mut bins = vec![0; inst.sizes.len()];
    for i in order {
        let s = inst.sizes[i];
        let b = match load.iter().position(|&l| l + s <= inst.capacity) {
            Some(b) => b,
            None => {
                load.push(0);
                load.len() - 1
            }
        };
        load[b] += s;
        bins[i] = b;
    }
    bins
}

/// Exact branch and bound: items by decreasing size into an existing bin with room (bins of
/// equal load tried once) or one new bin, pruned by the L1 bound of what is left. Starts from
/// first fit decreasing; returns whether the search finished within `budget` nodes.
pub fn exact(inst: &BinPackingInstance, budget: u64) -> (Vec<usize>, bool) {
    let mut order: Vec<usize> = (0..inst.sizes.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(inst.sizes[i]), i));
    let best = first_fit_decreasing(inst);
    let best_count = best.iter().max().map_or(0, |m| m + 1);
    let lower = l1_bound(inst);
    let mut suffix = vec![0i64; order.len() + 1];
    for k in (0..order.len()).rev() {
        suffix[k] = suffix[k + 1] + inst.sizes[order[k]];
    }
    let mut s = PackSearch {
        inst,
        order,
        suffix,
        load: Vec::new(),
        assign: vec![0; inst.sizes.len()],
        best,
        best_count,
        lower,
        nodes: 0,
        budget,
    };
    if s.best_count > lower {
        s.go(0);
    }
    let finished = s.nodes <= budget;
    (relabel(&s.best), finished)
}

struct PackSearch<'a> {
    inst: &'a BinPackingInstance,
    order: Vec<usize>,
    suffix: Vec<i64>,
    load: Vec<i64>,
    assign: Vec<usize>,
    best: Vec<usize>,
    best_count: usize,
    lower: usize,
    nodes: u64,
    budget: u64,
}

impl PackSearch<'_> {
    fn go(&mut self, k: usize) {
        self.nodes += 1;
        if self.nodes > self.budget || self.best_count <= self.lower {
            return;
        }
        if k == self.order.len() {
            self.best_count = self.load.len();
            self.best.clone_from(&self.assign);
            return;
        }
        // Free space counts toward the remaining items; more bins are needed for the rest.
        let free: i64 = self.load.iter().map(|l| self.inst.capacity - l).sum();
        let extra = (self.suffix[k] - free).max(0);
        let need = self.load.len() + ((extra + self.inst.capacity - 1) / self.inst.capacity) as usize;
        if need >= self.best_count {
            return;
        }
        let item = self.order[k];
        let size = self.inst.sizes[item];
        let mut tried = Vec::new();
        for b in 0..self.load.len() {
            if self.load[b] + size <= self.inst.capacity && !tried.contains(&self.load[b]) {
                tried.push(self.load[b]);
                self.load[b] += size;
                self.assign[item] = b;
                self.go(k + 1);
                self.load[b] -= size;
            }
        }
        if self.load.len() + 1 < self.best_count {
            self.load.push(size);
            self.assign[item] = self.load.len() - 1;
            self.go(k + 1);
            self.load.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::list_text;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for BinPacking {
        fn tiny(rng: &mut Rng) -> BinPackingInstance {
            let n = rng.range_usize(1, 8);
            let capacity = rng.range(5, 20);
            BinPackingInstance { capacity, sizes: (0..n).map(|_| rng.range(1, capacity)).collect() }
        }

        fn brute_force(inst: &BinPackingInstance) -> i64 {
            fn go(inst: &BinPackingInstance, i: usize, labels: &mut Vec<usize>, used: usize, best: &mut usize) {
                if i == inst.sizes.len() {
                    if BinPacking::objective(inst, labels).is_ok() {
                        *best = (*best).min(used);
                    }
                    return;
                }
                for b in 0..=used {
                    labels.push(b);
                    go(inst, i + 1, labels, used.max(b + 1), best);
                    labels.pop();
                }
            }
            let mut best = usize::MAX;
            go(inst, 0, &mut Vec::new(), 0, &mut best);
            best as i64
        }

        fn exact(inst: &BinPackingInstance) -> Vec<usize> {
            exact(inst, u64::MAX).0
        }

        fn heuristic(inst: &BinPackingInstance) -> Vec<usize> {
            first_fit_decreasing(inst)
        }

        fn mutations(inst: &BinPackingInstance, bins: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.sizes.len();
            vec![
                (list_text(&vec![0; n]), ErrorKind::ConstraintViolation),
                (list_text(&bins[1..]), ErrorKind::WrongLength),
                (format!("[[0, 0], {}]", list_text(&(1..n).collect::<Vec<_>>())), ErrorKind::Duplicate),
                (
                    format!("[[{}]]", (1..n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")),
                    ErrorKind::MissingElement,
                ),
                (format!("[[{n}]]"), ErrorKind::OutOfRange),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<BinPacking>(1500, 11);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<BinPacking>(3);
    }
}
