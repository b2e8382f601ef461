//! The statistics of a run, from its aggregates (see [`super::store`]): per step and verifier,
//! the reward distribution, the status mix and latency; per group, pass@k; over a range of steps,
//! the mean and the interquartile mean with percentile-bootstrap 95% intervals (Agarwal et al.,
//! "Deep Reinforcement Learning at the Edge of the Statistical Precipice", NeurIPS 2021, the
//! `rliable` library). Pure functions over rows; the handlers read the rows.

use std::collections::{BTreeMap, HashMap};
use std::ops::AddAssign;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution};
use referee_core::Status;
use serde::Serialize;
use utoipa::ToSchema;

/// Buckets per doubling of the latency histogram: a bucket spans a factor of 2^(1/8), about 9%.
pub const LATENCY_BUCKETS_PER_OCTAVE: u32 = 8;

/// The histogram bucket of a latency: `floor(8 * log2(latency_us))`, 0 below 2 µs.
pub fn latency_bucket(latency_us: u64) -> i64 {
    if latency_us < 2 {
        return 0;
    }
    (f64::from(LATENCY_BUCKETS_PER_OCTAVE) * (latency_us as f64).log2()).floor() as i64
}

/// The latency a bucket stands for: the geometric middle of its bounds, in microseconds.
pub fn bucket_latency_us(bucket: i64) -> f64 {
    ((bucket as f64 + 0.5) / f64::from(LATENCY_BUCKETS_PER_OCTAVE)).exp2()
}

/// The items of one step and verifier with one score and status.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreRow {
    pub step: i64,
    pub verifier: String,
    pub score: f64,
    pub status: Status,
    pub items: u64,
    /// Their summed latency.
    pub latency_us: u64,
    /// How many had no `prompt_id`.
    pub unprompted: u64,
}

/// One bucket of a step and verifier's latency histogram.
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyRow {
    pub step: i64,
    pub verifier: String,
    pub bucket: i64,
    pub items: u64,
}

/// One group's attempts at one step.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupRow {
    pub step: i64,
    pub tally: Tally,
}

/// One prompt's items scored by one verifier over the steps asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptRow {
    pub verifier: String,
    pub items: u64,
    pub score_sum: f64,
    pub attempts: u64,
    pub successes: u64,
}

/// What a run's statistics over a range of steps are computed from; `prompts` in prompt order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunRows {
    pub scores: Vec<ScoreRow>,
    pub latencies: Vec<LatencyRow>,
    pub groups: Vec<GroupRow>,
    pub prompts: Vec<PromptRow>,
}

/// Attempts, how many succeeded, and their summed score.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    pub attempts: u64,
    pub successes: u64,
    pub score: f64,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.attempts += other.attempts;
        self.successes += other.successes;
        self.score += other.score;
    }
}

impl Tally {
    /// `items` items of verdict `status` whose scores sum to `score`: all of them attempts or
    /// none (see [`is_attempt`]), and successes when the verdict is `correct`.
    pub fn of(status: Status, items: u64, score: f64) -> Tally {
        if !is_attempt(status) {
            return Tally::default();
        }
        Tally { attempts: items, successes: if status == Status::Correct { items } else { 0 }, score }
    }

    /// Successes over attempts; `None` without attempts.
    pub fn pass_rate(&self) -> Option<f64> {
        (self.attempts > 0).then(|| self.successes as f64 / self.attempts as f64)
    }
}

/// Whether an item is an attempt of the policy: every verdict on the response, including
/// `timeout` and `resource_limit` (the reward the trainer got was the failure's), but not
/// `invalid_input` or `internal_error`, which say nothing about the response.
fn is_attempt(status: Status) -> bool {
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

/// The quantile `q` of `n` ordered values, `at(rank)` giving the value of a 0-based rank, by
/// linear interpolation between order statistics (Hyndman and Fan's type 7, numpy's default);
/// `None` when `n` is 0.
fn interpolated(n: u64, q: f64, at: impl Fn(u64) -> f64) -> Option<f64> {
    let last = n.checked_sub(1)?;
    let position = q.clamp(0.0, 1.0) * last as f64;
    let below = (position.floor() as u64).min(last);
    let above = (below + 1).min(last);
    let (low, high) = (at(below), at(above));
    Some(low + (high - low) * (position - below as f64))
}

/// The quantile `q` of sorted `values` (type 7, as numpy); `None` when empty.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    interpolated(sorted.len() as u64, q, |rank| sorted[rank as usize])
}

/// The quantile `q` of a multiset given as `(value, count)` pairs sorted by value: the quantile
/// of the values each repeated `count` times.
pub fn weighted_quantile(sorted: &[(f64, u64)], q: f64) -> Option<f64> {
    let at = |rank: u64| {
        let mut seen = 0;
        for &(value, count) in sorted {
            seen += count;
            if rank < seen {
                return value;
            }
        }
        sorted.last().map_or(0.0, |&(value, _)| value)
    };
    interpolated(sorted.iter().map(|&(_, count)| count).sum(), q, at)
}

/// The mean of `n` values given as `(value, count)` pairs in ascending order, after cutting
/// `floor(n/4)` values from each end: the interquartile mean (`scipy.stats.trim_mean(x, 0.25)`,
/// which `rliable` uses). `None` when `n` is 0.
pub fn interquartile_mean(sorted: impl IntoIterator<Item = (f64, u64)>, n: u64) -> Option<f64> {
    if n == 0 {
        return None;
    }
    let (cut, end) = (n / 4, n - n / 4);
    let (mut start, mut sum) = (0_u64, 0.0);
    for (value, count) in sorted {
        let (low, high) = (start.max(cut), (start + count).min(end));
        if high > low {
            sum += value * (high - low) as f64;
        }
        start += count;
        if start >= end {
            break;
        }
    }
    Some(sum / (end - cut) as f64)
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

/// A bootstrap unit: a score with the attempts and successes behind it, `weight` times (the
/// items of one score and status are one unit of that many).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    pub score: f64,
    pub attempts: u64,
    pub successes: u64,
    pub weight: u64,
}

/// The mean, the IQM and the pass rate (successes over attempts, a ratio estimator) of units,
/// with intervals from the same resamples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Intervals {
    pub mean: BootstrapInterval,
    pub iqm: BootstrapInterval,
    /// Absent without attempts.
    pub pass_rate: Option<BootstrapInterval>,
}

/// The estimates of one sample: `counts[i]` copies of `units[i]`, `n` in all, units by score.
#[derive(Debug, Clone, Copy)]
struct Estimates {
    mean: f64,
    iqm: f64,
    pass_rate: Option<f64>,
}

impl Estimates {
    fn of(units: &[Unit], counts: impl Iterator<Item = u64> + Clone, n: u64) -> Estimates {
        let (mut sum, mut attempts, mut successes) = (0.0, 0, 0);
        for (unit, count) in units.iter().zip(counts.clone()) {
            sum += unit.score * count as f64;
            attempts += unit.attempts * count;
            successes += unit.successes * count;
        }
        Estimates {
            mean: sum / n as f64,
            iqm: interquartile_mean(units.iter().zip(counts).map(|(unit, count)| (unit.score, count)), n)
                .unwrap_or(0.0),
            pass_rate: (attempts > 0).then(|| successes as f64 / attempts as f64),
        }
    }
}

/// Whether `n` draws from `distinct` weighted units are made as one multinomial draw: when the
/// units are few (a discrete reward), so a resample costs a step per unit, not per draw.
fn drawn_as_multinomial(distinct: u64, n: u64) -> bool {
    distinct.saturating_mul(8) < n
}

/// Draws `n` units with replacement, weighted, into `counts` (how often each was drawn).
fn resample(rng: &mut ChaCha8Rng, units: &[Unit], ends: &[u64], n: u64, counts: &mut [u64]) {
    counts.fill(0);
    if units.len() as u64 == n {
        // Every weight is 1.
        for _ in 0..n {
            counts[rng.random_range(0..n) as usize] += 1;
        }
    } else if drawn_as_multinomial(units.len() as u64, n) {
        // A binomial per unit.
        let (mut left, mut weight_left) = (n, n);
        for (count, unit) in counts.iter_mut().zip(units) {
            if left == 0 {
                break;
            }
            let p = unit.weight as f64 / weight_left as f64;
            *count = if p >= 1.0 { left } else { Binomial::new(left, p).map_or(0, |binomial| binomial.sample(rng)) };
            left -= *count;
            weight_left -= unit.weight;
        }
    } else {
        for _ in 0..n {
            let rank = rng.random_range(0..n);
            counts[ends.partition_point(|&end| end <= rank)] += 1;
        }
    }
}

/// Percentile-bootstrap intervals of the mean, IQM and pass rate of `units` over `resamples`
/// resamples with replacement, seeded so the same data gives the same intervals; `None` without
/// units.
pub fn bootstrap(units: &[Unit], resamples: usize, seed: u64) -> Option<Intervals> {
    let mut units: Vec<Unit> = units.iter().filter(|unit| unit.weight > 0).copied().collect();
    // A stable sort: equal scores keep their order, so the seeded draws repeat.
    units.sort_by(|a, b| a.score.total_cmp(&b.score));
    let ends: Vec<u64> = units
        .iter()
        .scan(0, |end, unit| {
            *end += unit.weight;
            Some(*end)
        })
        .collect();
    let n = ends.last().copied().filter(|&n| n > 0)?;
    let estimate = Estimates::of(&units, units.iter().map(|unit| unit.weight), n);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = vec![0; units.len()];
    let samples: Vec<Estimates> = (0..resamples)
        .map(|_| {
            resample(&mut rng, &units, &ends, n, &mut counts);
            Estimates::of(&units, counts.iter().copied(), n)
        })
        .collect();
    let interval = |estimate: f64, of: fn(&Estimates) -> Option<f64>| {
        BootstrapInterval::percentile(estimate, samples.iter().map(|sample| of(sample).unwrap_or(estimate)).collect())
    };
    Some(Intervals {
        mean: interval(estimate.mean, |sample| Some(sample.mean)),
        iqm: interval(estimate.iqm, |sample| Some(sample.iqm)),
        pass_rate: estimate.pass_rate.map(|rate| interval(rate, |sample| sample.pass_rate)),
    })
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

/// The resamples a bootstrap gets when one resample costs `work` steps (its draws, or its
/// distinct units when those are drawn as a multinomial): `wanted`, fewer for large inputs so one
/// request stays within about 20 million steps, never fewer than 200.
fn resamples_for(work: u64, wanted: usize) -> usize {
    if work == 0 {
        return 0;
    }
    wanted.min(usize::try_from(20_000_000 / work).unwrap_or(0).max(200))
}

/// [`bootstrap`] with as many of the `wanted` resamples as [`resamples_for`] allows for these
/// units; the intervals and the resamples drawn.
pub fn bootstrap_within(units: &[Unit], wanted: usize, seed: u64) -> Option<(Intervals, usize)> {
    let count: u64 = units.iter().map(|unit| unit.weight).sum();
    let distinct = units.len() as u64;
    let work = if drawn_as_multinomial(distinct, count) { distinct } else { count };
    let resamples = resamples_for(work, wanted);
    Some((bootstrap(units, resamples, seed)?, resamples))
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
    fn of(sorted: &[(f64, u64)]) -> Option<ScoreQuantiles> {
        Some(ScoreQuantiles {
            p05: weighted_quantile(sorted, 0.05)?,
            p25: weighted_quantile(sorted, 0.25)?,
            p50: weighted_quantile(sorted, 0.50)?,
            p75: weighted_quantile(sorted, 0.75)?,
            p95: weighted_quantile(sorted, 0.95)?,
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
    /// values' range; `sorted` holds (value, count) pairs by value.
    fn of(sorted: &[(f64, u64)]) -> ScoreHistogram {
        let (min, max) = match (sorted.first(), sorted.last()) {
            (Some(&(min, _)), Some(&(max, _))) if min < 0.0 || max > 1.0 => (min, max),
            _ => (0.0, 1.0),
        };
        let width = (max - min) / HISTOGRAM_BINS as f64;
        let edges = (0..=HISTOGRAM_BINS).map(|i| min + width * i as f64).collect();
        let mut counts = vec![0; HISTOGRAM_BINS];
        for &(value, count) in sorted {
            let bin = if width > 0.0 { ((value - min) / width).floor() as usize } else { 0 };
            counts[bin.min(HISTOGRAM_BINS - 1)] += count;
        }
        ScoreHistogram { edges, counts }
    }
}

/// The latency of a set of items, in milliseconds: the mean exact, the quantiles from a
/// histogram of 8 buckets per doubling (within about 4.5%).
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
    #[schema(value_type = BTreeMap<String, u64>)]
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

/// Computes a run's statistics from its rows; `resamples` and `seed` drive the bootstrap.
pub fn run_stats(run: &str, rows: &RunRows, resamples: usize, seed: u64) -> RunStats {
    let mut by_step: BTreeMap<i64, BTreeMap<&str, Vec<&ScoreRow>>> = BTreeMap::new();
    let mut by_verifier: BTreeMap<&str, Vec<&ScoreRow>> = BTreeMap::new();
    for row in &rows.scores {
        by_step.entry(row.step).or_default().entry(row.verifier.as_str()).or_default().push(row);
        by_verifier.entry(row.verifier.as_str()).or_default().push(row);
    }
    let mut latencies: HashMap<(i64, &str), Vec<(f64, u64)>> = HashMap::new();
    for row in &rows.latencies {
        latencies
            .entry((row.step, row.verifier.as_str()))
            .or_default()
            .push((bucket_latency_us(row.bucket) / 1000.0, row.items));
    }
    let mut groups: HashMap<i64, Vec<Tally>> = HashMap::new();
    for row in &rows.groups {
        groups.entry(row.step).or_default().push(row.tally);
    }
    let mut prompts: HashMap<&str, Vec<&PromptRow>> = HashMap::new();
    for row in &rows.prompts {
        prompts.entry(row.verifier.as_str()).or_default().push(row);
    }
    let steps = by_step
        .iter()
        .map(|(&step, verifiers)| StepStats {
            step,
            items: verifiers.values().flatten().map(|cell| cell.items).sum(),
            verifiers: verifiers
                .iter()
                .map(|(&verifier, cells)| {
                    let latencies = latencies.get_mut(&(step, verifier)).map(std::mem::take).unwrap_or_default();
                    verifier_step(verifier, cells, latencies)
                })
                .collect(),
            groups: groups.get(&step).and_then(|tallies| group_stats(tallies)),
        })
        .collect();
    let summary = by_verifier
        .iter()
        .filter_map(|(&verifier, cells)| {
            summarize(verifier, cells, prompts.get(verifier).map_or(&[][..], Vec::as_slice), resamples, seed)
        })
        .collect();
    RunStats {
        run: run.to_owned(),
        first_step: by_step.keys().next().copied(),
        last_step: by_step.keys().next_back().copied(),
        items: rows.scores.iter().map(|cell| cell.items).sum(),
        steps,
        summary,
    }
}

fn verifier_step(verifier: &str, cells: &[&ScoreRow], mut latencies: Vec<(f64, u64)>) -> VerifierStep {
    let mut scores: Vec<(f64, u64)> = cells.iter().map(|cell| (cell.score, cell.items)).collect();
    scores.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let items: u64 = cells.iter().map(|cell| cell.items).sum();
    let count = items.max(1) as f64;
    let mean = scores.iter().map(|&(score, n)| score * n as f64).sum::<f64>() / count;
    let std = (scores.iter().map(|&(score, n)| (score - mean).powi(2) * n as f64).sum::<f64>() / count).sqrt();
    let mut statuses: BTreeMap<&'static str, u64> = BTreeMap::new();
    let (mut tally, mut latency_us) = (Tally::default(), 0_u64);
    for cell in cells {
        *statuses.entry(cell.status.as_str()).or_default() += cell.items;
        tally += Tally::of(cell.status, cell.items, 0.0);
        latency_us = latency_us.saturating_add(cell.latency_us);
    }
    let rate = |status: Status| statuses.get(status.as_str()).copied().unwrap_or(0) as f64 / count;
    latencies.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    VerifierStep {
        verifier: verifier.to_owned(),
        count: items,
        mean,
        std,
        min: scores.first().map_or(0.0, |&(score, _)| score),
        max: scores.last().map_or(0.0, |&(score, _)| score),
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
        pass_rate: tally.pass_rate(),
        latency: LatencyStats {
            mean_ms: latency_us as f64 / 1000.0 / count,
            p50_ms: weighted_quantile(&latencies, 0.50).unwrap_or(0.0),
            p95_ms: weighted_quantile(&latencies, 0.95).unwrap_or(0.0),
            p99_ms: weighted_quantile(&latencies, 0.99).unwrap_or(0.0),
        },
    }
}

fn group_stats(groups: &[Tally]) -> Option<GroupStats> {
    let groups: Vec<&Tally> = groups.iter().filter(|group| group.attempts > 0).collect();
    if groups.is_empty() {
        return None;
    }
    let largest = groups.iter().map(|g| g.attempts).max().unwrap_or(1);
    let pass_at_k = std::iter::successors(Some(1_u64), |k| k.checked_mul(2))
        .take_while(|&k| k <= largest)
        .map(|k| {
            let values: Vec<f64> = groups.iter().filter_map(|g| pass_at_k(g.attempts, g.successes, k)).collect();
            PassAtK { k, value: values.iter().sum::<f64>() / values.len() as f64, groups: values.len() as u64 }
        })
        .collect();
    let mut by_size: BTreeMap<u64, (f64, u64)> = BTreeMap::new();
    for group in &groups {
        let entry = by_size.entry(group.attempts).or_default();
        entry.0 += group.score / group.attempts as f64;
        entry.1 += 1;
    }
    Some(GroupStats {
        groups: groups.len() as u64,
        all_correct: groups.iter().filter(|g| g.successes == g.attempts).count() as u64,
        all_wrong: groups.iter().filter(|g| g.successes == 0).count() as u64,
        pass_at_k,
        mean_at_k: by_size
            .into_iter()
            .map(|(k, (sum, groups))| MeanAtK { k, value: sum / groups as f64, groups })
            .collect(),
    })
}

/// Bootstrap units: per prompt (the mean score of its items, with its attempts and successes)
/// when every item has a prompt id, per item otherwise (the items of one score and status as one
/// weighted unit).
fn units(cells: &[&ScoreRow], prompts: &[&PromptRow]) -> (&'static str, Vec<Unit>) {
    if cells.iter().all(|cell| cell.unprompted == 0) && !prompts.is_empty() {
        let units = prompts
            .iter()
            .filter(|prompt| prompt.items > 0)
            .map(|prompt| Unit {
                score: prompt.score_sum / prompt.items as f64,
                attempts: prompt.attempts,
                successes: prompt.successes,
                weight: 1,
            })
            .collect();
        ("prompt", units)
    } else {
        let units = cells
            .iter()
            .map(|cell| {
                let tally = Tally::of(cell.status, 1, cell.score);
                Unit { score: cell.score, attempts: tally.attempts, successes: tally.successes, weight: cell.items }
            })
            .collect();
        ("item", units)
    }
}

fn summarize(
    verifier: &str,
    cells: &[&ScoreRow],
    prompts: &[&PromptRow],
    wanted: usize,
    seed: u64,
) -> Option<VerifierSummary> {
    let (unit, units) = units(cells, prompts);
    let (intervals, resamples) = bootstrap_within(&units, wanted, seed)?;
    Some(VerifierSummary {
        verifier: verifier.to_owned(),
        items: cells.iter().map(|cell| cell.items).sum(),
        unit,
        units: units.iter().map(|unit| unit.weight).sum(),
        mean: intervals.mean,
        iqm: intervals.iqm,
        pass_rate: intervals.pass_rate,
        resamples: resamples as u64,
    })
}

/// One verifier's items of one status in one run over a range of steps.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusTotal {
    pub verifier: String,
    pub status: Status,
    pub items: u64,
    pub score_sum: f64,
}

/// One verifier's items in one run over the steps compared.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct VerifierTotals {
    pub verifier: String,
    pub items: u64,
    /// Mean score of the items.
    pub mean: f64,
    pub attempts: u64,
    pub successes: u64,
    /// Successes over attempts; absent without attempts.
    pub pass_rate: Option<f64>,
}

/// One run of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RunTotals {
    pub run: String,
    pub verifiers: Vec<VerifierTotals>,
}

/// One verifier across the runs compared: each run is one unit (its mean score, attempts and
/// successes), as `rliable` aggregates over runs.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AcrossRuns {
    pub verifier: String,
    /// Runs with items of this verifier.
    pub runs: u64,
    /// Mean of the runs' mean scores.
    pub mean: BootstrapInterval,
    /// Interquartile mean of the runs' mean scores.
    pub iqm: BootstrapInterval,
    /// The runs' successes over their attempts.
    pub pass_rate: Option<BootstrapInterval>,
    pub resamples: u64,
}

/// What `POST /v1/runs/compare` reports.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RunComparison {
    /// Per run, in the order asked for.
    pub runs: Vec<RunTotals>,
    /// Per verifier, across the runs.
    pub summary: Vec<AcrossRuns>,
}

/// Compares runs from their totals per verifier and status (`runs` in the order asked for);
/// `resamples` and `seed` drive the bootstrap over runs.
pub fn compare_runs(runs: Vec<(String, Vec<StatusTotal>)>, resamples: usize, seed: u64) -> RunComparison {
    let runs: Vec<RunTotals> = runs
        .into_iter()
        .map(|(run, totals)| {
            let mut verifiers: BTreeMap<String, (u64, f64, Tally)> = BTreeMap::new();
            for total in totals {
                let (items, score, tally) = verifiers.entry(total.verifier).or_default();
                *items += total.items;
                *score += total.score_sum;
                *tally += Tally::of(total.status, total.items, total.score_sum);
            }
            let verifiers = verifiers
                .into_iter()
                .filter(|(_, (items, ..))| *items > 0)
                .map(|(verifier, (items, score, tally))| VerifierTotals {
                    verifier,
                    items,
                    mean: score / items as f64,
                    attempts: tally.attempts,
                    successes: tally.successes,
                    pass_rate: tally.pass_rate(),
                })
                .collect();
            RunTotals { run, verifiers }
        })
        .collect();
    let mut units: BTreeMap<&str, Vec<Unit>> = BTreeMap::new();
    for run in &runs {
        for totals in &run.verifiers {
            units.entry(totals.verifier.as_str()).or_default().push(Unit {
                score: totals.mean,
                attempts: totals.attempts,
                successes: totals.successes,
                weight: 1,
            });
        }
    }
    let summary = units
        .into_iter()
        .filter_map(|(verifier, units)| {
            let (intervals, resamples) = bootstrap_within(&units, resamples, seed)?;
            Some(AcrossRuns {
                verifier: verifier.to_owned(),
                runs: units.len() as u64,
                mean: intervals.mean,
                iqm: intervals.iqm,
                pass_rate: intervals.pass_rate,
                resamples: resamples as u64,
            })
        })
        .collect();
    RunComparison { runs, summary }
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
    fn latency_buckets_are_an_eighth_of_a_doubling() {
        assert_eq!((latency_bucket(0), latency_bucket(1), latency_bucket(2)), (0, 0, 8));
        assert_eq!((latency_bucket(1023), latency_bucket(1024)), (79, 80));
        for latency in [3_u64, 17, 999, 1000, 123_456, 60_000_000] {
            let stands_for = bucket_latency_us(latency_bucket(latency));
            let error = (stands_for / latency as f64 - 1.0).abs();
            assert!(error < 0.045, "{latency} us reads as {stands_for}");
        }
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

    /// Each value once, as (value, count) pairs in ascending order.
    fn once(values: &[f64]) -> Vec<(f64, u64)> {
        let mut sorted: Vec<(f64, u64)> = values.iter().map(|&value| (value, 1)).collect();
        sorted.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        sorted
    }

    #[test]
    fn quantiles_interpolate_like_numpy() {
        // numpy.quantile([1, 2, 3, 4], [0.25, 0.5, 0.9]) == [1.75, 2.5, 3.7]
        let sorted = [1.0, 2.0, 3.0, 4.0];
        for (q, expected) in [(0.25, 1.75), (0.5, 2.5), (0.9, 3.7), (0.0, 1.0), (1.0, 4.0)] {
            assert!((quantile(&sorted, q).unwrap_or(f64::NAN) - expected).abs() < 1e-12, "q={q}");
            let weighted = weighted_quantile(&once(&sorted), q).unwrap_or(f64::NAN);
            assert!((weighted - expected).abs() < 1e-12, "q={q}");
        }
        assert_eq!(quantile(&[], 0.5), None);
        assert_eq!(weighted_quantile(&[], 0.5), None);
        // numpy.quantile([0, 0, 0, 1, 1], [0.5, 0.7, 0.9]) == [0, 0.8, 1]: counts stand for repeats.
        for (q, expected) in [(0.5, 0.0), (0.7, 0.8), (0.9, 1.0)] {
            let got = weighted_quantile(&[(0.0, 3), (1.0, 2)], q).unwrap_or(f64::NAN);
            assert!((got - expected).abs() < 1e-12, "q={q}: {got}");
        }
    }

    #[test]
    fn the_interquartile_mean_trims_a_quarter_from_each_end() {
        // scipy.stats.trim_mean(range(10), 0.25): cuts 2 from each end, mean of 2..=7 is 4.5.
        let values: Vec<f64> = (0..10).rev().map(f64::from).collect();
        assert_eq!(interquartile_mean(once(&values), 10), Some(4.5));
        // Fewer than four values: nothing is cut.
        assert_eq!(interquartile_mean(once(&[3.0, 1.0, 2.0]), 3), Some(2.0));
        let skewed = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 100.0, 1000.0];
        assert_eq!(interquartile_mean(once(&skewed), 8), Some(0.5));
        // The same multiset as counts: a cut falls inside a value's run.
        assert_eq!(interquartile_mean([(0.0, 4), (1.0, 2), (100.0, 1), (1000.0, 1)], 8), Some(0.5));
        assert_eq!(interquartile_mean([], 0), None);
    }

    fn unit(score: f64, weight: u64) -> Unit {
        Unit { score, attempts: 1, successes: u64::from(score >= 1.0), weight }
    }

    #[test]
    fn bootstrap_intervals_cover_the_estimate_and_repeat() {
        let units: Vec<Unit> = (0..200).map(|i| unit(f64::from(i % 7) / 6.0, 1)).collect();
        let intervals = bootstrap(&units, 1000, 7).unwrap_or_else(|| panic!("no interval"));
        let (mean, iqm) = (intervals.mean, intervals.iqm);
        assert!(mean.lower < mean.estimate && mean.estimate < mean.upper, "{mean:?}");
        assert!(iqm.lower <= iqm.estimate && iqm.estimate <= iqm.upper, "{iqm:?}");
        assert_eq!(bootstrap(&units, 1000, 7), Some(intervals), "the same seed gives the same interval");
        let constant = bootstrap(&[unit(0.5, 10)], 100, 1).unwrap_or_else(|| panic!("no interval"));
        assert_eq!(constant.mean, BootstrapInterval { estimate: 0.5, lower: 0.5, upper: 0.5 });
        assert_eq!(bootstrap(&[], 100, 1), None);
    }

    #[test]
    fn weighted_units_resample_like_their_expansion() {
        // 30% successes among 10 000 items: two weighted units (a multinomial per resample) and
        // the same items one by one give the same estimates and about the same intervals.
        let weighted = [unit(0.0, 7000), unit(1.0, 3000)];
        let expanded: Vec<Unit> =
            weighted.iter().flat_map(|u| std::iter::repeat_n(unit(u.score, 1), u.weight as usize)).collect();
        let a = bootstrap(&weighted, 2000, 3).unwrap_or_else(|| panic!("no interval"));
        let b = bootstrap(&expanded, 2000, 3).unwrap_or_else(|| panic!("no interval"));
        assert_eq!((a.mean.estimate, a.iqm.estimate), (0.3, b.iqm.estimate));
        // The binomial standard error is 0.0046, so the 95% interval is about +-0.009.
        for interval in [a.mean, b.mean, a.pass_rate.unwrap_or(a.mean)] {
            let half = (interval.upper - interval.lower) / 2.0;
            assert!((half - 0.009).abs() < 0.002, "{interval:?}");
        }
        // Few draws per unit: drawn one by one through the cumulative weights.
        let mixed = [unit(0.0, 3), unit(0.5, 1), unit(1.0, 2)];
        let intervals = bootstrap(&mixed, 500, 1).unwrap_or_else(|| panic!("no interval"));
        assert!((intervals.mean.estimate - 2.5 / 6.0).abs() < 1e-12);
        assert!(intervals.mean.lower >= 0.0 && intervals.mean.upper <= 1.0);
    }

    #[test]
    fn histograms_bin_rewards_over_the_unit_interval() {
        let histogram = ScoreHistogram::of(&once(&[0.0, 0.05, 0.5, 0.999, 1.0]));
        assert_eq!(histogram.counts, [2, 0, 0, 0, 0, 1, 0, 0, 0, 2]);
        assert_eq!(histogram.edges.len(), HISTOGRAM_BINS + 1);
        let wide = ScoreHistogram::of(&[(-1.0, 3), (3.0, 1)]);
        assert_eq!((wide.edges[0], wide.edges[HISTOGRAM_BINS]), (-1.0, 3.0));
        assert_eq!(wide.counts.iter().sum::<u64>(), 4);
    }

    /// The rows of items (prompt, status, score) at step 1, merged as the recorder merges them.
    fn rows(items: &[(&str, Status, f64)]) -> RunRows {
        let mut pending = super::super::store::Pending::default();
        for &(prompt, status, score) in items {
            let tag =
                crate::engine::RunTag { run: "r".to_owned(), step: 1, prompt_id: Some(prompt.to_owned()), group: None };
            pending.add(&tag, "math", score, status, 1000, true);
        }
        pending.runs.remove("r").map(|run| run.rows()).unwrap_or_default()
    }

    #[test]
    fn groups_report_pass_at_k_and_zero_variance_groups() {
        let rows = rows(&[
            ("a", Status::Correct, 1.0),
            ("a", Status::Incorrect, 0.0),
            ("b", Status::Correct, 1.0),
            ("b", Status::Correct, 1.0),
            ("c", Status::Incorrect, 0.0),
            ("c", Status::InternalError, 0.0),
        ]);
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
