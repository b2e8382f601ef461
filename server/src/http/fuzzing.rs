//! The request-body reader as the JSON routes call it, for the fuzz target in `server/fuzz` and
//! for the tests that keep that target's entry point working. Not an API: the shapes and the
//! answer may change with the routes.

use serde::de::DeserializeOwned;

use super::json::{Batch, ItemField, count_items, parse};
use super::score::{ScoreRequest, VerifierScoreRequest};
use crate::features::adapters::openrlhf::RewardRequest;
use crate::features::environments::GenerateInstances;
use crate::features::noise::handlers::StepUpdate;
use crate::features::noise::{AuditUpload, NoiseSettings};
use crate::features::rlpr::handlers::PrepareRequest;
use crate::features::rlpr::{FilterRequest, ReloadRequest};
use crate::features::rubrics::handlers::NewRubric;
use referee_noise::AdvantageRequest;

/// The body shapes of the routes that read JSON, by name; a fuzz input's first byte picks one.
pub const SHAPES: [&str; 12] = [
    "POST /v1/score",
    "POST /v1/verifiers/{id}/score",
    "POST /get_reward",
    "PUT /v1/noise/{verifier}",
    "POST /v1/noise/{verifier}/audits",
    "POST /v1/noise/{verifier}/step",
    "POST /v1/noise/{verifier}/advantages",
    "POST /v1/rubrics",
    "POST /v1/rlpr/filter",
    "POST /v1/rlpr/reload",
    "POST /v1/rlpr/prepare",
    "POST /v1/environments/{id}/instances",
];

/// What reading a body came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The body was read as the route's request; `items`: its batch's length, for batch routes.
    Accepted { items: Option<usize> },
    /// The body was refused with this error code, as the route would answer it.
    Refused { code: &'static str },
}

/// Reads `body` as the route `SHAPES[shape % SHAPES.len()]` reads its body, batch routes with at
/// most `max_items` items.
pub fn read_body(shape: usize, body: &[u8], max_items: usize) -> Outcome {
    match shape % SHAPES.len() {
        0 => batch::<ScoreRequest>(body, max_items, |r| r.items.len()),
        1 => batch::<VerifierScoreRequest>(body, max_items, |r| r.items.len()),
        2 => batch::<RewardRequest>(body, max_items, |r| r.query.len()),
        3 => single::<NoiseSettings>(body),
        4 => single::<AuditUpload>(body),
        5 => single::<StepUpdate>(body),
        6 => single::<AdvantageRequest>(body),
        7 => single::<NewRubric>(body),
        8 => single::<FilterRequest>(body),
        9 => single::<ReloadRequest>(body),
        10 => single::<PrepareRequest>(body),
        _ => single::<GenerateInstances>(body),
    }
}

/// The length of `body`'s top-level array `field` as the admission layer counts it, without
/// building the items; `None` when the body is not an object holding such an array.
pub fn counted_items(body: &[u8], field: &'static str) -> Option<usize> {
    count_items(body, field).ok().flatten()
}

/// The item field of the batch shape `shape`, if it is one.
pub fn item_field(shape: usize) -> Option<&'static str> {
    match shape % SHAPES.len() {
        0 => Some(ScoreRequest::ITEMS),
        1 => Some(VerifierScoreRequest::ITEMS),
        2 => Some(RewardRequest::ITEMS),
        _ => None,
    }
}

fn batch<T: Batch + DeserializeOwned>(body: &[u8], limit: usize, length: impl Fn(&T) -> usize) -> Outcome {
    match parse::<T>(body, Some(ItemField { name: T::ITEMS, limit }), None) {
        Ok(request) => Outcome::Accepted { items: Some(length(&request)) },
        Err(error) => Outcome::Refused { code: error.code() },
    }
}

fn single<T: DeserializeOwned>(body: &[u8]) -> Outcome {
    match parse::<T>(body, None, None) {
        Ok(_) => Outcome::Accepted { items: None },
        Err(error) => Outcome::Refused { code: error.code() },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fuzz target's seeds (`server/fuzz/seeds`) read as the routes read them.
    #[test]
    fn the_fuzz_seeds_are_answered_as_the_routes_answer_them() {
        let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
        let mut read = 0;
        let mut wrong = Vec::new();
        for entry in std::fs::read_dir(&seeds).unwrap_or_else(|e| panic!("{}: {e}", seeds.display())) {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let (&shape, body) = data.split_first().unwrap_or_else(|| panic!("{}: empty", path.display()));
            let outcome = read_body(usize::from(shape), body, 4);
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            // A seed's name says what the route answers: `ok-*` is read, `<code>-*` refused so.
            let expected = name.split_once('-').map(|(head, _)| head).unwrap_or_default();
            let answered = match outcome {
                Outcome::Accepted { .. } => "ok",
                Outcome::Refused { code } => code,
            };
            if answered != expected {
                wrong.push(format!("{name}: {outcome:?}"));
            }
            read += 1;
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        assert!(read >= SHAPES.len(), "{read} seeds");
    }

    #[test]
    fn a_batch_over_the_limit_is_refused_by_its_count() {
        let items = [r#"{"verifier": "math", "input": {}}"#; 5].join(",");
        let body = format!(r#"{{"items": [{items}]}}"#);
        assert_eq!(read_body(0, body.as_bytes(), 4), Outcome::Refused { code: "too_many_items" });
        assert_eq!(read_body(0, body.as_bytes(), 5), Outcome::Accepted { items: Some(5) });
        assert_eq!(counted_items(body.as_bytes(), "items"), Some(5));
        assert_eq!(read_body(2, br#"{"query": ["a", "b"]}"#, 4), Outcome::Accepted { items: Some(2) });
        assert_eq!(read_body(2, br#"[{"query": []}]"#, 4), Outcome::Refused { code: "invalid_body" });
    }
}
