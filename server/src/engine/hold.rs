//! Reservations held until the work stops: a verifier runs on a blocking thread that a deadline
//! cannot interrupt, so the request may be answered (`timeout`) while its work is still
//! running. A reservation made for the request (room for its items) must last until that work
//! has returned, or an overloaded server admits new work on cores that are still busy.
//!
//! [`hold_while_working`] runs a request's future with a reservation that every piece of
//! blocking scoring work it starts ([`run_scorer`](super::run_scorer)) takes a share of; the
//! reservation is released when the future has finished and the last of that work has
//! returned.

use std::any::Any;
use std::future::Future;
use std::sync::Arc;

/// A share of a request's reservation; the reservation is released with the last share.
pub type Hold = Arc<dyn Any + Send + Sync>;

tokio::task_local! {
    static HELD: Hold;
}

/// Runs `request` with `reservation` held until it has finished and every blocking scoring
/// task it started has returned (the reservation's own `Drop` releases it).
pub async fn hold_while_working<R, F>(reservation: R, request: F) -> F::Output
where
    R: Any + Send + Sync,
    F: Future,
{
    HELD.scope(Arc::new(reservation), request).await
}

/// A share of the current request's reservation, when it holds one.
pub(super) fn share() -> Option<Hold> {
    HELD.try_with(Arc::clone).ok()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, channel};
    use std::time::Duration;

    use referee_core::{Budget, Description, Scorer, Status, Verdict, Verifier};
    use serde_json::json;
    use tokio::sync::Semaphore;
    use utoipa::ToSchema;

    use super::*;
    use crate::engine::run_scorer;

    /// A verifier that ignores its deadline: it returns only when the test says so.
    struct Stubborn(Mutex<Receiver<()>>);

    #[derive(serde::Deserialize, ToSchema)]
    struct Item {
        #[allow(dead_code)]
        response: String,
    }

    impl Verifier for Stubborn {
        type Input = Item;

        fn description(&self) -> Description {
            Description { id: "stubborn", version: "1", summary: "Returns when told to." }
        }

        fn verify_batch(&self, inputs: &[Item], _: &Budget) -> Vec<Verdict> {
            let _ = self.0.lock().map(|r| r.recv());
            inputs.iter().map(|_| Verdict::correct()).collect()
        }
    }

    #[tokio::test]
    async fn the_reservation_outlives_the_answer_until_the_work_returns() {
        let (finish, told) = channel();
        let scorer = Scorer::verifier(Stubborn(Mutex::new(told)));
        let room = Arc::new(Semaphore::new(1));
        let permit = Arc::clone(&room).try_acquire_owned().unwrap_or_else(|e| panic!("{e}"));
        let budget = Budget::with_timeout(Duration::from_millis(10));
        let verdicts = hold_while_working(permit, run_scorer(&scorer, vec![json!({"response": "x"})], budget)).await;
        // Answered at the deadline while the verifier still runs: the room stays taken.
        assert_eq!(verdicts.iter().map(|v| v.status).collect::<Vec<_>>(), [Status::Timeout]);
        assert_eq!(room.available_permits(), 0, "the reservation was released while the work ran");
        finish.send(()).unwrap_or_else(|e| panic!("{e}"));
        // Given back once the work has returned.
        let back = tokio::time::timeout(Duration::from_secs(60), room.acquire()).await;
        assert!(back.is_ok_and(|permit| permit.is_ok()), "the reservation was never released");
    }

    #[tokio::test]
    async fn without_a_reservation_scoring_is_unchanged() {
        let (finish, told) = channel();
        finish.send(()).unwrap_or_else(|e| panic!("{e}"));
        let scorer = Scorer::verifier(Stubborn(Mutex::new(told)));
        let verdicts = run_scorer(&scorer, vec![json!({"response": "x"})], Budget::unlimited()).await;
        assert_eq!(verdicts.iter().map(|v| v.status).collect::<Vec<_>>(), [Status::Correct]);
    }
}
