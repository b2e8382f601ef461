//! The OpenAPI document: generated from the handlers' annotations, then completed with the
//! registry's input schemas so that a score item is a `oneOf` over the verifiers.

use std::collections::HashMap;

use referee_core::InputSchema;
use referee_noise::MAX_ABS_REWARD;
use serde_json::{Map, Value, json};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ComponentsBuilder, OpenApi};
use utoipa::{Modify, OpenApi as _};
use utoipa_swagger_ui::{Config, SwaggerUi};

use crate::registry::Registry;

mod examples;

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
        (name = "episodes", description = "Multi-turn environments: episodes that hold state across an agent's actions, with their transcripts."),
        (name = "rubrics", description = "Stored, versioned rubrics for the `rubric` reward model."),
        (name = "rlpr", description = "RLPR probability rewards: the std filter of each training run, and reloading the model that scores `rlpr` items."),
        (name = "runs", description = "Training runs: per-prompt pass rates, sampling decisions for curricula, and reward statistics with bootstrap intervals, from items scored with `run`, `step`, `prompt_id` and `group`."),
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

/// The reference page at `/docs/`, rendering `document` (served at `/openapi.json`). Every asset
/// is bundled into the binary and the validator badge is off (Swagger UI would otherwise send the
/// document to an online validator), so the page loads nothing from the internet.
pub fn swagger_ui(document: Value) -> SwaggerUi {
    SwaggerUi::new("/docs")
        .external_url_unchecked("/openapi.json", document)
        .config(Config::default().validator_url("none").try_it_out_enabled(true))
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
    // The run fields every item may carry, as `VerifierScoreItem` documents them.
    let run_fields: Map<String, Value> = document
        .pointer("/components/schemas/VerifierScoreItem/properties")
        .and_then(Value::as_object)
        .map(|fields| {
            fields
                .iter()
                .filter(|(name, _)| RUN_FIELDS.contains(&name.as_str()))
                .map(|(n, v)| (n.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    for entry in registry.entries() {
        let input = &entry.info.input;
        added.push((input.name.to_string(), to_json(&input.schema)));
        for (name, schema) in &input.referenced {
            added.push((name.clone(), to_json(schema)));
        }
        let item = format!("{}ScoreItem", camel_case(entry.id()));
        let reference = format!("#/components/schemas/{item}");
        let mut schema = json!({
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
        });
        if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
            properties.extend(run_fields.clone());
        }
        added.push((item, schema));
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
        // Items are typed strictly, so that a client's type checker refuses a misspelled field or
        // verifier id. The server is more lenient than the type: a batch never fails for one bad
        // item, which is answered with its own `invalid_input` result in its place.
        for (request, item) in [("ScoreRequest", "ScoreItem"), ("VerifierScoreRequest", "VerifierScoreItem")] {
            if let Some(items) = schemas.get_mut(request).and_then(|r| r.pointer_mut("/properties/items")) {
                items["items"] = json!({"$ref": format!("#/components/schemas/{item}")});
                items["description"] = json!(
                    "The items, answered in the same order. An item that does not match its schema (an \
                     unknown verifier, a missing or misspelled field) is answered with its own \
                     `invalid_input` result, in its place; it never fails the request."
                );
            }
        }
        refine_noise_schemas(schemas);
        name_tagged_variants(schemas);
        schemas.sort_keys();
    }
    examples::add(&mut document);
    document
}

/// Gives each inline variant of an internally tagged `oneOf` (serde's `#[serde(tag = "type")]`)
/// a component of its own, `{Parent}{Tag}`, and states the discriminator.
///
/// Client generators name inline variants by position (`CriterionKindType4`), which changes
/// meaning whenever a variant is added, and openapi-python-client drops an inline variant that
/// itself holds an inline object (it generates the inner model twice and then removes the
/// variant, so the client imports a module that does not exist).
fn name_tagged_variants(schemas: &mut Map<String, Value>) {
    let names: Vec<String> = schemas.keys().cloned().collect();
    for name in names {
        let Some(Value::Array(variants)) = schemas.get(&name).and_then(|s| s.get("oneOf")).cloned() else {
            continue;
        };
        let mut hoisted = Vec::new();
        let mut rewritten = Vec::with_capacity(variants.len());
        let mut mapping = Map::new();
        for variant in variants {
            let tag = variant
                .pointer("/properties/type/enum")
                .and_then(Value::as_array)
                .filter(|tags| tags.len() == 1)
                .and_then(|tags| tags[0].as_str())
                .map(str::to_owned);
            match tag {
                Some(tag) if variant.get("type") == Some(&json!("object")) => {
                    let component = format!("{name}{}", camel_case(&tag));
                    let reference = format!("#/components/schemas/{component}");
                    rewritten.push(json!({"$ref": reference}));
                    mapping.insert(tag, Value::String(reference));
                    hoisted.push((component, variant));
                }
                _ => rewritten.push(variant),
            }
        }
        if hoisted.is_empty() || hoisted.iter().any(|(component, _)| schemas.contains_key(component)) {
            continue;
        }
        let every_variant_tagged = mapping.len() == rewritten.len();
        if let Some(Value::Object(schema)) = schemas.get_mut(&name) {
            schema.insert("oneOf".to_owned(), Value::Array(rewritten));
            if every_variant_tagged {
                schema.insert("discriminator".to_owned(), json!({"propertyName": "type", "mapping": mapping}));
            }
        }
        for (component, variant) in hoisted {
            schemas.insert(component, variant);
        }
    }
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

/// The item fields that tag an item with its training run.
const RUN_FIELDS: [&str; 4] = ["run", "step", "prompt_id", "group"];

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

    fn document() -> Value {
        crate::routes::openapi_document(&Registry::builtin())
    }

    /// Every `$ref` in `value`.
    fn references(value: &Value, found: &mut Vec<String>) {
        match value {
            Value::Object(fields) => {
                if let Some(Value::String(target)) = fields.get("$ref") {
                    found.push(target.clone());
                }
                fields.values().for_each(|child| references(child, found));
            }
            Value::Array(items) => items.iter().for_each(|child| references(child, found)),
            Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
        }
    }

    #[test]
    fn every_reference_resolves() {
        let document = document();
        let mut found = Vec::new();
        references(&document, &mut found);
        assert!(!found.is_empty());
        for target in found {
            let pointer = target.strip_prefix('#').unwrap_or(&target);
            assert!(document.pointer(pointer).is_some(), "{target} names nothing");
        }
    }

    #[test]
    fn tagged_variants_are_named_components_with_a_discriminator() {
        let document = document();
        let schemas = &document["components"]["schemas"];
        let kind = &schemas["CriterionKind"];
        let variants = kind["oneOf"].as_array().map(Vec::len).unwrap_or(0);
        assert!(variants >= 14, "{kind}");
        assert_eq!(kind["discriminator"]["propertyName"], "type");
        assert_eq!(kind["discriminator"]["mapping"]["json_schema"], "#/components/schemas/CriterionKindJsonSchema");
        assert_eq!(kind["discriminator"]["mapping"]["verifier"], "#/components/schemas/CriterionKindVerifier");
        assert_eq!(schemas["CriterionKindJsonSchema"]["properties"]["type"]["enum"], json!(["json_schema"]));
        assert_eq!(schemas["AggregationFormula"]["properties"]["type"]["enum"], json!(["formula"]));
        for variant in kind["oneOf"].as_array().into_iter().flatten() {
            assert!(variant.get("$ref").is_some(), "an inline variant is left: {variant}");
        }
    }

    #[test]
    fn score_items_are_typed_per_verifier() {
        let document = document();
        let schemas = &document["components"]["schemas"];
        assert_eq!(
            schemas["ScoreRequest"]["properties"]["items"]["items"],
            json!({"$ref": "#/components/schemas/ScoreItem"})
        );
        assert_eq!(
            schemas["VerifierScoreRequest"]["properties"]["items"]["items"],
            json!({"$ref": "#/components/schemas/VerifierScoreItem"})
        );
        assert_eq!(schemas["ScoreItem"]["discriminator"]["mapping"]["math"], "#/components/schemas/MathScoreItem");
        assert_eq!(schemas["MathScoreItem"]["properties"]["verifier"]["enum"], json!(["math"]));
        assert_eq!(schemas["MathScoreItem"]["additionalProperties"], json!(false));
        assert!(schemas.get("MalformedItem").is_none());
    }

    #[test]
    fn operations_carry_their_request_examples() {
        let document = document();
        let mut seen = Vec::new();
        for item in document["paths"].as_object().into_iter().flat_map(|paths| paths.values()) {
            for operation in item.as_object().into_iter().flat_map(|methods| methods.values()) {
                let id = operation["operationId"].as_str().unwrap_or_default();
                let Some(content) = operation.pointer("/requestBody/content").and_then(Value::as_object) else {
                    continue;
                };
                if examples::operation_ids().contains(&id) {
                    assert!(content.values().any(|media| media.get("example").is_some()), "{id} has no example");
                    for parameter in operation["parameters"].as_array().into_iter().flatten() {
                        if parameter["in"] == "path" {
                            assert!(parameter.get("example").is_some(), "{id}: {parameter}");
                        }
                    }
                    seen.push(id.to_owned());
                }
            }
        }
        seen.sort();
        let mut wanted: Vec<String> = examples::operation_ids().into_iter().map(str::to_owned).collect();
        wanted.sort();
        assert_eq!(seen, wanted);
    }

    async fn get(router: &axum::Router, path: &str) -> (axum::http::StatusCode, String) {
        use tower::ServiceExt as _;
        let request = axum::http::Request::get(path).body(axum::body::Body::empty());
        let Ok(request) = request else { panic!("bad request for {path}") };
        let Ok(response) = router.clone().oneshot(request).await;
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 64 << 20).await.unwrap_or_default();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    /// Values of `attribute="..."` in an HTML page.
    fn attribute_values(html: &str, attribute: &str) -> Vec<String> {
        let marker = format!("{attribute}=\"");
        html.match_indices(&marker)
            .filter_map(|(at, _)| html[at + marker.len()..].split('"').next().map(str::to_owned))
            .collect()
    }

    #[tokio::test]
    async fn reference_page_loads_nothing_from_the_internet() {
        let router: axum::Router = axum::Router::new().merge(swagger_ui(json!({"openapi": "3.1.0"})));
        let (status, page) = get(&router, "/docs/").await;
        assert_eq!(status, 200, "{page}");
        let assets: Vec<String> =
            attribute_values(&page, "src").into_iter().chain(attribute_values(&page, "href")).collect();
        assert!(assets.iter().any(|a| a.ends_with(".js")), "{page}");
        assert!(assets.iter().any(|a| a.ends_with(".css")), "{page}");
        for asset in &assets {
            // Any host name, with or without a scheme, would be a request off the machine.
            assert!(!asset.contains("//"), "the page loads {asset}");
            let (status, body) = get(&router, &format!("/docs/{}", asset.trim_start_matches("./"))).await;
            assert_eq!(status, 200, "{asset}");
            if asset.ends_with(".css") {
                for url in body.split("url(").skip(1) {
                    let target = url.trim_start_matches(['"', '\'']);
                    assert!(!target.starts_with("http") && !target.starts_with("//"), "{asset} loads {target:.80}");
                }
            }
        }
        let (status, initializer) = get(&router, "/docs/swagger-initializer.js").await;
        assert_eq!(status, 200);
        assert!(
            initializer.contains("\"validatorUrl\": \"none\"") || initializer.contains("\"validatorUrl\":\"none\""),
            "{initializer}"
        );
        assert!(!initializer.contains("http"), "{initializer}");
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
