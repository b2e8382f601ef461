//! What a scoring request answers: one [`ScoreResult`] per item, in item order.

use std::sync::Arc;

use referee_core::{Status, Verdict};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// The verdict of one item, as returned by the API.
#[derive(Debug, Clone, PartialEq, ToSchema)]
pub struct ScoreResult {
    /// The item's `id`, echoed; null when the item had none.
    pub id: Option<String>,
    /// The verifier that judged the item; null when the item named none.
    pub verifier: Option<String>,
    /// The reward. Finite; 0 for every non-judging status.
    pub score: f64,
    /// The outcome class.
    pub status: Status,
    /// Verifier-specific details; error verdicts carry their reason under `error`.
    #[schema(value_type = Object)]
    pub details: Map<String, Value>,
    /// `details.reward`, the noise layer's corrections: serialised once per noise model and
    /// shared by every verdict it corrects, then written into `details` on output.
    #[schema(ignore)]
    pub reward: Option<SharedJson>,
    /// Microseconds the item's verifier batch took (0 for cached and malformed items).
    pub elapsed_us: u64,
}

/// A JSON value serialised once and shared.
#[derive(Debug, Clone)]
pub struct SharedJson(Arc<RawValue>);

impl SharedJson {
    /// Serialises `value` once.
    pub fn new(value: &impl Serialize) -> serde_json::Result<SharedJson> {
        Ok(SharedJson(Arc::from(serde_json::value::to_raw_value(value)?)))
    }
}

impl PartialEq for SharedJson {
    fn eq(&self, other: &SharedJson) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Serialize for ScoreResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut result = serializer.serialize_struct("ScoreResult", 6)?;
        result.serialize_field("id", &self.id)?;
        result.serialize_field("verifier", &self.verifier)?;
        result.serialize_field("score", &self.score)?;
        result.serialize_field("status", &self.status)?;
        result.serialize_field("details", &Details { fields: &self.details, reward: self.reward.as_ref() })?;
        result.serialize_field("elapsed_us", &self.elapsed_us)?;
        result.end()
    }
}

/// `details` with the shared `reward` added.
struct Details<'a> {
    fields: &'a Map<String, Value>,
    reward: Option<&'a SharedJson>,
}

impl Serialize for Details<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let Some(reward) = self.reward else {
            return self.fields.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(self.fields.len() + 1))?;
        for (name, value) in self.fields.iter().filter(|(name, _)| *name != "reward") {
            map.serialize_entry(name, value)?;
        }
        map.serialize_entry("reward", &*reward.0)?;
        map.end()
    }
}

/// A result for an item that never reached a verifier.
pub(crate) fn unscored(status: Status, reason: &str) -> ScoreResult {
    ScoreResult {
        id: None,
        verifier: None,
        score: 0.0,
        status,
        details: Verdict::failure(status, reason).details,
        reward: None,
        elapsed_us: 0,
    }
}
