//! `openapi/openapi.json` is generated from the code; this test keeps the checked-in copy true.
//! `UPDATE_OPENAPI=1 cargo test -p referee-server --test all openapi_sync` rewrites it.

use std::path::PathBuf;

use referee_server::registry::Registry;
use referee_server::routes::openapi_json;

#[test]
fn checked_in_openapi_document_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../openapi/openapi.json");
    let generated = openapi_json(&Registry::builtin()) + "\n";
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "openapi/openapi.json is stale; run `UPDATE_OPENAPI=1 cargo test -p referee-server --test all openapi_sync`"
    );
}

#[test]
fn score_items_are_a_one_of_over_the_registry() {
    let document: serde_json::Value =
        serde_json::from_str(&openapi_json(&Registry::builtin())).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(document["openapi"], "3.1.0");
    let item = &document["components"]["schemas"]["ScoreItem"];
    let variants = item["oneOf"].as_array().map_or(0, Vec::len);
    assert_eq!(variants, Registry::builtin().entries().len());
    assert_eq!(item["discriminator"]["propertyName"], "verifier");
    for entry in Registry::builtin().entries() {
        let reference = item["discriminator"]["mapping"][entry.id()].as_str().unwrap_or_default();
        let name = reference.trim_start_matches("#/components/schemas/");
        assert_eq!(document["components"]["schemas"][name]["properties"]["verifier"]["enum"][0], entry.id());
    }
    // Every response of every operation carries a description (OpenAPI 3.1 requires it).
    for (path, operations) in document["paths"].as_object().into_iter().flatten() {
        for (method, operation) in operations.as_object().into_iter().flatten() {
            for (status, response) in operation["responses"].as_object().into_iter().flatten() {
                assert!(response["description"].is_string(), "{method} {path} {status} has no description");
            }
        }
    }
}
