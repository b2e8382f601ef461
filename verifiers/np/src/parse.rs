//! A tokenising parser for answers: integers, nested lists and integer-keyed maps.
//!
//! Nothing is ever evaluated. The grammar is small on purpose: lists in `[]`, `()` or `{}`,
//! maps `{key: value}` with integer (or quoted integer) keys, integers with an optional `-`,
//! separators `,` `;` whitespace `->` `→`. Floats, booleans, `+` signs and words inside a
//! structure are errors, never coerced. Caps on bytes, elements, depth and magnitude bound the
//! work to O(length) on any input.

use referee_core::utoipa::{self, ToSchema};
use serde::Serialize;

use crate::violation::{ErrorKind, Violation};

/// Bytes of answer region considered at most; longer regions are rejected as `too_large`.
pub const MAX_REGION_BYTES: usize = 64 * 1024;
/// Deepest nesting accepted (a list of routes is depth 2).
pub const MAX_DEPTH: usize = 4;
/// Most values (integers and structures) in one answer.
pub const MAX_NODES: usize = 20_000;
/// Largest integer magnitude accepted; bigger literals are `too_large`, not wrapped.
pub const MAX_ABS: i64 = 1_000_000_000_000_000;

/// A parsed answer value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// An integer literal (optionally quoted).
    Int(i64),
    /// A bracketed sequence of integers only (the common case, kept flat to avoid a node per
    /// element).
    Ints(Vec<i64>),
    /// A bracketed sequence holding at least one structure.
    List(Vec<Node>),
    /// A brace map with integer keys, in written order.
    Map(Vec<(i64, Node)>),
}

/// Which parsing rule produced the answer, reported in verdict details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ParseRule {
    /// The region is exactly one structure (strict mode's only rule besides `bare_sequence`).
    Exact,
    /// The first structure in the region that parses (lenient, after a marker).
    FirstStructure,
    /// The last structure in the region that parses (lenient, no marker).
    LastStructure,
    /// No brackets: a run of integers separated by commas, spaces or arrows.
    BareSequence,
    /// An arithmetic expression (countdown), read by its own tokenising parser.
    Expression,
}

struct Parser<'a> {
    b: &'a [u8],
    pos: usize,
    nodes: usize,
}

fn too_large(what: &str) -> Violation {
    Violation::new(ErrorKind::TooLarge, format!("answer exceeds the {what} cap"))
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser { b: text.as_bytes(), pos: 0, nodes: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Skips separators; returns whether any were skipped.
    fn skip_separators(&mut self) -> bool {
        let start = self.pos;
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' | b',' | b';' => self.pos += 1,
                b'-' if self.b.get(self.pos + 1) == Some(&b'>') => self.pos += 2,
                // U+2192 RIGHTWARDS ARROW.
                0xE2 if self.b.get(self.pos + 1..self.pos + 3) == Some(&[0x86, 0x92]) => self.pos += 3,
                _ => break,
            }
        }
        self.pos > start
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn count(&mut self) -> Result<(), Violation> {
        self.nodes += 1;
        if self.nodes > MAX_NODES { Err(too_large("element")) } else { Ok(()) }
    }

    fn value(&mut self, depth: usize) -> Result<Node, Violation> {
        if depth > MAX_DEPTH {
            return Err(too_large("nesting depth"));
        }
        self.count()?;
        match self.peek() {
            Some(b'[') => self.list(b']', depth),
            Some(b'(') => self.list(b')', depth),
            Some(b'{') => self.brace(depth),
            Some(q @ (b'"' | b'\'')) => self.quoted(q),
            Some(b'-' | b'0'..=b'9') => self.int().map(Node::Int),
            Some(b't' | b'f' | b'T' | b'F') => {
                Err(Violation::parse("booleans are not accepted where integers are expected"))
            }
            Some(b'+') => Err(Violation::parse("a leading '+' is not accepted")),
            Some(c) => Err(Violation::parse(format!("unexpected character {:?} at byte {}", c as char, self.pos))),
            None => Err(Violation::parse("the answer ends inside a structure")),
        }
    }

    fn list(&mut self, close: u8, depth: usize) -> Result<Node, Violation> {
        self.pos += 1;
        // Integers go straight into a flat vector until the first nested structure.
        let mut ints = Vec::new();
        let mut items: Option<Vec<Node>> = None;
        loop {
            self.skip_separators();
            match self.peek() {
                Some(c) if c == close => {
                    self.pos += 1;
                    return Ok(match items {
                        Some(items) => Node::List(items),
                        None => Node::Ints(ints),
                    });
                }
                Some(b']' | b')' | b'}') => {
                    return Err(Violation::parse("mismatched closing bracket"));
                }
                None => return Err(Violation::parse("unclosed bracket")),
                Some(b'-' | b'0'..=b'9') if items.is_none() => {
                    self.count()?;
                    ints.push(self.int()?);
                }
                Some(q @ (b'"' | b'\'')) if items.is_none() => {
                    self.count()?;
                    ints.push(self.quoted_int(q)?);
                }
                Some(_) => {
                    let value = self.value(depth + 1)?;
                    items.get_or_insert_with(|| ints.drain(..).map(Node::Int).collect()).push(value);
                }
            }
        }
    }

    /// `{...}` is a map when its first entry is followed by `:`, else a list.
    fn brace(&mut self, depth: usize) -> Result<Node, Violation> {
        let start = self.pos;
        self.pos += 1;
        self.skip_separators();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Node::Ints(Vec::new()));
        }
        let first = self.value(depth + 1)?;
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            self.pos = start;
            self.nodes -= 1;
            return self.list(b'}', depth);
        }
        let mut entries = Vec::new();
        let mut key = first;
        loop {
            let Node::Int(k) = key else {
                return Err(Violation::parse("map keys must be integers"));
            };
            self.pos += 1; // the ':'
            self.skip_whitespace();
            let value = self.value(depth + 1)?;
            entries.push((k, value));
            self.skip_separators();
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Node::Map(entries));
                }
                None => return Err(Violation::parse("unclosed map")),
                Some(_) => {}
            }
            key = self.value(depth + 1)?;
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(Violation::parse("expected ':' after a map key"));
            }
        }
    }

    fn quoted(&mut self, quote: u8) -> Result<Node, Violation> {
        self.quoted_int(quote).map(Node::Int)
    }

    fn quoted_int(&mut self, quote: u8) -> Result<i64, Violation> {
        self.pos += 1;
        let value = self.int()?;
        if self.peek() != Some(quote) {
            return Err(Violation::parse("only integers may be quoted"));
        }
        self.pos += 1;
        Ok(value)
    }

    fn int(&mut self) -> Result<i64, Violation> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let start = self.pos;
        let mut value: i64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(i64::from(c - b'0')))
                .ok_or_else(|| too_large("integer size"))?;
            if value > MAX_ABS {
                return Err(too_large("integer size"));
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(Violation::parse("expected an integer"));
        }
        match self.peek() {
            Some(b'.') if matches!(self.b.get(self.pos + 1), Some(b'0'..=b'9')) => {
                Err(Violation::parse("non-integer number where an integer is expected"))
            }
            Some(c) if c.is_ascii_alphanumeric() || c == b'_' => {
                Err(Violation::parse(format!("unexpected character {:?} after a number", c as char)))
            }
            _ => Ok(if negative { -value } else { value }),
        }
    }

    /// A run of integers separated by separators, starting at the current position.
    fn bare_sequence(&mut self) -> Result<Node, Violation> {
        let mut items = Vec::new();
        loop {
            self.count()?;
            items.push(self.int()?);
            let before = self.pos;
            self.skip_separators();
            let continues = matches!(self.peek(), Some(b'0'..=b'9'))
                || (self.peek() == Some(b'-') && matches!(self.b.get(self.pos + 1), Some(b'0'..=b'9')));
            if self.pos == before || !continues {
                return Ok(Node::Ints(items));
            }
        }
    }
}

fn is_open(c: u8) -> bool {
    matches!(c, b'[' | b'(' | b'{')
}

/// Parses an answer region.
///
/// Strict: the region, less surrounding whitespace and one trailing `.`, must be exactly one
/// structure or one bare integer sequence. Lenient: the first (`prefer_last == false`) or last
/// structure that parses anywhere in the region, else the first bare integer run.
pub fn parse_region(region: &str, strict: bool, prefer_last: bool) -> Result<(Node, ParseRule), Violation> {
    if region.len() > MAX_REGION_BYTES {
        return Err(too_large("answer region size"));
    }
    if strict {
        return parse_strict(region);
    }
    let mut p = Parser::new(region);
    let mut found: Option<Node> = None;
    let mut first_error: Option<Violation> = None;
    let bytes = region.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !is_open(bytes[i]) {
            i += 1;
            continue;
        }
        p.pos = i;
        p.nodes = 0;
        match p.value(0) {
            Ok(node) => {
                if !prefer_last {
                    return Ok((node, ParseRule::FirstStructure));
                }
                found = Some(node);
                i = p.pos;
            }
            Err(e) if e.kind == ErrorKind::TooLarge => return Err(e),
            Err(e) => {
                first_error.get_or_insert(e);
                i += 1;
            }
        }
    }
    if let Some(node) = found {
        return Ok((node, ParseRule::LastStructure));
    }
    // A bracketed answer that fails to parse is an error, not an invitation to pick digits out
    // of it.
    if let Some(e) = first_error {
        return Err(e);
    }
    // No structure: the first run of integers (not a digit glued to a word such as "x1").
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let starts = c.is_ascii_digit() || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit));
        let glued = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if starts && !glued {
            p.pos = i;
            p.nodes = 0;
            match p.bare_sequence() {
                Ok(node) => return Ok((node, ParseRule::BareSequence)),
                Err(e) if e.kind == ErrorKind::TooLarge => return Err(e),
                Err(e) => return Err(e),
            }
        }
        i += 1;
    }
    Err(Violation::parse("no list or number found in the answer region"))
}

fn parse_strict(region: &str) -> Result<(Node, ParseRule), Violation> {
    let trimmed = region.trim();
    let trimmed = trimmed.strip_suffix('.').unwrap_or(trimmed).trim_end();
    if trimmed.is_empty() {
        return Err(Violation::parse("the answer region is empty"));
    }
    let mut p = Parser::new(trimmed);
    let (node, rule) = if is_open(trimmed.as_bytes()[0]) {
        (p.value(0)?, ParseRule::Exact)
    } else {
        (p.bare_sequence()?, ParseRule::BareSequence)
    };
    p.skip_whitespace();
    if p.pos != trimmed.len() {
        return Err(Violation::parse(format!("unexpected text after the answer at byte {}", p.pos)));
    }
    Ok((node, rule))
}

impl Node {
    /// A short name of the node's shape, for error messages.
    fn shape(&self) -> &'static str {
        match self {
            Node::Int(_) => "an integer",
            Node::Ints(_) | Node::List(_) => "a list",
            Node::Map(_) => "a map",
        }
    }

    /// A flat list of integers; a lone integer counts as a one-element list.
    pub fn ints(&self) -> Result<Vec<i64>, Violation> {
        match self {
            Node::Int(v) => Ok(vec![*v]),
            Node::Ints(values) => Ok(values.clone()),
            Node::List(items) => items
                .iter()
                .map(|item| match item {
                    Node::Int(v) => Ok(*v),
                    other @ (Node::Ints(_) | Node::List(_) | Node::Map(_)) => Err(Violation::parse(format!(
                        "expected a flat list of integers, found {} inside",
                        other.shape()
                    ))),
                })
                .collect(),
            Node::Map(_) => Err(Violation::parse("expected a list of integers, found a map")),
        }
    }

    /// A list of integer lists (`[[0, 1], [2]]`); a bare integer in place of a list is an error.
    pub fn nested(&self) -> Result<Vec<Vec<i64>>, Violation> {
        match self {
            Node::Ints(values) if values.is_empty() => Ok(Vec::new()),
            Node::List(items) => items
                .iter()
                .map(|item| match item {
                    Node::Ints(_) | Node::List(_) => item.ints(),
                    other @ (Node::Int(_) | Node::Map(_)) => {
                        Err(Violation::parse(format!("expected a list of lists, found {} inside", other.shape())))
                    }
                })
                .collect(),
            other @ (Node::Int(_) | Node::Ints(_) | Node::Map(_)) => {
                Err(Violation::parse(format!("expected a list of lists, found {}", other.shape())))
            }
        }
    }

    /// True when this is a list whose entries are all lists (e.g. `[[0,1],[2]]`).
    pub fn is_nested(&self) -> bool {
        matches!(self, Node::List(items) if items.iter().all(|i| matches!(i, Node::Ints(_) | Node::List(_))))
    }

    /// A value per index `0..n`: a flat list of length `n`, or a map with every key in `0..n`
    /// exactly once.
    pub fn per_index(&self, n: usize, what: &str) -> Result<Vec<i64>, Violation> {
        match self {
            Node::Map(entries) => {
                let mut out = vec![None; n];
                for (k, v) in entries {
                    let idx = index(*k, n, what)?;
                    let Node::Int(v) = v else {
                        return Err(Violation::parse("map values must be integers"));
                    };
                    if out[idx].replace(*v).is_some() {
                        return Err(Violation::duplicate(what, idx));
                    }
                }
                out.into_iter().enumerate().map(|(i, v)| v.ok_or_else(|| Violation::missing(what, i))).collect()
            }
            other @ (Node::Int(_) | Node::Ints(_) | Node::List(_)) => {
                let values = other.ints()?;
                if values.len() != n {
                    return Err(Violation::wrong_length("entries (one per index)", n, values.len()));
                }
                Ok(values)
            }
        }
    }
}

/// Converts a parsed integer into an index below `n`, or an `out_of_range` violation.
pub fn index(value: i64, n: usize, what: &str) -> Result<usize, Violation> {
    if value < 0 || value as u64 >= n as u64 {
        Err(Violation::out_of_range(what, value, n))
    } else {
        Ok(value as usize)
    }
}

/// Distinct indices below `n`: rejects out-of-range values and duplicates (the duplicate policy
/// for every selection task: a repeated id is an error, never silently merged).
pub fn distinct_indices(values: &[i64], n: usize, what: &str) -> Result<Vec<usize>, Violation> {
    let mut seen = vec![false; n];
    let mut out = Vec::with_capacity(values.len());
    for &v in values {
        let idx = index(v, n, what)?;
        if seen[idx] {
            return Err(Violation::duplicate(what, idx));
        }
        seen[idx] = true;
        out.push(idx);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lenient(s: &str) -> Result<Node, ErrorKind> {
        parse_region(s, false, false).map(|(n, _)| n).map_err(|e| e.kind)
    }

    fn strict(s: &str) -> Result<Node, ErrorKind> {
        parse_region(s, true, false).map(|(n, _)| n).map_err(|e| e.kind)
    }

    fn list(v: &[i64]) -> Node {
        Node::Ints(v.to_vec())
    }

    #[test]
    fn accepts_the_usual_spellings() {
        assert_eq!(lenient("[0, 1, 2]"), Ok(list(&[0, 1, 2])));
        assert_eq!(lenient("(0 1 2)"), Ok(list(&[0, 1, 2])));
        assert_eq!(lenient("0 -> 1 -> 2"), Ok(list(&[0, 1, 2])));
        assert_eq!(lenient("0 → 1 → 2"), Ok(list(&[0, 1, 2])));
        assert_eq!(lenient("[\"0\", '1', 2]"), Ok(list(&[0, 1, 2])));
        assert_eq!(lenient("{2, 1}"), Ok(list(&[2, 1])));
        assert_eq!(lenient("[0, 1] (size 2)"), Ok(list(&[0, 1])));
        assert_eq!(lenient("{0: 1, \"1\": 2}"), Ok(Node::Map(vec![(0, Node::Int(1)), (1, Node::Int(2))])));
        assert_eq!(lenient("[[0,1],[2]]"), Ok(Node::List(vec![list(&[0, 1]), list(&[2])])));
        assert_eq!(lenient("[]"), Ok(Node::Ints(vec![])));
        assert_eq!(lenient("[1, [2]]"), Ok(Node::List(vec![Node::Int(1), list(&[2])])));
        assert_eq!(lenient("[-3]"), Ok(list(&[-3])));
        assert_eq!(strict("[0, 1, 2]."), Ok(list(&[0, 1, 2])));
        assert_eq!(strict("3, 4, 5"), Ok(list(&[3, 4, 5])));
    }

    #[test]
    fn rejects_what_it_must() {
        assert_eq!(lenient("[1.5, 2]"), Err(ErrorKind::ParseError));
        assert_eq!(lenient("[true, 2]"), Err(ErrorKind::ParseError));
        assert_eq!(lenient("[+1]"), Err(ErrorKind::ParseError));
        assert_eq!(lenient("[1, 2"), Err(ErrorKind::ParseError));
        assert_eq!(lenient("no numbers here"), Err(ErrorKind::ParseError));
        assert_eq!(lenient("[99999999999999999999]"), Err(ErrorKind::TooLarge));
        assert_eq!(lenient("[[[[[[1]]]]]]"), Err(ErrorKind::TooLarge));
        assert_eq!(strict("[0, 1] (size 2)"), Err(ErrorKind::ParseError));
        assert_eq!(strict("the tour [0, 1]"), Err(ErrorKind::ParseError));
        assert_eq!(lenient("__import__('os').system('x')"), Err(ErrorKind::ParseError));
        let huge = format!("[{}]", "1,".repeat(MAX_NODES + 5));
        assert_eq!(lenient(&huge), Err(ErrorKind::TooLarge));
    }

    #[test]
    fn never_panics_on_arbitrary_bytes() {
        let mut rng = crate::rng::Rng::from_seed(3);
        let alphabet = b"[](){}:,-> 0123456789\"'x.\xe2\x86\x92";
        for _ in 0..3000 {
            let len = rng.index(40);
            let bytes: Vec<u8> = (0..len).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse_region(&text, false, rng.chance(0.5));
            let _ = parse_region(&text, true, false);
        }
    }

    #[test]
    fn per_index_and_distinct() {
        let m = lenient("{1: 5, 0: 7}").unwrap_or(Node::Int(0));
        assert_eq!(m.per_index(2, "vertex").ok(), Some(vec![7, 5]));
        assert_eq!(m.per_index(3, "vertex").map_err(|e| e.kind), Err(ErrorKind::MissingElement));
        assert_eq!(distinct_indices(&[2, 2, 2], 5, "vertex").map_err(|e| e.kind), Err(ErrorKind::Duplicate));
        assert_eq!(distinct_indices(&[5], 5, "vertex").map_err(|e| e.kind), Err(ErrorKind::OutOfRange));
    }
}
