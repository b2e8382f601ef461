"""Sample instances of the OpenAPI document's schemas, for the clients' round-trip tests.

`samples(document, name)` gives several instances of one component schema: sample `k` takes
variant `k` of every `oneOf`/`anyOf` (modulo its length), fills every optional property, and
alternates nullable values between a value and `null`, so that together the samples reach every
variant, every property and both sides of every nullable."""

from __future__ import annotations

from typing import Any

#: Nesting beyond which a sample stops descending (recursive schemas).
MAX_DEPTH = 12


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    reference = schema.get("$ref")
    if reference is None:
        return None, schema
    name = reference.rsplit("/", 1)[-1]
    return name, document["components"]["schemas"][name]


def variant_count(document: dict[str, Any], name: str) -> int:
    """How many samples reach every variant of the unions reachable from schema `name`."""
    most = 2
    seen: set[str] = set()
    stack: list[Any] = [document["components"]["schemas"][name]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str):
                target = reference.rsplit("/", 1)[-1]
                if target not in seen:
                    seen.add(target)
                    stack.append(document["components"]["schemas"][target])
                continue
            for key in ("oneOf", "anyOf", "enum"):
                if isinstance(node.get(key), list):
                    most = max(most, len(node[key]))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return most


def _string(schema: dict[str, Any], k: int) -> str:
    low = int(schema.get("minLength", 0))
    high = int(schema.get("maxLength", 64))
    text = f"sample-{k}"
    if len(text) < low:
        text = text + "x" * (low - len(text))
    return text[: max(high, low)] if len(text) > high else text


def _number(schema: dict[str, Any], integer: bool) -> float | int:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    value: float = 1 if integer else 0.5
    if low is not None and value <= low:
        value = low + (1 if integer else 0.25)
    if high is not None and value >= high:
        value = high - (1 if integer else 0.25) if low is None or high - low > 1 else (low + high) / 2
    return int(value) if integer else float(value)


def sample(document: dict[str, Any], schema: dict[str, Any], k: int, depth: int = 0) -> Any:
    """One instance of `schema` (sample number `k`)."""
    _, schema = _resolve(document, schema)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][k % len(schema["enum"])]
    if "allOf" in schema:
        # An intersection (serde's flatten): the parts' samples merged into one object.
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            merged.update(sample(document, part, k, depth + 1))
        return merged
    for key in ("oneOf", "anyOf"):
        if key in schema:
            variants = schema[key]
            return sample(document, variants[k % len(variants)], k, depth + 1)
    types = schema.get("type")
    if isinstance(types, list):
        concrete = [t for t in types if t != "null"]
        if "null" in types and (k % 2 == 1 or not concrete or depth >= MAX_DEPTH):
            return None
        kind = concrete[0]
    else:
        kind = types
    if kind is None:
        kind = "object" if "properties" in schema else "any"
    if kind == "null":
        return None
    if kind == "any":
        return {"any": [1, "two", None]} if depth < MAX_DEPTH else None
    if kind == "string":
        return _string(schema, k)
    if kind == "integer":
        return _number(schema, integer=True)
    if kind == "number":
        return _number(schema, integer=False)
    if kind == "boolean":
        return k % 2 == 0
    if kind == "array":
        count = max(1, int(schema.get("minItems", 0)))
        if depth >= MAX_DEPTH:
            count = int(schema.get("minItems", 0))
        return [sample(document, schema.get("items", {}), k + i, depth + 1) for i in range(count)]
    if kind == "object":
        properties = schema.get("properties", {})
        value = {}
        for name, property_schema in properties.items():
            if depth >= MAX_DEPTH and name not in schema.get("required", []):
                continue
            value[name] = sample(document, property_schema, k, depth + 1)
        extra = schema.get("additionalProperties")
        if not properties and extra is not False and depth < MAX_DEPTH:
            item = extra if isinstance(extra, dict) else {"type": "string"}
            value["some_key"] = sample(document, item, k, depth + 1)
        return value
    raise ValueError(f"no sample for schema {schema}")


def samples(document: dict[str, Any], name: str) -> list[Any]:
    """Enough samples of component schema `name` to reach all its variants."""
    schema = {"$ref": f"#/components/schemas/{name}"}
    return [sample(document, schema, k) for k in range(variant_count(document, name))]
