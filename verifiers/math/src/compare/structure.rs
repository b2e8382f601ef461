//! Structures: lists and sets (unordered), tuples (ordered), intervals, unions, matrices,
//! ratios; and the rewrites applied before comparing (`±` expansion, matrix arithmetic).

use super::{Ctx, Rule, eq, flattened, items, scalar};
use crate::ast::{ListKind, Node};
use crate::limits::{MAX_ELEMENTS, MAX_PLUS_MINUS, MAX_UNORDERED};

/// Rewrites a parsed answer into the form compared: `a ± b` becomes the set `{a+b, a−b}`,
/// and sums and products of matrices are carried out.
pub fn prepare(n: &Node) -> Node {
    let n = match n {
        Node::Degrees(inner) => Node::Degrees(Box::new(strip_degrees(inner))),
        other => strip_degrees(other),
    };
    let n = expand_plus_minus(&n);
    fold_matrices(&n)
}

/// Degree signs inside a computation (`50^\circ + 40^\circ`) are units; only a whole answer
/// written in degrees may also be read in radians.
fn strip_degrees(n: &Node) -> Node {
    let has = {
        let mut found = false;
        n.visit(&mut |m| found |= matches!(m, Node::Degrees(_)));
        found
    };
    if !has {
        return n.clone();
    }
    let rec = strip_degrees;
    match n {
        Node::Degrees(a) => rec(a),
        Node::Neg(a) => Node::Neg(Box::new(rec(a))),
        Node::Percent(a) => Node::Percent(Box::new(rec(a))),
        Node::Add(v) => Node::Add(v.iter().map(rec).collect()),
        Node::Mul(v) => Node::Mul(v.iter().map(rec).collect()),
        Node::Div(a, b) => Node::Div(Box::new(rec(a)), Box::new(rec(b))),
        Node::Pow(a, b) => Node::Pow(Box::new(rec(a)), Box::new(rec(b))),
        Node::Func(name, args) => Node::Func(name.clone(), args.iter().map(rec).collect()),
        Node::Tuple(v) => Node::Tuple(v.iter().map(keep_top_degrees).collect()),
        Node::Set(v) => Node::Set(v.iter().map(keep_top_degrees).collect()),
        Node::List(v, k) => Node::List(v.iter().map(keep_top_degrees).collect(), *k),
        Node::Relation { members, ops } => {
            Node::Relation { members: members.iter().map(keep_top_degrees).collect(), ops: ops.clone() }
        }
        other => other.clone(),
    }
}

fn keep_top_degrees(n: &Node) -> Node {
    match n {
        Node::Degrees(inner) => Node::Degrees(Box::new(strip_degrees(inner))),
        other => strip_degrees(other),
    }
}

fn count_pm(n: &Node) -> usize {
    let mut count = 0;
    n.visit(&mut |m| {
        if matches!(m, Node::PlusMinus(..)) {
            count += 1;
        }
    });
    count
}

fn expand_plus_minus(n: &Node) -> Node {
    match n {
        Node::List(v, k) => Node::List(expand_items(v), *k),
        Node::Set(v) => Node::Set(expand_items(v)),
        Node::Tuple(v) => Node::Tuple(v.iter().map(expand_plus_minus).collect()),
        Node::Relation { members, ops } => {
            Node::Relation { members: members.iter().map(expand_plus_minus).collect(), ops: ops.clone() }
        }
        Node::Percent(a) => Node::Percent(Box::new(expand_plus_minus(a))),
        other => {
            let k = count_pm(other);
            if k == 0 || k > MAX_PLUS_MINUS {
                return other.clone();
            }
            let mut values: Vec<Node> = Vec::new();
            for signs in 0..(1u32 << k) {
                let mut index = 0;
                let v = choose_signs(other, signs, &mut index);
                if !values.contains(&v) {
                    values.push(v);
                }
            }
            if values.len() == 1 { values.remove(0) } else { Node::Set(values) }
        }
    }
}

/// Items of a list or set, with expanded `±` values spliced in as separate items.
fn expand_items(v: &[Node]) -> Vec<Node> {
    let mut out = Vec::with_capacity(v.len());
    for item in v {
        match expand_plus_minus(item) {
            Node::Set(inner) if matches!(item, Node::Add(_) | Node::PlusMinus(..) | Node::Div(..) | Node::Mul(_)) => {
                out.extend(inner);
            }
            other => out.push(other),
        }
    }
    out
}

/// One sign choice for every `±` in `n`, by the bits of `signs` in visiting order.
fn choose_signs(n: &Node, signs: u32, index: &mut u32) -> Node {
    let mut rec = |c: &Node| choose_signs(c, signs, index);
    match n {
        Node::PlusMinus(a, b) => {
            let a = a.as_ref().map(|a| rec(a));
            let b = rec(b);
            let bit = (signs >> *index) & 1;
            *index += 1;
            let b = if bit == 1 { Node::Neg(Box::new(b)) } else { b };
            match a {
                Some(a) => Node::Add(vec![a, b]),
                None => b,
            }
        }
        Node::Neg(a) => Node::Neg(Box::new(rec(a))),
        Node::Add(v) => Node::Add(v.iter().map(&mut rec).collect()),
        Node::Mul(v) => Node::Mul(v.iter().map(&mut rec).collect()),
        Node::Div(a, b) => {
            let a = rec(a);
            Node::Div(Box::new(a), Box::new(rec(b)))
        }
        Node::Pow(a, b) => {
            let a = rec(a);
            Node::Pow(Box::new(a), Box::new(rec(b)))
        }
        Node::Func(name, args) => Node::Func(name.clone(), args.iter().map(&mut rec).collect()),
        other => other.clone(),
    }
}

/// Carries out `+`, `−` and products on matrices so `A + B` compares with its value.
fn fold_matrices(n: &Node) -> Node {
    match n {
        Node::Add(v) if v.iter().any(|x| matches!(x, Node::Matrix(_))) => {
            let mut acc: Option<Vec<Vec<Node>>> = None;
            for term in v {
                let m = match fold_matrices(term) {
                    Node::Matrix(m) => m,
                    Node::Neg(inner) => match *inner {
                        Node::Matrix(m) => {
                            m.into_iter().map(|r| r.into_iter().map(|c| Node::Neg(Box::new(c))).collect()).collect()
                        }
                        _ => return n.clone(),
                    },
                    _ => return n.clone(),
                };
                acc = Some(match acc {
                    None => m,
                    Some(a) => {
                        if a.len() != m.len() || a.iter().zip(&m).any(|(x, y)| x.len() != y.len()) {
                            return n.clone();
                        }
                        a.into_iter()
                            .zip(m)
                            .map(|(r1, r2)| r1.into_iter().zip(r2).map(|(x, y)| Node::Add(vec![x, y])).collect())
                            .collect()
                    }
                });
            }
            acc.map_or_else(|| n.clone(), Node::Matrix)
        }
        Node::Mul(v) if v.iter().any(|x| matches!(x, Node::Matrix(_))) => {
            let mut scalar: Vec<Node> = Vec::new();
            let mut acc: Option<Vec<Vec<Node>>> = None;
            for f in v {
                match fold_matrices(f) {
                    Node::Matrix(m) => {
                        acc = Some(match acc {
                            None => m,
                            Some(a) => match mat_mul(&a, &m) {
                                Some(p) => p,
                                None => return n.clone(),
                            },
                        })
                    }
                    s if s.is_scalar() => scalar.push(s),
                    _ => return n.clone(),
                }
            }
            let Some(m) = acc else { return n.clone() };
            if scalar.is_empty() {
                return Node::Matrix(m);
            }
            Node::Matrix(
                m.into_iter()
                    .map(|r| r.into_iter().map(|c| Node::Mul(scalar.iter().cloned().chain([c]).collect())).collect())
                    .collect(),
            )
        }
        other => other.clone(),
    }
}

fn mat_mul(a: &[Vec<Node>], b: &[Vec<Node>]) -> Option<Vec<Vec<Node>>> {
    let inner = a.first()?.len();
    if inner != b.len() || a.iter().any(|r| r.len() != inner) || a.len() * inner * b.first()?.len() > MAX_ELEMENTS * 8 {
        return None;
    }
    let cols = b.first()?.len();
    Some(
        a.iter()
            .map(|row| {
                (0..cols)
                    .map(|j| {
                        Node::Add(
                            row.iter().zip(b).map(|(x, brow)| Node::Mul(vec![x.clone(), brow[j].clone()])).collect(),
                        )
                    })
                    .collect()
            })
            .collect(),
    )
}

/// Compares two structures (or two scalars) of matching kinds.
pub fn compare(g: &Node, p: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    match (g, p) {
        (Node::Set(a), Node::Tuple(b)) | (Node::Tuple(a), Node::Set(b)) => ordered(a, b, ctx),
        (Node::List(a, ListKind::Comma), Node::Tuple(b)) => ordered(a, b, ctx).or_else(|| single(g, p, ctx)),
        (Node::Tuple(a), Node::List(b, ListKind::Comma)) => ordered(a, b, ctx).or_else(|| single(g, p, ctx)),
        _ if items(g).is_some() && items(p).is_some() => {
            // Answers are sets: a repeated element is one element.
            let (a, b) = (distinct(items(g).unwrap_or_default()), distinct(items(p).unwrap_or_default()));
            let (a, b) = (a.as_slice(), b.as_slice());
            unordered(a, b, ctx).or_else(|| {
                let (fa, fb) = (flattened(a), flattened(b));
                if fa.len() == a.len() && fb.len() == b.len() { None } else { unordered(&fa, &fb, ctx) }
            })
        }
        (Node::Tuple(a), Node::Tuple(b)) => ordered(a, b, ctx),
        (Node::Interval { .. }, Node::Interval { .. }) => interval(g, p, ctx),
        (Node::Interval { .. }, Node::Tuple(v)) | (Node::Tuple(v), Node::Interval { .. }) if v.len() == 2 => {
            let (i, t) = if matches!(g, Node::Interval { .. }) { (g, p) } else { (p, g) };
            let open = Node::Interval {
                lo: Box::new(v[0].clone()),
                hi: Box::new(v[1].clone()),
                lo_closed: false,
                hi_closed: false,
            };
            let _ = t;
            interval(i, &open, ctx)
        }
        (Node::Union(a), Node::Union(b)) => unordered(a, b, ctx),
        (Node::Matrix(a), Node::Matrix(b)) => {
            if a.len() != b.len() || a.iter().zip(b).any(|(x, y)| x.len() != y.len()) {
                return None;
            }
            let fa: Vec<Node> = a.iter().flatten().cloned().collect();
            let fb: Vec<Node> = b.iter().flatten().cloned().collect();
            ordered(&fa, &fb, ctx).map(|_| "matrix")
        }
        (Node::Matrix(m), Node::Tuple(t)) | (Node::Tuple(t), Node::Matrix(m)) => {
            let flat: Vec<Node> = m.iter().flatten().cloned().collect();
            let vector = m.len() == 1 || m.iter().all(|r| r.len() == 1);
            if vector { ordered(&flat, t, ctx).map(|_| "vector") } else { None }
        }
        (Node::Ratio(a), Node::Ratio(b)) => ratio(a, b, ctx),
        (Node::Ellipsis, Node::Ellipsis) => Some("identical"),
        _ => single(g, p, ctx),
    }
}

/// One side is a one-element collection, or both are scalars.
fn single(g: &Node, p: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    match (items(g), items(p)) {
        (Some([only]), _) => return eq(only, p, ctx),
        (_, Some([only])) => return eq(g, only, ctx),
        _ => {}
    }
    if g.is_scalar() && p.is_scalar() { scalar::compare(g, p, ctx) } else { None }
}

fn distinct(v: &[Node]) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(v.len());
    for n in v {
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    out
}

fn ordered(a: &[Node], b: &[Node], ctx: &Ctx<'_>) -> Option<Rule> {
    if a.len() != b.len() || a.len() > MAX_ELEMENTS {
        return None;
    }
    for (x, y) in a.iter().zip(b) {
        eq(x, y, ctx)?;
    }
    Some("ordered_elements")
}

/// Multiset equality under equivalence, by greedy matching.
fn unordered(a: &[Node], b: &[Node], ctx: &Ctx<'_>) -> Option<Rule> {
    if a.len() != b.len() || a.len() > MAX_UNORDERED {
        return None;
    }
    let mut used = vec![false; b.len()];
    for x in a {
        let found = b.iter().enumerate().position(|(j, y)| !used[j] && eq(x, y, ctx).is_some())?;
        used[found] = true;
    }
    Some("unordered_elements")
}

fn interval(g: &Node, p: &Node, ctx: &Ctx<'_>) -> Option<Rule> {
    let (
        Node::Interval { lo: a_lo, hi: a_hi, lo_closed: a_lc, hi_closed: a_hc },
        Node::Interval { lo: b_lo, hi: b_hi, lo_closed: b_lc, hi_closed: b_hc },
    ) = (g, p)
    else {
        return None;
    };
    // An infinite end is open however it was written.
    let closed = |c: bool, end: &Node| c && !scalar::is_infinite(end);
    if closed(*a_lc, a_lo) != closed(*b_lc, b_lo) || closed(*a_hc, a_hi) != closed(*b_hc, b_hi) {
        return None;
    }
    eq(a_lo, b_lo, ctx)?;
    eq(a_hi, b_hi, ctx)?;
    Some("interval")
}

/// Ratios match term by term, or proportionally when no term is zero (`2:4` is `1:2`).
fn ratio(a: &[Node], b: &[Node], ctx: &Ctx<'_>) -> Option<Rule> {
    if a.len() != b.len() {
        return None;
    }
    if ordered(a, b, ctx).is_some() {
        return Some("ratio");
    }
    if a.iter().chain(b).any(|n| matches!(n, Node::Ellipsis) || scalar::is_zero(n)) {
        return None;
    }
    for i in 1..a.len() {
        let left = Node::Mul(vec![a[0].clone(), b[i].clone()]);
        let right = Node::Mul(vec![a[i].clone(), b[0].clone()]);
        scalar::compare(&left, &right, ctx)?;
    }
    Some("proportional_ratio")
}
