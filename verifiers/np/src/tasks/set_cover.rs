//! Unweighted set cover.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::cover::{elements, greedy_cover, min_cover};
use crate::graph::bit;
use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

/// Largest universe (elements are bits of a `u128`).
const MAX_UNIVERSE: usize = 128;
const MAX_SETS: usize = 200;
const COVER_BUDGET: u64 = 2_000_000;

/// A set-cover instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetCoverInstance {
    /// Elements are `0..universe`.
    pub universe: usize,
    /// The available sets, labelled by position; their union is the universe.
    pub sets: Vec<Vec<usize>>,
}

impl SetCoverInstance {
    fn masks(&self) -> Vec<u128> {
        self.sets.iter().map(|s| s.iter().filter(|&&e| e < MAX_UNIVERSE).fold(0, |m, &e| m | bit(e))).collect()
    }

    fn all(&self) -> u128 {
        if self.universe >= MAX_UNIVERSE { u128::MAX } else { bit(self.universe) - 1 }
    }
}

/// The set-cover task.
#[derive(Debug)]
pub struct SetCover;

impl Problem for SetCover {
    type Instance = SetCoverInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "set_cover";
    const SUMMARY: &'static str = "Choose as few sets as possible whose union is the whole universe. Exact branch and \
        bound reference (heuristic with a counting bound if the search budget runs out).";
    const DIRECTION: Direction = Direction::Minimize;
    const ANSWER_FORMAT: &'static str = "the list of chosen set indices, each at most once, e.g. `[0, 3, 4]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "10-15 elements, 8-10 sets, exact" },
        LevelSpec { level: 2, description: "20-25 elements, 12-16 sets, exact" },
        LevelSpec { level: 3, description: "30-40 elements, 20-25 sets, exact" },
        LevelSpec { level: 4, description: "50-64 elements, 35-45 sets, exact within budget" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (SetCoverInstance, Option<Vec<usize>>) {
        let (ulo, uhi, mlo, mhi) = match level {
            1 => (10, 15, 8, 10),
            2 => (20, 25, 12, 16),
            3 => (30, 40, 20, 25),
            _ => (50, 64, 35, 45),
        };
        let universe = rng.range_usize(ulo, uhi);
        let m = rng.range_usize(mlo, mhi);
        let mut sets: Vec<Vec<usize>> = (0..m)
            .map(|_| {
                let size = rng.range_usize(2, (universe / 4).max(3));
                let mut s = rng.permutation(universe)[..size].to_vec();
                s.sort_unstable();
                s
            })
            .collect();
        for e in 0..universe {
            if !sets.iter().any(|s| s.contains(&e)) {
                let i = rng.index(m);
                sets[i].push(e);
                sets[i].sort_unstable();
            }
        }
        (SetCoverInstance { universe, sets }, None)
    }

    fn validate(inst: &SetCoverInstance) -> Result<(), String> {
        if inst.universe == 0 || inst.universe > MAX_UNIVERSE || inst.sets.is_empty() || inst.sets.len() > MAX_SETS {
            return Err(format!("1..={MAX_UNIVERSE} elements and 1..={MAX_SETS} sets"));
        }
        if inst.sets.iter().flatten().any(|&e| e >= inst.universe) {
            return Err("set elements must lie in 0..universe".into());
        }
        let union = inst.masks().into_iter().fold(0, |a, s| a | s);
        if union != inst.all() {
            return Err("the sets do not cover the universe".into());
        }
        Ok(())
    }

    fn prompt(inst: &SetCoverInstance) -> String {
        let lines: Vec<String> =
            inst.sets.iter().enumerate().map(|(i, s)| format!("set {i}: {}", list_text(s))).collect();
        format!(
            "Set cover. The universe is the elements 0 to {}. The available sets are:\n{}\n\nChoose as few sets as \
             possible so that every element of the universe is in at least one chosen set.",
            inst.universe - 1,
            lines.join("\n")
        )
    }

    fn decode(inst: &SetCoverInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, inst.sets.len(), "set")
    }

    fn objective(inst: &SetCoverInstance, chosen: &Vec<usize>) -> Result<i64, Violation> {
        let mut covered = vec![false; inst.universe];
        for &i in chosen {
            for &e in &inst.sets[i] {
                covered[e] = true;
            }
        }
        if let Some(e) = covered.iter().position(|&c| !c) {
            return Err(Violation::missing("element", e));
        }
        Ok(chosen.len() as i64)
    }

    fn canonical(_: &SetCoverInstance, chosen: &Vec<usize>) -> Value {
        let mut sorted = chosen.clone();
        sorted.sort_unstable();
        json!(sorted)
    }

    fn format(_: &SetCoverInstance, chosen: &Vec<usize>) -> String {
        list_text(chosen)
    }

    fn solve(inst: &SetCoverInstance, _: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        let masks = inst.masks();
        let Some((cover, finished)) = min_cover(inst.all(), &masks, COVER_BUDGET) else {
            return Solved { solution: (0..inst.sets.len()).collect(), kind: ReferenceKind::Heuristic, bound: None };
        };
        if finished {
            return Solved { solution: cover, kind: ReferenceKind::Exact, bound: None };
        }
        let largest = masks.iter().map(|m| m.count_ones()).max().unwrap_or(1).max(1);
        let bound = inst.universe.div_ceil(largest as usize) as i64;
        Solved { solution: cover, kind: ReferenceKind::Heuristic, bound: Some(bound) }
    }

    fn baseline(inst: &SetCoverInstance) -> Vec<usize> {
        // Sets in index order, each taken if it adds an uncovered element.
        let masks = inst.masks();
        let mut covered = 0u128;
        let mut chosen = Vec::new();
        for (i, &m) in masks.iter().enumerate() {
            if m & !covered != 0 {
                covered |= m;
                chosen.push(i);
            }
        }
        chosen
    }
}

/// Greedy cover for tests and benchmarks.
pub fn heuristic(inst: &SetCoverInstance) -> Vec<usize> {
    greedy_cover(inst.all(), &inst.masks())
}

/// Elements of set `i` (for witnesses in other tasks).
pub fn set_elements(mask: u128) -> Vec<usize> {
    elements(mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for SetCover {
        fn tiny(rng: &mut Rng) -> SetCoverInstance {
            let universe = rng.range_usize(1, 10);
            let m = rng.range_usize(1, 10);
            let mut sets: Vec<Vec<usize>> =
                (0..m).map(|_| (0..universe).filter(|_| rng.chance(0.3)).collect()).collect();
            for e in 0..universe {
                if !sets.iter().any(|s| s.contains(&e)) {
                    let i = rng.index(m);
                    sets[i].push(e);
                }
            }
            SetCoverInstance { universe, sets }
        }

        fn brute_force(inst: &SetCoverInstance) -> i64 {
            let m = inst.sets.len();
            (0u32..1 << m)
                .filter_map(|mask| SetCover::objective(inst, &(0..m).filter(|&i| mask >> i & 1 == 1).collect()).ok())
                .min()
                .unwrap_or(i64::MAX)
        }

        fn exact(inst: &SetCoverInstance) -> Vec<usize> {
            min_cover(inst.all(), &inst.masks(), u64::MAX).map(|c| c.0).unwrap_or_default()
        }

        fn heuristic(inst: &SetCoverInstance) -> Vec<usize> {
            heuristic(inst)
        }

        fn mutations(inst: &SetCoverInstance, chosen: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut dup = chosen.clone();
            dup.push(chosen[0]);
            vec![
                (list_text(&dup), ErrorKind::Duplicate),
                (list_text(&[inst.sets.len()]), ErrorKind::OutOfRange),
                // A minimum cover has no redundant set, so dropping one uncovers an element.
                (list_text(&chosen[1..]), ErrorKind::MissingElement),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<SetCover>(1500, 13);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<SetCover>(3);
    }
}
