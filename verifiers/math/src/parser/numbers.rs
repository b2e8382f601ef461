//! Number literals: decimals, scientific notation, repeating decimals and other bases.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::ast::Node;
use crate::limits::MAX_BITS;

/// Largest decimal exponent written in scientific notation that is kept exact.
const MAX_SCIENTIFIC_EXPONENT: i64 = 20_000;

fn pow10(exp: u32) -> BigInt {
    num_traits::pow(BigInt::from(10u32), exp as usize)
}

/// The value of a lexed number (`12`, `3.50`, `1.5e-3`), with its written decimal places.
pub fn literal(text: &str) -> Option<Node> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    if exponent.abs() > MAX_SCIENTIFIC_EXPONENT {
        return None;
    }
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{int_part}{frac_part}");
    if digits.len() as u64 * 4 > MAX_BITS {
        return None;
    }
    let numer: BigInt = digits.parse().ok()?;
    let frac_len = frac_part.len() as i64;
    let scale = exponent - frac_len;
    let magnitude = u32::try_from(scale.unsigned_abs()).ok()?;
    let value = if scale >= 0 {
        BigRational::from_integer(numer * pow10(magnitude))
    } else {
        crate::normal::ratio(numer, pow10(magnitude))
    };
    let written_places = frac_len - exponent;
    let decimals = (!frac_part.is_empty() || exponent != 0).then(|| written_places.max(0) as u32);
    let significant = digits.trim_start_matches('0').len() as u32;
    Some(Node::Num { value, decimals, significant })
}

/// `int.nonrep(rep)` as an exact fraction: `0.1\overline{6}` is 1/6.
pub fn repeating(int_part: &str, non_repeating: &str, repeating: &str) -> Option<Node> {
    if repeating.is_empty() || !repeating.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if (int_part.len() + non_repeating.len() + repeating.len()) as u64 * 4 > MAX_BITS {
        return None;
    }
    let int: BigInt = if int_part.is_empty() { BigInt::zero() } else { int_part.parse().ok()? };
    let a: BigInt = if non_repeating.is_empty() { BigInt::zero() } else { non_repeating.parse().ok()? };
    let ar: BigInt = format!("{non_repeating}{repeating}").parse().ok()?;
    let k = u32::try_from(non_repeating.len()).ok()?;
    let r = u32::try_from(repeating.len()).ok()?;
    let denom = pow10(k) * (pow10(r) - BigInt::one());
    let value = BigRational::from_integer(int) + crate::normal::ratio(ar - a, denom);
    Some(Node::rational(value))
}

/// Digits read in another base: `204_5` is 54. `None` when a digit is not valid in the base.
pub fn in_base(digits: &str, base: u32) -> Option<Node> {
    if !(2..=36).contains(&base) || digits.contains('.') {
        return None;
    }
    let value = BigInt::parse_bytes(digits.as_bytes(), base)?;
    Some(Node::rational(BigRational::from_integer(value)))
}
