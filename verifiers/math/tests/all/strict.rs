//! The strict defaults: decimals against exact values, degrees against radians, units, text
//! answers and several boxed answers, each with the option that relaxes it.

use proptest::prelude::*;
use referee_core::{Budget, ErasedVerifier, Status};
use referee_math::{AcceptRounded, MathInput, MathOptions, MathVerifier, RoundedFigures, UnitPolicy, judge};

fn verdict(reference: &str, response: &str, opts: &MathOptions) -> referee_math::Judgement {
    judge(response, reference, opts, &Budget::unlimited())
}

fn credited(reference: &str, response: &str, opts: &MathOptions) -> bool {
    verdict(reference, response, opts).is_correct()
}

fn rounded(figures: u32) -> MathOptions {
    MathOptions {
        accept_rounded: AcceptRounded::Figures(RoundedFigures { significant_figures: figures }),
        ..MathOptions::default()
    }
}

/// Asserts each `(reference, response, credited)` row under `opts`, reporting every miss.
fn check(rows: &[(&str, &str, bool)], opts: &MathOptions) {
    let misses: Vec<String> = rows
        .iter()
        .filter(|(g, p, want)| credited(g, p, opts) != *want)
        .map(|(g, p, want)| format!("{g:?} vs {p:?}: expected {want}, got {:?}", verdict(g, p, opts)))
        .collect();
    assert!(misses.is_empty(), "{} rows wrong:\n{}", misses.len(), misses.join("\n"));
}

#[test]
fn rounded_decimals_are_not_exact_values_by_default() {
    check(
        &[
            ("\\frac{1}{3}", "0.33", false),
            ("\\frac{1}{3}", "0.333333", false),
            ("\\sqrt{2}", "1.414", false),
            ("\\sqrt{2}", "1.41421356237", false),
            ("2\\pi", "6.28", false),
            ("e", "2.718", false),
            ("\\frac{1}{12}", "0.0833333333333333", false),
            ("0.125", "0.12", false),
            ("0.125", "0.13", false),
            ("72", "72.4", false),
            ("5", "4.99", false),
            ("\\frac{2}{3}", "\\boxed{0.67}", false),
            // Exactly equal decimals are exact values.
            ("\\frac{1}{8}", "0.125", true),
            ("0.125", "\\frac{1}{8}", true),
            ("72", "72.0", true),
            ("\\frac{9}{2}", "4.50", true),
            ("(1, \\frac{9}{2})", "(1, 4.5)", true),
            ("28\\%", "0.28", true),
        ],
        &MathOptions::default(),
    );
}

#[test]
fn a_decimal_reference_is_met_at_its_stated_precision() {
    check(
        &[
            ("3.14", "\\pi", true),
            ("3.14159", "\\pi", true),
            ("3.14", "3.1416", true),
            ("16386.17", "16386.169", true),
            ("4.123105625617661", "\\sqrt{17}", true),
            ("33.3\\%", "\\frac{1}{3}", true),
            // Less precise than the reference, or wrong at its places.
            ("3.14", "3.1", false),
            ("3.14", "3.15", false),
            ("3.14", "3.145", false),
            ("0.125", "0.12", false),
            // Two significant figures are too few to read as a rounding: `0.5` is most often 1/2.
            ("0.5", "\\frac{6}{11}", false),
            ("0.33", "\\frac{1}{3}", false),
        ],
        &MathOptions::default(),
    );
}

#[test]
fn accept_rounded_credits_correct_roundings_only() {
    let two = rounded(2);
    check(
        &[
            ("\\frac{1}{3}", "0.33", true),
            ("\\sqrt{2}", "1.414", true),
            ("2\\pi", "6.28", true),
            ("e", "2.718", true),
            ("\\frac{1}{8}", "0.13", true),
            // Wrong in the last digit stated: never.
            ("\\frac{1}{8}", "0.12", false),
            ("\\frac{2}{3}", "0.66", false),
            ("2\\pi", "6.29", false),
            ("\\sqrt{2}", "1.415", false),
            ("e", "2.71", false),
            // One significant figure is below the two required.
            ("\\frac{1}{3}", "0.3", false),
        ],
        &two,
    );
    let four = rounded(4);
    check(&[("\\sqrt{2}", "1.414", true), ("2\\pi", "6.28", false), ("\\frac{1}{3}", "0.333", false)], &four);
    let three = MathOptions { accept_rounded: AcceptRounded::Enabled(true), ..MathOptions::default() };
    check(&[("\\pi", "3.14", true), ("\\pi", "3.1", false)], &three);
    let j = verdict("\\frac{1}{3}", "0.33", &two);
    assert_eq!(j.rule, Some("rounded_decimal"));
}

#[test]
fn degrees_and_radians_are_not_converted_unless_asked() {
    let default = MathOptions::default();
    check(
        &[
            ("180^\\circ", "\\pi", false),
            ("\\frac{\\pi}{3}", "60^\\circ", false),
            ("90^\\circ", "\\frac{\\pi}{2}", false),
            ("90^\\circ", "90", true),
            ("90", "90^\\circ", true),
            ("45^\\circ", "45°", true),
            // Both sides state their unit: nothing is guessed.
            ("180^\\circ", "\\pi \\text{ rad}", true),
            ("\\frac{\\pi}{3} \\text{ radians}", "60^\\circ", true),
            ("180^\\circ", "2\\pi \\text{ rad}", false),
        ],
        &default,
    );
    let convert = MathOptions { angle_conversion: true, ..MathOptions::default() };
    check(
        &[
            ("180^\\circ", "\\pi", true),
            ("\\frac{\\pi}{3}", "60^\\circ", true),
            ("30^\\circ", "\\frac{\\pi}{3}", false),
        ],
        &convert,
    );
    assert_eq!(verdict("180^\\circ", "\\pi", &convert).rule, Some("degrees_as_radians"));
}

#[test]
fn units_after_a_number_are_dropped_or_required() {
    let default = MathOptions::default();
    check(
        &[
            ("3", "3\\,\\mathrm{m}", true),
            ("3", "3\\text{ m}", true),
            ("3\\text{ m}", "3", true),
            ("12", "12\\text{ s}", true),
            ("15", "15\\mathrm{cm}^2", true),
            ("4", "3\\,\\mathrm{m}", false),
            ("2e", "2\\mathrm{e}", true),
            ("2e", "2", false),
        ],
        &default,
    );
    let require = MathOptions { units: UnitPolicy::Require, ..MathOptions::default() };
    check(
        &[
            ("3\\text{ m}", "3\\,\\mathrm{m}", true),
            ("3\\text{ m}", "3", false),
            ("3\\text{ m}", "3\\text{ s}", false),
            ("125 \\text{ miles}", "125 miles", true),
            ("125 \\text{ miles}", "125 mile", true),
            ("15\\text{ cm}^2", "15\\text{ cm}^2", true),
            ("15\\text{ cm}^2", "15\\text{ cm}", false),
            // A reference without units asks for none.
            ("3", "3\\,\\mathrm{m}", true),
        ],
        &require,
    );
    let j = verdict("3\\text{ m}", "3\\text{ s}", &require);
    assert!(j.reason.as_deref().is_some_and(|r| r.contains("units")), "{j:?}");
}

#[test]
fn text_answers_compare_case_and_space_insensitively() {
    check(
        &[
            ("\\text{No}", "\\text{no}", true),
            ("\\text{no}", "No", true),
            ("\\text{Yes}", "The answer is yes.", true),
            ("\\text{no}", "\\text{yes}", false),
            ("\\text{odd}", "\\text{Odd}", true),
            ("Not possible", "not   possible", true),
            ("Not possible", "possible", false),
            // Case stays significant in mathematics.
            ("2X", "2x", false),
        ],
        &MathOptions::default(),
    );
    // A plain-text reference that no rule parses is compared as words, not refused.
    let j = verdict("It cannot be done!", "it cannot be DONE", &MathOptions::default());
    assert_eq!(j.status, Status::Correct, "{j:?}");
    let j = verdict("It cannot be done!", "it can be done", &MathOptions::default());
    assert_eq!(j.status, Status::Incorrect, "{j:?}");
    let j = verdict("\\text{No}", "\\text{no}", &MathOptions::default());
    assert_eq!(j.status, Status::Correct, "{j:?}");
}

#[test]
fn several_boxes_are_a_list_a_restatement_or_a_hedge() {
    let default = MathOptions::default();
    check(
        &[
            ("\\frac{639}{40}", "\\boxed{15\\frac{39}{40}}; \\boxed{\\frac{639}{40}}", true),
            ("\\frac{639}{40}", "So $\\boxed{15\\frac{39}{40}}$, that is $\\boxed{\\frac{639}{40}}$.", true),
            ("2", "\\boxed{x = 2} and \\boxed{2}", true),
            ("1, 2", "\\boxed{1} and \\boxed{2}", true),
            ("5", "\\boxed{4} or \\boxed{5}", false),
            ("\\frac{639}{40}", "\\boxed{15\\frac{39}{40}}; \\boxed{\\frac{640}{40}}", false),
        ],
        &default,
    );
    let j = verdict("5", "\\boxed{4} or \\boxed{5}", &default);
    assert_eq!((j.status, j.rule), (Status::Incorrect, Some("hedged")), "{j:?}");
    let j = verdict("\\frac{639}{40}", "\\boxed{15\\frac{39}{40}}; \\boxed{\\frac{639}{40}}", &default);
    assert_eq!(j.rule, Some("boxes_restated"));
    // With the list reading off, restatements still count and a list does not.
    let single = MathOptions { allow_multiple_boxed: false, ..MathOptions::default() };
    check(
        &[
            ("\\frac{639}{40}", "\\boxed{15\\frac{39}{40}}; \\boxed{\\frac{639}{40}}", true),
            ("1, 2", "\\boxed{1} and \\boxed{2}", false),
            ("5", "\\boxed{4} or \\boxed{5}", false),
        ],
        &single,
    );
    assert_eq!(verdict("5", "\\boxed{4} or \\boxed{5}", &single).rule, Some("hedged"));
}

#[test]
fn options_deserialize_in_every_documented_form() {
    let v = MathVerifier::new();
    let item = |options: serde_json::Value| serde_json::json!({"response": "0.33", "reference": "\\frac13", "options": options});
    let verdicts = v.verify_json(
        &[
            item(serde_json::json!({})),
            item(serde_json::json!({"accept_rounded": false})),
            item(serde_json::json!({"accept_rounded": true})),
            item(serde_json::json!({"accept_rounded": {"significant_figures": 2}})),
            item(serde_json::json!({"accept_rounded": {"significant_figures": 3}})),
            item(serde_json::json!({"accept_rounded": {"figures": 2}})),
            item(serde_json::json!({"angle_conversion": true, "units": "require"})),
            item(serde_json::json!({"units": "sometimes"})),
        ],
        &Budget::unlimited(),
    );
    let statuses: Vec<Status> = verdicts.iter().map(|v| v.status).collect();
    assert_eq!(
        statuses,
        [
            Status::Incorrect,
            Status::Incorrect,
            Status::Incorrect,
            Status::Correct,
            Status::Incorrect,
            Status::InvalidInput,
            Status::Incorrect,
            Status::InvalidInput,
        ]
    );
    let parsed: MathInput = serde_json::from_value(serde_json::json!({"response": "1", "reference": "1"}))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed.options, MathOptions::default());
    assert_eq!(parsed.options.accept_rounded.min_figures(), None);
}

/// `numerator/denominator` written to `places` decimal places, truncated or rounded half up.
fn decimal(numerator: u64, denominator: u64, places: u32, round: bool) -> String {
    let scale = 10u128.pow(places);
    let scaled = u128::from(numerator) * scale;
    let mut units = scaled / u128::from(denominator);
    if round && (scaled % u128::from(denominator)) * 2 >= u128::from(denominator) {
        units += 1;
    }
    let int = units / scale;
    let frac = units % scale;
    if places == 0 { int.to_string() } else { format!("{int}.{frac:0width$}", width = places as usize) }
}

/// `value` (positive) to `places` decimal places, rounded or truncated; any such decimal of an
/// irrational number is inexact, so the double-precision digits serve.
fn surd_decimal(value: f64, places: u32, round: bool) -> String {
    if round {
        return format!("{value:.places$}", places = places as usize);
    }
    let full = format!("{value:.20}");
    let (int, frac) = full.split_once('.').unwrap_or((&full, ""));
    if places == 0 { int.to_owned() } else { format!("{int}.{}", &frac[..places as usize]) }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// No truncation or rounding of a rational whose expansion does not end within the digits
    /// written is credited by default.
    #[test]
    fn truncated_or_rounded_rationals_are_not_credited(
        numerator in 1u64..100_000,
        denominator in 2u64..10_000,
        places in 1u32..13,
        round in any::<bool>(),
    ) {
        // Skip fractions whose expansion ends within `places`: those decimals are exact.
        let exact = (u128::from(numerator) * 10u128.pow(places)) % u128::from(denominator) == 0;
        prop_assume!(!exact);
        let response = decimal(numerator, denominator, places, round);
        let reference = format!("\\frac{{{numerator}}}{{{denominator}}}");
        let j = verdict(&reference, &response, &MathOptions::default());
        prop_assert!(!j.is_correct(), "{reference} credited {response}: {j:?}");
        let boxed = format!("So the answer is $\\boxed{{{response}}}$.");
        prop_assert!(!credited(&reference, &boxed, &MathOptions::default()), "{reference} credited {boxed}");
    }

    /// No truncation or rounding of an irrational surd `c√n` is credited by default.
    #[test]
    fn truncated_or_rounded_surds_are_not_credited(
        coefficient in 1u32..50,
        radicand in 2u32..500,
        places in 0u32..13,
        round in any::<bool>(),
    ) {
        let root = f64::from(radicand).sqrt();
        prop_assume!(root.fract() != 0.0);
        let value = f64::from(coefficient) * root;
        let response = surd_decimal(value, places, round);
        let reference = format!("{coefficient}\\sqrt{{{radicand}}}");
        let j = verdict(&reference, &response, &MathOptions::default());
        prop_assert!(!j.is_correct(), "{reference} credited {response}: {j:?}");
    }

    /// With `accept_rounded`, the correct rounding is credited and a neighbour one unit off in
    /// the last place never is.
    #[test]
    fn with_the_option_only_the_correct_rounding_is_credited(
        numerator in 1u64..100_000,
        denominator in 2u64..10_000,
        places in 3u32..10,
    ) {
        let opts = rounded(2);
        let reference = format!("\\frac{{{numerator}}}{{{denominator}}}");
        let good = decimal(numerator, denominator, places, true);
        let figures = good.trim_start_matches(['0', '.']).replace('.', "").len();
        prop_assume!(figures >= 2);
        prop_assert!(credited(&reference, &good, &opts), "{reference} refused {good}");
        let unit = 1.0 / 10f64.powi(places as i32);
        let value: f64 = good.parse().unwrap_or_default();
        for off in [value + unit, value - unit] {
            let wrong = format!("{off:.places$}", places = places as usize);
            prop_assert!(!credited(&reference, &wrong, &opts), "{reference} credited {wrong}");
        }
    }
}
