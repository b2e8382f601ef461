//! A key's request rate (a token bucket) and its daily item quota. Both live in this process's
//! memory: with several replicas, each enforces them on the requests it serves.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const SECONDS_PER_DAY: u64 = 86_400;

/// A token bucket: `burst` requests at once, refilled at `rate` per second.
#[derive(Debug)]
pub struct RateLimit {
    rate: f64,
    burst: f64,
    bucket: Mutex<Bucket>,
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimit {
    /// A full bucket of `burst` tokens (at least one) refilled at `rate` per second.
    pub fn new(rate: f64, burst: u32) -> RateLimit {
        let burst = f64::from(burst.max(1));
        RateLimit { rate, burst, bucket: Mutex::new(Bucket { tokens: burst, at: Instant::now() }) }
    }

    /// Requests per second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Takes one token at `now`, or says in how many whole seconds (at least 1) one is there.
    pub fn try_take(&self, now: Instant) -> Result<(), u32> {
        let mut bucket = self.bucket.lock().unwrap_or_else(PoisonError::into_inner);
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.rate).min(self.burst);
        bucket.at = now.max(bucket.at);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        let wait = Duration::from_secs_f64(((1.0 - bucket.tokens) / self.rate).min(f64::from(u32::MAX)));
        Err(u32::try_from(wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).unwrap_or(u32::MAX).max(1))
    }
}

/// Items a key may have scored per UTC day.
#[derive(Debug)]
pub struct DailyQuota {
    max: u64,
    /// (UTC day number, items charged that day).
    used: Mutex<(u64, u64)>,
}

/// A quota refusal: the limit, and the seconds until the next UTC day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaRefusal {
    pub limit: u64,
    pub retry_after_secs: u32,
}

/// Seconds since the Unix epoch, now.
pub fn unix_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl DailyQuota {
    /// A quota of `max` items per UTC day.
    pub fn new(max: u64) -> DailyQuota {
        DailyQuota { max, used: Mutex::new((0, 0)) }
    }

    /// The items allowed per day.
    pub fn limit(&self) -> u64 {
        self.max
    }

    fn refusal(&self, unix_secs: u64) -> QuotaRefusal {
        let left = SECONDS_PER_DAY - unix_secs % SECONDS_PER_DAY;
        QuotaRefusal { limit: self.max, retry_after_secs: u32::try_from(left).unwrap_or(u32::MAX) }
    }

    /// Charges `items` at `unix_secs`, or refuses (charging nothing) when they would take the day
    /// past the limit. A request of 0 items is refused only once the day's quota is spent.
    pub fn try_charge(&self, items: u64, unix_secs: u64) -> Result<(), QuotaRefusal> {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        let day = unix_secs / SECONDS_PER_DAY;
        if used.0 != day {
            *used = (day, 0);
        }
        let spent = used.1 >= self.max && self.max > 0;
        if spent || used.1.saturating_add(items) > self.max {
            return Err(self.refusal(unix_secs));
        }
        used.1 += items;
        Ok(())
    }
}

impl DailyQuota {
    /// Gives back `items` charged at `charged_secs` for a request that was not served, if that
    /// day is still the current one.
    pub fn refund(&self, items: u64, charged_secs: u64) {
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        if used.0 == charged_secs / SECONDS_PER_DAY {
            used.1 = used.1.saturating_sub(items);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_holds_a_burst_then_refills() {
        let limit = RateLimit::new(2.0, 3);
        let start = Instant::now();
        for _ in 0..3 {
            assert_eq!(limit.try_take(start), Ok(()));
        }
        assert_eq!(limit.try_take(start), Err(1), "half a second to the next token, rounded up");
        assert_eq!(limit.try_take(start + Duration::from_millis(500)), Ok(()));
        assert!(limit.try_take(start + Duration::from_millis(500)).is_err());
        // Refilled to the burst, never past it.
        let later = start + Duration::from_secs(60);
        for _ in 0..3 {
            assert_eq!(limit.try_take(later), Ok(()));
        }
        assert!(limit.try_take(later).is_err());
    }

    #[test]
    fn a_slow_rate_asks_for_a_longer_wait() {
        let limit = RateLimit::new(0.1, 1);
        let start = Instant::now();
        assert_eq!(limit.try_take(start), Ok(()));
        assert_eq!(limit.try_take(start), Err(10));
    }

    #[test]
    fn the_quota_counts_items_per_utc_day() {
        let quota = DailyQuota::new(10);
        let day = 20_000 * SECONDS_PER_DAY;
        assert_eq!(quota.try_charge(6, day + 100), Ok(()));
        assert_eq!(quota.try_charge(5, day + 200), Err(QuotaRefusal { limit: 10, retry_after_secs: 86_200 }));
        assert_eq!(quota.try_charge(4, day + 300), Ok(()), "a refused request charged nothing");
        assert!(quota.try_charge(0, day + 400).is_err(), "a spent quota refuses even an empty request");
        quota.refund(4, day + 500);
        assert_eq!(quota.try_charge(3, day + 600), Ok(()), "a refund makes room again");
        assert_eq!(quota.try_charge(10, day + SECONDS_PER_DAY), Ok(()), "the next UTC day starts over");
        quota.refund(10, day);
        assert!(quota.try_charge(1, day + SECONDS_PER_DAY).is_err(), "yesterday's refund is not today's");
    }
}
