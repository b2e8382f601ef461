//! Powers, postfix operators and primaries: numbers, names, commands, groups, matrices.

use super::{PResult, Parser, fail, numbers, parse_tokens};
use crate::ast::{Constant, Node};
use crate::functions;
use crate::lexer::{Tok, Token};

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

impl Parser {
    /// A primary with its exponents, subscripts and postfix operators.
    pub(super) fn power(&mut self) -> PResult<Node> {
        self.enter()?;
        let result = self.power_inner();
        self.leave();
        result
    }

    fn power_inner(&mut self) -> PResult<Node> {
        let mut base = self.primary()?;
        loop {
            match self.peek() {
                Some(Tok::Punct('^')) => {
                    self.pos += 1;
                    let exp = self.script_arg(true)?;
                    if is_degree_mark(&exp) {
                        base = Node::Degrees(Box::new(base));
                        continue;
                    }
                    base = Node::Pow(Box::new(base), Box::new(exp));
                }
                Some(Tok::Punct('!')) if self.peek_at(1) != Some(&Tok::Punct('=')) => {
                    self.pos += 1;
                    base = Node::Func("fact".into(), vec![base]);
                }
                Some(Tok::Punct('%')) => {
                    self.pos += 1;
                    base = Node::Percent(Box::new(base));
                }
                Some(Tok::Punct('\'')) => {
                    self.pos += 1;
                    base = match base {
                        Node::Sym(s) => Node::Sym(format!("{s}'")),
                        other => Node::Func("derivative".into(), vec![other]),
                    };
                }
                Some(Tok::Punct('_')) => {
                    self.pos += 1;
                    base = self.subscript(base)?;
                }
                Some(Tok::Cmd(c)) if c == "circ" || c == "degree" => {
                    self.pos += 1;
                    base = Node::Degrees(Box::new(base));
                }
                _ => break,
            }
        }
        Ok(base)
    }

    /// The argument of `^`, `_`, `\frac`, `\sqrt`: a braced group, or in LaTeX one character.
    fn script_arg(&mut self, signed: bool) -> PResult<Node> {
        match self.peek() {
            Some(Tok::Punct('{')) => {
                self.pos += 1;
                let inner = self.alternatives()?;
                self.expect(&Tok::Punct('}'))?;
                Ok(inner)
            }
            Some(Tok::Punct('-')) if signed => {
                self.pos += 1;
                Ok(Node::Neg(Box::new(self.script_arg(false)?)))
            }
            Some(Tok::Num(_)) if !self.plain => {
                self.split_first_digit();
                self.primary()
            }
            Some(Tok::Word(_)) if !self.plain => {
                self.split_first_letter();
                self.primary()
            }
            _ => self.primary(),
        }
    }

    /// LaTeX reads `\frac12` and `x^23` one character at a time.
    fn split_first_digit(&mut self) {
        if let Some(Token { tok: Tok::Num(s), space_before }) = self.toks.get(self.pos).cloned()
            && s.len() > 1
            && s.bytes().all(|b| b.is_ascii_digit())
        {
            let (first, rest) = s.split_at(1);
            self.toks[self.pos] = Token { tok: Tok::Num(first.to_owned()), space_before };
            self.toks.insert(self.pos + 1, Token { tok: Tok::Num(rest.to_owned()), space_before: false });
        }
    }

    fn split_first_letter(&mut self) {
        if let Some(Token { tok: Tok::Word(w), space_before }) = self.toks.get(self.pos).cloned() {
            let mut chars = w.chars();
            if let Some(first) = chars.next() {
                let rest: String = chars.collect();
                self.toks[self.pos] = Token { tok: Tok::Letter(first), space_before };
                let tok = if rest.chars().count() == 1 {
                    rest.chars().next().map_or(Tok::Word(rest.clone()), Tok::Letter)
                } else {
                    Tok::Word(rest)
                };
                self.toks.insert(self.pos + 1, Token { tok, space_before: false });
            }
        }
    }

    /// `a_3` names a variable, `F_{n-k}` indexes a sequence, `204_5` is a numeral in base 5.
    fn subscript(&mut self, base: Node) -> PResult<Node> {
        let start = self.pos;
        let sub = self.script_arg(false)?;
        if let Node::Num { value, decimals: None, .. } = &base
            && let Node::Num { value: b, decimals: None, .. } = &sub
        {
            let digits = value.numer().to_string();
            let radix = u32::try_from(b.numer()).ok().filter(|_| b.is_integer());
            return match radix.and_then(|r| numbers::in_base(&digits, r)) {
                Some(n) => Ok(n),
                None => fail("digits are not valid in the subscript base"),
            };
        }
        let Node::Sym(name) = base else {
            return Ok(Node::Func("subscript".into(), vec![base, sub]));
        };
        let simple: Option<String> = self.toks[start..self.pos]
            .iter()
            .filter(|t| !matches!(t.tok, Tok::Punct('{' | '}')))
            .map(|t| match &t.tok {
                Tok::Num(s) | Tok::Word(s) => Some(s.clone()),
                Tok::Letter(c) => Some(c.to_string()),
                _ => None,
            })
            .collect();
        Ok(match simple {
            Some(suffix) if !suffix.is_empty() => Node::Sym(format!("{name}_{suffix}")),
            _ => Node::Func(format!("_{name}"), vec![sub]),
        })
    }

    pub(super) fn primary(&mut self) -> PResult<Node> {
        self.enter()?;
        let result = self.primary_inner();
        self.leave();
        result
    }

    fn primary_inner(&mut self) -> PResult<Node> {
        let Some(tok) = self.bump() else {
            return fail("unexpected end of answer");
        };
        match tok {
            Tok::Num(text) => self.number(&text),
            Tok::Letter(c) => self.letter(c),
            Tok::Word(w) => self.word(w),
            Tok::Cmd(c) => self.command(&c),
            Tok::Text(t) => self.text(&t),
            Tok::Punct('(') => self.group('('),
            Tok::Punct('[') => self.group('['),
            Tok::Punct('{') => {
                let items = self.items(&[Tok::Punct('}')])?;
                self.expect(&Tok::Punct('}'))?;
                Ok(match items.len() {
                    1 => items.into_iter().next().unwrap_or(Node::Set(Vec::new())),
                    _ => Node::Set(items),
                })
            }
            Tok::SetOpen => {
                if self.eat(&Tok::SetClose) {
                    return Ok(Node::Set(Vec::new()));
                }
                let items = self.items(&[Tok::SetClose])?;
                self.expect(&Tok::SetClose)?;
                Ok(Node::Set(items))
            }
            Tok::Punct('|') => {
                self.abs_open += 1;
                let inner = self.additive();
                self.abs_open -= 1;
                let inner = inner?;
                self.expect(&Tok::Punct('|'))?;
                Ok(Node::Func("abs".into(), vec![inner]))
            }
            Tok::Begin(env) => self.matrix(&env),
            other => fail(format!("unexpected {other:?}")),
        }
    }

    fn number(&mut self, text: &str) -> PResult<Node> {
        // Repeating decimals: `0.\overline{3}`, `0.1\overline{6}`.
        let dot_then_bar = self.peek() == Some(&Tok::Punct('.'))
            && matches!(self.peek_at(1), Some(Tok::Cmd(c)) if c == "overline")
            && !self.space_before();
        let bar = matches!(self.peek(), Some(Tok::Cmd(c)) if c == "overline") && text.contains('.');
        if dot_then_bar || bar {
            self.pos += if dot_then_bar { 2 } else { 1 };
            let start = self.pos;
            self.script_arg(false)?;
            let digits: String = self.toks[start..self.pos]
                .iter()
                .filter_map(|t| match &t.tok {
                    Tok::Num(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect();
            let (int_part, frac) = text.split_once('.').unwrap_or((text, ""));
            return numbers::repeating(int_part, frac, &digits).map_or_else(|| fail("bad repeating decimal"), Ok);
        }
        numbers::literal(text).map_or_else(|| fail("number is too large"), Ok)
    }

    fn letter(&mut self, c: char) -> PResult<Node> {
        if FUNCTION_LETTERS.contains(&c) && self.peek() == Some(&Tok::Punct('(')) && !self.space_before() {
            self.pos += 1;
            let args = self.call_args()?;
            return Ok(Node::Func(c.to_string(), args));
        }
        Ok(match c {
            'e' => Node::Const(Constant::E),
            'i' => Node::Const(Constant::I),
            _ => Node::Sym(c.to_string()),
        })
    }

    fn word(&mut self, w: String) -> PResult<Node> {
        if let Some(name) = functions::canonical(&w) {
            return self.function(name);
        }
        match w.as_str() {
            "pi" => return Ok(Node::Const(Constant::Pi)),
            "inf" | "infty" | "infinity" | "oo" => return Ok(Node::Const(Constant::Infinity)),
            _ => {}
        }
        // `AB`, `xy`: products of one-letter names; but `is`, `so`, `we` are prose.
        let ascii = w.chars().all(|c| c.is_ascii_alphabetic());
        let upper = w.chars().all(|c| c.is_ascii_uppercase());
        let prose = !upper && PROSE_WORDS.contains(&w.to_ascii_lowercase().as_str());
        if ascii && !prose && (w.len() <= 2 || w.chars().all(|c| c.is_ascii_uppercase())) {
            self.pos -= 1;
            let space_before = self.space_before();
            let letters: Vec<Token> = w
                .chars()
                .enumerate()
                .map(|(i, c)| Token { tok: Tok::Letter(c), space_before: i == 0 && space_before })
                .collect();
            self.toks.splice(self.pos..=self.pos, letters);
            return self.primary();
        }
        fail(format!("unexpected word {w:?}"))
    }

    fn text(&mut self, t: &str) -> PResult<Node> {
        let inner = t.trim();
        if inner.chars().count() == 1 && inner.chars().all(|c| c.is_ascii_alphabetic()) {
            return self.letter(inner.chars().next().unwrap_or('x'));
        }
        let tokens = crate::lexer::tokenize(&crate::latex::normalize(inner), self.plain)?;
        parse_tokens(tokens, self.plain, self.depth + 1)
    }

    /// Arguments in parentheses after a function name; the `(` is already consumed.
    fn call_args(&mut self) -> PResult<Vec<Node>> {
        let items = self.items(&[Tok::Punct(')')])?;
        self.expect(&Tok::Punct(')'))?;
        Ok(items)
    }

    /// Items separated by `,` or `;` up to (not including) one of `closers`.
    fn items(&mut self, closers: &[Tok]) -> PResult<Vec<Node>> {
        let mut items = Vec::new();
        loop {
            if self.peek().is_some_and(|t| closers.contains(t)) {
                break;
            }
            items.push(self.relation()?);
            if self.eat(&Tok::Punct(',')) || self.eat(&Tok::Punct(';')) {
                continue;
            }
            if self.at_separator() && !matches!(self.peek(), Some(Tok::Punct(';'))) {
                self.pos += 1;
                continue;
            }
            break;
        }
        if items.is_empty() {
            return fail("empty group");
        }
        Ok(items)
    }

    /// `( ... )` or `[ ... ]`, closed by either bracket: grouping, tuple or interval.
    fn group(&mut self, open: char) -> PResult<Node> {
        let items = self.items(&[Tok::Punct(')'), Tok::Punct(']')])?;
        let close = match self.bump() {
            Some(Tok::Punct(c @ (')' | ']'))) => c,
            other => return fail(format!("unclosed bracket, found {other:?}")),
        };
        let mut items = items;
        Ok(match items.len() {
            1 => items.remove(0),
            2 if open == '[' || close == ']' => {
                let hi = items.remove(1);
                let lo = items.remove(0);
                Node::Interval { lo: Box::new(lo), hi: Box::new(hi), lo_closed: open == '[', hi_closed: close == ']' }
            }
            _ => Node::Tuple(items),
        })
    }

    fn command(&mut self, c: &str) -> PResult<Node> {
        if let Some(name) = functions::canonical(c)
            && name != "sqrt"
        {
            return self.function(name);
        }
        match c {
            "frac" | "dfrac" | "tfrac" | "cfrac" => {
                let num = self.script_arg(false)?;
                let den = self.script_arg(false)?;
                Ok(Node::Div(Box::new(num), Box::new(den)))
            }
            "sqrt" => {
                let index = if self.eat(&Tok::Punct('[')) {
                    let idx = self.additive()?;
                    self.expect(&Tok::Punct(']'))?;
                    Some(idx)
                } else {
                    None
                };
                let arg = if self.peek() == Some(&Tok::Punct('(')) {
                    self.pos += 1;
                    self.group('(')?
                } else {
                    self.script_arg(false)?
                };
                Ok(match index {
                    Some(n) => Node::Func("root".into(), vec![arg, n]),
                    None => Node::Func("sqrt".into(), vec![arg]),
                })
            }
            "binom" | "dbinom" | "tbinom" => {
                let n = self.script_arg(false)?;
                let k = self.script_arg(false)?;
                Ok(Node::Func("binom".into(), vec![n, k]))
            }
            "pi" => Ok(Node::Const(Constant::Pi)),
            "infty" | "infinity" => Ok(Node::Const(Constant::Infinity)),
            "emptyset" | "varnothing" => Ok(Node::Set(Vec::new())),
            "ldots" | "dots" | "cdots" | "dotsc" | "dotsb" | "vdots" | "dotso" => Ok(Node::Ellipsis),
            "boxed" | "fbox" => self.script_arg(false),
            "sum" | "prod" => self.series(c == "prod"),
            "lfloor" | "lceil" => {
                let inner = self.additive()?;
                let closer = if c == "lfloor" { "rfloor" } else { "rceil" };
                if !matches!(self.bump(), Some(Tok::Cmd(ref x)) if x == closer) {
                    return fail("unclosed floor or ceiling");
                }
                Ok(Node::Func(if c == "lfloor" { "floor" } else { "ceil" }.into(), vec![inner]))
            }
            "lvert" | "vert" => {
                let inner = self.additive()?;
                if !matches!(self.bump(), Some(Tok::Cmd(ref x)) if x == "rvert" || x == "vert") {
                    return fail("unclosed absolute value");
                }
                Ok(Node::Func("abs".into(), vec![inner]))
            }
            "circ" | "degree" => Ok(Node::Sym("\\circ".into())),
            _ if GREEK.contains(&c) => Ok(Node::Sym(format!("\\{c}"))),
            _ if DECORATIONS.contains(&c) => {
                let arg = self.script_arg(false)?;
                Ok(match arg {
                    Node::Sym(s) => Node::Sym(format!("{c}({s})")),
                    other => Node::Func(c.to_owned(), vec![other]),
                })
            }
            _ => Ok(Node::Sym(format!("\\{c}"))),
        }
    }

    /// A known function applied to parentheses or to a juxtaposed operand (`\sin 2x`), with
    /// an optional power (`\sin^2 x`) or base (`\log_2 8`).
    fn function(&mut self, name: &str) -> PResult<Node> {
        let mut power = None;
        let mut base = None;
        loop {
            if self.eat(&Tok::Punct('^')) {
                power = Some(self.script_arg(true)?);
            } else if self.eat(&Tok::Punct('_')) {
                base = Some(self.script_arg(false)?);
            } else {
                break;
            }
        }
        let mut args = if self.eat(&Tok::Punct('(')) {
            self.call_args()?
        } else {
            let mut operand = self.power()?;
            while self.starts_implicit_factor() && !self.at_function() {
                let f = self.power()?;
                operand = super::mul(operand, f);
            }
            vec![operand]
        };
        if let Some(b) = base {
            args.push(b);
        }
        let inverse = matches!(&power, Some(Node::Neg(p)) if matches!(**p, Node::Num { ref value, .. } if value == &num_rational::BigRational::from_integer(1.into())));
        if inverse && matches!(name, "sin" | "cos" | "tan") {
            return Ok(Node::Func(format!("arc{name}"), args));
        }
        let node = if name == "exp" {
            Node::Pow(Box::new(Node::Const(Constant::E)), Box::new(args.into_iter().next().unwrap_or(Node::int(0))))
        } else {
            Node::Func(name.to_owned(), args)
        };
        Ok(match power {
            Some(p) => Node::Pow(Box::new(node), Box::new(p)),
            None => node,
        })
    }

    fn at_function(&self) -> bool {
        match self.peek() {
            Some(Tok::Cmd(c)) => functions::canonical(c).is_some() || c == "sum" || c == "prod",
            Some(Tok::Word(w)) => functions::canonical(w).is_some(),
            _ => false,
        }
    }

    /// `\sum_{k=0}^{n} body`.
    fn series(&mut self, product: bool) -> PResult<Node> {
        self.expect(&Tok::Punct('_'))?;
        let lower = self.script_arg(false)?;
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
        self.expect(&Tok::Punct('^'))?;
        let hi = self.script_arg(false)?;
        let mut body = self.power()?;
        while self.starts_implicit_factor() && !self.at_function() {
            let f = self.power()?;
            body = super::mul(body, f);
        }
        Ok(Node::Series { product, var, lo: Box::new(lo), hi: Box::new(hi), body: Box::new(body) })
    }

    /// `\begin{pmatrix} a & b \\ c & d \end{pmatrix}` and its relatives.
    fn matrix(&mut self, env: &str) -> PResult<Node> {
        if env == "array" && self.peek() == Some(&Tok::Punct('{')) {
            // Skip the column specification `{cc|c}`.
            while let Some(t) = self.bump() {
                if t == Tok::Punct('}') {
                    break;
                }
            }
        }
        let mut rows: Vec<Vec<Node>> = vec![Vec::new()];
        loop {
            match self.peek() {
                None => return fail("unclosed matrix"),
                Some(Tok::End(_)) => {
                    self.pos += 1;
                    break;
                }
                Some(Tok::RowSep) => {
                    self.pos += 1;
                    rows.push(Vec::new());
                }
                Some(Tok::Punct('&')) => {
                    self.pos += 1;
                }
                Some(_) => {
                    let cell = self.alternatives()?;
                    if let Some(row) = rows.last_mut() {
                        row.push(cell);
                    }
                }
            }
        }
        rows.retain(|r| !r.is_empty());
        if rows.is_empty() {
            return fail("empty matrix");
        }
        Ok(Node::Matrix(rows))
    }
}

fn is_degree_mark(n: &Node) -> bool {
    matches!(n, Node::Sym(s) if s == "\\circ")
}
