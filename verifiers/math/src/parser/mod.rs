//! The answer grammar: a precedence-climbing parser over the nom tokens.
//!
//! Precedence, loosest first: alternatives (`;`, `and`, `or`), comma lists, relation chains
//! (`=`, `<`, `\in`...), unions, ratios (`:`), sums (`+ - \pm`), products (explicit and
//! implicit), unary signs, powers and postfix operators, primaries.

mod numbers;
mod primary;

use crate::ast::{ListKind, Node, RelOp};
use crate::latex;
use crate::lexer::{LexError, Tok, Token, tokenize};
use crate::limits::{MAX_ANSWER_BYTES, MAX_DEPTH};

/// Why an answer could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl From<LexError> for ParseError {
    fn from(e: LexError) -> Self {
        match e {
            LexError::TooManyTokens => ParseError("answer has too many tokens".into()),
        }
    }
}

type PResult<T> = Result<T, ParseError>;

fn fail<T>(msg: impl Into<String>) -> PResult<T> {
    Err(ParseError(msg.into()))
}

/// Words that separate alternatives (`1 and 2`, `x=1 or x=2`).
fn is_separator_word(w: &str) -> bool {
    matches!(w.trim().to_ascii_lowercase().as_str(), "and" | "or" | "und" | "et" | "ou" | "y" | "o")
}

/// Words that turn the preceding value into a percentage.
fn is_percent_word(w: &str) -> bool {
    matches!(w.trim().to_ascii_lowercase().as_str(), "percent" | "pct" | "percentage" | "percents" | "per cent")
}

/// Two-letter words read as units rather than products of variables.
const SHORT_UNITS: &[&str] = &["cm", "mm", "km", "kg", "mg", "ml", "ft", "hr", "yd", "mi", "lb", "oz", "mph"];

/// Parses one extracted answer. `plain` marks text without any LaTeX markup.
pub fn parse(input: &str, plain: bool) -> PResult<Node> {
    if input.len() > MAX_ANSWER_BYTES {
        return fail("answer is too long");
    }
    let normalized = latex::normalize(input);
    let tokens = tokenize(&normalized, plain)?;
    parse_tokens(tokens, plain, 0)
}

fn parse_tokens(tokens: Vec<Token>, plain: bool, depth: usize) -> PResult<Node> {
    if let Some(text) = text_answer(&tokens) {
        return Ok(Node::Text(text));
    }
    let mut parser = Parser { toks: tokens, pos: 0, depth, abs_open: 0, plain };
    let node = parser.alternatives()?;
    while matches!(parser.peek(), Some(Tok::Punct('.' | ',' | ';' | ':' | '!'))) {
        parser.pos += 1;
    }
    if parser.pos < parser.toks.len() {
        return fail(format!("unexpected token {:?}", parser.toks[parser.pos].tok));
    }
    Ok(node)
}

/// Answers made only of words (`odd`, `\text{Evelyn}`) are text, compared as words.
fn text_answer(tokens: &[Token]) -> Option<String> {
    let mut words = Vec::new();
    let mut long_word = false;
    for t in tokens {
        match &t.tok {
            Tok::Word(w) => {
                if crate::functions::canonical(w).is_some() || w == "pi" || is_separator_word(w) {
                    return None;
                }
                long_word |= w.len() >= 3 && !w.chars().all(|c| c.is_ascii_uppercase());
                words.push(w.to_lowercase());
            }
            Tok::Letter(c) => words.push(c.to_lowercase().to_string()),
            Tok::Text(t) => {
                let inner = t.trim();
                if inner.is_empty() {
                    continue;
                }
                if !inner.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '\'' || c == '-') {
                    return None;
                }
                long_word |= inner.split_whitespace().any(|w| w.len() >= 3);
                words.extend(inner.split_whitespace().map(str::to_lowercase));
            }
            Tok::Punct('.' | ',' | '!') | Tok::Other(_) => {}
            _ => return None,
        }
    }
    (long_word && !words.is_empty()).then(|| words.join(" "))
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    /// How many `|...|` are open, so a `|` in operator position closes one.
    abs_open: usize,
    plain: bool,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, offset: usize) -> Option<&Tok> {
        self.toks.get(self.pos + offset).map(|t| &t.tok)
    }

    fn space_before(&self) -> bool {
        self.toks.get(self.pos).is_some_and(|t| t.space_before)
    }

    fn bump(&mut self) -> Option<Tok> {
        let tok = self.toks.get(self.pos).map(|t| t.tok.clone());
        self.pos += 1;
        tok
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, tok: &Tok) -> PResult<()> {
        if self.eat(tok) { Ok(()) } else { fail(format!("expected {tok:?}, found {:?}", self.peek())) }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH { fail("answer is nested too deeply") } else { Ok(()) }
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn at_separator(&self) -> bool {
        match self.peek() {
            Some(Tok::Punct(';')) => true,
            Some(Tok::Word(w)) => is_separator_word(w),
            Some(Tok::Text(t)) => is_separator_word(t) || t.trim() == ",",
            Some(Tok::Cmd(c)) => c == "text" || c == "lor" || c == "vee",
            _ => false,
        }
    }

    fn alternatives(&mut self) -> PResult<Node> {
        let mut items = vec![self.comma_list()?];
        while self.at_separator() {
            self.pos += 1;
            if self.at_end() || self.at_closer() {
                break;
            }
            if self.at_separator() {
                continue;
            }
            items.push(self.comma_list()?);
        }
        Ok(if items.len() == 1 { items.remove(0) } else { Node::List(items, ListKind::Alternatives) })
    }

    fn at_closer(&self) -> bool {
        matches!(self.peek(), Some(Tok::Punct(')' | ']' | '}' | '&') | Tok::SetClose | Tok::RowSep | Tok::End(_)))
    }

    fn comma_list(&mut self) -> PResult<Node> {
        let mut items = vec![self.relation()?];
        while self.peek() == Some(&Tok::Punct(',')) {
            self.pos += 1;
            // The serial comma: `19, 46, and 82`.
            if matches!(self.peek(), Some(Tok::Word(w)) if is_separator_word(w))
                || matches!(self.peek(), Some(Tok::Text(t)) if is_separator_word(t))
            {
                self.pos += 1;
            }
            if self.at_end() || self.at_closer() || self.at_separator() {
                break;
            }
            items.push(self.relation()?);
        }
        Ok(if items.len() == 1 { items.remove(0) } else { Node::List(items, ListKind::Comma) })
    }

    fn rel_op(&self) -> Option<RelOp> {
        let op = match self.peek()? {
            Tok::Punct('=') => RelOp::Eq,
            Tok::Punct('<') => RelOp::Lt,
            Tok::Punct('>') => RelOp::Gt,
            Tok::Le => RelOp::Le,
            Tok::Ge => RelOp::Ge,
            Tok::Ne => RelOp::Ne,
            Tok::Cmd(c) => match c.as_str() {
                "le" | "leq" | "leqslant" | "leqq" => RelOp::Le,
                "ge" | "geq" | "geqslant" | "geqq" => RelOp::Ge,
                "lt" => RelOp::Lt,
                "gt" => RelOp::Gt,
                "ne" | "neq" => RelOp::Ne,
                "approx" | "simeq" | "sim" | "thickapprox" => RelOp::Approx,
                "in" => RelOp::In,
                "equiv" | "coloneqq" => RelOp::Eq,
                _ => return None,
            },
            _ => return None,
        };
        Some(op)
    }

    fn relation(&mut self) -> PResult<Node> {
        let first = self.union()?;
        let mut members = vec![first];
        let mut ops = Vec::new();
        while let Some(op) = self.rel_op() {
            self.pos += 1;
            ops.push(op);
            members.push(self.union()?);
        }
        Ok(if ops.is_empty() { members.remove(0) } else { Node::Relation { members, ops } })
    }

    fn union(&mut self) -> PResult<Node> {
        let mut parts = vec![self.ratio()?];
        while matches!(self.peek(), Some(Tok::Cmd(c)) if c == "cup") {
            self.pos += 1;
            parts.push(self.ratio()?);
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Node::Union(parts) })
    }

    fn ratio(&mut self) -> PResult<Node> {
        let mut parts = vec![self.additive()?];
        while self.peek() == Some(&Tok::Punct(':')) && !matches!(self.peek_at(1), Some(Tok::Punct('=')) | None) {
            self.pos += 1;
            parts.push(self.additive()?);
        }
        Ok(if parts.len() == 1 { parts.remove(0) } else { Node::Ratio(parts) })
    }

    fn additive(&mut self) -> PResult<Node> {
        let first = self.signed_term()?;
        let mut terms = vec![first];
        loop {
            match self.peek() {
                Some(Tok::Punct('+')) => {
                    self.pos += 1;
                    terms.push(self.signed_term()?);
                }
                Some(Tok::Punct('-')) => {
                    self.pos += 1;
                    let t = self.signed_term()?;
                    terms.push(Node::Neg(Box::new(t)));
                }
                Some(Tok::Cmd(c)) if c == "pm" || c == "mp" => {
                    let minus_first = c == "mp";
                    self.pos += 1;
                    let t = self.signed_term()?;
                    let t = if minus_first { Node::Neg(Box::new(t)) } else { t };
                    let acc = if terms.len() == 1 { terms.remove(0) } else { Node::Add(std::mem::take(&mut terms)) };
                    terms = vec![Node::PlusMinus(Some(Box::new(acc)), Box::new(t))];
                }
                _ => break,
            }
        }
        Ok(if terms.len() == 1 { terms.remove(0) } else { Node::Add(terms) })
    }

    /// A product, optionally preceded by signs (`-x`, `+-1`, `\pm 2`).
    fn signed_term(&mut self) -> PResult<Node> {
        match self.peek() {
            Some(Tok::Punct('-')) => {
                self.pos += 1;
                self.enter()?;
                let t = self.signed_term();
                self.leave();
                Ok(Node::Neg(Box::new(t?)))
            }
            Some(Tok::Punct('+')) => {
                self.pos += 1;
                self.enter()?;
                let t = self.signed_term();
                self.leave();
                t
            }
            Some(Tok::Cmd(c)) if c == "pm" || c == "mp" => {
                self.pos += 1;
                self.enter()?;
                let t = self.signed_term();
                self.leave();
                Ok(Node::PlusMinus(None, Box::new(t?)))
            }
            _ => self.product(),
        }
    }

    fn product(&mut self) -> PResult<Node> {
        let mut cur = self.power()?;
        loop {
            match self.peek() {
                Some(Tok::Punct('*')) => {
                    self.pos += 1;
                    let f = self.signed_power()?;
                    cur = mul(cur, f);
                }
                Some(Tok::Cmd(c)) if matches!(c.as_str(), "cdot" | "times" | "ast" | "star") => {
                    self.pos += 1;
                    let f = self.signed_power()?;
                    cur = mul(cur, f);
                }
                Some(Tok::Punct('/')) => {
                    self.pos += 1;
                    let f = self.signed_power()?;
                    cur = Node::Div(Box::new(cur), Box::new(f));
                }
                Some(Tok::Cmd(c)) if c == "div" || c == "over" => {
                    self.pos += 1;
                    let f = self.signed_power()?;
                    cur = Node::Div(Box::new(cur), Box::new(f));
                }
                _ => {
                    if cur.has_number() && self.skip_unit() {
                        continue;
                    }
                    if self.at_percent_word() {
                        self.pos += 1;
                        cur = Node::Percent(Box::new(cur));
                        continue;
                    }
                    if !self.starts_implicit_factor() {
                        break;
                    }
                    let mixed = is_whole_number(&cur) && matches!(self.peek(), Some(Tok::Cmd(c)) if c == "frac");
                    let f = self.power()?;
                    cur = match (mixed, &f) {
                        (true, Node::Div(n, d)) if is_whole_number(n) && is_whole_number(d) => Node::Add(vec![cur, f]),
                        _ => mul(cur, f),
                    };
                }
            }
        }
        Ok(cur)
    }

    fn signed_power(&mut self) -> PResult<Node> {
        match self.peek() {
            Some(Tok::Punct('-')) => {
                self.pos += 1;
                self.enter()?;
                let t = self.signed_power();
                self.leave();
                Ok(Node::Neg(Box::new(t?)))
            }
            Some(Tok::Punct('+')) => {
                self.pos += 1;
                self.signed_power()
            }
            _ => self.power(),
        }
    }

    fn at_percent_word(&self) -> bool {
        match self.peek() {
            Some(Tok::Word(w)) => is_percent_word(w),
            Some(Tok::Text(t)) => is_percent_word(t),
            _ => false,
        }
    }

    /// Consumes a unit after a value (`cm`, `\text{ miles}`, `m^2`, `只`): units carry no value.
    fn skip_unit(&mut self) -> bool {
        let is_unit = match self.peek() {
            Some(Tok::Word(w)) => {
                !is_separator_word(w)
                    && !is_percent_word(w)
                    && crate::functions::canonical(w).is_none()
                    && !matches!(w.as_str(), "pi" | "inf" | "infty" | "infinity" | "oo")
                    && !w.chars().all(|c| c.is_ascii_uppercase())
                    && (w.len() >= 3 || SHORT_UNITS.contains(&w.as_str()) || !w.is_ascii())
            }
            Some(Tok::Text(t)) => {
                let t = t.trim();
                !t.is_empty()
                    && !is_separator_word(t)
                    && !is_percent_word(t)
                    && t.chars().any(char::is_alphabetic)
                    && t.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '.' || c == '/')
                    && (t.chars().count() >= 2 || !t.starts_with(|c: char| c.is_ascii_alphabetic()))
            }
            _ => false,
        };
        if !is_unit {
            return false;
        }
        self.pos += 1;
        // `cm^2`, `\text{ m}^{3}`.
        if self.peek() == Some(&Tok::Punct('^')) {
            match self.peek_at(1) {
                Some(Tok::Num(_)) => self.pos += 2,
                Some(Tok::Punct('{'))
                    if matches!(self.peek_at(2), Some(Tok::Num(_))) && self.peek_at(3) == Some(&Tok::Punct('}')) =>
                {
                    self.pos += 4;
                }
                _ => {}
            }
        }
        true
    }

    /// True when the next token starts a factor multiplied by juxtaposition.
    fn starts_implicit_factor(&self) -> bool {
        match self.peek() {
            Some(Tok::Num(_) | Tok::Letter(_) | Tok::SetOpen | Tok::Begin(_)) => true,
            Some(Tok::Punct('(' | '{')) => true,
            Some(Tok::Punct('|')) => self.abs_open == 0,
            Some(Tok::Word(w)) => !is_separator_word(w) && !is_percent_word(w),
            Some(Tok::Text(t)) => !is_separator_word(t) && !t.trim().is_empty(),
            Some(Tok::Cmd(c)) => primary::starts_value(c),
            _ => false,
        }
    }
}

fn mul(a: Node, b: Node) -> Node {
    match a {
        Node::Mul(mut v) => {
            v.push(b);
            Node::Mul(v)
        }
        a => Node::Mul(vec![a, b]),
    }
}

fn is_whole_number(n: &Node) -> bool {
    matches!(n, Node::Num { value, decimals: None, .. } if value.is_integer())
}

#[cfg(test)]
mod tests;
