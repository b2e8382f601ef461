//! Hostile responses cost work linear in their length. The work is counted, not timed
//! (`referee_math::work`): every scanner, the lexer, the parser and the comparison count their
//! steps, so a scan that turned quadratic would count quadratically many. Each shape is judged
//! at two sizes four times apart; the larger may cost about four times the smaller, never
//! sixteen.

use proptest::prelude::*;
use referee_core::{Budget, Status};
use referee_math::{MathOptions, judge, work};

/// Pieces that hostile responses repeat: runs of backslashes, unclosed braces, boxes and
/// fractions, delimiters, digits, answer phrases.
const SHAPES: &[&str] = &[
    "\\",
    "\\frac{1}{",
    "\\frac{\\frac{1}{2}}{",
    "\\boxed{",
    "\\boxed{1} and ",
    "\\boxed{7",
    "{",
    "}",
    "{,}",
    "$",
    "$$",
    "$\\",
    "\\(",
    "\\[",
    "1",
    "1,000,",
    "1.1.",
    "1 and ",
    "$1$ and ",
    "answer ",
    "The final answer is ",
    "the answer is 60 divided by 2, which is ",
    "Answer: 1\n",
    "**1**",
    "*",
    ":",
    "<answer>",
    "<think></think>",
    "#### 1\n",
    "\\\\frac",
    "\\text{",
    "\n",
    " ",
    "-1",
    "\\frac{1}{2}",
    ",\\!",
    "[1, ",
    "½",
];

/// Extra steps allowed at any size: comparing two parsed answers is bounded by the caps in
/// `referee_math::limits`, not by the response's length.
const CONSTANT_WORK: u64 = 2_000_000;

fn repeated(piece: &str, bytes: usize) -> String {
    let mut s = piece.repeat(bytes / piece.len() + 1);
    while s.len() > bytes {
        s.pop();
    }
    s
}

fn cost(response: &str) -> u64 {
    let (judgement, steps) = work::counted(|| judge(response, "1", &MathOptions::default(), &Budget::unlimited()));
    assert_ne!(judgement.status, Status::InternalError);
    steps
}

/// The cost of `unit` repeated to `bytes` and to four times as many.
fn costs(unit: &str, bytes: usize) -> (u64, u64) {
    (cost(&repeated(unit, bytes)), cost(&repeated(unit, bytes * 4)))
}

#[test]
fn every_hostile_shape_costs_work_linear_in_its_length() {
    let mut failures = Vec::new();
    for piece in SHAPES {
        let (small, large) = costs(piece, 16_000);
        // Linear work grows fourfold; quadratic work would grow sixteenfold.
        if large > 5 * small + CONSTANT_WORK {
            failures.push(format!("{piece:?}: {small} steps at 16 KB, {large} at 64 KB"));
        }
        // And the counted work per byte stays small in absolute terms.
        if large > 100 * 64_000 + CONSTANT_WORK {
            failures.push(format!("{piece:?}: {large} steps at 64 KB"));
        }
    }
    assert!(failures.is_empty(), "superlinear shapes:\n{}", failures.join("\n"));
}

/// Units that mix the hostile pieces.
fn unit() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SHAPES), 1..4).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn mixed_hostile_units_cost_work_linear_in_their_length(unit in unit(), kb in 2usize..8) {
        let (small, large) = costs(&unit, kb * 1000);
        prop_assert!(large <= 5 * small + CONSTANT_WORK, "{unit:?}: {small} steps at {kb} KB, {large} at {} KB", kb * 4);
    }
}
