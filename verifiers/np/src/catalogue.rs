//! The registry of tasks and the public environment API: listing, generation, scoring.

use std::any::Any;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, OnceLock};

use referee_core::Verdict;
use referee_core::utoipa::{self, ToSchema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::reward::Direction;
use crate::rng::Rng;
use crate::task::{Problem, Reference, ScoreOptions, full_prompt, reference_of, score};
use crate::tasks;

/// Most instances one generation request may ask for.
pub const MAX_COUNT: u32 = 256;

/// Errors of the environment API (unknown task or level, bad instance, oversized request).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NpError {
    /// No task has this id.
    #[error("unknown task {0:?}")]
    UnknownTask(String),
    /// The task has no such level.
    #[error("task {task} has levels 1..={max}, not {level}")]
    UnknownLevel {
        /// The task.
        task: String,
        /// The level asked for.
        level: u8,
        /// The highest level.
        max: u8,
    },
    /// A caller-supplied instance does not deserialise or fails the task's checks.
    #[error("invalid {task} instance: {reason}")]
    InvalidInstance {
        /// The task.
        task: String,
        /// What is wrong.
        reason: String,
    },
    /// Neither an instance nor a (level, seed) pair was given.
    #[error("give either `instance` or both `level` and `seed`")]
    MissingInstance,
    /// The instance count is 0 or above the cap.
    #[error("count must be between 1 and {max}, not {count}")]
    BadCount {
        /// The count asked for.
        count: u32,
        /// The cap.
        max: u32,
    },
}

/// One difficulty level as listed by `GET /v1/environments`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct LevelInfo {
    /// 1-based level.
    pub level: u8,
    /// Instance sizes and the kind of reference at this level.
    pub description: String,
}

/// One task as listed by `GET /v1/environments`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct TaskInfo {
    /// Stable task id, used in URLs and in the `np` verifier's `task` field.
    pub task: String,
    /// What the task asks and how it is scored.
    pub summary: String,
    /// Objective direction.
    pub direction: Direction,
    /// The answer format the prompt asks for.
    pub answer_format: String,
    /// Version of the generator; instances are reproducible per (task, level, seed, version).
    pub generator_version: u32,
    /// The difficulty levels.
    pub levels: Vec<LevelInfo>,
}

/// One generated instance with its prompt and reference, as returned by
/// `POST /v1/environments/{task}/instances`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GeneratedInstance {
    /// The task id.
    pub task: String,
    /// The level it was generated at.
    pub level: u8,
    /// The seed; (task, level, seed) reproduces this instance exactly.
    pub seed: u64,
    /// The generator version that produced it.
    pub generator_version: u32,
    /// The full prompt, including the exact answer format.
    pub prompt: String,
    /// The instance as JSON (pass it back as the `np` verifier's `instance`).
    #[schema(value_type = Object)]
    pub instance: Value,
    /// The reference solution, its objective and kind.
    pub reference: Reference,
}

/// Body of `POST /v1/environments/{task}/instances`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InstancesRequest {
    /// Difficulty level (see the task's `levels`).
    pub level: u8,
    /// Seed of the first instance; the i-th instance uses `seed + i`.
    pub seed: u64,
    /// How many instances, 1 to 256.
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

/// Reply of `POST /v1/environments/{task}/instances`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InstancesResponse {
    /// The task id.
    pub task: String,
    /// The instances, seeds `seed..seed + count` in order.
    pub instances: Vec<GeneratedInstance>,
}

/// Where the instance to score against comes from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum InstanceSource<'a> {
    /// A caller-supplied instance, optionally with its reference.
    Given { instance: &'a Value, reference: Option<&'a Reference> },
    /// Regenerated from (level, seed).
    Seeded { level: u8, seed: u64 },
}

/// (task, level, seed).
type CacheKey = (&'static str, u8, u64);

/// Instances regenerated from (task, level, seed), kept so repeated scoring of the same seed
/// (a GRPO group scores many responses per prompt) does not re-solve the reference.
#[derive(Debug, Default)]
pub(crate) struct InstanceCache {
    entries: Mutex<HashMap<CacheKey, Arc<dyn Any + Send + Sync>>>,
}

/// Entries kept before the cache is emptied; a crude bound that keeps memory predictable.
const CACHE_CAPACITY: usize = 4096;

impl InstanceCache {
    fn get_or_insert<T: Send + Sync + 'static>(&self, key: CacheKey, make: impl FnOnce() -> T) -> Option<Arc<T>> {
        if let Ok(map) = self.entries.lock()
            && let Some(hit) = map.get(&key)
        {
            return Arc::clone(hit).downcast::<T>().ok();
        }
        // Generated outside the lock: references can take milliseconds.
        let value = Arc::new(make());
        if let Ok(mut map) = self.entries.lock() {
            if map.len() >= CACHE_CAPACITY {
                map.clear();
            }
            map.insert(key, Arc::clone(&value) as Arc<dyn Any + Send + Sync>);
        }
        Some(value)
    }
}

/// A task seen through JSON: what the registry holds.
pub(crate) trait Environment: Send + Sync {
    fn info(&self) -> TaskInfo;
    fn name(&self) -> &'static str;
    fn generate(&self, level: u8, seed: u64) -> Result<GeneratedInstance, NpError>;
    fn score(
        &self,
        source: InstanceSource<'_>,
        response: &str,
        options: &ScoreOptions,
        cache: &InstanceCache,
    ) -> Result<Verdict, NpError>;
}

pub(crate) struct Env<P>(PhantomData<fn() -> P>);

impl<P: Problem> Env<P> {
    pub(crate) const NEW: Self = Env(PhantomData);

    fn check_level(level: u8) -> Result<(), NpError> {
        if P::LEVELS.iter().any(|l| l.level == level) {
            Ok(())
        } else {
            Err(NpError::UnknownLevel { task: P::NAME.to_owned(), level, max: P::LEVELS.len() as u8 })
        }
    }

    fn instance(level: u8, seed: u64) -> (P::Instance, Option<P::Solution>) {
        let mut rng = Rng::for_instance(P::NAME, level, seed);
        P::generate(level, &mut rng)
    }
}

impl<P: Problem> Environment for Env<P> {
    fn info(&self) -> TaskInfo {
        TaskInfo {
            task: P::NAME.to_owned(),
            summary: P::SUMMARY.to_owned(),
            direction: P::DIRECTION,
            answer_format: P::ANSWER_FORMAT.to_owned(),
            generator_version: P::GENERATOR_VERSION,
            levels: P::LEVELS
                .iter()
                .map(|l| LevelInfo { level: l.level, description: l.description.to_owned() })
                .collect(),
        }
    }

    fn name(&self) -> &'static str {
        P::NAME
    }

    fn generate(&self, level: u8, seed: u64) -> Result<GeneratedInstance, NpError> {
        Self::check_level(level)?;
        let (instance, planted) = Self::instance(level, seed);
        let reference = reference_of::<P>(&instance, planted.as_ref());
        let json = serde_json::to_value(&instance)
            .map_err(|e| NpError::InvalidInstance { task: P::NAME.to_owned(), reason: e.to_string() })?;
        Ok(GeneratedInstance {
            task: P::NAME.to_owned(),
            level,
            seed,
            generator_version: P::GENERATOR_VERSION,
            prompt: full_prompt::<P>(&instance),
            instance: json,
            reference,
        })
    }

    fn score(
        &self,
        source: InstanceSource<'_>,
        response: &str,
        options: &ScoreOptions,
        cache: &InstanceCache,
    ) -> Result<Verdict, NpError> {
        match source {
            InstanceSource::Seeded { level, seed } => {
                Self::check_level(level)?;
                let entry = cache
                    .get_or_insert((P::NAME, level, seed), || {
                        let (instance, planted) = Self::instance(level, seed);
                        let reference = reference_of::<P>(&instance, planted.as_ref());
                        (instance, reference)
                    })
                    .ok_or_else(|| NpError::InvalidInstance {
                        task: P::NAME.to_owned(),
                        reason: "cache type mismatch".into(),
                    })?;
                let (instance, reference) = &*entry;
                Ok(score::<P>(instance, reference, response, options).with("level", level).with("seed", seed))
            }
            InstanceSource::Given { instance, reference } => {
                let invalid = |reason: String| NpError::InvalidInstance { task: P::NAME.to_owned(), reason };
                let instance: P::Instance = P::Instance::deserialize(instance).map_err(|e| invalid(e.to_string()))?;
                P::validate(&instance).map_err(invalid)?;
                let computed;
                let reference = match reference {
                    Some(r) => r,
                    None => {
                        computed = reference_of::<P>(&instance, None);
                        &computed
                    }
                };
                Ok(score::<P>(&instance, reference, response, options))
            }
        }
    }
}

/// The one explicit list of environments, in catalogue order.
pub(crate) fn environments() -> &'static [&'static dyn Environment] {
    tasks::ALL
}

pub(crate) fn find(task: &str) -> Result<&'static dyn Environment, NpError> {
    environments().iter().copied().find(|e| e.name() == task).ok_or_else(|| NpError::UnknownTask(task.to_owned()))
}

/// Every task with its levels and answer format: the body of `GET /v1/environments`.
pub fn catalogue() -> &'static [TaskInfo] {
    static INFOS: OnceLock<Vec<TaskInfo>> = OnceLock::new();
    INFOS.get_or_init(|| environments().iter().map(|e| e.info()).collect())
}

/// Generates one instance of `task` at `level` from `seed`, with prompt and reference.
///
/// The result depends on (task, level, seed) and the task's generator version only.
pub fn generate(task: &str, level: u8, seed: u64) -> Result<GeneratedInstance, NpError> {
    find(task)?.generate(level, seed)
}

/// Generates `count` instances with seeds `seed, seed + 1, ...`: the body of
/// `POST /v1/environments/{task}/instances`.
pub fn generate_instances(task: &str, request: &InstancesRequest) -> Result<InstancesResponse, NpError> {
    if request.count == 0 || request.count > MAX_COUNT {
        return Err(NpError::BadCount { count: request.count, max: MAX_COUNT });
    }
    let env = find(task)?;
    let instances = (0..u64::from(request.count))
        .map(|i| env.generate(request.level, request.seed.wrapping_add(i)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(InstancesResponse { task: task.to_owned(), instances })
}
