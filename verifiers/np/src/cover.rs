//! Exact and greedy covering over `u128` element sets, shared by set cover and dominating set,
//! and Algorithm X for exact cover.

use crate::graph::bit;

/// Smallest number of `sets` whose union is `universe`, by branch and bound: branch on the
/// uncovered element with the fewest covering sets, prune with a fractional covering bound.
/// Starts from the greedy cover; returns the cover (set indices, ascending) and whether the
/// search finished within `budget` nodes. `None` if no cover exists.
pub fn min_cover(universe: u128, sets: &[u128], budget: u64) -> Option<(Vec<usize>, bool)> {
    let union = sets.iter().fold(0, |a, &s| a | s);
    if union & universe != universe {
        return None;
    }
    let best = greedy_cover(universe, sets);
    let mut s = CoverSearch { universe, sets, current: Vec::new(), best, nodes: 0, budget };
    s.go(0);
    let finished = s.nodes <= budget;
    let mut best = s.best;
    best.sort_unstable();
    Some((best, finished))
}

/// Greedy: repeatedly the set covering most uncovered elements (lowest index on ties), then
/// drop sets made redundant by later ones.
pub fn greedy_cover(universe: u128, sets: &[u128]) -> Vec<usize> {
    let mut covered = 0u128;
    let mut chosen = Vec::new();
    while covered & universe != universe {
        let Some(best) =
            (0..sets.len()).max_by_key(|&i| ((sets[i] & universe & !covered).count_ones(), std::cmp::Reverse(i)))
        else {
            break;
        };
        if sets[best] & universe & !covered == 0 {
            break;
        }
        covered |= sets[best];
        chosen.push(best);
    }
    remove_redundant(universe, sets, &mut chosen);
    chosen.sort_unstable();
    chosen
}

/// Drops chosen sets whose elements the other chosen sets already cover, in reverse order of
/// choice.
pub fn remove_redundant(universe: u128, sets: &[u128], chosen: &mut Vec<usize>) {
    let mut k = chosen.len();
    while k > 0 {
        k -= 1;
        let others = chosen.iter().enumerate().filter(|&(j, _)| j != k).fold(0u128, |a, (_, &i)| a | sets[i]);
        if others & universe == universe {
            chosen.remove(k);
        }
    }
}

struct CoverSearch<'a> {
    universe: u128,
    sets: &'a [u128],
    current: Vec<usize>,
    best: Vec<usize>,
    nodes: u64,
    budget: u64,
}

impl CoverSearch<'_> {
    fn go(&mut self, covered: u128) {
        self.nodes += 1;
        if self.nodes > self.budget {
            return;
        }
        let uncovered = self.universe & !covered;
        if uncovered == 0 {
            if self.current.len() < self.best.len() {
                self.best.clone_from(&self.current);
            }
            return;
        }
        // One pass over the uncovered elements: the one with the fewest covering sets (to branch
        // on) and the fractional bound Σ 1/(largest useful set containing e), which every cover
        // of the rest must reach.
        let mut pick = 0;
        let mut fewest = usize::MAX;
        let mut fractional = 0.0;
        let mut rest = uncovered;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (mut count, mut widest) = (0usize, 0u32);
            for &s in self.sets {
                if s & bit(e) != 0 {
                    count += 1;
                    widest = widest.max((s & uncovered).count_ones());
                }
            }
            if count == 0 {
                return;
            }
            fractional += 1.0 / f64::from(widest);
            if count < fewest {
                fewest = count;
                pick = e;
            }
        }
        let needed = (fractional - 1e-9).ceil() as usize;
        if self.current.len() + needed >= self.best.len() {
            return;
        }
        let mut options: Vec<usize> = (0..self.sets.len()).filter(|&i| self.sets[i] & bit(pick) != 0).collect();
        options.sort_by_key(|&i| std::cmp::Reverse((self.sets[i] & uncovered).count_ones()));
        for i in options {
            self.current.push(i);
            self.go(covered | self.sets[i]);
            self.current.pop();
            if self.nodes > self.budget {
                return;
            }
        }
    }
}

/// Algorithm X: sets that cover `universe` exactly once each, or `None`. Stops after `budget`
/// nodes (then returns `None` as well; the flag says whether the search finished).
pub fn exact_cover(universe: u128, sets: &[u128], budget: u64) -> (Option<Vec<usize>>, bool) {
    let mut nodes = 0;
    let mut chosen = Vec::new();
    let found = algorithm_x(universe, sets, 0, &mut chosen, &mut nodes, budget);
    chosen.sort_unstable();
    (found.then_some(chosen), nodes <= budget)
}

fn algorithm_x(
    universe: u128,
    sets: &[u128],
    covered: u128,
    chosen: &mut Vec<usize>,
    nodes: &mut u64,
    budget: u64,
) -> bool {
    *nodes += 1;
    if *nodes > budget {
        return false;
    }
    let uncovered = universe & !covered;
    if uncovered == 0 {
        return true;
    }
    let usable = |s: u128| s & covered == 0 && s & !universe == 0;
    let mut pick = None;
    let mut rest = uncovered;
    while rest != 0 {
        let e = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let count = sets.iter().filter(|&&s| s & bit(e) != 0 && usable(s)).count();
        if pick.is_none_or(|(_, c)| count < c) {
            pick = Some((e, count));
        }
    }
    let Some((e, count)) = pick else { return false };
    if count == 0 {
        return false;
    }
    for i in 0..sets.len() {
        if sets[i] & bit(e) != 0 && usable(sets[i]) {
            chosen.push(i);
            if algorithm_x(universe, sets, covered | sets[i], chosen, nodes, budget) {
                return true;
            }
            chosen.pop();
        }
    }
    false
}

/// The elements of a set, ascending.
pub fn elements(set: u128) -> Vec<usize> {
    crate::graph::members(set).collect()
}
