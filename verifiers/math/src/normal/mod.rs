//! Exact normal forms: an expression becomes a quotient of two [`Poly`]s, and two expressions
//! are equal when `a·d − c·b` is the zero polynomial.

mod poly;

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

pub use poly::{Atom, NfError, Poly, qadd, qmul, qrecip, ratio};
use poly::{rational_pow, rational_root, small_integer};

use crate::ast::{Constant, Node};
use crate::limits::{MAX_EXACT_SERIES_TERMS, MAX_EXPANDED_POWER, MAX_FACTORIAL};

/// An exact value: `num / den`. `complete` is false when a radical could not be fully reduced
/// (a huge radicand), so a difference cannot prove inequality; equality is always proof.
#[derive(Debug, Clone)]
pub struct Normal {
    pub num: Poly,
    pub den: Poly,
    pub complete: bool,
}

type NResult = Result<Normal, NfError>;

impl Normal {
    fn poly(p: Poly) -> Self {
        Normal { num: p, den: Poly::constant(BigRational::one()), complete: true }
    }

    fn constant(c: BigRational) -> Self {
        Normal::poly(Poly::constant(c))
    }

    /// A term the ring cannot see inside. It is still exact: equal keys are equal values, and a
    /// difference in which opaque terms remain proves nothing (see [`Normal::compare`]).
    fn opaque(key: String) -> Self {
        Normal::poly(Poly::atom(Atom::Opaque(key)))
    }

    /// The rational value, when the form is a rational constant.
    pub fn as_rational(&self) -> Option<BigRational> {
        let n = self.num.as_constant()?;
        let d = self.den.as_constant()?;
        if d.is_zero() { None } else { Some(qmul(&n, &qrecip(&d))) }
    }

    /// Folds a single-term denominator into the numerator and scales a sum to a monic one.
    fn tidy(mut self) -> NResult {
        if let Some(inv) = self.den.invert_term() {
            self.num = self.num.mul(&inv?)?;
            self.den = Poly::constant(BigRational::one());
            return Ok(self);
        }
        if let Some(lead) = self.den.leading().cloned() {
            let k = qrecip(&lead);
            self.num = self.num.scale(&k)?;
            self.den = self.den.scale(&k)?;
        }
        Ok(self)
    }

    fn add(&self, o: &Normal) -> NResult {
        let complete = self.complete && o.complete;
        if self.den == o.den {
            return Normal { num: self.num.add(&o.num)?, den: self.den.clone(), complete }.tidy();
        }
        let num = self.num.mul(&o.den)?.add(&o.num.mul(&self.den)?)?;
        Normal { num, den: self.den.mul(&o.den)?, complete }.tidy()
    }

    fn neg(&self) -> Normal {
        Normal { num: self.num.neg(), ..self.clone() }
    }

    fn mul(&self, o: &Normal) -> NResult {
        let complete = self.complete && o.complete;
        Normal { num: self.num.mul(&o.num)?, den: self.den.mul(&o.den)?, complete }.tidy()
    }

    fn recip(&self) -> NResult {
        if self.num.is_zero() {
            return Err(NfError::Undefined);
        }
        Normal { num: self.den.clone(), den: self.num.clone(), complete: self.complete }.tidy()
    }

    fn pow_int(&self, n: i64) -> NResult {
        let base = if n < 0 { self.recip()? } else { self.clone() };
        let m = n.unsigned_abs();
        let single = base.num.single_term().is_some() && base.den.as_constant().is_some();
        if m > MAX_EXPANDED_POWER && !single {
            return Err(NfError::TooBig);
        }
        if let (Some(c), true) = (base.as_rational(), m > MAX_EXPANDED_POWER) {
            let exp = i64::try_from(m).map_err(|_| NfError::TooBig)?;
            return Ok(Normal::constant(rational_pow(&c, exp)?));
        }
        Normal { num: base.num.pow(m)?, den: base.den.pow(m)?, complete: base.complete }.tidy()
    }

    /// `Some(true)` when the two forms denote the same value (`a·d − c·b = 0`), `Some(false)`
    /// when they provably differ, `None` when the forms cannot tell.
    ///
    /// A nonzero difference proves inequality when it has no term the ring cannot see inside:
    /// opaque terms that cancel (`sin 1 − sin 1`) cancel exactly, so `sin 1 + 10^{-12}` is not
    /// `sin 1`, however close the numbers are.
    pub fn compare(&self, o: &Normal) -> Result<Option<bool>, NfError> {
        // Two constants: compare cross products, with no gcd on large numbers.
        if let (Some(a), Some(b)) = (self.as_rational(), o.as_rational()) {
            return Ok(Some(a.numer() * b.denom() == b.numer() * a.denom()));
        }
        let diff = self.num.mul(&o.den)?.sub(&o.num.mul(&self.den)?)?;
        if diff.is_zero() {
            return Ok(Some(true));
        }
        let certain = self.complete && o.complete && !diff.has_uncertain_atoms();
        Ok(certain.then_some(false))
    }

    /// A text equal for equal forms (used to key opaque terms built from this one).
    pub fn key(&self) -> String {
        format!("{}/{}", self.num.key(), self.den.key())
    }

    /// True when the value is certainly exact and canonical.
    pub fn is_canonical(&self) -> bool {
        self.complete && !self.num.has_uncertain_atoms() && !self.den.has_uncertain_atoms()
    }
}

/// Builds the normal form of a scalar node.
pub fn normal_form(node: &Node) -> NResult {
    Builder { env: HashMap::new(), budget: 20_000 }.build(node)
}

struct Builder {
    /// Values bound by a series index.
    env: HashMap<String, Normal>,
    /// Node visits left; series expansion spends it.
    budget: u32,
}

impl Builder {
    fn build(&mut self, node: &Node) -> NResult {
        self.budget = self.budget.checked_sub(1).ok_or(NfError::TooBig)?;
        if !crate::work::tick(1) {
            return Err(NfError::TooBig);
        }
        match node {
            Node::Num { value, .. } => Ok(Normal::constant(value.clone())),
            Node::Sym(s) => Ok(match self.env.get(s) {
                Some(v) => v.clone(),
                None => Normal::poly(Poly::atom(Atom::Sym(s.clone()))),
            }),
            Node::Const(Constant::Pi) => Ok(Normal::poly(Poly::atom(Atom::Pi))),
            Node::Const(Constant::E) => Ok(Normal::poly(Poly::atom(Atom::E))),
            Node::Const(Constant::I) => Ok(Normal::poly(Poly::atom(Atom::I))),
            Node::Const(Constant::Infinity) => Err(NfError::NotScalar),
            Node::Neg(a) => Ok(self.build(a)?.neg()),
            Node::Add(items) => {
                let mut acc = Normal::constant(BigRational::zero());
                for item in items {
                    acc = acc.add(&self.build(item)?)?;
                }
                Ok(acc)
            }
            Node::Mul(items) => {
                let mut acc = Normal::constant(BigRational::one());
                for item in items {
                    acc = acc.mul(&self.build(item)?)?;
                }
                Ok(acc)
            }
            Node::Div(a, b) => {
                let num = self.build(a)?;
                let den = self.build(b)?;
                num.mul(&den.recip()?)
            }
            Node::Pow(base, exp) => self.power(base, exp),
            Node::Func(name, args) => self.function(name, args),
            Node::Series { product, var, lo, hi, body } => self.series(*product, var, lo, hi, body),
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
            | Node::Ellipsis => Err(NfError::NotScalar),
        }
    }

    fn power(&mut self, base: &Node, exp: &Node) -> NResult {
        let e = self.build(exp)?;
        let b = self.build(base)?;
        if let Some(ev) = e.as_rational() {
            if let Some(n) = small_integer(&ev) {
                return b.pow_int(n);
            }
            if ev.is_integer() {
                // An integer exponent too large for i64 only stays finite on 0 and ±1.
                return match b.as_rational() {
                    Some(c) if c.is_zero() || c.abs().is_one() => Ok(Normal::constant(rational_pow(&c, 2)?)),
                    _ => Err(NfError::TooBig),
                };
            }
            let p = ev.numer().to_i64();
            let q = ev.denom().to_u32();
            if let (Some(c), Some(p), Some(q)) = (b.as_rational(), p, q)
                && let Some((poly, certain)) = rational_root(&c, p, q)?
            {
                return Ok(Normal { complete: certain, ..Normal::poly(poly) });
            }
        }
        Ok(Normal::opaque(format!("pow({},{})", b.key(), e.key())))
    }

    fn function(&mut self, name: &str, args: &[Node]) -> NResult {
        match (name, args) {
            ("sqrt", [x]) => {
                let half = Node::rational(BigRational::new(BigInt::one(), BigInt::from(2)));
                self.power(x, &half)
            }
            ("root", [x, n]) => {
                let inv = Node::Div(Box::new(Node::int(1)), Box::new(n.clone()));
                self.power(x, &inv)
            }
            ("abs", [x]) => {
                let v = self.build(x)?;
                match v.as_rational() {
                    Some(c) => Ok(Normal::constant(c.abs())),
                    None => Ok(Normal::opaque(format!("abs({})", v.key()))),
                }
            }
            ("fact", [x]) => {
                let v = self.build(x)?;
                match v.as_rational().and_then(|c| small_integer(&c)) {
                    Some(n) if n < 0 => Err(NfError::Undefined),
                    Some(n) if n.unsigned_abs() <= MAX_FACTORIAL => {
                        let mut acc = BigInt::one();
                        for k in 2..=n {
                            acc *= k;
                        }
                        Ok(Normal::constant(BigRational::from_integer(acc)))
                    }
                    Some(_) => Err(NfError::TooBig),
                    None => Ok(Normal::opaque(format!("fact({})", v.key()))),
                }
            }
            ("binom", [n, k]) => {
                let nv = self.build(n)?;
                let kv = self.build(k)?;
                let ints = nv
                    .as_rational()
                    .and_then(|c| small_integer(&c))
                    .zip(kv.as_rational().and_then(|c| small_integer(&c)));
                match ints {
                    Some((n, k)) if (0..=n).contains(&k) && n.unsigned_abs() <= MAX_FACTORIAL => {
                        // Each partial product is itself a binomial coefficient, so the integer
                        // division is exact.
                        let mut acc = BigInt::one();
                        for j in 0..k {
                            acc = acc * BigInt::from(n - j) / BigInt::from(j + 1);
                        }
                        Ok(Normal::constant(BigRational::from_integer(acc)))
                    }
                    Some((_, _)) if nv.as_rational().is_some() => Ok(Normal::constant(BigRational::zero())),
                    _ => Ok(Normal::opaque(format!("binom({},{})", nv.key(), kv.key()))),
                }
            }
            _ => {
                let mut keys = Vec::with_capacity(args.len());
                for a in args {
                    keys.push(self.build(a).map(|v| v.key()).unwrap_or_else(|_| format!("{a}")));
                }
                Ok(Normal::opaque(format!("{name}({})", keys.join(","))))
            }
        }
    }

    fn series(&mut self, product: bool, var: &str, lo: &Node, hi: &Node, body: &Node) -> NResult {
        let lo_v = self.build(lo)?;
        let hi_v = self.build(hi)?;
        let bounds =
            lo_v.as_rational().and_then(|c| small_integer(&c)).zip(hi_v.as_rational().and_then(|c| small_integer(&c)));
        if let Some((a, b)) = bounds
            && b.saturating_sub(a) < MAX_EXACT_SERIES_TERMS
        {
            let saved = self.env.remove(var);
            let mut acc = Normal::constant(if product { BigRational::one() } else { BigRational::zero() });
            let mut result = Ok(());
            for k in a..=b {
                self.env.insert(var.to_owned(), Normal::constant(BigRational::from_integer(BigInt::from(k))));
                match self.build(body) {
                    Ok(term) => match if product { acc.mul(&term) } else { acc.add(&term) } {
                        Ok(v) => acc = v,
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    },
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            self.env.remove(var);
            if let Some(s) = saved {
                self.env.insert(var.to_owned(), s);
            }
            result?;
            return Ok(acc);
        }
        let saved = self.env.remove(var);
        let body_key = self.build(body).map(|v| v.key()).unwrap_or_else(|_| format!("{body}"));
        if let Some(s) = saved {
            self.env.insert(var.to_owned(), s);
        }
        let kind = if product { "prod" } else { "sum" };
        Ok(Normal::opaque(format!("{kind}({var};{};{};{body_key})", lo_v.key(), hi_v.key())))
    }
}
