//! The statistics of a run, from its recorded items: per step and verifier, the reward
//! distribution, the status mix and latency; per group, pass@k; over a range of steps, the mean
//! and the interquartile mean with percentile-bootstrap 95% intervals (Agarwal et al., "Deep
//! Reinforcement Learning at the Edge of the Statistical Precipice", NeurIPS 2021, the `rliable`
//! library). Pure functions over rows; the handlers read the rows.

use std::collections::{BTreeMap, HashMap};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use referee_core::Status;
use serde::Serialize;
use utoipa::ToSchema;

/// One recorded item, as the statistics read it.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemRow {
    pub step: i64,
    pub prompt_id: Option<String>,
    pub group: Option<String>,
    pub verifier: String,
    pub score: f64,
    pub status: Status,
    pub latency_us: i64,
}

/// Whether an item is an attempt of the policy: every verdict on the response, including
/// `timeout` and `resource_limit` (the reward the trainer got was the failure's), but not
/// `invalid_input` or `internal_error`, which say nothing about the response.
pub fn is_attempt(status: Status) -> bool {
    match status {
        Status::Correct
        | Status::Partial
        | Status::Incorrect
        | Status::Unparseable
        | Status::Timeout
        | Status::ResourceLimit => true,
        Status::InvalidInput | Status::InternalError => false,
    }
}

/// Whether an attempt succeeded: its verdict is `correct`.
pub fn is_success(status: Status) -> bool {
    status == Status::Correct
}

/// The quantile `q` of sorted `values` by linear interpolation between order statistics
/// (Hyndman and Fan's type 7, numpy's default); `None` when empty.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    let last = sorted.len().checked_sub(1)?;
    let position = q.clamp(0.0, 1.0) * last as f64;
    let below = position.floor() as usize;
    let above = (below + 1).min(last);
    let fraction = position - below as f64;
    Some(sorted[below] + (sorted[above] - sorted[below]) * fraction)
}

/// The interquartile mean: the mean of what is left after cutting `floor(n/4)` values from each
/// end of the sorted values (`scipy.stats.trim_mean(x, 0.25)`, which `rliable` uses).
pub fn interquartile_mean(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let n = values.len();
    let cut = n / 4;
    // Selection instead of a sort: the bootstrap calls this thousands of times.
    if cut > 0 {
        values.select_nth_unstable_by(cut - 1, f64::total_cmp);
        let upper = &mut values[cut..];
        let keep = n - 2 * cut;
        upper.select_nth_unstable_by(keep - 1, f64::total_cmp);
    }
    let middle = &values[cut..n - cut];
    Some(middle.iter().sum::<f64>() / middle.len() as f64)
}

/// The unbiased pass@k of a group of `n` attempts with `c` successes (Chen et al., "Evaluating
/// Large Language Models Trained on Code", 2021): `1 - C(n-c, k) / C(n, k)`, computed as a
/// product to stay exact in floating point. `None` when `k` is 0 or larger than `n`.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    let fail = ((n - c + 1)..=n).fold(1.0_f64, |product, i| product * (1.0 - k as f64 / i as f64));
    Some(1.0 - fail)
}

/// A point estimate with its percentile-bootstrap 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct BootstrapInterval {
    pub estimate: f64,
    /// The 2.5th percentile of the bootstrap distribution.
    pub lower: f64,
    /// The 97.5th percentile of the bootstrap distribution.
    pub upper: f64,
}

/// The bootstrap distributions of the mean and the IQM of `values` over `resamples` resamples
/// with replacement, seeded so the same data gives the same interval.
pub fn bootstrap(values: &[f64], resamples: usize, seed: u64) -> Option<(BootstrapInterval, BootstrapInterval)> {
    if values.is_empty() {
        return None;
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let iqm = interquartile_mean(&mut values.to_vec())?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut means = Vec::with_capacity(resamples);
    let mut iqms = Vec::with_capacity(resamples);
    let mut sample = vec![0.0; values.len()];
    for _ in 0..resamples {
        for slot in &mut sample {
            *slot = values[rng.random_range(0..values.len())];
        }
        means.push(sample.iter().sum::<f64>() / sample.len() as f64);
        iqms.extend(interquartile_mean(&mut sample));
    }
    Some((BootstrapInterval::percentile(mean, means), BootstrapInterval::percentile(iqm, iqms)))
}

impl BootstrapInterval {
    /// `estimate` with the 2.5th and 97.5th percentiles of its bootstrap `distribution`.
    fn percentile(estimate: f64, mut distribution: Vec<f64>) -> BootstrapInterval {
        distribution.sort_unstable_by(f64::total_cmp);
        BootstrapInterval {
            estimate,
            lower: quantile(&distribution, 0.025).unwrap_or(estimate),
            upper: quantile(&distribution, 0.975).unwrap_or(estimate),
        }
    }
}

/// The resamples a bootstrap of `units` values gets: `wanted`, fewer for large inputs so one
/// request stays within about 20 million draws, never fewer than 200.
pub fn resamples_for(units: usize, wanted: usize) -> usize {
    if units == 0 {
        return 0;
    }
    wanted.min((20_000_000 / units).max(200))
}

/// Five quantiles of a distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct ScoreQuantiles {
    pub p05: f64,
    pub p25: f64,
    pub p50: f64,
    pub p75: f64,
    pub p95: f64,
}

impl ScoreQuantiles {
    fn of(sorted: &[f64]) -> Option<ScoreQuantiles> {
        Some(ScoreQuantiles {
            p05: quantile(sorted, 0.05)?,
            p25: quantile(sorted, 0.25)?,
            p50: quantile(sorted, 0.50)?,
            p75: quantile(sorted, 0.75)?,
            p95: quantile(sorted, 0.95)?,
        })
    }
}

/// Counts of values in equal-width bins: `edges` has one more entry than `counts`; a bin holds
/// values from its lower edge up to, not including, its upper edge, and the last also holds its
/// upper edge.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ScoreHistogram {
    pub edges: Vec<f64>,
    pub counts: Vec<u64>,
}

/// Bins of a histogram.
pub const HISTOGRAM_BINS: usize = 10;

impl ScoreHistogram {
    /// Bins over [0, 1] when every value is in it (rewards usually are), otherwise over the
    /// values' range.
    fn of(sorted: &[f64]) -> ScoreHistogram {
        let (min, max) = match (sorted.first(), sorted.last()) {
            (Some(&min), Some(&max)) if min < 0.0 || max > 1.0 => (min, max),
            _ => (0.0, 1.0),
        };
        let width = (max - min) / HISTOGRAM_BINS as f64;
        let edges = (0..=HISTOGRAM_BINS).map(|i| min + width * i as f64).collect();
        let mut counts = vec![0; HISTOGRAM_BINS];
        for &value in sorted {
            let bin = if width > 0.0 { ((value - min) / width).floor() as usize } else { 0 };
            counts[bin.min(HISTOGRAM_BINS - 1)] += 1;
        }
        ScoreHistogram { edges, counts }
    }
}

/// LatencyStats of a set of items, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct LatencyStats {
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
}

/// The rates of the statuses that signal a broken verifier (`internal_error`, `timeout`) or a
/// collapsed output format (`unparseable`), as fractions of the items.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct AlarmRates {
    pub internal_error: f64,
    pub timeout: f64,
    pub unparseable: f64,
}

/// One verifier's items at one step.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct VerifierStep {
    pub verifier: String,
    /// Items scored.
    pub count: u64,
    /// Mean score of every item.
    pub mean: f64,
    /// Population standard deviation of the scores.
    pub std: f64,
    pub min: f64,
    pub max: f64,
    pub quantiles: ScoreQuantiles,
    pub histogram: ScoreHistogram,
    /// Items by status.
    #[schema(value_type = Object)]
    pub statuses: BTreeMap<&'static str, u64>,
    pub rates: AlarmRates,
    /// Successes (`correct`) over attempts (every status but `invalid_input` and
    /// `internal_error`); absent without attempts.
    pub pass_rate: Option<f64>,
    pub latency: LatencyStats,
}

/// pass@k over the groups with at least `k` attempts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct PassAtK {
    pub k: u64,
    /// Mean of the groups' unbiased pass@k.
    pub value: f64,
    /// Groups with at least `k` attempts.
    pub groups: u64,
}

/// mean@k: the mean score of groups of `k` attempts, averaged over those groups.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct MeanAtK {
    pub k: u64,
    pub value: f64,
    pub groups: u64,
}

/// The groups of one step: the attempts of items that share a `group` (or, without one, a
/// `prompt_id`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct GroupStats {
    pub groups: u64,
    /// Groups whose attempts all succeeded: they carry no learning signal in GRPO-style
    /// advantages (DAPO's dynamic sampling drops them).
    pub all_correct: u64,
    /// Groups whose attempts all failed.
    pub all_wrong: u64,
    /// pass@k for k = 1, 2, 4, ... up to the largest group.
    pub pass_at_k: Vec<PassAtK>,
    /// mean@k for each group size k present.
    pub mean_at_k: Vec<MeanAtK>,
}

/// One step of a run.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StepStats {
    pub step: i64,
    pub items: u64,
    pub verifiers: Vec<VerifierStep>,
    /// Absent when no item of the step has a `group` or a `prompt_id`.
    pub groups: Option<GroupStats>,
}

/// One verifier over a range of steps, with intervals.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct VerifierSummary {
    pub verifier: String,
    pub items: u64,
    /// What one bootstrap unit is: `prompt` (the mean score of a prompt's items, when every
    /// item has a `prompt_id`) or `item`.
    pub unit: &'static str,
    pub units: u64,
    /// Mean of the units' scores.
    pub mean: BootstrapInterval,
    /// Interquartile mean of the units' scores.
    pub iqm: BootstrapInterval,
    /// Successes over attempts, with an interval from the same resamples of units.
    pub pass_rate: Option<BootstrapInterval>,
    /// Bootstrap resamples drawn.
    pub resamples: u64,
}

/// Everything `GET /v1/runs/{run}/stats` reports.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RunStats {
    pub run: String,
    /// The first and last step with items in the range asked for.
    pub first_step: Option<i64>,
    pub last_step: Option<i64>,
    pub items: u64,
    /// Per step, oldest first.
    pub steps: Vec<StepStats>,
    /// Per verifier, over every step of the range.
    pub summary: Vec<VerifierSummary>,
}

/// Computes a run's statistics from its items; `resamples` and `seed` drive the bootstrap.
pub fn run_stats(run: &str, rows: &[ItemRow], resamples: usize, seed: u64) -> RunStats {
    let mut by_step: BTreeMap<i64, Vec<&ItemRow>> = BTreeMap::new();
    for row in rows {
        by_step.entry(row.step).or_default().push(row);
    }
    let steps = by_step
        .iter()
        .map(|(&step, items)| StepStats {
            step,
            items: items.len() as u64,
            verifiers: by_verifier(items)
                .into_iter()
                .map(|(verifier, items)| verifier_step(verifier, &items))
                .collect(),
            groups: group_stats(items),
        })
        .collect();
    let summary = by_verifier(&rows.iter().collect::<Vec<_>>())
        .into_iter()
        .filter_map(|(verifier, items)| summarize(verifier, &items, resamples, seed))
        .collect();
    RunStats {
        run: run.to_owned(),
        first_step: by_step.keys().next().copied(),
        last_step: by_step.keys().next_back().copied(),
        items: rows.len() as u64,
        steps,
        summary,
    }
}

fn by_verifier<'r>(items: &[&'r ItemRow]) -> BTreeMap<&'r str, Vec<&'r ItemRow>> {
    let mut groups: BTreeMap<&str, Vec<&ItemRow>> = BTreeMap::new();
    for item in items {
        groups.entry(item.verifier.as_str()).or_default().push(item);
    }
    groups
}

fn verifier_step(verifier: &str, items: &[&ItemRow]) -> VerifierStep {
    let mut scores: Vec<f64> = items.iter().map(|i| i.score).collect();
    scores.sort_unstable_by(f64::total_cmp);
    let count = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / count;
    let std = (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / count).sqrt();
    let mut statuses: BTreeMap<&'static str, u64> = BTreeMap::new();
    for item in items {
        *statuses.entry(item.status.as_str()).or_default() += 1;
    }
    let rate = |status: Status| statuses.get(status.as_str()).copied().unwrap_or(0) as f64 / count;
    let attempts = items.iter().filter(|i| is_attempt(i.status)).count();
    let successes = items.iter().filter(|i| is_success(i.status)).count();
    let mut latencies: Vec<f64> = items.iter().map(|i| i.latency_us as f64 / 1000.0).collect();
    latencies.sort_unstable_by(f64::total_cmp);
    VerifierStep {
        verifier: verifier.to_owned(),
        count: scores.len() as u64,
        mean,
        std,
        min: scores.first().copied().unwrap_or(0.0),
        max: scores.last().copied().unwrap_or(0.0),
        quantiles: ScoreQuantiles::of(&scores).unwrap_or(ScoreQuantiles {
            p05: 0.0,
            p25: 0.0,
            p50: 0.0,
            p75: 0.0,
            p95: 0.0,
        }),
        histogram: ScoreHistogram::of(&scores),
        rates: AlarmRates {
            internal_error: rate(Status::InternalError),
            timeout: rate(Status::Timeout),
            unparseable: rate(Status::Unparseable),
        },
        statuses,
        pass_rate: (attempts > 0).then(|| successes as f64 / attempts as f64),
        latency: LatencyStats {
            mean_ms: latencies.iter().sum::<f64>() / count,
            p50_ms: quantile(&latencies, 0.50).unwrap_or(0.0),
            p95_ms: quantile(&latencies, 0.95).unwrap_or(0.0),
            p99_ms: quantile(&latencies, 0.99).unwrap_or(0.0),
        },
    }
}

/// The attempts of one group: how many, how many succeeded, and their summed score.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    attempts: u64,
    successes: u64,
    score: f64,
}

fn group_stats(items: &[&ItemRow]) -> Option<GroupStats> {
    let mut groups: HashMap<&str, Tally> = HashMap::new();
    for item in items.iter().filter(|i| is_attempt(i.status)) {
        let Some(key) = item.group.as_deref().or(item.prompt_id.as_deref()) else { continue };
        let tally = groups.entry(key).or_default();
        tally.attempts += 1;
        tally.successes += u64::from(is_success(item.status));
        tally.score += item.score;
    }
    if groups.is_empty() {
        return None;
    }
    let largest = groups.values().map(|g| g.attempts).max().unwrap_or(1);
    let pass_at_k = std::iter::successors(Some(1_u64), |k| k.checked_mul(2))
        .take_while(|&k| k <= largest)
        .map(|k| {
            let values: Vec<f64> = groups.values().filter_map(|g| pass_at_k(g.attempts, g.successes, k)).collect();
            PassAtK { k, value: values.iter().sum::<f64>() / values.len() as f64, groups: values.len() as u64 }
        })
        .collect();
    let mut by_size: BTreeMap<u64, (f64, u64)> = BTreeMap::new();
    for group in groups.values() {
        let entry = by_size.entry(group.attempts).or_default();
        entry.0 += group.score / group.attempts as f64;
        entry.1 += 1;
    }
    Some(GroupStats {
        groups: groups.len() as u64,
        all_correct: groups.values().filter(|g| g.successes == g.attempts).count() as u64,
        all_wrong: groups.values().filter(|g| g.successes == 0).count() as u64,
        pass_at_k,
        mean_at_k: by_size
            .into_iter()
            .map(|(k, (sum, groups))| MeanAtK { k, value: sum / groups as f64, groups })
            .collect(),
    })
}

/// Bootstrap units: per prompt when every item has a prompt id, per item otherwise. Each unit
/// is (mean score, attempts, successes).
fn units(items: &[&ItemRow]) -> (&'static str, Vec<(f64, Tally)>) {
    if items.iter().all(|i| i.prompt_id.is_some()) {
        let mut prompts: HashMap<&str, (Tally, u64)> = HashMap::new();
        for item in items {
            let (tally, count) = prompts.entry(item.prompt_id.as_deref().unwrap_or_default()).or_default();
            tally.score += item.score;
            *count += 1;
            if is_attempt(item.status) {
                tally.attempts += 1;
                tally.successes += u64::from(is_success(item.status));
            }
        }
        let mut units: Vec<(&str, (f64, Tally))> =
            prompts.into_iter().map(|(prompt, (tally, count))| (prompt, (tally.score / count as f64, tally))).collect();
        // A fixed order, so the seeded resamples pick the same units every time.
        units.sort_unstable_by(|a, b| a.0.cmp(b.0));
        ("prompt", units.into_iter().map(|(_, unit)| unit).collect())
    } else {
        let units = items
            .iter()
            .map(|item| {
                let attempt = is_attempt(item.status);
                let tally = Tally {
                    attempts: u64::from(attempt),
                    successes: u64::from(attempt && is_success(item.status)),
                    score: item.score,
                };
                (item.score, tally)
            })
            .collect();
        ("item", units)
    }
}

fn summarize(verifier: &str, items: &[&ItemRow], wanted: usize, seed: u64) -> Option<VerifierSummary> {
    let (unit, units) = units(items);
    let resamples = resamples_for(units.len(), wanted);
    let scores: Vec<f64> = units.iter().map(|(score, _)| *score).collect();
    let (mean, iqm) = bootstrap(&scores, resamples, seed)?;
    let attempts: u64 = units.iter().map(|(_, t)| t.attempts).sum();
    let pass_rate = (attempts > 0).then(|| {
        let successes: u64 = units.iter().map(|(_, t)| t.successes).sum();
        let estimate = successes as f64 / attempts as f64;
        // A ratio estimator: each resample sums successes and attempts of the drawn units.
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
        let rates: Vec<f64> = (0..resamples)
            .map(|_| {
                let (mut s, mut a) = (0, 0);
                for _ in 0..units.len() {
                    let tally = units[rng.random_range(0..units.len())].1;
                    s += tally.successes;
                    a += tally.attempts;
                }
                if a == 0 { estimate } else { s as f64 / a as f64 }
            })
            .collect();
        BootstrapInterval::percentile(estimate, rates)
    });
    Some(VerifierSummary {
        verifier: verifier.to_owned(),
        items: items.len() as u64,
        unit,
        units: units.len() as u64,
        mean,
        iqm,
        pass_rate,
        resamples: resamples as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial(n: u64, k: u64) -> f64 {
        if k > n {
            return 0.0;
        }
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    }

    #[test]
    fn pass_at_k_matches_the_combinatorial_definition() {
        for n in 1..=12 {
            for c in 0..=n {
                for k in 1..=n {
                    let expected = 1.0 - binomial(n - c, k) / binomial(n, k);
                    let got = pass_at_k(n, c, k).unwrap_or(f64::NAN);
                    assert!((got - expected).abs() < 1e-12, "n={n} c={c} k={k}: {got} vs {expected}");
                }
            }
        }
        assert_eq!(pass_at_k(4, 1, 5), None);
        assert_eq!(pass_at_k(4, 1, 0), None);
    }

    #[test]
    fn quantiles_interpolate_like_numpy() {
        // numpy.quantile([1, 2, 3, 4], [0.25, 0.5, 0.9]) == [1.75, 2.5, 3.7]
        let sorted = [1.0, 2.0, 3.0, 4.0];
        for (q, expected) in [(0.25, 1.75), (0.5, 2.5), (0.9, 3.7), (0.0, 1.0), (1.0, 4.0)] {
            assert!((quantile(&sorted, q).unwrap_or(f64::NAN) - expected).abs() < 1e-12, "q={q}");
        }
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn the_interquartile_mean_trims_a_quarter_from_each_end() {
        // scipy.stats.trim_mean(range(10), 0.25): cuts 2 from each end, mean of 2..=7 is 4.5.
        let mut values: Vec<f64> = (0..10).rev().map(f64::from).collect();
        assert_eq!(interquartile_mean(&mut values), Some(4.5));
        // Fewer than four values: nothing is cut.
        assert_eq!(interquartile_mean(&mut [3.0, 1.0, 2.0]), Some(2.0));
        let mut skewed = vec![0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 100.0, 1000.0];
        assert_eq!(interquartile_mean(&mut skewed), Some(0.5));
    }

    #[test]
    fn bootstrap_intervals_cover_the_estimate_and_repeat() {
        let values: Vec<f64> = (0..200).map(|i| f64::from(i % 7) / 6.0).collect();
        let (mean, iqm) = bootstrap(&values, 1000, 7).unwrap_or_else(|| panic!("no interval"));
        assert!(mean.lower < mean.estimate && mean.estimate < mean.upper, "{mean:?}");
        assert!(iqm.lower <= iqm.estimate && iqm.estimate <= iqm.upper, "{iqm:?}");
        assert_eq!(bootstrap(&values, 1000, 7), Some((mean, iqm)), "the same seed gives the same interval");
        let constant = bootstrap(&[0.5; 10], 100, 1).unwrap_or_else(|| panic!("no interval"));
        assert_eq!(constant.0, BootstrapInterval { estimate: 0.5, lower: 0.5, upper: 0.5 });
    }

    #[test]
    fn histograms_bin_rewards_over_the_unit_interval() {
        let histogram = ScoreHistogram::of(&[0.0, 0.05, 0.5, 0.999, 1.0]);
        assert_eq!(histogram.counts, [2, 0, 0, 0, 0, 1, 0, 0, 0, 2]);
        assert_eq!(histogram.edges.len(), HISTOGRAM_BINS + 1);
        let wide = ScoreHistogram::of(&[-1.0, 3.0]);
        assert_eq!((wide.edges[0], wide.edges[HISTOGRAM_BINS]), (-1.0, 3.0));
        assert_eq!(wide.counts.iter().sum::<u64>(), 2);
    }

    fn row(step: i64, prompt: &str, status: Status, score: f64) -> ItemRow {
        ItemRow {
            step,
            prompt_id: Some(prompt.to_owned()),
            group: None,
            verifier: "math".to_owned(),
            score,
            status,
            latency_us: 1000,
        }
    }

    #[test]
    fn groups_report_pass_at_k_and_zero_variance_groups() {
        let rows = [
            row(1, "a", Status::Correct, 1.0),
            row(1, "a", Status::Incorrect, 0.0),
            row(1, "b", Status::Correct, 1.0),
            row(1, "b", Status::Correct, 1.0),
            row(1, "c", Status::Incorrect, 0.0),
            row(1, "c", Status::InternalError, 0.0),
        ];
        let stats = run_stats("r", &rows, 100, 1);
        let groups = stats.steps[0].groups.clone().unwrap_or_else(|| panic!("no groups"));
        assert_eq!((groups.groups, groups.all_correct, groups.all_wrong), (3, 1, 1));
        // pass@1: (1/2 + 1 + 0) / 3; pass@2 over the groups of two attempts: (1 + 1) / 2.
        assert_eq!(groups.pass_at_k[0], PassAtK { k: 1, value: 0.5, groups: 3 });
        assert_eq!(groups.pass_at_k[1], PassAtK { k: 2, value: 1.0, groups: 2 });
        let verifier = &stats.steps[0].verifiers[0];
        assert_eq!(verifier.pass_rate, Some(3.0 / 5.0), "the internal error is not an attempt");
        assert!((verifier.rates.internal_error - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!(stats.summary[0].unit, "prompt");
        assert_eq!(stats.summary[0].units, 3);
    }
}
