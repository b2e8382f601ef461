//! Integers as JSON Schema reads them: `3` and `3.0` are the same integer. serde's own integer
//! types refuse the second, which a schema-conformant client may send.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

/// Deserialises an optional non-negative integer into `T`, accepting integral floats.
pub fn optional_integer<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    number
        .as_u64()
        .or_else(|| {
            number.as_f64().filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v <= u64::MAX as f64).map(|v| v as u64)
        })
        .and_then(|v| T::try_from(v).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("expected a non-negative integer in range, got {number}")))
}
