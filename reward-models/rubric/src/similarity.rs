//! Text similarity to a reference: BLEU, ROUGE-L and the fuzzy ratio, each in [0, 1].

use std::collections::HashMap;

/// Lower-cased word tokens: runs of alphanumerics, and single other non-space symbols.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            current.extend(c.to_lowercase());
        } else {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn ngram_counts(tokens: &[String], n: usize) -> HashMap<&[String], usize> {
    let mut counts = HashMap::new();
    if tokens.len() >= n {
        for gram in tokens.windows(n) {
            *counts.entry(gram).or_insert(0) += 1;
        }
    }
    counts
}

/// Sentence BLEU-4: the geometric mean of clipped n-gram precisions (n = 1..4; add-one
/// smoothing for n > 1, as Lin and Och's smoothed BLEU) times the brevity penalty.
pub fn bleu(candidate: &str, reference: &str) -> f64 {
    let (c, r) = (words(candidate), words(reference));
    if c.is_empty() || r.is_empty() {
        return if c.is_empty() && r.is_empty() { 1.0 } else { 0.0 };
    }
    let mut log_sum = 0.0;
    for n in 1..=4 {
        let cand = ngram_counts(&c, n);
        let refs = ngram_counts(&r, n);
        let total: usize = cand.values().sum();
        let matched: usize = cand.iter().map(|(gram, count)| (*count).min(refs.get(gram).copied().unwrap_or(0))).sum();
        let (matched, total) =
            if n == 1 { (matched as f64, total as f64) } else { (matched as f64 + 1.0, total as f64 + 1.0) };
        if matched == 0.0 || total == 0.0 {
            return 0.0;
        }
        log_sum += (matched / total).ln() / 4.0;
    }
    let brevity = if c.len() >= r.len() { 1.0 } else { (1.0 - r.len() as f64 / c.len() as f64).exp() };
    (brevity * log_sum.exp()).clamp(0.0, 1.0)
}

/// Most cells of the LCS table computed for one pair (|a|·|b|): beyond it the texts are too
/// long to compare in bounded time.
pub const MAX_LCS_CELLS: usize = 50_000_000;

/// Length of the longest common subsequence, in O(|a|·|b|) time and O(|b|) memory.
fn lcs<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y { diagonal + 1 } else { above.max(row[j]) };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// ROUGE-L F1 over lower-cased words; `None` when the texts are too long (`MAX_LCS_CELLS`).
pub fn rouge_l(candidate: &str, reference: &str) -> Option<f64> {
    let (c, r) = (words(candidate), words(reference));
    if c.is_empty() || r.is_empty() {
        return Some(if c.is_empty() && r.is_empty() { 1.0 } else { 0.0 });
    }
    if c.len().saturating_mul(r.len()) > MAX_LCS_CELLS {
        return None;
    }
    let common = lcs(&c, &r) as f64;
    if common == 0.0 {
        return Some(0.0);
    }
    let (precision, recall) = (common / c.len() as f64, common / r.len() as f64);
    Some(2.0 * precision * recall / (precision + recall))
}

/// Character Indel similarity: 2·LCS / (|a| + |b|), rapidfuzz's `fuzz.ratio` divided by 100;
/// `None` when the texts are too long (`MAX_LCS_CELLS`).
pub fn fuzzy_ratio(candidate: &str, reference: &str) -> Option<f64> {
    let (a, b): (Vec<char>, Vec<char>) = (candidate.chars().collect(), reference.chars().collect());
    if a.is_empty() && b.is_empty() {
        return Some(1.0);
    }
    if a.len().saturating_mul(b.len()) > MAX_LCS_CELLS {
        return None;
    }
    Some(2.0 * lcs(&a, &b) as f64 / (a.len() + b.len()) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn identical_texts_score_one_and_disjoint_zero() {
        let text = "The quick brown fox jumps over the lazy dog.";
        assert!(close(bleu(text, text), 1.0));
        assert_eq!(rouge_l(text, text), Some(1.0));
        assert_eq!(fuzzy_ratio(text, text), Some(1.0));
        assert_eq!(bleu("alpha beta", "gamma delta"), 0.0);
        assert_eq!(rouge_l("alpha beta", "gamma delta"), Some(0.0));
        assert_eq!(fuzzy_ratio("", "abc"), Some(0.0));
        let long = "x".repeat(10_000);
        assert_eq!(fuzzy_ratio(&long, &long), None, "too long to compare in bounded time");
    }

    #[test]
    fn known_values() {
        // rapidfuzz: fuzz.ratio("this is a test", "this is a test!") == 96.55...
        assert!(close(fuzzy_ratio("this is a test", "this is a test!").unwrap_or(0.0), 28.0 / 29.0));
        // LCS of the words is "the cat on the mat" (5 of 6 on each side).
        assert!(close(rouge_l("the cat sat on the mat", "the cat was on the mat").unwrap_or(0.0), 5.0 / 6.0));
        // Every n-gram of the candidate matches (smoothed precisions 3/3, 3/3, 2/2, 1/1); only
        // the brevity penalty exp(1 - 6/3) remains.
        let short = bleu("the cat sat", "the cat sat on the mat");
        assert!(close(short, (-1.0f64).exp()), "{short}");
        // Unigrams 3/4 match; bigrams (1+1)/(3+1); trigrams (0+1)/(2+1); 4-grams (0+1)/(1+1).
        let partial = bleu("the cat ran home", "the cat went home");
        let expected = (0.75f64 * 0.5 * (1.0 / 3.0) * 0.5).powf(0.25);
        assert!(close(partial, expected), "{partial} vs {expected}");
    }
}
