//! Text retention (`[runs.samples]`): the response, extracted answer and details of a random
//! sample of the recorded items, kept with their tags and verdicts so a verdict can be audited
//! later. Off by default; every text is capped at `max_text_bytes`.
//!
//! An item is drawn once, when the hook sees its input: one uniform number `u` per item keeps it
//! when `u < rate`, or when its verdict has an alarm status and `u < alarm_rate`. Only an item
//! that may be kept has its response copied.

use referee_core::Status;
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use super::settings::SampleConfig;
use crate::engine::{RunTag, ScoreResult};

/// The statuses that signal a broken verifier or a collapse of the output format.
pub const ALARMS: [Status; 3] = [Status::InternalError, Status::Timeout, Status::Unparseable];

/// A text, cut to the cap at a character boundary.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Capped {
    pub text: String,
    /// The length of the whole text, in bytes.
    pub bytes: usize,
}

impl Capped {
    pub fn new(text: &str, max_bytes: usize) -> Capped {
        Capped { text: cut(text, max_bytes).to_owned(), bytes: text.len() }
    }

    pub fn is_cut(&self) -> bool {
        self.text.len() < self.bytes
    }
}

/// The longest prefix of `text` within `max_bytes` that ends at a character boundary.
fn cut(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let end = (0..=max_bytes).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    &text[..end]
}

/// An item that may be kept, seen before its verdict.
#[derive(Debug)]
pub(super) struct Candidate {
    pub position: usize,
    pub verifier: &'static str,
    /// The item's draw, uniform in [0, 1).
    pub draw: f64,
    /// Its `response`, when the input has a string one.
    pub response: Option<Capped>,
}

impl Candidate {
    /// The candidate for an item with input `input`, when its draw may keep it.
    pub fn draw(config: &SampleConfig, position: usize, verifier: &'static str, input: &Value) -> Option<Candidate> {
        let draw = rand::random::<f64>();
        (draw < config.rate.max(config.alarm_rate)).then(|| Candidate {
            position,
            verifier,
            draw,
            response: input.get("response").and_then(Value::as_str).map(|r| Capped::new(r, config.max_text_bytes)),
        })
    }

    /// Whether the item is kept, now that its verdict has `status`.
    pub fn kept(&self, config: &SampleConfig, status: Status) -> bool {
        self.draw < config.rate || (ALARMS.contains(&status) && self.draw < config.alarm_rate)
    }
}

/// A kept item, as stored.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SampleRow {
    pub id: String,
    pub tag: RunTag,
    pub item_id: Option<String>,
    pub verifier: &'static str,
    pub status: Status,
    pub score: f64,
    pub latency_us: u64,
    pub response: Option<Capped>,
    pub extracted: Option<Capped>,
    /// The details' JSON, whole or with its long strings cut.
    pub details: String,
    /// Whether the response, the extracted answer or the details were cut.
    pub truncated: bool,
}

impl SampleRow {
    pub fn new(candidate: Candidate, tag: &RunTag, result: &ScoreResult, max_bytes: usize) -> SampleRow {
        let details = match serde_json::to_value(result) {
            Ok(Value::Object(mut whole)) => match whole.remove("details") {
                Some(Value::Object(details)) => details,
                _ => Map::new(),
            },
            _ => Map::new(),
        };
        let extracted = details.get("extracted").filter(|v| !v.is_null()).map(|value| match value.as_str() {
            Some(text) => Capped::new(text, max_bytes),
            None => Capped::new(&value.to_string(), max_bytes),
        });
        let (details, details_cut) = capped_details(details, max_bytes);
        let truncated = details_cut
            || candidate.response.as_ref().is_some_and(Capped::is_cut)
            || extracted.as_ref().is_some_and(Capped::is_cut);
        SampleRow {
            id: format!("smp_{:016x}{:08x}", rand::random::<u64>(), rand::random::<u32>()),
            tag: tag.clone(),
            item_id: result.id.clone(),
            verifier: candidate.verifier,
            status: result.status,
            score: result.score,
            latency_us: result.elapsed_us,
            response: candidate.response,
            extracted,
            details,
            truncated,
        }
    }
}

/// Strings and arrays longer than this many entries are cut when the details are too long.
const LONG_ARRAY: usize = 16;

/// The details' JSON within `max_bytes`, and whether anything was cut: whole when it fits, else
/// with every string cut to a sixteenth of the cap and every array to its first
/// [`LONG_ARRAY`] entries, else only its top-level numbers, booleans, nulls and (cut) strings.
fn capped_details(mut details: Map<String, Value>, max_bytes: usize) -> (String, bool) {
    // A map of JSON values always serialises.
    let json = |details: &Map<String, Value>| serde_json::to_string(details).unwrap_or_else(|_| "{}".to_owned());
    let whole = json(&details);
    if whole.len() <= max_bytes {
        return (whole, false);
    }
    let string_cap = (max_bytes / 16).max(16);
    for value in details.values_mut() {
        shorten(value, string_cap);
    }
    let short = json(&details);
    if short.len() <= max_bytes {
        return (short, true);
    }
    details.retain(|_, value| matches!(value, Value::Number(_) | Value::Bool(_) | Value::String(_) | Value::Null));
    let scalars = json(&details);
    (if scalars.len() <= max_bytes { scalars } else { "{}".to_owned() }, true)
}

fn shorten(value: &mut Value, string_cap: usize) {
    match value {
        Value::String(text) if text.len() > string_cap => {
            let kept = cut(text, string_cap).len();
            text.truncate(kept);
            text.push('…');
        }
        Value::Array(items) => {
            items.truncate(LONG_ARRAY);
            items.iter_mut().for_each(|item| shorten(item, string_cap));
        }
        Value::Object(fields) => fields.values_mut().for_each(|field| shorten(field, string_cap)),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

/// A kept item, as `GET /v1/runs/{run}/samples` lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RunSample {
    /// The sample's id.
    pub id: String,
    pub step: i64,
    pub prompt_id: Option<String>,
    pub group: Option<String>,
    /// The item's `id`, as the request gave it.
    pub item_id: Option<String>,
    pub verifier: String,
    pub status: Status,
    pub score: f64,
    /// Microseconds the item's verifier batch took.
    pub latency_us: i64,
    /// The input's `response` (up to `runs.samples.max_text_bytes`); null when the input had no
    /// string `response`.
    pub response: Option<String>,
    /// The whole response's length in bytes (more than `response` holds when it was cut).
    pub response_bytes: Option<i64>,
    /// The verifier's extracted answer (`details.extracted`), when it reports one.
    pub extracted: Option<String>,
    /// The verdict's details (long strings and arrays cut when they exceeded the cap).
    #[schema(value_type = Object)]
    pub details: Map<String, Value>,
    /// Whether the response, the extracted answer or the details were cut to the cap.
    pub truncated: bool,
    /// When the sample was written, in Unix milliseconds.
    pub created_at_ms: i64,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn texts_are_cut_at_character_boundaries() {
        let capped = Capped::new("héllo", 2);
        assert_eq!((capped.text.as_str(), capped.bytes, capped.is_cut()), ("h", 6, true));
        assert!(!Capped::new("abc", 3).is_cut());
        assert_eq!(cut("日本", 5), "日");
    }

    #[test]
    fn long_details_lose_long_strings_first_then_everything_but_scalars() {
        let small = json!({"extracted": "4", "error": null});
        let Value::Object(small) = small else { unreachable!() };
        assert_eq!(capped_details(small, 256), (r#"{"error":null,"extracted":"4"}"#.to_owned(), false));

        let Value::Object(long) =
            json!({"stderr": "x".repeat(1000), "passed": 3, "tests": (0..40).collect::<Vec<_>>()})
        else {
            unreachable!()
        };
        let (text, cut) = capped_details(long.clone(), 256);
        let value: Value = serde_json::from_str(&text).unwrap_or_default();
        assert!(cut && text.len() <= 256, "{text}");
        assert_eq!(value["passed"], 3);
        assert_eq!(value["tests"].as_array().map(Vec::len), Some(LONG_ARRAY));
        assert_eq!(value["stderr"].as_str().map(|s| s.trim_end_matches('…').len()), Some(16));

        let Value::Object(wide) = json!({"passed": 3, "cases": (0..16).map(|i| json!({"input": i, "output": "y".repeat(10)})).collect::<Vec<_>>()})
        else {
            unreachable!()
        };
        let (text, cut) = capped_details(wide, 64);
        assert_eq!((text.as_str(), cut), (r#"{"passed":3}"#, true));
    }

    #[test]
    fn the_draw_keeps_alarms_at_their_own_rate() {
        let config = SampleConfig { rate: 0.1, alarm_rate: 0.5, ..SampleConfig::default() };
        let candidate = |draw| Candidate { position: 0, verifier: "math", draw, response: None };
        assert!(candidate(0.05).kept(&config, Status::Correct));
        assert!(!candidate(0.3).kept(&config, Status::Correct));
        assert!(candidate(0.3).kept(&config, Status::Timeout));
        assert!(!candidate(0.7).kept(&config, Status::InternalError));
        let off = SampleConfig::default();
        assert!(Candidate::draw(&off, 0, "math", &json!({"response": "x"})).is_none());
        let all = SampleConfig { rate: 1.0, max_text_bytes: 2, ..SampleConfig::default() };
        let drawn = Candidate::draw(&all, 3, "math", &json!({"response": "xyz"}));
        assert_eq!(drawn.and_then(|c| c.response), Some(Capped { text: "xy".to_owned(), bytes: 3 }));
    }
}
