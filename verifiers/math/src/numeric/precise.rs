//! A second evaluation with 256-bit binary floats, confirming what double-precision sampling
//! found equal. It covers real values only; where an intermediate value is complex or a
//! function is outside its domain it declines, and the double-precision result stands.

use std::cell::RefCell;
use std::collections::HashMap;

use astro_float::{BigFloat, Consts, Radix, RoundingMode};
use num_rational::BigRational;
use num_traits::ToPrimitive;

use super::{C, evaluate, symbolic_series_value, unknown_function_value, variable_value};
use crate::ast::{Constant, Node};

/// Working precision in bits.
const P: usize = 256;
const RM: RoundingMode = RoundingMode::ToEven;
/// Two values agree when their difference is below 2^-200 of their magnitude (about 60
/// decimal digits), leaving 56 bits for round-off in long computations.
const AGREE_BITS: i64 = 200;
/// Largest exact rational converted, in bits.
const MAX_LITERAL_BITS: u64 = 4096;
/// Most series terms evaluated.
const MAX_TERMS: i64 = 1000;

thread_local! {
    /// Cached constants (π, e, ln 2) at the working precision, one cache per thread.
    static CONSTS: RefCell<Option<Consts>> = RefCell::new(Consts::new().ok());
}

/// `Some(true)` when `a` and `b` agree at sample point `point` to about 60 digits,
/// `Some(false)` when they do not, `None` when either has no real value there.
pub fn agree_at(a: &Node, b: &Node, point: u32) -> Option<bool> {
    CONSTS.with(|cell| {
        let mut guard = cell.try_borrow_mut().ok()?;
        let cc = guard.as_mut()?;
        let mut ev = Precise { point, cc, env: HashMap::new(), scale: None, budget: 20_000 };
        let va = ev.eval(a)?;
        let vb = ev.eval(b)?;
        let diff = va.sub(&vb, P, RM);
        if diff.is_nan() || diff.is_inf() {
            return None;
        }
        if diff.is_zero() {
            return Some(true);
        }
        let magnitude = [exponent(&va), exponent(&vb), ev.scale].into_iter().flatten().max()?;
        Some(exponent(&diff)? <= magnitude - AGREE_BITS)
    })
}

/// Whether the real constant `value` lies within `radius` of `centre`, decided in 256-bit
/// floats: `Some(Less)` inside, `Some(Greater)` outside, `None` when it has no real value or
/// its distance is within round-off of the radius (too close to call, so never credited).
pub fn distance_within(value: &Node, centre: &BigRational, radius: &BigRational) -> Option<std::cmp::Ordering> {
    CONSTS.with(|cell| {
        let mut guard = cell.try_borrow_mut().ok()?;
        let cc = guard.as_mut()?;
        let mut ev = Precise { point: 0, cc, env: HashMap::new(), scale: None, budget: 20_000 };
        let v = ev.eval(value)?;
        let c = ev.eval(&Node::rational(centre.clone()))?;
        let r = ev.eval(&Node::rational(radius.clone()))?;
        let gap = v.sub(&c, P, RM).abs().sub(&r, P, RM);
        if gap.is_nan() || gap.is_inf() {
            return None;
        }
        let magnitude = [exponent(&v), exponent(&c), exponent(&r), ev.scale].into_iter().flatten().max()?;
        if gap.is_zero() || exponent(&gap)? <= magnitude - AGREE_BITS {
            return None;
        }
        Some(if gap.is_positive() { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Less })
    })
}

/// The binary exponent of a nonzero finite value.
fn exponent(x: &BigFloat) -> Option<i64> {
    if x.is_zero() || x.is_nan() || x.is_inf() {
        return None;
    }
    x.exponent().map(i64::from)
}

struct Precise<'a> {
    point: u32,
    cc: &'a mut Consts,
    env: HashMap<String, BigFloat>,
    /// The largest exponent of a term that was added, so cancellation is judged against it.
    scale: Option<i64>,
    budget: u32,
}

fn finite(x: BigFloat) -> Option<BigFloat> {
    (!x.is_nan() && !x.is_inf()).then_some(x)
}

fn is_positive(x: &BigFloat) -> bool {
    x.is_positive() && !x.is_zero()
}

/// The value as a small integer, when it is one exactly.
fn small_int(x: &BigFloat, limit: i64, cc: &mut Consts) -> Option<i64> {
    if !x.is_int() {
        return None;
    }
    let text = x.format(Radix::Dec, RM, cc).ok()?;
    let v = text.parse::<f64>().ok()?;
    (v.abs() <= limit as f64).then(|| v.round() as i64)
}

impl Precise<'_> {
    fn note(&mut self, x: &BigFloat) {
        if let Some(e) = exponent(x) {
            self.scale = Some(self.scale.map_or(e, |s| s.max(e)));
        }
    }

    fn int(&self, n: i64) -> BigFloat {
        BigFloat::from_i64(n, P)
    }

    fn eval(&mut self, node: &Node) -> Option<BigFloat> {
        self.budget = self.budget.checked_sub(1)?;
        if !crate::work::tick(1) {
            return None;
        }
        let v = match node {
            Node::Num { value, .. } => {
                if value.numer().bits() > MAX_LITERAL_BITS || value.denom().bits() > MAX_LITERAL_BITS {
                    return None;
                }
                let n = BigFloat::parse(&value.numer().to_string(), Radix::Dec, P, RM, self.cc);
                let d = BigFloat::parse(&value.denom().to_string(), Radix::Dec, P, RM, self.cc);
                n.div(&d, P, RM)
            }
            Node::Sym(s) => match self.env.get(s) {
                Some(v) => v.clone(),
                None => BigFloat::from_f64(variable_value(s, self.point), P),
            },
            Node::Const(Constant::Pi) => self.cc.pi(P, RM),
            Node::Const(Constant::E) => self.cc.e(P, RM),
            Node::Const(Constant::I | Constant::Infinity) => return None,
            Node::Neg(a) => self.eval(a)?.neg(),
            Node::Add(items) => {
                let mut acc = self.int(0);
                for item in items {
                    let v = self.eval(item)?;
                    self.note(&v);
                    acc = acc.add(&v, P, RM);
                }
                acc
            }
            Node::Mul(items) => {
                let mut acc = self.int(1);
                for item in items {
                    acc = acc.mul(&self.eval(item)?, P, RM);
                }
                acc
            }
            Node::Div(a, b) => {
                let d = self.eval(b)?;
                if d.is_zero() {
                    return None;
                }
                self.eval(a)?.div(&d, P, RM)
            }
            Node::Pow(a, b) => self.power(a, b)?,
            Node::Func(name, args) => self.function(name, args)?,
            Node::Series { product, var, lo, hi, body } => self.series(*product, var, lo, hi, body, node)?,
            _ => return None,
        };
        finite(v)
    }

    fn power(&mut self, base: &Node, exp: &Node) -> Option<BigFloat> {
        if matches!(base, Node::Const(Constant::E)) {
            let x = self.eval(exp)?;
            return finite(x.exp(P, RM, self.cc));
        }
        let b = self.eval(base)?;
        let e = self.eval(exp)?;
        if let Some(n) = small_int(&e, 100_000, self.cc) {
            let r = b.powi(n.unsigned_abs() as usize, P, RM);
            return if n < 0 { if r.is_zero() { None } else { finite(r.reciprocal(P, RM)) } } else { finite(r) };
        }
        if !is_positive(&b) {
            return None;
        }
        finite(b.pow(&e, P, RM, self.cc))
    }

    fn function(&mut self, name: &str, args: &[Node]) -> Option<BigFloat> {
        if !crate::functions::is_known(name) {
            // The same arbitrary value the double-precision path gives, from the same inputs.
            let vals: Vec<C> = args.iter().map(|a| evaluate(a, self.point).map(|e| e.value)).collect::<Option<_>>()?;
            return Some(BigFloat::from_f64(unknown_function_value(name, &vals), P));
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let x = vals.first()?.clone();
        let one = self.int(1);
        let cc = &mut *self.cc;
        let v = match (name, vals.len()) {
            ("sin", 1) => x.sin(P, RM, cc),
            ("cos", 1) => x.cos(P, RM, cc),
            ("tan", 1) => x.tan(P, RM, cc),
            ("sec", 1) => one.div(&x.cos(P, RM, cc), P, RM),
            ("csc", 1) => one.div(&x.sin(P, RM, cc), P, RM),
            ("cot", 1) => one.div(&x.tan(P, RM, cc), P, RM),
            ("arcsin", 1) => x.asin(P, RM, cc),
            ("arccos", 1) => x.acos(P, RM, cc),
            ("arctan", 1) => x.atan(P, RM, cc),
            ("sinh", 1) => x.sinh(P, RM, cc),
            ("cosh", 1) => x.cosh(P, RM, cc),
            ("tanh", 1) => x.tanh(P, RM, cc),
            ("ln" | "log", 1) if is_positive(&x) => x.ln(P, RM, cc),
            ("log", 2) if is_positive(&x) && is_positive(&vals[1]) => {
                x.ln(P, RM, cc).div(&vals[1].ln(P, RM, cc), P, RM)
            }
            ("sqrt", 1) if !x.is_negative() => x.sqrt(P, RM),
            ("root", 2) => {
                let n = small_int(&vals[1], 1000, cc)?;
                if n == 0 {
                    return None;
                }
                let inv = one.div(&vals[1], P, RM);
                if is_positive(&x) {
                    x.pow(&inv, P, RM, cc)
                } else if x.is_negative() && n % 2 != 0 {
                    x.neg().pow(&inv, P, RM, cc).neg()
                } else {
                    return None;
                }
            }
            ("abs", 1) => x.abs(),
            ("floor", 1) => x.floor(),
            ("ceil", 1) => x.ceil(),
            ("fact", 1) => {
                let n = small_int(&x, 1000, cc).filter(|n| *n >= 0)?;
                (2..=n).fold(one, |acc, k| acc.mul(&BigFloat::from_i64(k, P), P, RM))
            }
            ("binom", 2) => {
                let k = small_int(&vals[1], 1000, cc).filter(|k| *k >= 0)?;
                let mut acc = one;
                for j in 0..k {
                    let top = x.sub(&BigFloat::from_i64(j, P), P, RM);
                    acc = acc.mul(&top, P, RM).div(&BigFloat::from_i64(j + 1, P), P, RM);
                }
                acc
            }
            _ => return None,
        };
        finite(v)
    }

    fn series(
        &mut self,
        product: bool,
        var: &str,
        lo: &Node,
        hi: &Node,
        body: &Node,
        whole: &Node,
    ) -> Option<BigFloat> {
        let bounds = evaluate(lo, self.point).zip(evaluate(hi, self.point));
        let (a, b) = bounds?;
        let integral = |c: C| c.im == 0.0 && c.re.fract() == 0.0;
        if !(integral(a.value) && integral(b.value)) {
            return Some(BigFloat::from_f64(symbolic_series_value(whole, self.point), P));
        }
        let (a, b) = (a.value.re.to_i64()?, b.value.re.to_i64()?);
        if b.saturating_sub(a) > MAX_TERMS {
            return None;
        }
        let saved = self.env.remove(var);
        let mut acc = self.int(if product { 1 } else { 0 });
        let mut ok = true;
        for k in a..=b {
            self.env.insert(var.to_owned(), BigFloat::from_i64(k, P));
            match self.eval(body) {
                Some(v) => acc = if product { acc.mul(&v, P, RM) } else { acc.add(&v, P, RM) },
                None => {
                    ok = false;
                    break;
                }
            }
        }
        self.env.remove(var);
        if let Some(s) = saved {
            self.env.insert(var.to_owned(), s);
        }
        ok.then_some(acc)
    }
}
