//! A small OpenAI-compatible chat-completions server on a loopback port, playing the LLM judge
//! in tests. It answers from the prompt itself:
//!
//! - a principle prompt (`Principle: ...`, or a message with RLBFF's `principle` role) whose
//!   principle holds `[p=0.8]` is answered "Yes" (p ≥ 0.5) or "No", with the answer token's
//!   log-probs ln p for "Yes" and ln(1 − p) for "No" when log-probs are asked for and enabled;
//!   `[yes]` or `[no]` answer that word without log-probs. With [`JudgeState::reasoning`] the
//!   answer follows a `<think>` block whose first token lists "Yes" among its candidates and
//!   whose text says "Yes", its closing tag split over three tokens; with
//!   [`JudgeState::one_sided`] the answer token's candidates hold only the answer word;
//! - a rubric prompt answers each criterion line `- name: ... [say X] ...` with the verdict `X`,
//!   after a line of reasoning, as `{"verdicts": [...]}`;
//! - a process prompt (steps in `[Step k]` blocks) answers `Step k: correct` per step, or
//!   `incorrect` for a step whose text holds `[wrong]`;
//! - answers set in [`JudgeState::scripted`] take precedence: a criterion's verdict by its name,
//!   a principle's P(yes) by its text (answered as `[p=...]` would be).
//!
//! It can be made slow, made to fail or rate-limit the next requests, or to answer malformed
//! bodies; it counts requests and the most it had in flight at once.
//!
//! [`FakeJudge::start_https`] serves the same judge over TLS, with a certificate for
//! `127.0.0.1` signed by a private CA generated on the spot.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use referee_model_client::testkit::{TlsListener, private_ca};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The judge's behaviour and counters, shared with the test.
#[derive(Debug, Default)]
pub struct JudgeState {
    /// Milliseconds to wait before answering, counted from each request's arrival; lowered,
    /// it shortens the wait of the requests waiting.
    pub delay_ms: AtomicU64,
    /// The next this-many requests are answered with `fail_status`.
    pub failures: AtomicUsize,
    /// The status of a failed answer (429 comes with `Retry-After: 0`).
    pub fail_status: AtomicU16,
    /// Answer 200 with a body that is not a chat completion.
    pub malformed: AtomicBool,
    /// Include log-probs when asked for them.
    pub logprobs: AtomicBool,
    /// Reason in a `<think>` block before answering principle prompts.
    pub reasoning: AtomicBool,
    /// List only the answer word (and an unrelated word) among the answer token's candidates.
    pub one_sided: AtomicBool,
    /// The body of the last request.
    pub last_body: std::sync::Mutex<Option<Value>>,
    /// Requests received.
    pub requests: AtomicUsize,
    in_flight: AtomicUsize,
    /// The most requests in flight at once.
    pub max_in_flight: AtomicUsize,
    /// The `Authorization` header of the last request.
    pub last_authorization: std::sync::Mutex<Option<String>>,
    /// Scripted answers: a rubric criterion's verdict by the criterion's name, a principle's
    /// P(yes) (a number) by the principle's text.
    pub scripted: std::sync::Mutex<HashMap<String, Value>>,
}

/// A running fake judge.
#[derive(Debug)]
pub struct FakeJudge {
    /// `http://127.0.0.1:PORT/v1`, for `judge.base_url`.
    pub base_url: String,
    pub state: Arc<JudgeState>,
    task: JoinHandle<()>,
}

impl Drop for FakeJudge {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakeJudge {
    /// Starts a judge that answers at once, with log-probs.
    pub async fn start() -> anyhow::Result<FakeJudge> {
        let (state, app) = judge_app();
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(FakeJudge { base_url: format!("http://{addr}/v1"), state, task })
    }

    /// Starts the same judge over HTTPS (`https://127.0.0.1:PORT/v1`); also returns the PEM of
    /// the private CA that signed its certificate.
    pub async fn start_https() -> anyhow::Result<(FakeJudge, String)> {
        let (ca_pem, tls) = private_ca(&["127.0.0.1", "localhost"], "judge").map_err(anyhow::Error::from_boxed)?;
        let (state, app) = judge_app();
        let tcp = TcpListener::bind("127.0.0.1:0").await?;
        let addr = tcp.local_addr()?;
        let listener = TlsListener::new(tcp, tls);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok((FakeJudge { base_url: format!("https://{addr}/v1"), state, task }, ca_pem))
    }

    /// Requests received so far.
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }
}

fn judge_app() -> (Arc<JudgeState>, axum::Router) {
    let state = Arc::new(JudgeState { fail_status: AtomicU16::new(503), ..JudgeState::default() });
    state.logprobs.store(true, Ordering::SeqCst);
    let app =
        axum::Router::new().route("/v1/chat/completions", axum::routing::post(complete)).with_state(Arc::clone(&state));
    (state, app)
}

struct InFlight<'a>(&'a JudgeState);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn complete(State(state): State<Arc<JudgeState>>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    state.requests.fetch_add(1, Ordering::SeqCst);
    let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    state.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let _guard = InFlight(&state);
    if let Ok(mut last) = state.last_authorization.lock() {
        *last = headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_owned);
    }
    // The delay is read again while it runs, so lowering it ends the wait of a request already
    // waiting.
    let arrived = tokio::time::Instant::now();
    loop {
        let delay = Duration::from_millis(state.delay_ms.load(Ordering::SeqCst));
        let left = delay.saturating_sub(arrived.elapsed());
        if left.is_zero() {
            break;
        }
        tokio::time::sleep(left.min(Duration::from_millis(20))).await;
    }
    let failing = state.failures.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
    if failing {
        let status = StatusCode::from_u16(state.fail_status.load(Ordering::SeqCst)).unwrap_or(StatusCode::BAD_GATEWAY);
        let mut response = (status, Json(json!({"error": {"message": "scripted failure"}}))).into_response();
        if status == StatusCode::TOO_MANY_REQUESTS {
            response.headers_mut().insert("retry-after", axum::http::HeaderValue::from_static("0"));
        }
        return response;
    }
    if state.malformed.load(Ordering::SeqCst) {
        return (StatusCode::OK, "<html>upstream gateway page</html>").into_response();
    }
    if let Ok(mut last) = state.last_body.lock() {
        *last = Some(body.clone());
    }
    let messages = body.get("messages").and_then(Value::as_array).cloned().unwrap_or_default();
    let content_of = |m: &Value| m.get("content").and_then(Value::as_str).unwrap_or_default().to_owned();
    // RLBFF's chat format puts the principle in a turn of its own; other prompts are read whole.
    let prompt = match messages.iter().find(|m| m.get("role").and_then(Value::as_str) == Some("principle")) {
        Some(principle) => format!("Principle: {}", content_of(principle)),
        None => messages.iter().map(content_of).collect::<Vec<_>>().join("\n"),
    };
    let wants_logprobs = body.get("logprobs") == Some(&Value::Bool(true)) && state.logprobs.load(Ordering::SeqCst);
    let scripted = state.scripted.lock().map(|s| s.clone()).unwrap_or_default();
    let style =
        Style { reasoning: state.reasoning.load(Ordering::SeqCst), one_sided: state.one_sided.load(Ordering::SeqCst) };
    let (content, logprobs) = answer(&prompt, wants_logprobs, &scripted, style);
    let mut choice = json!({"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"});
    if let Some(logprobs) = logprobs {
        choice["logprobs"] = logprobs;
    }
    Json(json!({"id": "cmpl-test", "object": "chat.completion", "model": body["model"], "choices": [choice]}))
        .into_response()
}

/// The text between `open` and the next `]` after it.
fn tag<'a>(text: &'a str, open: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(']')? + start;
    Some(&text[start..end])
}

/// How principle answers are written.
#[derive(Debug, Clone, Copy)]
struct Style {
    reasoning: bool,
    one_sided: bool,
}

/// A logprobs entry: the token, its log-prob, and the candidates at its position.
fn token(text: &str, logprob: f64, top: &[(&str, f64)]) -> Value {
    let top: Vec<Value> = top.iter().map(|(t, l)| json!({"token": t, "logprob": l})).collect();
    json!({"token": text, "logprob": logprob, "top_logprobs": top})
}

/// A principle answered with P(yes) = `p`: the content and, when asked, its token log-probs.
fn principle_answer(p: f64, wants_logprobs: bool, style: Style) -> (String, Option<Value>) {
    let word = if p >= 0.5 { "Yes" } else { "No" };
    let chosen = if p >= 0.5 { p.ln() } else { (1.0 - p).ln() };
    let answer = if style.one_sided {
        token(word, chosen, &[(word, chosen), ("Maybe", 0.01f64.ln())])
    } else {
        token(word, chosen, &[("Yes", p.ln()), ("No", (1.0 - p).ln())])
    };
    if !style.reasoning {
        return (word.to_owned(), wants_logprobs.then(|| json!({"content": [answer]})));
    }
    // The reasoning opens with a token whose candidates hold a "Yes", and says "Yes" with
    // confidence; only the last token is the answer.
    let lead = [
        token("<think>", 0.98f64.ln(), &[("<think>", 0.98f64.ln()), ("Yes", 0.02f64.ln())]),
        token("\nAt", -0.1, &[]),
        token(" first", -0.1, &[]),
        token(" sight", -0.1, &[]),
        token(":", -0.1, &[]),
        token(" Yes", 0.9f64.ln(), &[(" Yes", 0.9f64.ln()), (" No", 0.1f64.ln())]),
        token(".\n", -0.1, &[]),
        token("</", -0.01, &[]),
        token("think", -0.01, &[]),
        token(">", -0.01, &[]),
        token("\n\n", -0.01, &[]),
    ];
    let content = format!("<think>\nAt first sight: Yes.\n</think>\n\n{word}");
    let mut tokens = lead.to_vec();
    tokens.push(answer);
    (content, wants_logprobs.then(|| json!({"content": tokens})))
}

fn answer(
    prompt: &str,
    wants_logprobs: bool,
    scripted: &HashMap<String, Value>,
    style: Style,
) -> (String, Option<Value>) {
    if let Some(at) = prompt.find("Principle: ") {
        let principle = &prompt[at..];
        let text = principle["Principle: ".len()..].lines().next().unwrap_or_default();
        let p = scripted.get(text).and_then(Value::as_f64).or_else(|| tag(principle, "[p=")?.parse::<f64>().ok());
        if let Some(p) = p {
            return principle_answer(p, wants_logprobs, style);
        }
        let word = if principle.contains("[yes]") {
            "Yes"
        } else if principle.contains("[no]") {
            "No"
        } else {
            "I cannot tell."
        };
        return (word.to_owned(), None);
    }
    if prompt.contains("[Step 1]") {
        return (step_verdicts(prompt), None);
    }
    let mut verdicts = Vec::new();
    for line in prompt.lines().filter_map(|l| l.strip_prefix("- ")) {
        let Some((name, _)) = line.split_once(':') else { continue };
        let verdict = match (scripted.get(name), tag(line, "[say ")) {
            (Some(verdict), _) => verdict.clone(),
            (None, Some(verdict)) => verdict.parse::<f64>().map_or_else(|_| json!(verdict), |n| json!(n)),
            (None, None) => continue,
        };
        verdicts.push(json!({"name": name, "reason": "scripted", "verdict": verdict}));
    }
    (format!("Each criterion was read against the response.\n{}", json!({"verdicts": verdicts})), None)
}

/// A process prompt's steps (`[Step k]` blocks) answered `Step k: correct`, or `incorrect` for a
/// step whose text holds `[wrong]`, after a line of reasoning.
fn step_verdicts(prompt: &str) -> String {
    let mut reply = String::from("I checked each step against the ones before it.\n");
    for block in prompt.split("[Step ").skip(1) {
        let Some((number, text)) = block.split_once(']') else { continue };
        let verdict = if text.contains("[wrong]") { "incorrect" } else { "correct" };
        reply.push_str(&format!("Step {number}: {verdict}\n"));
    }
    reply
}
