//! Powers, postfix operators and primaries: numbers, names, commands, groups, matrices.

use nom::branch::alt;
use nom::combinator::{map, not, opt};
use nom::multi::{fold_many0, many0_count};
use nom::sequence::{delimited, pair, preceded, terminated};
use nom::{Err, Parser};

use super::tokens::{
    GrammarError, PResult, Piece, Tokens, cmd, expect, fail, fold_steps, inside_abs, nested, punct, tok, when,
};
use super::{additive, alternatives, is_separator, mul, neg, numbers, parse_tokens, relation, starts_implicit_factor};
use crate::ast::{Constant, Node};
use crate::functions;
use crate::lexer::Tok;

/// Letters that are read as function names when directly followed by `(`.
const FUNCTION_LETTERS: &[char] = &['f', 'g', 'h', 'F', 'G', 'H', 'P', 'Q', 'W'];

const GREEK: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "rho",
    "varrho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
];

/// Two-letter words that are prose, not products of two variables.
const PROSE_WORDS: &[&str] = &[
    "is", "so", "to", "of", "in", "at", "be", "we", "it", "an", "by", "on", "if", "as", "no", "do", "he", "me", "my",
    "up", "us", "am", "de", "la", "le", "et", "un", "il", "es", "en", "el", "ist", "the",
];

const DECORATIONS: &[&str] =
    &["vec", "hat", "bar", "tilde", "overrightarrow", "overleftarrow", "widehat", "widetilde", "overline", "underline"];

/// True when the command can start a value (so it multiplies by juxtaposition).
pub fn starts_value(cmd: &str) -> bool {
    matches!(
        cmd,
        "frac"
            | "dfrac"
            | "tfrac"
            | "cfrac"
            | "sqrt"
            | "pi"
            | "infty"
            | "infinity"
            | "binom"
            | "dbinom"
            | "tbinom"
            | "sum"
            | "prod"
            | "lfloor"
            | "lceil"
            | "lvert"
            | "vert"
            | "emptyset"
            | "varnothing"
            | "boxed"
            | "fbox"
            | "exp"
            | "ln"
            | "log"
            | "lg"
    ) || functions::canonical(cmd).is_some()
        || GREEK.contains(&cmd)
        || DECORATIONS.contains(&cmd)
}

/// A primary with its exponents, subscripts and postfix operators.
pub(super) fn power(i: Tokens) -> PResult<Node> {
    nested(fold_steps(primary, postfix, apply_postfix)).parse(i)
}

/// An operator after a primary.
enum Postfix {
    Pow(Node),
    Degrees,
    Factorial,
    Percent,
    Prime,
    /// A subscript, with the plain text it was written as when that names a variable (`a_3`).
    Subscript(Node, Option<String>),
}

fn postfix<'a>(base: &Node, i: Tokens<'a>) -> PResult<'a, Postfix> {
    let exponent = map(preceded(punct('^'), |i| script_arg(i, true)), |e| {
        if is_degree_mark(&e) { Postfix::Degrees } else { Postfix::Pow(e) }
    });
    let subscript = preceded(punct('_'), |start: Tokens<'a>| {
        let (rest, sub) = script_arg(start, false)?;
        // Only a name takes the written subscript into its own name.
        let simple = matches!(base, Node::Sym(_)).then(|| simple_subscript(&start, &rest)).flatten();
        Ok((rest, Postfix::Subscript(sub, simple)))
    });
    // Most primaries take no postfix: decline after a single peek.
    if !matches!(i.peek(), Some(Piece::Punct('^' | '!' | '%' | '\'' | '_') | Piece::Cmd("circ" | "degree"))) {
        return Err(Err::Error(GrammarError(String::new())));
    }
    alt((
        exponent,
        map(terminated(punct('!'), not(punct('='))), |_| Postfix::Factorial),
        map(punct('%'), |_| Postfix::Percent),
        map(punct('\''), |_| Postfix::Prime),
        subscript,
        map(cmd(&["circ", "degree"]), |_| Postfix::Degrees),
    ))
    .parse(i)
}

fn apply_postfix(base: Node, op: Postfix) -> Result<Node, GrammarError> {
    Ok(match op {
        Postfix::Pow(exp) => Node::Pow(Box::new(base), Box::new(exp)),
        Postfix::Degrees => Node::Degrees(Box::new(base)),
        Postfix::Factorial => Node::Func("fact".into(), vec![base]),
        Postfix::Percent => Node::Percent(Box::new(base)),
        Postfix::Prime => match base {
            Node::Sym(s) => Node::Sym(format!("{s}'")),
            other => Node::Func("derivative".into(), vec![other]),
        },
        Postfix::Subscript(sub, simple) => subscript(base, sub, simple)?,
    })
}

/// `a_3` names a variable, `F_{n-k}` indexes a sequence, `204_5` is a numeral in base 5.
fn subscript(base: Node, sub: Node, simple: Option<String>) -> Result<Node, GrammarError> {
    if let Node::Num { value, decimals: None, .. } = &base
        && let Node::Num { value: b, decimals: None, .. } = &sub
    {
        let digits = value.numer().to_string();
        let radix = u32::try_from(b.numer()).ok().filter(|_| b.is_integer());
        return radix
            .and_then(|r| numbers::in_base(&digits, r))
            .ok_or_else(|| GrammarError("digits are not valid in the subscript base".into()));
    }
    let Node::Sym(name) = base else {
        return Ok(Node::Func("subscript".into(), vec![base, sub]));
    };
    Ok(match simple {
        Some(suffix) if !suffix.is_empty() => Node::Sym(format!("{name}_{suffix}")),
        _ => Node::Func(format!("_{name}"), vec![sub]),
    })
}

/// The text of a subscript made only of digits and letters, braces aside.
fn simple_subscript(start: &Tokens, end: &Tokens) -> Option<String> {
    start
        .read_until(end)
        .filter(|(t, _)| !matches!(t, Tok::Punct('{' | '}')))
        .map(|(t, text)| match t {
            Tok::Num(_) | Tok::Word(_) => Some(text.to_owned()),
            Tok::Letter(c) => Some(c.to_string()),
            _ => None,
        })
        .collect()
}

/// The argument of `^`, `_`, `\frac`, `\sqrt`: a braced group, or in LaTeX one character.
fn script_arg<'a>(i: Tokens<'a>, signed: bool) -> PResult<'a, Node> {
    // LaTeX reads `\frac12` and `x^23` one character at a time.
    let splits = |i: &Tokens| {
        !i.plain
            && match i.peek() {
                Some(Piece::Num(s)) => s.len() > 1 && s.bytes().all(|b| b.is_ascii_digit()),
                Some(Piece::Word(w)) => !w.is_empty(),
                _ => false,
            }
    };
    alt((
        delimited(punct('{'), alternatives, expect(Piece::Punct('}'))),
        preceded(pair(when(|_| signed), punct('-')), map(|i| script_arg(i, false), neg)),
        preceded(when(splits), |i: Tokens<'a>| primary(i.split_first_char())),
        primary,
    ))
    .parse(i)
}

/// A number, name, command, group, set, absolute value or matrix.
pub(super) fn primary(i: Tokens) -> PResult<Node> {
    nested(primary_inner).parse(i)
}

fn primary_inner(i: Tokens) -> PResult<Node> {
    let Some(first) = i.peek() else {
        return fail("unexpected end of answer");
    };
    let after = i.advance();
    match first {
        Piece::Num(text) => number(text, after),
        Piece::Letter(c) => letter(c, after),
        Piece::Word(w) => word(w, i, after),
        Piece::Cmd(c) => command(c, after),
        Piece::Text(t) => text(t, after),
        Piece::Punct(open @ ('(' | '[')) => group(open, after),
        Piece::Punct('{') => {
            let set = |items: Vec<Node>| match items.len() {
                1 => items.into_iter().next().unwrap_or(Node::Set(Vec::new())),
                _ => Node::Set(items),
            };
            map(terminated(|i| items(i, &[Piece::Punct('}')]), expect(Piece::Punct('}'))), set).parse(after)
        }
        Piece::SetOpen => alt((
            map(tok(|p| p == Piece::SetClose), |_| Node::Set(Vec::new())),
            map(terminated(|i| items(i, &[Piece::SetClose]), expect(Piece::SetClose)), Node::Set),
        ))
        .parse(after),
        Piece::Punct('|') => map(terminated(inside_abs(additive), expect(Piece::Punct('|'))), |inner| {
            Node::Func("abs".into(), vec![inner])
        })
        .parse(after),
        Piece::Begin(env) => matrix(env, after),
        other => fail(format!("unexpected {other:?}")),
    }
}

fn number<'a>(text: &'a str, i: Tokens<'a>) -> PResult<'a, Node> {
    // Repeating decimals: `0.\overline{3}`, `0.1\overline{6}`.
    let dot_then_bar =
        i.peek() == Some(Piece::Punct('.')) && i.peek_second() == Some(Piece::Cmd("overline")) && !i.space_before();
    let bar = i.peek() == Some(Piece::Cmd("overline")) && text.contains('.');
    if dot_then_bar || bar {
        let start = if dot_then_bar { i.advance().advance() } else { i.advance() };
        let (rest, _) = script_arg(start, false)?;
        let digits: String =
            start.read_until(&rest).filter(|(t, _)| matches!(t, Tok::Num(_))).map(|(_, digits)| digits).collect();
        let (int_part, frac) = text.split_once('.').unwrap_or((text, ""));
        return match numbers::repeating(int_part, frac, &digits) {
            Some(n) => Ok((rest, n)),
            None => fail("bad repeating decimal"),
        };
    }
    match numbers::literal(text) {
        Some(n) => Ok((i, n)),
        None => fail("number is too large"),
    }
}

fn letter(c: char, i: Tokens) -> PResult<Node> {
    if FUNCTION_LETTERS.contains(&c) && i.peek() == Some(Piece::Punct('(')) && !i.space_before() {
        return map(preceded(punct('('), call_args), |args| Node::Func(c.to_string(), args)).parse(i);
    }
    let node = match c {
        'e' => Node::Const(Constant::E),
        'i' => Node::Const(Constant::I),
        _ => Node::Sym(c.to_string()),
    };
    Ok((i, node))
}

/// A word; `at` is the input at the word, `after` the input after it.
fn word<'a>(w: &'a str, at: Tokens<'a>, after: Tokens<'a>) -> PResult<'a, Node> {
    if let Some(name) = functions::canonical(w) {
        return function(name, after);
    }
    match w {
        "pi" => return Ok((after, Node::Const(Constant::Pi))),
        "inf" | "infty" | "infinity" | "oo" => return Ok((after, Node::Const(Constant::Infinity))),
        _ => {}
    }
    // `AB`, `xy`: products of one-letter names; but `is`, `so`, `we` are prose.
    let ascii = w.chars().all(|c| c.is_ascii_alphabetic());
    let upper = w.chars().all(|c| c.is_ascii_uppercase());
    let prose = !upper && PROSE_WORDS.contains(&w.to_ascii_lowercase().as_str());
    if ascii && !prose && (w.len() <= 2 || upper) {
        return primary(at.spell_out());
    }
    fail(format!("unexpected word {w:?}"))
}

fn text<'a>(t: &'a str, i: Tokens<'a>) -> PResult<'a, Node> {
    let inner = t.trim();
    if inner.chars().count() == 1 && inner.chars().all(|c| c.is_ascii_alphabetic()) {
        return letter(inner.chars().next().unwrap_or('x'), i);
    }
    let parsed = crate::lexer::tokenize(&crate::latex::normalize(inner), i.plain)
        .map_err(super::ParseError::from)
        .and_then(|tokens| parse_tokens(&tokens, i.plain, i.depth() + 1));
    match parsed {
        Ok(node) => Ok((i, node)),
        Err(e) => Err(Err::Failure(GrammarError(e.0))),
    }
}

/// Arguments in parentheses after a function name; the `(` is already consumed.
fn call_args(i: Tokens) -> PResult<Vec<Node>> {
    terminated(|i| items(i, &[Piece::Punct(')')]), expect(Piece::Punct(')'))).parse(i)
}

/// Items separated by `,` or `;` up to (not including) one of `closers`.
fn items<'a>(i: Tokens<'a>, closers: &[Piece]) -> PResult<'a, Vec<Node>> {
    let item = || preceded(not(tok(|p| closers.contains(&p))), relation);
    let separator = alt((punct(','), tok(is_separator)));
    // A separator before a closer ends the list.
    let (i, first) = opt(item()).parse(i)?;
    let Some(first) = first else {
        return fail("empty group");
    };
    let (i, rest) = fold_many0(preceded(separator, opt(item())), Vec::new, |mut v, x| {
        v.extend(x);
        v
    })
    .parse(i)?;
    let mut items = Vec::with_capacity(rest.len() + 1);
    items.push(first);
    items.extend(rest);
    Ok((i, items))
}

/// `( ... )` or `[ ... ]`, closed by either bracket: grouping, tuple or interval.
fn group(open: char, i: Tokens) -> PResult<Node> {
    let (i, mut items) = items(i, &[Piece::Punct(')'), Piece::Punct(']')])?;
    let close = match i.peek() {
        Some(Piece::Punct(c @ (')' | ']'))) => c,
        other => return fail(format!("unclosed bracket, found {other:?}")),
    };
    let node = match items.len() {
        1 => items.remove(0),
        2 if open == '[' || close == ']' => {
            let hi = items.remove(1);
            let lo = items.remove(0);
            Node::Interval { lo: Box::new(lo), hi: Box::new(hi), lo_closed: open == '[', hi_closed: close == ']' }
        }
        _ => Node::Tuple(items),
    };
    Ok((i.advance(), node))
}

/// `parser`, where a mismatch is the grammar error `msg`.
fn required<'a, O>(
    mut parser: impl Parser<Tokens<'a>, Output = O, Error = GrammarError>,
    msg: &'static str,
) -> impl FnMut(Tokens<'a>) -> PResult<'a, O> {
    move |i| match parser.parse(i) {
        Err(Err::Error(_)) => fail(msg),
        other => other,
    }
}

fn command<'a>(c: &'a str, i: Tokens<'a>) -> PResult<'a, Node> {
    if let Some(name) = functions::canonical(c)
        && name != "sqrt"
    {
        return function(name, i);
    }
    let arg = |i| script_arg(i, false);
    match c {
        "frac" | "dfrac" | "tfrac" | "cfrac" => {
            map(pair(arg, arg), |(num, den)| Node::Div(Box::new(num), Box::new(den))).parse(i)
        }
        "sqrt" => {
            let index = opt(delimited(punct('['), additive, expect(Piece::Punct(']'))));
            let radicand = alt((preceded(punct('('), |i| group('(', i)), arg));
            map(pair(index, radicand), |(index, arg)| match index {
                Some(n) => Node::Func("root".into(), vec![arg, n]),
                None => Node::Func("sqrt".into(), vec![arg]),
            })
            .parse(i)
        }
        "binom" | "dbinom" | "tbinom" => map(pair(arg, arg), |(n, k)| Node::Func("binom".into(), vec![n, k])).parse(i),
        "pi" => Ok((i, Node::Const(Constant::Pi))),
        "infty" | "infinity" => Ok((i, Node::Const(Constant::Infinity))),
        "emptyset" | "varnothing" => Ok((i, Node::Set(Vec::new()))),
        "ldots" | "dots" | "cdots" | "dotsc" | "dotsb" | "vdots" | "dotso" => Ok((i, Node::Ellipsis)),
        "boxed" | "fbox" => arg(i),
        "sum" | "prod" => series(c == "prod", i),
        "lfloor" => map(terminated(additive, required(cmd(&["rfloor"]), "unclosed floor or ceiling")), |inner| {
            Node::Func("floor".into(), vec![inner])
        })
        .parse(i),
        "lceil" => map(terminated(additive, required(cmd(&["rceil"]), "unclosed floor or ceiling")), |inner| {
            Node::Func("ceil".into(), vec![inner])
        })
        .parse(i),
        "lvert" | "vert" => {
            map(terminated(additive, required(cmd(&["rvert", "vert"]), "unclosed absolute value")), |inner| {
                Node::Func("abs".into(), vec![inner])
            })
            .parse(i)
        }
        "circ" | "degree" => Ok((i, Node::Sym("\\circ".into()))),
        _ if GREEK.contains(&c) => Ok((i, Node::Sym(format!("\\{c}")))),
        _ if DECORATIONS.contains(&c) => map(arg, |arg| match arg {
            Node::Sym(s) => Node::Sym(format!("{c}({s})")),
            other => Node::Func(c.to_owned(), vec![other]),
        })
        .parse(i),
        _ => Ok((i, Node::Sym(format!("\\{c}")))),
    }
}

/// An operand by juxtaposition (`\sin 2x`, the body of `\sum`): factors up to the next function.
fn operand<'a>(i: Tokens<'a>) -> PResult<'a, Node> {
    let more_factors = |_: &Node, i: Tokens<'a>| {
        let at_function = match i.peek() {
            Some(Piece::Cmd(c)) => functions::canonical(c).is_some() || c == "sum" || c == "prod",
            Some(Piece::Word(w)) => functions::canonical(w).is_some(),
            _ => false,
        };
        preceded(when(|i| starts_implicit_factor(i) && !at_function), power).parse(i)
    };
    fold_steps(power, more_factors, |acc, f| Ok(mul(acc, f))).parse(i)
}

/// A script after a function name: `^` a power, `_` a base.
enum FunctionScript {
    Power(Node),
    Base(Node),
}

/// A known function applied to parentheses or to a juxtaposed operand (`\sin 2x`), with
/// an optional power (`\sin^2 x`) or base (`\log_2 8`).
fn function<'a>(name: &str, i: Tokens<'a>) -> PResult<'a, Node> {
    let script = alt((
        map(preceded(punct('^'), |i| script_arg(i, true)), FunctionScript::Power),
        map(preceded(punct('_'), |i| script_arg(i, false)), FunctionScript::Base),
    ));
    // A repeated script replaces the earlier one.
    let scripts = fold_many0(
        script,
        || (None, None),
        |(power, base), s| match s {
            FunctionScript::Power(p) => (Some(p), base),
            FunctionScript::Base(b) => (power, Some(b)),
        },
    );
    let args = alt((preceded(punct('('), call_args), map(operand, |operand| vec![operand])));
    let (i, ((power, base), mut args)) = pair(scripts, args).parse(i)?;
    if let Some(b) = base {
        args.push(b);
    }
    let one = num_rational::BigRational::from_integer(1.into());
    let inverse = matches!(&power, Some(Node::Neg(p)) if matches!(**p, Node::Num { ref value, .. } if value == &one));
    if inverse && matches!(name, "sin" | "cos" | "tan") {
        return Ok((i, Node::Func(format!("arc{name}"), args)));
    }
    let node = if name == "exp" {
        Node::Pow(Box::new(Node::Const(Constant::E)), Box::new(args.into_iter().next().unwrap_or(Node::int(0))))
    } else {
        Node::Func(name.to_owned(), args)
    };
    Ok((
        i,
        match power {
            Some(p) => Node::Pow(Box::new(node), Box::new(p)),
            None => node,
        },
    ))
}

/// `\sum_{k=0}^{n} body`.
fn series(product: bool, i: Tokens) -> PResult<Node> {
    let (i, lower) = preceded(expect(Piece::Punct('_')), |i| script_arg(i, false)).parse(i)?;
    let (var, lo) = match lower {
        Node::Relation { mut members, .. } if members.len() == 2 => {
            let lo = members.remove(1);
            match members.remove(0) {
                Node::Sym(v) => (v, lo),
                _ => return fail("series index is not a name"),
            }
        }
        _ => return fail("series without a lower bound"),
    };
    let (i, (hi, body)) = pair(preceded(expect(Piece::Punct('^')), |i| script_arg(i, false)), operand).parse(i)?;
    Ok((i, Node::Series { product, var, lo: Box::new(lo), hi: Box::new(hi), body: Box::new(body) }))
}

/// What a matrix body holds between `\begin` and `\end`.
enum MatrixPart {
    Cell(Node),
    RowEnd,
    ColumnSep,
}

/// `\begin{pmatrix} a & b \\ c & d \end{pmatrix}` and its relatives.
fn matrix<'a>(env: &str, i: Tokens<'a>) -> PResult<'a, Node> {
    // Skip the column specification `{cc|c}` of an array.
    let column_spec = pair(punct('{'), pair(many0_count(tok(|p| p != Piece::Punct('}'))), opt(punct('}'))));
    let (i, _) = opt(preceded(when(|_| env == "array"), column_spec)).parse(i)?;
    let not_end = |i: &Tokens| !matches!(i.peek(), None | Some(Piece::End(_)));
    let part = alt((
        map(tok(|p| p == Piece::RowSep), |_| MatrixPart::RowEnd),
        map(punct('&'), |_| MatrixPart::ColumnSep),
        map(preceded(when(not_end), alternatives), MatrixPart::Cell),
    ));
    let (i, mut rows) = fold_many0(
        part,
        || vec![Vec::new()],
        |mut rows: Vec<Vec<Node>>, part| {
            match part {
                MatrixPart::Cell(cell) => {
                    if let Some(row) = rows.last_mut() {
                        row.push(cell);
                    }
                }
                MatrixPart::RowEnd => rows.push(Vec::new()),
                MatrixPart::ColumnSep => {}
            }
            rows
        },
    )
    .parse(i)?;
    let (i, _) = required(tok(|p| matches!(p, Piece::End(_))), "unclosed matrix").parse(i)?;
    rows.retain(|r| !r.is_empty());
    if rows.is_empty() {
        return fail("empty matrix");
    }
    Ok((i, Node::Matrix(rows)))
}

fn is_degree_mark(n: &Node) -> bool {
    matches!(n, Node::Sym(s) if s == "\\circ")
}
