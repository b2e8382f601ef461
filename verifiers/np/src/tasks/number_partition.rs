//! Number partitioning: split numbers into two sides with sums as equal as possible.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::Node;
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::tasks::list_text;
use crate::violation::Violation;
use crate::weighted::{canonical_sides, decode_sides};

const MAX_NUMBERS: usize = 200;
/// Cap on the total, which bounds the subset-sum DP.
const MAX_TOTAL: i64 = 2_000_000;
/// Cap on the DP's bits (prefixes × half-sums) for inline instances.
const MAX_DP_BITS: i64 = 200_000_000;

/// A number-partitioning instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionInstance {
    /// Positive numbers, labelled by position.
    pub numbers: Vec<i64>,
}

/// The number-partitioning task.
#[derive(Debug)]
pub struct NumberPartition;

fn difference(inst: &PartitionInstance, sides: &[u8]) -> i64 {
    let (mut a, mut b) = (0, 0);
    for (x, &s) in inst.numbers.iter().zip(sides) {
        if s == 0 { a += x } else { b += x }
    }
    (a - b).abs()
}

impl Problem for NumberPartition {
    type Instance = PartitionInstance;
    type Solution = Vec<u8>;
    const NAME: &'static str = "number_partition";
    const SUMMARY: &'static str = "Split the numbers into two groups whose sums differ as little as possible. Exact \
        subset-sum DP reference; reward ratio (d*+1)/(d+1).";
    const DIRECTION: Direction = Direction::MinimizeShifted;
    const ANSWER_FORMAT: &'static str = "one side (0 or 1) per number in input order, e.g. `[0, 1, 1, 0]`; two index \
        lists such as `[[0, 3], [1, 2]]` are also accepted.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "8-10 numbers up to 100, exact" },
        LevelSpec { level: 2, description: "12-16 numbers up to 1000, exact" },
        LevelSpec { level: 3, description: "20-30 numbers up to 10000, exact" },
        LevelSpec { level: 4, description: "40-60 numbers up to 20000, exact" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (PartitionInstance, Option<Vec<u8>>) {
        let (lo, hi, vmax) = match level {
            1 => (8, 10, 100),
            2 => (12, 16, 1000),
            3 => (20, 30, 10_000),
            _ => (40, 60, 20_000),
        };
        let n = rng.range_usize(lo, hi);
        (PartitionInstance { numbers: (0..n).map(|_| rng.range(1, vmax)).collect() }, None)
    }

    fn validate(inst: &PartitionInstance) -> Result<(), String> {
        if inst.numbers.len() < 2 || inst.numbers.len() > MAX_NUMBERS {
            return Err(format!("between 2 and {MAX_NUMBERS} numbers"));
        }
        let total: i64 = inst.numbers.iter().sum();
        if inst.numbers.iter().any(|&x| x < 1) || total > MAX_TOTAL {
            return Err(format!("numbers must be positive with a total of at most {MAX_TOTAL}"));
        }
        // The DP keeps one bitset of reachable half-sums per prefix.
        if (inst.numbers.len() as i64 + 1) * (total / 2 + 1) > MAX_DP_BITS {
            return Err(format!("(numbers + 1) x (total / 2 + 1) must be at most {MAX_DP_BITS}"));
        }
        Ok(())
    }

    fn prompt(inst: &PartitionInstance) -> String {
        format!(
            "Number partitioning. Split these {} numbers (listed in order, positions 0 to {}) into two groups so that the \
             two group sums are as close as possible:\n{}",
            inst.numbers.len(),
            inst.numbers.len() - 1,
            list_text(&inst.numbers)
        )
    }

    fn decode(inst: &PartitionInstance, answer: &Node) -> Result<Vec<u8>, Violation> {
        decode_sides(answer, inst.numbers.len(), "position")
    }

    fn objective(inst: &PartitionInstance, sides: &Vec<u8>) -> Result<i64, Violation> {
        Ok(difference(inst, sides))
    }

    fn canonical(_: &PartitionInstance, sides: &Vec<u8>) -> Value {
        json!(canonical_sides(sides))
    }

    fn format(_: &PartitionInstance, sides: &Vec<u8>) -> String {
        list_text(sides)
    }

    fn solve(inst: &PartitionInstance, _: Option<&Vec<u8>>) -> Solved<Vec<u8>> {
        Solved { solution: exact(inst), kind: ReferenceKind::Exact, bound: None }
    }

    fn baseline(inst: &PartitionInstance) -> Vec<u8> {
        greedy(inst)
    }
}

/// Exact: the reachable subset sums up to half the total, one bitset per prefix for
/// reconstruction; side 1 gets the subset with the largest sum not above half.
pub fn exact(inst: &PartitionInstance) -> Vec<u8> {
    let n = inst.numbers.len();
    let total: i64 = inst.numbers.iter().sum();
    let half = (total / 2) as usize;
    let words = half / 64 + 1;
    let mut reach = vec![0u64; (n + 1) * words];
    reach[0] = 1;
    for i in 0..n {
        let x = inst.numbers[i] as usize;
        let (before, after) = reach.split_at_mut((i + 1) * words);
        let prev = &before[i * words..];
        let next = &mut after[..words];
        next.copy_from_slice(prev);
        // next |= prev << x, word by word.
        let (shift_words, shift_bits) = (x / 64, x % 64);
        for w in (shift_words..words).rev() {
            let src = w - shift_words;
            let mut v = prev[src] << shift_bits;
            if shift_bits > 0 && src > 0 {
                v |= prev[src - 1] >> (64 - shift_bits);
            }
            next[w] |= v;
        }
        // Sums above `half` are not tracked.
        let extra = words * 64 - (half + 1);
        if extra > 0 {
            next[words - 1] &= u64::MAX >> extra;
        }
    }
    let has = |i: usize, s: usize| reach[i * words + s / 64] >> (s % 64) & 1 == 1;
    let mut s = (0..=half).rev().find(|&s| has(n, s)).unwrap_or(0);
    let mut sides = vec![0u8; n];
    for i in (0..n).rev() {
        if !has(i, s) {
            sides[i] = 1;
            s -= inst.numbers[i] as usize;
        }
    }
    sides
}

/// Greedy: largest number first onto the lighter side.
pub fn greedy(inst: &PartitionInstance) -> Vec<u8> {
    let mut order: Vec<usize> = (0..inst.numbers.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(inst.numbers[i]), i));
    let (mut a, mut b) = (0, 0);
    let mut sides = vec![0u8; inst.numbers.len()];
    for i in order {
        if a <= b {
            a += inst.numbers[i];
        } else {
            b += inst.numbers[i];
            sides[i] = 1;
        }
    }
    sides
}

/// Karmarkar-Karp largest differencing, with the two groups tracked through each merge.
pub fn karmarkar_karp(inst: &PartitionInstance) -> Vec<u8> {
    // Each entry: (difference, heavier group, lighter group).
    let mut heap: Vec<(i64, Vec<usize>, Vec<usize>)> =
        inst.numbers.iter().enumerate().map(|(i, &x)| (x, vec![i], vec![])).collect();
    while heap.len() > 1 {
        heap.sort_by_key(|e| e.0);
        let (Some((a, mut a1, mut a2)), Some((b, b1, b2))) = (heap.pop(), heap.pop()) else {
            break;
        };
        // Put b's heavy group with a's light group: difference a - b.
        a1.extend(b2);
        a2.extend(b1);
        heap.push((a - b, a1, a2));
    }
    let mut sides = vec![0u8; inst.numbers.len()];
    if let Some((_, _, light)) = heap.pop() {
        for i in light {
            sides[i] = 1;
        }
    }
    sides
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};
    use crate::violation::ErrorKind;

    impl Testable for NumberPartition {
        fn tiny(rng: &mut Rng) -> PartitionInstance {
            let n = rng.range_usize(2, 12);
            let vmax = if rng.chance(0.5) { 10 } else { 1000 };
            PartitionInstance { numbers: (0..n).map(|_| rng.range(1, vmax)).collect() }
        }

        fn brute_force(inst: &PartitionInstance) -> i64 {
            let n = inst.numbers.len();
            (0u32..1 << n)
                .map(|mask| difference(inst, &(0..n).map(|i| (mask >> i & 1) as u8).collect::<Vec<u8>>()))
                .min()
                .unwrap_or(0)
        }

        fn exact(inst: &PartitionInstance) -> Vec<u8> {
            exact(inst)
        }

        fn heuristic(inst: &PartitionInstance) -> Vec<u8> {
            karmarkar_karp(inst)
        }

        fn mutations(inst: &PartitionInstance, sides: &Vec<u8>, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let n = inst.numbers.len();
            let mut two = sides.clone();
            two[0] = 2;
            let group = |s: u8| (0..n).filter(|&i| sides[i] == s).collect::<Vec<usize>>();
            let (g0, g1) = (group(0), group(1));
            let mut overlapping = g1.clone();
            overlapping.push(g0[0]);
            vec![
                (list_text(&two), ErrorKind::OutOfRange),
                (list_text(&sides[1..]), ErrorKind::WrongLength),
                (format!("[{}, {}]", list_text(&g0), list_text(&overlapping)), ErrorKind::Duplicate),
                (format!("[{}, {}]", list_text(&g0[1..]), list_text(&g1)), ErrorKind::MissingElement),
                (format!("[{}, {}, [{n}]]", list_text(&g0), list_text(&g1)), ErrorKind::WrongLength),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<NumberPartition>(1500, 4);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<NumberPartition>(3);
    }

    #[test]
    fn group_lists_and_side_vectors_agree() {
        let inst = PartitionInstance { numbers: vec![3, 1, 1, 2, 2, 1] };
        let a = crate::task::check::<NumberPartition>(&inst, "Answer: [[0, 3], [1, 2, 4, 5]]", true);
        let b = crate::task::check::<NumberPartition>(&inst, "Answer: [0, 1, 1, 0, 1, 1]", true);
        assert_eq!(a.result.ok(), b.result.ok());
    }
}
