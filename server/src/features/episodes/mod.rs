//! Multi-turn episodes: the live episodes of this replica, their limits and their transcripts.
//!
//! An episode lives in the memory of the replica that started it; its id names that replica
//! (`ep_<replica>_<random>`), so a step that reaches another replica is answered 421
//! `wrong_replica` instead of starting anything. Every start and step is recorded in the database
//! (turn 0 is the first observation), so any replica can read a transcript back.
//!
//! Starts and steps run in their own tasks: a client that disconnects mid-step does not cancel
//! the step, and the episode's state stays whole. The protocol fronts (native REST here, OpenEnv)
//! are thin adapters over [`Episodes`].
//!
//! An episode started with a `run` is recorded in that training run when it ends, as one item of
//! its environment ([`Ending::status`] says with which status).

pub(crate) mod handlers;
pub mod openenv;
pub mod settings;
pub mod store;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use referee_core::{Environment, EnvironmentError, Episode, Status};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use self::settings::EpisodesConfig;
use self::store::{EpisodeStatus, EpisodeStore, StoredEpisode, StoredStep};
use crate::engine::RunTag;
use crate::features::runs::RunRecorder;
use crate::http::error::{ApiError, Category};

/// How often idle episodes are looked for.
const REAP_INTERVAL: Duration = Duration::from_secs(1);

/// A new episode, as `POST /v1/episodes` answers.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EpisodeStarted {
    pub episode_id: String,
    pub environment: String,
    /// The replica that holds the episode: every step must reach it.
    pub replica: String,
    /// What the agent sees first.
    #[schema(value_type = Object)]
    pub observation: Value,
    /// Always false for a new episode.
    pub done: bool,
}

/// One step's answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EpisodeStep {
    pub episode_id: String,
    /// The number of this action, from 1.
    pub turn: u32,
    #[schema(value_type = Object)]
    pub observation: Value,
    pub reward: f64,
    pub done: bool,
    /// The sum of the episode's rewards so far.
    pub total_reward: f64,
    /// How the episode stands after this step (`live`, `done`, `turn_limit`).
    pub status: EpisodeStatus,
}

/// A live episode's state, as `GET /v1/episodes/{id}/state` answers.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EpisodeState {
    pub episode_id: String,
    pub environment: String,
    pub turn: u32,
    pub total_reward: f64,
    /// What the environment says of its state.
    #[schema(value_type = Object)]
    pub state: Value,
}

/// An episode with its transcript, as `GET /v1/episodes/{id}` answers.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EpisodeTranscript {
    #[serde(flatten)]
    pub episode: StoredEpisode,
    pub steps: Vec<StoredStep>,
}

/// One live episode.
#[derive(Debug)]
struct Live {
    environment: &'static str,
    /// `None` once the episode has ended (it is then also out of the table).
    episode: Option<Box<dyn Episode>>,
    turn: u32,
    total_reward: f64,
    last_active: Instant,
    /// The training run the episode is recorded in when it ends.
    run: Option<RunTag>,
    /// The environment's time on the episode so far (its start and steps), in microseconds.
    busy_us: u64,
}

type Slot = Arc<tokio::sync::Mutex<Live>>;

/// The episodes of this replica and the environments they come from. Clones share them.
#[derive(Clone)]
pub struct Episodes(Arc<Inner>);

struct Inner {
    environments: HashMap<&'static str, Arc<dyn Environment>>,
    replica: String,
    config: EpisodesConfig,
    retry_after_secs: u32,
    live: Mutex<HashMap<String, Slot>>,
    store: EpisodeStore,
    runs: Arc<RunRecorder>,
}

impl std::fmt::Debug for Episodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Episodes").field("replica", &self.0.replica).finish_non_exhaustive()
    }
}

fn environment_error(error: EnvironmentError) -> ApiError {
    match error {
        EnvironmentError::InvalidOptions(message) => ApiError::invalid("invalid_options", message),
        EnvironmentError::InvalidAction(message) => ApiError::invalid("invalid_action", message),
        EnvironmentError::Busy(busy) => busy.into(),
        EnvironmentError::Unavailable(message) => ApiError::new(
            Category::Busy { status: referee_core::BusyStatus::Unavailable, retry_after_secs: 30 },
            "environment_unavailable",
            message,
        ),
        EnvironmentError::Internal(message) => ApiError::internal(message),
    }
}

fn database(error: sqlx::Error) -> ApiError {
    ApiError::internal(format!("episode storage: {error}"))
}

/// The replica named in an episode id, if it has the shape of one.
fn replica_of(id: &str) -> Option<&str> {
    let rest = id.strip_prefix("ep_")?;
    let (replica, random) = rest.rsplit_once('_')?;
    (!replica.is_empty() && !random.is_empty()).then_some(replica)
}

/// A random replica name: 8 hex digits.
fn random_replica() -> String {
    format!("{:08x}", rand::random::<u32>())
}

impl Episodes {
    /// The episodes of a replica over `store`, starting episodes of `environments`; those
    /// started with a run tag are recorded in `runs` when they end.
    pub fn new(
        environments: &[Arc<dyn Environment>],
        config: EpisodesConfig,
        retry_after_secs: u32,
        store: EpisodeStore,
        runs: Arc<RunRecorder>,
    ) -> Episodes {
        let environments = environments.iter().map(|e| (e.info().description.id, Arc::clone(e))).collect();
        let replica = config.replica_id.clone().unwrap_or_else(random_replica);
        Episodes(Arc::new(Inner {
            environments,
            replica,
            config,
            retry_after_secs,
            live: Mutex::default(),
            store,
            runs,
        }))
    }

    /// This replica's name in episode ids.
    pub fn replica(&self) -> &str {
        &self.0.replica
    }

    /// Episodes live on this replica now.
    pub fn live_count(&self) -> usize {
        self.table().len()
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<String, Slot>> {
        self.0.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn slot(&self, id: &str) -> Option<Slot> {
        self.table().get(id).cloned()
    }

    /// Starts an episode of `environment` from `options`, recorded in `run` when it ends.
    pub async fn start(
        &self,
        environment: &str,
        options: Value,
        run: Option<RunTag>,
    ) -> Result<EpisodeStarted, ApiError> {
        let Some((name, env)) = self.environment(environment) else {
            return Err(ApiError::not_found(
                "unknown_environment",
                format!("no environment is registered as `{environment}`; GET /v1/episode-environments lists them"),
            ));
        };
        if self.live_count() >= self.0.config.max_live {
            return Err(referee_core::Busy {
                status: referee_core::BusyStatus::Unavailable,
                retry_after_secs: self.0.retry_after_secs,
                message: format!(
                    "{} episodes are live on this replica, the most it holds (episodes.max_live); retry after {} s",
                    self.0.config.max_live, self.0.retry_after_secs
                ),
            }
            .into());
        }
        let episodes = self.clone();
        // In its own task: a client gone mid-start leaves a registered episode that expires, never
        // half of one.
        let task = tokio::spawn(async move {
            let began = Instant::now();
            let started = env.start(options.clone()).await.map_err(environment_error)?;
            let elapsed_us = u64::try_from(began.elapsed().as_micros()).unwrap_or(u64::MAX);
            let id = format!("ep_{}_{:016x}{:08x}", episodes.0.replica, rand::random::<u64>(), rand::random::<u32>());
            episodes
                .0
                .store
                .create(&id, name, &episodes.0.replica, &options, &started.observation, elapsed_us)
                .await
                .map_err(database)?;
            let live = Live {
                environment: name,
                episode: Some(started.episode),
                turn: 0,
                total_reward: 0.0,
                last_active: Instant::now(),
                run,
                busy_us: elapsed_us,
            };
            episodes.table().insert(id.clone(), Arc::new(tokio::sync::Mutex::new(live)));
            metrics::counter!("referee_episodes_started_total", "environment" => name).increment(1);
            Ok(EpisodeStarted {
                episode_id: id,
                environment: name.to_owned(),
                replica: episodes.0.replica.clone(),
                observation: started.observation,
                done: false,
            })
        });
        task.await.map_err(|e| ApiError::internal(format!("the episode start task failed: {e}")))?
    }

    /// Takes one action in a live episode of this replica.
    pub async fn step(&self, id: &str, action: Value) -> Result<EpisodeStep, ApiError> {
        let size = serde_json::to_vec(&action).map(|bytes| bytes.len()).unwrap_or(usize::MAX);
        if size > self.0.config.max_action_bytes {
            return Err(ApiError::new(
                Category::TooLarge,
                "action_too_large",
                format!(
                    "the action is {size} bytes of JSON, over the limit of {} (episodes.max_action_bytes)",
                    self.0.config.max_action_bytes
                ),
            ));
        }
        let Some(slot) = self.slot(id) else { return Err(self.not_live(id).await) };
        let episodes = self.clone();
        let id = id.to_owned();
        // In its own task: a client gone mid-step does not cancel it, so the episode's state
        // (an interpreter between cells) stays whole, and the transcript gets the step.
        let task = tokio::spawn(async move {
            let mut live = slot.lock().await;
            let Some(episode) = live.episode.as_mut() else { return Err(episodes.not_live(&id).await) };
            let began = Instant::now();
            let step = episode.step(action.clone()).await;
            live.last_active = Instant::now();
            let step = step.map_err(environment_error)?;
            let elapsed_us = u64::try_from(began.elapsed().as_micros()).unwrap_or(u64::MAX);
            live.turn += 1;
            live.total_reward += step.reward;
            live.busy_us = live.busy_us.saturating_add(elapsed_us);
            let ended = if step.done {
                Some(EpisodeStatus::Done)
            } else if live.turn >= episodes.0.config.max_turns {
                Some(EpisodeStatus::TurnLimit)
            } else {
                None
            };
            let recorded = episodes
                .0
                .store
                .record_step(
                    &id,
                    live.turn,
                    &action,
                    &step.observation,
                    step.reward,
                    step.done,
                    elapsed_us,
                    live.total_reward,
                    ended,
                )
                .await;
            if let Err(error) = recorded {
                // The agent's step stands; the transcript misses it, and the log says so.
                tracing::error!(episode = %id, turn = live.turn, %error, "cannot record an episode step");
            }
            if let Some(status) = ended {
                let outcome = live.episode.take().and_then(|episode| episode.outcome());
                episodes.table().remove(&id);
                episodes.ended(&live, Ending::of(status, outcome));
            }
            Ok(EpisodeStep {
                episode_id: id,
                turn: live.turn,
                observation: step.observation,
                reward: step.reward,
                done: ended.is_some(),
                total_reward: live.total_reward,
                status: ended.unwrap_or(EpisodeStatus::Live),
            })
        });
        task.await.map_err(|e| ApiError::internal(format!("the episode step task failed: {e}")))?
    }

    /// The state of a live episode of this replica.
    pub async fn state(&self, id: &str) -> Result<EpisodeState, ApiError> {
        let Some(slot) = self.slot(id) else { return Err(self.not_live(id).await) };
        let live = slot.lock().await;
        let Some(episode) = live.episode.as_ref() else { return Err(self.not_live(id).await) };
        Ok(EpisodeState {
            episode_id: id.to_owned(),
            environment: live.environment.to_owned(),
            turn: live.turn,
            total_reward: live.total_reward,
            state: episode.state(),
        })
    }

    /// Closes an episode of this replica; closing an ended one answers how it ended.
    pub async fn close(&self, id: &str) -> Result<StoredEpisode, ApiError> {
        if let Some(slot) = self.slot(id) {
            let mut live = slot.lock().await;
            if live.episode.take().is_some() {
                self.table().remove(id);
                self.0.store.end(id, EpisodeStatus::Closed).await.map_err(database)?;
                self.ended(&live, Ending::Closed);
            }
        } else if replica_of(id).is_some_and(|replica| replica != self.0.replica) {
            return Err(self.not_live(id).await);
        }
        match self.0.store.get(id).await.map_err(database)? {
            Some(episode) if episode.status != EpisodeStatus::Live => Ok(episode),
            _ => Err(self.not_live(id).await),
        }
    }

    /// The episode and its transcript, from the database (any replica's).
    pub async fn transcript(&self, id: &str) -> Result<EpisodeTranscript, ApiError> {
        let episode = self.0.store.get(id).await.map_err(database)?.ok_or_else(|| unknown(id))?;
        let steps = self.0.store.steps(id).await.map_err(database)?;
        Ok(EpisodeTranscript { episode, steps })
    }

    /// Why `id` is not a live episode of this replica.
    async fn not_live(&self, id: &str) -> ApiError {
        if let Some(replica) = replica_of(id)
            && replica != self.0.replica
        {
            return ApiError::new(
                Category::Misdirected,
                "wrong_replica",
                format!(
                    "episode {id} lives on replica `{replica}`, and this is `{}`: send its steps there (route by the \
                     replica in the id, or keep the connection's affinity); if that replica restarted, the episode \
                     is lost",
                    self.0.replica
                ),
            );
        }
        match self.0.store.get(id).await {
            Ok(Some(episode)) if episode.status == EpisodeStatus::Live => ApiError::conflict(
                "episode_lost",
                format!("episode {id} was live on this replica before it restarted; its state is gone"),
            ),
            Ok(Some(episode)) => ApiError::conflict(
                "episode_ended",
                format!(
                    "episode {id} has ended ({}); GET /v1/episodes/{id} returns its transcript",
                    episode.status.as_str()
                ),
            ),
            Ok(None) => unknown(id),
            Err(error) => database(error),
        }
    }

    /// Ends the episodes idle for longer than `episodes.idle_timeout_ms`.
    async fn reap(&self) {
        let timeout = Duration::from_millis(self.0.config.idle_timeout_ms);
        let slots: Vec<(String, Slot)> = self.table().iter().map(|(id, slot)| (id.clone(), Arc::clone(slot))).collect();
        for (id, slot) in slots {
            // A step in progress holds the lock: that episode is not idle.
            let Ok(mut live) = slot.try_lock() else { continue };
            if live.last_active.elapsed() < timeout || live.episode.is_none() {
                continue;
            }
            live.episode = None;
            self.table().remove(&id);
            self.ended(&live, Ending::Expired);
            drop(live);
            if let Err(error) = self.0.store.end(&id, EpisodeStatus::Expired).await {
                tracing::error!(episode = %id, %error, "cannot record an expired episode");
            }
        }
    }

    /// Starts the task that ends idle episodes; it stops when every other handle is gone.
    pub fn spawn_reaper(&self) -> tokio::task::JoinHandle<()> {
        let weak = Arc::downgrade(&self.0);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(REAP_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                Episodes(inner).reap().await;
            }
        })
    }

    /// Counts an episode's end and records it in its run, if it has one and the ending counts.
    fn ended(&self, live: &Live, ending: Ending) {
        count_end(live.environment, ending.episode_status());
        if let (Some(tag), Some(status)) = (&live.run, ending.status(live.total_reward)) {
            self.0.runs.record_outcome(tag, live.environment, live.total_reward, status, live.busy_us);
        }
    }

    /// The environment registered as `id`, with its id.
    pub fn environment(&self, id: &str) -> Option<(&'static str, Arc<dyn Environment>)> {
        self.0.environments.get_key_value(id).map(|(&id, env)| (id, Arc::clone(env)))
    }

    /// Every environment, in id order.
    pub fn environments(&self) -> Vec<Arc<dyn Environment>> {
        let mut all: Vec<_> = self.0.environments.iter().collect();
        all.sort_by_key(|&(&id, _)| id);
        all.into_iter().map(|(_, env)| Arc::clone(env)).collect()
    }
}

/// How an episode ended, with what its run needs to know.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ending {
    /// The environment said done; with the status of the verdict behind its reward, if any.
    Done(Option<Status>),
    /// The server's turn cap (`episodes.max_turns`) ended it.
    TurnLimit,
    /// Idle past `episodes.idle_timeout_ms`.
    Expired,
    /// The client closed it before it was done.
    Closed,
}

impl Ending {
    fn of(status: EpisodeStatus, outcome: Option<Status>) -> Ending {
        match status {
            EpisodeStatus::TurnLimit => Ending::TurnLimit,
            EpisodeStatus::Expired => Ending::Expired,
            EpisodeStatus::Closed => Ending::Closed,
            EpisodeStatus::Done | EpisodeStatus::Live => Ending::Done(outcome),
        }
    }

    fn episode_status(self) -> EpisodeStatus {
        match self {
            Ending::Done(_) => EpisodeStatus::Done,
            Ending::TurnLimit => EpisodeStatus::TurnLimit,
            Ending::Expired => EpisodeStatus::Expired,
            Ending::Closed => EpisodeStatus::Closed,
        }
    }

    /// The status the episode is recorded with in its run: a done episode's verdict status
    /// (without one, `correct` for a total reward of at least 1, `incorrect` for 0 or less,
    /// `partial` between); `resource_limit` at the turn cap; `timeout` when it expired. An
    /// episode the client closed is not recorded: the trainer dropped it.
    fn status(self, total_reward: f64) -> Option<Status> {
        match self {
            Ending::Done(Some(status)) => Some(status),
            Ending::Done(None) if total_reward >= 1.0 => Some(Status::Correct),
            Ending::Done(None) if total_reward > 0.0 => Some(Status::Partial),
            Ending::Done(None) => Some(Status::Incorrect),
            Ending::TurnLimit => Some(Status::ResourceLimit),
            Ending::Expired => Some(Status::Timeout),
            Ending::Closed => None,
        }
    }
}

/// Counts an episode's end by its environment and how it ended.
fn count_end(environment: &'static str, status: EpisodeStatus) {
    metrics::counter!("referee_episodes_ended_total", "environment" => environment, "status" => status.as_str())
        .increment(1);
}

fn unknown(id: &str) -> ApiError {
    ApiError::not_found("unknown_episode", format!("no episode has the id `{id}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ending_is_recorded_with_the_verdict_else_by_its_reward() {
        assert_eq!(Ending::Done(Some(Status::Unparseable)).status(0.0), Some(Status::Unparseable));
        assert_eq!(Ending::Done(Some(Status::Correct)).status(0.8), Some(Status::Correct), "a penalised pass");
        assert_eq!(Ending::Done(None).status(1.0), Some(Status::Correct));
        assert_eq!(Ending::Done(None).status(0.25), Some(Status::Partial));
        assert_eq!(Ending::Done(None).status(0.0), Some(Status::Incorrect));
        assert_eq!(Ending::Done(None).status(-0.5), Some(Status::Incorrect));
        assert_eq!(Ending::TurnLimit.status(1.0), Some(Status::ResourceLimit));
        assert_eq!(Ending::Expired.status(0.0), Some(Status::Timeout));
        assert_eq!(Ending::Closed.status(1.0), None);
        for status in [EpisodeStatus::Done, EpisodeStatus::TurnLimit, EpisodeStatus::Expired, EpisodeStatus::Closed] {
            assert_eq!(Ending::of(status, None).episode_status(), status);
        }
    }

    #[test]
    fn the_replica_is_read_from_the_id() {
        assert_eq!(replica_of("ep_1a2b3c4d_00ff"), Some("1a2b3c4d"));
        assert_eq!(replica_of("ep_node_a_00ff"), Some("node_a"), "a replica name may hold underscores");
        for malformed in ["", "ep_", "ep__00ff", "ep_1a2b_", "job_1a2b_00ff", "ep_nounderscore"] {
            assert_eq!(replica_of(malformed), None, "{malformed}");
        }
    }
}
