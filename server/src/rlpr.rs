//! RLPR's source of log-probs as configured, and its std filter served per named training run: the state lives in the database, so any
//! replica can decide a run's next step, and a retried step is answered again without moving
//! the moving average twice.

use std::sync::Arc;

use referee_rlpr::{HostedSource, LocalModel, LogprobSource, RemoteSource, StdFilter, StdFilterState};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

use crate::config::{RlprConfig, RlprSource};
use crate::storage::{Storage, now_ms};

/// The source of log-probs `[rlpr]` configures, or none.
///
/// # Errors
/// When the remote client cannot be built (an unreadable key or CA file), or the local model
/// cannot be loaded (the message names the file and what is wrong with it). Loading a local
/// checkpoint blocks; it runs once, at startup.
pub fn build_source(config: &RlprConfig) -> anyhow::Result<Option<Arc<dyn LogprobSource>>> {
    match config.source {
        RlprSource::None => Ok(None),
        RlprSource::Remote => {
            let source = RemoteSource::new(config.remote.clone()).map_err(anyhow::Error::msg)?;
            tracing::info!(url = ?config.remote.url, model = %config.remote.model, "rlpr scores with a remote model");
            Ok(Some(Arc::new(source)))
        }
        RlprSource::Local => {
            let Some(dir) = &config.model_dir else {
                anyhow::bail!("rlpr.model_dir must name the checkpoint directory when rlpr.source is \"local\"")
            };
            let source = HostedSource::<LocalModel>::load(dir, config.device, config.batcher.clone())
                .map_err(anyhow::Error::msg)?;
            tracing::info!(model_dir = %dir.display(), device = %config.device, "rlpr scores with a local model");
            Ok(Some(Arc::new(source)))
        }
    }
}

/// The body of `POST /v1/reward-models/rlpr/reload`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReloadRequest {
    /// The checkpoint directory to load (on the server's file system); absent: the one in use
    /// is read again (its files were replaced in place).
    #[serde(default)]
    pub model_dir: Option<String>,
}

/// One group of a step: the rewards of one prompt's rollouts.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FilterGroup {
    /// Echoed in the answer.
    #[serde(default)]
    pub id: Option<String>,
    /// The rollouts' final rewards.
    pub rewards: Vec<f64>,
}

/// The body of `POST /v1/reward-models/rlpr/filter`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FilterRequest {
    /// The training run (1 to 256 bytes): each run has its own moving average.
    #[schema(min_length = 1, max_length = 256)]
    pub run: String,
    /// The step being decided (1-based). When given, it must be the run's next step, or its
    /// last one to have that answer again (a retry); when absent, the next step.
    #[serde(default)]
    pub step: Option<u64>,
    /// The filter's settings, fixed by the run's first step; later steps may repeat them or
    /// leave them out.
    #[serde(default)]
    pub settings: Option<StdFilter>,
    /// The step's groups.
    pub groups: Vec<FilterGroup>,
}

/// One group's decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GroupAnswer {
    pub id: Option<String>,
    /// The unbiased (N − 1) std of the group's rewards; null for fewer than two rollouts.
    pub std: Option<f64>,
    /// Whether the group is kept.
    pub keep: bool,
}

/// The answer of `POST /v1/reward-models/rlpr/filter`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FilterAnswer {
    pub run: String,
    /// The step decided (1-based).
    pub step: u64,
    /// β·EMA applied to this step; 0 before filtering starts.
    pub threshold: f64,
    /// The step's mean std over rollouts, which entered the moving average; null when no
    /// group had two rollouts.
    pub mean_std: Option<f64>,
    /// The moving average after this step; null during warm-up.
    pub ema: Option<f64>,
    pub groups: Vec<GroupAnswer>,
}

/// A run's settings and state: `GET /v1/reward-models/rlpr/runs/{run}`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RunStatus {
    pub run: String,
    pub settings: StdFilter,
    pub state: StdFilterState,
    pub updated_at_ms: i64,
}

/// What deciding a step can run into.
#[derive(Debug, thiserror::Error)]
pub enum FilterError {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Conflict(String),
    #[error("rlpr storage: {0}")]
    Database(#[from] sqlx::Error),
}

/// Attempts at advancing a run when replicas race on the same step.
const ATTEMPTS: usize = 5;

/// Longest run name, in bytes.
pub const MAX_RUN_BYTES: usize = 256;

fn decode<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, sqlx::Error> {
    serde_json::from_str(text).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

fn encode(value: &impl Serialize) -> Result<String, sqlx::Error> {
    serde_json::to_string(value).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

/// Checks a run name.
pub fn check_run(run: &str) -> Result<(), String> {
    if run.is_empty() || run.len() > MAX_RUN_BYTES {
        return Err(format!("`run` must be 1 to {MAX_RUN_BYTES} bytes"));
    }
    Ok(())
}

/// Training runs' filter state over the server's database.
#[derive(Debug, Clone)]
pub struct RunStore {
    storage: Storage,
}

struct StoredRun {
    settings: StdFilter,
    state: StdFilterState,
    last_answer: Option<FilterAnswer>,
    updated_at_ms: i64,
}

impl RunStore {
    pub fn new(storage: Storage) -> RunStore {
        RunStore { storage }
    }

    async fn load(&self, run: &str) -> Result<Option<StoredRun>, sqlx::Error> {
        let row = sqlx::query("SELECT settings, state, last_answer, updated_at_ms FROM rlpr_runs WHERE run = $1")
            .bind(run)
            .fetch_optional(self.storage.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let last: Option<String> = row.try_get(2)?;
        Ok(Some(StoredRun {
            settings: decode(&row.try_get::<String, _>(0)?)?,
            state: decode(&row.try_get::<String, _>(1)?)?,
            last_answer: last.as_deref().map(decode).transpose()?,
            updated_at_ms: row.try_get(3)?,
        }))
    }

    /// A run's settings and state.
    pub async fn status(&self, run: &str) -> Result<Option<RunStatus>, sqlx::Error> {
        Ok(self.load(run).await?.map(|row| RunStatus {
            run: run.to_owned(),
            settings: row.settings,
            state: row.state,
            updated_at_ms: row.updated_at_ms,
        }))
    }

    /// Forgets a run; true when it existed.
    pub async fn delete(&self, run: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("DELETE FROM rlpr_runs WHERE run = $1").bind(run).execute(self.storage.pool()).await?;
        Ok(done.rows_affected() > 0)
    }

    /// Decides a step of a run and stores the new state. Concurrent deciders of one run are
    /// serialised by a compare-and-set on the step number.
    pub async fn decide(&self, request: &FilterRequest) -> Result<FilterAnswer, FilterError> {
        check_run(&request.run).map_err(FilterError::Invalid)?;
        if let Some(settings) = &request.settings {
            settings.validate().map_err(|e| FilterError::Invalid(format!("settings: {e}")))?;
        }
        if let Some(position) = request.groups.iter().position(|g| g.rewards.iter().any(|r| !r.is_finite())) {
            return Err(FilterError::Invalid(format!("group {position} has a reward that is not a finite number")));
        }
        for _ in 0..ATTEMPTS {
            let current = self.load(&request.run).await?;
            let (settings, mut state, last_answer) = match current {
                Some(row) => {
                    if request.settings.as_ref().is_some_and(|s| *s != row.settings) {
                        return Err(FilterError::Conflict(format!(
                            "run `{}` was started with other settings; DELETE it to start over",
                            request.run
                        )));
                    }
                    (row.settings, row.state, row.last_answer)
                }
                None => (request.settings.clone().unwrap_or_default(), StdFilterState::default(), None),
            };
            let previous = state.step;
            match request.step {
                Some(step) if step == previous && step > 0 => {
                    return last_answer.ok_or_else(|| {
                        FilterError::Conflict(format!("step {step} of run `{}` has no stored answer", request.run))
                    });
                }
                Some(step) if step != previous + 1 => {
                    return Err(FilterError::Conflict(format!(
                        "run `{}` is at step {previous}; the next step is {}",
                        request.run,
                        previous + 1
                    )));
                }
                _ => {}
            }
            let groups: Vec<Vec<f64>> = request.groups.iter().map(|g| g.rewards.clone()).collect();
            let decision = settings.step(&mut state, &groups);
            let answer = FilterAnswer {
                run: request.run.clone(),
                step: decision.step,
                threshold: decision.threshold,
                mean_std: decision.mean_std,
                ema: state.ema,
                groups: request
                    .groups
                    .iter()
                    .zip(decision.groups)
                    .map(|(group, d)| GroupAnswer {
                        id: group.id.clone(),
                        std: d.std.is_finite().then_some(d.std),
                        keep: d.keep,
                    })
                    .collect(),
            };
            if self.store(&request.run, &settings, &state, &answer, previous).await? {
                return Ok(answer);
            }
        }
        Err(FilterError::Conflict(format!("run `{}` is being advanced by other requests; retry", request.run)))
    }

    /// Writes the state after `previous` if the run is still there; false when another request
    /// got there first.
    async fn store(
        &self,
        run: &str,
        settings: &StdFilter,
        state: &StdFilterState,
        answer: &FilterAnswer,
        previous: u64,
    ) -> Result<bool, sqlx::Error> {
        let (settings, state_text, answer) = (encode(settings)?, encode(state)?, encode(answer)?);
        let step = i64::try_from(state.step).unwrap_or(i64::MAX);
        let done = if previous == 0 {
            sqlx::query(
                "INSERT INTO rlpr_runs (run, settings, state, step, last_answer, updated_at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (run) DO NOTHING",
            )
            .bind(run)
            .bind(settings)
            .bind(state_text)
            .bind(step)
            .bind(answer)
            .bind(now_ms())
            .execute(self.storage.pool())
            .await?
        } else {
            sqlx::query(
                "UPDATE rlpr_runs SET state = $1, step = $2, last_answer = $3, updated_at_ms = $4 \
                 WHERE run = $5 AND step = $6",
            )
            .bind(state_text)
            .bind(step)
            .bind(answer)
            .bind(now_ms())
            .bind(run)
            .bind(i64::try_from(previous).unwrap_or(i64::MAX))
            .execute(self.storage.pool())
            .await?
        };
        Ok(done.rows_affected() == 1)
    }
}
