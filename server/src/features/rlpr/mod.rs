//! RLPR's source of log-probs as configured, and its std filter served per named training run:
//! the state lives in the database, so any replica can decide a run's next round; a step may
//! take several generation rounds, all decided against one threshold, and moves the moving
//! average once when it closes; a retried round (the same body) is answered again, and another
//! body for an answered round is refused. The runs' no-reasoning baselines are kept in the same
//! database ([`BaselineTable`]): scored once per (run, prompt, reference) and kept for the run.

pub(crate) mod handlers;
pub mod settings;
use std::collections::HashMap;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;

use referee_rlpr::{
    BaselineStore, HostedSource, LocalModel, LocalPlacement, LogprobSource, RemoteSource, StdFilter, StdFilterState,
};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

pub use referee_rlpr::{MAX_RUN_BYTES, check_run};

use self::settings::{RlprConfig, RlprSource};
use crate::store::{Storage, now_ms};

/// The source of log-probs `[rlpr]` configures, or none.
///
/// # Errors
/// When the remote client cannot be built (an unreadable key or CA file), or the local model
/// cannot be loaded (the message names the file and what is wrong with it). Loading a local
/// checkpoint blocks; it runs once, at startup.
/// The source of log-probs in use, attached to the application state for the reload and
/// prepare routes.
#[derive(Debug, Clone)]
pub struct LoadedSource(pub Arc<dyn LogprobSource>);

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
            let placement = LocalPlacement { device: config.device, temperature: config.temperature };
            let source =
                HostedSource::<LocalModel>::load(dir, placement, config.batcher.clone()).map_err(anyhow::Error::msg)?;
            tracing::info!(model_dir = %dir.display(), device = %config.device, temperature = config.temperature,
                "rlpr scores with a local model");
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
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FilterGroup {
    /// Echoed in the answer.
    #[serde(default)]
    pub id: Option<String>,
    /// The rollouts' final rewards.
    pub rewards: Vec<f64>,
}

/// The body of `POST /v1/reward-models/rlpr/filter`: one generation round of a training step.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FilterRequest {
    /// The training run (1 to 256 bytes): each run has its own moving average.
    #[schema(min_length = 1, max_length = 256)]
    pub run: String,
    /// The step being decided (1-based): the open step, the one after it, or the last one
    /// answered (a retry). When absent, round 1 opens the next step and a later round continues
    /// the open one.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub step: Option<u64>,
    /// The generation round within the step (1-based, default 1). Every round of a step is
    /// decided against the threshold fixed at its first round.
    #[serde(default)]
    #[schema(minimum = 1)]
    pub round: Option<u64>,
    /// Whether this round is the step's last (default true): the step's mean std over all its
    /// rounds then moves the moving average. With `false` the step stays open for more rounds
    /// until a round that closes it, or round 1 of the next step, which closes it first.
    #[serde(default)]
    pub close: Option<bool>,
    /// The filter's settings, fixed by the run's first step; later steps may repeat them or
    /// leave them out.
    #[serde(default)]
    pub settings: Option<StdFilter>,
    /// The round's groups (empty to close a step without another round).
    pub groups: Vec<FilterGroup>,
}

/// One group's decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GroupAnswer {
    pub id: Option<String>,
    /// The unbiased (N − 1) std of the group's rewards (1 for a single rollout under
    /// `single_rollout: std_one`); null for a single rollout under `drop`.
    pub std: Option<f64>,
    /// Whether the group is kept.
    pub keep: bool,
}

fn first_round() -> u64 {
    1
}

fn closed_by_default() -> bool {
    true
}

/// The answer of `POST /v1/reward-models/rlpr/filter`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FilterAnswer {
    pub run: String,
    /// The step decided (1-based).
    pub step: u64,
    /// The round decided within the step (1-based).
    #[serde(default = "first_round")]
    pub round: u64,
    /// Whether the step was closed by this request (its mean std entered the moving average).
    #[serde(default = "closed_by_default")]
    pub closed: bool,
    /// β·EMA applied to every round of this step; 0 before filtering starts.
    pub threshold: f64,
    /// The step's mean std over the rollouts of its rounds so far (what enters the moving
    /// average when the step closes); null when no group had a std.
    pub mean_std: Option<f64>,
    /// The moving average after this request; null during warm-up.
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

fn decode<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, sqlx::Error> {
    serde_json::from_str(text).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

fn encode(value: &impl Serialize) -> Result<String, sqlx::Error> {
    serde_json::to_string(value).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

/// The SHA-256 (hex) of what a round's answer depends on: the step and round as sent, whether
/// it closes, and the groups. A retry must repeat them; the same step and round with another
/// hash is another request, and is refused rather than given the stored answer.
pub fn request_hash(request: &FilterRequest) -> String {
    use sha2::{Digest, Sha256};
    let identity = serde_json::json!({
        "step": request.step,
        "round": request.round.unwrap_or(1),
        "close": request.close.unwrap_or(true),
        "groups": request.groups,
    });
    let digest = Sha256::digest(identity.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
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
    last_hash: Option<String>,
    version: i64,
    updated_at_ms: i64,
}

/// What a request asks of a run in its current state.
enum Action {
    /// A retry of the last answered request: that answer again.
    Repeat(FilterAnswer),
    /// A new round: the step number it opens or continues.
    Decide,
}

/// Places a request (step `step`, round `round`) in a run: a retry of the last answer (same
/// hash), the next round of the open step, or round 1 of the next step. Anything else is a
/// conflict that says what would be accepted.
fn place(
    run: &str,
    row: Option<&StoredRun>,
    step: Option<u64>,
    round: u64,
    hash: &str,
) -> Result<(Action, u64), FilterError> {
    let (state, last, last_hash) = match row {
        Some(row) => (row.state.clone(), row.last_answer.as_ref(), row.last_hash.as_deref()),
        None => (StdFilterState::default(), None, None),
    };
    if let (Some(step), Some(last)) = (step, last)
        && last.step == step
        && last.round == round
    {
        return match last_hash {
            Some(stored) if stored == hash => Ok((Action::Repeat(last.clone()), step)),
            _ => Err(FilterError::Conflict(format!(
                "step {step} round {round} of run `{run}` was already decided for a different request (other \
                 groups, or `close`); a retry must repeat its body exactly"
            ))),
        };
    }
    let expected = match &state.open {
        Some(open) if round == open.rounds + 1 => open.step,
        Some(open) if round == 1 => open.step + 1,
        None if round == 1 => state.step + 1,
        _ => 0,
    };
    let wanted = match &state.open {
        Some(open) => format!(
            "step {} is open after {} round(s): send its round {} or round 1 of step {}",
            open.step,
            open.rounds,
            open.rounds + 1,
            open.step + 1
        ),
        None => format!("the next step is {}, round 1", state.step + 1),
    };
    match step {
        _ if expected == 0 => Err(FilterError::Conflict(format!("run `{run}`: {wanted}"))),
        Some(step) if step != expected => {
            Err(FilterError::Conflict(format!("run `{run}` is at step {}; {wanted}", state.step)))
        }
        _ => Ok((Action::Decide, expected)),
    }
}

impl RunStore {
    pub fn new(storage: Storage) -> RunStore {
        RunStore { storage }
    }

    async fn load(&self, run: &str) -> Result<Option<StoredRun>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT settings, state, last_answer, updated_at_ms, last_request_hash, version FROM rlpr_runs WHERE run = $1",
        )
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
            last_hash: row.try_get(4)?,
            version: row.try_get(5)?,
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

    /// Forgets a run: its filter state and its stored baselines, so that a run started again
    /// under the name scores its baselines with its own initial policy. True when it existed.
    pub async fn delete(&self, run: &str) -> Result<bool, sqlx::Error> {
        let done = sqlx::query("DELETE FROM rlpr_runs WHERE run = $1").bind(run).execute(self.storage.pool()).await?;
        let baselines =
            sqlx::query("DELETE FROM rlpr_baselines WHERE run = $1").bind(run).execute(self.storage.pool()).await?;
        Ok(done.rows_affected() + baselines.rows_affected() > 0)
    }

    /// Decides a round of a run's step and stores the new state with the answer and the
    /// request's hash. Concurrent deciders of one run are serialised by a compare-and-set on
    /// the row's version.
    pub async fn decide(&self, request: &FilterRequest) -> Result<FilterAnswer, FilterError> {
        check_run(&request.run).map_err(FilterError::Invalid)?;
        if let Some(settings) = &request.settings {
            settings.validate().map_err(|e| FilterError::Invalid(format!("settings: {e}")))?;
        }
        if request.step == Some(0) || request.round == Some(0) {
            return Err(FilterError::Invalid("`step` and `round` count from 1".to_owned()));
        }
        if let Some(position) = request.groups.iter().position(|g| g.rewards.iter().any(|r| !r.is_finite())) {
            return Err(FilterError::Invalid(format!("group {position} has a reward that is not a finite number")));
        }
        let hash = request_hash(request);
        let round = request.round.unwrap_or(1);
        for _ in 0..ATTEMPTS {
            let current = self.load(&request.run).await?;
            if let Some(row) = &current
                && request.settings.as_ref().is_some_and(|s| *s != row.settings)
            {
                return Err(FilterError::Conflict(format!(
                    "run `{}` was started with other settings; DELETE it to start over",
                    request.run
                )));
            }
            let (action, step) = place(&request.run, current.as_ref(), request.step, round, &hash)?;
            if let Action::Repeat(answer) = action {
                return Ok(answer);
            }
            let (settings, mut state, version) = match &current {
                Some(row) => (row.settings.clone(), row.state.clone(), Some(row.version)),
                None => (request.settings.clone().unwrap_or_default(), StdFilterState::default(), None),
            };
            // Round 1 of the step after an open one closes that step first.
            if state.open.as_ref().is_some_and(|open| open.step < step) {
                settings.close(&mut state);
            }
            let groups: Vec<Vec<f64>> = request.groups.iter().map(|g| g.rewards.clone()).collect();
            let decision = settings.round(&mut state, &groups);
            let closed = request.close.unwrap_or(true);
            if closed {
                settings.close(&mut state);
            }
            let answer = FilterAnswer {
                run: request.run.clone(),
                step: decision.step,
                round: decision.round,
                closed,
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
            if self.store(&request.run, &settings, &state, &answer, &hash, version).await? {
                return Ok(answer);
            }
        }
        Err(FilterError::Conflict(format!("run `{}` is being advanced by other requests; retry", request.run)))
    }

    /// Writes the state if the run is still at `version` (or, for `None`, still absent); false
    /// when another request got there first.
    async fn store(
        &self,
        run: &str,
        settings: &StdFilter,
        state: &StdFilterState,
        answer: &FilterAnswer,
        hash: &str,
        version: Option<i64>,
    ) -> Result<bool, sqlx::Error> {
        let (settings, state_text, answer) = (encode(settings)?, encode(state)?, encode(answer)?);
        let step = i64::try_from(state.step).unwrap_or(i64::MAX);
        let done = match version {
            None => {
                sqlx::query(
                    "INSERT INTO rlpr_runs (run, settings, state, step, last_answer, last_request_hash, version, \
                     updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, 1, $7) ON CONFLICT (run) DO NOTHING",
                )
                .bind(run)
                .bind(settings)
                .bind(state_text)
                .bind(step)
                .bind(answer)
                .bind(hash)
                .bind(now_ms())
                .execute(self.storage.pool())
                .await?
            }
            Some(version) => {
                sqlx::query(
                    "UPDATE rlpr_runs SET state = $1, step = $2, last_answer = $3, last_request_hash = $4, \
                     version = version + 1, updated_at_ms = $5 WHERE run = $6 AND version = $7",
                )
                .bind(state_text)
                .bind(step)
                .bind(answer)
                .bind(hash)
                .bind(now_ms())
                .bind(run)
                .bind(version)
                .execute(self.storage.pool())
                .await?
            }
        };
        Ok(done.rows_affected() == 1)
    }
}

/// Texts looked up per query (SQLite allows 32766 bound values; this stays far below).
const LOOKUP_CHUNK: usize = 256;

/// The SHA-256 (hex) of a baseline text: the key of its row.
fn text_hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Training runs' no-reasoning baselines over the server's database (table `rlpr_baselines`),
/// shared by every replica: the first baseline stored for a (run, text) is the one kept.
#[derive(Debug, Clone)]
pub struct BaselineTable {
    storage: Storage,
}

impl BaselineTable {
    pub fn new(storage: Storage) -> BaselineTable {
        BaselineTable { storage }
    }

    /// The stored log-probs of `texts` that `run` has, by text.
    async fn lookup(&self, run: &str, texts: &[String]) -> Result<HashMap<String, Vec<f64>>, sqlx::Error> {
        let by_hash: HashMap<String, &String> = texts.iter().map(|text| (text_hash(text), text)).collect();
        let hashes: Vec<&String> = by_hash.keys().collect();
        let mut found = HashMap::new();
        for chunk in hashes.chunks(LOOKUP_CHUNK) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT text_hash, logprobs FROM rlpr_baselines WHERE run = $1 AND text_hash IN ({})",
                marks.join(", ")
            );
            // Only the placeholders are formatted into the text; every value is bound.
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(run);
            for hash in chunk {
                query = query.bind(hash.as_str());
            }
            for row in query.fetch_all(self.storage.pool()).await? {
                let hash: String = row.try_get(0)?;
                let logprobs: Vec<f64> = decode(&row.try_get::<String, _>(1)?)?;
                if let Some(text) = by_hash.get(&hash) {
                    found.insert((*text).clone(), logprobs);
                }
            }
        }
        Ok(found)
    }

    /// Inserts the entries `run` does not have (an existing row is kept) and returns what is
    /// stored for each entry's text.
    async fn keep(
        &self,
        run: &str,
        entries: Vec<(String, Vec<f64>)>,
    ) -> Result<HashMap<String, Vec<f64>>, sqlx::Error> {
        let now = now_ms();
        for (text, logprobs) in &entries {
            sqlx::query(
                "INSERT INTO rlpr_baselines (run, text_hash, logprobs, created_at_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (run, text_hash) DO NOTHING",
            )
            .bind(run)
            .bind(text_hash(text))
            .bind(encode(logprobs)?)
            .bind(now)
            .execute(self.storage.pool())
            .await?;
        }
        let texts: Vec<String> = entries.into_iter().map(|(text, _)| text).collect();
        self.lookup(run, &texts).await
    }
}

impl BaselineStore for BaselineTable {
    fn get(&self, run: &str, texts: &[String]) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>> {
        let (table, run, texts) = (self.clone(), run.to_owned(), texts.to_vec());
        async move { table.lookup(&run, &texts).await.map_err(|e| e.to_string()) }.boxed()
    }

    fn put(
        &self,
        run: &str,
        entries: Vec<(String, Vec<f64>)>,
    ) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>> {
        let (table, run) = (self.clone(), run.to_owned());
        async move { table.keep(&run, entries).await.map_err(|e| e.to_string()) }.boxed()
    }
}
