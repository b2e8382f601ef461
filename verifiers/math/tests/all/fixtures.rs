//! Accept/reject fixtures per category: the behaviour `docs/verifiers/math.md` promises. Every
//! fixture's verdict is pinned in `snapshots/all__fixtures__fixtures.snap`.

use std::time::Duration;

use referee_core::{Budget, Status, Verifier};
use referee_math::{ExtractionMode, MathInput, MathOptions, MathVerifier, PercentPolicy, judge, work};

use super::snapshot;

/// One fixture: reference, response, whether the response is credited.
type Row = (&'static str, &'static str, bool);

/// Fixture rows, grouped by what they exercise.
const FIXTURES: &[(&str, &[Row])] = &[
    (
        "numbers",
        &[
            ("12", "12.0", true),
            ("-5", "−5", true),
            ("1234567", "1,234,567", true),
            ("1234567", "1 234 567", true),
            ("32349", "\\boxed{32, 349}", false),
            ("2.75", "2,75", true),
            ("1, 2", "1,2", true),
            ("1.2", "1,2", false),
            ("0.5", ".5", true),
            ("1.5e3", "1500", true),
            ("3 \\times 10^{4}", "30000", true),
            ("\\frac{1}{3}", "0.\\overline{3}", true),
            ("\\frac{1}{6}", "0.1\\overline{6}", true),
            ("2\\frac{1}{2}", "\\frac{5}{2}", true),
            ("2\\frac{1}{2}", "1", false),
            ("54", "204_5", true),
            ("7", "8", false),
            ("10", "10.5", false),
        ],
    ),
    (
        "fractions_and_radicals",
        &[
            ("\\frac{1}{2}", "\\dfrac12", true),
            ("\\frac{3}{4}", "6/8", true),
            ("2\\sqrt{3}", "\\sqrt{12}", true),
            ("\\frac{\\sqrt{2}}{2}", "\\frac{1}{\\sqrt{2}}", true),
            ("\\sqrt[3]{16}", "2\\sqrt[3]{2}", true),
            ("\\sqrt{2}+\\sqrt{3}", "\\sqrt{3}+\\sqrt{2}", true),
            ("\\sqrt{8}", "2\\sqrt{3}", false),
            ("\\frac{1}{1+\\sqrt{2}}", "\\sqrt{2}-1", true),
            ("\\sqrt{-4}", "2i", true),
        ],
    ),
    (
        "constants",
        &[
            ("\\frac{9\\pi}{4}", "\\frac94\\pi", true),
            ("\\pi/2", "pi/2", true),
            ("2\\pi", "6.28", false),
            ("2\\pi", "6.29", false),
            ("2\\pi", "6.2", false),
            ("2\\pi", "6", false),
            ("e^{2}", "\\exp(2)", true),
            ("3.14159", "\\pi", true),
            ("14 - i", "14.0 + -1.0i", true),
            ("\\infty", "+\\infty", true),
            ("\\infty", "-\\infty", false),
        ],
    ),
    (
        "magnitudes",
        &[
            ("\\frac{1}{2^{99}}", "\\frac{1}{2^{98}}", false),
            ("\\frac{1}{2^{99}}", "2^{-99}", true),
            ("\\frac{1}{2004!}", "\\frac{1}{2006!}", false),
            ("2^{2^{2^{2^2}}}", "2^{65536}", true),
            ("2^{2^{2^{2^2}}}", "2^{65537}", false),
            ("10^{100}+1", "10^{100}", false),
            ("10^{-30}", "0", false),
            ("\\sin(1)", "\\sin(1) + 10^{-12}", false),
            ("\\sin(1)", "\\sin(1 + 10^{-12})", false),
            ("640320^3+744", "e^{\\pi\\sqrt{163}}", false),
            ("\\sin(2x)", "2\\sin x \\cos x", true),
            ("\\ln 6", "\\ln 2 + \\ln 3", true),
            ("\\arctan 1", "\\frac{\\pi}{4}", true),
            ("\\sqrt{2}", "1.41421356237", false),
            ("\\sqrt{2}", "1.41421356", false),
            ("\\sqrt{2}", "1.41421357", false),
        ],
    ),
    (
        "algebra",
        &[
            ("\\frac{x+2}{7}", "\\frac{x}{7}+\\frac{2}{7}", true),
            ("(x+1)^2", "x^2+2x+1", true),
            ("(x+1)^2", "x^2+1", false),
            ("\\frac{x^2-1}{x-1}", "x+1", true),
            ("\\tan^2(y)+1", "\\sec^2(y)", true),
            ("\\sin^2 x + \\cos^2 x", "1", true),
            ("\\ln(x^2)", "2\\ln x", true),
            ("x^{2/3}", "\\sqrt[3]{x^2}", true),
            ("f(x)", "f(y)", false),
            ("ab", "ba", true),
        ],
    ),
    (
        "percent",
        &[
            ("28\\%", "28", true),
            ("28\\%", "0.28", true),
            ("28\\%", "28 percent", true),
            ("28\\%", "0.28\\%", false),
            ("0.28", "28\\%", true),
        ],
    ),
    (
        "units_and_degrees",
        &[
            ("90^\\circ", "90", true),
            ("90", "90°", true),
            ("\\frac{\\pi}{3}", "60^\\circ", false),
            ("30^\\circ", "\\frac{\\pi}{3}", false),
            ("90", "50^\\circ + 40^\\circ", true),
            ("15\\text{ cm}^2", "15", true),
            ("5", "\\$5", true),
            ("125", "125 miles", true),
            ("125", "126 miles", false),
        ],
    ),
    (
        "sets_intervals_tuples",
        &[
            ("\\{1, 2, 3\\}", "\\{3, 2, 1\\}", true),
            ("\\{1, 2, 3\\}", "\\{1, 2\\}", false),
            ("(1, 2)", "(2, 1)", false),
            ("(1, 2)", "(1, 2)", true),
            ("[0, 1)", "[0, 1)", true),
            ("[0, 1)", "(0, 1)", false),
            ("(-\\infty, 2] \\cup (3, \\infty)", "(3, \\infty) \\cup (-\\infty, 2]", true),
            ("\\emptyset", "\\varnothing", true),
            ("\\emptyset", "\\{0\\}", false),
            ("1 \\pm \\sqrt{2}", "1+\\sqrt{2}, 1-\\sqrt{2}", true),
            ("\\pm 3", "3", false),
            ("1, 2", "2, 1", true),
            ("1, 2", "1", false),
        ],
    ),
    (
        "matrices",
        &[
            ("\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}", "\\begin{bmatrix}1 & 2 \\\\ 3 & 4\\end{bmatrix}", true),
            ("\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}", "\\begin{pmatrix}1 & 3 \\\\ 2 & 4\\end{pmatrix}", false),
            ("\\begin{pmatrix}2 \\\\ 4\\end{pmatrix}", "2\\begin{pmatrix}1 \\\\ 2\\end{pmatrix}", true),
            ("\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}", "\\begin{pmatrix}1 & 0\\end{pmatrix}", false),
        ],
    ),
    (
        "equations_and_inequalities",
        &[
            ("x = 3", "3", true),
            ("3", "x = 3", true),
            ("y = 2x + 1", "2x - y + 1 = 0", true),
            ("y = 2x + 1", "y = 2x - 1", false),
            ("x > 2", "2 < x", true),
            ("x > 2", "x \\geq 2", false),
            ("x \\le 3", "x \\in (-\\infty, 3]", true),
            ("x \\in (-\\infty, 3]", "x \\le 3", false),
            ("x^2 < 4", "(-2, 2)", true),
            ("x<1 \\text{ or } x>2", "(-\\infty,1)\\cup(2,\\infty)", true),
            ("x<1 \\text{ or } x>2", "(-\\infty,1]\\cup(2,\\infty)", false),
            ("(-\\infty,1)\\cup(2,\\infty)", "x<1 \\text{ or } x>2", false),
            ("a + b = 0", "0", false),
            ("7", "x + y = 7", true),
            ("x + y = 7", "7", false),
            ("2X", "2x", false),
        ],
    ),
    (
        "extraction",
        &[
            ("5", "Adding them gives \\boxed{5}.", true),
            ("5", "We get $x=3$ first, then the answer is $5$.", true),
            ("5", "<think>maybe 4</think>The answer is 5.", true),
            ("5", "<answer>5</answer>", true),
            ("5", "**Final answer:** 5", true),
            ("5", "Donc la réponse est 5.", true),
            ("5", "所以答案是 5。", true),
            ("5", "\\boxed{4} or \\boxed{5}", false),
            ("5", "It is either 4 or 5", false),
            ("1", "It is $1$ or $2$.", false),
            ("-1, 1", "The solutions are $x=1$ and $x=-1$.", true),
            ("5", "I could not solve it.", false),
            ("C", "The correct option is (C).", true),
            ("C", "\\boxed{B}", false),
            ("A", "The answer is A or B.", false),
            ("B", "\\boxed{A, B}", false),
            ("B", "B or C", false),
            ("D", "The answer is for sure D, it can't be A or B", true),
        ],
    ),
    (
        "prose",
        &[
            ("30", "We share 60 cookies between 2 friends. So the final answer is 60 divided by 2, which is 30.", true),
            (
                "60",
                "We share 60 cookies between 2 friends. So the final answer is 60 divided by 2, which is 30.",
                false,
            ),
            (
                "220",
                "The proper divisors of 284 are 1, 2, 4, 71 and 142. The answer is the sum of the proper divisors of 284, which is 220.",
                true,
            ),
            ("3", "Since I need a decimal answer, I compute 7 divided by 2 to get 3.5. Rounding down gives 3", true),
            (
                "2",
                "To get the final answer, I need to find the remainder mod 4. Since 38 = 9 \\cdot 4 + 2, the remainder is 2.",
                true,
            ),
            ("5", "I checked my answer by substituting back: 2 \\cdot 5 - 3 = 7, as required. So x equals 5", true),
            ("[-2, 7]", "Both roots are real exactly there, so the answer is [-2, 7], a closed interval.", true),
            ("(1, 2)", "So x = 1 and y = 2, and the answer is the ordered pair (1, 2) of these values.", true),
            ("4005", "The terms go up by 4. The answer is the $1001^{\\text{st}}$ term, which is $4005$.", true),
            ("298", "Each term adds 3, so $a_{100} = 298$.\n\nFinal answer: the $n^{\\text{th}}$ term", true),
            ("8", "Adding the two groups, the answer is 5 + 3 = 8.", true),
            ("25", "The answer is 25, which is 5 squared.", true),
            ("12", "The answer is 12, which is 3 more than 9.", true),
            ("7", "The answer to part (b) is 7.", true),
            ("\\frac{275}{2}", "He walked 137 and ½ miles in all.", true),
            ("137.5", "The answer is 137 and 1/2.", true),
            ("137, \\frac{1}{2}", "The two roots are 137 and 1/2.", true),
            ("137.5", "It is either 137 or 1/2.", false),
        ],
    ),
    (
        "text",
        &[
            ("\\text{odd}", "odd", true),
            ("\\text{odd}", "even", false),
            ("\\text{Evelyn}", "\\boxed{\\text{Evelyn}}", true),
        ],
    ),
];

fn run(reference: &str, response: &str, opts: &MathOptions) -> bool {
    judge(response, reference, opts, &Budget::unlimited()).is_correct()
}

#[test]
fn fixtures_behave_as_documented() {
    let opts = MathOptions::default();
    let mut failures = Vec::new();
    let mut verdicts = String::new();
    for (category, rows) in FIXTURES {
        for (reference, response, expected) in *rows {
            let j = judge(response, reference, &opts, &Budget::unlimited());
            let got = j.is_correct();
            verdicts += &format!(
                "[{category}] {reference:?} vs {response:?} expected {}: {}\n",
                snapshot::expected(*expected),
                j.clone().into_verdict().snapshot_line()
            );
            if got != *expected {
                failures.push(format!("[{category}] {reference:?} vs {response:?}: expected {expected}, got {j:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} fixtures failed:\n{}", failures.len(), failures.join("\n"));
    insta::assert_snapshot!("fixtures", verdicts);
}

#[test]
fn percent_policy_is_configurable() {
    let number = MathOptions { percent: PercentPolicy::Number, ..MathOptions::default() };
    assert!(run("28\\%", "28", &number));
    assert!(!run("28\\%", "0.28", &number));
    let fraction = MathOptions { percent: PercentPolicy::Fraction, ..MathOptions::default() };
    assert!(!run("28\\%", "28", &fraction));
    assert!(run("28\\%", "0.28", &fraction));
}

#[test]
fn assignment_can_be_disabled() {
    let strict = MathOptions { allow_assignment: false, ..MathOptions::default() };
    assert!(!run("3", "x = 3", &strict));
    assert!(run("3", "x = 3", &MathOptions::default()));
}

#[test]
fn hedged_boxes_are_rejected_when_multiple_boxes_are_not_allowed() {
    let single = MathOptions { allow_multiple_boxed: false, ..MathOptions::default() };
    let j = judge("\\boxed{1} and \\boxed{2}", "1, 2", &single, &Budget::unlimited());
    assert_eq!(j.status, Status::Incorrect);
    assert!(run("1, 2", "\\boxed{1} and \\boxed{2}", &MathOptions::default()));
    assert!(run("5", "\\boxed{5} so \\boxed{5}", &single));
}

#[test]
fn extraction_modes_limit_where_answers_are_found() {
    let boxed = MathOptions { extraction: ExtractionMode::Boxed, ..MathOptions::default() };
    assert!(!run("5", "The answer is 5.", &boxed));
    assert!(run("5", "so \\boxed{5}", &boxed));
    let whole = MathOptions { extraction: ExtractionMode::Whole, ..MathOptions::default() };
    assert!(run("5", "5", &whole));
    assert!(!run("5", "The answer is 5.", &whole));
}

#[test]
fn unreadable_references_are_invalid_input() {
    // A reference whose `\t` became a TAB when it was escaped once too few times.
    let broken = "$\u{9}ext{13}$";
    let j = judge("13", broken, &MathOptions::default(), &Budget::unlimited());
    assert_eq!(j.status, Status::InvalidInput);
    let same = judge(broken, broken, &MathOptions::default(), &Budget::unlimited());
    assert_eq!(same.status, Status::Correct);
    assert!(run("$\\text{13}$", "13", &MathOptions::default()));
}

#[test]
fn missing_answers_are_unparseable() {
    let j = judge("I do not know.", "5", &MathOptions::default(), &Budget::unlimited());
    assert_eq!(j.status, Status::Unparseable);
}

#[test]
fn expired_budget_times_out_without_judging() {
    let budget = Budget::with_timeout(Duration::ZERO);
    let j = judge("\\boxed{5}", "5", &MathOptions::default(), &budget);
    assert_eq!(j.status, Status::Timeout);
}

#[test]
fn oversized_input_is_a_resource_limit() {
    let huge = "1".repeat(referee_math::limits::MAX_INPUT_BYTES + 1);
    let j = judge(&huge, "1", &MathOptions::default(), &Budget::unlimited());
    assert_eq!(j.status, Status::ResourceLimit);
}

#[test]
fn power_towers_are_decided_or_refused_quickly() {
    let cases = [
        ("5^{5^{5^{5^5}}}", "5^{5^{5^{5^5}}}+1"),
        ("\\dfrac{5^{\\left(5^{\\left(5^{\\left(5^5\\right)}\\right)} - 4\\right)} - 5}{16}", "7"),
        ("9^{9^{9^{9}}}", "9^{9^{9^{9}}}"),
        ("(x+1)^{1000000}", "(x+1)^{1000001}"),
        ("10^{10^{10}}!", "1"),
        ("\\sum_{k=1}^{10^{9}} k", "5"),
        ("\\sum_{k=1}^{1999} \\frac{1}{k}", "\\sum_{k=1}^{1998} \\frac{1}{k}"),
        ("\\prod_{k=1}^{1999} (x+k)", "1"),
        ("2222^{3115}/5^{30155}/55", "5"),
        ("\\binom{3000}{1500}", "1"),
        ("\\sqrt{3^{40001}}", "3^{20000}"),
        ("(x+y+z+w)^{32}", "(x+y+z+w)^{31}"),
    ];
    for (reference, response) in cases {
        let (j, steps) = work::counted(|| judge(response, reference, &MathOptions::default(), &Budget::unlimited()));
        assert!(steps < 1_000_000, "{reference} vs {response} took {steps} steps");
        assert!(!(j.is_correct() && reference != response), "{reference} vs {response} accepted: {j:?}");
    }
}

#[test]
fn large_exact_values_are_still_decided() {
    let opts = MathOptions::default();
    assert!(run("\\sqrt{2^{65536}}", "2^{32768}", &opts));
    assert!(run("\\sum_{k=1}^{100} k", "5050", &opts));
    assert!(run("\\binom{10}{5}", "252", &opts));
    assert!(!run("3000!", "2999!", &opts));
}

#[test]
fn verifier_reports_details_and_description() {
    let v = MathVerifier::new();
    assert_eq!(v.description().id, "math");
    assert_eq!(v.description().version, "2");
    let inputs = vec![
        MathInput {
            response: "so \\boxed{\\frac{1}{2}}".into(),
            reference: "0.5".into(),
            options: MathOptions::default(),
        },
        MathInput { response: "so \\boxed{3}".into(), reference: "4".into(), options: MathOptions::default() },
    ];
    let verdicts = v.verify_batch(&inputs, &Budget::unlimited());
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0].status, Status::Correct);
    assert_eq!(verdicts[0].details.get("extracted").and_then(|v| v.as_str()), Some("\\frac{1}{2}"));
    assert!(verdicts[0].details.contains_key("rule"));
    assert_eq!(verdicts[1].status, Status::Incorrect);
    assert!(verdicts[1].details.contains_key("reason"));
}

#[test]
fn input_rejects_unknown_fields_and_fills_defaults() {
    let ok: MathInput = serde_json::from_value(serde_json::json!({"response": "1", "reference": "1"}))
        .unwrap_or_else(|e| panic!("defaults should fill the options: {e}"));
    assert_eq!(ok.options, MathOptions::default());
    let bad = serde_json::from_value::<MathInput>(serde_json::json!({"response": "1", "reference": "1", "x": 1}));
    assert!(bad.is_err());
    let bad_option = serde_json::from_value::<MathInput>(
        serde_json::json!({"response": "1", "reference": "1", "options": {"percent": "maybe"}}),
    );
    assert!(bad_option.is_err());
}

#[test]
fn adversarial_long_responses_stay_fast() {
    let size = 200 * 1024;
    let cases = [
        "\\(".repeat(size / 2),
        "$".repeat(size),
        "\\boxed{".repeat(size / 7),
        "\\boxed{1}".repeat(size / 9),
        "\\fbox".repeat(size / 5),
        "{".repeat(size),
        "answer ".repeat(size / 7),
        "1,".repeat(size / 2),
        "**1** ".repeat(size / 6),
        "$1$ ".repeat(size / 4),
        format!("{}\\boxed{{5}}", "x".repeat(size)),
        "(".repeat(size),
        "A ".repeat(size / 2),
    ];
    for response in &cases {
        for reference in ["5", "C", "\\{1, 2\\}"] {
            let (_, steps) =
                work::counted(|| judge(response, reference, &MathOptions::default(), &Budget::unlimited()));
            let head: String = response.chars().take(20).collect();
            // Linear: a few steps per byte (a quadratic scan would take billions).
            assert!(
                steps < 20 * response.len() as u64 + 1_000_000,
                "{head:?}... against {reference} took {steps} steps"
            );
        }
    }
}

#[test]
fn huge_exponents_on_variables_do_not_overflow() {
    let cases = [
        ("x^{9223372036854775807}", "x^{9223372036854775807}\\cdot x"),
        ("x^{4611686018427387904}", "x^{4611686018427387904}"),
        ("\\frac{1}{x^{9223372036854775807}}", "x"),
        ("(x y)^{9223372036854775807}", "x^{9223372036854775807}"),
    ];
    for (reference, response) in cases {
        let _ = judge(response, reference, &MathOptions::default(), &Budget::unlimited());
    }
}
