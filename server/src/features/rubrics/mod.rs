//! Stored rubrics and the judge's reply cache in the database, for `/v1/rubrics` and for the
//! `rubric` reward model (through [`referee_rubric::RubricStore`] and
//! [`referee_rubric::JudgeCache`]).

pub(crate) mod handlers;
use futures::FutureExt as _;
use futures::future::BoxFuture;
use referee_rubric::{JudgeCache, RubricDefinition, RubricStore, StoreError};
use sqlx::Row;

use crate::store::{Storage, now_ms};

/// One stored version of a rubric.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRubric {
    pub id: String,
    pub version: u32,
    pub created_at_ms: i64,
    pub definition: RubricDefinition,
}

/// What a write may run into besides the database failing.
#[derive(Debug, thiserror::Error)]
pub enum RubricWriteError {
    #[error("a rubric with the id `{0}` exists; PUT /v1/rubrics/{0} adds a version")]
    Exists(String),
    #[error("no rubric has the id `{0}`")]
    Missing(String),
    #[error("rubric storage: {0}")]
    Database(#[from] sqlx::Error),
}

/// Rubric rows over the server's database.
#[derive(Debug, Clone)]
pub struct RubricRepository {
    storage: Storage,
}

fn version_of(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn decode(id: String, version: i64, created_at_ms: i64, definition: &str) -> Result<StoredRubric, sqlx::Error> {
    let definition: RubricDefinition =
        serde_json::from_str(definition).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(StoredRubric { id, version: version_of(version), created_at_ms, definition })
}

/// Attempts at taking the next version number when concurrent writers collide on it.
const VERSION_ATTEMPTS: usize = 5;

impl RubricRepository {
    pub fn new(storage: Storage) -> RubricRepository {
        RubricRepository { storage }
    }

    /// The latest live version of `id`, if any.
    async fn latest_version(&self, id: &str) -> Result<Option<u32>, sqlx::Error> {
        let row = sqlx::query("SELECT MAX(version) FROM rubrics WHERE id = $1 AND deleted_at_ms IS NULL")
            .bind(id)
            .fetch_one(self.storage.pool())
            .await?;
        Ok(row.try_get::<Option<i64>, _>(0)?.map(version_of))
    }

    /// Adds the next version of `id` (after every earlier one, deleted or not).
    async fn insert_next(&self, id: &str, definition: &RubricDefinition) -> Result<StoredRubric, RubricWriteError> {
        let text = serde_json::to_string(definition).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        let mut last = None;
        for _ in 0..VERSION_ATTEMPTS {
            let created = now_ms();
            let inserted = sqlx::query(
                "INSERT INTO rubrics (id, version, definition, created_at_ms) \
                 SELECT $1, COALESCE(MAX(version), 0) + 1, $2, $3 FROM rubrics WHERE id = $4 RETURNING version",
            )
            .bind(id)
            .bind(&text)
            .bind(created)
            .bind(id)
            .fetch_one(self.storage.pool())
            .await;
            match inserted {
                Ok(row) => {
                    let version: i64 = row.try_get(0)?;
                    return Ok(StoredRubric {
                        id: id.to_owned(),
                        version: version_of(version),
                        created_at_ms: created,
                        definition: definition.clone(),
                    });
                }
                // Another writer took the same number: take the next one.
                Err(sqlx::Error::Database(error)) if error.is_unique_violation() => last = Some(error),
                Err(error) => return Err(error.into()),
            }
        }
        Err(RubricWriteError::Database(last.map_or(sqlx::Error::PoolTimedOut, sqlx::Error::Database)))
    }

    /// Stores a new rubric as version 1 (or the next version after a deleted one).
    pub async fn create(&self, id: &str, definition: &RubricDefinition) -> Result<StoredRubric, RubricWriteError> {
        if self.latest_version(id).await?.is_some() {
            return Err(RubricWriteError::Exists(id.to_owned()));
        }
        self.insert_next(id, definition).await
    }

    /// Adds a version to an existing rubric.
    pub async fn update(&self, id: &str, definition: &RubricDefinition) -> Result<StoredRubric, RubricWriteError> {
        if self.latest_version(id).await?.is_none() {
            return Err(RubricWriteError::Missing(id.to_owned()));
        }
        self.insert_next(id, definition).await
    }

    /// Marks every version of `id` deleted; false when there was no live rubric.
    pub async fn delete(&self, id: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("UPDATE rubrics SET deleted_at_ms = $1 WHERE id = $2 AND deleted_at_ms IS NULL")
            .bind(now_ms())
            .bind(id)
            .execute(self.storage.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// A live version of `id`: `version`, or the latest.
    pub async fn get(&self, id: &str, version: Option<u32>) -> Result<Option<StoredRubric>, sqlx::Error> {
        let version = match version {
            Some(version) => i64::from(version),
            None => match self.latest_version(id).await? {
                Some(latest) => i64::from(latest),
                None => return Ok(None),
            },
        };
        let row = sqlx::query(
            "SELECT definition, created_at_ms FROM rubrics WHERE id = $1 AND version = $2 AND deleted_at_ms IS NULL",
        )
        .bind(id)
        .bind(version)
        .fetch_optional(self.storage.pool())
        .await?;
        match row {
            Some(row) => {
                let definition: String = row.try_get(0)?;
                Ok(Some(decode(id.to_owned(), version, row.try_get(1)?, &definition)?))
            }
            None => Ok(None),
        }
    }

    /// `(id, latest version, created_at_ms of that version)` of every live rubric, by id.
    pub async fn list(&self) -> Result<Vec<(String, u32, i64)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT r.id, r.version, r.created_at_ms FROM rubrics r \
             JOIN (SELECT id, MAX(version) AS version FROM rubrics WHERE deleted_at_ms IS NULL GROUP BY id) l \
             ON r.id = l.id AND r.version = l.version ORDER BY r.id",
        )
        .fetch_all(self.storage.pool())
        .await?;
        rows.into_iter().map(|row| Ok((row.try_get(0)?, version_of(row.try_get(1)?), row.try_get(2)?))).collect()
    }

    /// `(version, created_at_ms)` of every live version of `id`, oldest first.
    pub async fn versions(&self, id: &str) -> Result<Vec<(u32, i64)>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT version, created_at_ms FROM rubrics WHERE id = $1 AND deleted_at_ms IS NULL ORDER BY version",
        )
        .bind(id)
        .fetch_all(self.storage.pool())
        .await?;
        rows.into_iter().map(|row| Ok((version_of(row.try_get(0)?), row.try_get(1)?))).collect()
    }
}

impl RubricStore for RubricRepository {
    fn load<'a>(
        &'a self,
        id: &'a str,
        version: Option<u32>,
    ) -> BoxFuture<'a, Result<Option<(u32, RubricDefinition)>, StoreError>> {
        async move {
            let found = self.get(id, version).await?;
            Ok(found.map(|stored| (stored.version, stored.definition)))
        }
        .boxed()
    }
}

/// The judge's reply cache over the server's database.
#[derive(Debug, Clone)]
pub struct JudgeCacheTable {
    storage: Storage,
}

impl JudgeCacheTable {
    pub fn new(storage: Storage) -> JudgeCacheTable {
        JudgeCacheTable { storage }
    }
}

impl JudgeCache for JudgeCacheTable {
    fn get<'a>(&'a self, model: &'a str, prompt_hash: &'a str) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
        async move {
            let row = sqlx::query("SELECT reply FROM judge_cache WHERE model = $1 AND prompt_hash = $2")
                .bind(model)
                .bind(prompt_hash)
                .fetch_optional(self.storage.pool())
                .await?;
            Ok(row.map(|row| row.try_get::<String, _>(0)).transpose()?)
        }
        .boxed()
    }

    fn put<'a>(
        &'a self,
        model: &'a str,
        prompt_hash: &'a str,
        reply: &'a str,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        async move {
            sqlx::query(
                "INSERT INTO judge_cache (model, prompt_hash, reply, created_at_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (model, prompt_hash) DO NOTHING",
            )
            .bind(model)
            .bind(prompt_hash)
            .bind(reply)
            .bind(now_ms())
            .execute(self.storage.pool())
            .await?;
            Ok(())
        }
        .boxed()
    }
}
