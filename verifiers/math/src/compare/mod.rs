//! Equivalence of two parsed answers: structures element by element, relations as
//! relations, scalars exactly where possible and numerically otherwise.

mod relations;
mod scalar;
mod structure;

use std::time::Instant;

use crate::ast::{ListKind, Node};
use crate::options::{MathOptions, PercentPolicy};

/// Shared state of one comparison: the options and the deadline.
#[derive(Debug)]
pub struct Ctx<'a> {
    pub opts: &'a MathOptions,
    pub deadline: Option<Instant>,
    /// Set once the deadline passed; the verdict then reports a timeout.
    pub timed_out: std::cell::Cell<bool>,
    /// Whether the reference and the response state radians in words (`\text{ rad}`).
    pub radians_stated: Sides,
}

/// A flag for each side of the pair.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sides {
    pub gold: bool,
    pub pred: bool,
}

impl Ctx<'_> {
    fn expired(&self) -> bool {
        if self.timed_out.get() {
            return true;
        }
        let expired = !crate::work::tick(1) || self.deadline.is_some_and(|d| Instant::now() >= d);
        if expired {
            self.timed_out.set(true);
        }
        expired
    }
}

/// The rule that decided an equivalence.
pub type Rule = &'static str;

/// `Some(rule)` when the reference `gold` and the answer `pred` are equivalent.
pub fn equivalent(gold: &Node, pred: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    let gold = structure::prepare(gold);
    let pred = structure::prepare(pred);
    eq(&gold, &pred, ctx)
}

/// The core recursion; `g` is the reference side, `p` the answer side.
fn eq(g: &Node, p: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    if ctx.expired() {
        return None;
    }
    if g == p {
        return Some("identical");
    }
    match (g, p) {
        (Node::Relation { .. }, _) | (_, Node::Relation { .. }) => relations::compare(g, p, ctx),
        (Node::Degrees(x), Node::Degrees(y)) => eq(x, y, ctx),
        (Node::Degrees(x), other) => degrees(x, other, ctx, true),
        (other, Node::Degrees(y)) => degrees(y, other, ctx, false),
        (Node::Percent(x), Node::Percent(y)) => eq(x, y, ctx),
        (Node::Percent(x), other) => percent(x, other, ctx, true),
        (other, Node::Percent(y)) => percent(y, other, ctx, false),
        // `x < 1 or x > 2` answered with `(-∞, 1) ∪ (2, ∞)`; as for one inequality, not the
        // other way round.
        (Node::List(..), Node::Union(_) | Node::Interval { .. }) => {
            relations::alternatives_as_union(g).and_then(|u| eq(&u, p, ctx)).map(|_| "inequalities_as_union")
        }
        (Node::Text(a), Node::Text(b)) => (a == b).then_some("text"),
        (Node::Text(_), _) | (_, Node::Text(_)) => None,
        _ => structure::compare(g, p, ctx),
    }
}

/// `x%` against a plain value: under the default policy `28%` matches `28` and `0.28`.
fn percent(x: &Node, other: &Node, ctx: &Ctx<'_>, gold_has_sign: bool) -> Option<Rule> {
    let as_fraction = || Node::Div(Box::new(x.clone()), Box::new(Node::int(100)));
    let literal = || {
        if gold_has_sign { eq(x, other, ctx) } else { eq(other, x, ctx) }
    };
    let fraction = || {
        let f = as_fraction();
        if gold_has_sign { eq(&f, other, ctx) } else { eq(other, &f, ctx) }
    };
    match ctx.opts.percent {
        PercentPolicy::Either => {
            literal().map(|_| "percent_as_number").or_else(|| fraction().map(|_| "percent_as_fraction"))
        }
        PercentPolicy::Number => literal().map(|_| "percent_as_number"),
        PercentPolicy::Fraction => fraction().map(|_| "percent_as_fraction"),
    }
}

/// `x°` against a plain value: the same number of degrees (`90^\circ` and `90`); the angle in
/// radians (`60° = π/3`) only when `angle_conversion` is on or the other side states radians
/// in words, since a bare `\pi` is not an answer in degrees.
fn degrees(x: &Node, other: &Node, ctx: &Ctx<'_>, gold_has_sign: bool) -> Option<Rule> {
    let pair = |a: &Node| if gold_has_sign { eq(a, other, ctx) } else { eq(other, a, ctx) };
    if let Some(rule) = pair(x).map(|_| "degrees_as_number") {
        return Some(rule);
    }
    let other_states_radians = if gold_has_sign { ctx.radians_stated.pred } else { ctx.radians_stated.gold };
    if !(ctx.opts.angle_conversion || other_states_radians) {
        return None;
    }
    let radians = Node::Div(
        Box::new(Node::Mul(vec![x.clone(), Node::Const(crate::ast::Constant::Pi)])),
        Box::new(Node::int(180)),
    );
    pair(&radians).map(|_| "degrees_as_radians")
}

/// The items of a list or set, or `None` for other nodes.
fn items(n: &Node) -> Option<&[Node]> {
    match n {
        Node::List(v, _) | Node::Set(v) => Some(v),
        _ => None,
    }
}

/// Lists nested in lists flattened one level (`21, 16 or 11` is three answers).
fn flattened(v: &[Node]) -> Vec<Node> {
    let mut out = Vec::with_capacity(v.len());
    for n in v {
        match n {
            Node::List(inner, ListKind::Comma | ListKind::Alternatives) => out.extend(inner.iter().cloned()),
            other => out.push(other.clone()),
        }
    }
    out
}
