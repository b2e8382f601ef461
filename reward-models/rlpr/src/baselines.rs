//! Where model mode keeps the no-reasoning baselines. RLPR computes a prompt's baseline once,
//! with the initial policy, and keeps it for the whole run; here:
//!
//! - an item that names its training run (`run`) is debiased with the baseline kept for that
//!   run in a [`BaselineStore`] (the server's database): the first time a (run, prompt,
//!   reference) is scored its baseline is stored, and from then on every rollout of it, on any
//!   replica and after any restart or reload, gets the stored one. Two replicas scoring the
//!   same new prompt at once both store theirs; the first stored wins, and both use it;
//! - an item without `run` uses the bounded in-memory [`BaselineCache`], per (checkpoint
//!   generation or first checkpoint, prompt, reference), which an eviction or a restart loses.

use std::collections::HashMap;

use futures::future::BoxFuture;

/// A training run's stored baselines, keyed by the baseline text (the rendered prompt, the
/// reference and the end-of-sequence text: [`crate::baseline`]).
pub trait BaselineStore: Send + Sync + std::fmt::Debug {
    /// The stored log-probs of those of `texts` that `run` has; the others are absent.
    fn get(&self, run: &str, texts: &[String]) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>>;

    /// Stores each entry `run` does not have yet (one already stored is kept as it is) and
    /// returns the stored log-probs of every entry's text: what the run's rollouts are debiased
    /// with from now on.
    fn put(
        &self,
        run: &str,
        entries: Vec<(String, Vec<f64>)>,
    ) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>>;
}

/// Longest training-run name, in bytes.
pub const MAX_RUN_BYTES: usize = 256;

/// Checks a training-run name: 1 to [`MAX_RUN_BYTES`] bytes.
pub fn check_run(run: &str) -> Result<(), String> {
    if run.is_empty() || run.len() > MAX_RUN_BYTES {
        return Err(format!("`run` must be 1 to {MAX_RUN_BYTES} bytes"));
    }
    Ok(())
}

/// What identifies a baseline: the run it is stored for (none: the in-memory cache), the
/// checkpoint generation it was scored under (`None`: whichever scored it first), and the
/// baseline text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct BaselineKey {
    pub run: Option<String>,
    pub generation: Option<u64>,
    pub text: String,
}

/// The baseline log-probs of recent in-memory keys: RLPR scores the baseline once per prompt,
/// and a group's rollouts share it. Bounded; the least recently used entry leaves first.
#[derive(Debug)]
pub(crate) struct BaselineCache(Option<lru::LruCache<BaselineKey, Vec<f64>>>);

impl BaselineCache {
    /// An empty cache of at most `capacity` entries (0 keeps none).
    pub fn with_capacity(capacity: usize) -> BaselineCache {
        BaselineCache(std::num::NonZeroUsize::new(capacity).map(lru::LruCache::new))
    }

    pub fn get(&mut self, key: &BaselineKey) -> Option<Vec<f64>> {
        self.0.as_mut()?.get(key).cloned()
    }

    pub fn put(&mut self, key: BaselineKey, logprobs: Vec<f64>) {
        if let Some(cache) = self.0.as_mut()
            && !cache.contains(&key)
        {
            cache.put(key, logprobs);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};

    use futures::FutureExt;
    use referee_core::{Budget, Status, Verdict};

    use super::*;
    use crate::{LogprobSource, RlprInput, RlprModel, ScoringText, SourceError};

    /// A database in memory: the first entry stored for a (run, text) is kept.
    #[derive(Debug, Default)]
    struct MemoryStore {
        rows: Mutex<HashMap<(String, String), Vec<f64>>>,
        broken: AtomicBool,
    }

    impl BaselineStore for MemoryStore {
        fn get(&self, run: &str, texts: &[String]) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>> {
            let rows = self.rows.lock().map(|r| r.clone()).unwrap_or_default();
            let broken = self.broken.load(Ordering::SeqCst);
            let found = texts
                .iter()
                .filter_map(|t| rows.get(&(run.to_owned(), t.clone())).map(|l| (t.clone(), l.clone())))
                .collect();
            std::future::ready(if broken { Err("the database is down".to_owned()) } else { Ok(found) }).boxed()
        }

        fn put(
            &self,
            run: &str,
            entries: Vec<(String, Vec<f64>)>,
        ) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>> {
            let mut kept = HashMap::new();
            if let Ok(mut rows) = self.rows.lock() {
                for (text, logprobs) in entries {
                    let stored = rows.entry((run.to_owned(), text.clone())).or_insert(logprobs);
                    kept.insert(text, stored.clone());
                }
            }
            std::future::ready(Ok(kept)).boxed()
        }
    }

    /// Scores each answer byte as one token with log-prob −(1 + generation)/10: a reload
    /// (a new generation) changes every log-prob. Records the texts it is sent.
    #[derive(Debug, Default)]
    struct Checkpoints {
        generation: AtomicU64,
        sent: Mutex<Vec<String>>,
    }

    impl LogprobSource for Checkpoints {
        fn name(&self) -> &'static str {
            "checkpoints"
        }

        fn eos(&self) -> &str {
            "<eos>"
        }

        fn generation(&self) -> u64 {
            self.generation.load(Ordering::SeqCst)
        }

        fn logprobs(&self, batch: Vec<ScoringText>) -> BoxFuture<'static, Vec<Result<Vec<f64>, SourceError>>> {
            if let Ok(mut sent) = self.sent.lock() {
                sent.extend(batch.iter().map(|t| t.text.clone()));
            }
            let per_token = -(1.0 + self.generation() as f64) / 10.0;
            std::future::ready(batch.iter().map(|t| Ok(vec![per_token; t.answer.len()])).collect()).boxed()
        }
    }

    fn score(model: &RlprModel, items: Vec<serde_json::Value>) -> Vec<Verdict> {
        let inputs: Vec<RlprInput> =
            items.into_iter().map(|v| serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}"))).collect();
        model.score(inputs, Budget::unlimited()).now_or_never().unwrap_or_default()
    }

    fn item(run: Option<&str>, response: &str) -> serde_json::Value {
        serde_json::json!({"response": response, "prompt": "Q:", "reference": "42", "run": run,
                           "options": {"round_bf16": false}})
    }

    #[test]
    fn a_runs_baseline_is_stored_once_and_outlives_reloads_and_restarts() {
        let source = Arc::new(Checkpoints::default());
        let store = Arc::new(MemoryStore::default());
        let start = || {
            let model = RlprModel::new(Some(source.clone() as Arc<dyn LogprobSource>), 16);
            model.connect_baselines(store.clone());
            model
        };
        let sent = || source.sent.lock().map(|s| s.len()).unwrap_or_default();
        let first = start();
        let a = "<think>a</think><answer>1</answer>";
        let verdicts = score(&first, vec![item(Some("run-1"), a), item(Some("run-1"), a)]);
        assert!(verdicts.iter().all(|v| v.status == Status::Partial), "{verdicts:?}");
        assert_eq!(sent(), 3, "two scored texts and one baseline");
        let score_a = verdicts[0].details["rlpr"]["score_a"].as_f64();
        assert_eq!(score_a, Some((-0.1f64).exp()));
        // A reload, then a restart (a new model over the same store): the run's baseline is the
        // stored one, not the new checkpoint's, and is not scored again.
        source.generation.store(1, Ordering::SeqCst);
        let restarted = start();
        let verdicts = score(&restarted, vec![item(Some("run-1"), a), item(Some("run-1"), a)]);
        assert_eq!(sent(), 5, "only the scored texts");
        for verdict in &verdicts {
            assert_eq!(verdict.details["rlpr"]["score_a"].as_f64(), score_a, "{verdicts:?}");
            assert_eq!(verdict.details["rlpr"]["score_b"].as_f64(), Some((-0.2f64).exp()));
        }
        // Another run scores its own baseline with the checkpoint now in use.
        let verdicts = score(&restarted, vec![item(Some("run-2"), a)]);
        assert_eq!(verdicts[0].details["rlpr"]["score_a"].as_f64(), Some((-0.2f64).exp()), "{verdicts:?}");
        // A baseline another replica stored first wins over the one just scored.
        if let Ok(mut rows) = store.rows.lock() {
            rows.insert(("run-3".to_owned(), "Q: 42 <eos>".to_owned()), vec![-3.0, -3.0]);
        }
        let verdicts = score(&restarted, vec![item(Some("run-3"), a)]);
        assert_eq!(verdicts[0].details["rlpr"]["score_a"].as_f64(), Some((-3.0f64).exp()), "{verdicts:?}");
        // A store that cannot be read fails the run's items (never a silently rescored
        // baseline); items without a run are scored as before.
        store.broken.store(true, Ordering::SeqCst);
        let before = sent();
        let verdicts = score(&restarted, vec![item(Some("run-1"), a), item(None, a)]);
        assert_eq!(verdicts[0].status, Status::InternalError, "{verdicts:?}");
        assert!(verdicts[0].details["error"].as_str().is_some_and(|e| e.contains("run-1")), "{verdicts:?}");
        assert_eq!(verdicts[1].status, Status::Partial, "{verdicts:?}");
        assert_eq!(sent(), before + 2, "the failed item sent nothing; the other its text and baseline");
    }

    /// A database that never answers writes, nor reads unless `reads`, which find nothing.
    #[derive(Debug)]
    struct Hanging {
        reads: bool,
    }

    impl BaselineStore for Hanging {
        fn get(&self, _: &str, _: &[String]) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>> {
            if self.reads { std::future::ready(Ok(HashMap::new())).boxed() } else { futures::future::pending().boxed() }
        }

        fn put(
            &self,
            _: &str,
            _: Vec<(String, Vec<f64>)>,
        ) -> BoxFuture<'static, Result<HashMap<String, Vec<f64>>, String>> {
            futures::future::pending().boxed()
        }
    }

    /// The request's deadline holds while the run's baselines are looked up or stored: the
    /// items time out rather than wait for the database.
    #[tokio::test]
    async fn a_hanging_store_times_the_runs_items_out() {
        for reads in [false, true] {
            let source = Arc::new(Checkpoints::default());
            let model = RlprModel::new(Some(source.clone() as Arc<dyn LogprobSource>), 16);
            model.connect_baselines(Arc::new(Hanging { reads }));
            let a = "<think>a</think><answer>1</answer>";
            let inputs: Vec<RlprInput> = [item(Some("run-1"), a)]
                .into_iter()
                .map(|v| serde_json::from_value(v).unwrap_or_else(|e| panic!("{e}")))
                .collect();
            let budget = Budget::with_timeout(std::time::Duration::from_millis(50));
            let verdicts = model.score(inputs, budget).await;
            assert_eq!(verdicts[0].status, Status::Timeout, "reads {reads}: {verdicts:?}");
            // Stuck reading, nothing was scored; stuck storing, the texts were.
            let sent = source.sent.lock().map(|s| s.len()).unwrap_or_default();
            assert_eq!(sent, if reads { 2 } else { 0 });
        }
    }

    #[test]
    fn run_is_refused_where_it_cannot_keep_a_baseline() {
        let source = Arc::new(Checkpoints::default());
        let model = RlprModel::new(Some(source as Arc<dyn LogprobSource>), 16);
        let a = "<think>a</think><answer>1</answer>";
        let unconnected = score(&model, vec![item(Some("run-1"), a)]);
        model.connect_baselines(Arc::new(MemoryStore::default()));
        let mut current = item(Some("run-1"), a);
        current["options"]["baseline_checkpoint"] = serde_json::json!("current");
        let supplied = serde_json::json!({"response": a, "logprobs": [-0.1], "score_a": 0.1, "run": "run-1"});
        let verdicts = score(&model, vec![current, supplied, item(Some(""), a)]);
        for verdict in unconnected.iter().chain(&verdicts) {
            assert_eq!(verdict.status, Status::InvalidInput, "{verdict:?}");
            assert!(verdict.details["error"].as_str().is_some_and(|e| e.contains("run")), "{verdict:?}");
        }
    }

    fn key(text: &str) -> BaselineKey {
        BaselineKey { run: None, generation: None, text: text.to_owned() }
    }

    #[test]
    fn the_cache_is_bounded_and_drops_the_least_recently_used_first() {
        let mut cache = BaselineCache::with_capacity(2);
        cache.put(key("a"), vec![-1.0]);
        cache.put(key("b"), vec![-2.0]);
        cache.put(key("a"), vec![-9.0]);
        assert_eq!(cache.get(&key("a")), Some(vec![-1.0]), "an entry is kept, not replaced");
        cache.put(key("c"), vec![-3.0]);
        assert_eq!(cache.get(&key("b")), None, "`b` was used least recently");
        assert_eq!((cache.get(&key("a")), cache.get(&key("c"))), (Some(vec![-1.0]), Some(vec![-3.0])));
        assert_eq!(BaselineCache::with_capacity(0).get(&key("a")), None);
    }

    #[test]
    fn run_names_are_bounded() {
        assert!(check_run("qwen-7b").is_ok());
        assert!(check_run("").is_err());
        assert!(check_run(&"x".repeat(MAX_RUN_BYTES + 1)).is_err());
    }
}
