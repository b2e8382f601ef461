//! Counted work and cooperative cancellation.
//!
//! Every loop whose length depends on the input (the extraction scanners, the lexer, the
//! parser, normal forms, numeric evaluation, the comparison's recursion) reports the steps it
//! takes with [`tick`]. The count serves two ends: tests bound the work of hostile inputs by
//! counting instead of timing ([`counted`]), and every few thousand steps the item's deadline
//! is checked, so that a judgement stops soon after its deadline instead of running on after
//! its request has been answered. Once the deadline has passed, [`tick`] answers `false` and
//! the loops that can stop early do; [`crate::judge`] then returns a `timeout` verdict unless
//! it had already credited the answer.
//!
//! The meter is per thread: one judgement runs on one thread from start to end.

use std::cell::Cell;
use std::time::Instant;

/// Steps between two looks at the clock. A step is roughly one byte scanned, one token or one
/// tree node; a look at the clock costs about as much as a few dozen steps.
const CHECK_EVERY: u64 = 4096;

thread_local! {
    static METER: Meter = const {
        Meter { steps: Cell::new(0), next_check: Cell::new(CHECK_EVERY), deadline: Cell::new(None), expired: Cell::new(false) }
    };
}

struct Meter {
    /// Steps taken on this thread since it started (wrapping is harmless: only differences count).
    steps: Cell<u64>,
    next_check: Cell<u64>,
    deadline: Cell<Option<Instant>>,
    expired: Cell<bool>,
}

/// Records `steps` steps of work; `false` once the current judgement's deadline has passed.
pub(crate) fn tick(steps: usize) -> bool {
    METER.with(|m| {
        let now = m.steps.get().wrapping_add(steps as u64);
        m.steps.set(now);
        if m.expired.get() {
            return false;
        }
        if now >= m.next_check.get() {
            m.next_check.set(now.saturating_add(CHECK_EVERY));
            if m.deadline.get().is_some_and(|d| Instant::now() >= d) {
                m.expired.set(true);
                return false;
            }
        }
        true
    })
}

/// True when [`tick`] has found the current judgement's deadline passed: some work may have
/// been cut short, so a failure to parse or to match is not a verdict.
pub(crate) fn cut_short() -> bool {
    METER.with(|m| m.expired.get())
}

/// Runs `f` as one judgement under `deadline`: [`tick`] and [`expired`] answer for it. The
/// previous deadline is restored afterwards, so judgements may nest.
pub(crate) fn within<T>(deadline: Option<Instant>, f: impl FnOnce() -> T) -> T {
    /// Puts the previous deadline back, also when `f` panics.
    struct Restore(Option<Instant>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            METER.with(|m| {
                m.deadline.set(self.0);
                m.expired.set(self.1);
            });
        }
    }
    let _restore = METER.with(|m| {
        let saved = Restore(m.deadline.get(), m.expired.get());
        m.deadline.set(deadline);
        m.expired.set(false);
        // Look at the clock on the first tick: a judgement may start after its deadline.
        m.next_check.set(m.steps.get());
        saved
    });
    f()
}

/// Runs `f` and returns its result with the steps of work it counted on this thread.
///
/// A step is roughly one byte scanned, one token, or one node visited; the count is
/// deterministic for a given input, so tests can bound the work of a hostile input by it (a
/// scan that turned quadratic would count quadratically many steps).
pub fn counted<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = METER.with(|m| m.steps.get());
    let out = f();
    let after = METER.with(|m| m.steps.get());
    (out, after.wrapping_sub(before))
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use referee_core::{Budget, Status};

    use super::*;
    use crate::MathOptions;
    use crate::verify::judge_metered;

    /// A pair whose comparison is long: a series summed term by term.
    const RESPONSE: &str = "So the sum is $\\boxed{\\sum_{k=1}^{5000} \\frac{1}{k^2}}$.";
    const REFERENCE: &str = "\\frac{\\pi^2}{6}";

    #[test]
    fn a_judgement_stops_at_its_deadline_and_times_out() {
        let opts = MathOptions::default();
        let (full, full_steps) = counted(|| judge_metered(RESPONSE, REFERENCE, &opts, &Budget::unlimited()));
        assert_ne!(full.status, Status::Timeout);
        // A deadline that has passed when the work starts: the first counted step sees it.
        let past = Budget { deadline: Some(Instant::now()), ..Budget::default() };
        let (cut, cut_steps) = counted(|| judge_metered(RESPONSE, REFERENCE, &opts, &past));
        assert_eq!(cut.status, Status::Timeout, "{cut:?}");
        assert!(cut_steps * 10 < full_steps, "stopped after {cut_steps} steps of {full_steps}");
    }

    #[test]
    fn the_deadline_is_restored_after_a_judgement() {
        let past = Some(Instant::now());
        within(past, || assert!(!tick(1) && cut_short()));
        // Outside any judgement nothing expires, however much is counted.
        assert!(tick(usize::try_from(CHECK_EVERY * 3).unwrap_or(usize::MAX)));
        assert!(!cut_short());
        let far = Some(Instant::now() + Duration::from_secs(3600));
        within(far, || assert!(tick(1)));
    }
}
