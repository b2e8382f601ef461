//! A task seen through JSON: [`Env`] wraps a [`Problem`] as the [`Environment`] the registry
//! holds (its listing, generation from (level, seed), scoring against a given or regenerated
//! instance), with the cache of regenerated instances.

use std::any::Any;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

use referee_core::Verdict;
use serde::Deserialize;
use serde_json::Value;

use crate::api::{GeneratedInstance, LevelInfo, NpError, TaskInfo};
use crate::rng::Rng;
use crate::task::{Problem, Reference, ScoreOptions, full_prompt, reference_of, score};

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
    /// The prompt of an inline instance, which is checked first.
    fn prompt(&self, instance: &Value) -> Result<String, NpError>;
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

    fn prompt(&self, instance: &Value) -> Result<String, NpError> {
        let invalid = |reason: String| NpError::InvalidInstance { task: P::NAME.to_owned(), reason };
        let instance: P::Instance = P::Instance::deserialize(instance).map_err(|e| invalid(e.to_string()))?;
        P::validate(&instance).map_err(invalid)?;
        Ok(full_prompt::<P>(&instance))
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
