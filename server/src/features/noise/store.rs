//! Noise settings, tallies and overturns in the database (SQLite or PostgreSQL).

use std::collections::HashMap;

use referee_core::Status;
use referee_noise::VerdictTally;
use serde::Serialize;
use serde_json::Value;
use sqlx::{AnyConnection, Row};
use utoipa::ToSchema;

use super::{NoiseKey, NoiseSettings};
use crate::store::{Storage, now_ms};

/// Which tally: gold-labelled audits or online appeals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TallyKind {
    Audit,
    Appeal,
}

impl TallyKind {
    fn as_str(self) -> &'static str {
        match self {
            TallyKind::Audit => "audit",
            TallyKind::Appeal => "appeal",
        }
    }
}

/// An overturned verdict waiting to be written.
#[derive(Debug, Clone)]
pub(super) struct OverturnRow {
    pub key: NoiseKey,
    pub item_id: Option<String>,
    pub verdict_status: Status,
    pub verdict_score: f64,
    pub checker: String,
    pub checker_status: Status,
    pub checker_score: f64,
    pub checker_details: String,
    pub input: String,
}

/// A verdict the appeal checker overturned.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Overturn {
    /// The item's `id`, when it had one.
    pub item_id: Option<String>,
    /// The verifier's verdict.
    pub verdict: AppealedVerdict,
    /// The checker's verdict, which disagrees.
    pub checker: AppealedVerdict,
    /// The input the verifier judged (the checker saw it with the appeal's input patch).
    #[schema(value_type = Object)]
    pub input: Value,
    /// When the overturn was recorded, in Unix milliseconds.
    pub created_at_ms: i64,
}

/// One side of an overturn.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AppealedVerdict {
    /// The verifier that gave it.
    pub verifier: String,
    pub status: Status,
    pub score: f64,
    /// The checker's details (absent for the verifier's side, which the response carried).
    #[schema(value_type = Option<Object>)]
    pub details: Option<Value>,
}

/// Recent overturns, newest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OverturnList {
    pub overturns: Vec<Overturn>,
}

/// Everything stored about noise models, as [`NoiseStore::load`] reads it.
#[derive(Debug, Default)]
pub(super) struct Stored {
    pub settings: Vec<(NoiseKey, NoiseSettings)>,
    /// Counts per model, kind and step.
    pub counts: Vec<(NoiseKey, TallyKind, u64, VerdictTally)>,
    /// The current step of each model that has one (0 otherwise).
    pub steps: Vec<(NoiseKey, u64)>,
}

/// The noise tables.
#[derive(Debug, Clone)]
pub struct NoiseStore {
    storage: Storage,
}

const TALLY_COLUMNS: &str = "observed_positive, observed_negative, checked_positive, overturned_positive, \
                             checked_negative, overturned_negative";

fn counts(tally: &VerdictTally) -> [i64; 6] {
    tally.counts().map(|count| i64::try_from(count).unwrap_or(i64::MAX))
}

fn tally_from_row(row: &sqlx::any::AnyRow, first: usize) -> Result<VerdictTally, sqlx::Error> {
    let get =
        |i: usize| -> Result<u64, sqlx::Error> { Ok(u64::try_from(row.try_get::<i64, _>(first + i)?).unwrap_or(0)) };
    Ok(VerdictTally {
        observed_positive: get(0)?,
        observed_negative: get(1)?,
        checked_positive: get(2)?,
        overturned_positive: get(3)?,
        checked_negative: get(4)?,
        overturned_negative: get(5)?,
    })
}

fn parse_status(name: &str) -> Status {
    serde_json::from_value(Value::String(name.to_owned())).unwrap_or(Status::InternalError)
}

impl NoiseStore {
    pub fn new(storage: Storage) -> NoiseStore {
        NoiseStore { storage }
    }

    /// Every stored setting, per-step count and current step.
    pub(super) async fn load(&self) -> Result<Stored, sqlx::Error> {
        let pool = self.storage.pool();
        let mut stored = Stored::default();
        for row in sqlx::query("SELECT verifier, verifier_version, label, settings FROM noise_settings")
            .fetch_all(pool)
            .await?
        {
            let key = NoiseKey { verifier: row.try_get(0)?, version: row.try_get(1)?, label: row.try_get(2)? };
            let text: String = row.try_get(3)?;
            match serde_json::from_str(&text) {
                Ok(value) => stored.settings.push((key, value)),
                Err(error) => tracing::warn!(%error, verifier = key.verifier, "ignoring unreadable noise settings"),
            }
        }
        let sql = format!("SELECT verifier, verifier_version, label, kind, step, {TALLY_COLUMNS} FROM noise_counts");
        for row in sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await? {
            let key = NoiseKey { verifier: row.try_get(0)?, version: row.try_get(1)?, label: row.try_get(2)? };
            let kind = match row.try_get::<String, _>(3)?.as_str() {
                "audit" => TallyKind::Audit,
                _ => TallyKind::Appeal,
            };
            let step = u64::try_from(row.try_get::<i64, _>(4)?).unwrap_or(0);
            stored.counts.push((key, kind, step, tally_from_row(&row, 5)?));
        }
        for row in
            sqlx::query("SELECT verifier, verifier_version, label, step FROM noise_steps").fetch_all(pool).await?
        {
            let key = NoiseKey { verifier: row.try_get(0)?, version: row.try_get(1)?, label: row.try_get(2)? };
            stored.steps.push((key, u64::try_from(row.try_get::<i64, _>(3)?).unwrap_or(0)));
        }
        Ok(stored)
    }

    /// Moves a model's current step forward to `step`; a smaller step leaves it as it is, so a
    /// retried call and replicas racing each other are harmless.
    pub(super) async fn advance_step(&self, key: &NoiseKey, step: u64) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO noise_steps (verifier, verifier_version, label, step, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (verifier, verifier_version, label) DO UPDATE SET \
             step = CASE WHEN excluded.step > noise_steps.step THEN excluded.step ELSE noise_steps.step END, \
             updated_at_ms = excluded.updated_at_ms",
        )
        .bind(&key.verifier)
        .bind(&key.version)
        .bind(&key.label)
        .bind(i64::try_from(step).unwrap_or(i64::MAX))
        .bind(now_ms())
        .execute(self.storage.pool())
        .await?;
        Ok(())
    }

    /// Stores a model's settings, replacing earlier ones.
    pub(super) async fn put_settings(&self, key: &NoiseKey, settings: &NoiseSettings) -> Result<(), sqlx::Error> {
        let text = serde_json::to_string(settings).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        sqlx::query(
            "INSERT INTO noise_settings (verifier, verifier_version, label, settings, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (verifier, verifier_version, label) \
             DO UPDATE SET settings = excluded.settings, updated_at_ms = excluded.updated_at_ms",
        )
        .bind(&key.verifier)
        .bind(&key.version)
        .bind(&key.label)
        .bind(text)
        .bind(now_ms())
        .execute(self.storage.pool())
        .await?;
        Ok(())
    }

    /// Removes a model's settings, tallies and overturns.
    pub(super) async fn delete(&self, key: &NoiseKey) -> Result<(), sqlx::Error> {
        let mut tx = self.storage.begin_write().await?;
        for table in ["noise_settings", "noise_counts", "noise_steps", "noise_overturns"] {
            let sql = format!("DELETE FROM {table} WHERE verifier = $1 AND verifier_version = $2 AND label = $3");
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(&key.verifier)
                .bind(&key.version)
                .bind(&key.label)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await
    }

    /// Adds counts to the current step's tally (creating it), or replaces every step's tally
    /// of that kind when `replace`.
    pub(super) async fn add_tally(
        &self,
        key: &NoiseKey,
        kind: TallyKind,
        tally: &VerdictTally,
        replace: bool,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.storage.begin_write().await?;
        if replace {
            sqlx::query(
                "DELETE FROM noise_counts WHERE verifier = $1 AND verifier_version = $2 AND label = $3 AND kind = $4",
            )
            .bind(&key.verifier)
            .bind(&key.version)
            .bind(&key.label)
            .bind(kind.as_str())
            .execute(&mut *tx)
            .await?;
        }
        let step: Option<i64> = sqlx::query_scalar(
            "SELECT step FROM noise_steps WHERE verifier = $1 AND verifier_version = $2 AND label = $3",
        )
        .bind(&key.verifier)
        .bind(&key.version)
        .bind(&key.label)
        .fetch_optional(&mut *tx)
        .await?;
        let step = step.and_then(|s| u64::try_from(s).ok()).unwrap_or(0);
        add_tally(&mut tx, key, kind, step, tally).await?;
        tx.commit().await
    }

    /// Adds appeal tallies (each to its step's bucket) and inserts overturns in one
    /// transaction, then keeps only the newest `keep` overturns of each model that got new ones.
    pub(super) async fn write_pending(
        &self,
        tallies: &HashMap<(NoiseKey, u64), VerdictTally>,
        overturns: &[OverturnRow],
        keep: u32,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.storage.begin_write().await?;
        for ((key, step), tally) in tallies {
            add_tally(&mut tx, key, TallyKind::Appeal, *step, tally).await?;
        }
        let now = now_ms();
        for row in overturns {
            sqlx::query(
                "INSERT INTO noise_overturns (verifier, verifier_version, label, item_id, verdict_status, \
                 verdict_score, checker, checker_status, checker_score, checker_details, input, created_at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            )
            .bind(&row.key.verifier)
            .bind(&row.key.version)
            .bind(&row.key.label)
            .bind(row.item_id.as_deref())
            .bind(row.verdict_status.as_str())
            .bind(row.verdict_score)
            .bind(&row.checker)
            .bind(row.checker_status.as_str())
            .bind(row.checker_score)
            .bind(&row.checker_details)
            .bind(&row.input)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let mut pruned: Vec<&NoiseKey> = overturns.iter().map(|row| &row.key).collect();
        pruned.sort_by(|a, b| (&a.verifier, &a.version, &a.label).cmp(&(&b.verifier, &b.version, &b.label)));
        pruned.dedup();
        for key in pruned {
            sqlx::query(
                "DELETE FROM noise_overturns WHERE verifier = $1 AND verifier_version = $2 AND label = $3 \
                 AND created_at_ms < (SELECT created_at_ms FROM noise_overturns \
                 WHERE verifier = $1 AND verifier_version = $2 AND label = $3 \
                 ORDER BY created_at_ms DESC LIMIT 1 OFFSET $4)",
            )
            .bind(&key.verifier)
            .bind(&key.version)
            .bind(&key.label)
            .bind(i64::from(keep))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }

    /// The newest overturns of a model.
    pub(super) async fn overturns(&self, key: &NoiseKey, limit: u32) -> Result<OverturnList, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT item_id, verdict_status, verdict_score, checker, checker_status, checker_score, \
             checker_details, input, created_at_ms FROM noise_overturns \
             WHERE verifier = $1 AND verifier_version = $2 AND label = $3 \
             ORDER BY created_at_ms DESC LIMIT $4",
        )
        .bind(&key.verifier)
        .bind(&key.version)
        .bind(&key.label)
        .bind(i64::from(limit))
        .fetch_all(self.storage.pool())
        .await?;
        let mut overturns = Vec::with_capacity(rows.len());
        for row in rows {
            let details: String = row.try_get(6)?;
            let input: String = row.try_get(7)?;
            overturns.push(Overturn {
                item_id: row.try_get(0)?,
                verdict: AppealedVerdict {
                    verifier: key.verifier.clone(),
                    status: parse_status(&row.try_get::<String, _>(1)?),
                    score: row.try_get(2)?,
                    details: None,
                },
                checker: AppealedVerdict {
                    verifier: row.try_get(3)?,
                    status: parse_status(&row.try_get::<String, _>(4)?),
                    score: row.try_get(5)?,
                    details: serde_json::from_str(&details).ok(),
                },
                input: serde_json::from_str(&input).unwrap_or(Value::String(input)),
                created_at_ms: row.try_get(8)?,
            });
        }
        Ok(OverturnList { overturns })
    }
}

/// Adds counts to a step's tally in one upsert, so concurrent replicas never lose each other's
/// counts.
async fn add_tally(
    conn: &mut AnyConnection,
    key: &NoiseKey,
    kind: TallyKind,
    step: u64,
    tally: &VerdictTally,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "INSERT INTO noise_counts (verifier, verifier_version, label, kind, step, {TALLY_COLUMNS}, updated_at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
         ON CONFLICT (verifier, verifier_version, label, kind, step) DO UPDATE SET \
         observed_positive = noise_counts.observed_positive + excluded.observed_positive, \
         observed_negative = noise_counts.observed_negative + excluded.observed_negative, \
         checked_positive = noise_counts.checked_positive + excluded.checked_positive, \
         overturned_positive = noise_counts.overturned_positive + excluded.overturned_positive, \
         checked_negative = noise_counts.checked_negative + excluded.checked_negative, \
         overturned_negative = noise_counts.overturned_negative + excluded.overturned_negative, \
         updated_at_ms = excluded.updated_at_ms"
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(&key.verifier)
        .bind(&key.version)
        .bind(&key.label)
        .bind(kind.as_str())
        .bind(i64::try_from(step).unwrap_or(i64::MAX));
    for count in counts(tally) {
        query = query.bind(count);
    }
    query.bind(now_ms()).execute(conn).await?;
    Ok(())
}
