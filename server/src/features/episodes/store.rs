//! Episode rows and their steps in the database: written as an episode goes, read back by any
//! replica.

use serde::Serialize;
use serde_json::Value;
use sqlx::Row;
use utoipa::ToSchema;

use crate::store::{Storage, now_ms};

/// How an episode stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EpisodeStatus {
    /// Taking actions, on the replica that started it.
    Live,
    /// The environment ended it.
    Done,
    /// The client closed it.
    Closed,
    /// No step came within `episodes.idle_timeout_ms`.
    Expired,
    /// It reached `episodes.max_turns`.
    TurnLimit,
}

impl EpisodeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            EpisodeStatus::Live => "live",
            EpisodeStatus::Done => "done",
            EpisodeStatus::Closed => "closed",
            EpisodeStatus::Expired => "expired",
            EpisodeStatus::TurnLimit => "turn_limit",
        }
    }

    fn parse(text: &str) -> EpisodeStatus {
        match text {
            "done" => EpisodeStatus::Done,
            "closed" => EpisodeStatus::Closed,
            "expired" => EpisodeStatus::Expired,
            "turn_limit" => EpisodeStatus::TurnLimit,
            _ => EpisodeStatus::Live,
        }
    }
}

/// One step of a transcript; turn 0 is the first observation.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoredStep {
    pub turn: u32,
    /// The action (absent for turn 0).
    #[schema(value_type = Option<Object>)]
    pub action: Option<Value>,
    #[schema(value_type = Object)]
    pub observation: Value,
    pub reward: f64,
    pub done: bool,
    /// Time the environment took, in microseconds.
    pub elapsed_us: u64,
    pub at_ms: i64,
}

/// An episode as the database holds it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StoredEpisode {
    pub episode_id: String,
    pub environment: String,
    /// The replica holding (or that held) the episode's state.
    pub replica: String,
    pub status: EpisodeStatus,
    /// Actions taken.
    pub turns: u32,
    pub total_reward: f64,
    #[schema(value_type = Object)]
    pub options: Value,
    pub created_at_ms: i64,
    pub ended_at_ms: Option<i64>,
}

/// Episode rows over the server's database.
#[derive(Debug, Clone)]
pub struct EpisodeStore {
    storage: Storage,
}

fn json_of(text: Option<String>) -> Option<Value> {
    text.map(|text| serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

fn count(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

impl EpisodeStore {
    pub fn new(storage: Storage) -> EpisodeStore {
        EpisodeStore { storage }
    }

    /// Records a new episode with its first observation as turn 0.
    pub async fn create(
        &self,
        id: &str,
        environment: &str,
        replica: &str,
        options: &Value,
        observation: &Value,
        elapsed_us: u64,
    ) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let mut tx = self.storage.begin_write().await?;
        sqlx::query(
            "INSERT INTO episodes (id, environment, replica, options, status, turns, total_reward, created_at_ms, \
             updated_at_ms) VALUES ($1, $2, $3, $4, 'live', 0, 0, $5, $6)",
        )
        .bind(id)
        .bind(environment)
        .bind(replica)
        .bind(options.to_string())
        .bind(now)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        insert_step(&mut tx, id, 0, None, observation, 0.0, false, elapsed_us, now).await?;
        tx.commit().await
    }

    /// Records one step and the episode's new totals (and its end, when `ended` says how).
    #[allow(clippy::too_many_arguments, reason = "one row's columns")]
    pub async fn record_step(
        &self,
        id: &str,
        turn: u32,
        action: &Value,
        observation: &Value,
        reward: f64,
        done: bool,
        elapsed_us: u64,
        total_reward: f64,
        ended: Option<EpisodeStatus>,
    ) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let mut tx = self.storage.begin_write().await?;
        insert_step(&mut tx, id, turn, Some(action), observation, reward, done, elapsed_us, now).await?;
        let status = ended.unwrap_or(EpisodeStatus::Live);
        sqlx::query(
            "UPDATE episodes SET turns = $1, total_reward = $2, status = $3, updated_at_ms = $4, ended_at_ms = $5 \
             WHERE id = $6",
        )
        .bind(i64::from(turn))
        .bind(total_reward)
        .bind(status.as_str())
        .bind(now)
        .bind(ended.map(|_| now))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await
    }

    /// Marks a live episode ended (closed, expired); an ended one keeps how it ended.
    pub async fn end(&self, id: &str, status: EpisodeStatus) -> Result<(), sqlx::Error> {
        let now = now_ms();
        sqlx::query(
            "UPDATE episodes SET status = $1, updated_at_ms = $2, ended_at_ms = $3 WHERE id = $4 AND status = 'live'",
        )
        .bind(status.as_str())
        .bind(now)
        .bind(now)
        .bind(id)
        .execute(self.storage.pool())
        .await
        .map(drop)
    }

    /// The episode's row, if there is one.
    pub async fn get(&self, id: &str) -> Result<Option<StoredEpisode>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT id, environment, replica, options, status, turns, total_reward, created_at_ms, ended_at_ms \
             FROM episodes WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.storage.pool())
        .await?;
        row.map(|row| {
            Ok(StoredEpisode {
                episode_id: row.try_get(0)?,
                environment: row.try_get(1)?,
                replica: row.try_get(2)?,
                options: json_of(Some(row.try_get(3)?)).unwrap_or(Value::Null),
                status: EpisodeStatus::parse(&row.try_get::<String, _>(4)?),
                turns: count(row.try_get(5)?),
                total_reward: row.try_get(6)?,
                created_at_ms: row.try_get(7)?,
                ended_at_ms: row.try_get(8)?,
            })
        })
        .transpose()
    }

    /// The episode's steps in order.
    pub async fn steps(&self, id: &str) -> Result<Vec<StoredStep>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT turn, action, observation, reward, done, elapsed_us, at_ms FROM episode_steps \
             WHERE episode_id = $1 ORDER BY turn",
        )
        .bind(id)
        .fetch_all(self.storage.pool())
        .await?;
        rows.into_iter()
            .map(|row| {
                Ok(StoredStep {
                    turn: count(row.try_get(0)?),
                    action: json_of(row.try_get(1)?),
                    observation: json_of(Some(row.try_get(2)?)).unwrap_or(Value::Null),
                    reward: row.try_get(3)?,
                    done: row.try_get::<i64, _>(4)? != 0,
                    elapsed_us: u64::try_from(row.try_get::<i64, _>(5)?).unwrap_or(0),
                    at_ms: row.try_get(6)?,
                })
            })
            .collect()
    }
}

#[allow(clippy::too_many_arguments, reason = "one row's columns")]
async fn insert_step(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    turn: u32,
    action: Option<&Value>,
    observation: &Value,
    reward: f64,
    done: bool,
    elapsed_us: u64,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO episode_steps (episode_id, turn, action, observation, reward, done, elapsed_us, at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(i64::from(turn))
    .bind(action.map(Value::to_string))
    .bind(observation.to_string())
    .bind(reward)
    .bind(i64::from(done))
    .bind(i64::try_from(elapsed_us).unwrap_or(i64::MAX))
    .bind(at_ms)
    .execute(&mut **tx)
    .await
    .map(drop)
}
