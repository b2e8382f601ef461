//! Cutting a response into steps by a declared rule, each with its place in the response: byte
//! offsets for slicing here, character offsets (Unicode code points, as Python indexes a `str`)
//! for the trainer, and the tokens it covers when the trainer sends its tokens' offsets.

use std::sync::LazyLock;

use referee_core::anatomy::{Anatomy, Reasoning};
use referee_core::utoipa::{self, ToSchema};
use regex::Regex;
use serde::Deserialize;

/// The most steps one response is cut into: a longer solution is scored on its first steps, and
/// its verdict says so.
pub const MAX_STEPS: usize = 256;

/// How a response is cut into steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ProcessSplit)]
pub enum Split {
    /// Step markers at the start of a line: `Step 3:`, `Step 3.`, `**Step 3:**`, `## Step 3`,
    /// `### Step 3 -`. A step runs to the next marker; text before the first marker is not a
    /// step.
    #[default]
    Markers,
    /// Each non-empty line is a step.
    Lines,
    /// Blocks separated by blank lines.
    Paragraphs,
}

impl Split {
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Markers => "markers",
            Split::Lines => "lines",
            Split::Paragraphs => "paragraphs",
        }
    }
}

/// One step of a response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step<'a> {
    /// The step's text, trimmed (for markers, the marker included).
    pub text: &'a str,
    /// Byte offsets of `text` in the response.
    pub bytes: (usize, usize),
    /// Character offsets of `text` in the response.
    pub chars: (usize, usize),
}

/// The steps of a response, and whether there were more than [`MAX_STEPS`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Steps<'a> {
    pub steps: Vec<Step<'a>>,
    pub truncated: bool,
}

static MARKER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?mi)^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?step[ \t]*[0-9]+(?:\*\*|__)?[ \t]*[:.)\-–—]?")
        .unwrap_or_else(|error| unreachable!("a fixed pattern compiles: {error}"))
});

/// Cuts `response` into steps by `split`, in the text `reasoning` says to read.
pub fn split(response: &str, split: Split, reasoning: Reasoning) -> Steps<'_> {
    let anatomy = Anatomy::read_with(response, reasoning);
    let text = anatomy.final_text();
    let base = anatomy.final_start();
    let mut spans: Vec<(usize, usize)> = match split {
        Split::Markers => {
            let starts: Vec<usize> = MARKER.find_iter(text).map(|m| m.start()).collect();
            starts
                .iter()
                .enumerate()
                .map(|(k, &start)| (start, starts.get(k + 1).copied().unwrap_or(text.len())))
                .collect()
        }
        Split::Lines => line_spans(text),
        Split::Paragraphs => paragraph_spans(text),
    };
    let truncated = spans.len() > MAX_STEPS;
    spans.truncate(MAX_STEPS);
    let mut counter = CharCounter::new(response);
    let steps = spans
        .into_iter()
        .filter_map(|(start, end)| {
            let raw = &text[start..end];
            let trimmed = raw.trim();
            if trimmed.is_empty() {
                return None;
            }
            let lead = raw.len() - raw.trim_start().len();
            let from = base + start + lead;
            let to = from + trimmed.len();
            Some(Step { text: trimmed, bytes: (from, to), chars: (counter.at(from), counter.at(to)) })
        })
        .collect();
    Steps { steps, truncated }
}

fn line_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        spans.push((start, start + line.len()));
        start += line.len();
    }
    spans
}

fn paragraph_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let blank = line.trim().is_empty();
        match (blank, start) {
            (false, None) => start = Some(offset),
            (true, Some(from)) => {
                spans.push((from, offset));
                start = None;
            }
            (false, Some(_)) | (true, None) => {}
        }
        offset += line.len();
    }
    if let Some(from) = start {
        spans.push((from, text.len()));
    }
    spans
}

/// Byte offsets to character offsets, for increasing byte offsets, in one pass over the text.
struct CharCounter<'a> {
    text: &'a str,
    byte: usize,
    chars: usize,
}

impl<'a> CharCounter<'a> {
    fn new(text: &'a str) -> Self {
        CharCounter { text, byte: 0, chars: 0 }
    }

    /// The character offset of byte offset `byte` (a char boundary at or after the last one asked).
    fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            return self.text[..byte].chars().count();
        }
        self.chars += self.text[self.byte..byte].chars().count();
        self.byte = byte;
        self.chars
    }
}

/// The tokens a step covers: the half-open range of token indices whose character spans overlap
/// the step's, given the tokens' `(start, end)` character offsets in the response in order.
/// `None` when no token overlaps.
pub fn token_range(step: (usize, usize), tokens: &[[usize; 2]]) -> Option<(usize, usize)> {
    // Tokens are in order: the first whose end is past the step's start, then up to the first
    // whose start is at or past the step's end.
    let first = tokens.partition_point(|t| t[1] <= step.0);
    let last = tokens.partition_point(|t| t[0] < step.1);
    (first < last).then_some((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(steps: &Steps<'a>) -> Vec<&'a str> {
        steps.steps.iter().map(|s| s.text).collect()
    }

    #[test]
    fn markers_start_steps() {
        let response = "Let me solve it.\nStep 1: 2 + 3 = 5.\nStill step one.\n**Step 2:** 5 * 4 = 20\n## Step 3 - answer 20\nstep 4. done";
        let steps = split(response, Split::Markers, Reasoning::Drop);
        assert_eq!(
            texts(&steps),
            vec![
                "Step 1: 2 + 3 = 5.\nStill step one.",
                "**Step 2:** 5 * 4 = 20",
                "## Step 3 - answer 20",
                "step 4. done"
            ]
        );
        for step in &steps.steps {
            assert_eq!(&response[step.bytes.0..step.bytes.1], step.text);
        }
        // A marker in the middle of a line is not a step's start.
        assert_eq!(split("see step 2 above", Split::Markers, Reasoning::Drop).steps.len(), 0);
    }

    #[test]
    fn offsets_count_characters_and_skip_the_reasoning() {
        let response = "<think>\nStep 0: ignored\n</think>Étape:\nStep 1: x = π\nStep 2: y = 2π";
        let steps = split(response, Split::Markers, Reasoning::Drop);
        assert_eq!(texts(&steps), vec!["Step 1: x = π", "Step 2: y = 2π"]);
        let chars: Vec<char> = response.chars().collect();
        for step in &steps.steps {
            let text: String = chars[step.chars.0..step.chars.1].iter().collect();
            assert_eq!(text, step.text);
        }
        let kept = split(response, Split::Markers, Reasoning::Keep);
        assert_eq!(kept.steps.len(), 3, "{kept:?}");
    }

    #[test]
    fn lines_and_paragraphs() {
        let response = "a = 1\n\n  b = 2  \nc = 3\n\n\nd = 4";
        assert_eq!(texts(&split(response, Split::Lines, Reasoning::Drop)), vec!["a = 1", "b = 2", "c = 3", "d = 4"]);
        assert_eq!(
            texts(&split(response, Split::Paragraphs, Reasoning::Drop)),
            vec!["a = 1", "b = 2  \nc = 3", "d = 4"]
        );
        let many: String = (0..MAX_STEPS + 5).map(|i| format!("{i}\n")).collect();
        let cut = split(&many, Split::Lines, Reasoning::Drop);
        assert_eq!((cut.steps.len(), cut.truncated), (MAX_STEPS, true));
    }

    #[test]
    fn a_step_covers_the_tokens_that_overlap_it() {
        // "ab cd ef": tokens "ab", " cd", " ef".
        let tokens = [[0, 2], [2, 5], [5, 8]];
        assert_eq!(token_range((0, 2), &tokens), Some((0, 1)));
        assert_eq!(token_range((3, 5), &tokens), Some((1, 2)));
        assert_eq!(token_range((1, 7), &tokens), Some((0, 3)));
        assert_eq!(token_range((8, 9), &tokens), None);
    }
}
