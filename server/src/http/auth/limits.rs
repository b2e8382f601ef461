//! A key's request rate (a token bucket) and its daily item quota. The rate lives in this
//! process's memory: with several replicas, each enforces it on the requests it serves. The
//! quota is counted in the database once it is open (`key_usage`), so every replica and every
//! restart charges the same day's count; while the database is unreachable, each process counts
//! in its own memory.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::store::Storage;

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

/// Where the keys' daily charges are counted: set once the database is open, shared by every
/// key's quota.
#[derive(Debug, Clone, Default)]
pub struct Ledger(Arc<OnceLock<Storage>>);

impl Ledger {
    /// Counts charges in `storage` from now on (once: a second call changes nothing).
    pub fn connect(&self, storage: Storage) {
        let _ = self.0.set(storage);
    }
}

/// Items a key may have scored per UTC day.
#[derive(Debug)]
pub struct DailyQuota {
    max: u64,
    /// The key's name, under which the database counts its charges.
    key: String,
    ledger: Ledger,
    /// (UTC day number, items charged that day) in this process, while the database is not
    /// connected or not reachable.
    used: Mutex<(u64, u64)>,
}

/// A quota refusal: the limit, and the seconds until the next UTC day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaRefusal {
    pub limit: u64,
    pub retry_after_secs: u32,
}

/// Items charged to a quota, to give back with [`DailyQuota::refund`] if the request is not served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Charged {
    items: u64,
    day: u64,
    /// Counted in the database (else in this process).
    shared: bool,
}

/// Seconds since the Unix epoch, now.
pub fn unix_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl DailyQuota {
    /// A quota of `max` items per UTC day for the key named `key`, counted in `ledger` once it
    /// is connected.
    pub fn new(max: u64, key: &str, ledger: Ledger) -> DailyQuota {
        DailyQuota { max, key: key.to_owned(), ledger, used: Mutex::new((0, 0)) }
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
    pub async fn try_charge(&self, items: u64, unix_secs: u64) -> Result<Charged, QuotaRefusal> {
        let day = unix_secs / SECONDS_PER_DAY;
        if items > self.max {
            return Err(self.refusal(unix_secs));
        }
        if let Some(storage) = self.ledger.0.get() {
            match tokio::time::timeout(LEDGER_WAIT, charge_in(storage, &self.key, day, items, self.max)).await {
                Ok(Ok(true)) => return Ok(Charged { items, day, shared: true }),
                Ok(Ok(false)) => return Err(self.refusal(unix_secs)),
                Ok(Err(error)) => ledger_unreachable(&error.to_string()),
                Err(_) => ledger_unreachable("no answer within the ledger's wait"),
            }
        }
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        if used.0 != day {
            *used = (day, 0);
        }
        let spent = used.1 >= self.max && self.max > 0;
        if spent || used.1.saturating_add(items) > self.max {
            return Err(self.refusal(unix_secs));
        }
        used.1 += items;
        Ok(Charged { items, day, shared: false })
    }

    /// Gives back a charge for a request that was not served (where it was counted, and only
    /// while its day is the current one in this process's memory).
    pub async fn refund(&self, charged: Charged) {
        if charged.shared {
            if let Some(storage) = self.ledger.0.get() {
                match tokio::time::timeout(LEDGER_WAIT, refund_in(storage, &self.key, charged.day, charged.items)).await
                {
                    Ok(Ok(())) => {}
                    Ok(Err(error)) => ledger_unreachable(&error.to_string()),
                    Err(_) => ledger_unreachable("no answer within the ledger's wait"),
                }
            }
            return;
        }
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        if used.0 == charged.day {
            used.1 = used.1.saturating_sub(charged.items);
        }
    }
}

/// Adds `items` to the key's count for `day` if the count stays within `max` (and, for 0 items,
/// is not already spent), in one statement, so that concurrent charges from every replica never
/// pass the limit together. `Ok(false)`: refused, nothing charged.
async fn charge_in(storage: &Storage, key: &str, day: u64, items: u64, max: u64) -> Result<bool, sqlx::Error> {
    let charged = sqlx::query(
        "INSERT INTO key_usage (key_name, day, items) VALUES ($1, $2, $3) \
         ON CONFLICT (key_name, day) DO UPDATE SET items = key_usage.items + excluded.items \
         WHERE key_usage.items + excluded.items <= $4 AND key_usage.items < $4 \
         RETURNING items",
    )
    .bind(key)
    .bind(i64::try_from(day).unwrap_or(i64::MAX))
    .bind(i64::try_from(items).unwrap_or(i64::MAX))
    .bind(i64::try_from(max).unwrap_or(i64::MAX))
    .fetch_optional(storage.pool())
    .await?;
    Ok(charged.is_some())
}

async fn refund_in(storage: &Storage, key: &str, day: u64, items: u64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE key_usage SET items = CASE WHEN items > $3 THEN items - $3 ELSE 0 END \
         WHERE key_name = $1 AND day = $2",
    )
    .bind(key)
    .bind(i64::try_from(day).unwrap_or(i64::MAX))
    .bind(i64::try_from(items).unwrap_or(i64::MAX))
    .execute(storage.pool())
    .await?;
    Ok(())
}

/// The longest a request waits for the database to take or give back a charge; then the
/// charge is counted in this process (a charge the database takes later counts in both).
const LEDGER_WAIT: Duration = Duration::from_secs(2);

/// A quota falls back to this process's count while the database cannot be reached: a quota
/// is a limit on abuse, and scoring must not stop with the database. Logged at most once a minute.
fn ledger_unreachable(error: &str) {
    static LAST: Mutex<Option<Instant>> = Mutex::new(None);
    metrics::counter!("referee_quota_ledger_errors_total").increment(1);
    let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
    if last.is_none_or(|at| at.elapsed() >= Duration::from_secs(60)) {
        *last = Some(Instant::now());
        tracing::warn!(%error, "cannot count quota charges in the database; counting in this process meanwhile");
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

    #[tokio::test]
    async fn the_quota_counts_items_per_utc_day() {
        let quota = DailyQuota::new(10, "alice", Ledger::default());
        let day = 20_000 * SECONDS_PER_DAY;
        assert!(quota.try_charge(6, day + 100).await.is_ok());
        assert_eq!(quota.try_charge(5, day + 200).await, Err(QuotaRefusal { limit: 10, retry_after_secs: 86_200 }));
        let four = quota.try_charge(4, day + 300).await;
        assert!(four.is_ok(), "a refused request charged nothing");
        assert!(quota.try_charge(0, day + 400).await.is_err(), "a spent quota refuses even an empty request");
        quota.refund(four.unwrap_or_else(|e| panic!("{e:?}"))).await;
        assert!(quota.try_charge(3, day + 600).await.is_ok(), "a refund makes room again");
        let tomorrow = quota.try_charge(10, day + SECONDS_PER_DAY).await;
        assert!(tomorrow.is_ok(), "the next UTC day starts over");
        let yesterday = Charged { items: 10, day: day / SECONDS_PER_DAY, shared: false };
        quota.refund(yesterday).await;
        assert!(quota.try_charge(1, day + SECONDS_PER_DAY).await.is_err(), "yesterday's refund is not today's");
        assert!(quota.try_charge(11, day + 2 * SECONDS_PER_DAY).await.is_err(), "more than a day's items");
    }
}
