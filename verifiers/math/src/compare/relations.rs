//! Equations, inequalities and membership: `x = 3` against `3`, equations as equations,
//! inequalities up to a positive factor, and inequalities against the sets they describe.

use super::scalar::is_infinite;
use super::{Ctx, Rule, eq};
use crate::ast::{Constant, Node, RelOp};
use crate::numeric;

struct Chain {
    members: Vec<Node>,
    ops: Vec<RelOp>,
}

/// A name-like left side (`x`, `f(x)`, `(p, q)`, `|AB|`, `A:B`): an assignment target.
fn is_target(n: &Node) -> bool {
    match n {
        Node::Sym(_) | Node::Func(..) => true,
        Node::Tuple(v) | Node::Ratio(v) | Node::Mul(v) => v.iter().all(is_target),
        Node::Div(a, b) => is_target(a) && is_target(b),
        _ => false,
    }
}

/// The name a target is headed by, so `W(n)` and `W(x)` label the same unknown.
fn head(n: &Node) -> String {
    match n {
        Node::Sym(s) => s.clone(),
        Node::Func(name, _) => name.clone(),
        other => format!("{other}"),
    }
}

/// Reads a relation node; `x ≈ 11` counts as `x = 11`, and a trailing `≈ 3.01` after a value
/// is dropped.
fn chain(n: &Node) -> Option<Chain> {
    let Node::Relation { members, ops } = n else {
        return None;
    };
    let mut members = members.clone();
    let mut ops = ops.clone();
    if let Some(at) = ops.iter().position(|o| *o == RelOp::Approx) {
        if at == 0 && is_target(&members[0]) {
            ops[0] = RelOp::Eq;
            if let Some(next) = ops[1..].iter().position(|o| *o == RelOp::Approx) {
                ops.truncate(next + 1);
                members.truncate(next + 2);
            }
        } else {
            ops.truncate(at);
            members.truncate(at + 1);
        }
    }
    if ops.is_empty() {
        return None;
    }
    Some(Chain { members, ops })
}

fn all_eq(c: &Chain) -> bool {
    c.ops.iter().all(|o| *o == RelOp::Eq)
}

fn is_inequality(c: &Chain) -> bool {
    c.ops.iter().all(|o| matches!(o, RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge | RelOp::Ne))
}

/// The answer a relation gives when the other side is a bare value: the last member of an
/// `=` chain, the right side of an assignment or of `x ∈ S`.
fn value_of(c: &Chain, allow_assignment: bool) -> Option<&Node> {
    if c.ops.len() == 1 && c.ops[0] == RelOp::In {
        return c.members.get(1);
    }
    if !all_eq(c) {
        return None;
    }
    let lhs = c.members.first()?;
    let last = c.members.last()?;
    if c.members.len() >= 3 || (lhs.is_constant() && lhs.is_scalar() && last.is_constant()) {
        return Some(last);
    }
    (allow_assignment && is_target(lhs)).then_some(last)
}

/// The side of `gold` or `pred` that may be set-like: intervals, unions, finite sets.
fn is_set_like(n: &Node) -> bool {
    match n {
        Node::Interval { .. } | Node::Union(_) | Node::Set(_) => true,
        Node::Tuple(v) => v.len() == 2,
        _ => false,
    }
}

pub fn compare(g: &Node, p: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    let allow = ctx.opts.allow_assignment;
    match (chain(g), chain(p)) {
        (Some(gc), Some(pc)) => both(&gc, &pc, ctx),
        (Some(gc), None) => {
            if let Node::Relation { .. } = p {
                return None;
            }
            if is_inequality(&gc) && is_set_like(p) {
                return inequality_vs_set(&gc, p, ctx);
            }
            value_of(&gc, allow).and_then(|v| eq(v, p, ctx)).map(|_| "relation_value")
        }
        (None, Some(pc)) => {
            // An inequality does not answer a set-valued reference: `x ∈ [a, b]` must be
            // answered with the set (Math-Verify's default, against reward hacking).
            if is_inequality(&pc) {
                return None;
            }
            // A response may also state its value as the result of a computation
            // (`x + y = 7`); a reference equation with a computed left side stays an equation.
            let computed =
                (allow && pc.ops == [RelOp::Eq] && pc.members[1].is_constant() && !pc.members[0].is_constant())
                    .then(|| &pc.members[1]);
            value_of(&pc, allow).or(computed).and_then(|v| eq(g, v, ctx)).map(|_| "relation_value")
        }
        (None, None) => {
            // Both were `≈` chains reduced to a single member.
            let g1 = reduce_approx(g)?;
            let p1 = reduce_approx(p)?;
            eq(&g1, &p1, ctx)
        }
    }
}

fn reduce_approx(n: &Node) -> Option<Node> {
    match n {
        Node::Relation { members, ops } if ops.first() == Some(&RelOp::Approx) => members.first().cloned(),
        Node::Relation { .. } => None,
        other => Some(other.clone()),
    }
}

fn both(g: &Chain, p: &Chain, ctx: &Ctx<'_>) -> Option<Rule> {
    if all_eq(g) && all_eq(p) {
        let (gl, gr) = (g.members.first()?, g.members.last()?);
        let (pl, pr) = (p.members.first()?, p.members.last()?);
        if g.members.len() == p.members.len() && ordered_members(&g.members, &p.members, ctx) {
            return Some("same_relation");
        }
        let same_target = gl == pl || (is_target(gl) && is_target(pl) && head(gl) == head(pl));
        if same_target && eq(gr, pr, ctx).is_some() {
            return Some("equation_rhs");
        }
        if g.members.len() == 2 && p.members.len() == 2 && [gl, gr, pl, pr].iter().all(|n| n.is_scalar()) {
            return proportional(&difference(gl, gr), &difference(pl, pr), false).then_some("equivalent_equation");
        }
        return None;
    }
    if is_inequality(g) && is_inequality(p) {
        return inequalities(g, p).then_some("equivalent_inequality");
    }
    if is_inequality(g) && p.ops.len() == 1 && p.ops[0] == RelOp::In {
        return inequality_vs_set(g, p.members.get(1)?, ctx);
    }
    if g.ops.len() == 1 && g.ops[0] == RelOp::In && p.ops.len() == 1 && p.ops[0] == RelOp::In {
        return eq(g.members.get(1)?, p.members.get(1)?, ctx);
    }
    None
}

fn ordered_members(a: &[Node], b: &[Node], ctx: &Ctx<'_>) -> bool {
    a.iter().zip(b).all(|(x, y)| eq(x, y, ctx).is_some())
}

fn difference(a: &Node, b: &Node) -> Node {
    Node::Add(vec![a.clone(), Node::Neg(Box::new(b.clone()))])
}

/// True when `f = c·g` for a constant `c` (positive when `positive`), checked at sample points.
fn proportional(f: &Node, g: &Node, positive: bool) -> bool {
    let mut ratio: Option<numeric::C> = None;
    let mut valid = 0;
    for point in 0..8 {
        let (Some(a), Some(b)) = (numeric::evaluate(f, point), numeric::evaluate(g, point)) else {
            continue;
        };
        if b.value.abs() <= 64.0 * f64::EPSILON * b.scale {
            // g vanishes here; f must vanish too.
            if a.value.abs() > 1e-9 * a.scale {
                return false;
            }
            continue;
        }
        let r = numeric::C { re: a.value.re / b.value.re, im: 0.0 };
        if a.value.im != 0.0 || b.value.im != 0.0 {
            return false;
        }
        match ratio {
            None => {
                if r.re == 0.0 || !r.re.is_finite() || (positive && r.re < 0.0) {
                    return false;
                }
                ratio = Some(r);
            }
            Some(k) => {
                if (r.re - k.re).abs() > 1e-9 * k.re.abs() {
                    return false;
                }
            }
        }
        valid += 1;
    }
    valid >= 2
}

/// One constraint `f op 0` with `op` in `<`, `≤`, `≠`.
fn constraints(c: &Chain) -> Vec<(Node, RelOp)> {
    let mut out = Vec::new();
    for (i, op) in c.ops.iter().enumerate() {
        let (a, b) = (&c.members[i], &c.members[i + 1]);
        let item = match op {
            RelOp::Lt | RelOp::Le => (difference(a, b), *op),
            RelOp::Gt => (difference(b, a), RelOp::Lt),
            RelOp::Ge => (difference(b, a), RelOp::Le),
            other => (difference(a, b), *other),
        };
        out.push(item);
    }
    out
}

fn inequalities(g: &Chain, p: &Chain) -> bool {
    let gc = constraints(g);
    let pc = constraints(p);
    if gc.len() != pc.len() {
        return false;
    }
    let mut used = vec![false; pc.len()];
    for (f, op) in &gc {
        let positive = matches!(op, RelOp::Lt | RelOp::Le);
        let found =
            pc.iter().enumerate().position(|(j, (h, op2))| !used[j] && op == op2 && proportional(f, h, positive));
        match found {
            Some(j) => used[j] = true,
            None => return false,
        }
    }
    true
}

/// An inequality in one unknown against the set it should describe.
fn inequality_vs_set(g: &Chain, set: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    if let Some(interval) = as_interval(g)
        && eq(&interval, set, ctx).is_some()
    {
        return Some("inequality_as_interval");
    }
    let var = single_variable(g)?;
    let mut ends: Vec<f64> = Vec::new();
    collect_ends(set, &mut ends);
    for m in &g.members {
        if m.is_constant()
            && let Some(v) = numeric::evaluate(m, 0).filter(|v| v.value.im == 0.0)
        {
            ends.push(v.value.re);
        }
    }
    if ends.is_empty() {
        return None;
    }
    ends.sort_by(f64::total_cmp);
    ends.dedup();
    let mut probes: Vec<f64> = Vec::new();
    for (i, e) in ends.iter().enumerate() {
        let d = 1e-6 * e.abs().max(1.0);
        probes.extend([*e, e - d, e + d]);
        if let Some(next) = ends.get(i + 1) {
            probes.push((e + next) / 2.0);
        }
    }
    probes.push(ends[0] - 1.0 - ends[0].abs());
    probes.push(ends[ends.len() - 1] + 1.0 + ends[ends.len() - 1].abs());
    for t in probes {
        let inside_g = holds(g, &var, t)?;
        let inside_p = contains(set, t)?;
        if inside_g != inside_p {
            return None;
        }
    }
    Some("inequality_as_set")
}

/// `x < 1 or x > 2` as the union of the intervals it describes, when every alternative is an
/// inequality with constant bounds on the same expression.
pub fn alternatives_as_union(n: &Node) -> Option<Node> {
    let Node::List(items, _) = n else { return None };
    let mut parts = Vec::with_capacity(items.len());
    let mut subject: Option<&Node> = None;
    for item in items {
        let c = chain(item)?;
        if !is_inequality(&c) {
            return None;
        }
        let interval = as_interval(&c)?;
        let Node::Relation { members, .. } = item else { return None };
        let v = members.iter().find(|m| !m.is_constant())?;
        if *subject.get_or_insert(v) != v {
            return None;
        }
        parts.push(interval);
    }
    Some(Node::Union(parts))
}

/// `a < V < b`, `V ≥ c`, `c > V` with constant bounds, as an interval.
fn as_interval(g: &Chain) -> Option<Node> {
    let inf = || Node::Const(Constant::Infinity);
    let neg_inf = || Node::Neg(Box::new(Node::Const(Constant::Infinity)));
    let closed = |op: RelOp| matches!(op, RelOp::Le | RelOp::Ge);
    let interval = |lo: Node, hi: Node, lc: bool, hc: bool| Node::Interval {
        lo: Box::new(lo),
        hi: Box::new(hi),
        lo_closed: lc,
        hi_closed: hc,
    };
    match (g.members.as_slice(), g.ops.as_slice()) {
        ([a, v, b], [o1, o2]) if a.is_constant() && b.is_constant() && !v.is_constant() => match (o1, o2) {
            (RelOp::Lt | RelOp::Le, RelOp::Lt | RelOp::Le) => {
                Some(interval(a.clone(), b.clone(), closed(*o1), closed(*o2)))
            }
            (RelOp::Gt | RelOp::Ge, RelOp::Gt | RelOp::Ge) => {
                Some(interval(b.clone(), a.clone(), closed(*o2), closed(*o1)))
            }
            _ => None,
        },
        ([v, c], [op]) | ([c, v], [op]) if c.is_constant() && !v.is_constant() => {
            let op = if g.members[0] == *v { *op } else { op.flipped() };
            match op {
                RelOp::Lt | RelOp::Le => Some(interval(neg_inf(), c.clone(), false, closed(op))),
                RelOp::Gt | RelOp::Ge => Some(interval(c.clone(), inf(), closed(op), false)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn single_variable(g: &Chain) -> Option<String> {
    let mut names: Vec<String> = Vec::new();
    for m in &g.members {
        m.visit(&mut |n| {
            if let Node::Sym(s) = n
                && !names.contains(s)
            {
                names.push(s.clone());
            }
        });
    }
    if names.len() == 1 { names.pop() } else { None }
}

fn substitute(n: &Node, var: &str, value: f64) -> Option<f64> {
    let replaced = replace(n, var, value);
    let v = numeric::evaluate(&replaced, 0)?;
    (v.value.im.abs() <= 1e-12 * v.scale).then_some(v.value.re)
}

fn replace(n: &Node, var: &str, value: f64) -> Node {
    let rec = |c: &Node| replace(c, var, value);
    match n {
        Node::Sym(s) if s == var => {
            let as_num = num_rational::BigRational::from_float(value).map(Node::rational);
            as_num.unwrap_or_else(|| n.clone())
        }
        Node::Neg(a) => Node::Neg(Box::new(rec(a))),
        Node::Add(v) => Node::Add(v.iter().map(rec).collect()),
        Node::Mul(v) => Node::Mul(v.iter().map(rec).collect()),
        Node::Div(a, b) => Node::Div(Box::new(rec(a)), Box::new(rec(b))),
        Node::Pow(a, b) => Node::Pow(Box::new(rec(a)), Box::new(rec(b))),
        Node::Func(name, args) => Node::Func(name.clone(), args.iter().map(rec).collect()),
        other => other.clone(),
    }
}

fn holds(g: &Chain, var: &str, t: f64) -> Option<bool> {
    let values: Vec<f64> = g.members.iter().map(|m| substitute(m, var, t)).collect::<Option<_>>()?;
    Some(g.ops.iter().enumerate().all(|(i, op)| {
        let (a, b) = (values[i], values[i + 1]);
        match op {
            RelOp::Lt => a < b,
            RelOp::Le => a <= b,
            RelOp::Gt => a > b,
            RelOp::Ge => a >= b,
            RelOp::Ne => a != b,
            RelOp::Eq | RelOp::Approx | RelOp::In => a == b,
        }
    }))
}

fn end_value(n: &Node) -> Option<f64> {
    if is_infinite(n) {
        return Some(if matches!(n, Node::Neg(_)) { f64::NEG_INFINITY } else { f64::INFINITY });
    }
    let v = numeric::evaluate(n, 0)?;
    (v.value.im == 0.0).then_some(v.value.re)
}

fn collect_ends(set: &Node, out: &mut Vec<f64>) {
    match set {
        Node::Interval { lo, hi, .. } => {
            out.extend([end_value(lo), end_value(hi)].into_iter().flatten().filter(|v| v.is_finite()));
        }
        Node::Tuple(v) | Node::Union(v) | Node::Set(v) => {
            for item in v {
                if matches!(item, Node::Interval { .. } | Node::Set(_)) {
                    collect_ends(item, out);
                } else if let Some(x) = end_value(item).filter(|x| x.is_finite()) {
                    out.push(x);
                }
            }
        }
        _ => {}
    }
}

fn contains(set: &Node, t: f64) -> Option<bool> {
    match set {
        Node::Interval { lo, hi, lo_closed, hi_closed } => {
            let (a, b) = (end_value(lo)?, end_value(hi)?);
            let above = if *lo_closed { t >= a } else { t > a };
            let below = if *hi_closed { t <= b } else { t < b };
            Some(above && below)
        }
        Node::Tuple(v) if v.len() == 2 => {
            let (a, b) = (end_value(&v[0])?, end_value(&v[1])?);
            Some(t > a && t < b)
        }
        Node::Union(v) => {
            let mut any = false;
            for part in v {
                any |= contains(part, t)?;
            }
            Some(any)
        }
        Node::Set(v) => {
            let mut any = false;
            for item in v {
                any |= end_value(item)? == t;
            }
            Some(any)
        }
        _ => None,
    }
}
