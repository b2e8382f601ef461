//! Which role each authenticated route needs, and which ones count against a key's daily item
//! quota: the one table of access rules, read by the `/v1` guard and written into the OpenAPI
//! document.

use serde_json::{Map, Value, json};

use super::Role;

/// How a route counts against a key's daily item quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charge {
    /// Not counted.
    Free,
    /// The length of the JSON body's `items` array.
    Items,
    /// The length of the JSON body's `query` array (OpenRLHF's rollouts).
    Queries,
    /// The items of a job upload, counted by the handler as it stores them.
    Upload,
}

impl Charge {
    /// The top-level array of the JSON body whose length is charged, when the body is counted
    /// (an upload is counted by its handler as it stores the items).
    pub fn counted_field(self) -> Option<&'static str> {
        match self {
            Charge::Free | Charge::Upload => None,
            Charge::Items => Some("items"),
            Charge::Queries => Some("query"),
        }
    }
}

/// What a route needs from the key that calls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub role: Role,
    pub charge: Charge,
}

/// (method, path template, role, charge) of every route behind the `/v1` guard. Trainer-facing
/// calls a training loop makes while it runs are `score`, including the calls that move a
/// run's own state (the noise step, the RLPR filter, RLPR preparation); what changes the
/// server for every caller (noise models and audits, rubrics, the RLPR model, forgetting a run)
/// is `admin`.
const ROUTES: &[(&str, &str, Role, Charge)] = &[
    ("POST", "/v1/score", Role::Score, Charge::Items),
    ("POST", "/v1/verifiers/{id}/score", Role::Score, Charge::Items),
    ("POST", "/get_reward", Role::Score, Charge::Queries),
    ("POST", "/run_code", Role::Score, Charge::Free),
    ("GET", "/openenv/{environment}/health", Role::Score, Charge::Free),
    ("GET", "/openenv/{environment}/metadata", Role::Score, Charge::Free),
    ("GET", "/openenv/{environment}/schema", Role::Score, Charge::Free),
    ("POST", "/openenv/{environment}/reset", Role::Score, Charge::Free),
    ("POST", "/openenv/{environment}/step", Role::Score, Charge::Free),
    ("GET", "/openenv/{environment}/state", Role::Score, Charge::Free),
    ("GET", "/openenv/{environment}/ws", Role::Score, Charge::Free),
    ("GET", "/v1/verifiers", Role::Score, Charge::Free),
    ("GET", "/v1/environments", Role::Score, Charge::Free),
    ("POST", "/v1/environments/{task}/instances", Role::Score, Charge::Free),
    ("GET", "/v1/episode-environments", Role::Score, Charge::Free),
    ("POST", "/v1/episodes", Role::Score, Charge::Free),
    ("POST", "/v1/episodes/{id}/step", Role::Score, Charge::Free),
    ("GET", "/v1/episodes/{id}", Role::Score, Charge::Free),
    ("GET", "/v1/episodes/{id}/state", Role::Score, Charge::Free),
    ("DELETE", "/v1/episodes/{id}", Role::Score, Charge::Free),
    ("GET", "/v1/rubrics", Role::Score, Charge::Free),
    ("GET", "/v1/rubrics/{id}", Role::Score, Charge::Free),
    ("GET", "/v1/rubrics/{id}/versions", Role::Score, Charge::Free),
    ("GET", "/v1/noise", Role::Score, Charge::Free),
    ("GET", "/v1/noise/{verifier}", Role::Score, Charge::Free),
    ("GET", "/v1/noise/{verifier}/appeals", Role::Score, Charge::Free),
    ("PUT", "/v1/noise/{verifier}/step", Role::Score, Charge::Free),
    ("POST", "/v1/groups/advantages", Role::Score, Charge::Free),
    ("POST", "/v1/reward-models/rlpr/filter", Role::Score, Charge::Free),
    ("GET", "/v1/reward-models/rlpr/runs/{run}", Role::Score, Charge::Free),
    ("POST", "/v1/reward-models/rlpr/prepare", Role::Score, Charge::Free),
    ("GET", "/v1/runs", Role::Score, Charge::Free),
    ("GET", "/v1/runs/{run}", Role::Score, Charge::Free),
    ("GET", "/v1/runs/{run}/prompts", Role::Score, Charge::Free),
    ("GET", "/v1/runs/{run}/stats", Role::Score, Charge::Free),
    ("GET", "/v1/runs/{run}/samples", Role::Score, Charge::Free),
    ("POST", "/v1/runs/{run}/sample", Role::Score, Charge::Free),
    ("POST", "/v1/run-comparisons", Role::Score, Charge::Free),
    ("POST", "/v1/jobs", Role::Jobs, Charge::Upload),
    ("GET", "/v1/jobs", Role::Jobs, Charge::Free),
    ("GET", "/v1/jobs/{id}", Role::Jobs, Charge::Free),
    ("DELETE", "/v1/jobs/{id}", Role::Jobs, Charge::Free),
    ("GET", "/v1/jobs/{id}/results", Role::Jobs, Charge::Free),
    ("PUT", "/v1/noise/{verifier}", Role::Admin, Charge::Free),
    ("DELETE", "/v1/noise/{verifier}", Role::Admin, Charge::Free),
    ("POST", "/v1/noise/{verifier}/audits", Role::Admin, Charge::Free),
    ("POST", "/v1/rubrics", Role::Admin, Charge::Free),
    ("PUT", "/v1/rubrics/{id}", Role::Admin, Charge::Free),
    ("DELETE", "/v1/rubrics/{id}", Role::Admin, Charge::Free),
    ("POST", "/v1/reward-models/rlpr/reload", Role::Admin, Charge::Free),
    ("DELETE", "/v1/reward-models/rlpr/runs/{run}", Role::Admin, Charge::Free),
];

/// What the route matched as `path` (its template, e.g. `/v1/jobs/{id}`) with `method` needs.
/// A route missing from the table needs `admin`: a new route is closed until it is given a role.
pub fn access(method: &str, path: &str) -> Access {
    ROUTES
        .iter()
        .find(|(m, p, _, _)| *m == method && *p == path)
        .map_or(Access { role: Role::Admin, charge: Charge::Free }, |&(_, _, role, charge)| Access { role, charge })
}

fn error_response(description: String) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    })
}

/// Adds `text` to the route's response for `status`, or adds the response.
fn add_response(responses: &mut Map<String, Value>, status: &str, text: String) {
    if let Some(Value::String(description)) = responses.get_mut(status).and_then(|r| r.get_mut("description")) {
        description.push_str(" Or ");
        description.push_str(&text);
        return;
    }
    responses.insert(status.to_owned(), error_response(text));
}

/// Writes the table into an OpenAPI document: each guarded route's 403 names the role it
/// needs, and its 429 the key's rate limit (and quota, where the route counts items).
pub fn document(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for (method, path, role, charge) in ROUTES {
        let operation = paths.get_mut(*path).and_then(|p| p.get_mut(method.to_ascii_lowercase()));
        let Some(responses) = operation.and_then(|o| o.get_mut("responses")).and_then(Value::as_object_mut) else {
            continue;
        };
        let needs = match role {
            Role::Admin => "the `admin` role".to_owned(),
            Role::Score | Role::Jobs => format!("the `{role}` role (or `admin`)"),
        };
        add_response(responses, "403", format!("`forbidden`: the key lacks {needs}."));
        let mut limited = "`rate_limited`: the key's `requests_per_second` is spent".to_owned();
        if *charge != Charge::Free {
            limited.push_str(", or `quota_exceeded`: these items would take the key past its `max_items_per_day`");
        }
        limited.push_str("; retry after `Retry-After` seconds.");
        add_response(responses, "429", limited);
        let mut sorted: Vec<(String, Value)> = std::mem::take(responses).into_iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        responses.extend(sorted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    /// Routes open to every caller, outside the guard.
    const OPEN: &[&str] = &["/healthz", "/readyz", "/metrics"];

    #[test]
    fn every_guarded_route_has_exactly_one_entry() {
        let document = crate::routes::openapi_document(&Registry::builtin());
        let mut documented = Vec::new();
        for (path, item) in document["paths"].as_object().into_iter().flatten() {
            for method in item.as_object().into_iter().flatten().map(|(m, _)| m.to_ascii_uppercase()) {
                if !OPEN.contains(&path.as_str()) {
                    documented.push((method, path.clone()));
                }
            }
        }
        let mut table: Vec<(String, String)> =
            ROUTES.iter().map(|(m, p, _, _)| ((*m).to_owned(), (*p).to_owned())).collect();
        documented.sort();
        table.sort();
        let before = table.len();
        table.dedup();
        assert_eq!(table.len(), before, "a route is listed twice");
        assert_eq!(documented, table, "the access table and the routes differ");
    }

    #[test]
    fn counted_bodies_name_their_array() {
        assert_eq!(Charge::Items.counted_field(), Some("items"));
        assert_eq!(Charge::Queries.counted_field(), Some("query"));
        assert_eq!(Charge::Upload.counted_field(), None);
        assert_eq!(Charge::Free.counted_field(), None);
    }

    #[test]
    fn unknown_routes_need_admin() {
        assert_eq!(access("GET", "/v1/something-new"), Access { role: Role::Admin, charge: Charge::Free });
        assert_eq!(access("POST", "/v1/score"), Access { role: Role::Score, charge: Charge::Items });
        assert_eq!(access("DELETE", "/v1/jobs/{id}").role, Role::Jobs);
        assert_eq!(access("PUT", "/v1/noise/{verifier}").role, Role::Admin);
    }

    #[test]
    fn the_document_names_the_role() {
        let document = crate::routes::openapi_document(&Registry::builtin());
        let forbidden = &document["paths"]["/v1/reward-models/rlpr/reload"]["post"]["responses"]["403"]["description"];
        assert_eq!(forbidden.as_str(), Some("`forbidden`: the key lacks the `admin` role."));
        let limited = document["paths"]["/v1/score"]["post"]["responses"]["429"]["description"].as_str();
        assert!(limited.is_some_and(|d| d.contains("busy") && d.contains("quota_exceeded")), "{limited:?}");
    }
}
