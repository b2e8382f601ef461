//! Countdown: combine the given numbers with + − × ÷ to reach the target.
//!
//! The answer is an arithmetic expression, read by a dedicated tokenising parser and evaluated
//! in exact rational arithmetic: no `eval`, no symbolic library, bounded length and depth.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::parse::{Node, ParseRule};
use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{LevelSpec, Problem, ReferenceKind, Solved};
use crate::violation::{ErrorKind, Violation};

/// Longest expression accepted, in bytes.
const MAX_EXPRESSION_BYTES: usize = 512;
/// Deepest parenthesis nesting accepted.
const MAX_DEPTH: usize = 32;
const MAX_NUMBERS: usize = 8;
/// Search nodes of the exact solver for caller-supplied instances.
const SEARCH_BUDGET: u64 = 3_000_000;

/// A countdown instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountdownInstance {
    /// The numbers, each usable at most once.
    pub numbers: Vec<i64>,
    /// The value to reach.
    pub target: i64,
}

/// An exact rational number, always reduced with a positive denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

fn overflow() -> Violation {
    Violation::new(ErrorKind::TooLarge, "an intermediate value exceeds the arithmetic range")
}

impl Ratio {
    fn int(v: i64) -> Ratio {
        Ratio { num: i128::from(v), den: 1 }
    }

    fn new(num: i128, den: i128) -> Result<Ratio, Violation> {
        if den == 0 {
            return Err(Violation::constraint("division by zero", json!({ "division_by_zero": true })));
        }
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        let (num, den) = (sign * num / g, sign * den / g);
        // Keep far from i128's edge so products of two values cannot overflow unchecked.
        if num.unsigned_abs() > 1 << 60 || den > 1 << 60 {
            return Err(overflow());
        }
        Ok(Ratio { num, den })
    }

    fn apply(self, op: u8, rhs: Ratio) -> Result<Ratio, Violation> {
        let (a, b, c, d) = (self.num, self.den, rhs.num, rhs.den);
        match op {
            b'+' => Ratio::new(a * d + c * b, b * d),
            b'-' => Ratio::new(a * d - c * b, b * d),
            b'*' => Ratio::new(a * c, b * d),
            _ => Ratio::new(a * d, b * c),
        }
    }

    /// |self − target| rounded up to an integer: the distance objective.
    fn distance(self, target: i64) -> i64 {
        let diff = (self.num - i128::from(target) * self.den).abs();
        let d = (diff + self.den - 1) / self.den;
        i64::try_from(d).unwrap_or(i64::MAX)
    }
}

/// A parsed answer: its value, the numbers it used and its normalised text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expression {
    /// Exact value.
    pub value: Ratio,
    /// The literals, in written order.
    pub used: Vec<i64>,
    /// Tokens joined by single spaces.
    pub text: String,
}

struct ExprParser<'a> {
    b: &'a [u8],
    pos: usize,
    used: Vec<i64>,
    tokens: Vec<String>,
}

impl ExprParser<'_> {
    fn skip_space(&mut self) {
        while matches!(self.b.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// The next operator among `ops`, recognising `×` `÷` `−` `·` and `\times` `\div` `\cdot`.
    fn operator(&mut self, ops: &[u8]) -> Option<u8> {
        self.skip_space();
        let rest = &self.b[self.pos..];
        let table: [(&[u8], u8); 11] = [
            (b"+", b'+'),
            (b"-", b'-'),
            ("−".as_bytes(), b'-'),
            (b"*", b'*'),
            ("×".as_bytes(), b'*'),
            ("·".as_bytes(), b'*'),
            (b"\\times", b'*'),
            (b"\\cdot", b'*'),
            (b"/", b'/'),
            ("÷".as_bytes(), b'/'),
            (b"\\div", b'/'),
        ];
        let (len, op) =
            table.iter().find(|(s, op)| ops.contains(op) && rest.starts_with(s)).map(|(s, op)| (s.len(), *op))?;
        self.pos += len;
        self.tokens.push((op as char).to_string());
        Some(op)
    }

    fn expression(&mut self, depth: usize) -> Result<Ratio, Violation> {
        let mut value = self.term(depth)?;
        while let Some(op) = self.operator(b"+-") {
            value = value.apply(op, self.term(depth)?)?;
        }
        Ok(value)
    }

    fn term(&mut self, depth: usize) -> Result<Ratio, Violation> {
        let mut value = self.factor(depth)?;
        while let Some(op) = self.operator(b"*/") {
            value = value.apply(op, self.factor(depth)?)?;
        }
        Ok(value)
    }

    fn factor(&mut self, depth: usize) -> Result<Ratio, Violation> {
        if depth > MAX_DEPTH {
            return Err(Violation::new(ErrorKind::TooLarge, "the expression is nested too deeply"));
        }
        self.skip_space();
        match self.b.get(self.pos) {
            Some(b'(') => {
                self.pos += 1;
                self.tokens.push("(".into());
                let v = self.expression(depth + 1)?;
                self.skip_space();
                if self.b.get(self.pos) != Some(&b')') {
                    return Err(Violation::parse("unclosed parenthesis"));
                }
                self.pos += 1;
                self.tokens.push(")".into());
                Ok(v)
            }
            Some(b'0'..=b'9') => {
                let start = self.pos;
                while matches!(self.b.get(self.pos), Some(b'0'..=b'9')) {
                    self.pos += 1;
                }
                if matches!(self.b.get(self.pos), Some(b'.' | b'e' | b'E' | b'a'..=b'z' | b'A'..=b'Z' | b'_')) {
                    return Err(Violation::parse("only whole numbers may appear in the expression"));
                }
                let digits = std::str::from_utf8(&self.b[start..self.pos]).unwrap_or("");
                let v: i64 =
                    digits.parse().map_err(|_| Violation::new(ErrorKind::TooLarge, "a number is too large"))?;
                if v > 1_000_000_000 {
                    return Err(Violation::new(ErrorKind::TooLarge, "a number is too large"));
                }
                self.used.push(v);
                self.tokens.push(v.to_string());
                Ok(Ratio::int(v))
            }
            Some(c) => Err(Violation::parse(format!("unexpected character {:?} in the expression", *c as char))),
            None => Err(Violation::parse("the expression ends early")),
        }
    }
}

/// The expression part of an answer region: its last non-empty line, without a trailing `.`
/// and without an `= value` the model may have appended.
fn expression_text(region: &str, strict: bool) -> &str {
    let line =
        if strict { region.trim() } else { region.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("") };
    let line = line.trim_end_matches('.').trim();
    let line = line.trim_start_matches('$').trim_end_matches('$').trim();
    match line.find('=') {
        Some(i) => line[..i].trim(),
        None => line,
    }
}

/// Parses and evaluates an expression (no check of which numbers it uses).
pub fn parse_expression(text: &str) -> Result<Expression, Violation> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(Violation::new(ErrorKind::TooLarge, "the expression is too long"));
    }
    if text.is_empty() {
        return Err(Violation::parse("no expression found"));
    }
    let mut p = ExprParser { b: text.as_bytes(), pos: 0, used: Vec::new(), tokens: Vec::new() };
    let value = p.expression(0)?;
    p.skip_space();
    if p.pos != text.len() {
        return Err(Violation::parse(format!("unexpected text after the expression at byte {}", p.pos)));
    }
    Ok(Expression { value, used: p.used, text: p.tokens.join(" ") })
}

/// The countdown task.
#[derive(Debug)]
pub struct Countdown;

impl Problem for Countdown {
    type Instance = CountdownInstance;
    type Solution = Expression;
    const NAME: &'static str = "countdown";
    const SUMMARY: &'static str = "Reach the target by combining the given numbers (each at most once) with + − × ÷ and \
        parentheses. The expression is tokenised and evaluated exactly over the rationals, never executed. Objective: \
        distance to the target (a planted expression reaches it), reward ratio 1/(d+1).";
    const DIRECTION: Direction = Direction::MinimizeShifted;
    const ANSWER_FORMAT: &'static str = "one arithmetic expression using some of the numbers, each at most once, with \
        + - * / and parentheses, e.g. `(25 - 4) * 3 + 7`.";
    const GENERATOR_VERSION: u32 = 1;
    const LEVELS: &'static [LevelSpec] = &[
        LevelSpec { level: 1, description: "4 numbers from 1-10, target up to 100, planted" },
        LevelSpec { level: 2, description: "5 numbers (one large), target up to 300, planted" },
        LevelSpec { level: 3, description: "6 numbers (two large), target 100-999, planted" },
        LevelSpec { level: 4, description: "6 numbers (two large), target 100-999 using at least 5 numbers, planted" },
    ];

    fn generate(level: u8, rng: &mut Rng) -> (CountdownInstance, Option<Expression>) {
        let (small, large, lo, hi, min_used) = match level {
            1 => (4, 0, 2, 100, 3),
            2 => (4, 1, 10, 300, 3),
            3 => (4, 2, 100, 999, 4),
            _ => (4, 2, 100, 999, 5),
        };
        let mut numbers: Vec<i64> = (0..small).map(|_| rng.range(1, 10)).collect();
        let bigs = [25, 50, 75, 100];
        numbers.extend(rng.permutation(4)[..large].iter().map(|&i| bigs[i]));
        rng.shuffle(&mut numbers);
        // Draw random expressions over random subsets (integer, positive intermediate values,
        // as in the game) until one lands in the target range; the attempt cap keeps it finite.
        let mut fallback = None;
        for _ in 0..10_000 {
            let k = rng.range_usize(min_used, numbers.len());
            let picks = rng.permutation(numbers.len());
            let mut parts: Vec<(i64, String)> =
                picks[..k].iter().map(|&i| (numbers[i], numbers[i].to_string())).collect();
            let mut ok = true;
            while parts.len() > 1 {
                let a = parts.swap_remove(rng.index(parts.len()));
                let b = parts.swap_remove(rng.index(parts.len()));
                let (x, y) = if a.0 >= b.0 { (a, b) } else { (b, a) };
                let combined = match rng.index(4) {
                    0 => Some((x.0 + y.0, format!("({} + {})", x.1, y.1))),
                    1 if x.0 > y.0 => Some((x.0 - y.0, format!("({} - {})", x.1, y.1))),
                    2 => Some((x.0 * y.0, format!("({} * {})", x.1, y.1))),
                    3 if y.0 > 1 && x.0 % y.0 == 0 => Some((x.0 / y.0, format!("({} / {})", x.1, y.1))),
                    _ => None,
                };
                match combined {
                    Some(c) => parts.push(c),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            let Some((value, text)) = parts.pop() else { continue };
            if ok && (lo..=hi).contains(&value) {
                let text = text
                    .strip_prefix('(')
                    .and_then(|t| t.strip_suffix(')'))
                    .filter(|_| text.ends_with(')') && balanced_outer(&text))
                    .unwrap_or(&text)
                    .to_owned();
                let planted = parse_expression(&text).ok();
                return (CountdownInstance { numbers, target: value }, planted);
            }
            if ok && fallback.is_none() && value > 0 {
                fallback = Some((value, text));
            }
        }
        let (target, text) = fallback
            .unwrap_or((numbers.iter().sum(), numbers.iter().map(i64::to_string).collect::<Vec<_>>().join(" + ")));
        (CountdownInstance { numbers, target }, parse_expression(&text).ok())
    }

    fn validate(inst: &CountdownInstance) -> Result<(), String> {
        if inst.numbers.is_empty() || inst.numbers.len() > MAX_NUMBERS {
            return Err(format!("1..={MAX_NUMBERS} numbers"));
        }
        if inst.numbers.iter().any(|&x| !(1..=1_000_000).contains(&x)) || !(0..=1_000_000_000).contains(&inst.target) {
            return Err("numbers must be within 1..=1e6 and the target within 0..=1e9".into());
        }
        Ok(())
    }

    fn prompt(inst: &CountdownInstance) -> String {
        format!(
            "Countdown. Using the numbers {:?}, each at most once (not all need to be used), and the operations +, -, * \
             and / with parentheses, write an expression whose value is {} (or as close to it as you can).",
            inst.numbers, inst.target
        )
    }

    fn decode(_: &CountdownInstance, _: &Node) -> Result<Expression, Violation> {
        Err(Violation::parse("expected an arithmetic expression"))
    }

    fn decode_text(
        inst: &CountdownInstance,
        region: &str,
        strict: bool,
    ) -> Option<Result<(Expression, ParseRule), Violation>> {
        Some(parse_expression(expression_text(region, strict)).and_then(|e| {
            check_numbers(inst, &e.used)?;
            Ok((e, ParseRule::Expression))
        }))
    }

    fn objective(inst: &CountdownInstance, e: &Expression) -> Result<i64, Violation> {
        Ok(e.value.distance(inst.target))
    }

    fn canonical(_: &CountdownInstance, e: &Expression) -> Value {
        json!(e.text)
    }

    fn format(_: &CountdownInstance, e: &Expression) -> String {
        e.text.clone()
    }

    fn solve(inst: &CountdownInstance, planted: Option<&Expression>) -> Solved<Expression> {
        if let Some(p) = planted
            && p.value.distance(inst.target) == 0
            && check_numbers(inst, &p.used).is_ok()
        {
            return Solved { solution: p.clone(), kind: ReferenceKind::PlantedOptimal, bound: None };
        }
        let (best, finished) = closest(inst, SEARCH_BUDGET);
        let kind = if finished || best.value.distance(inst.target) == 0 {
            ReferenceKind::Exact
        } else {
            ReferenceKind::Heuristic
        };
        Solved { solution: best, kind, bound: Some(0) }
    }

    fn baseline(inst: &CountdownInstance) -> Expression {
        // The single given number closest to the target.
        let best = inst.numbers.iter().copied().min_by_key(|&x| ((x - inst.target).abs(), x)).unwrap_or(0);
        Expression { value: Ratio::int(best), used: vec![best], text: best.to_string() }
    }
}

fn balanced_outer(text: &str) -> bool {
    // True when the first '(' closes at the very end, so the outer pair can be dropped.
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 != text.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// Every literal must be one of the numbers, each used at most as often as it is given.
fn check_numbers(inst: &CountdownInstance, used: &[i64]) -> Result<(), Violation> {
    let mut left = inst.numbers.clone();
    for &u in used {
        match left.iter().position(|&x| x == u) {
            Some(i) => {
                left.swap_remove(i);
            }
            None if inst.numbers.contains(&u) => {
                return Err(Violation::new(ErrorKind::Duplicate, format!("{u} is used more often than it is given"))
                    .witness(json!({ "value": u })));
            }
            None => {
                return Err(Violation::new(ErrorKind::OutOfRange, format!("{u} is not one of the numbers"))
                    .witness(json!({ "value": u })));
            }
        }
    }
    Ok(())
}

/// Exhaustive search over combining two remaining values at a time (rational intermediate
/// values allowed, as the verifier allows them): the expression closest to the target, and
/// whether the search finished within `budget` nodes. States already seen are skipped.
pub fn closest(inst: &CountdownInstance, budget: u64) -> (Expression, bool) {
    let start: Vec<(Ratio, String)> = inst.numbers.iter().map(|&x| (Ratio::int(x), x.to_string())).collect();
    let mut s = Search {
        target: inst.target,
        best: Countdown::baseline(inst),
        best_distance: i64::MAX,
        seen: HashSet::new(),
        nodes: 0,
        budget,
    };
    s.best_distance = s.best.value.distance(inst.target);
    s.go(&start);
    let finished = s.nodes <= budget;
    (s.best, finished)
}

struct Search {
    target: i64,
    best: Expression,
    best_distance: i64,
    seen: HashSet<Vec<Ratio>>,
    nodes: u64,
    budget: u64,
}

impl Search {
    fn go(&mut self, values: &[(Ratio, String)]) {
        self.nodes += 1;
        if self.nodes > self.budget || self.best_distance == 0 {
            return;
        }
        let mut key: Vec<Ratio> = values.iter().map(|v| v.0).collect();
        key.sort_by(|a, b| (a.num * b.den).cmp(&(b.num * a.den)));
        if !self.seen.insert(key) {
            return;
        }
        for (v, text) in values {
            let d = v.distance(self.target);
            if d < self.best_distance
                && let Ok(e) = parse_expression(text)
            {
                self.best_distance = d;
                self.best = e;
            }
        }
        for i in 0..values.len() {
            for j in 0..values.len() {
                if i == j {
                    continue;
                }
                let (a, b) = (&values[i], &values[j]);
                for op in [b'+', b'-', b'*', b'/'] {
                    // + and * are symmetric: try each unordered pair once.
                    if matches!(op, b'+' | b'*') && i > j {
                        continue;
                    }
                    let Ok(v) = a.0.apply(op, b.0) else { continue };
                    let text = format!("({} {} {})", a.1, op as char, b.1);
                    let mut next: Vec<(Ratio, String)> =
                        values.iter().enumerate().filter(|&(k, _)| k != i && k != j).map(|(_, x)| x.clone()).collect();
                    next.push((v, text));
                    self.go(&next);
                    if self.nodes > self.budget || self.best_distance == 0 {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Testable, check_generated, check_tiny};

    /// Every value of every expression over every ordered selection of distinct positions,
    /// built as all binary trees (independent of the solver's pairwise merging).
    fn all_values(numbers: &[i64]) -> Vec<Ratio> {
        fn trees(items: &[Ratio]) -> Vec<Ratio> {
            if items.len() == 1 {
                return vec![items[0]];
            }
            let mut out = Vec::new();
            for split in 1..items.len() {
                for l in trees(&items[..split]) {
                    for r in trees(&items[split..]) {
                        for op in [b'+', b'-', b'*', b'/'] {
                            if let Ok(v) = l.apply(op, r) {
                                out.push(v);
                            }
                        }
                    }
                }
            }
            out
        }
        fn orders(pool: &[i64], chosen: &mut Vec<Ratio>, out: &mut Vec<Ratio>, used: &mut Vec<bool>) {
            if !chosen.is_empty() {
                out.extend(trees(chosen));
            }
            for i in 0..pool.len() {
                if !used[i] {
                    used[i] = true;
                    chosen.push(Ratio::int(pool[i]));
                    orders(pool, chosen, out, used);
                    chosen.pop();
                    used[i] = false;
                }
            }
        }
        let mut out = Vec::new();
        orders(numbers, &mut Vec::new(), &mut out, &mut vec![false; numbers.len()]);
        out
    }

    impl Testable for Countdown {
        fn tiny(rng: &mut Rng) -> CountdownInstance {
            let n = rng.range_usize(1, 3);
            CountdownInstance { numbers: (0..n).map(|_| rng.range(1, 12)).collect(), target: rng.range(0, 60) }
        }

        fn brute_force(inst: &CountdownInstance) -> i64 {
            all_values(&inst.numbers).into_iter().map(|v| v.distance(inst.target)).min().unwrap_or(i64::MAX)
        }

        fn exact(inst: &CountdownInstance) -> Expression {
            closest(inst, u64::MAX).0
        }

        fn heuristic(inst: &CountdownInstance) -> Expression {
            closest(inst, 50).0
        }

        fn mutations(inst: &CountdownInstance, e: &Expression, _: &mut Rng) -> Vec<(String, ErrorKind)> {
            let absent = (1..).find(|x| !inst.numbers.contains(x)).unwrap_or(0);
            let first = inst.numbers[0];
            let given = inst.numbers.iter().filter(|&&x| x == first).count();
            vec![
                (format!("{} + {absent}", e.text), ErrorKind::OutOfRange),
                (vec![first.to_string(); given + 1].join(" + "), ErrorKind::Duplicate),
                ("__import__('os').system('touch x') or 1".to_owned(), ErrorKind::ParseError),
                ("2.5 * 4".to_owned(), ErrorKind::ParseError),
                (format!("({}", e.text), ErrorKind::ParseError),
                // Evaluation comes first, so division by zero is reported whatever numbers it uses.
                (format!("{first} / ({first} - {first})"), ErrorKind::ConstraintViolation),
            ]
        }
    }

    #[test]
    fn exact_agrees_with_brute_force() {
        check_tiny::<Countdown>(1500, 30);
    }

    #[test]
    fn generated_instances_hold_up() {
        check_generated::<Countdown>(3);
        // The planted expression must evaluate to the target it was drawn for.
        for level in 1..=4 {
            for seed in 0..50 {
                let (inst, planted) = Countdown::generate(level, &mut Rng::for_instance("countdown", level, seed));
                let planted = planted.map(|p| p.value.distance(inst.target));
                assert_eq!(planted, Some(0), "level {level} seed {seed}");
            }
        }
    }

    #[test]
    fn expressions_are_read_exactly_and_safely() {
        let inst = CountdownInstance { numbers: vec![3, 4, 7, 100], target: 25 };
        let ok = |t: &str| crate::task::check::<Countdown>(&inst, t, false).result.map(|(_, d)| d).map_err(|e| e.kind);
        assert_eq!(ok("Answer: 100 / 4"), Ok(0));
        assert_eq!(ok("Answer: (100 / 4) = 25."), Ok(0));
        assert_eq!(ok("Answer: 100 ÷ 4 × 1"), Err(ErrorKind::OutOfRange));
        assert_eq!(ok("Answer: 7 / 3 * 3 + 4 * 4 + 3"), Err(ErrorKind::Duplicate));
        assert_eq!(ok("Answer: 7 / 3 + 4"), Ok(19));
        assert_eq!(ok("Answer: 100 \\times 3"), Ok(275));
        assert_eq!(ok(&format!("Answer: {}3{}", "(".repeat(40), ")".repeat(40))), Err(ErrorKind::TooLarge));
        assert_eq!(ok("Answer: sympy.parse_expr('4')"), Err(ErrorKind::ParseError));
    }
}
