//! Text clean-up before lexing: the LaTeX that carries no meaning for the value, and the
//! malformed-but-common spellings (double-escaped backslashes, Unicode operators).

/// Commands that sometimes arrive with their backslash doubled (`\\frac`) because the text was
/// escaped twice; only these are repaired, so a real line break `\\` before a letter survives.
const REPAIRABLE: &[&str] = &[
    "frac",
    "dfrac",
    "tfrac",
    "cfrac",
    "left",
    "right",
    "boxed",
    "text",
    "sqrt",
    "cdot",
    "times",
    "pi",
    "infty",
    "le",
    "leq",
    "ge",
    "geq",
    "neq",
    "ne",
    "in",
    "cup",
    "cap",
    "mathrm",
    "mathbf",
    "textbf",
    "mbox",
    "pm",
    "mp",
    "sin",
    "cos",
    "tan",
    "ln",
    "log",
    "begin",
    "end",
    "quad",
    "qquad",
    "emptyset",
    "varnothing",
    "approx",
    "circ",
    "lt",
    "gt",
    "dots",
    "ldots",
    "cdots",
    "alpha",
    "beta",
    "theta",
    "fbox",
];

/// Spacing and sizing commands replaced by one space.
const SPACING: &[&str] = &[
    "left",
    "right",
    "big",
    "Big",
    "bigg",
    "Bigg",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "biggl",
    "biggr",
    "displaystyle",
    "textstyle",
    "scriptstyle",
    "quad",
    "qquad",
    "middle",
    "limits",
    "nolimits",
    "hfill",
    "enspace",
    "thinspace",
    "medspace",
    "thickspace",
    "negthinspace",
    "space",
    "noindent",
    "centering",
];

/// True when `name` is a command that only adjusts spacing or size.
pub fn is_spacing(name: &str) -> bool {
    SPACING.contains(&name)
}

/// The value of a Unicode vulgar fraction (`½` is `(1, 2)`).
pub fn vulgar_fraction(c: char) -> Option<(u8, u8)> {
    Some(match c {
        '½' => (1, 2),
        '⅓' => (1, 3),
        '⅔' => (2, 3),
        '¼' => (1, 4),
        '¾' => (3, 4),
        '⅕' => (1, 5),
        '⅖' => (2, 5),
        '⅗' => (3, 5),
        '⅘' => (4, 5),
        '⅙' => (1, 6),
        '⅚' => (5, 6),
        '⅛' => (1, 8),
        '⅜' => (3, 8),
        '⅝' => (5, 8),
        '⅞' => (7, 8),
        _ => return None,
    })
}

/// Normalises an extracted answer for the lexer.
pub fn normalize(input: &str) -> String {
    let repaired = repair_double_escapes(input);
    let mut out = String::with_capacity(repaired.len());
    for c in repaired.chars() {
        if let Some((numerator, denominator)) = vulgar_fraction(c) {
            // `137 and ½` is the mixed number 137½, as `137½` and `137 ½` are.
            if let Some(head) = out.strip_suffix(" and ")
                && head.ends_with(|d: char| d.is_ascii_digit())
            {
                out.truncate(head.len() + 1);
            }
            out.push_str(&format!("\\frac{{{numerator}}}{{{denominator}}}"));
            continue;
        }
        match c {
            '−' | '–' | '—' => out.push('-'),
            '×' | '·' | '⋅' | '∙' => out.push('*'),
            '÷' => out.push('/'),
            '≤' | '⩽' => out.push_str("\\le "),
            '≥' | '⩾' => out.push_str("\\ge "),
            '≠' => out.push_str("\\ne "),
            '≈' => out.push_str("\\approx "),
            '∈' => out.push_str("\\in "),
            '∪' => out.push_str("\\cup "),
            '∩' => out.push_str("\\cap "),
            '±' => out.push_str("\\pm "),
            '∞' => out.push_str("\\infty "),
            'π' => out.push_str("\\pi "),
            '√' => out.push_str("\\sqrt "),
            '∅' => out.push_str("\\emptyset "),
            '°' => out.push_str("^\\circ "),
            '²' => out.push_str("^2"),
            '³' => out.push_str("^3"),
            '…' => out.push_str("\\ldots "),
            '\u{a0}' | '\u{2009}' | '\u{202f}' | '\u{3000}' => out.push(' '),
            '（' => out.push('('),
            '）' => out.push(')'),
            '，' => out.push(','),
            '：' => out.push(':'),
            '；' => out.push(';'),
            '。' => out.push(' '),
            _ => out.push(c),
        }
    }
    collapse_braced_commas(&drop_thin_space_after_commas(&out))
}

/// `12,\! 000` spells a thousands separator with a negative thin space; the space after it
/// must not turn the number into a list.
fn drop_thin_space_after_commas(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(",\\!") {
        out.push_str(&rest[..at]);
        out.push(',');
        rest = rest[at + 3..].trim_start();
    }
    out.push_str(rest);
    out
}

/// `12{,}345` is a thousands separator and `2{,}5` a decimal comma (European LaTeX).
fn collapse_braced_commas(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('{') {
        let inner = &rest[at + 1..];
        let close = inner.find('}');
        let is_comma = close.is_some_and(|c| inner[..c].trim() == ",");
        let Some(c) = close.filter(|_| is_comma) else {
            out.push_str(&rest[..=at]);
            rest = inner;
            continue;
        };
        // `14 {,}916`: the space before the group belongs to the number too.
        out.push_str(rest[..at].trim_end_matches(' '));
        let after = &inner[c + 1..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if digits != 3 {
            out.push('.');
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Turns `\\frac` into `\frac` for the commands in [`REPAIRABLE`]; keeps `\\` elsewhere.
fn repair_double_escapes(s: &str) -> String {
    if !s.contains("\\\\") {
        return s.to_owned();
    }
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\\') {
            let start = i + 2;
            let end = start + bytes[start..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
            let word = &s[start..end];
            if !word.is_empty() && REPAIRABLE.iter().any(|r| word.starts_with(r)) {
                out.push('\\');
                i += 2;
                continue;
            }
            out.push_str("\\\\");
            i += 2;
            continue;
        }
        // Byte-wise scan is safe: backslashes are ASCII, and other characters are copied whole.
        let ch_len = s[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&s[i..i + ch_len]);
        i += ch_len;
    }
    out
}
