//! Feeds arbitrary bytes to the request-body reader of every route that takes JSON, as the
//! route calls it; the first byte picks the route. A finding is a panic, an `internal_error`
//! (a body is the client's, so refusing it is never the server breaking), a batch accepted
//! with more items than the limit, or an item count from the admission layer's counting pass
//! that differs from the length a full parse finds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use referee_server::http::fuzzing::{Outcome, counted_items, item_field, read_body};
use serde_json::Value;

/// The batch limit the target reads with: small, so that the limit is often crossed.
const MAX_ITEMS: usize = 4;

fuzz_target!(|data: &[u8]| {
    let Some((&shape, body)) = data.split_first() else { return };
    let shape = usize::from(shape);
    let outcome = read_body(shape, body, MAX_ITEMS);
    if let Outcome::Refused { code } = outcome {
        assert_ne!(code, "internal_error", "a body was answered as a server failure");
    }
    let Some(field) = item_field(shape) else { return };
    if let Outcome::Accepted { items: Some(items) } = outcome {
        assert!(items <= MAX_ITEMS, "{items} items accepted over the limit of {MAX_ITEMS}");
    }
    // The counting pass must agree with a full parse of any object.
    if let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(body) {
        let parsed = object.get(field).and_then(Value::as_array).map(Vec::len);
        // A repeated key: serde_json's map keeps the last value, the counting pass counts
        // the last array too.
        assert_eq!(counted_items(body, field), parsed, "the count of `{field}` differs from the parse");
        if parsed.is_some_and(|n| n > MAX_ITEMS) {
            assert_eq!(outcome, Outcome::Refused { code: "too_many_items" });
        }
    }
});
