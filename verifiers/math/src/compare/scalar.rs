//! Two single values: rounded decimals, exact normal forms, then sampled numerics.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

use super::structure::is_infinite;
use super::{Ctx, Rule};
use crate::ast::Node;
use crate::normal::{Normal, normal_form};
use crate::numeric::{self, Agreement};

/// Relative tolerance for sampled comparisons of exact expressions (float round-off only).
const SAMPLE_TOLERANCE: f64 = 1e-9;

/// A number written with decimals, possibly negated: its value, places and significant digits.
fn decimal_literal(n: &Node) -> Option<(BigRational, u32, u32)> {
    match n {
        Node::Num { value, decimals: Some(d), significant } => Some((value.clone(), *d, *significant)),
        Node::Neg(a) => decimal_literal(a).map(|(v, d, s)| (-v, d, s)),
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

/// The value of a constant node as `f64`, exactly rounded when it is rational.
fn constant_value(n: &Node, nf: Option<&Normal>) -> Option<f64> {
    if !n.is_constant() {
        return None;
    }
    if let Some(c) = nf.and_then(Normal::as_rational) {
        return c.to_f64().filter(|v| v.is_finite());
    }
    let e = numeric::evaluate(n, 0)?;
    (e.value.im == 0.0).then_some(e.value.re)
}

/// A decimal written to `d` places matches any value that rounds to it (`0.33` for `1/3`) when
/// it has at least two significant digits.
fn rounds_to(literal: &(BigRational, u32, u32), other: &Node, other_nf: Option<&Normal>) -> bool {
    let (lit, places, significant) = literal;
    if *significant < 2 || *places > 30 {
        return false;
    }
    let half_unit = BigRational::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), *places as usize) * 2);
    if let Some(c) = other_nf.filter(|n| n.is_canonical()).and_then(Normal::as_rational) {
        return crate::normal::qadd(&c, &-lit.clone()).abs() <= half_unit;
    }
    let (Some(v), Some(l), Some(h)) = (constant_value(other, other_nf), lit.to_f64(), half_unit.to_f64()) else {
        return false;
    };
    (v - l).abs() <= h + 4.0 * f64::EPSILON * v.abs().max(l.abs())
}

/// Compares two scalars.
pub fn compare(g: &Node, p: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    if is_infinite(g) || is_infinite(p) {
        let sign = |n: &Node| matches!(n, Node::Neg(_));
        return (is_infinite(g) && is_infinite(p) && sign(g) == sign(p)).then_some("infinity");
    }
    let gn = normal_form(g).ok();
    let pn = normal_form(p).ok();
    if ctx.opts.accept_rounded {
        if let Some(lit) = decimal_literal(g)
            && rounds_to(&lit, p, pn.as_ref())
        {
            return Some("rounded_decimal");
        }
        if let Some(lit) = decimal_literal(p)
            && rounds_to(&lit, g, gn.as_ref())
        {
            return Some("rounded_decimal");
        }
    }
    if let (Some(a), Some(b)) = (&gn, &pn) {
        match a.compare(b) {
            Ok(Some(true)) => return Some("normal_form"),
            Ok(Some(false)) if !decimal_tolerance_applies(g, p, ctx) => return None,
            _ => {}
        }
    }
    if ctx.expired() {
        return None;
    }
    let tolerance = if decimal_tolerance_applies(g, p, ctx) {
        ctx.opts.relative_tolerance.max(SAMPLE_TOLERANCE)
    } else {
        SAMPLE_TOLERANCE
    };
    let exact = !decimal_tolerance_applies(g, p, ctx);
    match numeric::agree(g, p, tolerance, exact) {
        Agreement::Equal => Some("numeric"),
        Agreement::Different => None,
        Agreement::Unknown => (format!("{g}") == format!("{p}")).then_some("identical"),
    }
}

fn decimal_tolerance_applies(g: &Node, p: &Node, ctx: &Ctx<'_>) -> bool {
    ctx.opts.relative_tolerance > 0.0 && (has_decimal(g) || has_decimal(p))
}
