//! Properties on generated input: judging never panics and its counted work stays bounded on
//! arbitrary text, and an expression is equivalent to itself written another way.

use proptest::prelude::*;
use referee_core::Budget;
use referee_math::extract::{Side, extract};
use referee_math::parser::parse;
use referee_math::{ExtractionMode, MathOptions, judge, work};

/// Pieces of LaTeX and plain math that hostile or broken answers are made of.
const PIECES: &[&str] = &[
    "\\frac",
    "\\dfrac",
    "{",
    "}",
    "^",
    "_",
    "(",
    ")",
    "[",
    "]",
    "\\{",
    "\\}",
    "\\sqrt",
    "\\sqrt[3]",
    "2",
    "10",
    "0",
    "x",
    "y",
    "e",
    "i",
    "\\pi",
    ",",
    ";",
    "=",
    "<",
    "\\le",
    "\\in",
    "\\cup",
    "\\boxed{",
    "$",
    "$$",
    "\\(",
    "\\)",
    "\\left(",
    "\\right)",
    "\\pm",
    "&",
    "\\\\",
    "\\begin{pmatrix}",
    "\\end{pmatrix}",
    "%",
    "\\%",
    "!",
    ".",
    "-",
    "+",
    "*",
    "/",
    "\\cdot",
    "\\text{",
    " and ",
    " or ",
    "\\infty",
    "\\sin",
    "\\log_",
    "|",
    ":",
    "\\overline{",
    "0.",
    "1,000",
    "</think>",
    "<answer>",
    "**",
    "\n",
    " ",
    "9^{9^{9^{9}}}",
    "\\sum_{k=1}^{n}",
    "f(",
    "\\ldots",
    "°",
    "√",
    "½",
    " the answer is ",
    "Final answer: ",
    ", which is ",
    " = ",
    "^{\\text{th}}",
    "?",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..80).prop_map(|v| v.concat())
}

/// A random expression rendered twice: as LaTeX and as plain text.
fn expression() -> impl Strategy<Value = (String, String)> {
    let leaf = prop_oneof![
        (1u32..60).prop_map(|n| (n.to_string(), n.to_string())),
        prop::sample::select(vec!["x", "y"]).prop_map(|v| (v.to_owned(), v.to_owned())),
        Just(("\\pi".to_owned(), "pi".to_owned())),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone())
                .prop_map(|((a, pa), (b, pb))| (format!("{a}+{b}"), format!("({pa})+({pb})"))),
            (inner.clone(), inner.clone())
                .prop_map(|((a, pa), (b, pb))| (format!("({a})-({b})"), format!("({pa})-({pb})"))),
            (inner.clone(), inner.clone())
                .prop_map(|((a, pa), (b, pb))| (format!("({a})\\cdot({b})"), format!("({pa})*({pb})"))),
            (inner.clone(), 1u32..9).prop_map(|((a, pa), d)| (format!("\\frac{{{a}}}{{{d}}}"), format!("({pa})/{d}"))),
            (inner.clone(), 0u32..4)
                .prop_map(|((a, pa), n)| (format!("\\left({a}\\right)^{{{n}}}"), format!("({pa})^{n}"))),
            inner.prop_map(|(a, pa)| (format!("\\sqrt{{{a}}}"), format!("sqrt({pa})"))),
        ]
    })
}

/// Most steps of work (`referee_math::work`) one short pair may count: well above what any
/// generated pair takes, far below what a superlinear scan or an unbounded comparison would.
const MAX_STEPS: u64 = 1_000_000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics_and_finishes(reference in ".{0,200}", response in ".{0,400}") {
        let (_, steps) = work::counted(|| judge(&response, &reference, &MathOptions::default(), &Budget::unlimited()));
        prop_assert!(steps < MAX_STEPS, "{reference:?} vs {response:?} took {steps} steps");
    }

    #[test]
    fn latex_soup_never_panics_and_finishes(reference in soup(), response in soup()) {
        let (_, steps) = work::counted(|| {
            let _ = parse(&reference, false);
            let _ = extract(&response, ExtractionMode::Auto, true, Side::Response);
            judge(&response, &reference, &MathOptions::default(), &Budget::unlimited())
        });
        prop_assert!(steps < MAX_STEPS, "{reference:?} vs {response:?} took {steps} steps");
    }

    #[test]
    fn an_expression_equals_itself_in_another_notation((latex, plain) in expression()) {
        let reference = latex.clone();
        let boxed = format!("So the result is $\\boxed{{{plain}}}$.");
        let j = judge(&boxed, &reference, &MathOptions::default(), &Budget::unlimited());
        prop_assert!(j.is_correct(), "{latex} vs {plain}: {j:?}");
        let again = judge(&latex, &latex, &MathOptions::default(), &Budget::unlimited());
        prop_assert!(again.is_correct(), "{latex} vs itself: {again:?}");
    }

    #[test]
    fn a_changed_constant_is_not_equal((latex, plain) in expression(), k in 1u32..50) {
        let reference = latex;
        let response = format!("({plain})+{k}");
        let j = judge(&response, &reference, &MathOptions::default(), &Budget::unlimited());
        prop_assert!(!j.is_correct(), "{reference} accepted {response}: {j:?}");
    }
}
