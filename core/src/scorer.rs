use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::hash::Hash;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use futures::FutureExt;
use futures::future::{BoxFuture, join_all};
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa::openapi::{RefOr, Schema};

use crate::{Admission, Budget, Busy, Verdict};

/// Who a scorer is: what the registry lists and the scoring log records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Description {
    /// Stable id used in requests (`"exact-match"`).
    pub id: &'static str,
    /// Bumped whenever a verdict for the same input may change; keys the result cache.
    pub version: &'static str,
    /// One paragraph for users: what it checks and how it scores.
    pub summary: &'static str,
}

/// The JSON schema of a scorer's input, as `utoipa` derives it from the input type.
#[derive(Debug, Clone)]
pub struct InputSchema {
    /// The component name of the top-level schema.
    pub name: Cow<'static, str>,
    /// The top-level schema.
    pub schema: RefOr<Schema>,
    /// Schemas the top-level one refers to by `$ref`, with their component names.
    pub referenced: Vec<(String, RefOr<Schema>)>,
}

impl InputSchema {
    /// The schema of `T`, with everything it references.
    pub fn of<T: ToSchema>() -> Self {
        let mut referenced = Vec::new();
        T::schemas(&mut referenced);
        InputSchema { name: T::name(), schema: T::schema(), referenced }
    }
}

/// Everything the registry knows about a scorer besides how to call it.
#[derive(Debug, Clone)]
pub struct ScorerInfo {
    pub description: Description,
    pub input: InputSchema,
}

/// A synchronous, CPU-bound, batch-first verifier.
///
/// The server hands it every item of a request that names it, as one batch, on a thread pool.
/// Implementations that have nothing to share across items call [`verify_each`], which runs the
/// items in parallel, honours the deadline and turns a panic into that item's `internal_error`.
///
/// The input type's doc comment and field docs are the user documentation: they flow into the
/// OpenAPI document and `GET /v1/verifiers`.
pub trait Verifier: Send + Sync + 'static {
    /// One item's input, deserialised from the request's `input` object.
    type Input: DeserializeOwned + ToSchema + Send + Sync;

    /// The verifier's id, version and summary.
    fn description(&self) -> Description;

    /// Judges every input; returns exactly one verdict per input, in order.
    fn verify_batch(&self, inputs: &[Self::Input], budget: &Budget) -> Vec<Verdict>;
}

/// An asynchronous, batched scorer: a model on a device, a sandbox awaiting runs under a
/// timeout, an LLM judge over HTTP.
///
/// The future must finish by the budget's deadline or return `timeout` verdicts for what it
/// could not finish; the server also enforces the deadline from outside.
pub trait RewardModel: Send + Sync + 'static {
    /// One item's input, deserialised from the request's `input` object.
    type Input: DeserializeOwned + ToSchema + Send + 'static;

    /// The scorer's id, version and summary.
    fn description(&self) -> Description;

    /// Scores every input; resolves to exactly one verdict per input, in order.
    fn score_batch(&self, inputs: Vec<Self::Input>, budget: Budget) -> impl Future<Output = Vec<Verdict>> + Send;

    /// Whether a verdict for this item's raw input may be answered from the result cache later.
    /// A scorer whose verdict depends on state outside the input (the latest version of a
    /// stored rubric) says no for such inputs.
    fn result_cacheable(&self, input: &Value) -> bool {
        let _ = input;
        true
    }

    /// Reserves capacity for a batch of `items` before it is scored, or refuses it when the
    /// scorer's queue is full. The reservation lasts until the returned [`Admission`] is dropped,
    /// after the batch's verdicts are in. The default admits everything.
    ///
    /// Callers that answer a client synchronously turn a refusal into HTTP 429 or 503 with
    /// `Retry-After`; background work waits and asks again.
    fn admit(&self, items: usize) -> Result<Admission, Busy> {
        let _ = items;
        Ok(Admission::granted())
    }
}

/// A [`Verifier`] with its input type erased to JSON, as the registry stores it.
pub trait ErasedVerifier: Send + Sync {
    fn info(&self) -> ScorerInfo;
    /// Deserialises each item, judges the valid ones as one batch, and answers malformed ones
    /// with `invalid_input`. One verdict per item, in order.
    fn verify_json(&self, items: &[Value], budget: &Budget) -> Vec<Verdict>;
}

/// A [`RewardModel`] with its input type erased to JSON, as the registry stores it.
pub trait ErasedRewardModel: Send + Sync {
    fn info(&self) -> ScorerInfo;
    /// Like [`ErasedVerifier::verify_json`], asynchronously.
    fn score_json(self: Arc<Self>, items: Vec<Value>, budget: Budget) -> BoxFuture<'static, Vec<Verdict>>;
    /// [`RewardModel::result_cacheable`].
    fn result_cacheable(&self, item: &Value) -> bool;
    /// [`RewardModel::admit`].
    fn admit(&self, items: usize) -> Result<Admission, Busy>;
}

/// Either kind of scorer, type-erased: what the server's registry holds.
#[derive(Clone)]
pub enum Scorer {
    Blocking(Arc<dyn ErasedVerifier>),
    Async(Arc<dyn ErasedRewardModel>),
}

impl std::fmt::Debug for Scorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            Scorer::Blocking(_) => "Blocking",
            Scorer::Async(_) => "Async",
        };
        f.debug_tuple(kind).field(&self.info().description.id).finish()
    }
}

impl Scorer {
    /// Wraps a synchronous verifier.
    pub fn verifier<V: Verifier>(verifier: V) -> Self {
        Scorer::Blocking(Arc::new(verifier))
    }

    /// Wraps an asynchronous reward model.
    pub fn reward_model<M: RewardModel>(model: M) -> Self {
        Scorer::Async(Arc::new(model))
    }

    /// Whether a verdict for this raw input may be answered from the result cache later.
    pub fn result_cacheable(&self, input: &Value) -> bool {
        match self {
            Scorer::Blocking(_) => true,
            Scorer::Async(m) => m.result_cacheable(input),
        }
    }

    /// Reserves capacity for `items` items ([`RewardModel::admit`]); synchronous verifiers
    /// run on the shared thread pools and always admit.
    pub fn admit(&self, items: usize) -> Result<Admission, Busy> {
        match self {
            Scorer::Blocking(_) => Ok(Admission::granted()),
            Scorer::Async(m) => m.admit(items),
        }
    }

    /// Scores JSON items with either kind of scorer, one verdict per item in order: a
    /// verifier's batch on the rayon pool (the awaiting task holds no thread meanwhile), a
    /// reward model's as its future. For scorers that hand items to other scorers.
    pub fn score_values(&self, items: Vec<Value>, budget: Budget) -> BoxFuture<'static, Vec<Verdict>> {
        match self {
            Scorer::Blocking(verifier) => {
                let verifier = Arc::clone(verifier);
                let count = items.len();
                let verdicts = on_pool(move || verifier.verify_json(&items, &budget));
                async move {
                    verdicts.await.unwrap_or_else(|| {
                        vec![Verdict::internal_error("verifier thread ended without a verdict"); count]
                    })
                }
                .boxed()
            }
            Scorer::Async(model) => Arc::clone(model).score_json(items, budget),
        }
    }

    /// The scorer's description and input schema.
    pub fn info(&self) -> ScorerInfo {
        match self {
            Scorer::Blocking(v) => v.info(),
            Scorer::Async(m) => m.info(),
        }
    }
}

/// Runs CPU-bound `work` on the rayon pool and resolves to its result, so that an async caller
/// holds no thread meanwhile; `None` when the work panicked.
pub fn on_pool<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> impl Future<Output = Option<R>> {
    let (send, receive) = futures::channel::oneshot::channel();
    rayon::spawn(move || {
        // The receiver is gone only when the caller stopped waiting.
        let _ = send.send(work());
    });
    async move { receive.await.ok() }
}

/// Scores inputs made for other scorers, one call per scorer: `calls` holds, by scorer id, each
/// input with the place its verdict goes (an item's part, answer or step); the scorers run at
/// once and the verdicts come back by place. An id missing from `scorers` is `internal_error`.
/// For scorers that hand parts of their items to other scorers.
pub async fn score_by_scorer<P: Eq + Hash>(
    scorers: &HashMap<String, Scorer>,
    calls: BTreeMap<&str, Vec<(P, Value)>>,
    budget: Budget,
) -> HashMap<P, Verdict> {
    let runs = calls.into_iter().map(|(id, calls)| {
        let (places, values): (Vec<P>, Vec<Value>) = calls.into_iter().unzip();
        let scorer = scorers.get(id).cloned();
        async move {
            let count = values.len();
            let verdicts = match scorer {
                Some(scorer) => scorer.score_values(values, budget).await,
                None => vec![Verdict::internal_error(format!("scorer `{id}` is not available")); count],
            };
            places.into_iter().zip(verdicts).collect::<Vec<_>>()
        }
    });
    join_all(runs).await.into_iter().flatten().collect()
}

/// Items deserialised into inputs, with the verdicts of the malformed ones kept in place.
struct Parsed<I> {
    /// One slot per item: `Some` for a malformed item, `None` where a parsed input goes.
    slots: Vec<Option<Verdict>>,
    inputs: Vec<I>,
}

impl<I: DeserializeOwned> Parsed<I> {
    fn new(items: &[Value]) -> Self {
        let mut slots = Vec::with_capacity(items.len());
        let mut inputs = Vec::with_capacity(items.len());
        for item in items {
            match I::deserialize(item) {
                Ok(input) => {
                    inputs.push(input);
                    slots.push(None);
                }
                Err(e) => slots.push(Some(Verdict::invalid_input(format!("invalid input: {e}")))),
            }
        }
        Parsed { slots, inputs }
    }
}

/// Puts the verdicts of the parsed inputs back between the malformed items' verdicts.
fn merge(slots: Vec<Option<Verdict>>, judged: Vec<Verdict>, count: usize) -> Vec<Verdict> {
    let mut judged = judged.into_iter();
    slots
        .into_iter()
        .map(|slot| {
            slot.or_else(|| judged.next()).unwrap_or_else(|| {
                Verdict::internal_error(format!("scorer returned fewer verdicts than its {count} inputs"))
            })
        })
        .collect()
}

impl<V: Verifier> ErasedVerifier for V {
    fn info(&self) -> ScorerInfo {
        ScorerInfo { description: self.description(), input: InputSchema::of::<V::Input>() }
    }

    fn verify_json(&self, items: &[Value], budget: &Budget) -> Vec<Verdict> {
        let Parsed { slots, inputs } = Parsed::<V::Input>::new(items);
        let count = inputs.len();
        let judged = catch_unwind(AssertUnwindSafe(|| self.verify_batch(&inputs, budget))).unwrap_or_else(|panic| {
            let reason = format!("verifier panicked: {}", panic_message(&*panic));
            vec![Verdict::internal_error(reason); count]
        });
        merge(slots, judged, count)
    }
}

impl<M: RewardModel> ErasedRewardModel for M {
    fn info(&self) -> ScorerInfo {
        ScorerInfo { description: self.description(), input: InputSchema::of::<M::Input>() }
    }

    fn score_json(self: Arc<Self>, items: Vec<Value>, budget: Budget) -> BoxFuture<'static, Vec<Verdict>> {
        let Parsed { slots, inputs } = Parsed::<M::Input>::new(&items);
        async move {
            let count = inputs.len();
            let judged = AssertUnwindSafe(self.score_batch(inputs, budget)).catch_unwind().await;
            let judged = judged.unwrap_or_else(|panic| {
                let reason = format!("reward model panicked: {}", panic_message(&*panic));
                vec![Verdict::internal_error(reason); count]
            });
            merge(slots, judged, count)
        }
        .boxed()
    }

    fn result_cacheable(&self, item: &Value) -> bool {
        RewardModel::result_cacheable(self, item)
    }

    fn admit(&self, items: usize) -> Result<Admission, Busy> {
        RewardModel::admit(self, items)
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// Judges each input independently, in parallel on the rayon pool.
///
/// Items whose turn comes after the deadline get a `timeout` verdict without running; a panic in
/// `judge` becomes that item's `internal_error`. For verifiers with nothing to amortise across a
/// batch, `verify_batch` is one call to this.
pub fn verify_each<I, F>(inputs: &[I], budget: &Budget, judge: F) -> Vec<Verdict>
where
    I: Sync,
    F: Fn(&I, &Budget) -> Verdict + Sync,
{
    let one = |input: &I| {
        if budget.expired() {
            return Verdict::timeout();
        }
        catch_unwind(AssertUnwindSafe(|| judge(input, budget)))
            .unwrap_or_else(|panic| Verdict::internal_error(format!("verifier panicked: {}", panic_message(&*panic))))
    };
    // Below this size the fork-join costs more than the work for the cheap verifiers.
    const PARALLEL_FROM: usize = 16;
    // A few pieces per thread balance uneven items without paying a task per item.
    const PIECES_PER_THREAD: usize = 4;
    if inputs.len() < PARALLEL_FROM {
        inputs.iter().map(one).collect()
    } else {
        let pieces = rayon::current_num_threads().max(1) * PIECES_PER_THREAD;
        inputs.par_iter().with_min_len(inputs.len().div_ceil(pieces)).map(one).collect()
    }
}
