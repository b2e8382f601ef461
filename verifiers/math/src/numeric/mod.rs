//! Complex floating-point evaluation at pseudo-random points, for what normal forms cannot
//! settle (trigonometry, logarithms, fractional powers of variables).

use std::collections::HashMap;

use num_traits::ToPrimitive;

use crate::ast::{Constant, Node};
use crate::limits::MAX_SERIES_TERMS;

mod precise;

pub use precise::distance_within;

/// A complex number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct C {
    pub re: f64,
    pub im: f64,
}

impl C {
    pub const fn real(re: f64) -> C {
        C { re, im: 0.0 }
    }
    pub fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    pub fn is_finite(self) -> bool {
        self.re.is_finite() && self.im.is_finite()
    }
    fn add(self, o: C) -> C {
        C { re: self.re + o.re, im: self.im + o.im }
    }
    fn sub(self, o: C) -> C {
        C { re: self.re - o.re, im: self.im - o.im }
    }
    fn mul(self, o: C) -> C {
        C { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
    fn div(self, o: C) -> C {
        let d = o.re * o.re + o.im * o.im;
        if d == 0.0 {
            return C::real(f64::NAN);
        }
        C { re: (self.re * o.re + self.im * o.im) / d, im: (self.im * o.re - self.re * o.im) / d }
    }
    fn neg(self) -> C {
        C { re: -self.re, im: -self.im }
    }
    fn exp(self) -> C {
        let m = self.re.exp();
        C { re: m * self.im.cos(), im: m * self.im.sin() }
    }
    fn ln(self) -> C {
        C { re: self.abs().ln(), im: self.im.atan2(self.re) }
    }
    fn is_real(self) -> bool {
        self.im == 0.0
    }
    fn powc(self, e: C) -> C {
        if e.is_real() && e.re.fract() == 0.0 && e.re.abs() <= 64.0 {
            let n = e.re as i32;
            let mut acc = C::real(1.0);
            for _ in 0..n.unsigned_abs() {
                acc = acc.mul(self);
            }
            return if n < 0 { C::real(1.0).div(acc) } else { acc };
        }
        if self.re == 0.0 && self.im == 0.0 {
            return if e.re > 0.0 { C::real(0.0) } else { C::real(f64::NAN) };
        }
        if self.is_real() && self.re > 0.0 && e.is_real() {
            return C::real(self.re.powf(e.re));
        }
        e.mul(self.ln()).exp()
    }
    fn sin(self) -> C {
        C { re: self.re.sin() * self.im.cosh(), im: self.re.cos() * self.im.sinh() }
    }
    fn cos(self) -> C {
        C { re: self.re.cos() * self.im.cosh(), im: -self.re.sin() * self.im.sinh() }
    }
}

/// A value and the largest magnitude met while computing it, so cancellation to zero is
/// judged relative to the terms that cancelled rather than against an absolute epsilon.
#[derive(Debug, Clone, Copy)]
pub struct Eval {
    pub value: C,
    pub scale: f64,
}

/// FNV-1a, for deterministic pseudo-random values.
fn hash(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in *part {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// The value a variable takes at sample point `point`: in [1.1, 3.1], away from the integers
/// and simple fractions where special cases hide.
pub fn variable_value(name: &str, point: u32) -> f64 {
    1.1 + 2.0 * unit(hash(&[name.as_bytes(), &point.to_le_bytes()]))
}

/// Evaluates `node` at sample point `point`; `None` when it has no numeric value there.
pub fn evaluate(node: &Node, point: u32) -> Option<Eval> {
    let mut ev = Evaluator { point, env: HashMap::new(), scale: 0.0, budget: 50_000 };
    let value = ev.eval(node)?;
    value.is_finite().then_some(Eval { value, scale: ev.scale.max(value.abs()) })
}

struct Evaluator {
    point: u32,
    env: HashMap<String, C>,
    scale: f64,
    budget: u32,
}

impl Evaluator {
    fn note(&mut self, v: C) -> C {
        let m = v.abs();
        if m.is_finite() && m > self.scale {
            self.scale = m;
        }
        v
    }

    fn eval(&mut self, node: &Node) -> Option<C> {
        self.budget = self.budget.checked_sub(1)?;
        if !crate::work::tick(1) {
            return None;
        }
        let v = match node {
            Node::Num { value, .. } => C::real(value.to_f64()?),
            Node::Sym(s) => match self.env.get(s) {
                Some(v) => *v,
                None => C::real(variable_value(s, self.point)),
            },
            Node::Const(Constant::Pi) => C::real(std::f64::consts::PI),
            Node::Const(Constant::E) => C::real(std::f64::consts::E),
            Node::Const(Constant::I) => C { re: 0.0, im: 1.0 },
            Node::Const(Constant::Infinity) => return None,
            Node::Neg(a) => self.eval(a)?.neg(),
            Node::Add(items) => {
                let mut acc = C::real(0.0);
                for item in items {
                    let v = self.eval(item)?;
                    self.note(v);
                    acc = acc.add(v);
                }
                acc
            }
            Node::Mul(items) => {
                let mut acc = C::real(1.0);
                for item in items {
                    acc = acc.mul(self.eval(item)?);
                }
                acc
            }
            Node::Div(a, b) => self.eval(a)?.div(self.eval(b)?),
            Node::Pow(a, b) => {
                let base = self.eval(a)?;
                let exp = self.eval(b)?;
                base.powc(exp)
            }
            Node::Func(name, args) => self.function(name, args)?,
            Node::Series { product, var, lo, hi, body } => self.series(*product, var, lo, hi, body, node)?,
            Node::PlusMinus(..)
            | Node::Percent(_)
            | Node::Degrees(_)
            | Node::Tuple(_)
            | Node::Set(_)
            | Node::Interval { .. }
            | Node::Union(_)
            | Node::List(..)
            | Node::Matrix(_)
            | Node::Relation { .. }
            | Node::Ratio(_)
            | Node::Text(_)
            | Node::Ellipsis => return None,
        };
        v.is_finite().then_some(v)
    }

    fn function(&mut self, name: &str, args: &[Node]) -> Option<C> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let x = *vals.first()?;
        let one = C::real(1.0);
        let v = match (name, vals.len()) {
            ("sin", 1) => x.sin(),
            ("cos", 1) => x.cos(),
            ("tan", 1) => x.sin().div(x.cos()),
            ("sec", 1) => one.div(x.cos()),
            ("csc", 1) => one.div(x.sin()),
            ("cot", 1) => x.cos().div(x.sin()),
            ("sinh", 1) => x.exp().sub(x.neg().exp()).mul(C::real(0.5)),
            ("cosh", 1) => x.exp().add(x.neg().exp()).mul(C::real(0.5)),
            ("tanh", 1) => {
                let (a, b) = (x.exp(), x.neg().exp());
                a.sub(b).div(a.add(b))
            }
            ("arcsin" | "arccos" | "arctan" | "arcsec" | "arccsc" | "arccot", 1) if x.is_real() => {
                let r = x.re;
                C::real(match name {
                    "arcsin" => r.asin(),
                    "arccos" => r.acos(),
                    "arctan" => r.atan(),
                    "arcsec" => (1.0 / r).acos(),
                    "arccsc" => (1.0 / r).asin(),
                    _ => (1.0 / r).atan(),
                })
            }
            ("ln", 1) | ("log", 1) => x.ln(),
            ("log", 2) => x.ln().div(vals[1].ln()),
            ("sqrt", 1) => x.powc(C::real(0.5)),
            ("root", 2) => {
                let n = vals[1];
                // Odd roots of negative reals are real, as in the normal form.
                if x.is_real() && x.re < 0.0 && n.is_real() && n.re.fract() == 0.0 && (n.re as i64) % 2 != 0 {
                    C::real(-(-x.re).powf(1.0 / n.re))
                } else {
                    x.powc(one.div(n))
                }
            }
            ("abs", 1) => C::real(x.abs()),
            ("floor", 1) if x.is_real() => C::real(x.re.floor()),
            ("ceil", 1) if x.is_real() => C::real(x.re.ceil()),
            ("fact", 1) if x.is_real() && x.re.fract() == 0.0 && (0.0..=170.0).contains(&x.re) => {
                C::real((2..=x.re as u32).fold(1.0, |a, k| a * f64::from(k)))
            }
            ("binom", 2) if x.is_real() && vals[1].is_real() && vals[1].re.fract() == 0.0 => {
                let k = vals[1].re;
                if !(0.0..=1000.0).contains(&k) {
                    return None;
                }
                C::real((0..k as u32).fold(1.0, |a, j| a * (x.re - f64::from(j)) / f64::from(j + 1)))
            }
            ("re", 1) => C::real(x.re),
            ("im", 1) => C::real(x.im),
            ("conj", 1) => C { re: x.re, im: -x.im },
            ("max" | "min", _) if vals.iter().all(|v| v.is_real()) => {
                let it = vals.iter().map(|v| v.re);
                C::real(if name == "max" { it.fold(f64::MIN, f64::max) } else { it.fold(f64::MAX, f64::min) })
            }
            // An unknown function is a fixed but arbitrary function of its arguments.
            _ if !crate::functions::is_known(name) => C::real(unknown_function_value(name, &vals)),
            _ => return None,
        };
        Some(v)
    }

    fn series(&mut self, product: bool, var: &str, lo: &Node, hi: &Node, body: &Node, whole: &Node) -> Option<C> {
        let a = self.eval(lo)?;
        let b = self.eval(hi)?;
        let integral = |c: C| c.is_real() && c.re.fract() == 0.0;
        if !(integral(a) && integral(b)) {
            return Some(C::real(symbolic_series_value(whole, self.point)));
        }
        let (a, b) = (a.re.to_i64()?, b.re.to_i64()?);
        if b.saturating_sub(a) > MAX_SERIES_TERMS {
            return None;
        }
        let saved = self.env.remove(var);
        let mut acc = C::real(if product { 1.0 } else { 0.0 });
        let mut ok = true;
        for k in a..=b {
            self.env.insert(var.to_owned(), C::real(k as f64));
            match self.eval(body) {
                Some(v) => acc = if product { acc.mul(v) } else { acc.add(v) },
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

/// The value a sum or product with symbolic bounds takes at a sample point: arbitrary but
/// fixed, keyed by its exact form, so equal forms agree and different ones do not.
pub fn symbolic_series_value(whole: &Node, point: u32) -> f64 {
    let key = crate::normal::normal_form(whole).map(|n| n.key()).unwrap_or_else(|_| format!("{whole}"));
    1.0 + unit(hash(&[key.as_bytes(), &point.to_le_bytes()]))
}

/// The value of an unknown function at arguments already evaluated in double precision.
pub fn unknown_function_value(name: &str, args: &[C]) -> f64 {
    // Arguments are rounded to 9 significant digits so the same argument computed two ways
    // hashes the same.
    let mut parts: Vec<Vec<u8>> = vec![name.as_bytes().to_vec()];
    for v in args {
        parts.push(format!("{:.9e}|{:.9e}", v.re, v.im).into_bytes());
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    1.0 + unit(hash(&refs))
}

/// How two sampled values relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    Equal,
    Different,
    /// Neither side had a value at enough points.
    Unknown,
}

/// True when `a` and `b` agree to `tol` relative to their magnitude and to the magnitude of
/// the terms that produced them.
pub fn close(a: Eval, b: Eval, tol: f64) -> bool {
    let diff = a.value.sub(b.value).abs();
    let magnitude = a.value.abs().max(b.value.abs());
    let scale = a.scale.max(b.scale);
    diff <= tol * magnitude || diff <= 64.0 * f64::EPSILON * scale
}

/// Compares two scalars at several sample points.
///
/// When `confirm` is set, values found equal in double precision are evaluated again with
/// 256-bit floats where every intermediate value is real, and must agree to about 60 digits
/// there: numbers that differ past the 16th digit are not credited as equal.
pub fn agree(a: &Node, b: &Node, tol: f64, confirm: bool) -> Agreement {
    let constant = a.is_constant() && b.is_constant();
    let points = if constant { 1 } else { 8 };
    let mut valid = 0;
    for point in 0..points {
        let (Some(va), Some(vb)) = (evaluate(a, point), evaluate(b, point)) else {
            continue;
        };
        if !close(va, vb, tol) {
            return Agreement::Different;
        }
        valid += 1;
    }
    if valid < if constant { 1 } else { 3 } {
        return Agreement::Unknown;
    }
    if confirm {
        for point in 0..if constant { 1 } else { 2 } {
            if precise::agree_at(a, b, point) == Some(false) {
                return Agreement::Different;
            }
        }
    }
    Agreement::Equal
}
