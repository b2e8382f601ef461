//! What is retried, how long the waits are, what is refused.

use std::time::{Duration, Instant};

use crate::support::{self, Answer, Server};
use referee_model_client::{AttemptError, ModelError};
use serde_json::json;

#[tokio::test]
async fn a_503_is_retried_then_answered() -> anyhow::Result<()> {
    let server = Server::start(vec![Answer::status(503), Answer::json(r#"{"n": 1}"#)]).await?;
    let client = server.client(|e| e.api_key = Some("secret".to_owned()))?;
    let call = client.post(&json!({"prompt": "x"}), None).await;
    assert_eq!(call.result?, json!({"n": 1}));
    assert_eq!((call.retries, server.script.requests()), (1, 2));
    assert!(call.took.is_some());
    assert_eq!(server.script.authorization().as_deref(), Some("Bearer secret"));
    Ok(())
}

#[tokio::test]
async fn retry_after_takes_the_place_of_the_backoff() -> anyhow::Result<()> {
    let busy = Answer { retry_after: Some("1"), ..Answer::status(429) };
    let server = Server::start(vec![busy, Answer::json("{}")]).await?;
    let client = server.client(|e| e.retry.max_backoff = Duration::from_secs(5))?;
    let call = client.post(&json!({}), None).await;
    assert_eq!((call.result?, call.retries), (json!({}), 1));
    let arrivals = server.script.arrivals();
    let gap = arrivals[1] - arrivals[0];
    assert!(gap >= Duration::from_millis(950) && gap < Duration::from_secs(3), "waited {gap:?} (backoff 1 ms)");
    Ok(())
}

#[tokio::test]
async fn retry_after_is_capped_by_max_backoff() -> anyhow::Result<()> {
    let busy = Answer { retry_after: Some("30"), ..Answer::status(503) };
    let server = Server::start(vec![busy, Answer::json("{}")]).await?;
    let client = server.client(|e| e.retry.max_backoff = Duration::from_millis(200))?;
    assert_eq!(client.post(&json!({}), None).await.result?, json!({}));
    let arrivals = server.script.arrivals();
    let gap = arrivals[1] - arrivals[0];
    assert!(gap >= Duration::from_millis(190) && gap < Duration::from_secs(2), "waited {gap:?}");
    Ok(())
}

#[tokio::test]
async fn a_400_is_refused_at_once_with_its_body() -> anyhow::Result<()> {
    let refusal = Answer { body: "the prompt is too long".to_owned(), ..Answer::status(400) };
    let server = Server::start(vec![refusal]).await?;
    let call = server.client(|_| {})?.post(&json!({}), None).await;
    let Err(error @ ModelError::Refused { status, .. }) = &call.result else {
        panic!("not refused: {:?}", call.result)
    };
    assert_eq!(status.as_u16(), 400);
    assert_eq!(error.to_string(), "the model server answered HTTP 400 Bad Request: the prompt is too long");
    assert_eq!((call.retries, server.script.requests()), (0, 1), "a refusal is not retried");
    Ok(())
}

#[tokio::test]
async fn slow_attempts_time_out_and_are_retried() -> anyhow::Result<()> {
    let slow = Answer::json("{}").after(Duration::from_secs(2));
    let server = Server::start(vec![slow.clone(), slow]).await?;
    let client = server.client(|e| {
        e.timeout = Duration::from_millis(100);
        e.retry.max_retries = 1;
    })?;
    let started = Instant::now();
    let call = client.post(&json!({}), None).await;
    let Err(error @ ModelError::TimedOut { attempts: 2, .. }) = &call.result else {
        panic!("not timed out: {:?}", call.result)
    };
    assert!(error.is_timeout());
    assert_eq!(error.to_string(), "no answer within 100ms");
    assert_eq!((call.retries, server.script.requests()), (1, 2));
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    Ok(())
}

#[tokio::test]
async fn the_deadline_cuts_the_attempt_and_forbids_a_retry() -> anyhow::Result<()> {
    let server = Server::start(vec![Answer::json("{}").after(Duration::from_secs(3))]).await?;
    let client = server.client(|e| e.timeout = Duration::from_secs(10))?;
    let started = Instant::now();
    let call = client.post(&json!({}), Some(started + Duration::from_millis(300))).await;
    let elapsed = started.elapsed();
    let Err(error @ ModelError::NoTimeToRetry { last: AttemptError::TimedOut { .. } }) = &call.result else {
        panic!("not out of time: {:?}", call.result)
    };
    assert!(error.is_timeout() && error.to_string().starts_with("no time left to retry after: no answer within"));
    assert!(elapsed >= Duration::from_millis(290) && elapsed < Duration::from_secs(1), "{elapsed:?}");
    assert_eq!(server.script.requests(), 1);
    Ok(())
}

#[tokio::test]
async fn a_permit_is_waited_for_no_longer_than_the_deadline() -> anyhow::Result<()> {
    let server = Server::start(vec![Answer::json("{}").after(Duration::from_millis(800))]).await?;
    let client = server.client(|e| e.concurrency = 1)?;
    let busy = tokio::spawn({
        let client = client.clone();
        async move { client.post(&json!({}), None).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let call = client.post(&json!({}), Some(Instant::now() + Duration::from_millis(200))).await;
    assert!(matches!(call.result, Err(ModelError::Expired { .. })), "{:?}", call.result);
    assert_eq!(call.took, None, "no attempt was made");
    assert_eq!(server.script.requests(), 1);
    assert_eq!(busy.await?.result?, json!({}));
    Ok(())
}

#[tokio::test]
async fn retries_run_out() -> anyhow::Result<()> {
    let server = Server::start(vec![Answer::status(500); 3]).await?;
    let client = server.client(|e| e.retry.max_retries = 2)?;
    let call = client.post(&json!({}), None).await;
    let Err(error @ ModelError::Unavailable { attempts: 3, last: AttemptError::Status { .. } }) = &call.result else {
        panic!("not unavailable: {:?}", call.result)
    };
    assert!(!error.is_timeout());
    assert_eq!(error.to_string(), "gave up after 3 attempts: the model server answered HTTP 500 Internal Server Error");
    assert_eq!((call.retries, server.script.requests()), (2, 3));
    Ok(())
}

#[tokio::test]
async fn a_success_that_is_not_json_is_malformed() -> anyhow::Result<()> {
    let server = Server::start(vec![Answer::json("<html>")]).await?;
    let call = server.client(|_| {})?.post(&json!({}), None).await;
    let Err(error @ ModelError::Malformed { .. }) = &call.result else { panic!("{:?}", call.result) };
    assert!(error.to_string().starts_with("the model server's answer is not JSON ("), "{error}");
    assert!(error.to_string().ends_with("): <html>"), "{error}");
    assert_eq!(server.script.requests(), 1);
    Ok(())
}

#[tokio::test]
async fn a_refused_connection_is_retried() -> anyhow::Result<()> {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/v1/completions", closed.local_addr()?);
    drop(closed);
    let mut endpoint = support::endpoint(&url);
    endpoint.retry.max_retries = 1;
    let call = referee_model_client::ModelClient::new(endpoint)?.post(&json!({}), None).await;
    let Err(ModelError::Unavailable { attempts: 2, last: last @ AttemptError::Unreachable { .. } }) = &call.result
    else {
        panic!("{:?}", call.result)
    };
    assert!(last.to_string().starts_with("cannot reach the model server: "), "{last}");
    assert_eq!(call.retries, 1);
    Ok(())
}
