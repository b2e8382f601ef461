use std::time::{Duration, Instant};

/// The resources one item (or one batch) may spend.
///
/// The deadline is wall-clock and absolute, so a batch that starts late leaves its items less
/// time. Fuel and memory are for scorers that can meter them deterministically (sandboxes);
/// others ignore them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    /// When the work must be finished.
    pub deadline: Option<Instant>,
    /// Deterministic CPU budget in scorer-defined units (wasm fuel, solver steps).
    pub fuel: Option<u64>,
    /// Memory cap in bytes.
    pub memory_bytes: Option<u64>,
}

impl Budget {
    /// No limit of any kind.
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// A deadline `timeout` from now.
    pub fn with_timeout(timeout: Duration) -> Self {
        Budget { deadline: Instant::now().checked_add(timeout), ..Budget::default() }
    }

    /// Time left before the deadline; `None` when there is no deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// True once the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The tighter of this budget and a per-item timeout.
    pub fn capped(&self, timeout: Duration) -> Budget {
        let own = Instant::now().checked_add(timeout);
        let deadline = match (self.deadline, own) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Budget { deadline, ..*self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_takes_the_earlier_deadline() {
        let long = Budget::with_timeout(Duration::from_secs(60));
        let short = long.capped(Duration::from_millis(10));
        assert!(short.deadline < long.deadline);
        let again = short.capped(Duration::from_secs(3600));
        assert_eq!(again.deadline, short.deadline);
        assert!(Budget::unlimited().remaining().is_none());
        assert!(!Budget::unlimited().expired());
        assert!(Budget::with_timeout(Duration::ZERO).expired());
    }
}
