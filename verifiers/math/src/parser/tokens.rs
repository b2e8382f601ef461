//! The token stream as a nom input, and the token-level parsers the grammar is built from.
//!
//! LaTeX reads `x^23` and `\frac12` one character at a time and the grammar reads `AB` as the
//! product of two letters, so a token may be consumed in pieces. A piece borrows its text from
//! the token, which keeps the input `Copy` and every backtrack free.

use nom::error::{ErrorKind, ParseError as NomParseError};
use nom::{Err, IResult, Needed, Parser};

use crate::lexer::{Tok, Token};
use crate::limits::MAX_DEPTH;

/// A token, or a piece of one, as the grammar sees it. Variants mirror [`Tok`] so that error
/// messages read the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    Num(&'a str),
    Letter(char),
    Word(&'a str),
    Cmd(&'a str),
    Text(&'a str),
    Begin(&'a str),
    End(&'a str),
    Punct(char),
    SetOpen,
    SetClose,
    RowSep,
    Le,
    Ge,
    Ne,
    Other(char),
}

impl<'a> Piece<'a> {
    #[inline(always)]
    fn of(tok: &'a Tok) -> Self {
        match tok {
            Tok::Num(s) => Piece::Num(s),
            Tok::Letter(c) => Piece::Letter(*c),
            Tok::Word(s) => Piece::Word(s),
            Tok::Cmd(s) => Piece::Cmd(s),
            Tok::Text(s) => Piece::Text(s),
            Tok::Begin(s) => Piece::Begin(s),
            Tok::End(s) => Piece::End(s),
            Tok::Punct(c) => Piece::Punct(*c),
            Tok::SetOpen => Piece::SetOpen,
            Tok::SetClose => Piece::SetClose,
            Tok::RowSep => Piece::RowSep,
            Tok::Le => Piece::Le,
            Tok::Ge => Piece::Ge,
            Tok::Ne => Piece::Ne,
            Tok::Other(c) => Piece::Other(*c),
        }
    }
}

/// A count of units as the input stores it; answers are capped far below `u32::MAX`.
#[inline(always)]
fn units(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The text of the tokens that can be consumed in pieces.
#[inline]
fn text_of(tok: &Tok) -> &str {
    match tok {
        Tok::Num(s) | Tok::Word(s) => s,
        _ => "",
    }
}

/// How the rest of the first token is cut into items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Cut {
    /// One item: the token, or what is left of it.
    Whole,
    /// Its first character, then the rest as one item.
    FirstChar,
    /// One letter per character.
    Letters,
}

/// The parser's input: the tokens not yet read and the state the grammar threads through.
#[derive(Debug, Clone, Copy)]
pub struct Tokens<'a> {
    toks: &'a [Token],
    /// Bytes of the first token's text already read. The fields are narrow so that the input,
    /// copied at every grammar level, stays four words: answers are capped far below `u32`.
    offset: u32,
    cut: Cut,
    /// Length in units: each token counts one plus the bytes of its text, less what is read of
    /// it. Reading a token in pieces leaves the length unchanged and every item read shortens
    /// it, which nom's checks for loops that make no progress rely on. Like byte offsets in a
    /// `&str`, positions are in units and items are pieces.
    len: u32,
    /// Nesting so far, capped at `MAX_DEPTH`.
    depth: u16,
    /// How many `|...|` are open, so a `|` in operator position closes one.
    abs_open: u16,
    /// Plain text rather than LaTeX: scripts are not read one character at a time.
    pub plain: bool,
}

impl<'a> Tokens<'a> {
    /// The input for a whole token list, `depth` levels down.
    pub fn new(toks: &'a [Token], plain: bool, depth: usize) -> Self {
        let len: usize = toks.iter().map(|t| 1 + text_of(&t.tok).len()).sum();
        let len = u32::try_from(len).unwrap_or(u32::MAX);
        let depth = u16::try_from(depth).unwrap_or(u16::MAX);
        Tokens { toks, offset: 0, cut: Cut::Whole, len, depth, abs_open: 0, plain }
    }

    /// Nesting so far.
    #[inline(always)]
    pub fn depth(&self) -> usize {
        usize::from(self.depth)
    }

    /// Whether some `|...|` is open.
    #[inline(always)]
    pub fn in_abs(&self) -> bool {
        self.abs_open > 0
    }

    #[inline(always)]
    fn offset(&self) -> usize {
        self.offset as usize
    }

    /// The next item and whether whitespace preceded it.
    #[inline(always)]
    pub fn first(&self) -> Option<(Piece<'a>, bool)> {
        if self.len == 0 {
            return None;
        }
        let t = self.toks.first()?;
        if self.offset == 0 && self.cut == Cut::Whole {
            return Some((Piece::of(&t.tok), t.space_before));
        }
        let space_before = self.offset == 0 && t.space_before;
        let rest = text_of(&t.tok).get(self.offset()..)?;
        let piece = match (self.cut, &t.tok) {
            (Cut::Whole, Tok::Num(_)) => Piece::Num(rest),
            (Cut::Whole, _) => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Piece::Letter(c),
                    _ => Piece::Word(rest),
                }
            }
            (_, Tok::Num(_)) => Piece::Num(rest.get(..rest.chars().next()?.len_utf8())?),
            _ => Piece::Letter(rest.chars().next()?),
        };
        Some((piece, space_before))
    }

    /// The next item, if any.
    #[inline(always)]
    pub fn peek(&self) -> Option<Piece<'a>> {
        self.first().map(|(p, _)| p)
    }

    /// The item after the next one.
    pub fn peek_second(&self) -> Option<Piece<'a>> {
        self.advance().peek()
    }

    /// Whether whitespace precedes the next item.
    pub fn space_before(&self) -> bool {
        self.first().is_some_and(|(_, s)| s)
    }

    /// The input after the next item.
    #[inline]
    pub fn advance(self) -> Self {
        let Some(t) = self.toks.first().filter(|_| self.len > 0) else {
            return self;
        };
        let text = text_of(&t.tok);
        if self.cut == Cut::Whole && self.offset == 0 {
            // The common case: a whole token.
            return Tokens {
                toks: self.toks.get(1..).unwrap_or_default(),
                len: self.len.saturating_sub(units(1 + text.len())),
                ..self
            };
        }
        let mut next = self;
        let step = text.get(self.offset()..).and_then(|r| r.chars().next()).map_or(0, char::len_utf8);
        let step = units(step);
        match self.cut {
            Cut::Whole => next.skip_token(),
            Cut::FirstChar => {
                next.offset += step;
                next.cut = Cut::Whole;
            }
            Cut::Letters => {
                next.offset += step;
                if next.offset() >= text.len() {
                    next.skip_token();
                }
            }
        }
        let read = self.units_of_first().saturating_sub(next.units_of_first_if_same(self.toks.len()));
        next.len = self.len.saturating_sub(units(read));
        next
    }

    /// Units left in the first token.
    fn units_of_first(&self) -> usize {
        self.toks.first().map_or(0, |t| 1 + text_of(&t.tok).len() - self.offset().min(text_of(&t.tok).len()))
    }

    /// Units left in the first token if it is still the token that was first in an input of
    /// `toks_before` tokens, else nothing.
    fn units_of_first_if_same(&self, toks_before: usize) -> usize {
        if self.toks.len() == toks_before { self.units_of_first() } else { 0 }
    }

    fn skip_token(&mut self) {
        self.toks = self.toks.get(1..).unwrap_or_default();
        self.offset = 0;
        self.cut = Cut::Whole;
    }

    /// Splits a multi-character number or word into its first character and the rest.
    pub fn split_first_char(self) -> Self {
        Tokens { cut: Cut::FirstChar, ..self }
    }

    /// Reads the next word as one letter per character.
    pub fn spell_out(self) -> Self {
        let Some(t) = self.toks.first() else {
            return self;
        };
        let mut next = Tokens { cut: Cut::Letters, ..self };
        if text_of(&t.tok).len() <= self.offset() {
            // No letters: the word is gone.
            next.len = self.len.saturating_sub(units(self.units_of_first()));
            next.skip_token();
        }
        next
    }

    /// The text of what was read between `self` and `later`, one entry per token touched:
    /// the token and the part of its text read.
    pub fn read_until(&self, later: &Tokens<'a>) -> impl Iterator<Item = (&'a Tok, &'a str)> + use<'a> {
        let last = self.toks.len().saturating_sub(later.toks.len());
        let (first_offset, last_offset) = (self.offset(), later.offset());
        self.toks.iter().take(last + 1).enumerate().filter_map(move |(k, t)| {
            let text = text_of(&t.tok);
            let start = if k == 0 { first_offset } else { 0 };
            if k == last {
                // The token `later` starts on counts only for the part already read.
                if last_offset <= start {
                    return None;
                }
                return Some((&t.tok, text.get(start..last_offset).unwrap_or_default()));
            }
            Some((&t.tok, text.get(start..).unwrap_or_default()))
        })
    }
}

/// Iterates over the items of an input.
pub struct Pieces<'a>(Tokens<'a>);

impl<'a> Iterator for Pieces<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        let p = self.0.peek()?;
        self.0 = self.0.advance();
        Some(p)
    }
}

/// Iterates over the items of an input with their positions in units.
pub struct PieceIndices<'a> {
    start: usize,
    rest: Tokens<'a>,
}

impl<'a> Iterator for PieceIndices<'a> {
    type Item = (usize, Piece<'a>);

    fn next(&mut self) -> Option<(usize, Piece<'a>)> {
        let p = self.rest.peek()?;
        let at = self.start - self.rest.len as usize;
        self.rest = self.rest.advance();
        Some((at, p))
    }
}

impl<'a> nom::Input for Tokens<'a> {
    type Item = Piece<'a>;
    type Iter = Pieces<'a>;
    type IterIndices = PieceIndices<'a>;

    fn input_len(&self) -> usize {
        self.len as usize
    }

    fn take(&self, index: usize) -> Self {
        Tokens { len: units(index).min(self.len), ..*self }
    }

    fn take_from(&self, index: usize) -> Self {
        let mut rest = *self;
        while ((self.len - rest.len) as usize) < index && rest.peek().is_some() {
            rest = rest.advance();
        }
        rest
    }

    fn take_split(&self, index: usize) -> (Self, Self) {
        (self.take_from(index), self.take(index))
    }

    fn position<P>(&self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool,
    {
        self.iter_indices().find(|&(_, p)| predicate(p)).map(|(at, _)| at)
    }

    fn iter_elements(&self) -> Self::Iter {
        Pieces(*self)
    }

    fn iter_indices(&self) -> Self::IterIndices {
        PieceIndices { start: self.len as usize, rest: *self }
    }

    fn slice_index(&self, count: usize) -> Result<usize, Needed> {
        let mut rest = *self;
        for read in 0..count {
            if rest.peek().is_none() {
                return Err(Needed::new(count - read));
            }
            rest = rest.advance();
        }
        Ok((self.len - rest.len) as usize)
    }
}

/// Why a parser stopped. A mismatch carries no message: combinators try the next branch, and
/// building a message for every failed lookahead would cost an allocation each.
#[derive(Debug)]
pub struct GrammarError(pub String);

impl<I> NomParseError<I> for GrammarError {
    fn from_error_kind(_: I, _: ErrorKind) -> Self {
        GrammarError(String::new())
    }

    fn append(_: I, _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// What every parser of the grammar returns.
pub type PResult<'a, T> = IResult<Tokens<'a>, T, GrammarError>;

/// A grammar error. It is always a nom `Failure`: the grammar is LL and never backtracks over
/// a production that has started.
pub fn fail<'a, T>(msg: impl Into<String>) -> PResult<'a, T> {
    Err(Err::Failure(GrammarError(msg.into())))
}

fn mismatch<'a, T>(i: Tokens<'a>) -> PResult<'a, T> {
    Err(Err::Error(GrammarError::from_error_kind(i, ErrorKind::Verify)))
}

/// One item satisfying `pred`.
pub fn tok<'a>(pred: impl Fn(Piece<'a>) -> bool) -> impl Fn(Tokens<'a>) -> PResult<'a, Piece<'a>> {
    move |i: Tokens<'a>| match i.peek() {
        Some(p) if pred(p) => Ok((i.advance(), p)),
        _ => mismatch(i),
    }
}

/// The punctuation character `c`.
pub fn punct<'a>(c: char) -> impl Fn(Tokens<'a>) -> PResult<'a, Piece<'a>> {
    tok(move |p| matches!(p, Piece::Punct(x) if x == c))
}

/// One of the commands `names`.
pub fn cmd<'a>(names: &'static [&'static str]) -> impl Fn(Tokens<'a>) -> PResult<'a, Piece<'a>> {
    tok(move |p| matches!(p, Piece::Cmd(c) if names.contains(&c)))
}

/// One item mapped by `f`, which decides whether it matches.
pub fn tok_map<'a, O>(f: impl Fn(Piece<'a>) -> Option<O>) -> impl Fn(Tokens<'a>) -> PResult<'a, O> {
    move |i: Tokens<'a>| match i.peek().and_then(&f) {
        Some(o) => Ok((i.advance(), o)),
        None => mismatch(i),
    }
}

/// Succeeds, reading nothing, when `pred` holds at this point of the input.
pub fn when<'a>(pred: impl Fn(&Tokens<'a>) -> bool) -> impl Fn(Tokens<'a>) -> PResult<'a, ()> {
    move |i: Tokens<'a>| if pred(&i) { Ok((i, ())) } else { mismatch(i) }
}

/// `token` as a required item: anything else is a grammar error.
pub fn expect<'a>(token: Piece<'static>) -> impl Fn(Tokens<'a>) -> PResult<'a, ()> {
    move |i: Tokens<'a>| match i.peek() {
        Some(p) if p == token => Ok((i.advance(), ())),
        found => fail(format!("expected {token:?}, found {found:?}")),
    }
}

/// Runs `parser` one level deeper: every recursive production goes through here, so recursion
/// stops at `MAX_DEPTH` whatever the input, and the work is counted (and stopped at the
/// item's deadline) here.
pub fn nested<'a, O, P>(mut parser: P) -> impl FnMut(Tokens<'a>) -> PResult<'a, O>
where
    P: Parser<Tokens<'a>, Output = O, Error = GrammarError>,
{
    move |i: Tokens<'a>| {
        let depth = i.depth + 1;
        if usize::from(depth) > MAX_DEPTH {
            return fail("answer is nested too deeply");
        }
        if !crate::work::tick(1) {
            return fail("the item's time budget ran out");
        }
        let (rest, out) = parser.parse(Tokens { depth, ..i })?;
        Ok((Tokens { depth: i.depth, ..rest }, out))
    }
}

/// Runs `parser` inside one more `|...|`.
pub fn inside_abs<'a, O, P>(mut parser: P) -> impl FnMut(Tokens<'a>) -> PResult<'a, O>
where
    P: Parser<Tokens<'a>, Output = O, Error = GrammarError>,
{
    move |i: Tokens<'a>| {
        let (rest, out) = parser.parse(Tokens { abs_open: i.abs_open + 1, ..i })?;
        Ok((Tokens { abs_open: i.abs_open, ..rest }, out))
    }
}

/// `first step*` where each step may depend on the value so far: `apply` builds the next
/// value from it and the step's output, and may refuse.
pub fn fold_steps<'a, T, S, F, G, A>(
    mut first: F,
    mut step: G,
    mut apply: A,
) -> impl FnMut(Tokens<'a>) -> PResult<'a, T>
where
    F: Parser<Tokens<'a>, Output = T, Error = GrammarError>,
    G: FnMut(&T, Tokens<'a>) -> PResult<'a, S>,
    A: FnMut(T, S) -> Result<T, GrammarError>,
{
    move |i: Tokens<'a>| {
        let (mut i, mut acc) = first.parse(i)?;
        loop {
            match step(&acc, i) {
                Ok((rest, s)) => {
                    acc = apply(acc, s).map_err(Err::Failure)?;
                    i = rest;
                }
                Err(Err::Error(_)) => return Ok((i, acc)),
                Err(e) => return Err(e),
            }
        }
    }
}
