//! Runs in the database, as aggregates: items are merged in memory into rows keyed by what the
//! statistics group by, and each write adds those rows to the stored ones (an upsert that sums),
//! so a write costs a row per distinct key, not per item, and replicas add to the same rows.
//!
//! - `run_scores`: per step and verifier, the items by distinct (score, status): counts, sums,
//!   exact quantiles and histograms of the rewards, the status mix and the item bootstrap;
//! - `run_latencies`: per step and verifier, a latency histogram of
//!   [`super::stats::LATENCY_BUCKETS_PER_OCTAVE`] buckets per doubling (quantiles within about
//!   4.5%);
//! - `run_groups`: per step and group, the attempts, successes and summed score (pass@k, mean@k);
//! - `run_prompts`: per prompt, step and verifier, items, attempts and successes (pass rates and
//!   the prompt bootstrap);
//! - `runs`: one row per run;
//! - `run_samples`: the items kept with their text ([`super::samples`]), a row each.

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::AddAssign;

use referee_core::Status;
use serde::Serialize;
use serde_json::Value;
use sqlx::{AssertSqlSafe, Row};
use utoipa::ToSchema;

use super::prompts::PromptStep;
use super::samples::{RunSample, SampleRow};
use super::stats::{GroupRow, LatencyRow, PromptRow, RunRows, ScoreRow, StatusTotal, Tally, latency_bucket};
use crate::engine::RunTag;
use crate::store::{Storage, now_ms, placeholders};

/// The items of one (step, verifier) with one score and status.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct ScoreCell {
    pub items: u64,
    pub latency_us: u64,
    /// Items without a `prompt_id`.
    pub unprompted: u64,
}

impl AddAssign for ScoreCell {
    fn add_assign(&mut self, other: ScoreCell) {
        self.items += other.items;
        self.latency_us = self.latency_us.saturating_add(other.latency_us);
        self.unprompted += other.unprompted;
    }
}

/// The items of one (prompt, step, verifier).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct PromptCell {
    pub items: u64,
    pub score_sum: f64,
    /// The attempts among them, their successes and summed score.
    pub attempts: Tally,
}

impl AddAssign for PromptCell {
    fn add_assign(&mut self, other: PromptCell) {
        self.items += other.items;
        self.score_sum += other.score_sum;
        self.attempts += other.attempts;
    }
}

/// A (step, verifier, score, status) key; the score by its bits (never -0.0).
type ScoreKey = (i64, &'static str, u64, Status);

/// One run's items since the last write.
#[derive(Debug)]
pub(super) struct RunPending {
    pub items: u64,
    pub first_step: i64,
    pub last_step: i64,
    pub scores: HashMap<ScoreKey, ScoreCell>,
    pub latencies: HashMap<(i64, &'static str, i64), u64>,
    /// By group (or prompt id), then step: looked up by a borrowed name, so an item whose group
    /// is already held costs no copy of its name.
    pub groups: HashMap<String, HashMap<i64, Tally>>,
    /// By prompt, then (step, verifier).
    pub prompts: HashMap<String, HashMap<(i64, &'static str), PromptCell>>,
}

impl RunPending {
    fn new(step: i64) -> RunPending {
        RunPending {
            items: 0,
            first_step: step,
            last_step: step,
            scores: HashMap::new(),
            latencies: HashMap::new(),
            groups: HashMap::new(),
            prompts: HashMap::new(),
        }
    }

    fn merge(&mut self, other: RunPending) {
        self.items += other.items;
        self.first_step = self.first_step.min(other.first_step);
        self.last_step = self.last_step.max(other.last_step);
        add_all(&mut self.scores, other.scores);
        add_all(&mut self.latencies, other.latencies);
        for (group, steps) in other.groups {
            add_all(self.groups.entry(group).or_default(), steps);
        }
        for (prompt, cells) in other.prompts {
            add_all(self.prompts.entry(prompt).or_default(), cells);
        }
    }
}

#[cfg(test)]
impl RunPending {
    /// The rows the store would read back after writing this alone (every step).
    pub fn rows(&self) -> RunRows {
        let mut prompts: std::collections::BTreeMap<(&str, &str), PromptRow> = std::collections::BTreeMap::new();
        for ((prompt, verifier), cell) in self.prompts.iter().flat_map(|(prompt, cells)| {
            cells.iter().map(move |(&(_, verifier), cell)| ((prompt.as_str(), verifier), cell))
        }) {
            let row = prompts.entry((prompt, verifier)).or_insert_with(|| PromptRow {
                verifier: (*verifier).to_owned(),
                items: 0,
                score_sum: 0.0,
                attempts: 0,
                successes: 0,
            });
            row.items += cell.items;
            row.score_sum += cell.score_sum;
            row.attempts += cell.attempts.attempts;
            row.successes += cell.attempts.successes;
        }
        RunRows {
            scores: self
                .scores
                .iter()
                .map(|(&(step, verifier, bits, status), cell)| ScoreRow {
                    step,
                    verifier: verifier.to_owned(),
                    score: f64::from_bits(bits),
                    status,
                    items: cell.items,
                    latency_us: cell.latency_us,
                    unprompted: cell.unprompted,
                })
                .collect(),
            latencies: self
                .latencies
                .iter()
                .map(|(&(step, verifier, bucket), &items)| LatencyRow {
                    step,
                    verifier: verifier.to_owned(),
                    bucket,
                    items,
                })
                .collect(),
            groups: self.groups.values().flatten().map(|(&step, &tally)| GroupRow { step, tally }).collect(),
            prompts: prompts.into_values().collect(),
        }
    }
}

/// The value of `key`, made by `new` when missing: the key is copied only then.
fn entry<'m, V>(map: &'m mut HashMap<String, V>, key: &str, new: impl FnOnce() -> V) -> &'m mut V {
    if !map.contains_key(key) {
        map.insert(key.to_owned(), new());
    }
    map.get_mut(key).unwrap_or_else(|| unreachable!("inserted above"))
}

fn add_all<K: Eq + Hash, V: AddAssign + Default>(into: &mut HashMap<K, V>, from: HashMap<K, V>) {
    for (key, value) in from {
        *into.entry(key).or_default() += value;
    }
}

/// Everything recorded since the last write.
#[derive(Debug, Default)]
pub(super) struct Pending {
    pub runs: HashMap<String, RunPending>,
    /// Items whose statistics (scores, latencies, groups) are held.
    pub detailed: usize,
    /// Items kept with their text.
    pub samples: Vec<SampleRow>,
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty() && self.samples.is_empty()
    }

    /// Adds one item with its verdict. Without `detailed`, only the run's item count and the
    /// prompt's counts are kept (the pass rates), not its statistics.
    pub fn add(
        &mut self,
        tag: &RunTag,
        verifier: &'static str,
        score: f64,
        status: Status,
        latency_us: u64,
        detailed: bool,
    ) {
        let RunTag { run, step, prompt_id, group } = tag;
        let step = *step;
        let run = entry(&mut self.runs, run, || RunPending::new(step));
        run.items += 1;
        run.first_step = run.first_step.min(step);
        run.last_step = run.last_step.max(step);
        let tally = Tally::of(status, 1, score);
        if detailed {
            self.detailed += 1;
            // 0.0 and -0.0 are one score.
            let bits = (score + 0.0).to_bits();
            *run.scores.entry((step, verifier, bits, status)).or_default() +=
                ScoreCell { items: 1, latency_us, unprompted: u64::from(prompt_id.is_none()) };
            *run.latencies.entry((step, verifier, latency_bucket(latency_us))).or_default() += 1;
            if tally.attempts > 0
                && let Some(key) = group.as_ref().or(prompt_id.as_ref())
            {
                *entry(&mut run.groups, key, HashMap::new).entry(step).or_default() += tally;
            }
        }
        if let Some(prompt) = prompt_id {
            *entry(&mut run.prompts, prompt, HashMap::new).entry((step, verifier)).or_default() +=
                PromptCell { items: 1, score_sum: score, attempts: tally };
        }
    }

    /// Adds what `other` holds (a write that failed, kept for the next attempt).
    pub fn merge(&mut self, other: Pending) {
        self.detailed += other.detailed;
        self.samples.extend(other.samples);
        for (name, run) in other.runs {
            match self.runs.get_mut(&name) {
                Some(have) => have.merge(run),
                None => {
                    self.runs.insert(name, run);
                }
            }
        }
    }
}

/// One run, as `GET /v1/runs` lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RunSummary {
    pub run: String,
    /// Items recorded (every replica's).
    pub items: i64,
    pub first_step: i64,
    pub last_step: i64,
    /// When its first and latest items were written, in Unix milliseconds.
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

/// Rows per INSERT statement: at most 16 parameters each, far below SQLite's limit.
const ROWS_PER_STATEMENT: usize = 200;

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

/// Upserts `rows` in statements of [`ROWS_PER_STATEMENT`]: `head` up to `VALUES`, `columns`
/// parameters per row bound by `bind`, then `tail` (the conflict clause; empty for a plain insert).
async fn upsert<'q, R>(
    tx: &mut sqlx::AnyConnection,
    head: &str,
    columns: usize,
    tail: &str,
    rows: &'q [R],
    bind: impl Fn(AnyQuery<'q>, &'q R) -> AnyQuery<'q>,
) -> Result<(), sqlx::Error> {
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let sql = format!("{head} VALUES {} {tail}", placeholders(columns, chunk.len()));
        let query = chunk.iter().fold(sqlx::query(AssertSqlSafe(sql)), &bind);
        query.execute(&mut *tx).await?;
    }
    Ok(())
}

fn int(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

fn count(row: &sqlx::any::AnyRow, column: usize) -> Result<u64, sqlx::Error> {
    Ok(u64::try_from(row.try_get::<i64, _>(column)?).unwrap_or(0))
}

fn status(name: String) -> Status {
    // Every status written is one of ours; an unknown one reads as an error.
    serde_json::from_value(Value::String(name)).unwrap_or(Status::InternalError)
}

/// The runs tables.
#[derive(Debug, Clone)]
pub struct RunStore {
    storage: Storage,
}

impl RunStore {
    pub fn new(storage: Storage) -> RunStore {
        RunStore { storage }
    }

    /// Writes `pending` in one transaction: on failure nothing was written.
    pub(super) async fn write(&self, pending: &Pending) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let mut tx = self.storage.begin_write().await?;
        for (run, data) in &pending.runs {
            let run = run.as_str();
            let scores: Vec<_> = data.scores.iter().collect();
            upsert(
                &mut tx,
                "INSERT INTO run_scores (run, step, verifier, score, status, items, latency_us_sum, unprompted, \
                 updated_at_ms)",
                9,
                "ON CONFLICT (run, step, verifier, score, status) DO UPDATE SET \
                 items = run_scores.items + excluded.items, \
                 latency_us_sum = run_scores.latency_us_sum + excluded.latency_us_sum, \
                 unprompted = run_scores.unprompted + excluded.unprompted, updated_at_ms = excluded.updated_at_ms",
                &scores,
                |query, ((step, verifier, bits, status), cell)| {
                    query
                        .bind(run)
                        .bind(*step)
                        .bind(*verifier)
                        .bind(f64::from_bits(*bits))
                        .bind(status.as_str())
                        .bind(int(cell.items))
                        .bind(int(cell.latency_us))
                        .bind(int(cell.unprompted))
                        .bind(now)
                },
            )
            .await?;
            let latencies: Vec<_> = data.latencies.iter().collect();
            upsert(
                &mut tx,
                "INSERT INTO run_latencies (run, step, verifier, bucket, items, updated_at_ms)",
                6,
                "ON CONFLICT (run, step, verifier, bucket) DO UPDATE SET items = run_latencies.items + excluded.items, \
                 updated_at_ms = excluded.updated_at_ms",
                &latencies,
                |query, ((step, verifier, bucket), items)| {
                    query.bind(run).bind(*step).bind(*verifier).bind(*bucket).bind(int(**items)).bind(now)
                },
            )
            .await?;
            let groups: Vec<_> = data
                .groups
                .iter()
                .flat_map(|(group, steps)| steps.iter().map(move |(step, tally)| ((step, group), tally)))
                .collect();
            upsert(
                &mut tx,
                "INSERT INTO run_groups (run, step, group_id, attempts, successes, score_sum, updated_at_ms)",
                7,
                "ON CONFLICT (run, step, group_id) DO UPDATE SET attempts = run_groups.attempts + excluded.attempts, \
                 successes = run_groups.successes + excluded.successes, \
                 score_sum = run_groups.score_sum + excluded.score_sum, updated_at_ms = excluded.updated_at_ms",
                &groups,
                |query, ((step, group), tally)| {
                    query
                        .bind(run)
                        .bind(*step)
                        .bind(group.as_str())
                        .bind(int(tally.attempts))
                        .bind(int(tally.successes))
                        .bind(tally.score)
                        .bind(now)
                },
            )
            .await?;
            let prompts: Vec<_> = data
                .prompts
                .iter()
                .flat_map(|(prompt, cells)| {
                    cells.iter().map(move |((step, verifier), cell)| ((prompt, step, verifier), cell))
                })
                .collect();
            upsert(
                &mut tx,
                "INSERT INTO run_prompts (run, prompt_id, step, verifier, items, score_sum, attempts, successes, \
                 attempt_score_sum, updated_at_ms)",
                10,
                "ON CONFLICT (run, prompt_id, step, verifier) DO UPDATE SET items = run_prompts.items + excluded.items, \
                 score_sum = run_prompts.score_sum + excluded.score_sum, \
                 attempts = run_prompts.attempts + excluded.attempts, \
                 successes = run_prompts.successes + excluded.successes, \
                 attempt_score_sum = run_prompts.attempt_score_sum + excluded.attempt_score_sum, \
                 updated_at_ms = excluded.updated_at_ms",
                &prompts,
                |query, ((prompt, step, verifier), cell)| {
                    query
                        .bind(run)
                        .bind(prompt.as_str())
                        .bind(*step)
                        .bind(*verifier)
                        .bind(int(cell.items))
                        .bind(cell.score_sum)
                        .bind(int(cell.attempts.attempts))
                        .bind(int(cell.attempts.successes))
                        .bind(cell.attempts.score)
                        .bind(now)
                },
            )
            .await?;
        }
        let runs: Vec<_> = pending.runs.iter().collect();
        upsert(
            &mut tx,
            "INSERT INTO runs (run, items, first_step, last_step, created_at_ms, updated_at_ms)",
            6,
            "ON CONFLICT (run) DO UPDATE SET items = runs.items + excluded.items, \
             first_step = CASE WHEN excluded.first_step < runs.first_step THEN excluded.first_step \
             ELSE runs.first_step END, \
             last_step = CASE WHEN excluded.last_step > runs.last_step THEN excluded.last_step \
             ELSE runs.last_step END, \
             updated_at_ms = excluded.updated_at_ms",
            &runs,
            |query, (run, data)| {
                query
                    .bind(run.as_str())
                    .bind(int(data.items))
                    .bind(data.first_step)
                    .bind(data.last_step)
                    .bind(now)
                    .bind(now)
            },
        )
        .await?;
        upsert(
            &mut tx,
            "INSERT INTO run_samples (id, run, step, prompt_id, group_id, item_id, verifier, status, score, \
             latency_us, response, response_bytes, extracted, details, truncated, created_at_ms)",
            16,
            "",
            &pending.samples,
            |query, sample| {
                query
                    .bind(sample.id.as_str())
                    .bind(sample.tag.run.as_str())
                    .bind(sample.tag.step)
                    .bind(sample.tag.prompt_id.as_deref())
                    .bind(sample.tag.group.as_deref())
                    .bind(sample.item_id.as_deref())
                    .bind(sample.verifier)
                    .bind(sample.status.as_str())
                    .bind(sample.score)
                    .bind(int(sample.latency_us))
                    .bind(sample.response.as_ref().map(|r| r.text.as_str()))
                    .bind(sample.response.as_ref().map(|r| int(r.bytes as u64)))
                    .bind(sample.extracted.as_ref().map(|e| e.text.as_str()))
                    .bind(sample.details.as_str())
                    .bind(i64::from(sample.truncated))
                    .bind(now)
            },
        )
        .await?;
        tx.commit().await
    }

    /// Runs, most recently updated first.
    pub async fn list(&self, limit: i64, offset: i64) -> Result<Vec<RunSummary>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT run, items, first_step, last_step, created_at_ms, updated_at_ms FROM runs \
             ORDER BY updated_at_ms DESC, run LIMIT $1 OFFSET $2",
        )
        .bind(limit)
        .bind(offset)
        .fetch_all(self.storage.pool())
        .await?;
        rows.iter().map(summary).collect()
    }

    /// One run, when any of its items was written.
    pub async fn get(&self, run: &str) -> Result<Option<RunSummary>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT run, items, first_step, last_step, created_at_ms, updated_at_ms FROM runs WHERE run = $1",
        )
        .bind(run)
        .fetch_optional(self.storage.pool())
        .await?;
        row.as_ref().map(summary).transpose()
    }

    /// Every (prompt, step) count of a run with at least one attempt, over its verifiers.
    pub async fn prompt_steps(&self, run: &str) -> Result<Vec<PromptStep>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT prompt_id, step, CAST(SUM(attempts) AS BIGINT), CAST(SUM(successes) AS BIGINT), \
             SUM(attempt_score_sum) FROM run_prompts WHERE run = $1 \
             GROUP BY prompt_id, step HAVING SUM(attempts) > 0",
        )
        .bind(run)
        .fetch_all(self.storage.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(PromptStep {
                    prompt_id: row.try_get(0)?,
                    step: row.try_get(1)?,
                    attempts: count(row, 2)?,
                    successes: count(row, 3)?,
                    score_sum: row.try_get(4)?,
                })
            })
            .collect()
    }

    /// The stored rows the statistics of a run from `from` to `to` (steps, inclusive) are read from.
    pub async fn count_rows(&self, run: &str, from: i64, to: i64) -> Result<i64, sqlx::Error> {
        sqlx::query(
            "SELECT CAST((SELECT COUNT(*) FROM run_scores WHERE run = $1 AND step >= $2 AND step <= $3) \
             + (SELECT COUNT(*) FROM run_latencies WHERE run = $1 AND step >= $2 AND step <= $3) \
             + (SELECT COUNT(*) FROM run_groups WHERE run = $1 AND step >= $2 AND step <= $3) \
             + (SELECT COUNT(*) FROM run_prompts WHERE run = $1 AND step >= $2 AND step <= $3) AS BIGINT)",
        )
        .bind(run)
        .bind(from)
        .bind(to)
        .fetch_one(self.storage.pool())
        .await?
        .try_get(0)
    }

    /// A run's items per verifier and status from `from` to `to` (steps, inclusive), with their
    /// summed score.
    pub async fn totals(&self, run: &str, from: i64, to: i64) -> Result<Vec<StatusTotal>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT verifier, status, CAST(SUM(items) AS BIGINT), SUM(score * items) FROM run_scores \
             WHERE run = $1 AND step >= $2 AND step <= $3 GROUP BY verifier, status",
        )
        .bind(run)
        .bind(from)
        .bind(to)
        .fetch_all(self.storage.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StatusTotal {
                    verifier: row.try_get(0)?,
                    status: status(row.try_get(1)?),
                    items: count(row, 2)?,
                    score_sum: row.try_get(3)?,
                })
            })
            .collect()
    }

    /// What the statistics of a run from `from` to `to` (steps, inclusive) are computed from.
    pub async fn rows(&self, run: &str, from: i64, to: i64) -> Result<RunRows, sqlx::Error> {
        let pool = self.storage.pool();
        let select = |sql: &'static str| sqlx::query(sql).bind(run).bind(from).bind(to).fetch_all(pool);
        let scores = select(
            "SELECT step, verifier, score, status, items, latency_us_sum, unprompted FROM run_scores \
             WHERE run = $1 AND step >= $2 AND step <= $3",
        )
        .await?;
        let latencies = select(
            "SELECT step, verifier, bucket, items FROM run_latencies WHERE run = $1 AND step >= $2 AND step <= $3",
        )
        .await?;
        let groups = select(
            "SELECT step, attempts, successes, score_sum FROM run_groups WHERE run = $1 AND step >= $2 AND step <= $3",
        )
        .await?;
        // Ordered by prompt, so the seeded bootstrap draws the same units every time.
        let prompts = select(
            "SELECT verifier, CAST(SUM(items) AS BIGINT), SUM(score_sum), CAST(SUM(attempts) AS BIGINT), \
             CAST(SUM(successes) AS BIGINT) FROM run_prompts WHERE run = $1 AND step >= $2 AND step <= $3 \
             GROUP BY prompt_id, verifier ORDER BY prompt_id, verifier",
        )
        .await?;
        Ok(RunRows {
            scores: scores
                .iter()
                .map(|row| {
                    Ok(ScoreRow {
                        step: row.try_get(0)?,
                        verifier: row.try_get(1)?,
                        score: row.try_get(2)?,
                        status: status(row.try_get(3)?),
                        items: count(row, 4)?,
                        latency_us: count(row, 5)?,
                        unprompted: count(row, 6)?,
                    })
                })
                .collect::<Result<_, sqlx::Error>>()?,
            latencies: latencies
                .iter()
                .map(|row| {
                    Ok(LatencyRow {
                        step: row.try_get(0)?,
                        verifier: row.try_get(1)?,
                        bucket: row.try_get(2)?,
                        items: count(row, 3)?,
                    })
                })
                .collect::<Result<_, sqlx::Error>>()?,
            groups: groups
                .iter()
                .map(|row| {
                    Ok(GroupRow {
                        step: row.try_get(0)?,
                        tally: Tally { attempts: count(row, 1)?, successes: count(row, 2)?, score: row.try_get(3)? },
                    })
                })
                .collect::<Result<_, sqlx::Error>>()?,
            prompts: prompts
                .iter()
                .map(|row| {
                    Ok(PromptRow {
                        verifier: row.try_get(0)?,
                        items: count(row, 1)?,
                        score_sum: row.try_get(2)?,
                        attempts: count(row, 3)?,
                        successes: count(row, 4)?,
                    })
                })
                .collect::<Result<_, sqlx::Error>>()?,
        })
    }
}

/// Which of a run's samples to read: steps `from` to `to` (inclusive), and optionally one
/// verifier, status or prompt.
#[derive(Debug, Clone, Default)]
pub struct SampleFilter {
    pub from: i64,
    pub to: i64,
    pub verifier: Option<String>,
    pub status: Option<Status>,
    pub prompt_id: Option<String>,
}

impl SampleFilter {
    /// The WHERE clause (run `$1`, steps `$2` and `$3`, then the optional filters) and the
    /// filters' values in order.
    fn clause(&self) -> (String, Vec<&str>) {
        let mut sql = "run = $1 AND step >= $2 AND step <= $3".to_owned();
        let mut values = Vec::new();
        for (column, value) in [
            ("verifier", self.verifier.as_deref()),
            ("status", self.status.map(Status::as_str)),
            ("prompt_id", self.prompt_id.as_deref()),
        ] {
            if let Some(value) = value {
                values.push(value);
                sql.push_str(&format!(" AND {column} = ${}", values.len() + 3));
            }
        }
        (sql, values)
    }
}

impl RunStore {
    /// The samples of `run` that pass `filter`, latest step first (newest first within a step),
    /// at most `limit` after skipping `offset`, and how many pass it in all.
    pub async fn samples(
        &self,
        run: &str,
        filter: &SampleFilter,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<RunSample>, u64), sqlx::Error> {
        let (clause, values) = filter.clause();
        let bind = |sql: String| {
            let query = sqlx::query(AssertSqlSafe(sql)).bind(run).bind(filter.from).bind(filter.to);
            values.iter().fold(query, |query, value| query.bind(*value))
        };
        let total = bind(format!("SELECT COUNT(*) FROM run_samples WHERE {clause}"))
            .fetch_one(self.storage.pool())
            .await
            .and_then(|row| count(&row, 0))?;
        let next = values.len() + 4;
        let rows = bind(format!(
            "SELECT id, step, prompt_id, group_id, item_id, verifier, status, score, latency_us, response, \
             response_bytes, extracted, details, truncated, created_at_ms FROM run_samples WHERE {clause} \
             ORDER BY step DESC, created_at_ms DESC, id LIMIT ${next} OFFSET ${}",
            next + 1
        ))
        .bind(limit)
        .bind(offset)
        .fetch_all(self.storage.pool())
        .await?;
        let samples = rows
            .iter()
            .map(|row| {
                let details: String = row.try_get(12)?;
                Ok(RunSample {
                    id: row.try_get(0)?,
                    step: row.try_get(1)?,
                    prompt_id: row.try_get(2)?,
                    group: row.try_get(3)?,
                    item_id: row.try_get(4)?,
                    verifier: row.try_get(5)?,
                    status: status(row.try_get(6)?),
                    score: row.try_get(7)?,
                    latency_us: row.try_get(8)?,
                    response: row.try_get(9)?,
                    response_bytes: row.try_get(10)?,
                    extracted: row.try_get(11)?,
                    details: serde_json::from_str(&details).unwrap_or_default(),
                    truncated: row.try_get::<i64, _>(13)? != 0,
                    created_at_ms: row.try_get(14)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok((samples, total))
    }
}

fn summary(row: &sqlx::any::AnyRow) -> Result<RunSummary, sqlx::Error> {
    Ok(RunSummary {
        run: row.try_get(0)?,
        items: row.try_get(1)?,
        first_step: row.try_get(2)?,
        last_step: row.try_get(3)?,
        created_at_ms: row.try_get(4)?,
        updated_at_ms: row.try_get(5)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_merge_into_one_row_per_key() {
        let mut pending = Pending::default();
        let tag = |step, prompt: Option<&str>| RunTag {
            run: "r".to_owned(),
            step,
            prompt_id: prompt.map(str::to_owned),
            group: None,
        };
        for _ in 0..3 {
            pending.add(&tag(1, Some("p")), "math", 1.0, Status::Correct, 100, true);
        }
        pending.add(&tag(1, Some("p")), "math", -0.0, Status::Incorrect, 100, true);
        pending.add(&tag(1, Some("p")), "math", 0.0, Status::Incorrect, 100, true);
        pending.add(&tag(2, None), "math", 0.0, Status::InternalError, 100, false);
        let run = &pending.runs["r"];
        assert_eq!((run.items, run.first_step, run.last_step), (6, 1, 2));
        assert_eq!(run.scores.len(), 2, "0.0 and -0.0 are one score; the last item kept no statistics");
        assert_eq!(run.scores[&(1, "math", 1.0_f64.to_bits(), Status::Correct)].items, 3);
        assert_eq!(run.groups["p"][&1], Tally { attempts: 5, successes: 3, score: 3.0 });
        assert_eq!(pending.detailed, 5);
        let mut other = Pending::default();
        other.add(&tag(1, Some("p")), "math", 1.0, Status::Correct, 100, true);
        pending.merge(other);
        assert_eq!(pending.runs["r"].scores[&(1, "math", 1.0_f64.to_bits(), Status::Correct)].items, 4);
        assert_eq!(pending.runs["r"].prompts["p"][&(1, "math")].attempts.attempts, 6);
    }
}
