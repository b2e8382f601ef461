//! `#[should_panic]` tests of a Rust test build, run as `cargo test` runs them.
//!
//! libtest cannot catch a panic on a target that aborts on panic, as `wasm32-wasi` does, and so
//! it ignores every `#[should_panic]` test there: a function that should panic and does not would
//! pass. The build runs them instead, one per run: the source is rewritten so that each such test
//! is `#[ignore]` (the run of the other tests skips it) and, when run on its own, sets a panic
//! hook as its first statement. The hook decides as libtest does (any panic passes, or a panic
//! whose message contains the `expected` string) and ends the run with a status the program
//! cannot know when the test passed; a test body that returns without panicking ends the run
//! with libtest's failure status and says so.
//!
//! The rewrite reads the source with a small Rust lexer (comments, strings, raw strings, char
//! literals and lifetimes are told apart), so an attribute inside a comment or a string is not
//! taken for one. It keeps every line where it was, so the compiler's diagnostics point at the
//! lines the caller wrote.

/// A `#[should_panic]` test, run on its own ([`crate::NativeRuntime::run_panic_test`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanicTest {
    /// The test's path, as libtest names it (`tests::divides_by_zero`).
    pub name: String,
    /// The text the panic's message must contain (`expected = "..."`), if any.
    pub expected: Option<String>,
}

/// The status libtest ends a failed run with; the panic hook and the guard of a test that did not
/// panic end theirs with it too.
pub(crate) const TEST_FAILED: i32 = 101;

/// `source` with its `#[should_panic]` tests rewritten to run on their own, and those tests in
/// the order they appear. A test that is also `#[ignore]`d stays as it is: `cargo test` skips it.
/// `passed` is the status the hook ends a passing test's run with. `Err` says why a
/// `#[should_panic]` test cannot be run (one a macro writes, or one under `cfg_attr`): the
/// source is refused rather than judged without it.
pub(crate) fn rewrite(source: &str, passed: i32) -> Result<(String, Vec<PanicTest>), String> {
    let tokens = lex(source);
    let (found, unrunnable) = find_panic_tests(&tokens);
    if unrunnable > 0 {
        return Err(format!(
            "{unrunnable} #[should_panic] test(s) of this source are written inside a macro or under cfg_attr: \
             libtest cannot catch a panic in the sandbox, which runs each #[should_panic] test on its own and \
             finds only those written out as `#[test] #[should_panic] fn name() {{ ... }}`"
        ));
    }
    if found.is_empty() {
        return Ok((source.to_owned(), Vec::new()));
    }
    let mut out = String::with_capacity(source.len() + found.len() * 1200);
    let mut at = 0;
    let mut tests = Vec::with_capacity(found.len());
    for test in found {
        out.push_str(&source[at..test.attribute.0]);
        // `#[ignore]` where the attribute was, with its line breaks, so lines do not move.
        out.push_str("#[ignore]");
        out.extend(source[test.attribute.0..test.attribute.1].matches('\n').map(|_| '\n'));
        out.push_str(&source[test.attribute.1..test.body]);
        out.push_str(&hook(&test.name, test.expected.as_deref(), passed));
        at = test.body;
        tests.push(PanicTest { name: test.name, expected: test.expected });
    }
    out.push_str(&source[at..]);
    Ok((out, tests))
}

/// The statement a `#[should_panic]` test begins with, on one line: a panic hook that ends the
/// run as the test's outcome, and a guard whose drop (the body returned) fails the test.
fn hook(name: &str, expected: Option<&str>, passed: i32) -> String {
    let expected = match expected {
        Some(expected) => format!("::std::option::Option::Some({expected:?})"),
        None => "::std::option::Option::None".to_owned(),
    };
    let failed = TEST_FAILED;
    format!(
        "let __referee_should_panic = {{ \
         ::std::panic::set_hook(::std::boxed::Box::new(|info: &::std::panic::PanicInfo<'_>| {{ \
         let payload = info.payload(); \
         let message: ::std::option::Option<&str> = match payload.downcast_ref::<::std::string::String>() {{ \
         ::std::option::Option::Some(text) => ::std::option::Option::Some(text.as_str()), \
         ::std::option::Option::None => payload.downcast_ref::<&'static str>().copied() }}; \
         let expected: ::std::option::Option<&str> = {expected}; \
         match (message, expected) {{ \
         (_, ::std::option::Option::None) => ::std::process::exit({passed}), \
         (::std::option::Option::Some(message), ::std::option::Option::Some(expected)) if message.contains(expected) => ::std::process::exit({passed}), \
         (::std::option::Option::Some(message), ::std::option::Option::Some(expected)) => {{ \
         ::std::eprintln!(\"test {name} panicked, but not with the expected message (#[should_panic(expected = ...)])\\n      panic message: `{{:?}}`,\\n expected substring: `{{:?}}`\", message, expected); \
         ::std::process::exit({failed}) }} \
         (::std::option::Option::None, ::std::option::Option::Some(expected)) => {{ \
         ::std::eprintln!(\"test {name} panicked with a value that is not a string (#[should_panic(expected = ...)])\\n expected substring: `{{:?}}`\", expected); \
         ::std::process::exit({failed}) }} }}; }})); \
         struct NoPanic; \
         impl ::std::ops::Drop for NoPanic {{ fn drop(&mut self) {{ \
         ::std::eprintln!(\"test {name} did not panic, but it is marked #[should_panic]\\nnote: test did not panic as expected\"); \
         ::std::process::exit({failed}); }} }} \
         NoPanic }}; "
    )
}

/// A `#[should_panic]` test found in the source.
#[derive(Debug, PartialEq, Eq)]
struct Found {
    name: String,
    expected: Option<String>,
    /// The byte range of its `#[should_panic...]` attribute.
    attribute: (usize, usize),
    /// The byte just after the `{` that opens its body.
    body: usize,
}

/// One token of Rust source, with its byte range.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token<'a> {
    kind: Kind<'a>,
    start: usize,
    end: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind<'a> {
    Ident(&'a str),
    /// A string literal's value (escapes decoded, raw strings as written).
    Str(String),
    Punct(u8),
    /// A number, a char or byte literal, a lifetime.
    Other,
}

/// The tokens of `source`, comments left out. An unterminated literal or comment ends the list:
/// the compiler will reject the source anyway.
fn lex(source: &str) -> Vec<Token<'_>> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let b = bytes[i];
        let kind = if b.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if bytes[i..].starts_with(b"//") {
            i = bytes[i..].iter().position(|&c| c == b'\n').map_or(bytes.len(), |n| i + n);
            continue;
        } else if bytes[i..].starts_with(b"/*") {
            let Some(end) = block_comment_end(bytes, i) else { break };
            i = end;
            continue;
        } else if let Some((end, value)) = raw_string(bytes, i) {
            i = end;
            Kind::Str(value)
        } else if b == b'"' || (b == b'b' && bytes.get(i + 1) == Some(&b'"')) {
            let open = if b == b'"' { i } else { i + 1 };
            let Some((end, value)) = string(source, open) else { break };
            i = end;
            Kind::Str(value)
        } else if b == b'\'' || (b == b'b' && bytes.get(i + 1) == Some(&b'\'')) {
            let Some(end) = char_or_lifetime(source, if b == b'b' { i + 1 } else { i }) else { break };
            i = end;
            Kind::Other
        } else if is_ident_start(b) {
            // A raw identifier (`r#type`) is the identifier.
            let from = if bytes[i..].starts_with(b"r#") && bytes.get(i + 2).is_some_and(|&c| is_ident_start(c)) {
                i + 2
            } else {
                i
            };
            i = from;
            while i < bytes.len() && is_ident_continue(bytes[i]) {
                i += 1;
            }
            Kind::Ident(&source[from..i])
        } else if b.is_ascii_digit() {
            while i < bytes.len()
                && (is_ident_continue(bytes[i])
                    || (bytes[i] == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
            {
                i += 1;
            }
            Kind::Other
        } else {
            i += 1;
            Kind::Punct(b)
        };
        tokens.push(Token { kind, start, end: i });
    }
    tokens
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The end of the (nested) block comment opening at `at`.
fn block_comment_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    while i + 1 < bytes.len() {
        if bytes[i] == b'/' && bytes[i + 1] == b'*' {
            depth += 1;
            i += 2;
        } else if bytes[i] == b'*' && bytes[i + 1] == b'/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Some(i);
            }
        } else {
            i += 1;
        }
    }
    None
}

/// A raw string (`r"..."`, `r#"..."#`, `br"..."`) opening at `at`: its end and its text.
fn raw_string(bytes: &[u8], at: usize) -> Option<(usize, String)> {
    let mut i = at;
    if bytes.get(i) == Some(&b'b') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'r') {
        return None;
    }
    i += 1;
    let hashes = bytes[i..].iter().take_while(|&&c| c == b'#').count();
    i += hashes;
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    let open = i + 1;
    let mut closing = vec![b'"'];
    closing.extend(std::iter::repeat_n(b'#', hashes));
    let length = bytes[open..].windows(closing.len()).position(|w| w == closing.as_slice())?;
    let text = String::from_utf8_lossy(&bytes[open..open + length]).into_owned();
    Some((open + length + closing.len(), text))
}

/// A string literal whose `"` is at `open`: its end and its value.
fn string(source: &str, open: usize) -> Option<(usize, String)> {
    let mut value = String::new();
    let mut chars = source[open + 1..].char_indices();
    while let Some((offset, c)) = chars.next() {
        match c {
            '"' => return Some((open + 1 + offset + 1, value)),
            '\\' => match chars.next()?.1 {
                'n' => value.push('\n'),
                'r' => value.push('\r'),
                't' => value.push('\t'),
                '0' => value.push('\0'),
                'x' => {
                    let digits: String = [chars.next()?.1, chars.next()?.1].iter().collect();
                    value.push(char::from(u8::from_str_radix(&digits, 16).ok()?));
                }
                'u' => {
                    let mut digits = String::new();
                    for (_, c) in chars.by_ref() {
                        match c {
                            '{' => {}
                            '}' => break,
                            c => digits.push(c),
                        }
                    }
                    value.push(char::from_u32(u32::from_str_radix(&digits.replace('_', ""), 16).ok()?)?);
                }
                // A line continuation: the line break and the whitespace after it are dropped.
                '\n' => {
                    let rest = chars.as_str();
                    let skipped = rest.len() - rest.trim_start().len();
                    for _ in rest[..skipped].chars() {
                        chars.next();
                    }
                }
                other => value.push(other),
            },
            c => value.push(c),
        }
    }
    None
}

/// A char literal (`'a'`, `'\n'`, `'\u{1F600}'`) or a lifetime (`'a`) whose `'` is at `open`:
/// its end.
fn char_or_lifetime(source: &str, open: usize) -> Option<usize> {
    let rest = &source[open + 1..];
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    if first == '\\' {
        // An escape: the literal ends at the next quote (`'\''` has its quote escaped).
        let (_, escaped) = chars.next()?;
        let from = if escaped == '\'' { 2 } else { 1 };
        return rest[from..].find('\'').map(|at| open + 1 + from + at + 1);
    }
    let after = first.len_utf8();
    if rest[after..].starts_with('\'') {
        return Some(open + 1 + after + 1);
    }
    // A lifetime or a label: the quote and the identifier after it.
    let length = rest.bytes().take_while(|&b| is_ident_continue(b)).count();
    Some(open + 1 + length)
}

/// The outer attributes of an item, read off the tokens.
#[derive(Default)]
struct Attributes {
    test: bool,
    ignore: bool,
    /// The `#[should_panic...]` attribute: its byte range and `expected` text.
    should_panic: Option<((usize, usize), Option<String>)>,
    /// A `#[cfg_attr(..., should_panic...)]`, which the rewrite does not read.
    conditional_should_panic: bool,
}

/// The `#[test]` functions marked `#[should_panic]` (and not `#[ignore]`), with their module
/// path, and how many `#[should_panic]` tests there are that cannot be rewritten: in a macro's
/// body (the function's name is a macro variable) or under `cfg_attr`.
fn find_panic_tests(tokens: &[Token<'_>]) -> (Vec<Found>, usize) {
    let mut unrunnable = 0;
    let mut found = Vec::new();
    let mut depth = 0usize;
    // The modules open around the current token: name and the depth inside their braces.
    let mut modules: Vec<(&str, usize)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i].kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => {
                depth = depth.saturating_sub(1);
                if modules.last().is_some_and(|&(_, inside)| inside > depth) {
                    modules.pop();
                }
            }
            Kind::Ident("mod") => {
                if let (Some(Kind::Ident(name)), Some(Kind::Punct(b'{'))) =
                    (tokens.get(i + 1).map(|t| &t.kind), tokens.get(i + 2).map(|t| &t.kind))
                {
                    depth += 1;
                    modules.push((name, depth));
                    i += 3;
                    continue;
                }
            }
            Kind::Punct(b'#') => {
                if let Some(Kind::Punct(b'!')) = tokens.get(i + 1).map(|t| &t.kind) {
                    // An inner attribute: skipped whole.
                    i = attribute_end(tokens, i + 2).unwrap_or(tokens.len());
                    continue;
                }
                let (attributes, next) = outer_attributes(tokens, i);
                if next > i {
                    unrunnable += usize::from(attributes.conditional_should_panic && !attributes.ignore);
                    if let (true, false, Some((attribute, expected))) =
                        (attributes.test, attributes.ignore, attributes.should_panic)
                    {
                        match function(tokens, next) {
                            Some((name, body)) => {
                                let mut path: Vec<&str> = modules.iter().map(|&(name, _)| name).collect();
                                path.push(name);
                                found.push(Found { name: path.join("::"), expected, attribute, body });
                            }
                            None => unrunnable += 1,
                        }
                    }
                    i = next;
                    continue;
                }
            }
            Kind::Ident(_) | Kind::Str(_) | Kind::Punct(_) | Kind::Other => {}
        }
        i += 1;
    }
    (found, unrunnable)
}

/// The outer attributes from `at` on (`#[...]` after `#[...]`) and the token after them.
fn outer_attributes(tokens: &[Token<'_>], mut at: usize) -> (Attributes, usize) {
    let mut attributes = Attributes::default();
    while let (Some(Kind::Punct(b'#')), Some(Kind::Punct(b'['))) =
        (tokens.get(at).map(|t| &t.kind), tokens.get(at + 1).map(|t| &t.kind))
    {
        let Some(end) = attribute_end(tokens, at + 1) else { break };
        let inside = &tokens[at + 2..end - 1];
        match inside.first().map(|t| &t.kind) {
            Some(Kind::Ident("test")) if inside.len() == 1 => attributes.test = true,
            Some(Kind::Ident("ignore")) => attributes.ignore = true,
            Some(Kind::Ident("should_panic")) => {
                let span = (tokens[at].start, tokens[end - 1].end);
                attributes.should_panic = Some((span, expected_message(&inside[1..])));
            }
            Some(Kind::Ident("cfg_attr")) => {
                attributes.conditional_should_panic |= inside.iter().any(|t| t.kind == Kind::Ident("should_panic"));
            }
            _ => {}
        }
        at = end;
    }
    (attributes, at)
}

/// The `expected` text of `should_panic` from what follows its name, as rustc reads it:
/// `= "text"`, or `(expected = "text")`; any other argument list expects any panic.
fn expected_message(arguments: &[Token<'_>]) -> Option<String> {
    let kinds: Vec<&Kind<'_>> = arguments.iter().map(|t| &t.kind).collect();
    match kinds.as_slice() {
        [Kind::Punct(b'='), Kind::Str(text)] => Some(text.clone()),
        [Kind::Punct(b'('), Kind::Ident("expected"), Kind::Punct(b'='), Kind::Str(text), Kind::Punct(b')')]
        | [
            Kind::Punct(b'('),
            Kind::Ident("expected"),
            Kind::Punct(b'='),
            Kind::Str(text),
            Kind::Punct(b','),
            Kind::Punct(b')'),
        ] => Some(text.clone()),
        _ => None,
    }
}

/// The token after the `]` that closes the bracket at `open`.
fn attribute_end(tokens: &[Token<'_>], open: usize) -> Option<usize> {
    if tokens.get(open).map(|t| &t.kind) != Some(&Kind::Punct(b'[')) {
        return None;
    }
    let mut depth = 0usize;
    for (offset, token) in tokens[open..].iter().enumerate() {
        match token.kind {
            Kind::Punct(b'[' | b'(' | b'{') => depth += 1,
            Kind::Punct(b']' | b')' | b'}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + offset + 1);
                }
            }
            Kind::Ident(_) | Kind::Str(_) | Kind::Punct(_) | Kind::Other => {}
        }
    }
    None
}

/// The function an item starting at `at` declares (after its qualifiers: `pub`, `pub(crate)`,
/// `async`, `unsafe`, `const`, `extern "C"`): its name and the byte after its body's `{`.
fn function<'a>(tokens: &[Token<'a>], mut at: usize) -> Option<(&'a str, usize)> {
    loop {
        match tokens.get(at).map(|t| &t.kind)? {
            Kind::Ident("pub") => {
                at += 1;
                if tokens.get(at).map(|t| &t.kind) == Some(&Kind::Punct(b'(')) {
                    while tokens.get(at).map(|t| &t.kind)? != &Kind::Punct(b')') {
                        at += 1;
                    }
                    at += 1;
                }
            }
            Kind::Ident("async" | "unsafe" | "const" | "extern") | Kind::Str(_) => at += 1,
            Kind::Ident("fn") => break,
            Kind::Ident(_) | Kind::Punct(_) | Kind::Other => return None,
        }
    }
    let Some(Kind::Ident(name)) = tokens.get(at + 1).map(|t| &t.kind) else { return None };
    // The body opens at the first `{` outside the parameters' parentheses.
    let mut parentheses = 0usize;
    for token in &tokens[at + 2..] {
        match token.kind {
            Kind::Punct(b'(') => parentheses += 1,
            Kind::Punct(b')') => parentheses = parentheses.saturating_sub(1),
            Kind::Punct(b'{') if parentheses == 0 => return Some((name, token.end)),
            Kind::Punct(b';') if parentheses == 0 => return None,
            Kind::Ident(_) | Kind::Str(_) | Kind::Punct(_) | Kind::Other => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panic_tests(source: &str) -> Vec<PanicTest> {
        rewrite(source, 7).map(|(_, tests)| tests).unwrap_or_default()
    }

    #[test]
    fn should_panic_tests_are_found_with_their_path_and_message() {
        let source = r##"
fn divide(a: i32, b: i32) -> i32 { a / b }
#[test]
#[should_panic]
fn top() { divide(1, 0); }
#[cfg(test)]
mod tests {
    use super::*;
    // #[test] #[should_panic] fn in_a_comment() {}
    const S: &str = "#[test] #[should_panic] fn in_a_string() {}";
    #[test]
    fn plain() { assert_eq!(divide(4, 2), 2); }
    #[should_panic(expected = "divide by \"zero\"")]
    #[test]
    pub fn with_message() { divide(1, 0); }
    mod inner {
        #[test]
        #[should_panic = "boom"]
        fn nested() -> () { let c = '{'; let _l: &'static str = "}"; panic!("boom") }
    }
    #[test]
    #[ignore]
    #[should_panic]
    fn ignored() {}
    #[test]
    #[should_panic(expected = r"raw {")]
    fn raw() {}
}
#[test]
#[should_panic(note = "x")]
fn malformed() {}
"##;
        assert_eq!(
            panic_tests(source),
            [
                PanicTest { name: "top".into(), expected: None },
                PanicTest { name: "tests::with_message".into(), expected: Some("divide by \"zero\"".into()) },
                PanicTest { name: "tests::inner::nested".into(), expected: Some("boom".into()) },
                PanicTest { name: "tests::raw".into(), expected: Some("raw {".into()) },
                PanicTest { name: "malformed".into(), expected: None },
            ]
        );
    }

    #[test]
    fn the_rewrite_keeps_every_line_in_place() {
        let source =
            "#[test]\n#[should_panic(\n    expected = \"x\"\n)]\nfn t() {\n    panic!(\"x\");\n}\n#[test]\nfn u() {}\n";
        let (rewritten, tests) = rewrite(source, 7).unwrap_or_default();
        assert_eq!(tests.len(), 1);
        assert_eq!(rewritten.lines().count(), source.lines().count());
        let lines: Vec<&str> = rewritten.lines().collect();
        assert_eq!(lines[1], "#[ignore]");
        assert!(lines[4].starts_with("fn t() {let __referee_should_panic"), "{}", lines[4]);
        assert!(lines[4].contains("exit(7)"), "{}", lines[4]);
        assert_eq!(lines[5], "    panic!(\"x\");");
        assert_eq!(lines[8], "fn u() {}");
    }

    #[test]
    fn a_source_without_should_panic_is_left_alone() {
        let source = "#[test]\nfn t() { assert!(true); }\n";
        assert_eq!(rewrite(source, 7), Ok((source.to_owned(), Vec::new())));
    }

    #[test]
    fn should_panic_tests_a_macro_writes_are_refused() {
        let source = "macro_rules! t {\n    ($name:ident) => {\n        #[test]\n        #[should_panic]\n        fn $name() {}\n    };\n}\nt!(a);\n";
        let refused = rewrite(source, 7).err().unwrap_or_default();
        assert!(refused.starts_with("1 #[should_panic] test(s)"), "{refused}");
        let conditional = "#[test]\n#[cfg_attr(test, should_panic)]\nfn t() {}\n";
        assert!(rewrite(conditional, 7).is_err());
        // Not a test, or ignored: libtest would not run it either.
        assert_eq!(rewrite("#[should_panic]\nfn helper() {}\n", 7).map(|(_, t)| t.len()), Ok(0));
        assert_eq!(rewrite("#[test]\n#[ignore]\n#[should_panic]\nfn t() {}\n", 7).map(|(_, t)| t.len()), Ok(0));
    }

    #[test]
    fn escapes_decode_as_rust_reads_them() {
        let tokens = lex(r#""a\n\t\\\x41\u{1F600}\
            b" b"c" 'd' '\'' 'e"#);
        let kinds: Vec<Kind<'_>> = tokens.into_iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            [Kind::Str("a\n\t\\A\u{1F600}b".into()), Kind::Str("c".into()), Kind::Other, Kind::Other, Kind::Other]
        );
    }
}
