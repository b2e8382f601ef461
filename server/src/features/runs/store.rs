//! Runs in the database: recorded items, per-prompt counts per step, and one row per run.

use std::collections::HashMap;

use referee_core::Status;
use serde::Serialize;
use serde_json::Value;
use sqlx::{AssertSqlSafe, Row};
use utoipa::ToSchema;

use super::prompts::PromptStep;
use super::stats::ItemRow;
use crate::store::{Storage, now_ms, placeholders};

/// An item waiting to be written.
#[derive(Debug, Clone)]
pub(super) struct PendingItem {
    pub run: String,
    pub step: i64,
    pub prompt_id: Option<String>,
    pub group: Option<String>,
    pub verifier: &'static str,
    pub score: f64,
    pub status: Status,
    pub latency_us: i64,
}

/// Counts added to one (run, prompt, step).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Counts {
    pub attempts: u64,
    pub successes: u64,
    pub score_sum: f64,
}

/// Items added to one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RunDelta {
    pub items: u64,
    pub first_step: i64,
    pub last_step: i64,
}

/// Everything recorded since the last write.
#[derive(Debug, Default)]
pub(super) struct Pending {
    pub items: Vec<PendingItem>,
    pub prompts: HashMap<(String, String, i64), Counts>,
    pub runs: HashMap<String, RunDelta>,
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.prompts.is_empty() && self.runs.is_empty()
    }

    /// Adds what `other` holds (a write that failed, kept for the next attempt).
    pub fn merge(&mut self, other: Pending) {
        self.items.extend(other.items);
        for (key, counts) in other.prompts {
            let entry = self.prompts.entry(key).or_default();
            entry.attempts += counts.attempts;
            entry.successes += counts.successes;
            entry.score_sum += counts.score_sum;
        }
        for (run, delta) in other.runs {
            self.add_run(run, delta);
        }
    }

    pub fn add_run(&mut self, run: String, delta: RunDelta) {
        self.runs
            .entry(run)
            .and_modify(|have| {
                have.items += delta.items;
                have.first_step = have.first_step.min(delta.first_step);
                have.last_step = have.last_step.max(delta.last_step);
            })
            .or_insert(delta);
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

/// Rows per INSERT statement: 9 parameters each, far below SQLite's limit.
const ROWS_PER_STATEMENT: usize = 200;

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
        let mut tx = self.storage.pool().begin().await?;
        for chunk in pending.items.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO run_items (run, step, prompt_id, group_id, verifier, score, status, latency_us, \
                 created_at_ms) VALUES {}",
                placeholders(9, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for item in chunk {
                query = query
                    .bind(item.run.as_str())
                    .bind(item.step)
                    .bind(item.prompt_id.as_deref())
                    .bind(item.group.as_deref())
                    .bind(item.verifier)
                    .bind(item.score)
                    .bind(item.status.as_str())
                    .bind(item.latency_us)
                    .bind(now);
            }
            query.execute(&mut *tx).await?;
        }
        let prompts: Vec<(&(String, String, i64), &Counts)> = pending.prompts.iter().collect();
        for chunk in prompts.chunks(ROWS_PER_STATEMENT) {
            // Adds to the counts another replica (or an earlier write) made.
            let sql = format!(
                "INSERT INTO run_prompt_steps (run, prompt_id, step, attempts, successes, score_sum, updated_at_ms) \
                 VALUES {} ON CONFLICT (run, prompt_id, step) DO UPDATE SET \
                 attempts = run_prompt_steps.attempts + excluded.attempts, \
                 successes = run_prompt_steps.successes + excluded.successes, \
                 score_sum = run_prompt_steps.score_sum + excluded.score_sum, \
                 updated_at_ms = excluded.updated_at_ms",
                placeholders(7, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for ((run, prompt, step), counts) in chunk {
                query = query
                    .bind(run.as_str())
                    .bind(prompt.as_str())
                    .bind(*step)
                    .bind(i64::try_from(counts.attempts).unwrap_or(i64::MAX))
                    .bind(i64::try_from(counts.successes).unwrap_or(i64::MAX))
                    .bind(counts.score_sum)
                    .bind(now);
            }
            query.execute(&mut *tx).await?;
        }
        let runs: Vec<(&String, &RunDelta)> = pending.runs.iter().collect();
        for chunk in runs.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO runs (run, items, first_step, last_step, created_at_ms, updated_at_ms) VALUES {} \
                 ON CONFLICT (run) DO UPDATE SET items = runs.items + excluded.items, \
                 first_step = CASE WHEN excluded.first_step < runs.first_step THEN excluded.first_step \
                 ELSE runs.first_step END, \
                 last_step = CASE WHEN excluded.last_step > runs.last_step THEN excluded.last_step \
                 ELSE runs.last_step END, \
                 updated_at_ms = excluded.updated_at_ms",
                placeholders(6, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (run, delta) in chunk {
                query = query
                    .bind(run.as_str())
                    .bind(i64::try_from(delta.items).unwrap_or(i64::MAX))
                    .bind(delta.first_step)
                    .bind(delta.last_step)
                    .bind(now)
                    .bind(now);
            }
            query.execute(&mut *tx).await?;
        }
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

    /// Every (prompt, step) count of a run.
    pub async fn prompt_steps(&self, run: &str) -> Result<Vec<PromptStep>, sqlx::Error> {
        let rows =
            sqlx::query("SELECT prompt_id, step, attempts, successes, score_sum FROM run_prompt_steps WHERE run = $1")
                .bind(run)
                .fetch_all(self.storage.pool())
                .await?;
        rows.iter()
            .map(|row| {
                Ok(PromptStep {
                    prompt_id: row.try_get(0)?,
                    step: row.try_get(1)?,
                    attempts: u64::try_from(row.try_get::<i64, _>(2)?).unwrap_or(0),
                    successes: u64::try_from(row.try_get::<i64, _>(3)?).unwrap_or(0),
                    score_sum: row.try_get(4)?,
                })
            })
            .collect()
    }

    /// Items of a run from `from` to `to` (steps, inclusive).
    pub async fn count_items(&self, run: &str, from: i64, to: i64) -> Result<i64, sqlx::Error> {
        sqlx::query("SELECT COUNT(*) FROM run_items WHERE run = $1 AND step >= $2 AND step <= $3")
            .bind(run)
            .bind(from)
            .bind(to)
            .fetch_one(self.storage.pool())
            .await?
            .try_get(0)
    }

    /// The items of a run from `from` to `to` (steps, inclusive).
    pub async fn items(&self, run: &str, from: i64, to: i64) -> Result<Vec<ItemRow>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT step, prompt_id, group_id, verifier, score, status, latency_us FROM run_items \
             WHERE run = $1 AND step >= $2 AND step <= $3",
        )
        .bind(run)
        .bind(from)
        .bind(to)
        .fetch_all(self.storage.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let status: String = row.try_get(5)?;
                Ok(ItemRow {
                    step: row.try_get(0)?,
                    prompt_id: row.try_get(1)?,
                    group: row.try_get(2)?,
                    verifier: row.try_get(3)?,
                    score: row.try_get(4)?,
                    // Every status written is one of ours; an unknown one reads as an error.
                    status: serde_json::from_value(Value::String(status)).unwrap_or(Status::InternalError),
                    latency_us: row.try_get(6)?,
                })
            })
            .collect()
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
