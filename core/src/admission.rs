//! Admission control: a scorer with bounded capacity reserves it for a request's items before
//! scoring starts, so that a full queue refuses work up front (HTTP 429 or 503 with
//! `Retry-After`) instead of letting it wait past its deadline.

use std::any::Any;

/// Capacity a scorer reserved for a batch. Dropping it, after scoring, gives the capacity back.
///
/// It owns whatever the scorer reserved (semaphore permits, a slot counter) as an opaque boxed
/// value, so the caller need not know the scorer's type.
#[must_use = "dropping an admission releases the capacity it reserved"]
pub struct Admission(Option<Box<dyn Any + Send>>);

impl Admission {
    /// An admission that reserved nothing: what scorers without a bound give.
    pub fn granted() -> Admission {
        Admission(None)
    }

    /// An admission that holds `reservation` until it is dropped; the reservation's own `Drop`
    /// releases the capacity.
    pub fn holding<R: Send + 'static>(reservation: R) -> Admission {
        Admission(Some(Box::new(reservation)))
    }

    /// Whether this admission holds a reservation.
    pub fn reserves(&self) -> bool {
        self.0.is_some()
    }
}

impl std::fmt::Debug for Admission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Admission").field("reserves", &self.reserves()).finish()
    }
}

/// How a refusal answers over HTTP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusyStatus {
    /// 429: the scorer's queue is full; the client should slow down and retry.
    TooManyRequests,
    /// 503: the scorer cannot take work for now (a model still loading, a device busy).
    Unavailable,
}

/// A scorer's refusal to take a batch now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Busy {
    /// Which HTTP status the refusal maps to.
    pub status: BusyStatus,
    /// Seconds a client should wait before retrying (`Retry-After`).
    pub retry_after_secs: u32,
    /// What is full, for people.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Slot(Arc<AtomicUsize>);

    impl Drop for Slot {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn dropping_an_admission_releases_its_reservation() {
        let held = Arc::new(AtomicUsize::new(0));
        held.fetch_add(1, Ordering::SeqCst);
        let admission = Admission::holding(Slot(Arc::clone(&held)));
        assert!(admission.reserves());
        assert_eq!(held.load(Ordering::SeqCst), 1);
        drop(admission);
        assert_eq!(held.load(Ordering::SeqCst), 0);
        assert!(!Admission::granted().reserves());
    }
}
