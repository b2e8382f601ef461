//! The answer grammar: nom combinators over the lexer's tokens, one function per precedence
//! level.
//!
//! Precedence, loosest first: alternatives (`;`, `and`, `or`), comma lists, relation chains
//! (`=`, `<`, `\in`...), unions, ratios (`:`), sums (`+ - \pm`), products (explicit and
//! implicit), unary signs, powers and postfix operators, primaries. The grammar is LL: each
//! production commits once its first token matches, so every error is a nom `Failure` and
//! nothing is parsed twice.

mod numbers;
mod primary;
mod tokens;

use nom::branch::alt;
use nom::combinator::{map, opt, peek};
use nom::multi::{fold_many0, many0_count, many1_count};
use nom::sequence::{pair, preceded, terminated};
use nom::{Err, Parser};

use self::primary::power;
use self::tokens::{GrammarError, PResult, Piece, Tokens, cmd, fold_steps, nested, punct, tok, tok_map, when};
use crate::ast::{ListKind, Node, RelOp};
use crate::latex;
use crate::lexer::{LexError, Tok, Token, tokenize};
use crate::limits::MAX_ANSWER_BYTES;

/// Why an answer could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl From<LexError> for ParseError {
    fn from(e: LexError) -> Self {
        match e {
            LexError::TooManyTokens => ParseError("answer has too many tokens".into()),
            LexError::Expired => ParseError("the item's time budget ran out".into()),
        }
    }
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

/// One-letter unit symbols read as units when set upright after a value (`3\,\mathrm{m}`,
/// `5\text{ s}`); `e`, `i` and option letters stay values.
const SINGLE_LETTER_UNITS: &[&str] = &["m", "s", "g", "l", "L", "K", "N", "J", "W", "V", "h", "t"];

/// Parses one extracted answer. `plain` marks text without any LaTeX markup.
pub fn parse(input: &str, plain: bool) -> Result<Node, ParseError> {
    if input.len() > MAX_ANSWER_BYTES {
        return Err(ParseError("answer is too long".into()));
    }
    let normalized = latex::normalize(input);
    let tokens = tokenize(&normalized, plain)?;
    parse_tokens(&tokens, plain, 0)
}

/// The units written right after numbers in an answer (`15\text{ cm}^2` gives `cm^2`,
/// `125 miles` gives `mile`): lower case, a plural `s` dropped, the power kept.
pub fn stated_units(input: &str, plain: bool) -> Vec<String> {
    if input.len() > MAX_ANSWER_BYTES {
        return Vec::new();
    }
    let Ok(tokens) = tokenize(&latex::normalize(input), plain) else {
        return Vec::new();
    };
    let tok = |k: usize| tokens.get(k).map(|t| &t.tok);
    let mut out = Vec::new();
    for k in 1..tokens.len() {
        let piece = match &tokens[k].tok {
            Tok::Word(w) => Piece::Word(w),
            Tok::Text(t) => Piece::Text(t),
            _ => continue,
        };
        if !matches!(tokens[k - 1].tok, Tok::Num(_)) || !is_unit(piece) {
            continue;
        }
        let (Piece::Word(word) | Piece::Text(word)) = piece else { continue };
        let mut unit: String = word.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
        unit = unit.trim_end_matches('.').to_owned();
        if unit.chars().count() > 3 && unit.ends_with('s') && !unit.ends_with("ss") {
            unit.pop();
        }
        let power = match (tok(k + 1), tok(k + 2), tok(k + 3)) {
            (Some(Tok::Punct('^')), Some(Tok::Num(n)), _) => Some(n),
            (Some(Tok::Punct('^')), Some(Tok::Punct('{')), Some(Tok::Num(n))) => Some(n),
            _ => None,
        };
        if let Some(n) = power {
            unit.push('^');
            unit.push_str(n);
        }
        out.push(unit);
    }
    out
}

/// Parses a whole token list, `depth` levels down (`\text{}` content is parsed on its own).
fn parse_tokens(tokens: &[Token], plain: bool, depth: usize) -> Result<Node, ParseError> {
    if let Some(text) = text_answer(tokens) {
        return Ok(Node::Text(text));
    }
    let trailing = many0_count(tok(|p| matches!(p, Piece::Punct('.' | ',' | ';' | ':' | '!'))));
    match terminated(alternatives, trailing).parse(Tokens::new(tokens, plain, depth)) {
        Ok((rest, node)) => match rest.peek() {
            None => Ok(node),
            Some(p) => Err(ParseError(format!("unexpected token {p:?}"))),
        },
        Err(Err::Failure(GrammarError(msg)) | Err::Error(GrammarError(msg))) if !msg.is_empty() => Err(ParseError(msg)),
        // Productions report their errors as `Failure`s with a message; a bare mismatch reaching
        // the top would mean a parser declined at the very first token.
        Err(_) => Err(ParseError("unexpected input".into())),
    }
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
                // Set upright on purpose (`\text{no}`), two letters are already a word; capitals
                // alone (`\text{AB}`) stay names of points.
                long_word |= inner.split_whitespace().any(|w| w.len() >= 3)
                    || (inner.chars().count() >= 2 && !inner.chars().all(|c| c.is_ascii_uppercase()));
                words.extend(inner.split_whitespace().map(str::to_lowercase));
            }
            Tok::Punct('.' | ',' | '!') | Tok::Other(_) => {}
            _ => return None,
        }
    }
    (long_word && !words.is_empty()).then(|| words.join(" "))
}

fn is_separator(p: Piece) -> bool {
    match p {
        Piece::Punct(';') => true,
        Piece::Word(w) => is_separator_word(w),
        Piece::Text(t) => is_separator_word(t) || t.trim() == ",",
        Piece::Cmd(c) => c == "text" || c == "lor" || c == "vee",
        _ => false,
    }
}

fn is_closer(p: Piece) -> bool {
    matches!(p, Piece::Punct(')' | ']' | '}' | '&') | Piece::SetClose | Piece::RowSep | Piece::End(_))
}

fn at_end_or_closer(i: &Tokens) -> bool {
    i.peek().is_none_or(is_closer)
}

/// Collects the outputs of `parser` run until it no longer matches.
fn collect<'a, O>(
    parser: impl Parser<Tokens<'a>, Output = O, Error = GrammarError>,
) -> impl Parser<Tokens<'a>, Output = Vec<O>, Error = GrammarError> {
    fold_many0(parser, Vec::new, |mut v, x| {
        v.push(x);
        v
    })
}

/// `first` alone, or `first` and `rest` joined by `make`.
fn one_or_many(first: Node, rest: Vec<Node>, make: impl FnOnce(Vec<Node>) -> Node) -> Node {
    if rest.is_empty() {
        return first;
    }
    let mut items = Vec::with_capacity(rest.len() + 1);
    items.push(first);
    items.extend(rest);
    make(items)
}

/// Comma lists separated by `;`, `and`, `or`; separators may repeat or trail.
fn alternatives(i: Tokens) -> PResult<Node> {
    // After separators, a closer or the end stops the list.
    let item = alt((map(when(at_end_or_closer), |()| None), map(comma_list, Some)));
    let more = fold_many0(preceded(many1_count(tok(is_separator)), item), Vec::new, |mut v, x| {
        v.extend(x);
        v
    });
    map(pair(comma_list, more), |(first, rest)| one_or_many(first, rest, |v| Node::List(v, ListKind::Alternatives)))
        .parse(i)
}

fn comma_list(i: Tokens) -> PResult<Node> {
    // The serial comma: `19, 46, and 82`.
    let serial = opt(tok(|p| matches!(p, Piece::Word(w) | Piece::Text(w) if is_separator_word(w))));
    let stop = when(|i: &Tokens| i.peek().is_none_or(|p| is_closer(p) || is_separator(p)));
    let item = alt((map(stop, |()| None), map(relation, Some)));
    let more = fold_many0(preceded(pair(punct(','), serial), item), Vec::new, |mut v, x| {
        v.extend(x);
        v
    });
    map(pair(relation, more), |(first, rest)| one_or_many(first, rest, |v| Node::List(v, ListKind::Comma))).parse(i)
}

fn rel_op(p: Piece) -> Option<RelOp> {
    let op = match p {
        Piece::Punct('=') => RelOp::Eq,
        Piece::Punct('<') => RelOp::Lt,
        Piece::Punct('>') => RelOp::Gt,
        Piece::Le => RelOp::Le,
        Piece::Ge => RelOp::Ge,
        Piece::Ne => RelOp::Ne,
        Piece::Cmd(c) => match c {
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

fn relation(i: Tokens) -> PResult<Node> {
    let (i, (first, rest)) = pair(union, collect(pair(tok_map(rel_op), union))).parse(i)?;
    if rest.is_empty() {
        return Ok((i, first));
    }
    let mut members = Vec::with_capacity(rest.len() + 1);
    members.push(first);
    let mut ops = Vec::with_capacity(rest.len());
    for (op, member) in rest {
        ops.push(op);
        members.push(member);
    }
    Ok((i, Node::Relation { members, ops }))
}

fn union(i: Tokens) -> PResult<Node> {
    map(pair(ratio, collect(preceded(cmd(&["cup"]), ratio))), |(first, rest)| one_or_many(first, rest, Node::Union))
        .parse(i)
}

fn ratio(i: Tokens) -> PResult<Node> {
    // `a:b`, but not `:=` nor a trailing colon.
    let colon = terminated(punct(':'), peek(tok(|p| p != Piece::Punct('='))));
    map(pair(additive, collect(preceded(colon, additive))), |(first, rest)| one_or_many(first, rest, Node::Ratio))
        .parse(i)
}

enum AddOp {
    Plus,
    Minus,
    PlusMinus { minus_first: bool },
}

fn additive(i: Tokens) -> PResult<Node> {
    let op = tok_map(|p| match p {
        Piece::Punct('+') => Some(AddOp::Plus),
        Piece::Punct('-') => Some(AddOp::Minus),
        Piece::Cmd("pm") => Some(AddOp::PlusMinus { minus_first: false }),
        Piece::Cmd("mp") => Some(AddOp::PlusMinus { minus_first: true }),
        _ => None,
    });
    let (i, (first, rest)) = pair(signed_term, collect(pair(op, signed_term))).parse(i)?;
    if rest.is_empty() {
        return Ok((i, first));
    }
    let mut terms = vec![first];
    for (op, t) in rest {
        match op {
            AddOp::Plus => terms.push(t),
            AddOp::Minus => terms.push(neg(t)),
            AddOp::PlusMinus { minus_first } => {
                // `a + b \pm c` is `(a + b) \pm c`: the sum so far is one side.
                let t = if minus_first { neg(t) } else { t };
                let acc = if terms.len() == 1 { terms.remove(0) } else { Node::Add(std::mem::take(&mut terms)) };
                terms = vec![Node::PlusMinus(Some(Box::new(acc)), Box::new(t))];
            }
        }
    }
    Ok((i, if terms.len() == 1 { terms.remove(0) } else { Node::Add(terms) }))
}

fn neg(n: Node) -> Node {
    Node::Neg(Box::new(n))
}

/// A product, optionally preceded by signs (`-x`, `+-1`, `\pm 2`).
fn signed_term(i: Tokens) -> PResult<Node> {
    // Without a sign only the last branch can match: go there after a single peek.
    if !matches!(i.peek(), Some(Piece::Punct('-' | '+') | Piece::Cmd("pm" | "mp"))) {
        return product(i);
    }
    alt((
        preceded(punct('-'), map(nested(signed_term), neg)),
        preceded(punct('+'), nested(signed_term)),
        preceded(cmd(&["pm", "mp"]), map(nested(signed_term), |t| Node::PlusMinus(None, Box::new(t)))),
        product,
    ))
    .parse(i)
}

/// What follows a factor in a product.
enum ProductStep {
    Mul(Node),
    Div(Node),
    /// A unit after a value, which carries no value.
    Unit,
    Percent,
    /// A factor by juxtaposition; `mixed` marks a whole number before `\frac` (`3\frac12`).
    Implicit {
        factor: Node,
        mixed: bool,
    },
}

fn product(i: Tokens) -> PResult<Node> {
    fold_steps(power, product_step, |cur, step| {
        Ok(match step {
            ProductStep::Mul(f) => mul(cur, f),
            ProductStep::Div(f) => Node::Div(Box::new(cur), Box::new(f)),
            ProductStep::Unit => cur,
            ProductStep::Percent => Node::Percent(Box::new(cur)),
            ProductStep::Implicit { factor, mixed } => match (mixed, &factor) {
                (true, Node::Div(n, d)) if is_whole_number(n) && is_whole_number(d) => Node::Add(vec![cur, factor]),
                _ => mul(cur, factor),
            },
        })
    })
    .parse(i)
}

fn product_step<'a>(cur: &Node, i: Tokens<'a>) -> PResult<'a, ProductStep> {
    let times = alt((punct('*'), cmd(&["cdot", "times", "ast", "star"])));
    let over = alt((punct('/'), cmd(&["div", "over"])));
    let percent = tok(|p| matches!(p, Piece::Word(w) | Piece::Text(w) if is_percent_word(w)));
    let implicit = |i: Tokens<'a>| {
        let mixed = is_whole_number(cur) && i.peek() == Some(Piece::Cmd("frac"));
        map(power, |factor| ProductStep::Implicit { factor, mixed }).parse(i)
    };
    // Most products end here: decline at once, peeking a single time, when the next item
    // can start no step, rather than trying every branch.
    let Some(next) = i.peek() else {
        return Err(Err::Error(GrammarError(String::new())));
    };
    if !starts_product_step(next, &i) {
        return Err(Err::Error(GrammarError(String::new())));
    }
    alt((
        map(preceded(times, signed_power), ProductStep::Mul),
        map(preceded(over, signed_power), ProductStep::Div),
        // The token test is cheap and `has_number` walks the whole factor: test the token first.
        map(preceded(pair(peek(tok(is_unit)), when(|_| cur.has_number() || is_named_constant(cur))), unit), |()| {
            ProductStep::Unit
        }),
        map(percent, |_| ProductStep::Percent),
        preceded(when(starts_implicit_factor), implicit),
    ))
    .parse(i)
}

/// Whether `next` can start some branch of [`product_step`]: a superset of what the branches
/// accept, so declining when it is false changes nothing.
fn starts_product_step(next: Piece, i: &Tokens) -> bool {
    match next {
        Piece::Punct('*' | '/') => true,
        Piece::Cmd("cdot" | "times" | "ast" | "star" | "div" | "over") => true,
        Piece::Word(_) | Piece::Text(_) => true,
        _ => starts_implicit_factor(i),
    }
}

fn signed_power(i: Tokens) -> PResult<Node> {
    // A `+` changes nothing, so a run of them is skipped rather than recursed into.
    preceded(many0_count(punct('+')), alt((preceded(punct('-'), map(nested(signed_power), neg)), power))).parse(i)
}

fn is_unit(p: Piece) -> bool {
    match p {
        Piece::Word(w) => {
            !is_separator_word(w)
                && !is_percent_word(w)
                && crate::functions::canonical(w).is_none()
                && !matches!(w, "pi" | "inf" | "infty" | "infinity" | "oo")
                && !w.chars().all(|c| c.is_ascii_uppercase())
                && (w.len() >= 3 || SHORT_UNITS.contains(&w) || !w.is_ascii())
        }
        Piece::Text(t) => {
            let t = t.trim();
            !t.is_empty()
                && !is_separator_word(t)
                && !is_percent_word(t)
                && t.chars().any(char::is_alphabetic)
                && t.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '.' || c == '/')
                && (t.chars().count() >= 2
                    || !t.starts_with(|c: char| c.is_ascii_alphabetic())
                    || SINGLE_LETTER_UNITS.contains(&t))
        }
        _ => false,
    }
}

/// A unit after a value (`cm`, `\text{ miles}`, `m^2`, `只`), with its power (`cm^2`, `\text{ m}^{3}`).
fn unit(i: Tokens) -> PResult<()> {
    let num = || tok(|p| matches!(p, Piece::Num(_)));
    let power = preceded(punct('^'), alt((num(), preceded(punct('{'), terminated(num(), punct('}'))))));
    map(pair(tok(is_unit), opt(power)), |_| ()).parse(i)
}

/// True when the next token starts a factor multiplied by juxtaposition.
fn starts_implicit_factor(i: &Tokens) -> bool {
    match i.peek() {
        Some(Piece::Num(_) | Piece::Letter(_) | Piece::SetOpen | Piece::Begin(_)) => true,
        Some(Piece::Punct('(' | '{')) => true,
        Some(Piece::Punct('|')) => !i.in_abs(),
        Some(Piece::Word(w)) => !is_separator_word(w) && !is_percent_word(w),
        Some(Piece::Text(t)) => !is_separator_word(t) && !t.trim().is_empty(),
        Some(Piece::Cmd(c)) => primary::starts_value(c),
        _ => false,
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

/// `\pi`, `e` or a product of them, which may carry a unit (`\pi \text{ rad}`); checked
/// without walking the tree, since this runs at every step of a product.
fn is_named_constant(n: &Node) -> bool {
    let leaf = |n: &Node| matches!(n, Node::Const(crate::ast::Constant::Pi | crate::ast::Constant::E));
    match n {
        Node::Mul(v) => v.len() <= 4 && v.iter().all(leaf),
        other => leaf(other),
    }
}

fn is_whole_number(n: &Node) -> bool {
    matches!(n, Node::Num { value, decimals: None, .. } if value.is_integer())
}

#[cfg(test)]
mod tests;
