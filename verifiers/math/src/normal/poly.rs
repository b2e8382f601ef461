//! Laurent polynomials with exact rational coefficients over atoms (variables, π, e, i,
//! integer radicals and opaque terms), with radicals kept in a canonical reduced form.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::limits::{MAX_BITS, MAX_EXPONENT, MAX_TERMS};

/// An indeterminate of the ring.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    Sym(String),
    Pi,
    E,
    /// The imaginary unit; its exponent is kept in {1} and `i² = -1` folds into the coefficient.
    I,
    /// The `k`-th root of a positive integer with no `k`-th power factor, `k ≥ 2`; its exponent
    /// is kept below `k`.
    Root(BigInt, u32),
    /// A term the ring cannot see inside (`sin(x)`, `x^(1/3)`), keyed by its canonical text.
    Opaque(String),
}

/// A product of atoms with integer exponents.
pub type Mono = BTreeMap<Atom, i64>;

/// Why a normal form could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NfError {
    /// A number or expansion outgrew the caps.
    TooBig,
    /// Division by zero or another undefined value.
    Undefined,
    /// The node is not a single number (a set, an interval, infinity).
    NotScalar,
}

/// A sum of `coefficient · monomial` terms, with no zero coefficients.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Poly {
    terms: BTreeMap<Mono, BigRational>,
}

fn check_bits(c: &BigRational) -> Result<(), NfError> {
    if c.numer().bits() > MAX_BITS || c.denom().bits() > MAX_BITS { Err(NfError::TooBig) } else { Ok(()) }
}

/// Greatest common divisor by Euclid's algorithm. `num-bigint`'s binary gcd takes time
/// quadratic in the bit length even when one side is 1, which made `1/2006!` cost tens of ms.
fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut a, mut b) = (a.abs(), b.abs());
    while !b.is_zero() {
        let r = &a % &b;
        a = b;
        b = r;
    }
    a
}

/// Above this size (of the smaller side, in bits) fractions are kept unreduced: a gcd of two
/// 70,000-bit numbers takes a third of a second, and equality, order and zero tests do not
/// need lowest terms.
const REDUCE_BITS: u64 = 4096;

/// `n / d` with a positive denominator, in lowest terms unless both sides are huge.
pub fn ratio(n: BigInt, d: BigInt) -> BigRational {
    let reduce = n.bits().min(d.bits()) <= REDUCE_BITS;
    let g = if reduce { gcd(&n, &d) } else { BigInt::one() };
    let (mut n, mut d) = if g.is_one() || g.is_zero() { (n, d) } else { (n / &g, d / &g) };
    if d.is_negative() {
        n = -n;
        d = -d;
    }
    BigRational::new_raw(n, d)
}

/// Product of two rationals, with fast paths for units and integers.
pub fn qmul(a: &BigRational, b: &BigRational) -> BigRational {
    if a.is_one() {
        return b.clone();
    }
    if b.is_one() {
        return a.clone();
    }
    if a.is_zero() || b.is_zero() {
        return BigRational::zero();
    }
    if a.is_integer() && b.is_integer() {
        return BigRational::from_integer(a.numer() * b.numer());
    }
    ratio(a.numer() * b.numer(), a.denom() * b.denom())
}

/// Sum of two rationals, with a fast path for integers and shared denominators.
pub fn qadd(a: &BigRational, b: &BigRational) -> BigRational {
    if a.is_zero() {
        return b.clone();
    }
    if b.is_zero() {
        return a.clone();
    }
    if a.is_integer() && b.is_integer() {
        return BigRational::from_integer(a.numer() + b.numer());
    }
    if a.denom() == b.denom() {
        return ratio(a.numer() + b.numer(), a.denom().clone());
    }
    ratio(a.numer() * b.denom() + b.numer() * a.denom(), a.denom() * b.denom())
}

/// The reciprocal, without a gcd.
pub fn qrecip(a: &BigRational) -> BigRational {
    let (n, d) = (a.numer().clone(), a.denom().clone());
    if n.is_negative() { BigRational::new_raw(-d, -n) } else { BigRational::new_raw(d, n) }
}

/// `base^exp` for a rational base and a (possibly negative) integer exponent, within the caps.
pub fn rational_pow(base: &BigRational, exp: i64) -> Result<BigRational, NfError> {
    if base.is_zero() {
        return if exp < 0 {
            Err(NfError::Undefined)
        } else if exp == 0 {
            Ok(BigRational::one())
        } else {
            Ok(base.clone())
        };
    }
    let bits = base.numer().bits().max(base.denom().bits()).max(1);
    let magnitude = exp.unsigned_abs();
    // |base| = 1 stays 1 however large the exponent.
    if base.numer().abs().is_one() && base.denom().is_one() {
        let negative = base.is_negative() && magnitude % 2 == 1;
        return Ok(if negative { -BigRational::one() } else { BigRational::one() });
    }
    if (bits.saturating_sub(1)).saturating_mul(magnitude) > MAX_BITS {
        return Err(NfError::TooBig);
    }
    let e = usize::try_from(magnitude).map_err(|_| NfError::TooBig)?;
    // Powers of a reduced fraction stay reduced.
    let r = BigRational::new_raw(num_traits::pow(base.numer().clone(), e), num_traits::pow(base.denom().clone(), e));
    Ok(if exp < 0 { qrecip(&r) } else { r })
}

/// Splits `n > 0` into `s^k · t` with `t` free of `k`-th powers. The flag is false when a large
/// cofactor could not be fully factored, so `t` might still hide a `k`-th power.
fn extract_power(n: &BigInt, k: u32) -> (BigInt, BigInt, bool) {
    // Trial division of a huge radicand costs a division per factor found: only an exact
    // power is recognised, anything else is left whole.
    if n.bits() > 4096 {
        let root = n.nth_root(k);
        if num_traits::pow(root.clone(), k as usize) == *n {
            return (root, BigInt::one(), true);
        }
        return (BigInt::one(), n.clone(), false);
    }
    let mut s = BigInt::one();
    let mut t = BigInt::one();
    let mut rest = n.clone();
    let mut p = 2u32;
    while p < 2000 {
        let bp = BigInt::from(p);
        if &bp * &bp > rest {
            break;
        }
        let mut count = 0u32;
        while (&rest % &bp).is_zero() {
            rest /= &bp;
            count += 1;
        }
        if count > 0 {
            s *= num_traits::pow(bp.clone(), (count / k) as usize);
            t *= num_traits::pow(bp, (count % k) as usize);
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if rest.is_one() {
        return (s, t, true);
    }
    let root = rest.nth_root(k);
    if num_traits::pow(root.clone(), k as usize) == rest {
        return (s * root, t, true);
    }
    // Below 2000² a cofactor with no small factor is prime; above, a square of a large prime
    // could hide in it.
    let certain = rest < BigInt::from(4_000_000u64);
    (s, t * rest, certain)
}

impl Poly {
    /// The zero polynomial.
    pub fn zero() -> Self {
        Poly::default()
    }

    /// A constant.
    pub fn constant(c: BigRational) -> Self {
        let mut terms = BTreeMap::new();
        if !c.is_zero() {
            terms.insert(Mono::new(), c);
        }
        Poly { terms }
    }

    /// A single atom to the first power (radicals are reduced on entry).
    pub fn atom(atom: Atom) -> Self {
        let mut mono = Mono::new();
        mono.insert(atom, 1);
        let (c, m) = reduce(mono);
        let mut terms = BTreeMap::new();
        if !c.is_zero() {
            terms.insert(m, c);
        }
        Poly { terms }
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The value when the polynomial is a rational constant.
    pub fn as_constant(&self) -> Option<BigRational> {
        match self.terms.len() {
            0 => Some(BigRational::zero()),
            1 => self.terms.get(&Mono::new()).cloned(),
            _ => None,
        }
    }

    /// The single term, when there is exactly one.
    pub fn single_term(&self) -> Option<(&Mono, &BigRational)> {
        if self.terms.len() == 1 { self.terms.iter().next() } else { None }
    }

    /// True when some atom is opaque or a radical of index above 2, where equal values can
    /// have different forms.
    pub fn has_uncertain_atoms(&self) -> bool {
        self.terms.keys().flat_map(|m| m.keys()).any(|a| matches!(a, Atom::Opaque(_) | Atom::Root(_, 3..)))
    }

    pub fn add(&self, other: &Poly) -> Result<Poly, NfError> {
        let mut terms = self.terms.clone();
        for (m, c) in &other.terms {
            let entry = terms.entry(m.clone()).or_insert_with(BigRational::zero);
            *entry = qadd(entry, c);
            check_bits(entry)?;
            if entry.is_zero() {
                terms.remove(m);
            }
        }
        if terms.len() > MAX_TERMS {
            return Err(NfError::TooBig);
        }
        Ok(Poly { terms })
    }

    pub fn neg(&self) -> Poly {
        Poly { terms: self.terms.iter().map(|(m, c)| (m.clone(), -c)).collect() }
    }

    pub fn sub(&self, other: &Poly) -> Result<Poly, NfError> {
        self.add(&other.neg())
    }

    pub fn scale(&self, k: &BigRational) -> Result<Poly, NfError> {
        if k.is_zero() {
            return Ok(Poly::zero());
        }
        let mut terms = BTreeMap::new();
        for (m, c) in &self.terms {
            let v = qmul(c, k);
            check_bits(&v)?;
            terms.insert(m.clone(), v);
        }
        Ok(Poly { terms })
    }

    pub fn mul(&self, other: &Poly) -> Result<Poly, NfError> {
        if self.terms.len().saturating_mul(other.terms.len()) > MAX_TERMS * 4 {
            return Err(NfError::TooBig);
        }
        let mut acc: BTreeMap<Mono, BigRational> = BTreeMap::new();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &other.terms {
                let mut mono = m1.clone();
                for (a, e) in m2 {
                    let slot = mono.entry(a.clone()).or_insert(0);
                    *slot = slot.checked_add(*e).filter(|x| x.unsigned_abs() <= MAX_EXPONENT).ok_or(NfError::TooBig)?;
                }
                crate::work::tick(1);
                let (k, mono) = reduce(mono);
                let v = qmul(&qmul(c1, c2), &k);
                check_bits(&v)?;
                let entry = acc.entry(mono).or_insert_with(BigRational::zero);
                *entry = qadd(entry, &v);
            }
        }
        acc.retain(|_, c| !c.is_zero());
        if acc.len() > MAX_TERMS {
            return Err(NfError::TooBig);
        }
        Ok(Poly { terms: acc })
    }

    /// The inverse of a single-term polynomial; `None` for sums.
    pub fn invert_term(&self) -> Option<Result<Poly, NfError>> {
        let (mono, c) = self.single_term()?;
        if c.is_zero() {
            return Some(Err(NfError::Undefined));
        }
        let inverse: Mono = mono.iter().map(|(a, e)| (a.clone(), e.saturating_neg())).collect();
        let (k, inverse) = reduce(inverse);
        let coeff = qmul(&qrecip(c), &k);
        let mut terms = BTreeMap::new();
        terms.insert(inverse, coeff);
        Some(Ok(Poly { terms }))
    }

    /// `self^n` for `n ≥ 0` by repeated squaring.
    pub fn pow(&self, n: u64) -> Result<Poly, NfError> {
        let mut result = Poly::constant(BigRational::one());
        let mut base = self.clone();
        let mut n = n;
        while n > 0 {
            if n & 1 == 1 {
                result = result.mul(&base)?;
            }
            n >>= 1;
            if n > 0 {
                base = base.mul(&base)?;
            }
        }
        Ok(result)
    }

    /// The leading coefficient in the term order (used to scale denominators to a monic form).
    pub fn leading(&self) -> Option<&BigRational> {
        self.terms.values().next_back()
    }

    /// A deterministic text that is equal for equal polynomials.
    pub fn key(&self) -> String {
        if self.terms.is_empty() {
            return "0".into();
        }
        let mut out = String::new();
        for (m, c) in &self.terms {
            out.push_str(&format!("{c}"));
            for (a, e) in m {
                let name = match a {
                    Atom::Sym(s) => s.clone(),
                    Atom::Pi => "pi".into(),
                    Atom::E => "e".into(),
                    Atom::I => "i".into(),
                    Atom::Root(r, k) => format!("root{k}({r})"),
                    Atom::Opaque(k) => format!("[{k}]"),
                };
                out.push_str(&format!("*{name}^{e}"));
            }
            out.push(';');
        }
        out
    }
}

/// Brings a monomial to canonical form: drops zero exponents, folds `i²`, reduces radical
/// exponents below their index and merges square roots into one. Returns the coefficient the
/// reduction produced.
fn reduce(mono: Mono) -> (BigRational, Mono) {
    let mut coeff = BigRational::one();
    let mut out = Mono::new();
    let mut sqrt_product = BigInt::one();
    for (atom, e) in mono {
        if e == 0 {
            continue;
        }
        match atom {
            Atom::I => match e.rem_euclid(4) {
                0 => {}
                1 => {
                    out.insert(Atom::I, 1);
                }
                2 => coeff = -coeff,
                _ => {
                    coeff = -coeff;
                    out.insert(Atom::I, 1);
                }
            },
            Atom::Root(r, k) => {
                let k64 = i64::from(k);
                let q = e.div_euclid(k64);
                let rem = e.rem_euclid(k64);
                if q != 0 {
                    let base = BigRational::from_integer(r.clone());
                    match rational_pow(&base, q) {
                        Ok(v) => coeff = qmul(&coeff, &v),
                        // Radicands are small enough for this not to happen in practice; keep
                        // the exponent unreduced rather than lose the value.
                        Err(_) => {
                            out.insert(Atom::Root(r, k), e);
                            continue;
                        }
                    }
                }
                if rem == 0 {
                    continue;
                }
                if k == 2 {
                    sqrt_product *= r;
                } else {
                    out.insert(Atom::Root(r, k), rem);
                }
            }
            other => {
                out.insert(other, e);
            }
        }
    }
    if !sqrt_product.is_one() {
        let (s, t, _) = extract_power(&sqrt_product, 2);
        coeff = qmul(&coeff, &BigRational::from_integer(s));
        if !t.is_one() {
            out.insert(Atom::Root(t, 2), 1);
        }
    }
    (coeff, out)
}

/// `c^(p/q)` for a rational constant `c`, as a polynomial, or `None` when the ring has no
/// exact form for it. The flag is false when the radical might not be fully reduced.
pub fn rational_root(c: &BigRational, p: i64, q: u32) -> Result<Option<(Poly, bool)>, NfError> {
    if c.is_zero() {
        return Ok(if p > 0 { Some((Poly::zero(), true)) } else { None });
    }
    if q > 64 || p.unsigned_abs() > 64 {
        return Ok(None);
    }
    let negative = c.is_negative();
    if negative && q.is_multiple_of(2) && q != 2 {
        return Ok(None);
    }
    let magnitude = c.abs();
    let (sn, tn, certain_n) = extract_power(magnitude.numer(), q);
    let (sd, td, certain_d) = extract_power(magnitude.denom(), q);
    // |c|^(1/q) = (sn/sd) · tn^(1/q) · td^(-1/q)
    let mut root = Poly::constant(BigRational::new(sn, sd));
    if !tn.is_one() {
        root = root.mul(&Poly::atom(Atom::Root(tn, q)))?;
    }
    if !td.is_one() {
        let mut mono = Mono::new();
        mono.insert(Atom::Root(td, q), -1);
        let (k, mono) = reduce(mono);
        let mut terms = BTreeMap::new();
        terms.insert(mono, k);
        root = root.mul(&Poly { terms })?;
    }
    if negative {
        // Odd roots of negatives are real (`\sqrt[3]{-8} = -2`); square roots are imaginary.
        root = if q == 2 { root.mul(&Poly::atom(Atom::I))? } else { root.neg() };
    }
    let powered = if p >= 0 {
        root.pow(p.unsigned_abs())?
    } else {
        match root.invert_term() {
            Some(inv) => inv?.pow(p.unsigned_abs())?,
            None => return Ok(None),
        }
    };
    Ok(Some((powered, certain_n && certain_d)))
}

/// The exponent as a small integer, when it is one.
pub fn small_integer(c: &BigRational) -> Option<i64> {
    if c.is_integer() { c.numer().to_i64() } else { None }
}
