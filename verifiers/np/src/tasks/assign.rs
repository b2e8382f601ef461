//! Answers that assign each item to a group (bins, machines): a label per item, or the groups
//! as lists of items.

use crate::parse::{Node, index};
use crate::violation::Violation;

/// A group label per item. Accepts `[g0, g1, ...]` (one label per item, labels below
/// `max_groups`), a map `{item: group}`, or `[[items of group 0], [items of group 1], ...]`
/// holding every item exactly once.
pub(crate) fn decode_groups(
    answer: &Node,
    items: usize,
    max_groups: usize,
    item: &str,
) -> Result<Vec<usize>, Violation> {
    if answer.is_nested() {
        let groups = answer.nested()?;
        if groups.len() > max_groups {
            return Err(Violation::out_of_range("group count", groups.len() as i64, max_groups + 1));
        }
        let mut label = vec![usize::MAX; items];
        for (g, members) in groups.iter().enumerate() {
            for &v in members {
                let i = index(v, items, item)?;
                if label[i] != usize::MAX {
                    return Err(Violation::duplicate(item, i));
                }
                label[i] = g;
            }
        }
        if let Some(missing) = label.iter().position(|&l| l == usize::MAX) {
            return Err(Violation::missing(item, missing));
        }
        return Ok(label);
    }
    answer.per_index(items, item)?.into_iter().map(|g| index(g, max_groups, "group")).collect()
}

/// Labels renumbered by first appearance, so equal groupings compare equal.
pub(crate) fn relabel(labels: &[usize]) -> Vec<usize> {
    let mut map = std::collections::HashMap::new();
    labels
        .iter()
        .map(|&c| {
            let next = map.len();
            *map.entry(c).or_insert(next)
        })
        .collect()
}

/// Total size per group label (labels below `groups`).
pub(crate) fn loads(labels: &[usize], sizes: &[i64], groups: usize) -> Vec<i64> {
    let mut load = vec![0; groups];
    for (&g, &s) in labels.iter().zip(sizes) {
        load[g] += s;
    }
    load
}

/// Cuts `total` into `pieces` positive parts at random points (requires `pieces <= total`).
pub(crate) fn random_cut(total: i64, pieces: usize, rng: &mut crate::rng::Rng) -> Vec<i64> {
    let mut cuts = std::collections::BTreeSet::new();
    while cuts.len() + 1 < pieces {
        cuts.insert(rng.range(1, total - 1));
    }
    let mut parts = Vec::with_capacity(pieces);
    let mut prev = 0;
    for c in cuts.into_iter().chain(std::iter::once(total)) {
        parts.push(c - prev);
        prev = c;
    }
    parts
}
