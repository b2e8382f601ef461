//! A model server on a loopback port that answers from a script, over HTTP or HTTPS (with a
//! certificate for `127.0.0.1` signed by a CA made on the spot).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use referee_model_client::testkit::{TlsListener, private_ca};
use referee_model_client::{Endpoint, ModelClient, RetryPolicy};
use tokio::net::TcpListener;

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub retry_after: Option<&'static str>,
    pub body: String,
    pub delay: Duration,
}

impl Answer {
    pub fn status(status: u16) -> Answer {
        Answer { status, retry_after: None, body: format!("status {status}"), delay: Duration::ZERO }
    }

    pub fn json(body: &str) -> Answer {
        Answer { body: body.to_owned(), ..Answer::status(200) }
    }

    pub fn after(self, delay: Duration) -> Answer {
        Answer { delay, ..self }
    }
}

/// What the server was asked, and what it answers next (`{"ok": true}` once the script is done).
#[derive(Debug, Default)]
pub struct Script {
    answers: Mutex<VecDeque<Answer>>,
    arrivals: Mutex<Vec<Instant>>,
    authorization: Mutex<Option<String>>,
}

impl Script {
    /// When each request arrived.
    pub fn arrivals(&self) -> Vec<Instant> {
        self.arrivals.lock().map(|a| a.clone()).unwrap_or_default()
    }

    pub fn requests(&self) -> usize {
        self.arrivals().len()
    }

    pub fn authorization(&self) -> Option<String> {
        self.authorization.lock().ok().and_then(|a| a.clone())
    }
}

/// A running scripted server.
#[derive(Debug)]
pub struct Server {
    pub url: String,
    pub script: Arc<Script>,
}

impl Server {
    pub async fn start(answers: Vec<Answer>) -> anyhow::Result<Server> {
        let (script, app) = app(answers);
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/v1/completions", listener.local_addr()?);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(Server { url, script })
    }

    /// The server over TLS, and the PEM of the CA that signed its certificate.
    pub async fn start_https(answers: Vec<Answer>) -> anyhow::Result<(Server, String)> {
        let (ca_pem, tls) = private_ca(&["127.0.0.1"], "model server").map_err(anyhow::Error::from_boxed)?;
        let (script, app) = app(answers);
        let tcp = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("https://{}/v1/completions", tcp.local_addr()?);
        let listener = TlsListener::new(tcp, tls);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok((Server { url, script }, ca_pem))
    }

    /// An endpoint for this server: 2 s attempts, 3 retries from 1 ms up to 50 ms apart.
    pub fn endpoint(&self) -> Endpoint {
        endpoint(&self.url)
    }

    pub fn client(&self, change: impl FnOnce(&mut Endpoint)) -> anyhow::Result<ModelClient> {
        let mut endpoint = self.endpoint();
        change(&mut endpoint);
        Ok(ModelClient::new(endpoint)?)
    }
}

pub fn endpoint(url: &str) -> Endpoint {
    Endpoint {
        url: url.to_owned(),
        api_key: None,
        ca_cert: None,
        ca_key: "model.ca_cert",
        peer: "the model server",
        timeout: Duration::from_secs(2),
        retry: RetryPolicy {
            max_retries: 3,
            backoff: Duration::from_millis(1),
            max_backoff: Duration::from_millis(50),
        },
        concurrency: 4,
    }
}

fn app(answers: Vec<Answer>) -> (Arc<Script>, axum::Router) {
    let script = Arc::new(Script { answers: Mutex::new(answers.into()), ..Script::default() });
    let app = axum::Router::new().route("/v1/completions", axum::routing::post(answer)).with_state(Arc::clone(&script));
    (script, app)
}

async fn answer(State(script): State<Arc<Script>>, headers: HeaderMap) -> Response {
    if let Ok(mut arrivals) = script.arrivals.lock() {
        arrivals.push(Instant::now());
    }
    if let Ok(mut authorization) = script.authorization.lock() {
        *authorization = headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_owned);
    }
    let next = script.answers.lock().ok().and_then(|mut answers| answers.pop_front());
    let next = next.unwrap_or_else(|| Answer::json(r#"{"ok": true}"#));
    tokio::time::sleep(next.delay).await;
    let status = StatusCode::from_u16(next.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, next.body).into_response();
    if let Some(seconds) = next.retry_after
        && let Ok(value) = seconds.parse()
    {
        response.headers_mut().insert("retry-after", value);
    }
    response
}
