//! The OpenAPI document: generated from the handlers' annotations, then completed with the
//! registry's input schemas so that a score item is a `oneOf` over the verifiers.

use std::collections::HashMap;

use referee_core::InputSchema;
use referee_noise::MAX_ABS_REWARD;
use serde_json::{Map, Value, json};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ComponentsBuilder, OpenApi};
use utoipa::{Modify, OpenApi as _};

use crate::registry::Registry;

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Referee",
        description = "Verifiers and reward models for reinforcement learning of language models. Send batches \
                       of rollouts; get one verdict per rollout: a score, a status that tells a wrong answer from \
                       an item that could not be judged, and verifier-specific details.",
        license(name = "Apache-2.0", identifier = "Apache-2.0"),
    ),
    tags(
        (name = "scoring", description = "Score batches of items."),
        (name = "verifiers", description = "What can score them."),
        (name = "environments", description = "NP optimisation environments: seeded instances with references."),
        (name = "rubrics", description = "Stored, versioned rubrics for the `rubric` reward model."),
        (name = "rlpr", description = "RLPR probability rewards: the std filter of each training run, and reloading the model that scores `rlpr` items."),
        (name = "operations", description = "Probes and metrics for operators."),
    ),
    modifiers(&BearerKeys),
)]
struct BaseDocument;

struct BearerKeys;

impl Modify for BearerKeys {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.take().unwrap_or_else(|| ComponentsBuilder::new().build());
        let mut components = components;
        components.add_security_scheme("api_key", SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
        openapi.components = Some(components);
    }
}

/// The document before routes are added.
pub fn base_document() -> OpenApi {
    let mut document = BaseDocument::openapi();
    document.info.version = env!("CARGO_PKG_VERSION").to_owned();
    document
}

/// `exact-match` → `ExactMatch`.
fn camel_case(id: &str) -> String {
    id.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| json!({"description": format!("schema not serialisable: {e}")}))
}

/// Adds every verifier's input schema and replaces `ScoreItem` with a `oneOf` over them.
pub fn finish(document: OpenApi, registry: &Registry) -> Value {
    let mut document = to_json(&document);
    let mut variants = Vec::new();
    let mut mapping = Map::new();
    let mut added: Vec<(String, Value)> = Vec::new();
    for entry in registry.entries() {
        let input = &entry.info.input;
        added.push((input.name.to_string(), to_json(&input.schema)));
        for (name, schema) in &input.referenced {
            added.push((name.clone(), to_json(schema)));
        }
        let item = format!("{}ScoreItem", camel_case(entry.id()));
        let reference = format!("#/components/schemas/{item}");
        added.push((
            item,
            json!({
                "type": "object",
                "description": format!("An item for `{}`. {}", entry.id(), entry.info.description.summary),
                "required": ["verifier", "input"],
                "additionalProperties": false,
                "properties": {
                    "id": {"type": ["string", "null"], "description": "Echoed in the result, to match results with items."},
                    "verifier": {"type": "string", "enum": [entry.id()]},
                    "input": {"$ref": format!("#/components/schemas/{}", input.name)},
                    "label": {"type": ["string", "null"], "description": "A task or data-source label that selects a noise model."},
                },
            }),
        ));
        variants.push(json!({"$ref": reference}));
        mapping.insert(entry.id().to_owned(), Value::String(reference));
    }
    added.push((
        "ScoreItem".to_owned(),
        json!({
            "description": "One item to score: the verifier that judges it and that verifier's input.",
            "oneOf": variants,
            "discriminator": {"propertyName": "verifier", "mapping": mapping},
        }),
    ));
    if let Some(schemas) = document.pointer_mut("/components/schemas").and_then(Value::as_object_mut) {
        for (name, schema) in added {
            schemas.insert(name, schema);
        }
        // The engine refuses item fields other than the documented ones.
        if let Some(item) = schemas.get_mut("VerifierScoreItem").and_then(Value::as_object_mut) {
            item.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        // A batch never fails for one bad item: say so in the contract, so that a schema-violating
        // item answered with its own `invalid_input` result is documented behaviour.
        schemas.insert(
            "MalformedItem".to_owned(),
            json!({"description": "Any value that is not a well-formed item. It is answered with its own \
                                   `invalid_input` result, in its place; it never fails the request."}),
        );
        for (request, item) in [("ScoreRequest", "ScoreItem"), ("VerifierScoreRequest", "VerifierScoreItem")] {
            if let Some(items) = schemas.get_mut(request).and_then(|r| r.pointer_mut("/properties/items/items")) {
                *items = json!({"anyOf": [
                    {"$ref": format!("#/components/schemas/{item}")},
                    {"$ref": "#/components/schemas/MalformedItem"},
                ]});
            }
        }
        refine_noise_schemas(schemas);
        schemas.sort_keys();
    }
    document
}

/// States in the contract what the noise endpoints check beyond the types: configured
/// intervals lie in [0, 1]; rewards are bounded, groups are not empty, and corrected rewards name
/// the verifier whose model corrects them.
fn refine_noise_schemas(schemas: &mut Map<String, Value>) {
    if let Some(Value::Object(properties)) = schemas.get_mut("ConfiguredRates").and_then(|c| c.get_mut("properties")) {
        for name in ["rho0_interval", "rho1_interval"] {
            let end = json!({"type": "number", "minimum": 0.0, "maximum": 1.0});
            properties.insert(
                name.to_owned(),
                json!({
                    "description": format!("A 95% interval for {}; it must contain the rate. Without one the rate is taken as exact.", &name[..4]),
                    "type": ["object", "null"],
                    "required": ["lower", "upper"],
                    "additionalProperties": false,
                    "properties": {"lower": end, "upper": end},
                }),
            );
        }
    }
    if let Some(rewards) = schemas.get_mut("RewardGroup").and_then(|g| g.pointer_mut("/properties/rewards")) {
        rewards["minItems"] = json!(1);
        rewards["items"]["minimum"] = json!(-MAX_ABS_REWARD);
        rewards["items"]["maximum"] = json!(MAX_ABS_REWARD);
    }
    if let Some(Value::Object(request)) = schemas.get_mut("AdvantageRequest") {
        request.insert(
            "if".to_owned(),
            json!({"properties": {"reward": {"enum": ["backward", "forward_weight"]}}, "required": ["reward"]}),
        );
        request.insert(
            "then".to_owned(),
            json!({"properties": {"verifier": {"type": "string"}}, "required": ["verifier"]}),
        );
    }
}

/// A verifier's input schema with every `$ref` replaced by the schema it names, for clients
/// that read one verifier's schema on its own (`GET /v1/verifiers`).
pub fn self_contained_schema(input: &InputSchema) -> Value {
    let named: HashMap<String, Value> = input.referenced.iter().map(|(name, s)| (name.clone(), to_json(s))).collect();
    let mut schema = to_json(&input.schema);
    inline_refs(&mut schema, &named, 0);
    schema
}

/// Deepest nesting of references inlined; deeper (recursive) ones stay references.
const MAX_INLINE_DEPTH: usize = 16;

fn inline_refs(value: &mut Value, named: &HashMap<String, Value>, depth: usize) {
    match value {
        Value::Object(fields) => {
            let target = fields
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/components/schemas/"))
                .and_then(|name| named.get(name));
            if let (Some(target), true) = (target, depth < MAX_INLINE_DEPTH) {
                let mut replacement = target.clone();
                inline_refs(&mut replacement, named, depth + 1);
                *value = replacement;
                return;
            }
            for child in fields.values_mut() {
                inline_refs(child, named, depth);
            }
        }
        Value::Array(items) => {
            for child in items {
                inline_refs(child, named, depth);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_become_type_names() {
        assert_eq!(camel_case("exact-match"), "ExactMatch");
        assert_eq!(camel_case("np"), "Np");
        assert_eq!(camel_case("multiple-choice"), "MultipleChoice");
    }

    #[test]
    fn listed_schemas_have_no_references() {
        let registry = Registry::builtin();
        for entry in registry.entries() {
            let schema = self_contained_schema(&entry.info.input).to_string();
            assert!(!schema.contains("$ref"), "{}: {schema}", entry.id());
        }
    }
}
