//! Subset sum with a target, maximising the number of numbers used (NP-Engine's variant).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, distinct_indices};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;

const MAX_NUMBERS: usize = 200;
const MAX_TARGET: i64 = 200_000;
/// Cap on the DP table (two bytes per cell) for inline instances.
const MAX_DP_CELLS: i64 = 20_000_000;

/// A subset-sum instance with a planted solution (so one always exists).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubsetSumInstance {
    /// Positive numbers, labelled by position.
    pub numbers: Vec<i64>,
    /// The sum to hit exactly.
    pub target: i64,
}

/// The subset-sum task: hit the target exactly with as many numbers as possible.
#[derive(Debug)]
pub struct SubsetSum;

impl Problem for SubsetSum {
    type Instance = SubsetSumInstance;
    type Solution = Vec<usize>;
    const NAME: &'static str = "subset_sum";
    const SUMMARY: &'static str = "Pick numbers (by index, each at most once) summing exactly to the target, using as \
        many numbers as possible. Exact DP reference; any exact-sum subset is feasible.";
    const DIRECTION: Direction = Direction::Maximize;
    const ANSWER_FORMAT: &'static str = "the list of chosen indices (positions in the list, starting at 0), each at most \
        once, e.g. `[1, 4, 6]`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-10 numbers up to 50, exact" },
        LevelSpec { level: 2, description: "12-16 numbers up to 200, exact" },
        LevelSpec { level: 3, description: "20-30 numbers up to 1000, exact" },
        LevelSpec { level: 4, description: "40-60 numbers up to 3000, exact" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (SubsetSumInstance, Option<Vec<usize>>) {
        let (lo, hi, vmax) = match level {
            1 => (8, 10, 50),
            2 => (12, 16, 200),
            3 => (20, 30, 1000),
            _ => (40, 60, 3000),
        };
        let n = rng.range_usize(lo, hi);
        let numbers: Vec<i64> = (0..n).map(|_| rng.range(1, vmax)).collect();
        let planted = rng.range_usize(2, (n / 2).max(2));
        let picks = rng.permutation(n);
        let target = picks[..planted].iter().map(|&i| numbers[i]).sum();
        let mut planted_set = picks[..planted].to_vec();
        planted_set.sort_unstable();
        (SubsetSumInstance { numbers, target }, Some(planted_set))
    }

    fn validate(inst: &SubsetSumInstance) -> Result<(), String> {
        if inst.numbers.is_empty() || inst.numbers.len() > MAX_NUMBERS {
            return Err(format!("between 1 and {MAX_NUMBERS} numbers"));
        }
        if !(1..=MAX_TARGET).contains(&inst.target) || inst.numbers.iter().any(|&x| !(1..=MAX_TARGET).contains(&x)) {
            return Err(format!("target and numbers must be within 1..={MAX_TARGET}"));
        }
        if (inst.numbers.len() as i64 + 1) * (inst.target + 1) > MAX_DP_CELLS {
            return Err(format!("(numbers + 1) x (target + 1) must be at most {MAX_DP_CELLS}"));
        }
        if max_cardinality(inst).is_none() {
            return Err("no subset reaches the target".into());
        }
        Ok(())
    }

    fn prompt(inst: &SubsetSumInstance) -> String {
        let lines: Vec<String> = inst.numbers.iter().enumerate().map(|(i, x)| format!("index {i}: {x}")).collect();
        format!(
            "Subset sum. Here are {} numbers:\n{}\n\nChoose numbers (each index at most once) whose sum is exactly {}. \
             Among such choices, use as many numbers as possible.",
            inst.numbers.len(),
            lines.join("\n"),
            inst.target
        )
    }

    fn decode(inst: &SubsetSumInstance, answer: &Node) -> Result<Vec<usize>, Violation> {
        distinct_indices(&answer.ints()?, inst.numbers.len(), "index")
    }

    fn objective(inst: &SubsetSumInstance, chosen: &Vec<usize>) -> Result<i64, Violation> {
        let sum: i64 = chosen.iter().map(|&i| inst.numbers[i]).sum();
        if sum != inst.target {
            return Err(Violation::constraint(
                format!("the chosen numbers sum to {sum}, not {}", inst.target),
                json!({ "sum": sum, "target": inst.target }),
            ));
        }
        Ok(chosen.len() as i64)
    }

    fn canonical(_: &SubsetSumInstance, chosen: &Vec<usize>) -> Value {
        let mut sorted = chosen.clone();
        sorted.sort_unstable();
        json!(sorted)
    }

    fn format(_: &SubsetSumInstance, chosen: &Vec<usize>) -> String {
        list_text(chosen)
    }

    fn solve(inst: &SubsetSumInstance, _: Option<&Self::Solution>) -> Solved<Vec<usize>> {
        let (most, _) = max_cardinality(inst).unwrap_or_default();
        Solved { solution: most, kind: ReferenceKind::Exact, bound: None }
    }

    fn baseline(inst: &SubsetSumInstance) -> Vec<usize> {
        // The fewest numbers that hit the target: any feasible answer is at least this good.
        max_cardinality(inst).map(|(_, fewest)| fewest).unwrap_or_default()
    }
}

/// Exact DP over sums: the most and the fewest numbers reaching the target, or `None` when no
/// subset does. `most[i][s]` is the largest count using items `0..i` summing to `s`.
pub fn max_cardinality(inst: &SubsetSumInstance) -> Option<(Vec<usize>, Vec<usize>)> {
    let t = usize::try_from(inst.target).ok()?;
    let n = inst.numbers.len();
    // Counts never exceed the 200 numbers an instance may have, so a byte per cell suffices.
    const NONE: u8 = u8::MAX;
    let mut most = vec![NONE; (n + 1) * (t + 1)];
    let mut fewest = vec![NONE; (n + 1) * (t + 1)];
    most[0] = 0;
    fewest[0] = 0;
    for i in 0..n {
        let x = usize::try_from(inst.numbers[i]).ok()?;
        let (prev, next) = (i * (t + 1), (i + 1) * (t + 1));
        for s in 0..=t {
            most[next + s] = most[prev + s];
            fewest[next + s] = fewest[prev + s];
            if s >= x && most[prev + s - x] != NONE {
                let with = most[prev + s - x] + 1;
                if most[next + s] == NONE || with > most[next + s] {
                    most[next + s] = with;
                }
                fewest[next + s] = fewest[next + s].min(fewest[prev + s - x] + 1);
            }
        }
    }
    if most[n * (t + 1) + t] == NONE {
        return None;
    }
    let walk = |table: &[u8]| {
        let mut chosen = Vec::new();
        let mut s = t;
        for i in (0..n).rev() {
            let here = table[(i + 1) * (t + 1) + s];
            if here != table[i * (t + 1) + s] {
                chosen.push(i);
                s -= inst.numbers[i] as usize;
            }
        }
        chosen.reverse();
        chosen
    };
    Some((walk(&most), walk(&fewest)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for SubsetSum {
        fn tiny(rng: &mut Rng) -> SubsetSumInstance {
            loop {
                let n = rng.range_usize(1, 10);
                let numbers: Vec<i64> = (0..n).map(|_| rng.range(1, 12)).collect();
                let inst = SubsetSumInstance { numbers, target: rng.range(1, 30) };
                if max_cardinality(&inst).is_some() {
                    return inst;
                }
            }
        }

        fn brute_force(inst: &SubsetSumInstance) -> i64 {
            let n = inst.numbers.len();
            (0u32..1 << n)
                .filter(|mask| {
                    (0..n).filter(|&i| mask & (1 << i) != 0).map(|i| inst.numbers[i]).sum::<i64>() == inst.target
                })
                .map(|mask| i64::from(mask.count_ones()))
                .max()
                .unwrap_or(-1)
        }

        fn exact(inst: &SubsetSumInstance) -> Vec<usize> {
            SubsetSum::solve(inst, None).solution
        }

        fn heuristic(inst: &SubsetSumInstance) -> Vec<usize> {
            SubsetSum::baseline(inst)
        }

        fn mutations(inst: &SubsetSumInstance, chosen: &Vec<usize>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let mut out = vec![(list_text(&[inst.numbers.len()]), ErrorKind::OutOfRange)];
            // The NP-Engine exploit: one index repeated to pad the count.
            out.push((list_text(&vec![chosen[0]; chosen.len() + 2]), ErrorKind::Duplicate));
            out.push((list_text(&chosen[1..]), ErrorKind::ConstraintViolation));
            out
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<SubsetSum>(2000, 3);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<SubsetSum>(3);
    }
}
