//! Reading JSON request bodies with bounded work: the body must be a JSON object, a batch's item
//! count is checked by a pass that allocates nothing per item before anything is built from it,
//! and large bodies are parsed on the blocking pool so that the async workers keep answering
//! (`/healthz` included) while a 64 MiB body is parsed.

use std::fmt;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::AppState;
use super::error::{ApiError, BodyLimit, from_json_rejection};

/// Bodies up to this size are parsed where they arrive; larger ones on the blocking pool.
const PARSE_IN_PLACE_BYTES: usize = 256 << 10;

/// A top-level array field whose length a request bounds, and the bound.
#[derive(Debug, Clone, Copy)]
pub struct ItemField {
    pub name: &'static str,
    pub limit: usize,
}

/// The length of a body's top-level array `field`, counted by an earlier layer
/// ([`super::admission::admit_items`]) and carried in the request's extensions so that the
/// body is not scanned for it again.
#[derive(Debug, Clone, Copy)]
pub struct CountedItems {
    pub field: &'static str,
    /// `None` when the body is not valid JSON or has no such array.
    pub count: Option<usize>,
}

/// Reads the body of `request` as a `T`, refusing a body that is not declared as JSON, is over
/// the body limit, is not a JSON object, or (with `items`) has more items than allowed.
pub async fn read_json<T, S>(request: Request, state: &S, items: Option<ItemField>) -> Result<T, ApiError>
where
    T: DeserializeOwned + Send + 'static,
    S: Send + Sync,
{
    if !declares_json(request.headers()) {
        return Err(ApiError::unsupported_media_type());
    }
    let limit = request.extensions().get::<BodyLimit>().map_or(0, |l| l.0);
    let counted = request.extensions().get::<CountedItems>().copied();
    let counted = items.and_then(|field| counted.filter(|c| c.field == field.name)).map(|c| c.count);
    let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::payload_too_large(limit)
        } else {
            ApiError::malformed_json(rejection.body_text())
        }
    })?;
    if bytes.len() <= PARSE_IN_PLACE_BYTES {
        return parse(&bytes, items, counted);
    }
    tokio::task::spawn_blocking(move || {
        referee_core::threads::mark_scoring_thread();
        parse(&bytes, items, counted)
    })
    .await
    .map_err(|join| ApiError::internal(format!("parsing the body failed: {join}")))?
}

/// `axum::Json` whose rejections are [`ApiError`]s.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned + Send + 'static,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        read_json(req, state, None).await.map(ApiJson)
    }
}

/// A batch request: the name of its top-level array of items.
pub trait Batch {
    const ITEMS: &'static str;
}

/// The body of a batch request, its item count checked against `server.max_batch_items` (413
/// `too_many_items`) before anything is built from it.
#[derive(Debug)]
pub struct BatchJson<T>(pub T);

impl<T> FromRequest<AppState> for BatchJson<T>
where
    T: Batch + DeserializeOwned + Send + 'static,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let items = ItemField { name: T::ITEMS, limit: state.limits.max_batch_items };
        read_json(request, state, Some(items)).await.map(BatchJson)
    }
}

/// `application/json` or any `+json` type, as `axum::Json` accepts.
fn declares_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let Some((kind, subtype)) = essence.split_once('/') else {
        return false;
    };
    kind == "application" && (subtype == "json" || subtype.ends_with("+json"))
}

/// `counted`: the items' count when an earlier layer took it (`Some(None)`: no array found).
pub(super) fn parse<T: DeserializeOwned>(
    bytes: &[u8],
    items: Option<ItemField>,
    counted: Option<Option<usize>>,
) -> Result<T, ApiError> {
    // serde's derived structs also accept an array of their fields in order, which the document
    // does not allow and no client means (`[null, null]` would be read as empty settings).
    if bytes.iter().find(|b| !b.is_ascii_whitespace()).is_some_and(|&b| b != b'{') {
        // Not an object: malformed JSON is still told as such (400), a well-formed other value
        // is the wrong shape (422).
        if let Err(error) = serde_json::from_slice::<IgnoredAny>(bytes) {
            return Err(ApiError::malformed_json(error.to_string()));
        }
        return Err(ApiError::invalid_body("the body must be a JSON object".to_owned()));
    }
    if let Some(field) = items {
        // A body that is not valid JSON fails the count; the parse below then says why.
        let count = counted.unwrap_or_else(|| count_items(bytes, field.name).ok().flatten());
        if let Some(count) = count
            && count > field.limit
        {
            return Err(ApiError::too_many_items(count, field.limit));
        }
    }
    axum::Json::<T>::from_bytes(bytes)
        .map(|axum::Json(value)| value)
        .map_err(|rejection| from_json_rejection(rejection, 0))
}

/// The length of the top-level array `field` of a JSON object, counted without building any
/// element; `None` when the object has no such array.
pub fn count_items(bytes: &[u8], field: &'static str) -> serde_json::Result<Option<usize>> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    FieldLength(field).deserialize(&mut deserializer)
}

struct FieldLength(&'static str);

impl<'de> DeserializeSeed<'de> for FieldLength {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FieldLength {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<usize>, A::Error> {
        let mut length = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == self.0 {
                length = map.next_value::<ArrayLength>()?.0;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(length)
    }
}

/// The number of elements of an array (`None` for any other value), elements skipped unbuilt.
struct ArrayLength(Option<usize>);

impl<'de> serde::Deserialize<'de> for ArrayLength {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ArrayLength, D::Error> {
        deserializer.deserialize_any(ArrayLengthVisitor)
    }
}

struct ArrayLengthVisitor;

impl<'de> Visitor<'de> for ArrayLengthVisitor {
    type Value = ArrayLength;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ArrayLength, A::Error> {
        let mut count = 0usize;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        Ok(ArrayLength(Some(count)))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ArrayLength, A::Error> {
        IgnoredAny.visit_map(map).map(|_| ArrayLength(None))
    }

    fn visit_bool<E>(self, _: bool) -> Result<ArrayLength, E> {
        Ok(ArrayLength(None))
    }

    fn visit_i64<E>(self, _: i64) -> Result<ArrayLength, E> {
        Ok(ArrayLength(None))
    }

    fn visit_u64<E>(self, _: u64) -> Result<ArrayLength, E> {
        Ok(ArrayLength(None))
    }

    fn visit_f64<E>(self, _: f64) -> Result<ArrayLength, E> {
        Ok(ArrayLength(None))
    }

    fn visit_str<E>(self, _: &str) -> Result<ArrayLength, E> {
        Ok(ArrayLength(None))
    }

    fn visit_unit<E>(self) -> Result<ArrayLength, E> {
        Ok(ArrayLength(None))
    }
}

/// An item of a batch as read from the body: its JSON, and the first key it holds twice in one
/// object (at any depth), which makes the item `invalid_input` as a duplicate top-level key
/// makes the request 422. A JSON reader keeps one of two equal keys silently (serde_json the
/// last, others the first), so an item with one is not scored: what would be scored is not
/// certain to be what the client meant.
#[derive(Debug, Clone)]
pub struct CheckedItem {
    pub value: Value,
    pub duplicate: Option<String>,
}

impl CheckedItem {
    /// The item's JSON, or why it is `invalid_input`.
    pub fn into_result(self) -> Result<Value, String> {
        match self.duplicate {
            None => Ok(self.value),
            Some(key) => Err(duplicate_key_reason(&key)),
        }
    }
}

/// Why an item holding `key` twice in one object is refused.
pub fn duplicate_key_reason(key: &str) -> String {
    format!("the key `{key}` appears twice in one object of the item; each key must appear once")
}

/// Parses one item on a line of its own (a job's line): its JSON, or why it is `invalid_input`
/// (`what` names it in the reason: "item 3").
pub fn parse_item(text: &str, what: impl fmt::Display) -> Result<Value, String> {
    match serde_json::from_str::<CheckedItem>(text) {
        Ok(item) => item.into_result(),
        Err(error) => Err(format!("{what} is not JSON: {error}")),
    }
}

impl<'de> serde::Deserialize<'de> for CheckedItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<CheckedItem, D::Error> {
        deserializer.deserialize_any(CheckedVisitor)
    }
}

/// Builds a [`Value`] as serde_json's own visitor does, noting the first duplicate key.
struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = CheckedItem;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<CheckedItem, E> {
        Ok(unique(Value::Bool(value)))
    }

    fn visit_i64<E>(self, value: i64) -> Result<CheckedItem, E> {
        Ok(unique(Value::from(value)))
    }

    fn visit_u64<E>(self, value: u64) -> Result<CheckedItem, E> {
        Ok(unique(Value::from(value)))
    }

    fn visit_f64<E>(self, value: f64) -> Result<CheckedItem, E> {
        Ok(unique(serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)))
    }

    fn visit_str<E>(self, value: &str) -> Result<CheckedItem, E> {
        Ok(unique(Value::String(value.to_owned())))
    }

    fn visit_string<E>(self, value: String) -> Result<CheckedItem, E> {
        Ok(unique(Value::String(value)))
    }

    fn visit_unit<E>(self) -> Result<CheckedItem, E> {
        Ok(unique(Value::Null))
    }

    fn visit_none<E>(self) -> Result<CheckedItem, E> {
        Ok(unique(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<CheckedItem, D::Error> {
        deserializer.deserialize_any(CheckedVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CheckedItem, A::Error> {
        let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        let mut duplicate = None;
        while let Some(element) = seq.next_element::<CheckedItem>()? {
            duplicate = duplicate.or(element.duplicate);
            values.push(element.value);
        }
        Ok(CheckedItem { value: Value::Array(values), duplicate })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CheckedItem, A::Error> {
        let mut object = serde_json::Map::new();
        let mut duplicate = None;
        while let Some(key) = map.next_key::<String>()? {
            let element = map.next_value::<CheckedItem>()?;
            duplicate = duplicate.or(element.duplicate);
            match object.entry(key) {
                serde_json::map::Entry::Vacant(vacant) => {
                    vacant.insert(element.value);
                }
                serde_json::map::Entry::Occupied(occupied) => {
                    duplicate = duplicate.or_else(|| Some(occupied.key().clone()));
                }
            }
        }
        Ok(CheckedItem { value: Value::Object(object), duplicate })
    }
}

fn unique(value: Value) -> CheckedItem {
    CheckedItem { value, duplicate: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_named_array_only() {
        let body = br#"{"timeout_ms": 5, "other": [1, 2, 3], "items": [{"a": [1, 2]}, "x", null, 4]}"#;
        assert_eq!(count_items(body, "items").ok(), Some(Some(4)));
        assert_eq!(count_items(body, "other").ok(), Some(Some(3)));
        assert_eq!(count_items(body, "missing").ok(), Some(None));
        assert_eq!(count_items(br#"{"items": {"a": 1}}"#, "items").ok(), Some(None));
        assert_eq!(count_items(br#"{"items": "text"}"#, "items").ok(), Some(None));
        assert!(count_items(br#"{"items": [1, 2"#, "items").is_err());
        assert!(count_items(b"[1, 2]", "items").is_err());
    }

    #[test]
    fn too_many_items_are_refused_before_the_parse() {
        let items = vec!["{}"; 20].join(",");
        let body = format!(r#"{{"items": [{items}]}}"#);
        let field = ItemField { name: "items", limit: 10 };
        match parse::<Value>(body.as_bytes(), Some(field), None) {
            Err(error) => assert_eq!(
                (error.code(), error.to_string().as_str()),
                ("too_many_items", "20 items in one request; the limit is 10")
            ),
            Ok(value) => panic!("{value:?}"),
        }
        assert!(parse::<Value>(body.as_bytes(), Some(ItemField { name: "items", limit: 20 }), None).is_ok());
        // A count an earlier layer took is the one checked: the body is not scanned again.
        let carried = parse::<Value>(body.as_bytes(), Some(field), Some(Some(7)));
        assert!(carried.is_ok(), "{carried:?}");
    }

    #[test]
    fn the_body_must_be_an_object() {
        assert!(matches!(parse::<Value>(b" [1]", None, None), Err(ref e) if e.code() == "invalid_body"));
        assert!(matches!(parse::<Value>(b"{\"a\": ", None, None), Err(ref e) if e.code() == "malformed_json"));
        assert!(matches!(parse::<Value>(b"[1,", None, None), Err(ref e) if e.code() == "malformed_json"));
    }

    #[test]
    fn json_content_types() {
        let accepts = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, value.parse().unwrap_or_else(|e| panic!("{e}")));
            declares_json(&headers)
        };
        for value in
            ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/cloudevents+json"]
        {
            assert!(accepts(value), "{value}");
        }
        for value in ["text/json", "application/jsonx", "text/plain", "application"] {
            assert!(!accepts(value), "{value}");
        }
        assert!(!declares_json(&HeaderMap::new()));
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 32, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
                proptest::collection::btree_map(".{0,6}", inner, 0..6)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    #[test]
    fn a_key_held_twice_at_any_depth_is_noted() {
        for (text, duplicate) in [
            (r#"{"id": "1", "verifier": "exact-match", "input": {"response": "a", "reference": "a"}}"#, None),
            (r#"{"id": "1", "id": "2"}"#, Some("id")),
            (r#"{"input": {"response": "a", "response": "b"}}"#, Some("response")),
            (r#"{"input": {"cases": [{"x": 1}, {"y": 2, "y": 3}]}}"#, Some("y")),
            (r#"{"a": {"k": 1}, "b": {"k": 2}}"#, None),
            (r#"[1, {"k": 1, "k": 1}]"#, Some("k")),
        ] {
            let item: CheckedItem = serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(item.duplicate.as_deref(), duplicate, "{text}");
            if duplicate.is_none() {
                assert_eq!(Some(item.value), serde_json::from_str::<Value>(text).ok(), "{text}");
            }
        }
        assert!(parse_item(r#"{"id": "1", "id": "2"}"#, "item 0").is_err_and(|e| e.contains("`id` appears twice")));
        assert!(parse_item("{", "item 0").is_err_and(|e| e.starts_with("item 0 is not JSON")));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        /// Hostile bytes: an answer, never a panic, whatever the body.
        #[test]
        fn any_body_is_answered(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
            let _ = count_items(&bytes, "items");
            let _ = parse::<Value>(&bytes, Some(ItemField { name: "items", limit: 3 }), None);
        }

        /// Without duplicate keys, an item reads as serde_json reads it.
        #[test]
        fn a_checked_item_is_the_parsed_value(value in json_value()) {
            let text = value.to_string();
            let item: CheckedItem = serde_json::from_str(&text).map_err(|e| proptest::test_runner::TestCaseError::fail(e.to_string()))?;
            proptest::prop_assert_eq!(item.duplicate, None);
            proptest::prop_assert_eq!(Some(item.value), serde_json::from_str::<Value>(&text).ok());
        }

        /// The counting pass agrees with a full parse on any object.
        #[test]
        fn the_count_is_the_parsed_length(
            items in proptest::collection::vec(json_value(), 0..40),
            other in json_value(),
        ) {
            let body = serde_json::json!({"other": other, "items": items}).to_string();
            proptest::prop_assert_eq!(count_items(body.as_bytes(), "items").ok(), Some(Some(items.len())));
            let too_many = parse::<Value>(body.as_bytes(), Some(ItemField { name: "items", limit: 20 }), None);
            proptest::prop_assert_eq!(matches!(too_many, Err(ref e) if e.code() == "too_many_items"), items.len() > 20);
        }
    }
}
