//! JSON Schema validation for the `json_schema` criterion: the keywords that describe the shape
//! of model output (`type`, `properties`, `required`, `additionalProperties`, `items`,
//! `minItems`, `maxItems`, `uniqueItems`, `enum`, `const`, `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`, `maxLength`, `pattern`,
//! `minProperties`, `maxProperties`, `allOf`, `anyOf`, `oneOf`, `not`, `$defs`/`definitions`
//! with local `$ref`). Unknown keywords are refused when the rubric is checked, so a schema
//! never passes because a keyword was silently ignored.

use std::collections::{HashMap, HashSet};

use regex::{Regex, RegexBuilder};
use serde_json::{Map, Value};

const KNOWN: [&str; 31] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minProperties",
    "maxProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "$defs",
    "definitions",
    "$ref",
    "$schema",
    "$id",
    "title",
    "description",
];

/// Most nesting followed while checking or validating (schemas and `$ref` chains).
const MAX_DEPTH: usize = 64;

/// Largest compiled size of one `pattern`.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// A checked schema with its `pattern`s compiled once.
#[derive(Debug, Clone)]
pub struct CompiledSchema {
    schema: Value,
    patterns: HashMap<String, Regex>,
}

/// Checks that `schema` uses only supported keywords with well-formed values, and compiles it.
pub fn check(schema: &Value) -> Result<CompiledSchema, String> {
    let mut patterns = HashMap::new();
    check_at(schema, "#", 0, &mut patterns)?;
    Ok(CompiledSchema { schema: schema.clone(), patterns })
}

impl CompiledSchema {
    /// `Ok` when `instance` is valid against the schema, else the first violation.
    pub fn validate(&self, instance: &Value) -> Result<(), String> {
        validate_at(&self.schema, &self.schema, instance, "$", 0, &self.patterns)
    }
}

fn check_at(schema: &Value, path: &str, depth: usize, patterns: &mut HashMap<String, Regex>) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("{path}: the schema nests too deeply"));
    }
    let object = match schema {
        Value::Bool(_) => return Ok(()),
        Value::Object(object) => object,
        Value::Null | Value::Number(_) | Value::String(_) | Value::Array(_) => {
            return Err(format!("{path}: a schema must be an object or a boolean"));
        }
    };
    for (key, value) in object {
        if !KNOWN.contains(&key.as_str()) {
            return Err(format!("{path}: the keyword `{key}` is not supported"));
        }
        let at = format!("{path}/{key}");
        match key.as_str() {
            "properties" | "$defs" | "definitions" => {
                let map = value.as_object().ok_or_else(|| format!("{at}: must be an object"))?;
                for (name, sub) in map {
                    check_at(sub, &format!("{at}/{name}"), depth + 1, patterns)?;
                }
            }
            "additionalProperties" | "items" | "not" => check_at(value, &at, depth + 1, patterns)?,
            "allOf" | "anyOf" | "oneOf" => {
                let list = value
                    .as_array()
                    .filter(|l| !l.is_empty())
                    .ok_or_else(|| format!("{at}: must be a non-empty array"))?;
                for (i, sub) in list.iter().enumerate() {
                    check_at(sub, &format!("{at}/{i}"), depth + 1, patterns)?;
                }
            }
            "pattern" => {
                let pattern = value.as_str().ok_or_else(|| format!("{at}: must be a string"))?;
                let regex = RegexBuilder::new(pattern)
                    .size_limit(PATTERN_SIZE_LIMIT)
                    .build()
                    .map_err(|e| format!("{at}: {e}"))?;
                patterns.insert(pattern.to_owned(), regex);
            }
            "$ref" => {
                let reference = value.as_str().ok_or_else(|| format!("{at}: must be a string"))?;
                if !reference.starts_with("#/") && reference != "#" {
                    return Err(format!("{at}: only local references (`#/...`) are supported"));
                }
            }
            "type" => {
                let names: Vec<&Value> = value.as_array().map_or_else(|| vec![value], |list| list.iter().collect());
                const TYPES: [&str; 7] = ["null", "boolean", "object", "array", "number", "integer", "string"];
                if let Some(name) = names.iter().find(|name| !name.as_str().is_some_and(|n| TYPES.contains(&n))) {
                    return Err(format!("{at}: unknown type {name}"));
                }
            }
            "required" if !value.as_array().is_some_and(|l| l.iter().all(Value::is_string)) => {
                return Err(format!("{at}: must be an array of strings"));
            }
            "enum" if !value.is_array() => return Err(format!("{at}: must be an array")),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "minItems"
            | "maxItems" | "minLength" | "maxLength" | "minProperties" | "maxProperties"
                if !value.is_number() =>
            {
                return Err(format!("{at}: must be a number"));
            }
            _ => {}
        }
    }
    Ok(())
}

fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
}

fn type_matches(name: &str, instance: &Value) -> bool {
    match name {
        "null" => instance.is_null(),
        "boolean" => instance.is_boolean(),
        "object" => instance.is_object(),
        "array" => instance.is_array(),
        "number" => instance.is_number(),
        "integer" => instance.as_f64().is_some_and(|v| v.fract() == 0.0),
        "string" => instance.is_string(),
        _ => false,
    }
}

fn number(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64)
}

fn validate_at(
    root: &Value,
    schema: &Value,
    instance: &Value,
    path: &str,
    depth: usize,
    patterns: &HashMap<String, Regex>,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("{path}: the schema nests too deeply"));
    }
    let s: &Map<String, Value> = match schema {
        Value::Bool(true) => return Ok(()),
        Value::Bool(false) => return Err(format!("{path}: no value is allowed here")),
        Value::Object(object) => object,
        Value::Null | Value::Number(_) | Value::String(_) | Value::Array(_) => {
            return Err(format!("{path}: invalid schema"));
        }
    };
    if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
        let target = resolve(root, reference).ok_or_else(|| format!("{path}: unresolved reference {reference}"))?;
        validate_at(root, target, instance, path, depth + 1, patterns)?;
    }
    if let Some(types) = s.get("type") {
        let ok = match types {
            Value::Array(list) => list.iter().filter_map(Value::as_str).any(|t| type_matches(t, instance)),
            Value::String(t) => type_matches(t, instance),
            Value::Null | Value::Bool(_) | Value::Number(_) | Value::Object(_) => false,
        };
        if !ok {
            return Err(format!("{path}: expected type {types}"));
        }
    }
    if let Some(options) = s.get("enum").and_then(Value::as_array)
        && !options.contains(instance)
    {
        return Err(format!("{path}: not one of the allowed values"));
    }
    if let Some(constant) = s.get("const")
        && constant != instance
    {
        return Err(format!("{path}: must equal {constant}"));
    }
    if let Some(value) = instance.as_f64() {
        let fail = |what: &str| Err(format!("{path}: {value} {what}"));
        if number(s.get("minimum")).is_some_and(|m| value < m) {
            return fail("is below the minimum");
        }
        if number(s.get("maximum")).is_some_and(|m| value > m) {
            return fail("is above the maximum");
        }
        if number(s.get("exclusiveMinimum")).is_some_and(|m| value <= m) {
            return fail("is not above the exclusive minimum");
        }
        if number(s.get("exclusiveMaximum")).is_some_and(|m| value >= m) {
            return fail("is not below the exclusive maximum");
        }
        if let Some(step) = number(s.get("multipleOf")).filter(|m| *m > 0.0) {
            let ratio = value / step;
            if (ratio - ratio.round()).abs() > 1e-9 {
                return fail("is not a multiple of multipleOf");
            }
        }
    }
    if let Some(text) = instance.as_str() {
        let length = text.chars().count() as f64;
        if number(s.get("minLength")).is_some_and(|m| length < m) {
            return Err(format!("{path}: shorter than minLength"));
        }
        if number(s.get("maxLength")).is_some_and(|m| length > m) {
            return Err(format!("{path}: longer than maxLength"));
        }
        if let Some(pattern) = s.get("pattern").and_then(Value::as_str) {
            let regex = patterns.get(pattern).ok_or_else(|| format!("{path}: the pattern was not checked"))?;
            if !regex.is_match(text) {
                return Err(format!("{path}: does not match the pattern"));
            }
        }
    }
    if let Some(items) = instance.as_array() {
        let count = items.len() as f64;
        if number(s.get("minItems")).is_some_and(|m| count < m) {
            return Err(format!("{path}: fewer items than minItems"));
        }
        if number(s.get("maxItems")).is_some_and(|m| count > m) {
            return Err(format!("{path}: more items than maxItems"));
        }
        if s.get("uniqueItems") == Some(&Value::Bool(true)) {
            // Objects serialise with sorted keys, so equal values serialise equally.
            let mut seen = HashSet::with_capacity(items.len());
            if !items.iter().all(|item| seen.insert(item.to_string())) {
                return Err(format!("{path}: items are not unique"));
            }
        }
        if let Some(item_schema) = s.get("items") {
            for (i, item) in items.iter().enumerate() {
                validate_at(root, item_schema, item, &format!("{path}[{i}]"), depth + 1, patterns)?;
            }
        }
    }
    if let Some(object) = instance.as_object() {
        let count = object.len() as f64;
        if number(s.get("minProperties")).is_some_and(|m| count < m) {
            return Err(format!("{path}: fewer properties than minProperties"));
        }
        if number(s.get("maxProperties")).is_some_and(|m| count > m) {
            return Err(format!("{path}: more properties than maxProperties"));
        }
        for name in s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if !object.contains_key(name) {
                return Err(format!("{path}: missing required property `{name}`"));
            }
        }
        let properties = s.get("properties").and_then(Value::as_object);
        for (name, value) in object {
            let at = format!("{path}.{name}");
            match properties.and_then(|p| p.get(name)) {
                Some(sub) => validate_at(root, sub, value, &at, depth + 1, patterns)?,
                None => {
                    if let Some(extra) = s.get("additionalProperties") {
                        validate_at(root, extra, value, &at, depth + 1, patterns)?;
                    }
                }
            }
        }
    }
    if let Some(all) = s.get("allOf").and_then(Value::as_array) {
        for sub in all {
            validate_at(root, sub, instance, path, depth + 1, patterns)?;
        }
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array)
        && !any.iter().any(|sub| validate_at(root, sub, instance, path, depth + 1, patterns).is_ok())
    {
        return Err(format!("{path}: matches none of anyOf"));
    }
    if let Some(one) = s.get("oneOf").and_then(Value::as_array) {
        let matching =
            one.iter().filter(|sub| validate_at(root, sub, instance, path, depth + 1, patterns).is_ok()).count();
        if matching != 1 {
            return Err(format!("{path}: matches {matching} of oneOf, not exactly one"));
        }
    }
    if let Some(not) = s.get("not")
        && validate_at(root, not, instance, path, depth + 1, patterns).is_ok()
    {
        return Err(format!("{path}: matches the schema under `not`"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn validates_shapes() {
        let schema = json!({
            "type": "object",
            "required": ["name", "tags"],
            "additionalProperties": false,
            "properties": {
                "name": {"type": "string", "minLength": 1, "pattern": "^[A-Z]"},
                "age": {"type": "integer", "minimum": 0, "maximum": 150},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/tag"}, "minItems": 1, "uniqueItems": true},
                "kind": {"enum": ["a", "b"]},
                "score": {"oneOf": [{"type": "integer"}, {"type": "string"}]}
            },
            "$defs": {"tag": {"type": "string", "maxLength": 8}}
        });
        let compiled = check(&schema).unwrap_or_else(|e| panic!("{e}"));
        let valid = json!({"name": "Ada", "age": 36, "tags": ["math"], "kind": "a", "score": 3});
        assert_eq!(compiled.validate(&valid), Ok(()));
        for invalid in [
            json!({"name": "ada", "tags": ["x"]}),
            json!({"name": "Ada"}),
            json!({"name": "Ada", "tags": []}),
            json!({"name": "Ada", "tags": ["x", "x"]}),
            json!({"name": "Ada", "tags": ["a-very-long-tag"]}),
            json!({"name": "Ada", "tags": ["x"], "age": 3.5}),
            json!({"name": "Ada", "tags": ["x"], "age": -1}),
            json!({"name": "Ada", "tags": ["x"], "kind": "c"}),
            json!({"name": "Ada", "tags": ["x"], "extra": 1}),
            json!({"name": "Ada", "tags": ["x"], "score": 1.5}),
            json!([1, 2]),
        ] {
            assert!(compiled.validate(&invalid).is_err(), "{invalid}");
        }
    }

    #[test]
    fn unsupported_keywords_and_remote_refs_are_refused() {
        assert!(check(&json!({"type": "object", "patternProperties": {}})).is_err());
        assert!(check(&json!({"$ref": "https://example.com/schema.json"})).is_err());
        assert!(check(&json!({"type": "strange"})).is_err());
        assert!(check(&json!({"pattern": "("})).is_err());
        assert!(check(&json!(3)).is_err());
        // A reference cycle ends at the depth limit instead of recursing forever.
        let cycle = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
        let compiled = check(&cycle).unwrap_or_else(|e| panic!("{e}"));
        assert!(compiled.validate(&json!(1)).is_err());
    }
}
