//! Admission: each scorer reserves capacity for its group of items before any is scored, and
//! what a request does when a scorer is full (refuse, wait, or wait until a deadline) is a
//! policy ([`Admit`]).

use std::time::{Duration, Instant};

use referee_core::{Admission, Budget, Busy};
use serde_json::Value;

use super::Engine;

/// What scoring does when a scorer's queue is full, and so what it can fail with.
pub(super) trait Admit {
    /// What a full queue turns into: [`Busy`], or nothing for a policy that never refuses.
    type Refusal;

    /// `Some` refuses the request; `None` waits and asks again. `now` is when the queue was
    /// found full.
    fn refuse(&self, busy: Busy, now: Instant) -> Option<Self::Refusal>;

    /// When waiting ends, if ever: no sleep reaches past it.
    fn until(&self) -> Option<Instant> {
        None
    }
}

/// Refuse the whole request (HTTP 429 or 503 with `Retry-After`).
pub(super) struct Refuse;

impl Admit for Refuse {
    type Refusal = Busy;

    fn refuse(&self, busy: Busy, _: Instant) -> Option<Busy> {
        Some(busy)
    }
}

/// Wait and ask again, without limit: background work must never fail or lose items to load.
pub(super) struct Wait;

impl Admit for Wait {
    type Refusal = std::convert::Infallible;

    fn refuse(&self, _: Busy, _: Instant) -> Option<std::convert::Infallible> {
        None
    }
}

/// Wait and ask again until an instant, then refuse with 503: trainer-facing requests, whose
/// clients retry blindly or drop the reward, are held rather than refused while there is time.
pub(super) struct WaitUntil(pub(super) Instant);

impl Admit for WaitUntil {
    type Refusal = Busy;

    fn refuse(&self, busy: Busy, now: Instant) -> Option<Busy> {
        (now >= self.0).then(|| Busy {
            status: referee_core::BusyStatus::Unavailable,
            message: format!("{}; no room came within the request deadline", busy.message),
            ..busy
        })
    }

    fn until(&self) -> Option<Instant> {
        Some(self.0)
    }
}

/// The first and the longest wait between two admission attempts of background work.
const ADMISSION_BACKOFF_MIN: Duration = Duration::from_millis(10);
const ADMISSION_BACKOFF_MAX: Duration = Duration::from_millis(500);

impl Engine {
    pub(super) async fn admit<A: Admit>(
        &self,
        policy: &A,
        groups: &[Vec<(usize, Value)>],
        budget: &mut Budget,
    ) -> Result<Vec<Admission>, A::Refusal> {
        let started = Instant::now();
        let mut backoff = ADMISSION_BACKOFF_MIN;
        let mut place_in_line = None;
        loop {
            let reserved: Result<Vec<Admission>, Busy> = groups
                .iter()
                .enumerate()
                .filter(|(_, group)| !group.is_empty())
                .map(|(index, group)| self.registry.at(index).scorer.admit(group.len()))
                .collect();
            let busy = match reserved {
                Ok(admissions) => {
                    if let Some(deadline) = budget.deadline.as_mut() {
                        *deadline += started.elapsed();
                    }
                    return Ok(admissions);
                }
                Err(busy) => busy,
            };
            let now = Instant::now();
            if let Some(refusal) = policy.refuse(busy, now) {
                metrics::counter!("referee_admissions_refused_total").increment(1);
                return Err(refusal);
            }
            if place_in_line.is_none() {
                // Wait for the head of the line, then ask again at once.
                let line = self.waiting_line.lock();
                match policy.until() {
                    None => place_in_line = Some(line.await),
                    Some(until) => {
                        if let Ok(guard) = tokio::time::timeout_at(until.into(), line).await {
                            place_in_line = Some(guard);
                        }
                    }
                }
                continue;
            }
            let pause = policy.until().map_or(backoff, |until| backoff.min(until.saturating_duration_since(now)));
            tokio::time::sleep(pause).await;
            backoff = (backoff * 2).min(ADMISSION_BACKOFF_MAX);
        }
    }
}
