//! The parsed form of an answer: arithmetic expressions and the structures answers come in.

use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// A mathematical constant with a fixed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Constant {
    /// π
    Pi,
    /// Euler's number
    E,
    /// The imaginary unit
    I,
    /// ∞ (its sign is a surrounding negation)
    Infinity,
}

/// A relation between the members of a chain such as `a < b = c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RelOp {
    /// `=`
    Eq,
    /// `≠`
    Ne,
    /// `<`
    Lt,
    /// `≤`
    Le,
    /// `>`
    Gt,
    /// `≥`
    Ge,
    /// `≈`
    Approx,
    /// `∈`
    In,
}

impl RelOp {
    /// The relation seen from the other side (`a < b` is `b > a`).
    pub fn flipped(self) -> RelOp {
        match self {
            RelOp::Lt => RelOp::Gt,
            RelOp::Le => RelOp::Ge,
            RelOp::Gt => RelOp::Lt,
            RelOp::Ge => RelOp::Le,
            RelOp::Eq | RelOp::Ne | RelOp::Approx | RelOp::In => self,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            RelOp::Eq => "=",
            RelOp::Ne => "≠",
            RelOp::Lt => "<",
            RelOp::Le => "≤",
            RelOp::Gt => ">",
            RelOp::Ge => "≥",
            RelOp::Approx => "≈",
            RelOp::In => "∈",
        }
    }
}

/// How the items of a top-level list were separated; lists compare unordered either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `a, b, c`
    Comma,
    /// `a; b` or `a and b` or `a or b`
    Alternatives,
}

/// A node of a parsed answer.
///
/// Arithmetic nodes and structural nodes live in one tree because answers mix them freely:
/// a tuple of fractions, a matrix sum, an equation whose right side is an interval.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// An exact number; `decimals` is the number of written decimal places when it was written
    /// as a decimal (`2.50` has 2), which the rounding rule uses.
    Num {
        /// The exact value.
        value: BigRational,
        /// Decimal places as written, when written with a decimal point or exponent.
        decimals: Option<u32>,
        /// Significant digits as written.
        significant: u32,
    },
    /// A variable or a name (`x`, `a_3`, `\alpha`).
    Sym(String),
    /// A named constant.
    Const(Constant),
    /// `-a`
    Neg(Box<Node>),
    /// `a + b + ...`
    Add(Vec<Node>),
    /// `a · b · ...`, explicit or by juxtaposition.
    Mul(Vec<Node>),
    /// `a / b`
    Div(Box<Node>, Box<Node>),
    /// `a^b`
    Pow(Box<Node>, Box<Node>),
    /// A known function (`sin`, `ln`, `abs`, `fact`...) or an unknown one (`f(x)`), by name.
    Func(String, Vec<Node>),
    /// `\sum` or `\prod` over `var` from `lo` to `hi`.
    Series {
        /// True for `\prod`.
        product: bool,
        /// The index variable.
        var: String,
        /// Lower bound.
        lo: Box<Node>,
        /// Upper bound.
        hi: Box<Node>,
        /// The summand or factor.
        body: Box<Node>,
    },
    /// `a ± b`, or `± b` when `a` is absent.
    PlusMinus(Option<Box<Node>>, Box<Node>),
    /// `a%`
    Percent(Box<Node>),
    /// An angle written with a degree sign (`90^\circ`).
    Degrees(Box<Node>),
    /// `(a, b, ...)`: ordered.
    Tuple(Vec<Node>),
    /// `\{a, b, ...\}`: unordered.
    Set(Vec<Node>),
    /// An interval with exact endpoints.
    Interval {
        /// Lower end.
        lo: Box<Node>,
        /// Upper end.
        hi: Box<Node>,
        /// Whether the lower end is included.
        lo_closed: bool,
        /// Whether the upper end is included.
        hi_closed: bool,
    },
    /// `A ∪ B ∪ ...`
    Union(Vec<Node>),
    /// A top-level list of answers (`1, 2` or `x = 1 or x = 2`).
    List(Vec<Node>, ListKind),
    /// Rows of entries.
    Matrix(Vec<Vec<Node>>),
    /// A chain `m0 op0 m1 op1 m2 ...`; `ops.len() + 1 == members.len()`.
    Relation {
        /// The members, left to right.
        members: Vec<Node>,
        /// The relations between neighbouring members.
        ops: Vec<RelOp>,
    },
    /// `a : b : ...`
    Ratio(Vec<Node>),
    /// Words, lower-cased.
    Text(String),
    /// `\ldots`
    Ellipsis,
}

impl Node {
    /// An exact integer.
    pub fn int(n: i64) -> Node {
        Node::Num { value: BigRational::from_integer(BigInt::from(n)), decimals: None, significant: 0 }
    }

    /// An exact rational with no written decimals.
    pub fn rational(value: BigRational) -> Node {
        Node::Num { value, decimals: None, significant: 0 }
    }

    /// True for nodes that are a single value rather than a structure.
    pub fn is_scalar(&self) -> bool {
        match self {
            Node::Num { .. }
            | Node::Sym(_)
            | Node::Const(_)
            | Node::Neg(_)
            | Node::Add(_)
            | Node::Mul(_)
            | Node::Div(..)
            | Node::Pow(..)
            | Node::Func(..)
            | Node::Series { .. } => true,
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
            | Node::Ellipsis => false,
        }
    }

    /// True when the node contains no variable, so it denotes one fixed number.
    pub fn is_constant(&self) -> bool {
        let mut constant = true;
        self.visit(&mut |n| {
            if matches!(n, Node::Sym(_)) {
                constant = false;
            }
            if let Node::Func(name, _) = n
                && !crate::functions::is_known(name)
            {
                constant = false;
            }
        });
        constant
    }

    /// True when the node contains a number literal anywhere.
    pub fn has_number(&self) -> bool {
        let mut found = false;
        self.visit(&mut |n| {
            if matches!(n, Node::Num { .. }) {
                found = true;
            }
        });
        found
    }

    /// Calls `f` on this node and every node below it.
    pub fn visit(&self, f: &mut dyn FnMut(&Node)) {
        f(self);
        match self {
            Node::Num { .. } | Node::Sym(_) | Node::Const(_) | Node::Text(_) | Node::Ellipsis => {}
            Node::Neg(a) | Node::Percent(a) | Node::Degrees(a) => a.visit(f),
            Node::Div(a, b) | Node::Pow(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Node::PlusMinus(a, b) => {
                if let Some(a) = a {
                    a.visit(f);
                }
                b.visit(f);
            }
            Node::Series { lo, hi, body, .. } => {
                lo.visit(f);
                hi.visit(f);
                body.visit(f);
            }
            Node::Interval { lo, hi, .. } => {
                lo.visit(f);
                hi.visit(f);
            }
            Node::Add(v)
            | Node::Mul(v)
            | Node::Func(_, v)
            | Node::Tuple(v)
            | Node::Set(v)
            | Node::Union(v)
            | Node::List(v, _)
            | Node::Ratio(v)
            | Node::Relation { members: v, .. } => v.iter().for_each(|n| n.visit(f)),
            Node::Matrix(rows) => rows.iter().flatten().for_each(|n| n.visit(f)),
        }
    }
}

fn join(f: &mut fmt::Formatter<'_>, items: &[Node], sep: &str) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

fn write_rational(f: &mut fmt::Formatter<'_>, value: &BigRational) -> fmt::Result {
    if value.denom().is_one() {
        write!(f, "{}", value.numer())
    } else if value.is_negative() {
        write!(f, "(-{}/{})", value.numer().abs(), value.denom())
    } else {
        write!(f, "({}/{})", value.numer(), value.denom())
    }
}

/// A plain-text rendering of the parsed form, reported in verdict details.
impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Num { value, .. } => {
                if value.numer().bits() > 256 || value.denom().bits() > 256 {
                    let sign = if value.is_negative() { "-" } else { "" };
                    return write!(f, "{sign}<{}-bit rational>", value.numer().bits() + value.denom().bits());
                }
                write_rational(f, value)
            }
            Node::Sym(s) => f.write_str(s),
            Node::Const(Constant::Pi) => f.write_str("pi"),
            Node::Const(Constant::E) => f.write_str("e"),
            Node::Const(Constant::I) => f.write_str("i"),
            Node::Const(Constant::Infinity) => f.write_str("oo"),
            Node::Neg(a) => write!(f, "-({a})"),
            Node::Add(v) => {
                f.write_str("(")?;
                join(f, v, " + ")?;
                f.write_str(")")
            }
            Node::Mul(v) => {
                f.write_str("(")?;
                join(f, v, " * ")?;
                f.write_str(")")
            }
            Node::Div(a, b) => write!(f, "({a} / {b})"),
            Node::Pow(a, b) => write!(f, "({a})^({b})"),
            Node::Func(name, args) => {
                write!(f, "{name}(")?;
                join(f, args, ", ")?;
                f.write_str(")")
            }
            Node::Series { product, var, lo, hi, body } => {
                let name = if *product { "prod" } else { "sum" };
                write!(f, "{name}({var}={lo}..{hi}, {body})")
            }
            Node::PlusMinus(a, b) => match a {
                Some(a) => write!(f, "({a} ± {b})"),
                None => write!(f, "(±{b})"),
            },
            Node::Percent(a) => write!(f, "{a}%"),
            Node::Degrees(a) => write!(f, "{a}°"),
            Node::Tuple(v) => {
                f.write_str("(")?;
                join(f, v, ", ")?;
                f.write_str(")")
            }
            Node::Set(v) => {
                f.write_str("{")?;
                join(f, v, ", ")?;
                f.write_str("}")
            }
            Node::Interval { lo, hi, lo_closed, hi_closed } => {
                let open = if *lo_closed { "[" } else { "(" };
                let close = if *hi_closed { "]" } else { ")" };
                write!(f, "{open}{lo}, {hi}{close}")
            }
            Node::Union(v) => join(f, v, " ∪ "),
            Node::List(v, ListKind::Comma) => join(f, v, ", "),
            Node::List(v, ListKind::Alternatives) => join(f, v, "; "),
            Node::Matrix(rows) => {
                f.write_str("[")?;
                for (i, row) in rows.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    join(f, row, ", ")?;
                }
                f.write_str("]")
            }
            Node::Relation { members, ops } => {
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        let op = ops.get(i - 1).map_or("?", |o| o.symbol());
                        write!(f, " {op} ")?;
                    }
                    write!(f, "{m}")?;
                }
                Ok(())
            }
            Node::Ratio(v) => join(f, v, ":"),
            Node::Text(t) => write!(f, "text({t})"),
            Node::Ellipsis => f.write_str("..."),
        }
    }
}

/// True when `value` is zero (helper shared by the evaluators).
pub fn is_zero(value: &BigRational) -> bool {
    value.is_zero()
}
