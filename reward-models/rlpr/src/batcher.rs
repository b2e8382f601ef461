//! The batcher in front of a model hosted in this process: requests from many scoring calls
//! wait in one bounded queue, and one dedicated thread coalesces them into forward passes.
//!
//! - The queue holds at most `queue_capacity` sequences (queued or reserved); a submission that
//!   does not fit is refused at once with [`SourceError::Busy`], and [`Batcher::has_room`] and
//!   [`Batcher::reserve`] let an admission check refuse a request before any work is done.
//! - The thread takes up to `max_batch_sequences` sequences and `max_batch_tokens` tokens,
//!   waiting at most `max_wait_ms` for more once the first arrives. It sorts them by length and
//!   cuts them into forward passes of similar lengths whose padded size (sequences × longest)
//!   stays within `max_batch_tokens`, so short sequences are not padded to long ones.
//! - The model sits behind a swappable handle: [`Batcher::reload`] replaces it between passes;
//!   queued sequences stay queued and run on the new model.
//! - A model that fails or panics fails the sequences of that pass only.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::source::{SourceError, TokenSequence};

/// A model the batcher runs: one forward pass over a batch of sequences, returning each
/// sequence's log-probs at its scored positions, in order. Blocking and CPU- or GPU-bound; it
/// runs on the batcher's own thread.
pub trait BatchModel: Send + Sync + 'static {
    /// The log-probs of each sequence's scored positions; exactly one list per sequence.
    fn run(&self, batch: &[TokenSequence]) -> Result<Vec<Vec<f32>>, String>;
}

/// How requests are coalesced (`[rlpr.batcher]` in the server configuration).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BatcherConfig {
    /// Sequences queued or reserved at once; more are refused as busy.
    pub queue_capacity: usize,
    /// Tokens in one forward pass, padding included (a longer sequence runs alone).
    pub max_batch_tokens: usize,
    /// Sequences in one forward pass.
    pub max_batch_sequences: usize,
    /// How long the first queued sequence waits for others to join its batch, in milliseconds.
    pub max_wait_ms: u64,
}

impl Default for BatcherConfig {
    fn default() -> Self {
        BatcherConfig { queue_capacity: 4096, max_batch_tokens: 16_384, max_batch_sequences: 64, max_wait_ms: 5 }
    }
}

impl BatcherConfig {
    /// Checks the values; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        if self.queue_capacity == 0 || self.max_batch_tokens == 0 || self.max_batch_sequences == 0 {
            return Err(
                "rlpr.batcher.queue_capacity, rlpr.batcher.max_batch_tokens and rlpr.batcher.max_batch_sequences \
                 must be at least 1"
                    .to_owned(),
            );
        }
        Ok(())
    }
}

/// One submitter's answers, in the order of its sequences.
pub type Answers = Vec<Result<Vec<f32>, String>>;

/// A submission waiting for its sequences' answers.
struct Job {
    state: Mutex<JobState>,
}

struct JobState {
    results: Vec<Option<Result<Vec<f32>, String>>>,
    left: usize,
    reply: Option<oneshot::Sender<Answers>>,
}

impl Job {
    fn answer(&self, index: usize, result: Result<Vec<f32>, String>) {
        let Ok(mut state) = self.state.lock() else { return };
        if let Some(slot) = state.results.get_mut(index)
            && slot.is_none()
        {
            *slot = Some(result);
            state.left -= 1;
        }
        if state.left == 0
            && let Some(reply) = state.reply.take()
        {
            let answers = state
                .results
                .iter_mut()
                .map(|r| r.take().unwrap_or_else(|| Err("the sequence was not run".to_owned())))
                .collect();
            let _ = reply.send(answers);
        }
    }
}

/// A queued sequence and where its answer goes.
struct Entry {
    sequence: TokenSequence,
    job: Arc<Job>,
    index: usize,
}

#[derive(Default)]
struct Queue {
    entries: VecDeque<Entry>,
    /// Tokens of the queued sequences.
    tokens: usize,
    /// Sequences held by reservations.
    reserved: usize,
    closed: bool,
}

struct Shared<M> {
    config: BatcherConfig,
    model: RwLock<Arc<M>>,
    generation: AtomicU64,
    queue: Mutex<Queue>,
    wake: Condvar,
}

impl<M> Shared<M> {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The batcher: a bounded queue and the thread that runs the model over it. Dropping it lets
/// the thread finish what is queued and stop.
pub struct Batcher<M: BatchModel> {
    shared: Arc<Shared<M>>,
}

impl<M: BatchModel> std::fmt::Debug for Batcher<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batcher").field("config", &self.shared.config).finish()
    }
}

impl<M: BatchModel> Drop for Batcher<M> {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_all();
    }
}

/// Room for some sequences in a batcher's queue, held until submitted or dropped.
pub struct Reservation<M: BatchModel> {
    shared: Arc<Shared<M>>,
    count: usize,
}

impl<M: BatchModel> std::fmt::Debug for Reservation<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reservation").field("count", &self.count).finish()
    }
}

impl<M: BatchModel> Drop for Reservation<M> {
    fn drop(&mut self) {
        let mut queue = self.shared.lock();
        queue.reserved = queue.reserved.saturating_sub(self.count);
    }
}

impl<M: BatchModel> Reservation<M> {
    /// How many sequences this reservation holds room for.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Queues `sequences` (at most [`Reservation::count`]) in the room reserved; the receiver
    /// gets one answer per sequence, in order.
    pub fn submit(self, sequences: Vec<TokenSequence>) -> Result<oneshot::Receiver<Answers>, SourceError> {
        if sequences.len() > self.count {
            return Err(SourceError::Busy(format!(
                "{} sequences submitted on a reservation for {}",
                sequences.len(),
                self.count
            )));
        }
        let (reply, receiver) = oneshot::channel();
        let count = sequences.len();
        let job = Arc::new(Job {
            state: Mutex::new(JobState { results: vec![None; count], left: count, reply: Some(reply) }),
        });
        if count == 0 {
            let _ = job.state.lock().ok().and_then(|mut state| state.reply.take()).map(|reply| reply.send(Vec::new()));
            return Ok(receiver);
        }
        let mut queue = self.shared.lock();
        for (index, sequence) in sequences.into_iter().enumerate() {
            queue.tokens += sequence.ids.len();
            queue.entries.push_back(Entry { sequence, job: Arc::clone(&job), index });
        }
        metrics::gauge!("referee_rlpr_queue_depth").set(queue.entries.len() as f64);
        drop(queue);
        self.shared.wake.notify_one();
        Ok(receiver)
    }
}

impl<M: BatchModel> Batcher<M> {
    /// Starts the batcher's thread with `model`; `config` must be valid.
    pub fn start(model: M, config: BatcherConfig) -> std::io::Result<Batcher<M>> {
        let shared = Arc::new(Shared {
            config,
            model: RwLock::new(Arc::new(model)),
            generation: AtomicU64::new(1),
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
        });
        let worker = Arc::clone(&shared);
        std::thread::Builder::new().name("rlpr-batcher".to_owned()).spawn(move || run(&worker))?;
        Ok(Batcher { shared })
    }

    /// The settings in effect.
    pub fn config(&self) -> &BatcherConfig {
        &self.shared.config
    }

    /// The model now in use (the next pass runs it).
    pub fn model(&self) -> Arc<M> {
        Arc::clone(&self.shared.model.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// Counts the models loaded: 1 for the first, and one more per [`Batcher::reload`].
    pub fn generation(&self) -> u64 {
        self.shared.generation.load(Ordering::SeqCst)
    }

    /// Replaces the model between passes; queued sequences run on the new one. Returns the new
    /// generation.
    pub fn reload(&self, model: M) -> u64 {
        let mut slot = self.shared.model.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        *slot = Arc::new(model);
        self.shared.generation.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Sequences queued now (reserved room not counted).
    pub fn queued(&self) -> usize {
        self.shared.lock().entries.len()
    }

    /// Whether `count` more sequences fit in the queue now.
    pub fn has_room(&self, count: usize) -> bool {
        let queue = self.shared.lock();
        queue.entries.len() + queue.reserved + count <= self.shared.config.queue_capacity
    }

    /// Holds room for `count` sequences, or says the queue is too full.
    pub fn reserve(&self, count: usize) -> Result<Reservation<M>, SourceError> {
        let capacity = self.shared.config.queue_capacity;
        let mut queue = self.shared.lock();
        let used = queue.entries.len() + queue.reserved;
        if used + count > capacity {
            drop(queue);
            metrics::counter!("referee_rlpr_busy_total").increment(1);
            return Err(SourceError::Busy(if count > capacity {
                format!("{count} sequences are more than the queue holds ({capacity}, rlpr.batcher.queue_capacity)")
            } else {
                format!("the queue holds {used} of {capacity} sequences; {count} more do not fit")
            }));
        }
        queue.reserved += count;
        drop(queue);
        Ok(Reservation { shared: Arc::clone(&self.shared), count })
    }

    /// Queues `sequences` if they fit, or refuses them as busy; the receiver gets one answer per
    /// sequence, in order.
    pub fn try_submit(&self, sequences: Vec<TokenSequence>) -> Result<oneshot::Receiver<Answers>, SourceError> {
        self.reserve(sequences.len())?.submit(sequences)
    }

    /// [`Batcher::try_submit`], then waits for the answers.
    pub async fn run(&self, sequences: Vec<TokenSequence>) -> Result<Answers, SourceError> {
        let receiver = self.try_submit(sequences)?;
        receiver.await.map_err(|_| SourceError::Backend("the batcher stopped before answering".to_owned()))
    }
}

/// The batcher thread: take a batch, run it, until the batcher is dropped and the queue empty.
fn run<M: BatchModel>(shared: &Shared<M>) {
    while let Some(batch) = next_batch(shared) {
        run_batch(shared, batch);
    }
}

/// Waits for the first sequence, then up to `max_wait_ms` for the batch to fill; takes it.
fn next_batch<M>(shared: &Shared<M>) -> Option<Vec<Entry>> {
    let config = &shared.config;
    let mut queue = shared.lock();
    while queue.entries.is_empty() {
        if queue.closed {
            return None;
        }
        queue = shared.wake.wait(queue).unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    let deadline = Instant::now() + Duration::from_millis(config.max_wait_ms);
    loop {
        let full = queue.entries.len() >= config.max_batch_sequences || queue.tokens >= config.max_batch_tokens;
        let now = Instant::now();
        if full || queue.closed || now >= deadline {
            break;
        }
        queue = shared.wake.wait_timeout(queue, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
    }
    let mut taken = Vec::new();
    let mut tokens = 0;
    while let Some(front) = queue.entries.front() {
        let length = front.sequence.ids.len();
        if taken.len() == config.max_batch_sequences || (!taken.is_empty() && tokens + length > config.max_batch_tokens)
        {
            break;
        }
        tokens += length;
        queue.tokens -= length;
        taken.extend(queue.entries.pop_front());
    }
    metrics::gauge!("referee_rlpr_queue_depth").set(queue.entries.len() as f64);
    Some(taken)
}

/// Cuts a batch sorted by length into passes whose padded size fits `max_tokens`.
fn passes(lengths: &[usize], max_tokens: usize, max_sequences: usize) -> Vec<std::ops::Range<usize>> {
    let mut passes = Vec::new();
    let mut start = 0;
    for (i, &length) in lengths.iter().enumerate() {
        let count = i - start + 1;
        if i > start && (count * length > max_tokens || count > max_sequences) {
            passes.push(start..i);
            start = i;
        }
    }
    if start < lengths.len() {
        passes.push(start..lengths.len());
    }
    passes
}

fn run_batch<M: BatchModel>(shared: &Shared<M>, mut batch: Vec<Entry>) {
    batch.sort_by_key(|entry| entry.sequence.ids.len());
    let lengths: Vec<usize> = batch.iter().map(|e| e.sequence.ids.len()).collect();
    let config = &shared.config;
    let mut entries = batch.into_iter();
    for pass in passes(&lengths, config.max_batch_tokens, config.max_batch_sequences) {
        let pass_entries: Vec<Entry> = entries.by_ref().take(pass.len()).collect();
        let longest = lengths[pass.end - 1];
        metrics::histogram!("referee_rlpr_batch_sequences").record(pass.len() as f64);
        metrics::histogram!("referee_rlpr_batch_tokens").record(lengths[pass].iter().sum::<usize>() as f64);
        metrics::histogram!("referee_rlpr_batch_padded_tokens").record((pass_entries.len() * longest) as f64);
        let (sequences, targets): (Vec<TokenSequence>, Vec<(Arc<Job>, usize)>) =
            pass_entries.into_iter().map(|e| (e.sequence, (e.job, e.index))).unzip();
        let model = Arc::clone(&shared.model.read().unwrap_or_else(std::sync::PoisonError::into_inner));
        let outcome = catch_unwind(AssertUnwindSafe(|| model.run(&sequences)));
        let results: Vec<Result<Vec<f32>, String>> = match outcome {
            Ok(Ok(outputs)) if outputs.len() == sequences.len() => outputs
                .into_iter()
                .zip(&sequences)
                .map(|(values, sequence)| {
                    if values.len() == sequence.positions.len() {
                        Ok(values)
                    } else {
                        Err(format!(
                            "the model returned {} log-probs for {} scored positions",
                            values.len(),
                            sequence.positions.len()
                        ))
                    }
                })
                .collect(),
            Ok(Ok(outputs)) => {
                let reason = format!("the model returned {} results for {} sequences", outputs.len(), sequences.len());
                vec![Err(reason); sequences.len()]
            }
            Ok(Err(reason)) => vec![Err(reason); sequences.len()],
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_owned());
                vec![Err(format!("the model panicked: {what}")); sequences.len()]
            }
        };
        for ((job, index), result) in targets.into_iter().zip(results) {
            job.answer(index, result);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use super::*;

    /// The batcher's test double for an arbitrary model: each scored position's "log-prob" is
    /// −(token id) × scale; it records the lengths of each pass, can be held at a gate, and
    /// fails or panics on a sequence whose first token is 666 or 999.
    struct Echo {
        scale: f32,
        passes: Arc<Mutex<Vec<Vec<usize>>>>,
        gate: Arc<(Mutex<bool>, Condvar)>,
        runs: Arc<AtomicUsize>,
    }

    impl Echo {
        fn new(scale: f32) -> Echo {
            Echo {
                scale,
                passes: Arc::default(),
                gate: Arc::new((Mutex::new(true), Condvar::new())),
                runs: Arc::default(),
            }
        }

        fn sharing(&self, scale: f32) -> Echo {
            Echo { scale, passes: Arc::clone(&self.passes), gate: Arc::clone(&self.gate), runs: Arc::clone(&self.runs) }
        }
    }

    impl BatchModel for Echo {
        fn run(&self, batch: &[TokenSequence]) -> Result<Vec<Vec<f32>>, String> {
            self.runs.fetch_add(1, Ordering::SeqCst);
            let (lock, open) = &*self.gate;
            let mut is_open = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            while !*is_open {
                is_open = open.wait(is_open).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            drop(is_open);
            if let Ok(mut passes) = self.passes.lock() {
                passes.push(batch.iter().map(|s| s.ids.len()).collect());
            }
            if batch.iter().any(|s| s.ids.first() == Some(&999)) {
                panic!("token 999");
            }
            if batch.iter().any(|s| s.ids.first() == Some(&666)) {
                return Err("token 666".to_owned());
            }
            Ok(batch
                .iter()
                .map(|s| s.positions.iter().map(|&p| -(s.ids[p as usize] as f32) * self.scale).collect())
                .collect())
        }
    }

    fn set_gate(model: &Echo, open: bool) {
        let (lock, cvar) = &*model.gate;
        *lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = open;
        cvar.notify_all();
    }

    fn sequence(first: u32, length: usize) -> TokenSequence {
        let ids: Vec<u32> = (0..length as u32).map(|i| first + i).collect();
        TokenSequence { ids, positions: (1..length as u32).collect() }
    }

    fn config(capacity: usize, tokens: usize, sequences: usize, wait: u64) -> BatcherConfig {
        BatcherConfig {
            queue_capacity: capacity,
            max_batch_tokens: tokens,
            max_batch_sequences: sequences,
            max_wait_ms: wait,
        }
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| panic!("runtime: {e}"))
    }

    /// A batcher whose model is held at its gate while running a first submission of one
    /// sequence of length 2 (ids `first`, `first + 1`): the batcher, the handle that opens the
    /// gate, and the first submission's receiver.
    fn held(config: BatcherConfig, first: u32) -> (Batcher<Echo>, Echo, oneshot::Receiver<Answers>) {
        let model = Echo::new(1.0);
        set_gate(&model, false);
        let gate = model.sharing(1.0);
        let batcher = Batcher::start(model, config).unwrap_or_else(|e| panic!("{e}"));
        let running = batcher.try_submit(vec![sequence(first, 2)]).unwrap_or_else(|e| panic!("{e}"));
        while gate.runs.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        (batcher, gate, running)
    }

    #[test]
    fn answers_come_back_in_submission_order_and_batches_are_length_bucketed() {
        // Held at the gate, the first pass lets the rest queue up; the second batch then has
        // sequences of lengths 2, 8, 3, 7, sorted and cut into passes of padded size ≤ 20.
        let (batcher, gate, first) = held(config(64, 20, 8, 50), 10);
        let passes = Arc::clone(&gate.passes);
        let mixed = vec![sequence(100, 2), sequence(200, 8), sequence(300, 3), sequence(400, 7)];
        let second = batcher.try_submit(mixed).unwrap_or_else(|e| panic!("{e}"));
        set_gate(&gate, true);
        let answers = rt().block_on(async { (first.await, second.await) });
        let (Ok(first), Ok(second)) = answers else { panic!("both answered") };
        assert_eq!(first, vec![Ok(vec![-11.0])]);
        assert_eq!(second[0], Ok(vec![-101.0]));
        assert_eq!(second[1], Ok((201..208).map(|t| -(t as f32)).collect::<Vec<_>>()));
        assert_eq!(second[2], Ok(vec![-301.0, -302.0]));
        assert_eq!(second[3].as_ref().map(Vec::len), Ok(6));
        let passes = passes.lock().map(|p| p.clone()).unwrap_or_default();
        // Lengths 2 and 3 share a pass (padded 6); adding 7 would pad 3 × 7 = 21 > 20; 7 and 8
        // make 2 × 8 = 16.
        assert_eq!(passes, vec![vec![2], vec![2, 3], vec![7, 8]]);
    }

    #[test]
    fn the_queue_is_bounded_and_reservations_hold_room() {
        let (batcher, gate, running) = held(config(4, 1000, 1, 0), 1);
        // The running sequence left the queue: four places remain.
        let queued = batcher.try_submit(vec![sequence(1, 2), sequence(1, 2)]).unwrap_or_else(|e| panic!("{e}"));
        assert!(batcher.has_room(2) && !batcher.has_room(3));
        let held = batcher.reserve(2).unwrap_or_else(|e| panic!("{e}"));
        assert!(!batcher.has_room(1));
        assert!(matches!(batcher.try_submit(vec![sequence(1, 2)]), Err(SourceError::Busy(_))));
        assert!(matches!(batcher.reserve(5), Err(SourceError::Busy(m)) if m.contains("more than the queue holds")));
        drop(held);
        assert!(batcher.has_room(2));
        let held = batcher.reserve(1).unwrap_or_else(|e| panic!("{e}"));
        let on_reservation = held.submit(vec![sequence(5, 3)]).unwrap_or_else(|e| panic!("{e}"));
        set_gate(&gate, true);
        let answers = rt().block_on(async { (running.await, queued.await, on_reservation.await) });
        assert!(
            matches!(answers, (Ok(a), Ok(b), Ok(c)) if a.len() == 1 && b.len() == 2 && c == vec![Ok(vec![-6.0, -7.0])])
        );
        assert!(batcher.has_room(4));
    }

    #[test]
    fn a_reload_applies_to_queued_sequences_without_dropping_them() {
        let (batcher, gate, old) = held(config(16, 1000, 1, 0), 1);
        let queued = batcher.try_submit(vec![sequence(1, 2)]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(batcher.reload(gate.sharing(10.0)), 2);
        assert_eq!(batcher.generation(), 2);
        set_gate(&gate, true);
        let answers = rt().block_on(async { (old.await, queued.await) });
        // The pass already running finishes on the old model; the queued one runs on the new.
        assert!(matches!(answers, (Ok(a), Ok(b)) if a == vec![Ok(vec![-2.0])] && b == vec![Ok(vec![-20.0])]));
    }

    #[test]
    fn a_failing_or_panicking_model_fails_only_its_pass() {
        let batcher = Batcher::start(Echo::new(1.0), config(16, 1000, 1, 0)).unwrap_or_else(|e| panic!("{e}"));
        let answers = rt().block_on(batcher.run(vec![sequence(666, 2), sequence(999, 2), sequence(7, 2)]));
        let Ok(answers) = answers else { panic!("answered") };
        assert!(answers[0].as_ref().is_err_and(|e| e.contains("666")), "{answers:?}");
        assert!(answers[1].as_ref().is_err_and(|e| e.contains("panicked")), "{answers:?}");
        assert_eq!(answers[2], Ok(vec![-8.0]));
        // The thread survives the panic.
        assert_eq!(rt().block_on(batcher.run(vec![sequence(3, 2)])), Ok(vec![Ok(vec![-4.0])]));
        assert_eq!(rt().block_on(batcher.run(Vec::new())), Ok(Vec::new()));
    }
}
