//! Request examples in the OpenAPI document, so that the reference page's "Try it out" sends a
//! request that works against a server with the default configuration (the RLPR model routes
//! also need a configured local model). `clients/python/tests/test_openapi_examples.py` sends
//! every one of them to a live server.

use serde_json::{Value, json};

/// One operation's example: its request body and the values of its path parameters.
struct Example {
    operation_id: &'static str,
    body: Value,
    path_parameters: &'static [(&'static str, &'static str)],
}

fn examples() -> Vec<Example> {
    let rubric_criteria = json!([
        {"name": "title", "kind": {"type": "format", "format": "heading"}},
        {"name": "mentions_paris", "kind": {"type": "keywords", "keywords": ["Paris"]}, "weight": 2.0},
    ]);
    vec![
        Example {
            operation_id: "score",
            body: json!({
                "items": [
                    {"id": "r1", "verifier": "exact-match",
                     "input": {"response": "So the capital is \\boxed{Paris}.", "reference": "Paris", "extract": "boxed"}},
                    {"id": "r2", "verifier": "math",
                     "input": {"response": "Adding them gives \\boxed{\\frac{1}{2}}.", "reference": "0.5"}},
                    {"id": "r3", "verifier": "multiple-choice",
                     "input": {"response": "The answer is (A) or (B).", "reference": "B"}},
                ],
                "timeout_ms": 5000,
            }),
            path_parameters: &[],
        },
        Example {
            operation_id: "score_with_verifier",
            body: json!({"items": [
                {"id": "r1", "input": {"response": "<answer>Paris</answer>", "reference": "Paris", "extract": "answer_tag"}},
                {"id": "r2", "input": {"response": "<answer>Lyon</answer>", "reference": "Paris", "extract": "answer_tag"}},
            ]}),
            path_parameters: &[("id", "exact-match")],
        },
        Example {
            operation_id: "get_reward",
            body: json!({
                "query": ["What is 6 times 7? The answer is \\boxed{42}.", "What is 6 times 7? I think \\boxed{48}."],
                "prompts": ["What is 6 times 7?", "What is 6 times 7?"],
                "labels": ["42", "42"],
            }),
            path_parameters: &[],
        },
        Example {
            operation_id: "generate_instances",
            body: json!({"level": 1, "seed": 42, "count": 2}),
            path_parameters: &[("task", "tsp")],
        },
        Example {
            operation_id: "advantages",
            body: json!({"groups": [
                {"id": "prompt-1", "rewards": [1.0, 0.0, 1.0, 0.0]},
                {"id": "prompt-2", "rewards": [1.0, 1.0, 1.0, 0.0]},
            ]}),
            path_parameters: &[],
        },
        Example {
            operation_id: "put",
            body: json!({"configured": {"rho0": 0.1, "rho1": 0.05}}),
            path_parameters: &[("verifier", "math")],
        },
        Example {
            operation_id: "audit",
            body: json!({"labels": [
                {"verdict": true, "gold": true},
                {"verdict": true, "gold": false},
                {"verdict": false, "gold": false},
            ]}),
            path_parameters: &[("verifier", "math")],
        },
        Example {
            operation_id: "filter",
            body: json!({
                "run": "example-run",
                "step": 1,
                "groups": [{"id": "prompt-1", "rewards": [0.9, 0.2, 0.4, 0.7]}],
            }),
            path_parameters: &[],
        },
        Example {
            operation_id: "prepare",
            body: json!({"items": [
                {"prompt": "What is 6 times 7?", "response": "<think>6 times 7 is 42.</think>The answer is 42.", "reference": "42"},
            ]}),
            path_parameters: &[],
        },
        Example { operation_id: "reload", body: json!({}), path_parameters: &[] },
        Example {
            operation_id: "create_rubric",
            body: json!({"id": "example-essay", "criteria": rubric_criteria}),
            path_parameters: &[],
        },
        Example {
            operation_id: "update_rubric",
            body: json!({"criteria": rubric_criteria, "veto_floor": 0.0}),
            path_parameters: &[("id", "example-essay")],
        },
    ]
}

/// NDJSON body of the job example: two score items, one per line.
const JOB_EXAMPLE: &str = "{\"id\": \"r1\", \"verifier\": \"exact-match\", \"input\": {\"response\": \"Paris\", \"reference\": \"Paris\"}}\n\
                           {\"id\": \"r2\", \"verifier\": \"math\", \"input\": {\"response\": \"\\\\boxed{2}\", \"reference\": \"3\"}}\n";

/// Adds the examples to the document's operations; an operation the document lacks is skipped.
pub fn add(document: &mut Value) {
    let Some(Value::Object(paths)) = document.get_mut("paths") else {
        return;
    };
    for operation in paths.values_mut().filter_map(Value::as_object_mut).flat_map(|item| item.values_mut()) {
        let Some(id) = operation.get("operationId").and_then(Value::as_str).map(str::to_owned) else {
            continue;
        };
        if id == "submit" {
            if let Some(media) = operation.pointer_mut("/requestBody/content/application~1x-ndjson") {
                media["example"] = json!(JOB_EXAMPLE);
            }
            continue;
        }
        let Some(example) = examples().into_iter().find(|e| e.operation_id == id) else {
            continue;
        };
        if let Some(media) = operation.pointer_mut("/requestBody/content/application~1json") {
            media["example"] = example.body;
        }
        if let Some(Value::Array(parameters)) = operation.get_mut("parameters") {
            for parameter in parameters.iter_mut() {
                let named = parameter.get("name").and_then(Value::as_str).map(str::to_owned);
                let is_path = parameter.get("in") == Some(&json!("path"));
                if let (Some(name), true) = (named, is_path)
                    && let Some((_, value)) = example.path_parameters.iter().find(|(n, _)| *n == name)
                {
                    parameter["example"] = json!(value);
                }
            }
        }
    }
}

/// Ids of the operations that carry an example.
#[cfg(test)]
pub fn operation_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = examples().iter().map(|e| e.operation_id).collect();
    ids.push("submit");
    ids
}
