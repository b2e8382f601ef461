//! A nom tokenizer for LaTeX and plain-text math.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{anychar, char, digit0, digit1, one_of};
use nom::combinator::{opt, recognize};
use nom::{IResult, Parser};

use crate::latex::is_spacing;
use crate::limits::MAX_TOKENS;
use crate::work::tick;

/// One lexical token.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// A number as written, with `.` as decimal point and thousands separators removed.
    Num(String),
    Letter(char),
    /// A run of two or more ASCII letters; the parser decides whether it is a function, a
    /// keyword, a unit, a product of single-letter variables, or text.
    Word(String),
    /// A LaTeX command without its backslash.
    Cmd(String),
    /// The content of `\text{}` and its relatives.
    Text(String),
    Begin(String),
    End(String),
    Punct(char),
    /// `\{`
    SetOpen,
    /// `\}`
    SetClose,
    /// `\\`
    RowSep,
    Le,
    Ge,
    Ne,
    /// Any other character (letters of other scripts, stray symbols).
    Other(char),
}

/// A token and whether whitespace preceded it.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub space_before: bool,
}

/// Why lexing stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LexError {
    TooManyTokens,
    /// The item's deadline passed.
    Expired,
}

/// Commands whose braced argument is text rather than math.
const TEXT_COMMANDS: &[&str] = &[
    "text",
    "textbf",
    "textit",
    "textrm",
    "textnormal",
    "textsf",
    "texttt",
    "textup",
    "mbox",
    "hbox",
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "mathtt",
    "operatorname",
    "emph",
    "boldsymbol",
    "bm",
    "mathbb",
    "mathcal",
    "mathscr",
    "mathfrak",
    "textmd",
    "textsc",
];

/// Splits `input` into tokens. `plain` enables the decimal comma (`2,5`), which LaTeX answers
/// never use outside `{,}`.
pub fn tokenize(input: &str, plain: bool) -> Result<Vec<Token>, LexError> {
    let mut tokens = Vec::new();
    let mut rest = input;
    loop {
        let (after_ws, ws) = match take_while::<_, &str, nom::error::Error<&str>>(char::is_whitespace).parse(rest) {
            Ok(r) => r,
            Err(_) => (rest, ""),
        };
        rest = after_ws;
        if rest.is_empty() {
            break;
        }
        let (next, tok) = match token(rest) {
            Ok(r) => r,
            // A character no rule accepts is kept as `Other` so lexing always advances.
            Err(_) => match anychar::<_, nom::error::Error<&str>>(rest) {
                Ok((next, c)) => (next, Some(Tok::Other(c))),
                Err(_) => break,
            },
        };
        if !tick(rest.len() - next.len()) {
            return Err(LexError::Expired);
        }
        rest = next;
        if let Some(tok) = tok {
            tokens.push(Token { tok, space_before: !ws.is_empty() });
            if tokens.len() > MAX_TOKENS {
                return Err(LexError::TooManyTokens);
            }
        }
    }
    Ok(merge_separators(tokens, plain))
}

fn token(input: &str) -> IResult<&str, Option<Tok>> {
    alt((command, number, word, operator, single)).parse(input)
}

fn command(input: &str) -> IResult<&str, Option<Tok>> {
    let (rest, _) = char('\\').parse(input)?;
    if let Ok((rest, name)) = take_while1::<_, &str, nom::error::Error<&str>>(|c: char| c.is_ascii_alphabetic())(rest) {
        return Ok(named_command(rest, name));
    }
    let (rest, c) = anychar(rest)?;
    let tok = match c {
        '{' => Some(Tok::SetOpen),
        '}' => Some(Tok::SetClose),
        '\\' => Some(Tok::RowSep),
        '%' => Some(Tok::Punct('%')),
        '|' => Some(Tok::Punct('|')),
        '#' | '&' | '_' => Some(Tok::Punct(c)),
        // `\$`, `\,`, `\;`, `\!`, `\ ` and friends carry no value.
        _ => None,
    };
    Ok((rest, tok))
}

fn named_command<'a>(rest: &'a str, name: &'a str) -> (&'a str, Option<Tok>) {
    if TEXT_COMMANDS.contains(&name) {
        let trimmed = rest.trim_start();
        if let Some((after, content)) = braced(trimmed) {
            return (after, Some(Tok::Text(content.to_owned())));
        }
        return (rest, None);
    }
    if name == "begin" || name == "end" {
        let trimmed = rest.trim_start();
        if let Some((after, env)) = braced(trimmed) {
            let env = env.trim().trim_end_matches('*').to_owned();
            let tok = if name == "begin" { Tok::Begin(env) } else { Tok::End(env) };
            return (after, Some(tok));
        }
        return (rest, None);
    }
    if is_spacing(name) {
        return (rest, None);
    }
    // Malformed but common: a spacing command glued to the next word (`\quadx_2`).
    for glued in ["qquad", "quad"] {
        if let Some(tail) = name.strip_prefix(glued)
            && !tail.is_empty()
        {
            let mut chars = tail.chars();
            let tok = match (chars.next(), chars.next()) {
                (Some(c), None) => Tok::Letter(c),
                _ => Tok::Word(tail.to_owned()),
            };
            return (rest, Some(tok));
        }
    }
    (rest, Some(Tok::Cmd(name.to_owned())))
}

/// The content of a balanced `{...}` at the start of `input`, and what follows it.
pub fn braced(input: &str) -> Option<(&str, &str)> {
    let body = input.strip_prefix('{')?;
    let mut depth = 1usize;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    tick(i + 1);
                    return Some((&body[i + 1..], &body[..i]));
                }
            }
            _ => {}
        }
    }
    tick(body.len() + 1);
    None
}

fn number(input: &str) -> IResult<&str, Option<Tok>> {
    let (rest, text) =
        alt((recognize((digit1, opt((char('.'), digit1)))), recognize((char('.'), digit1)))).parse(input)?;
    let mut text = text.to_owned();
    if text.starts_with('.') {
        text.insert(0, '0');
    }
    // Scientific notation written directly after the digits: `1.5e-3`, `2E10`.
    if let Ok((after, exp)) =
        recognize::<_, nom::error::Error<&str>, _>((one_of("eE"), opt(one_of("+-")), digit1)).parse(rest)
        && !after.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        text.push_str(exp);
        return Ok((after, Some(Tok::Num(text))));
    }
    // `1000.` followed by a non-digit: the dot is punctuation, not part of the number.
    let _ = digit0::<_, nom::error::Error<&str>>(rest);
    Ok((rest, Some(Tok::Num(text))))
}

fn word(input: &str) -> IResult<&str, Option<Tok>> {
    let (rest, run) = take_while1(|c: char| c.is_alphabetic()).parse(input)?;
    // `1orW(x)`: a separator glued to the next name.
    for sep in ["or", "and"] {
        if let Some(tail) = run.strip_prefix(sep)
            && tail.starts_with(|c: char| c.is_ascii_uppercase())
        {
            return Ok((&input[sep.len()..], Some(Tok::Word(sep.to_owned()))));
        }
    }
    let mut chars = run.chars();
    let tok = match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Tok::Letter(c),
        _ => Tok::Word(run.to_owned()),
    };
    Ok((rest, Some(tok)))
}

fn operator(input: &str) -> IResult<&str, Option<Tok>> {
    let (rest, op) = alt((tag("<="), tag(">="), tag("!="), tag("=<"), tag("=>"), tag("=="), tag("**"))).parse(input)?;
    let tok = match op {
        "<=" | "=<" => Tok::Le,
        ">=" | "=>" => Tok::Ge,
        "!=" => Tok::Ne,
        "==" => Tok::Punct('='),
        _ => Tok::Punct('^'),
    };
    Ok((rest, Some(tok)))
}

fn single(input: &str) -> IResult<&str, Option<Tok>> {
    let (rest, c) = anychar(input)?;
    let tok = match c {
        '+' | '-' | '*' | '/' | '^' | '_' | '=' | '<' | '>' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';' | ':'
        | '!' | '|' | '&' | '%' | '\'' | '.' => Some(Tok::Punct(c)),
        // Currency and delimiters that survived extraction carry no value.
        '$' | '€' | '£' | '¥' | '₹' | '"' | '`' | '?' => None,
        _ => Some(Tok::Other(c)),
    };
    Ok((rest, tok))
}

fn is_int(tok: &Tok) -> Option<&str> {
    match tok {
        Tok::Num(s) if s.bytes().all(|b| b.is_ascii_digit()) => Some(s),
        _ => None,
    }
}

/// Joins digit groups: `7,425,000` and `1 000` outside brackets are one number; in plain
/// text a single `2,74` is a decimal comma (two or more decimals; `1,2` stays a list). `32, 349` (space after the comma) stays a list.
fn merge_separators(tokens: Vec<Token>, plain: bool) -> Vec<Token> {
    let depth_zero_commas = {
        let mut depth = 0i32;
        let mut commas = 0;
        for t in &tokens {
            match t.tok {
                Tok::Punct('(') | Tok::Punct('[') | Tok::SetOpen => depth += 1,
                Tok::Punct(')') | Tok::Punct(']') | Tok::SetClose => depth -= 1,
                Tok::Punct(',') if depth == 0 => commas += 1,
                _ => {}
            }
        }
        commas
    };
    let mut out: Vec<Token> = Vec::with_capacity(tokens.len());
    let mut depth = 0i32;
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        match t.tok {
            Tok::Punct('(') | Tok::Punct('[') | Tok::SetOpen => depth += 1,
            Tok::Punct(')') | Tok::Punct(']') | Tok::SetClose => depth -= 1,
            _ => {}
        }
        if let Some(lead) = is_int(&t.tok) {
            let mut merged = lead.to_owned();
            let mut j = i + 1;
            // Thousands with commas: every later group exactly three digits, none spaced; the
            // last group may carry the decimals (`1,000.99` lexes as `1` `,` `000.99`).
            if depth == 0 && lead.len() <= 3 && !lead.starts_with('0') {
                while j + 1 < tokens.len()
                    && tokens[j].tok == Tok::Punct(',')
                    && !tokens[j].space_before
                    && !tokens[j + 1].space_before
                {
                    let Tok::Num(group) = &tokens[j + 1].tok else {
                        break;
                    };
                    let int_part = group.split('.').next().unwrap_or_default();
                    if int_part.len() != 3 || !int_part.bytes().all(|b| b.is_ascii_digit()) {
                        break;
                    }
                    merged.push_str(group);
                    j += 2;
                    if group.contains('.') {
                        break;
                    }
                }
            }
            // Thousands with spaces: `1 000 000`.
            if j == i + 1 && lead.len() <= 3 && !lead.starts_with('0') {
                while j < tokens.len()
                    && tokens[j].space_before
                    && is_int(&tokens[j].tok).is_some_and(|g| g.len() == 3)
                    && !tokens.get(j + 1).is_some_and(|n| matches!(n.tok, Tok::Punct('.')) && !n.space_before)
                {
                    if let Some(g) = is_int(&tokens[j].tok) {
                        merged.push_str(g);
                    }
                    j += 1;
                }
            }
            // Decimal comma in plain text: a lone `d,dd` at the top level.
            if j == i + 1
                && plain
                && depth == 0
                && depth_zero_commas == 1
                && tokens.get(i + 1).is_some_and(|c| c.tok == Tok::Punct(',') && !c.space_before)
                && let Some(Token { tok: Tok::Num(frac), space_before: false }) = tokens.get(i + 2)
                && frac.bytes().all(|b| b.is_ascii_digit())
                // `1,2` is a list of two digits; `2,74` and `0,111` are decimals; `1,234` is thousands.
                && frac.len() >= 2
                && (frac.len() != 3 || lead == "0")
            {
                merged.push('.');
                merged.push_str(frac);
                j = i + 3;
            }
            out.push(Token { tok: Tok::Num(merged), space_before: t.space_before });
            i = j;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    out
}
