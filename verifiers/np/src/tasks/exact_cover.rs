//! Exact cover: disjoint sets covering every element exactly once (a decision task).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::cover::exact_cover;
use crate::graph::bit;
use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

const MAX_UNIVERSE: usize = 128;
const MAX_SETS: usize = 300;
const SEARCH_BUDGET: u64 = 2_000_000;

/// An exact-cover instance (sets of three elements, X3C-style, when generated).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactCoverInstance {
    /// Elements are `0..universe`.
    pub universe: usize,
    /// The available sets, labelled by position.
    pub sets: Vec<Vec<usize>>,
}

impl ExactCoverInstance {
    fn masks(&self) -> Vec<u128> {
        self.sets.iter().map(|s| s.iter().filter(|&&e| e < MAX_UNIVERSE).fold(0, |m, &e| m | bit(e))).collect()
    }

    fn all(&self) -> u128 {
        if self.universe >= MAX_UNIVERSE { u128::MAX } else { bit(self.universe) - 1 }
    }
}

/// The exact cover task.
#[derive(Debug)]
pub struct ExactCover;

impl Problem for ExactCover {
    type Instance = ExactCoverInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "exact_cover";
    const SUMMARY: &'static str = "Choose sets that cover every element exactly once (no overlaps, nothing missing). \
        A decision task: a planted cover guarantees a solution and every exact cover scores as optimal (objective = \
        number of elements covered). Algorithm X checks instances given inline.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the list of chosen set indices, each at most once, e.g. `[1, 4, 7]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "9-12 elements, triples, 4-8 distractor sets, planted" },
        LevelSpec { level: 2, description: "15-21 elements, 10-15 distractors, planted" },
        LevelSpec { level: 3, description: "30-36 elements, 25-35 distractors, planted" },
        LevelSpec { level: 4, description: "45-60 elements, 50-80 distractors, planted" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (ExactCoverInstance, Option<Vec<usize>>) {
        let (tlo, thi, dlo, dhi) = match level {
            1 => (3, 4, 4, 8),
            2 => (5, 7, 10, 15),
            3 => (10, 12, 25, 35),
            _ => (15, 20, 50, 80),
        };
        let triples = rng.range_usize(tlo, thi);
        let universe = 3 * triples;
        let order = rng.permutation(universe);
        let mut sets: Vec<(Vec<usize>, bool)> = order
            .chunks(3)
            .map(|c| {
                let mut s = c.to_vec();
                s.sort_unstable();
                (s, true)
            })
            .collect();
        for _ in 0..rng.range_usize(dlo, dhi) {
            let mut s = rng.permutation(universe)[..3].to_vec();
            s.sort_unstable();
            sets.push((s, false));
        }
        rng.shuffle(&mut sets);
        let planted = (0..sets.len()).filter(|&i| sets[i].1).collect();
        (ExactCoverInstance { universe, sets: sets.into_iter().map(|s| s.0).collect() }, Some(planted))
    }

    fn validate(inst: &ExactCoverInstance) -> Result<(), String> {
        if inst.universe == 0 || inst.universe > MAX_UNIVERSE || inst.sets.is_empty() || inst.sets.len() > MAX_SETS {
            return Err(format!("1..={MAX_UNIVERSE} elements and 1..={MAX_SETS} sets"));
        }
        if inst.sets.iter().any(|s| {
            s.iter().any(|&e| e >= inst.universe) || s.iter().collect::<std::collections::HashSet<_>>().len() != s.len()
        }) {
            return Err("set elements must be distinct and lie in 0..universe".into());
        }
        match exact_cover(inst.all(), &inst.masks(), SEARCH_BUDGET) {
            (Some(_), _) => Ok(()),
            (None, true) => Err("the instance has no exact cover".into()),
            (None, false) => Err("no exact cover found within the search budget".into()),
        }
    }

    fn prompt(inst: &ExactCoverInstance) -> String {
        let lines: Vec<String> =
            inst.sets.iter().enumerate().map(|(i, s)| format!("set {i}: {}", list_text(s))).collect();
        format!(
            "Exact cover. The elements are 0 to {}. The available sets are:\n{}\n\nChoose sets so that every element is \
             in exactly one chosen set (chosen sets must not overlap, and no element may be left out).",
            inst.universe - 1,
            lines.join("\n")
        )
    }

    fn decode(inst: &ExactCoverInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, inst.sets.len(), "set")
    }

    fn objective(inst: &ExactCoverInstance, chosen: &Vec<usize>) -> Result<i64, Violation> {
        let mut owner = vec![usize::MAX; inst.universe];
        for &i in chosen {
            for &e in &inst.sets[i] {
                if owner[e] != usize::MAX {
                    return Err(Violation::constraint(
                        format!("element {e} is in both set {} and set {i}", owner[e]),
                        json!({ "element": e, "sets": [owner[e], i] }),
                    ));
                }
                owner[e] = i;
            }
        }
        if let Some(e) = owner.iter().position(|&o| o == usize::MAX) {
            return Err(Violation::missing("element", e));
        }
        Ok(inst.universe as i64)
    }

    fn canonical(_: &ExactCoverInstance, chosen: &Vec<usize>) -> Value {
        let mut sorted = chosen.clone();
        sorted.sort_unstable();
        json!(sorted)
    }

    fn format(_: &ExactCoverInstance, chosen: &Vec<usize>) -> String {
        list_text(chosen)
    }

    fn solve(inst: &ExactCoverInstance, planted: Option<&Vec<usize>>) -> Solved<Vec<usize>> {
        if let Some(p) = planted
            && ExactCover::objective(inst, p).is_ok()
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        match exact_cover(inst.all(), &inst.masks(), SEARCH_BUDGET).0 {
            Some(cover) => Solved { solution: cover, kind: ReferenceKind::Exact, bound: None },
            None => Solved { solution: Vec::new(), kind: ReferenceKind::Heuristic, bound: None },
        }
    }

    fn baseline(inst: &ExactCoverInstance) -> Vec<usize> {
        // Any exact cover is optimal, so the baseline is one too (the reward is effectively binary).
        exact_cover(inst.all(), &inst.masks(), SEARCH_BUDGET).0.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    fn brute_exists(inst: &ExactCoverInstance) -> bool {
        let m = inst.sets.len();
        (0u32..1 << m)
            .any(|mask| ExactCover::objective(inst, &(0..m).filter(|&i| mask >> i & 1 == 1).collect()).is_ok())
    }

    fn random_instance(rng: &mut Rng) -> ExactCoverInstance {
        let universe = rng.range_usize(1, 8);
        let m = rng.range_usize(1, 10);
        let sets = (0..m)
            .map(|_| {
                let k = rng.range_usize(1, universe.min(3));
                let mut s = rng.permutation(universe)[..k].to_vec();
                s.sort_unstable();
                s
            })
            .collect();
        ExactCoverInstance { universe, sets }
    }

    impl Testable for ExactCover {
        fn tiny(rng: &mut Rng) -> ExactCoverInstance {
            loop {
                let inst = random_instance(rng);
                if brute_exists(&inst) {
                    return inst;
                }
            }
        }

        fn brute_force(inst: &ExactCoverInstance) -> i64 {
            if brute_exists(inst) { inst.universe as i64 } else { 0 }
        }

        fn exact(inst: &ExactCoverInstance) -> Vec<usize> {
            exact_cover(inst.all(), &inst.masks(), u64::MAX).0.unwrap_or_default()
        }

        fn heuristic(inst: &ExactCoverInstance) -> Vec<usize> {
            ExactCover::exact(inst)
        }

        fn mutations(inst: &ExactCoverInstance, chosen: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut dup = chosen.clone();
            dup.push(chosen[0]);
            let mut out = vec![
                (list_text(&dup), ErrorKind::Duplicate),
                (list_text(&[inst.sets.len()]), ErrorKind::OutOfRange),
                (list_text(&chosen[1..]), ErrorKind::MissingElement),
            ];
            if let Some(extra) = (0..inst.sets.len()).find(|i| !chosen.contains(i)) {
                let mut overlapping = chosen.clone();
                overlapping.push(extra);
                out.push((list_text(&overlapping), ErrorKind::ConstraintViolation));
            }
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<ExactCover>(1500, 15);
        // Existence, including instances without any exact cover.
        let mut rng = Rng::from_seed(16);
        for _ in 0..2000 {
            let inst = random_instance(&mut rng);
            let (found, finished) = exact_cover(inst.all(), &inst.masks(), u64::MAX);
            assert!(finished);
            assert_eq!(found.is_some(), brute_exists(&inst), "{inst:?}");
        }
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<ExactCover>(3);
    }
}
