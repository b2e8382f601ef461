//! Two single values: exact normal forms, the precision a decimal states, then sampled
//! numerics.

use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::{Ctx, Rule};
use crate::ast::{Constant, Node};
use crate::normal::{Normal, normal_form};
use crate::numeric::{self, Agreement};

/// Relative tolerance for sampled comparisons of exact expressions (float round-off only).
const SAMPLE_TOLERANCE: f64 = 1e-9;

/// Significant figures a decimal reference must state before an answer more precise than it
/// is credited when it rounds to it (`3.14` answered by `\pi`, `16386.17` by `16386.169`).
/// Shorter references (`0.5`, `0.25`) are most often exact values, and a window of a few
/// percent around them would credit wrong answers.
pub const REFERENCE_FIGURES: u32 = 3;

/// Most decimal places a rounding check is made at.
const MAX_ROUNDING_PLACES: u32 = 60;

/// A number written with decimals: its exact value, the places written and its significant
/// digits.
#[derive(Debug, Clone)]
struct Decimal {
    value: BigRational,
    places: u32,
    significant: u32,
}

/// The decimal literal `n` is, possibly negated; `x/100` (a percentage read as a fraction)
/// keeps the precision of `x`, two places further.
fn decimal_literal(n: &Node) -> Option<Decimal> {
    match n {
        Node::Num { value, decimals: Some(d), significant } => {
            Some(Decimal { value: value.clone(), places: *d, significant: *significant })
        }
        Node::Neg(a) => decimal_literal(a).map(|d| Decimal { value: -d.value, ..d }),
        Node::Div(a, b) if matches!(b.as_ref(), Node::Num { value, decimals: None, .. } if *value == BigRational::from_integer(100.into())) => {
            decimal_literal(a).map(|d| Decimal {
                value: d.value / BigRational::from_integer(100.into()),
                places: d.places + 2,
                significant: d.significant,
            })
        }
        _ => None,
    }
}

fn has_decimal(n: &Node) -> bool {
    let mut found = false;
    n.visit(&mut |m| found |= matches!(m, Node::Num { decimals: Some(_), .. }));
    found
}

/// True when the node is exactly zero.
pub fn is_zero(n: &Node) -> bool {
    normal_form(n).ok().and_then(|v| v.as_rational()).is_some_and(|c| c.is_zero())
}

/// True for `∞`, `+∞` and `−∞`.
pub fn is_infinite(n: &Node) -> bool {
    match n {
        Node::Const(Constant::Infinity) => true,
        Node::Neg(a) => is_infinite(a),
        _ => false,
    }
}

/// True when `dec` is the value of `other` correctly rounded at `dec`'s last written place:
/// closer than half a unit of that place, or exactly half a unit away and rounded away from
/// zero (`0.13` for `0.125`, never `0.12`). A value too close to the half-unit boundary to
/// decide in 256-bit floats is not credited.
fn correctly_rounds(dec: &Decimal, other: &Node, other_nf: Option<&Normal>) -> bool {
    if dec.places > MAX_ROUNDING_PLACES || !other.is_constant() {
        return false;
    }
    let half_unit = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), dec.places as usize) * 2);
    if let Some(c) = other_nf.filter(|n| n.is_canonical()).and_then(Normal::as_rational) {
        let distance = crate::normal::qadd(&c, &-dec.value.clone()).abs();
        return match distance.cmp(&half_unit) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => dec.value.abs() > c.abs(),
            std::cmp::Ordering::Greater => false,
        };
    }
    numeric::distance_within(other, &dec.value, &half_unit) == Some(std::cmp::Ordering::Less)
}

/// Compares two scalars.
///
/// Exact values compare exactly. A decimal reference stating at least [`REFERENCE_FIGURES`]
/// significant figures also matches a more precise answer that rounds to it. A decimal answer
/// matches an exact reference only when it is exactly equal, unless `accept_rounded` allows
/// correctly rounded decimals.
pub fn compare(g: &Node, p: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    if is_infinite(g) || is_infinite(p) {
        let sign = |n: &Node| matches!(n, Node::Neg(_));
        return (is_infinite(g) && is_infinite(p) && sign(g) == sign(p)).then_some("infinity");
    }
    let gn = normal_form(g).ok();
    let pn = normal_form(p).ok();
    let exact_verdict = match (&gn, &pn) {
        (Some(a), Some(b)) => a.compare(b).ok().flatten(),
        _ => None,
    };
    if exact_verdict == Some(true) {
        return Some("normal_form");
    }
    if let Some(gd) = decimal_literal(g)
        && gd.significant >= REFERENCE_FIGURES
    {
        let more_precise = match decimal_literal(p) {
            Some(pd) => pd.places > gd.places,
            None => !has_decimal(p),
        };
        if more_precise && correctly_rounds(&gd, p, pn.as_ref()) {
            return Some("reference_precision");
        }
    }
    if let Some(figures) = ctx.opts.accept_rounded.min_figures()
        && let Some(pd) = decimal_literal(p)
        && pd.significant >= figures
        && correctly_rounds(&pd, g, gn.as_ref())
    {
        return Some("rounded_decimal");
    }
    let tolerant = decimal_tolerance_applies(g, ctx);
    if exact_verdict == Some(false) && !tolerant {
        return None;
    }
    if ctx.expired() {
        return None;
    }
    let tolerance = if tolerant { ctx.opts.relative_tolerance.max(SAMPLE_TOLERANCE) } else { SAMPLE_TOLERANCE };
    match numeric::agree(g, p, tolerance, !tolerant) {
        Agreement::Equal => Some("numeric"),
        Agreement::Different => None,
        Agreement::Unknown => (format!("{g}") == format!("{p}")).then_some("identical"),
    }
}

/// The relative tolerance applies only when the reference is written with decimals: the
/// reference is then approximate itself. A response's decimals never loosen the comparison.
fn decimal_tolerance_applies(g: &Node, ctx: &Ctx<'_>) -> bool {
    ctx.opts.relative_tolerance > 0.0 && has_decimal(g)
}
