//! CPU priority of the threads that score. The threads that answer connections (health probes,
//! refusals with `Retry-After`, small requests) must get a core within milliseconds even when
//! every core is busy scoring; so threads that do bulk work (verifier batches, parsing large
//! bodies) run at a lower priority, a higher `nice` value, than the process. Work with a
//! wall-clock limit (sandboxed programs) must not be marked: waiting for a core would count
//! against its limit. Linux keeps a nice value per thread; elsewhere this does nothing.
//!
//! The scoring threads still get every core that nothing else wants: niceness only orders who
//! runs first when threads compete for the same cores.

use std::cell::Cell;
use std::sync::atomic::{AtomicI32, Ordering};

/// How much nicer than the process the scoring threads run by default: at +10, Linux gives a
/// waiting thread of the process's own priority about ten times the CPU share of a scoring
/// thread, so it runs at once instead of after the scoring threads' time slices.
pub const DEFAULT_SCORING_NICENESS: i32 = 10;

static SCORING_NICENESS: AtomicI32 = AtomicI32::new(DEFAULT_SCORING_NICENESS);

thread_local! {
    /// Whether this thread's priority was already set.
    static LOWERED: Cell<bool> = const { Cell::new(false) };
}

/// Sets how much nicer than the process scoring threads run, from 0 (the same priority) to 19;
/// it applies to threads marked after this call.
pub fn set_scoring_niceness(increment: i32) {
    SCORING_NICENESS.store(increment.clamp(0, 19), Ordering::Relaxed);
}

/// The current setting of [`set_scoring_niceness`].
pub fn scoring_niceness() -> i32 {
    SCORING_NICENESS.load(Ordering::Relaxed)
}

/// Marks the calling thread as a scoring thread: the first call lowers its priority by the
/// configured increment (capped at nice 19), later calls on the same thread do nothing. A
/// thread's priority cannot be raised back without privileges, so call this only on threads
/// that do nothing but bulk work (a pool's worker, a blocking task's thread).
pub fn mark_scoring_thread() {
    if LOWERED.with(|lowered| lowered.replace(true)) {
        return;
    }
    let increment = scoring_niceness();
    if increment > 0 {
        lower_this_thread(increment);
    }
}

#[cfg(target_os = "linux")]
fn lower_this_thread(increment: i32) {
    use rustix::process::{getpriority_process, setpriority_process};
    // On Linux, PRIO_PROCESS with a thread id names that thread alone.
    let thread = Some(rustix::thread::gettid());
    let Ok(current) = getpriority_process(thread) else { return };
    // Failing (a seccomp filter that forbids it) leaves the thread as it was: priority is a
    // refinement, never a condition of scoring.
    let _ = setpriority_process(thread, current.saturating_add(increment).min(19));
}

#[cfg(not(target_os = "linux"))]
fn lower_this_thread(_increment: i32) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_marked_thread_runs_nicer_and_others_do_not() {
        use rustix::process::getpriority_process;
        let own = || getpriority_process(Some(rustix::thread::gettid())).unwrap_or_else(|e| panic!("{e}"));
        let before = std::thread::spawn(own).join().unwrap_or_else(|_| panic!("thread"));
        let (marked, twice) = std::thread::spawn(move || {
            mark_scoring_thread();
            let marked = own();
            mark_scoring_thread();
            (marked, own())
        })
        .join()
        .unwrap_or_else(|_| panic!("thread"));
        let expected = (before + scoring_niceness()).min(19);
        assert_eq!(marked, expected, "nice {before} + {}", scoring_niceness());
        assert_eq!(twice, marked, "a second mark does not lower it again");
        let after = std::thread::spawn(own).join().unwrap_or_else(|_| panic!("thread"));
        assert_eq!(after, before, "unmarked threads keep the process's priority");
    }
}
