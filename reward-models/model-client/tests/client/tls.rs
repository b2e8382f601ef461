//! A model server over TLS whose certificate a private CA signed.

use std::time::{Duration, Instant};

use crate::support::{self, Answer, Server};
use referee_model_client::{BuildError, ModelError};
use serde_json::json;

#[tokio::test]
async fn an_unknown_ca_is_fatal_and_named_and_the_ca_file_fixes_it() -> anyhow::Result<()> {
    let (server, ca_pem) = Server::start_https(vec![Answer::json(r#"{"ok": 1}"#)]).await?;

    let wary = server.client(|e| e.retry.backoff = Duration::from_secs(1))?;
    let started = Instant::now();
    let call = wary.post(&json!({}), None).await;
    let Err(error @ ModelError::Tls { .. }) = &call.result else { panic!("not a TLS failure: {:?}", call.result) };
    let message = error.to_string();
    assert!(message.starts_with("the TLS connection to the model server failed: "), "{message}");
    assert!(message.contains("certificate") && message.ends_with("needs that CA in model.ca_cert)"), "{message}");
    assert_eq!(call.retries, 0, "a refused certificate is not retried");
    assert!(started.elapsed() < Duration::from_millis(900));

    let dir = std::env::temp_dir().join(format!("referee-model-client-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let ca = dir.join("ca.pem");
    std::fs::write(&ca, ca_pem)?;
    let trusting = server.client(|e| e.ca_cert = Some(ca.clone()));
    let junk = dir.join("junk.pem");
    std::fs::write(&junk, "not a certificate")?;
    let refused = server.client(|e| e.ca_cert = Some(junk.clone())).err().map(|e| e.to_string());
    std::fs::remove_dir_all(&dir)?;
    assert_eq!(trusting?.post(&json!({}), None).await.result?, json!({"ok": 1}));
    assert!(refused.is_some_and(|e| e.starts_with("model.ca_cert: ")));
    Ok(())
}

#[test]
fn a_missing_ca_file_stops_the_client() {
    let mut endpoint = support::endpoint("https://127.0.0.1:1/v1/completions");
    endpoint.ca_cert = Some("/nonexistent/ca.pem".into());
    let error = referee_model_client::ModelClient::new(endpoint).err();
    assert!(matches!(error, Some(BuildError::CaFile(_))), "{error:?}");
}
