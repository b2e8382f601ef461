//! Reading a response's cited context chunks and its answer, in a declared format, and scoring
//! the citations against the gold chunks with an F-score.
//!
//! Every format reads the final text of the response's [`Anatomy`] (reasoning up to the last
//! `</think>` and whatever follows the end of the turn left out), so a tag the model only
//! considered, or quoted, in its reasoning is never taken.

use std::collections::HashSet;
use std::sync::LazyLock;

use referee_core::Anatomy;
use referee_core::utoipa::{self, ToSchema};
use regex::Regex;
use serde::Deserialize;

/// The most citations read from one response; a response citing more gets no context reward.
pub const MAX_CITATIONS: usize = 4096;

/// How the response cites chunks and states its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = GroundingFormat)]
pub enum Format {
    /// LongRLVR's: one `<useful_chunks>...</useful_chunks>` block holding `<CHUNK_i>` ids and one
    /// `<answer>...</answer>` block, each exactly once in the final text; otherwise the response
    /// is unparseable and scores 0.
    #[default]
    ChunkTags,
    /// Bracketed numbers in the text, as retrieval-augmented answers cite: `[3]`, `[3, 7]`,
    /// `[3][7]`. The answer is the one `<answer>...</answer>` block when there is exactly one,
    /// else the final text; the citations are taken out of the answer.
    Brackets,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::ChunkTags => "chunk_tags",
            Format::Brackets => "brackets",
        }
    }
}

/// What a response cites and answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The cited ids in order, duplicates kept; `None` for an id too large to be any chunk's.
    pub cited: Vec<Option<u64>>,
    /// More than [`MAX_CITATIONS`] ids were cited (only the first are in `cited`).
    pub too_many: bool,
    /// The answer, trimmed.
    pub answer: String,
}

/// Why a response has no reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// A block the format needs appears `count` times instead of once.
    Blocks { tag: &'static str, count: usize },
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Blocks { tag, count } => {
                write!(f, "the final text has {count} <{tag}>...</{tag}> blocks; the format needs exactly one")
            }
        }
    }
}

static USEFUL_CHUNKS: LazyLock<Regex> = LazyLock::new(|| compile(r"(?s)<useful_chunks>(.*?)</useful_chunks>"));
static ANSWER: LazyLock<Regex> = LazyLock::new(|| compile(r"(?s)<answer>(.*?)</answer>"));
static CHUNK_ID: LazyLock<Regex> = LazyLock::new(|| compile(r"<CHUNK_([0-9]+)>"));
/// A bracket holding one number or several separated by commas (and spaces).
static BRACKETS: LazyLock<Regex> = LazyLock::new(|| compile(r"\[\s*[0-9]+(?:\s*,\s*[0-9]+)*\s*\]"));
static NUMBER: LazyLock<Regex> = LazyLock::new(|| compile(r"[0-9]+"));

fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|error| unreachable!("a fixed pattern compiles: {error}"))
}

/// Reads `response` in `format`.
pub fn read(response: &str, format: Format) -> Result<Reading, Unreadable> {
    let anatomy = Anatomy::read(response);
    let text = anatomy.final_text();
    match format {
        Format::ChunkTags => {
            let block = exactly_one(&USEFUL_CHUNKS, text, "useful_chunks")?;
            let answer = exactly_one(&ANSWER, text, "answer")?;
            let (cited, too_many) = ids(CHUNK_ID.captures_iter(block).filter_map(|c| c.get(1)).map(|m| m.as_str()));
            Ok(Reading { cited, too_many, answer: answer.trim().to_owned() })
        }
        Format::Brackets => {
            let (cited, too_many) =
                ids(BRACKETS.find_iter(text).flat_map(|m| NUMBER.find_iter(m.as_str())).map(|m| m.as_str()));
            let region = match ANSWER.captures_iter(text).count() {
                1 => ANSWER.captures(text).and_then(|c| c.get(1)).map_or(text, |m| m.as_str()),
                _ => text,
            };
            let answer = BRACKETS.replace_all(region, "");
            Ok(Reading { cited, too_many, answer: tidy(&answer) })
        }
    }
}

/// The one match of `pattern`'s first group in `text`.
fn exactly_one<'t>(pattern: &Regex, text: &'t str, tag: &'static str) -> Result<&'t str, Unreadable> {
    let mut found = pattern.captures_iter(text);
    match (found.next(), found.next()) {
        (Some(one), None) => Ok(one.get(1).map_or("", |m| m.as_str())),
        (None, _) => Err(Unreadable::Blocks { tag, count: 0 }),
        (Some(_), Some(_)) => Err(Unreadable::Blocks { tag, count: 2 + found.count() }),
    }
}

/// The ids of `digits`, at most [`MAX_CITATIONS`], and whether there were more.
fn ids<'t>(digits: impl Iterator<Item = &'t str>) -> (Vec<Option<u64>>, bool) {
    let mut cited = Vec::new();
    for number in digits {
        if cited.len() == MAX_CITATIONS {
            return (cited, true);
        }
        cited.push(number.parse::<u64>().ok());
    }
    (cited, false)
}

/// The answer with the space a removed citation left collapsed: `Paris [3].` reads `Paris.`.
fn tidy(answer: &str) -> String {
    let mut out = String::with_capacity(answer.len());
    for line in answer.trim().lines() {
        if !out.is_empty() {
            out.push('\n');
        }
        let words = line.split_whitespace().collect::<Vec<_>>().join(" ");
        out.push_str(&words.replace(" .", ".").replace(" ,", ","));
    }
    out
}

/// The citations scored against the gold chunks.
#[derive(Debug, Clone, PartialEq)]
pub struct Citations {
    /// Ids cited, duplicates counted.
    pub cited: usize,
    /// Distinct ids cited.
    pub distinct: usize,
    /// Citations of an id already cited.
    pub duplicates: usize,
    /// Distinct cited ids outside the context (`>= context_chunks`, or too large to read).
    pub outside: usize,
    /// Distinct cited ids among the gold ones.
    pub matched: usize,
    /// `matched / cited` (duplicates lower it), 0 with no citation.
    pub precision: f64,
    /// `matched / |gold|`.
    pub recall: f64,
    /// `(1 + β²)·P·R / (β²·P + R)`, 0 when `P + R = 0`.
    pub f_beta: f64,
}

/// Scores `cited` against `gold` (distinct, not empty) as LongRLVR does: precision over every
/// citation (a repeated id is a citation that adds nothing), recall over the distinct gold ids,
/// and their F-score with recall weighted `beta` times as much as precision.
pub fn score_citations(
    cited: &[Option<u64>],
    gold: &HashSet<u64>,
    context_chunks: Option<u64>,
    beta: f64,
) -> Citations {
    let mut seen = HashSet::with_capacity(cited.len());
    let mut unreadable = 0;
    let mut duplicates = 0;
    for id in cited {
        match id {
            Some(id) => {
                if !seen.insert(*id) {
                    duplicates += 1;
                }
            }
            None => unreadable += 1,
        }
    }
    let matched = seen.iter().filter(|id| gold.contains(id)).count();
    let outside = unreadable + context_chunks.map_or(0, |n| seen.iter().filter(|&&id| id >= n).count());
    let precision = if cited.is_empty() { 0.0 } else { matched as f64 / cited.len() as f64 };
    let recall = if gold.is_empty() { 0.0 } else { matched as f64 / gold.len() as f64 };
    let b2 = beta * beta;
    let denominator = b2 * precision + recall;
    let f_beta = if precision + recall == 0.0 || denominator == 0.0 {
        0.0
    } else {
        (1.0 + b2) * precision * recall / denominator
    };
    Citations {
        cited: cited.len(),
        distinct: seen.len() + unreadable,
        duplicates,
        outside,
        matched,
        precision,
        recall,
        f_beta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gold(ids: &[u64]) -> HashSet<u64> {
        ids.iter().copied().collect()
    }

    #[test]
    fn longrlvr_blocks_are_read_once_each() {
        let response = "<think>maybe <CHUNK_9></think>\n<useful_chunks>\n<CHUNK_0> <CHUNK_38>, <CHUNK_0>\n</useful_chunks>\n<answer>\nNormandy is in France.\n</answer>";
        let reading = read(response, Format::ChunkTags).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reading.cited, vec![Some(0), Some(38), Some(0)]);
        assert_eq!(reading.answer, "Normandy is in France.");
        assert!(!reading.too_many);
        let twice = "<useful_chunks><CHUNK_1></useful_chunks><answer>a</answer><answer>b</answer>";
        assert_eq!(read(twice, Format::ChunkTags), Err(Unreadable::Blocks { tag: "answer", count: 2 }));
        assert_eq!(
            read("<answer>a</answer>", Format::ChunkTags),
            Err(Unreadable::Blocks { tag: "useful_chunks", count: 0 })
        );
        // Other spellings are not ids, as in LongRLVR's pattern.
        let other = read(
            "<useful_chunks><CHUNK 3> <chunk_4> [5] <CHUNK_x></useful_chunks><answer></answer>",
            Format::ChunkTags,
        );
        assert_eq!(other.map(|r| (r.cited, r.answer)), Ok((vec![], String::new())));
    }

    #[test]
    fn brackets_are_citations_and_leave_the_answer() {
        let reading = read("<think>[99]</think>The capital is Paris [3][7], on the Seine [3, 12].", Format::Brackets)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reading.cited, vec![Some(3), Some(7), Some(3), Some(12)]);
        assert_eq!(reading.answer, "The capital is Paris, on the Seine.");
        let tagged =
            read("Sources [1] [2]\n<answer>Paris [2]</answer>", Format::Brackets).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((tagged.cited.len(), tagged.answer.as_str()), (3, "Paris"));
        let huge = read("[99999999999999999999999]", Format::Brackets).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(huge.cited, vec![None]);
    }

    #[test]
    fn thousands_of_ids_stop_at_the_cap() {
        let block: String = (0..MAX_CITATIONS + 10).map(|i| format!("<CHUNK_{i}>")).collect();
        let response = format!("<useful_chunks>{block}</useful_chunks><answer>x</answer>");
        let reading = read(&response, Format::ChunkTags).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reading.cited.len(), MAX_CITATIONS);
        assert!(reading.too_many);
    }

    #[test]
    fn the_f_score_is_longrlvrs() {
        // LongRLVR: fbeta = 5PR / (4P + R).
        let c = score_citations(&[Some(1), Some(2), Some(9)], &gold(&[1, 2, 3, 4]), None, 2.0);
        let (p, r) = (2.0 / 3.0, 0.5);
        assert_eq!((c.matched, c.cited, c.distinct), (2, 3, 3));
        assert!((c.f_beta - 5.0 * p * r / (4.0 * p + r)).abs() < 1e-12, "{c:?}");
        // Duplicates lower precision and add nothing to recall.
        let d = score_citations(&[Some(1), Some(1), Some(1), Some(1)], &gold(&[1, 2]), None, 2.0);
        assert_eq!((d.duplicates, d.precision, d.recall), (3, 0.25, 0.5));
        // Ids outside the context are wrong citations, reported.
        let o = score_citations(&[Some(1), Some(500), None], &gold(&[1]), Some(100), 2.0);
        assert_eq!((o.outside, o.matched), (2, 1));
        assert!((o.precision - 1.0 / 3.0).abs() < 1e-12);
        // No citation: 0.
        assert_eq!(score_citations(&[], &gold(&[1]), None, 2.0).f_beta, 0.0);
        // Citing every chunk cannot buy much: 5 gold among 500 cited.
        let all: Vec<Option<u64>> = (0..500).map(Some).collect();
        assert!(score_citations(&all, &gold(&[0, 1, 2, 3, 4]), Some(500), 2.0).f_beta < 0.05);
    }
}
