//! Aggregation formulas: a small expression language over criterion names, parsed by a
//! recursive-descent parser into a tree and evaluated on numbers. Nothing is ever evaluated as
//! code.
//!
//! Grammar (usual precedence, left-associative):
//! ```text
//! sum     = product (("+" | "-") product)*
//! product = unary (("*" | "/") unary)*
//! unary   = "-" unary | "+" unary | atom
//! atom    = number | name | name "(" sum ("," sum)* ")" | "(" sum ")"
//! ```

use std::collections::HashMap;

/// A parsed formula.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    root: Node,
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Number(f64),
    /// Index into the variable slice given to [`Formula::evaluate`].
    Variable(usize),
    Negate(Box<Node>),
    Binary(Op, Box<Node>, Box<Node>),
    Call(Function, Vec<Node>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Subtract,
    Multiply,
    Divide,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Function {
    Min,
    Max,
    Abs,
    Clip,
    Exp,
    Log,
    Sqrt,
}

impl Function {
    fn named(name: &str) -> Option<Function> {
        Some(match name {
            "min" => Function::Min,
            "max" => Function::Max,
            "abs" => Function::Abs,
            "clip" => Function::Clip,
            "exp" => Function::Exp,
            "log" => Function::Log,
            "sqrt" => Function::Sqrt,
            _ => return None,
        })
    }

    /// Accepted argument counts, inclusive.
    fn arity(self) -> (usize, usize) {
        match self {
            Function::Min | Function::Max => (1, 64),
            Function::Abs | Function::Exp | Function::Log | Function::Sqrt => (1, 1),
            Function::Clip => (3, 3),
        }
    }
}

/// Why a formula does not parse; `at` is a byte offset into it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormulaError {
    #[error("`{literal}` at {at} is not a number")]
    NotANumber { literal: String, at: usize },
    #[error("unexpected `{found}` at {at}")]
    UnexpectedChar { found: char, at: usize },
    #[error("the formula nests deeper than {} levels", MAX_DEPTH)]
    TooDeep,
    #[error("unknown function `{name}` at {at}; use min max abs clip exp log sqrt")]
    UnknownFunction { name: String, at: usize },
    #[error("`{name}` at {at} takes {least} to {most} arguments, not {given}")]
    Arity { name: String, at: usize, least: usize, most: usize, given: usize },
    #[error("`{name}` at {at} is not a criterion of this rubric")]
    UnknownName { name: String, at: usize },
    /// A token where it cannot stand; `token` is its debug form.
    #[error("unexpected {token} at {at}")]
    UnexpectedToken { token: String, at: usize },
    #[error("the formula ends too early")]
    EndsEarly,
    #[error("expected `)` at {at}")]
    ExpectedClose { at: usize },
    #[error("unexpected text at {at}")]
    TrailingText { at: usize },
}

/// Nesting deeper than this is refused, so a hostile formula cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Name(String),
    Plus,
    Minus,
    Star,
    Slash,
    Open,
    Close,
    Comma,
}

fn tokenize(text: &str) -> Result<Vec<(usize, Token)>, FormulaError> {
    let mut tokens = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        let single = match c {
            '+' => Some(Token::Plus),
            '-' | '−' => Some(Token::Minus),
            '*' => Some(Token::Star),
            '/' => Some(Token::Slash),
            '(' => Some(Token::Open),
            ')' => Some(Token::Close),
            ',' => Some(Token::Comma),
            _ => None,
        };
        if let Some(token) = single {
            tokens.push((at, token));
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].1.is_ascii_digit() || chars[i].1 == '.') {
                i += 1;
            }
            // An exponent: `1e-3`.
            if i < chars.len() && matches!(chars[i].1, 'e' | 'E') {
                let mut j = i + 1;
                if j < chars.len() && matches!(chars[j].1, '+' | '-') {
                    j += 1;
                }
                if j < chars.len() && chars[j].1.is_ascii_digit() {
                    i = j;
                    while i < chars.len() && chars[i].1.is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let literal: String = chars[start..i].iter().map(|(_, c)| c).collect();
            let value: f64 = literal.parse().map_err(|_| FormulaError::NotANumber { literal: literal.clone(), at })?;
            tokens.push((at, Token::Number(value)));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].1.is_ascii_alphanumeric() || chars[i].1 == '_') {
                i += 1;
            }
            tokens.push((at, Token::Name(chars[start..i].iter().map(|(_, c)| c).collect())));
        } else {
            return Err(FormulaError::UnexpectedChar { found: c, at });
        }
    }
    Ok(tokens)
}

struct Parser<'a> {
    tokens: Vec<(usize, Token)>,
    position: usize,
    variables: &'a HashMap<&'a str, usize>,
    end: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.position).map(|(_, t)| t)
    }

    fn at(&self) -> usize {
        self.tokens.get(self.position).map_or(self.end, |(at, _)| *at)
    }

    fn advance(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.position).map(|(_, t)| t.clone());
        self.position += 1;
        token
    }

    fn sum(&mut self, depth: usize) -> Result<Node, FormulaError> {
        let mut left = self.product(depth)?;
        loop {
            let op = match self.peek() {
                Some(Token::Plus) => Op::Add,
                Some(Token::Minus) => Op::Subtract,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.product(depth)?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn product(&mut self, depth: usize) -> Result<Node, FormulaError> {
        let mut left = self.unary(depth)?;
        loop {
            let op = match self.peek() {
                Some(Token::Star) => Op::Multiply,
                Some(Token::Slash) => Op::Divide,
                _ => return Ok(left),
            };
            self.advance();
            let right = self.unary(depth)?;
            left = Node::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self, depth: usize) -> Result<Node, FormulaError> {
        if depth > MAX_DEPTH {
            return Err(FormulaError::TooDeep);
        }
        match self.peek() {
            Some(Token::Minus) => {
                self.advance();
                Ok(Node::Negate(Box::new(self.unary(depth + 1)?)))
            }
            Some(Token::Plus) => {
                self.advance();
                self.unary(depth + 1)
            }
            _ => self.atom(depth),
        }
    }

    fn atom(&mut self, depth: usize) -> Result<Node, FormulaError> {
        let at = self.at();
        match self.advance() {
            Some(Token::Number(value)) => Ok(Node::Number(value)),
            Some(Token::Open) => {
                let inner = self.sum(depth + 1)?;
                self.expect_close()?;
                Ok(inner)
            }
            Some(Token::Name(name)) => {
                if self.peek() == Some(&Token::Open) {
                    let function = Function::named(&name)
                        .ok_or_else(|| FormulaError::UnknownFunction { name: name.clone(), at })?;
                    self.advance();
                    let mut arguments = vec![self.sum(depth + 1)?];
                    while self.peek() == Some(&Token::Comma) {
                        self.advance();
                        arguments.push(self.sum(depth + 1)?);
                    }
                    self.expect_close()?;
                    let (least, most) = function.arity();
                    if arguments.len() < least || arguments.len() > most {
                        return Err(FormulaError::Arity { name, at, least, most, given: arguments.len() });
                    }
                    Ok(Node::Call(function, arguments))
                } else {
                    let index = self
                        .variables
                        .get(name.as_str())
                        .ok_or_else(|| FormulaError::UnknownName { name: name.clone(), at })?;
                    Ok(Node::Variable(*index))
                }
            }
            Some(other) => Err(FormulaError::UnexpectedToken { token: format!("{other:?}"), at }),
            None => Err(FormulaError::EndsEarly),
        }
    }

    fn expect_close(&mut self) -> Result<(), FormulaError> {
        let at = self.at();
        match self.advance() {
            Some(Token::Close) => Ok(()),
            _ => Err(FormulaError::ExpectedClose { at }),
        }
    }
}

impl Formula {
    /// Parses `text`; `variables` are the criterion names in the order their values will be
    /// given to [`Formula::evaluate`].
    pub fn parse(text: &str, variables: &[&str]) -> Result<Formula, FormulaError> {
        let tokens = tokenize(text)?;
        let names: HashMap<&str, usize> = variables.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let mut parser = Parser { tokens, position: 0, variables: &names, end: text.len() };
        let root = parser.sum(0)?;
        if parser.position < parser.tokens.len() {
            return Err(FormulaError::TrailingText { at: parser.at() });
        }
        Ok(Formula { root })
    }

    /// The value with these variable values (in the order given to [`Formula::parse`]). May be
    /// non-finite (`log(0)`, `1/0`): the caller decides what that means.
    pub fn evaluate(&self, values: &[f64]) -> f64 {
        evaluate(&self.root, values)
    }
}

fn evaluate(node: &Node, values: &[f64]) -> f64 {
    match node {
        Node::Number(value) => *value,
        Node::Variable(index) => values.get(*index).copied().unwrap_or(f64::NAN),
        Node::Negate(inner) => -evaluate(inner, values),
        Node::Binary(op, left, right) => {
            let (a, b) = (evaluate(left, values), evaluate(right, values));
            match op {
                Op::Add => a + b,
                Op::Subtract => a - b,
                Op::Multiply => a * b,
                Op::Divide => a / b,
            }
        }
        Node::Call(function, arguments) => {
            let args: Vec<f64> = arguments.iter().map(|a| evaluate(a, values)).collect();
            let first = args.first().copied().unwrap_or(f64::NAN);
            match function {
                Function::Min => args.iter().copied().fold(f64::INFINITY, f64::min),
                Function::Max => args.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                Function::Abs => first.abs(),
                Function::Exp => first.exp(),
                Function::Log => first.ln(),
                Function::Sqrt => first.sqrt(),
                Function::Clip => {
                    let (lo, hi) = (args.get(1).copied().unwrap_or(f64::NAN), args.get(2).copied().unwrap_or(f64::NAN));
                    if lo > hi { f64::NAN } else { first.max(lo).min(hi) }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, values: &[f64]) -> f64 {
        Formula::parse(text, &["a", "b", "c_2"]).map(|f| f.evaluate(values)).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn precedence_functions_and_unary_minus() {
        let v = [0.5, 0.25, 2.0];
        assert_eq!(eval("a + b * c_2", &v), 1.0);
        assert_eq!(eval("(a + b) * c_2", &v), 1.5);
        assert_eq!(eval("a - b - c_2", &v), -1.75);
        assert_eq!(eval("c_2 / 2 / 2", &v), 0.5);
        assert_eq!(eval("-a + +b", &v), -0.25);
        assert_eq!(eval("--a", &v), 0.5);
        assert_eq!(eval("a − b", &v), 0.25);
        assert_eq!(eval("min(a, b, c_2) + max(a, 1)", &v), 1.25);
        assert_eq!(eval("clip(c_2, 0, 1) + abs(-b)", &v), 1.25);
        assert_eq!(eval("sqrt(4) * exp(0) + log(1)", &v), 2.0);
        assert_eq!(eval("1e-1 * 10 + .5", &v), 1.5);
        assert!(eval("log(0)", &v).is_infinite());
        assert!(eval("clip(a, 1, 0)", &v).is_nan());
    }

    #[test]
    fn bad_formulas_are_refused_with_a_reason() {
        let names = ["a", "b"];
        for (text, needle) in [
            ("a +", "ends too early"),
            ("a b", "unexpected text"),
            ("z", "not a criterion"),
            ("pow(a, 2)", "unknown function"),
            ("clip(a, 1)", "takes 3 to 3"),
            ("abs()", "unexpected"),
            ("(a", "expected `)`"),
            ("a ^ 2", "unexpected `^`"),
            ("1..2", "not a number"),
            ("", "ends too early"),
            ("__import__('os')", "unexpected `'`"),
            ("__import__(a)", "unknown function"),
        ] {
            let error = Formula::parse(text, &names).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(error.contains(needle), "{text}: {error}");
        }
        let deep = "(".repeat(200) + "a" + &")".repeat(200);
        assert!(Formula::parse(&deep, &names).is_err());
        let deep_minus = "-".repeat(10_000) + "a";
        assert!(Formula::parse(&deep_minus, &names).is_err());
    }
}
