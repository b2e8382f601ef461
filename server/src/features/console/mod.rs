//! The web console at `/console`: a page over the HTTP API with a run's reward, pass-rate,
//! status-mix and latency plots, its prompts' pass rates and its kept samples (the verdict
//! browser), the verifiers and their availability, the noise models with their appeals, and the
//! jobs with their live progress. `scripts/build-console` builds
//! it from `server/console` (TypeScript, uPlot) into `server/console/dist`, which is checked in
//! and embedded here: serving it needs neither node nor a network. The page is public; what it
//! shows comes from the `/v1` routes, called with the API key the user enters.

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

use crate::http::AppState;

const INDEX: &str = include_str!("../../../console/index.html");
const SCRIPT: &str = include_str!("../../../console/dist/console.js");
const STYLE: &str = include_str!("../../../console/dist/console.css");

/// Scripts and styles only from the server itself (uPlot sizes its elements with inline styles).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; \
     frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// The console's routes (outside `/v1`: no key needed to load the page).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/console", get(|| async { asset("text/html; charset=utf-8", INDEX) }))
        .route("/console/", get(|| async { Redirect::permanent("/console") }))
        .route("/console/console.js", get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }))
        .route("/console/console.css", get(|| async { asset("text/css; charset=utf-8", STYLE) }))
}

/// An embedded asset; revalidated on each load, so a new server's console is the one shown.
fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_the_embedded_bundle() {
        assert!(INDEX.contains(r#"src="/console/console.js""#) && INDEX.contains(r#"href="/console/console.css""#));
        assert!(SCRIPT.contains("uPlot") && STYLE.contains(".u-legend"));
        assert!(HeaderValue::from_str(POLICY).is_ok());
    }
}
