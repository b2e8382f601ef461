//! Integers as JSON Schema reads them: `112` and `112.0` are the same integer. serde's own
//! integer types refuse the second, which a schema-conformant client may send.

use serde::{Deserialize, Deserializer, de::Error as _};

/// The integral value of a JSON number, if it has one and it is non-negative.
fn integral(number: &serde_json::Number) -> Option<u64> {
    number.as_u64().or_else(|| {
        number.as_f64().filter(|v| v.fract() == 0.0 && *v >= 0.0 && *v <= u64::MAX as f64).map(|v| v as u64)
    })
}

/// Deserialises a non-negative integer into `T`, accepting integral floats.
pub fn integer<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    let number = serde_json::Number::deserialize(deserializer)?;
    integral(&number)
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| D::Error::custom(format!("expected a non-negative integer in range, got {number}")))
}

/// Like [`integer`], for an optional field.
pub fn optional_integer<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    integral(&number)
        .and_then(|v| T::try_from(v).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("expected a non-negative integer in range, got {number}")))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Probe {
        #[serde(deserialize_with = "super::integer")]
        small: u8,
        #[serde(default, deserialize_with = "super::optional_integer")]
        big: Option<u64>,
    }

    fn probe(json: &str) -> Option<Probe> {
        serde_json::from_str(json).ok()
    }

    #[test]
    fn integral_floats_are_integers() {
        assert_eq!(probe(r#"{"small": 3.0, "big": 112.0}"#).map(|p| (p.small, p.big)), Some((3, Some(112))));
        assert_eq!(probe(r#"{"small": 3}"#).map(|p| (p.small, p.big)), Some((3, None)));
        assert!(probe(r#"{"small": 3.5}"#).is_none());
        assert!(probe(r#"{"small": 256}"#).is_none());
        assert!(probe(r#"{"small": -1}"#).is_none());
        assert!(probe(r#"{"small": "3"}"#).is_none());
    }
}
