//! A small OpenAI-compatible completions server on a loopback port, playing vLLM's
//! `/v1/completions` with `echo: true` and `logprobs` in tests.
//!
//! Its tokeniser is deterministic: a token is a run of whitespace or a run of anything else,
//! and `text_offset` counts characters, as vLLM's does (a Python str's indices). The first
//! token's log-prob is null; every other token's is −0.05 per character when the text holds
//! `</think>` (the model has reasoned) and −0.2 per character when it does not. With
//! `max_tokens` ≥ 1 one generated token, `"!"`, follows the prompt, with its offset at the
//! prompt's end.
//!
//! It can be made to fail the next requests with HTTP 500, or to answer a body that is not
//! JSON; it records the `prompt` lists it received.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The server's behaviour and what it saw, shared with the test.
#[derive(Debug, Default)]
pub struct CompletionsState {
    /// The next this-many requests are answered with HTTP 500.
    pub failures: AtomicUsize,
    /// Answer 200 with a body that is not JSON.
    pub malformed: AtomicBool,
    /// Requests received.
    pub requests: AtomicUsize,
    /// The `prompt` list of each request, in arrival order.
    pub prompts: Mutex<Vec<Vec<String>>>,
    /// The body of the last request.
    pub last_body: Mutex<Option<Value>>,
}

/// A running fake completions server.
#[derive(Debug)]
pub struct FakeCompletions {
    /// `http://127.0.0.1:PORT`, for `rlpr.remote.url`.
    pub url: String,
    pub state: Arc<CompletionsState>,
    task: JoinHandle<()>,
}

impl Drop for FakeCompletions {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeCompletions {
    /// Starts a server that answers at once.
    pub async fn start() -> anyhow::Result<FakeCompletions> {
        let state = Arc::new(CompletionsState::default());
        let app =
            axum::Router::new().route("/v1/completions", axum::routing::post(complete)).with_state(Arc::clone(&state));
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(FakeCompletions { url: format!("http://{addr}"), state, task })
    }

    /// Requests received so far.
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }

    /// Every text received so far, in order.
    pub fn texts(&self) -> Vec<String> {
        self.state.prompts.lock().map(|p| p.concat()).unwrap_or_default()
    }
}

/// The tokens of `text` and their character offsets: runs of whitespace and runs of the rest.
pub fn tokenize(text: &str) -> Vec<(String, usize)> {
    let mut tokens: Vec<(String, usize)> = Vec::new();
    let mut previous: Option<bool> = None;
    for (index, c) in text.chars().enumerate() {
        let space = c.is_whitespace();
        match tokens.last_mut() {
            Some((token, _)) if previous == Some(space) => token.push(c),
            _ => tokens.push((c.to_string(), index)),
        }
        previous = Some(space);
    }
    tokens
}

/// The log-prob the server gives a token of `text`.
pub fn token_logprob(text: &str, token: &str) -> f64 {
    let per_char = if text.contains("</think>") { -0.05 } else { -0.2 };
    per_char * token.chars().count() as f64
}

async fn complete(State(state): State<Arc<CompletionsState>>, Json(body): Json<Value>) -> Response {
    state.requests.fetch_add(1, Ordering::SeqCst);
    if let Ok(mut last) = state.last_body.lock() {
        *last = Some(body.clone());
    }
    let prompts: Vec<String> = match &body["prompt"] {
        Value::String(one) => vec![one.clone()],
        Value::Array(many) => many.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::Object(_) => {
            return (StatusCode::BAD_REQUEST, "`prompt` must be a string or a list").into_response();
        }
    };
    if let Ok(mut seen) = state.prompts.lock() {
        seen.push(prompts.clone());
    }
    if state.failures.load(Ordering::SeqCst) > 0 {
        state.failures.fetch_sub(1, Ordering::SeqCst);
        return (StatusCode::INTERNAL_SERVER_ERROR, "engine failure").into_response();
    }
    if state.malformed.load(Ordering::SeqCst) {
        return (StatusCode::OK, "<html>not a completion</html>").into_response();
    }
    let generate = body["max_tokens"].as_u64().unwrap_or(16) > 0;
    let choices: Vec<Value> = prompts
        .iter()
        .enumerate()
        .map(|(index, prompt)| {
            let mut tokens = Vec::new();
            let mut logprobs = Vec::new();
            let mut offsets = Vec::new();
            for (position, (token, offset)) in tokenize(prompt).into_iter().enumerate() {
                logprobs.push(if position == 0 { Value::Null } else { json!(token_logprob(prompt, &token)) });
                tokens.push(token);
                offsets.push(offset);
            }
            let mut text = prompt.clone();
            if generate {
                tokens.push("!".to_owned());
                logprobs.push(json!(-0.7));
                offsets.push(prompt.chars().count());
                text.push('!');
            }
            json!({"index": index, "text": text, "finish_reason": "length", "logprobs": {
                "tokens": tokens, "token_logprobs": logprobs, "text_offset": offsets, "top_logprobs": null}})
        })
        .collect();
    Json(json!({"id": "cmpl-test", "object": "text_completion", "model": body["model"], "choices": choices}))
        .into_response()
}
