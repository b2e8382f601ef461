//! One response against one reference: extraction, parsing, comparison, verdict.

use num_traits::Signed;
use referee_core::{Budget, Status, Verdict};

use crate::ast::{ListKind, Node};
use crate::compare::{Ctx, Sides, equivalent};
use crate::extract::{Candidate, Extraction, Side, extract_with};
use crate::letters;
use crate::limits::MAX_INPUT_BYTES;
use crate::options::{ExtractionMode, MathOptions, UnitPolicy};
use crate::parser::{parse, stated_units};
use crate::work;

/// The outcome of judging one pair, before it becomes a [`Verdict`].
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// The verdict status.
    pub status: Status,
    /// The rule that decided (`normal_form`, `numeric`, `interval`, ...).
    pub rule: Option<&'static str>,
    /// Why the answer was not credited.
    pub reason: Option<String>,
    /// The answer text extracted from the response.
    pub extracted: Option<String>,
    /// How it was extracted (`boxed`, `answer_phrase`, `last_number`...).
    pub extraction: Option<&'static str>,
    /// The parsed answer, as plain text.
    pub parsed: Option<String>,
    /// The reference answer as extracted and parsed.
    pub reference_parsed: Option<String>,
}

impl Judgement {
    fn new(status: Status) -> Self {
        Judgement {
            status,
            rule: None,
            reason: None,
            extracted: None,
            extraction: None,
            parsed: None,
            reference_parsed: None,
        }
    }

    fn reject(mut self, status: Status, reason: impl Into<String>) -> Self {
        self.status = status;
        self.reason = Some(reason.into());
        self
    }

    /// True when the answer was credited.
    pub fn is_correct(&self) -> bool {
        self.status == Status::Correct
    }

    /// The verdict with the judgement's details.
    pub fn into_verdict(self) -> Verdict {
        let mut v = match self.status {
            Status::Correct => Verdict::correct(),
            Status::Incorrect => Verdict::incorrect(),
            Status::Timeout => Verdict::timeout(),
            other => Verdict::new(0.0, other),
        };
        if let Some(r) = self.reason {
            if self.status.is_judgement() && matches!(self.status, Status::Incorrect | Status::Correct) {
                v = v.with("reason", r);
            } else {
                v = v.with("error", r);
            }
        }
        for (key, value) in [
            ("rule", self.rule.map(str::to_owned)),
            ("extracted", self.extracted),
            ("extraction", self.extraction.map(str::to_owned)),
            ("parsed", self.parsed),
            ("reference_parsed", self.reference_parsed),
        ] {
            if let Some(value) = value {
                v = v.with(key, value);
            }
        }
        v
    }
}

/// Whitespace- and markup-insensitive text, for answers no rule could parse.
fn loose_text(s: &str) -> String {
    let s = crate::extract::strip_delimiters(s);
    let mut s =
        s.replace("\\left", "").replace("\\right", "").replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac");
    for spacing in ["\\!", "\\,", "\\;", "\\:", "\\ "] {
        s = s.replace(spacing, "");
    }
    s.chars().filter(|c| !c.is_whitespace()).collect::<String>().trim_end_matches('.').to_owned()
}

fn first_parse(candidates: &[Candidate]) -> Option<(Candidate, Node)> {
    for c in candidates {
        if c.text.trim().is_empty() {
            continue;
        }
        match parse(&c.text, c.plain) {
            Ok(Node::Text(_)) if !c.allow_text => continue,
            Ok(node) => return Some((c.clone(), node)),
            Err(_) => continue,
        }
    }
    None
}

/// Parses the cheap candidates first and runs the fallback scanners only when none parses.
fn parse_staged(candidates: impl Fn(bool) -> Vec<Candidate>) -> (Vec<Candidate>, Option<(Candidate, Node)>) {
    let primary = candidates(false);
    if let Some(found) = first_parse(&primary) {
        return (primary, Some(found));
    }
    let all = candidates(true);
    let found = first_parse(&all);
    (all, found)
}

/// Why a judgement stopped at its deadline.
const TIMEOUT_REASON: &str = "the item's time budget ran out";

/// Judges `response` against `reference`.
///
/// The work is counted ([`crate::work`]) and stops soon after the budget's deadline: the
/// judgement is then `timeout`, with whatever was extracted so far.
pub fn judge(response: &str, reference: &str, opts: &MathOptions, budget: &Budget) -> Judgement {
    if response.len() > MAX_INPUT_BYTES || reference.len() > MAX_INPUT_BYTES {
        return Judgement::new(Status::ResourceLimit)
            .reject(Status::ResourceLimit, format!("input longer than {MAX_INPUT_BYTES} bytes"));
    }
    if budget.expired() {
        return Judgement::new(Status::Timeout);
    }
    judge_metered(response, reference, opts, budget)
}

/// [`judge`] with its work counted and stopped at the budget's deadline.
pub(crate) fn judge_metered(response: &str, reference: &str, opts: &MathOptions, budget: &Budget) -> Judgement {
    work::within(budget.deadline, || {
        let j = judge_within(response, reference, opts, budget);
        // A stage that stopped at the deadline may have looked like a failure to parse or an
        // inequivalence: the deadline decides. Stopping never credits an answer.
        if work::cut_short() && j.status != Status::Correct {
            return j.reject(Status::Timeout, TIMEOUT_REASON);
        }
        j
    })
}

fn judge_within(response: &str, reference: &str, opts: &MathOptions, budget: &Budget) -> Judgement {
    if let Some(letter) = letters::reference_letter(reference) {
        return judge_letter(response, letter);
    }
    let mut j = Judgement::new(Status::Incorrect);
    let gold_side = |fallbacks| match extract_with(reference, ExtractionMode::Auto, true, Side::Reference, fallbacks) {
        Extraction::Candidates(c) => c,
        Extraction::Hedged(items) => {
            vec![Candidate { text: items.join("; "), rule: "boxed_list", plain: false, allow_text: true }]
        }
    };
    let (gold_candidates, gold) = parse_staged(gold_side);
    let pred_side =
        |fallbacks| extract_with(response, opts.extraction, opts.allow_multiple_boxed, Side::Response, fallbacks);
    let pred_candidates = match pred_side(false) {
        Extraction::Hedged(items) => {
            j.extracted = Some(items.join("; "));
            j.extraction = Some("boxed_list");
            j.reference_parsed = gold.as_ref().map(|(_, n)| n.to_string());
            return judge_boxes(j, &items, gold.as_ref().map(|(_, n)| n), opts, budget);
        }
        Extraction::Candidates(c) => c,
    };
    let (pred_candidates, pred) = parse_staged(|fallbacks| {
        if fallbacks {
            match pred_side(true) {
                Extraction::Candidates(c) => c,
                Extraction::Hedged(_) => Vec::new(),
            }
        } else {
            pred_candidates.clone()
        }
    });
    let Some(first_pred) = pred_candidates.first() else {
        return j.reject(Status::Unparseable, "no answer found in the response");
    };
    let gold_text = gold.as_ref().map(|(c, _)| c.text.as_str()).or(gold_candidates.first().map(|c| c.text.as_str()));
    j.extracted = Some(pred.as_ref().map_or(first_pred.text.clone(), |(c, _)| c.text.clone()));
    j.extraction = Some(pred.as_ref().map_or(first_pred.rule, |(c, _)| c.rule));
    j.parsed = pred.as_ref().map(|(_, n)| n.to_string());
    j.reference_parsed = gold.as_ref().map(|(_, n)| n.to_string());
    let pred_text = j.extracted.clone().unwrap_or_default();
    let same =
        |a: &str, b: &str| a.len().abs_diff(b.len()) <= a.len().max(b.len()) / 2 + 16 && loose_text(a) == loose_text(b);
    let same_text = gold_text.is_some_and(|g| same(g, &pred_text))
        || gold_candidates.first().is_some_and(|g| same(&g.text, &first_pred.text));
    if same_text {
        j.status = Status::Correct;
        j.rule = Some("same_text");
        return j;
    }
    // A text reference (`\text{No}`, or plain words nothing parses) is compared as words,
    // case- and whitespace-insensitively, rather than refused.
    let gold_words = match &gold {
        Some((c, Node::Text(_))) => words(&c.text),
        None => gold_text.and_then(words),
        Some(_) => None,
    };
    if let Some(expected) = gold_words {
        if words(&pred_text).is_some_and(|w| w == expected) {
            j.status = Status::Correct;
            j.rule = Some("text");
            return j;
        }
        if gold.is_none() {
            return j.reject(Status::Incorrect, "the answer's words differ from the reference's");
        }
    }
    let Some((gold_cand, gold_node)) = gold else {
        // A reference nothing can read says nothing about the response: the trainer should
        // mask the item rather than learn from a zero.
        return j.reject(Status::InvalidInput, "the reference could not be parsed (and the texts differ)");
    };
    let Some((pred_cand, mut pred_node)) = pred else {
        return j.reject(Status::Unparseable, "the extracted answer could not be parsed");
    };
    if let Some(mixed) = mixed_number_in_words(&pred_cand.text, &pred_node, &gold_node) {
        j.parsed = Some(mixed.to_string());
        pred_node = mixed;
    }
    let ctx = Ctx {
        opts,
        deadline: budget.deadline,
        timed_out: std::cell::Cell::new(false),
        radians_stated: Sides { gold: states_radians(&gold_cand.text), pred: states_radians(&pred_cand.text) },
    };
    match equivalent(&gold_node, &pred_node, &ctx) {
        Some(rule) => {
            if let Some(reason) = units_mismatch(&gold_cand, &pred_cand, opts) {
                return j.reject(Status::Incorrect, reason);
            }
            j.status = Status::Correct;
            j.rule = Some(rule);
            j
        }
        None if ctx.timed_out.get() => j.reject(Status::Timeout, TIMEOUT_REASON),
        None if pred_cand.rule == "boxed_list" => match &pred_node {
            Node::List(items, _) if items.len() > 1 => {
                let restated = items.iter().all(|item| equivalent(&gold_node, item, &ctx).is_some());
                if restated {
                    j.status = Status::Correct;
                    j.rule = Some("boxes_restated");
                    j
                } else if ctx.timed_out.get() {
                    j.reject(Status::Timeout, TIMEOUT_REASON)
                } else {
                    j.rule = Some("hedged");
                    j.reject(Status::Incorrect, HEDGE_REASON)
                }
            }
            _ => j.reject(Status::Incorrect, "the answer is not equivalent to the reference"),
        },
        None => j.reject(Status::Incorrect, "the answer is not equivalent to the reference"),
    }
}

/// `137 and 1/2` answering a single value is the mixed number 137½, as a reader takes it;
/// against a reference that is a list or a set it stays two answers.
fn mixed_number_in_words(text: &str, pred: &Node, gold: &Node) -> Option<Node> {
    let Node::List(items, ListKind::Alternatives) = pred else { return None };
    let [whole, fraction] = items.as_slice() else { return None };
    let structured = matches!(
        gold,
        Node::List(..) | Node::Set(_) | Node::Tuple(_) | Node::Interval { .. } | Node::Union(_) | Node::Matrix(_)
    );
    let lower = text.to_lowercase();
    let joined_by_and = lower.matches(" and ").count() == 1 && !lower.contains(" or ");
    let whole_number =
        |n: &Node| matches!(n, Node::Num { value, decimals: None, .. } if value.is_integer() && !value.is_negative());
    let proper = match fraction {
        Node::Div(n, d) => match (n.as_ref(), d.as_ref()) {
            (Node::Num { value: a, decimals: None, .. }, Node::Num { value: b, decimals: None, .. }) => {
                whole_number(n) && whole_number(d) && a.is_positive() && a < b
            }
            _ => false,
        },
        _ => false,
    };
    (!structured && joined_by_and && whole_number(whole) && proper)
        .then(|| Node::Add(vec![whole.clone(), fraction.clone()]))
}

/// Why several boxed answers scored 0.
const HEDGE_REASON: &str =
    "several boxed answers that neither form the reference's list nor all restate one answer (hedging)";

/// Several different boxes while the list reading is off (`allow_multiple_boxed: false`):
/// credited only when every box on its own is equivalent to the reference, the same answer
/// restated (`\boxed{15\frac{39}{40}}` and `\boxed{\frac{639}{40}}`).
fn judge_boxes(
    mut j: Judgement,
    items: &[String],
    gold: Option<&Node>,
    opts: &MathOptions,
    budget: &Budget,
) -> Judgement {
    let Some(gold) = gold else {
        return j.reject(Status::InvalidInput, "the reference could not be parsed");
    };
    let ctx = Ctx {
        opts,
        deadline: budget.deadline,
        timed_out: std::cell::Cell::new(false),
        radians_stated: Sides { gold: false, pred: false },
    };
    let restated = items.iter().all(|item| {
        parse(item, false)
            .or_else(|_| parse(item, true))
            .is_ok_and(|node| !matches!(node, Node::Text(_)) && equivalent(gold, &node, &ctx).is_some())
    });
    if ctx.timed_out.get() {
        return j.reject(Status::Timeout, TIMEOUT_REASON);
    }
    if restated {
        j.status = Status::Correct;
        j.rule = Some("boxes_restated");
        return j;
    }
    j.rule = Some("hedged");
    j.reject(Status::Incorrect, HEDGE_REASON)
}

/// The answer's words, lower case and single-spaced, when it is made of words only (markup
/// such as `\text{}` removed); `None` when it holds digits or mathematics.
fn words(s: &str) -> Option<String> {
    let mut t = crate::extract::strip_delimiters(s);
    for command in ["\\textbf", "\\textit", "\\textrm", "\\text", "\\mathrm", "\\mbox", "\\emph", "\\boxed"] {
        t = t.replace(command, " ");
    }
    for spacing in ["\\!", "\\,", "\\;", "\\:", "\\ ", "~"] {
        t = t.replace(spacing, " ");
    }
    let t = t.replace(['{', '}'], " ");
    if !t.chars().all(|c| c.is_alphabetic() || c.is_whitespace() || matches!(c, '.' | ',' | '!' | '?' | '\'' | '-')) {
        return None;
    }
    let words: Vec<String> = t
        .split(|c: char| c.is_whitespace() || matches!(c, '.' | ',' | '!' | '?'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    // One letter is a variable or an option, not a word.
    let wordy = words.iter().any(|w| w.chars().count() >= 2);
    (wordy && !words.is_empty()).then(|| words.join(" "))
}

/// True when an answer states radians in words (`\frac{\pi}{3}\text{ rad}`, `2 radians`).
fn states_radians(text: &str) -> bool {
    text.to_lowercase()
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| matches!(w, "rad" | "rads" | "radian" | "radians"))
}

/// With `units: require`, why the response's units differ from the reference's; `None`
/// when they agree or the reference states none.
fn units_mismatch(gold: &Candidate, pred: &Candidate, opts: &MathOptions) -> Option<String> {
    if opts.units != UnitPolicy::Require {
        return None;
    }
    let mut expected = stated_units(&gold.text, gold.plain);
    if expected.is_empty() {
        return None;
    }
    let mut given = stated_units(&pred.text, pred.plain);
    expected.sort();
    expected.dedup();
    given.sort();
    given.dedup();
    (expected != given).then(|| {
        format!(
            "units required: the reference states {}, the answer {}",
            expected.join(", "),
            if given.is_empty() { "none".to_owned() } else { given.join(", ") }
        )
    })
}

fn judge_letter(response: &str, letter: char) -> Judgement {
    let mut j = Judgement::new(Status::Incorrect);
    j.reference_parsed = Some(letter.to_string());
    match letters::response_letter(response, letter) {
        None => j.reject(Status::Unparseable, "no option letter found in the response"),
        Some((chosen, how)) => {
            j.extracted = Some(chosen.to_string());
            j.parsed = Some(chosen.to_string());
            j.extraction = Some(how);
            if chosen == letter {
                j.status = Status::Correct;
                j.rule = Some("option_letter");
                j
            } else {
                j.reject(Status::Incorrect, format!("chose option {chosen}, the reference is {letter}"))
            }
        }
    }
}
