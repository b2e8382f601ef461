//! `POST /get_reward`: OpenRLHF's remote reward protocol. OpenRLHF posts each rollout as
//! `{"query": [...], "prompts": [...], "labels": [...]}` to `--reward.remote_url` (before
//! 0.10.2: `--remote_rm_url`) and reads `rewards` (and `scores`, `extra_logs`) from the answer.
//! Each query is the prompt followed by the response, decoded from tokens; the response is what
//! follows the prompt, and the label is the reference.
//!
//! OpenRLHF left-truncates a prompt that is too long before generating, but sends the whole
//! prompt: the query then starts inside the prompt, and the prompt is no longer its prefix.
//! Scoring such a query whole would read the prompt's text (a few-shot `\boxed{42}`) as the
//! model's answer, so a query whose prompt is not its prefix is split after the prompt's own
//! last assistant-turn marker, found again in the query, or else answered unjudged.

use std::time::Instant;

use axum::Extension;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use referee_core::Status;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::engine::ItemShape;
use crate::engine::{Correction, MAX_TAG_BYTES};
use std::sync::Arc;

use super::settings::OpenRlhfConfig;
use crate::http::AppState;
use crate::http::admission::HoldUntil;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::json::{Batch, BatchJson};
use crate::http::score::{budget, check_size, request_id};

/// What OpenRLHF sends. Fields other than these (some versions send more) are ignored.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RewardRequest {
    /// The rollouts, each the prompt followed by the response.
    pub query: Vec<String>,
    /// The prompts, by position. When a query starts with its prompt, the response is the rest.
    /// When it does not (OpenRLHF left-truncates long prompts), the response is what follows
    /// the last occurrence in the query of the prompt's final assistant-turn marker of a known
    /// chat template (ChatML, Llama 3 and 4, Gemma, DeepSeek, Mistral, Phi-3, Granite,
    /// Command R, Harmony) together with the prompt's text after that marker; without one the
    /// query is answered unjudged (`invalid_input`, reward 0, `judged` 0). A query without a
    /// prompt is split after its last known marker, or scored whole when it has none.
    #[serde(default)]
    pub prompts: Option<Vec<String>>,
    /// The references, by position. A string (or number) fills the verifier's label field; an
    /// object is merged into the verifier's input (e.g. `{"reference": "B", "options": {...}}`);
    /// null or a missing label leaves the field unset, and the verifier then judges the item
    /// `invalid_input` if it needs one.
    #[serde(default)]
    pub labels: Option<Vec<Value>>,
}

impl Batch for RewardRequest {
    const ITEMS: &'static str = "query";
}

/// Which verifier judges the batch and where labels go; both default to the `[openrlhf]`
/// configuration.
#[derive(Debug, Deserialize)]
pub struct RewardParams {
    pub verifier: Option<String>,
    pub label_field: Option<String>,
    /// Records the rollouts in this training run, each under its prompt's digest.
    pub run: Option<String>,
    /// The step the rollouts are recorded at (with `run`; 0 when absent; without a run, nothing
    /// is recorded).
    pub step: Option<u64>,
}

impl RewardParams {
    /// The run tags of a rollout of `prompt`: `run`, `step` and the prompt's digest as its
    /// `prompt_id` (its group), or nothing without a run.
    fn tags(&self, prompt: Option<&str>) -> Map<String, Value> {
        let mut tags = Map::new();
        if let Some(run) = &self.run {
            tags.insert("run".to_owned(), Value::String(run.clone()));
            tags.insert("step".to_owned(), Value::from(self.step.unwrap_or(0)));
            if let Some(prompt) = prompt {
                tags.insert("prompt_id".to_owned(), Value::String(prompt_digest(prompt)));
            }
        }
        tags
    }

    fn validate(&self) -> Result<(), String> {
        match (&self.run, self.step) {
            (Some(run), _) if run.is_empty() || run.len() > MAX_TAG_BYTES => {
                Err(format!("a run name has 1 to {MAX_TAG_BYTES} bytes"))
            }
            (_, Some(step)) if i64::try_from(step).is_err() => Err(format!("`step` must be at most {}", i64::MAX)),
            _ => Ok(()),
        }
    }
}

/// A prompt's id in a run: the first 16 hex digits of the SHA-256 of its text, as the Python
/// client's TRL reward functions name prompts a dataset gives no id.
pub fn prompt_digest(prompt: &str) -> String {
    use sha2::Digest as _;
    let mut digest = hex::encode(sha2::Sha256::digest(prompt.as_bytes()));
    digest.truncate(16);
    digest
}

/// Per-item numbers for OpenRLHF's logs, each a list parallel to `rewards`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExtraLogs {
    /// 1 where the verdict is `correct`, else 0.
    pub correct: Vec<f64>,
    /// 0 where the item could not be judged (`timeout`, `resource_limit`, `invalid_input`,
    /// `internal_error`, including a response that could not be told from its prompt), else 1.
    pub judged: Vec<f64>,
}

/// The answer, one entry per query in every list.
#[derive(Debug, Serialize, ToSchema)]
pub struct RewardResponse {
    /// The reward of each query: the verdict's score (0 for items that could not be judged).
    pub rewards: Vec<f64>,
    /// The same numbers, which OpenRLHF uses for dynamic filtering.
    pub scores: Vec<f64>,
    pub extra_logs: ExtraLogs,
    /// The verdict's status of each query, to tell a wrong answer from an unjudged item.
    pub statuses: Vec<Status>,
}

/// The text a known chat template puts before the model's turn. A generation prompt ends with
/// one of them (plus, for some templates, a fixed prefix of the turn such as a newline or an
/// empty thinking block).
const ASSISTANT_MARKERS: &[&str] = &[
    // ChatML (Qwen, Yi, OLMo, SmolLM, ...).
    "<|im_start|>assistant",
    // Llama 3.
    "<|start_header_id|>assistant<|end_header_id|>",
    // Llama 4.
    "<|header_start|>assistant<|header_end|>",
    // Gemma.
    "<start_of_turn>model",
    // DeepSeek V3 and R1 (full-width bars).
    "<\u{ff5c}Assistant\u{ff5c}>",
    // Mistral and Llama 2.
    "[/INST]",
    // Phi-3, GLM-4, Zephyr.
    "<|assistant|>",
    // Granite.
    "<|start_of_role|>assistant<|end_of_role|>",
    // Command R.
    "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>",
    // Harmony (gpt-oss).
    "<|start|>assistant",
];

/// The last known assistant-turn marker in `text`: where it starts and where it ends. Of two
/// markers the one ending later wins.
fn last_marker(text: &str) -> Option<(usize, usize)> {
    ASSISTANT_MARKERS
        .iter()
        .filter_map(|marker| text.rfind(marker).map(|at| (at, at + marker.len())))
        .max_by_key(|&(_, end)| end)
}

/// The response in `query`, or `None` when it cannot be told from the prompt with certainty.
fn response_of<'q>(query: &'q str, prompt: Option<&str>) -> Option<&'q str> {
    let Some(prompt) = prompt else {
        return Some(last_marker(query).map_or(query, |(_, end)| &query[end..]));
    };
    if let Some(response) = query.strip_prefix(prompt) {
        return Some(response);
    }
    // The prompt's last marker and all that follows it survive left truncation; the response
    // is what follows their last occurrence in the query.
    let (start, _) = last_marker(prompt)?;
    let anchor = &prompt[start..];
    query.rfind(anchor).map(|at| &query[at + anchor.len()..])
}

/// The verifier input of one rollout whose response is `response`.
fn input(response: &str, label: Option<&Value>, label_field: &str, tags: Map<String, Value>) -> Value {
    let mut input = Map::new();
    match label {
        None | Some(Value::Null) => {}
        Some(Value::Object(fields)) => input.extend(fields.clone()),
        Some(Value::Number(n)) => {
            input.insert(label_field.to_owned(), Value::String(n.to_string()));
        }
        Some(other) => {
            input.insert(label_field.to_owned(), other.clone());
        }
    }
    input.insert("response".to_owned(), Value::String(response.to_owned()));
    let mut item = tags;
    item.insert("input".to_owned(), Value::Object(input));
    Value::Object(item)
}

fn is_judged(status: Status) -> bool {
    !matches!(status, Status::Timeout | Status::ResourceLimit | Status::InvalidInput | Status::InternalError)
}

/// The answer for verdicts given as (score, status), one per query.
fn response(verdicts: &[(f64, Status)]) -> RewardResponse {
    let rewards: Vec<f64> =
        verdicts.iter().map(|&(score, status)| if is_judged(status) { score } else { 0.0 }).collect();
    RewardResponse {
        scores: rewards.clone(),
        rewards,
        extra_logs: ExtraLogs {
            correct: verdicts.iter().map(|&(_, status)| f64::from(u8::from(status == Status::Correct))).collect(),
            judged: verdicts.iter().map(|&(_, status)| f64::from(u8::from(is_judged(status)))).collect(),
        },
        statuses: verdicts.iter().map(|&(_, status)| status).collect(),
    }
}

/// Scores rollouts for OpenRLHF: `--reward.remote_url http://HOST:PORT/get_reward` with
/// `--data.label_key KEY` (OpenRLHF >= 0.10.2), or `--remote_rm_url` with `--label_key`
/// (earlier versions).
///
/// A request that finds no room waits for it, in arrival order, until the request deadline,
/// instead of being refused: OpenRLHF retries a failed request a few times without reading
/// `Retry-After` and then drops the reward.
#[utoipa::path(post, path = "/get_reward", tag = "scoring", request_body = RewardRequest,
    params(
        ("verifier" = Option<String>, Query,
            description = "The verifier id, as listed by `GET /v1/verifiers`; the server's `openrlhf.verifier` when absent."),
        ("label_field" = Option<String>, Query,
            description = "The verifier input field each label fills; the server's `openrlhf.label_field` when absent."),
        ("run" = Option<String>, Query, min_length = 1, max_length = 256,
            description = "Records the rollouts in this training run (1 to 256 bytes), each under its prompt's id: the first 16 hex digits of the SHA-256 of the prompt, so a prompt's rollouts form its group."),
        ("step" = Option<u64>, Query, maximum = 9_223_372_036_854_775_807_u64,
            description = "The training step the rollouts are recorded at, with `run` (without one, nothing is recorded); 0 when absent (OpenRLHF sends no step)."),
    ),
    responses(
        (status = 200, description = "One reward per query, in query order.", body = RewardResponse),
        (status = 400, description = "The body is not valid JSON.", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent.", body = ErrorBody),
        (status = 404, description = "No verifier has this id.", body = ErrorBody),
        (status = 413, description = "The body or the number of queries is over the limit.", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON.", body = ErrorBody),
        (status = 422, description = "The body is JSON but not a reward request, or the query string is malformed.", body = ErrorBody),
        (status = 429, description = "Only with `server.max_waiting_requests = 0`: a scorer the request needs has a full queue (code `busy`); nothing was scored. Retry after `Retry-After` seconds.", body = ErrorBody),
        (status = 503, description = "No room came within the request deadline, `server.max_waiting_requests` requests already wait, or a scorer the request needs is unavailable (code `busy`); nothing was scored. Retry after `Retry-After` seconds.", body = ErrorBody),
    ),
    security((), ("api_key" = [])))]
pub async fn get_reward(
    State(state): State<AppState>,
    hold: Option<Extension<HoldUntil>>,
    params: Result<Query<RewardParams>, QueryRejection>,
    headers: HeaderMap,
    BatchJson(request): BatchJson<RewardRequest>,
) -> Result<axum::Json<RewardResponse>, ApiError> {
    let Query(params) = params.map_err(|rejection| ApiError::invalid_body(rejection.body_text()))?;
    params.validate().map_err(ApiError::invalid_body)?;
    let defaults = state.features.get::<Arc<OpenRlhfConfig>>().unwrap_or_default();
    let verifier = params.verifier.as_deref().unwrap_or(&defaults.verifier);
    if state.engine.registry().get(verifier).is_none() {
        return Err(ApiError::unknown_verifier(verifier.to_owned()));
    }
    let label_field = params.label_field.as_deref().unwrap_or(&defaults.label_field);
    check_size(&state.limits, request.query.len())?;
    let prompts = request.prompts.unwrap_or_default();
    let labels = request.labels.unwrap_or_default();
    let mut items = Vec::with_capacity(request.query.len());
    let mut separated = Vec::with_capacity(request.query.len());
    for (i, query) in request.query.iter().enumerate() {
        let prompt = prompts.get(i).map(String::as_str);
        match response_of(query, prompt) {
            Some(response) => {
                items.push(input(response, labels.get(i), label_field, params.tags(prompt)));
                separated.push(true);
            }
            None => separated.push(false),
        }
    }
    let unseparated = separated.iter().filter(|&&s| !s).count();
    if unseparated > 0 {
        metrics::counter!("referee_openrlhf_unseparated_total").increment(unseparated as u64);
        tracing::warn!(unseparated, "queries whose response could not be told from the prompt are answered unjudged");
    }
    let budget = budget(&state.limits, None);
    let request_id = request_id(&headers);
    let results = if state.limits.max_waiting_requests == 0 {
        state.engine.try_score(items, ItemShape::For(verifier), Correction::None, budget, &request_id).await?
    } else {
        let until = hold.map_or_else(|| Instant::now() + state.limits.request_timeout, |Extension(HoldUntil(t))| t);
        state
            .engine
            .score_waiting(items, ItemShape::For(verifier), Correction::None, budget, &request_id, until)
            .await?
    };
    let mut results = results.into_iter();
    let verdicts: Vec<(f64, Status)> = separated
        .iter()
        .map(|&separated| match separated.then(|| results.next()).flatten() {
            Some(result) => (result.score, result.status),
            None => (0.0, Status::InvalidInput),
        })
        .collect();
    Ok(axum::Json(response(&verdicts)))
}
#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn labels_fill_the_input() {
        let label = Value::String("4".to_owned());
        assert_eq!(
            input("A: 4", Some(&label), "reference", Map::new()),
            json!({"input": {"reference": "4", "response": "A: 4"}})
        );
        assert_eq!(input("A: 4", None, "reference", Map::new()), json!({"input": {"response": "A: 4"}}));
        assert_eq!(
            input("x", Some(&json!(12)), "reference", Map::new()),
            json!({"input": {"reference": "12", "response": "x"}})
        );
        assert_eq!(
            input("x", Some(&json!({"reference": "B", "options": {}})), "reference", Map::new()),
            json!({"input": {"reference": "B", "options": {}, "response": "x"}})
        );
    }

    #[test]
    fn a_run_tags_each_rollout_with_its_prompts_digest() {
        // SHA-256("abc") = ba7816bf 8f01cfea 414140de ...
        assert_eq!(prompt_digest("abc"), "ba7816bf8f01cfea");
        let params = RewardParams { verifier: None, label_field: None, run: Some("r".to_owned()), step: Some(3) };
        assert_eq!(
            input("A: 4", None, "reference", params.tags(Some("abc"))),
            json!({"run": "r", "step": 3, "prompt_id": "ba7816bf8f01cfea", "input": {"response": "A: 4"}})
        );
        let untagged = RewardParams { verifier: None, label_field: None, run: None, step: None };
        assert_eq!(untagged.tags(Some("abc")), Map::new());
        assert!(untagged.validate().is_ok());
        // A step without a run records nothing, as there is nothing to record it in.
        let step_only = RewardParams { verifier: None, label_field: None, run: None, step: Some(1) };
        assert!(step_only.validate().is_ok() && step_only.tags(Some("abc")).is_empty());
        for (run, step) in [(Some(String::new()), None), (Some("r".to_owned()), Some(u64::MAX))] {
            assert!(RewardParams { verifier: None, label_field: None, run, step }.validate().is_err());
        }
    }

    #[test]
    fn the_response_is_what_follows_the_prompt() {
        assert_eq!(response_of("Q: 2+2? A: 4", Some("Q: 2+2? ")), Some("A: 4"));
        assert_eq!(response_of("A: 4", Some("")), Some("A: 4"));
        // No prompt and no marker: the query is the response.
        assert_eq!(response_of("Is it 7?", None), Some("Is it 7?"));
        assert_eq!(response_of("<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\nA", None), Some("\nA"));
    }

    /// A few-shot prompt in each template: an earlier assistant turn answers `\boxed{42}`, and
    /// the generation prompt ends with the template's marker and its fixed turn prefix.
    fn few_shot(template: &str) -> String {
        let (user, assistant, end) = match template {
            "chatml" => ("<|im_start|>user\n", "<|im_start|>assistant\n", "<|im_end|>\n"),
            "llama3" => (
                "<|start_header_id|>user<|end_header_id|>\n\n",
                "<|start_header_id|>assistant<|end_header_id|>\n\n",
                "<|eot_id|>",
            ),
            "gemma" => ("<start_of_turn>user\n", "<start_of_turn>model\n", "<end_of_turn>\n"),
            "deepseek" => (
                "<\u{ff5c}User\u{ff5c}>",
                "<\u{ff5c}Assistant\u{ff5c}><think>\n",
                "<\u{ff5c}end\u{2581}of\u{2581}sentence\u{ff5c}>",
            ),
            "mistral" => ("[INST] ", "[/INST]", "</s>"),
            "qwen3" => ("<|im_start|>user\n", "<|im_start|>assistant\n<think>\n\n</think>\n\n", "<|im_end|>\n"),
            other => panic!("no template {other}"),
        };
        let assistant_turn = if template == "qwen3" { "<|im_start|>assistant\n" } else { assistant };
        format!(
            "{user}What is 6*7?{end}{assistant_turn}The answer is \\boxed{{42}}.{end}{user}What is 6*8?{end}{assistant}"
        )
    }

    #[test]
    fn a_truncated_prompt_is_split_at_its_last_assistant_marker() {
        for template in ["chatml", "llama3", "gemma", "deepseek", "mistral", "qwen3"] {
            let prompt = few_shot(template);
            let query = format!("{prompt}I do not know.");
            assert_eq!(response_of(&query, Some(&prompt)), Some("I do not know."), "{template}, whole prompt");
            // Left truncation at every character boundary that keeps the final marker.
            let last = prompt.rfind(['<', '[']).unwrap_or_default();
            for (cut, _) in prompt.char_indices().filter(|&(i, _)| i > 0 && i <= last.min(prompt.len() - 1)) {
                let truncated = format!("{}I do not know.", &prompt[cut..]);
                let response = response_of(&truncated, Some(&prompt));
                assert!(
                    response.is_none_or(|r| !r.contains("42")),
                    "{template}, cut at {cut}: {response:?} holds prompt text"
                );
            }
            let truncated = format!("{}I do not know.", &prompt[prompt.len() / 2..]);
            assert_eq!(response_of(&truncated, Some(&prompt)), Some("I do not know."), "{template}");
        }
    }

    #[test]
    fn without_a_marker_a_truncated_prompt_leaves_the_query_unjudged() {
        let prompt = "Q: What is 6*7?\nA: \\boxed{42}\nQ: What is 6*8?\nA:";
        assert_eq!(response_of(&format!("{}I do not know.", &prompt[10..]), Some(prompt)), None);
        // A decoded query that differs from the prompt anywhere is no more certain.
        assert_eq!(response_of("Q: What is 6*7? A: \\boxed{42} I do not know.", Some(prompt)), None);
    }

    #[test]
    fn a_marker_repeated_in_the_response_never_brings_back_prompt_text() {
        let prompt = few_shot("chatml");
        let query = format!("{}Fine.<|im_end|>\n<|im_start|>assistant\n\\boxed{{48}}", &prompt[30..]);
        assert_eq!(response_of(&query, Some(&prompt)), Some("\\boxed{48}"));
    }

    #[test]
    fn unseparated_queries_are_unjudged_zeros() {
        let answer = response(&[(1.0, Status::Correct), (0.0, Status::InvalidInput), (0.5, Status::Timeout)]);
        assert_eq!(answer.rewards, [1.0, 0.0, 0.0]);
        assert_eq!(answer.extra_logs.judged, [1.0, 0.0, 0.0]);
        assert_eq!(answer.extra_logs.correct, [1.0, 0.0, 0.0]);
    }
}
