//! The LLM judge: the HTTP client, the prompt templates and the parsing of replies.

mod client;
mod config;
mod prompt;
mod reply;
mod template;

pub use client::{JudgeClient, JudgeClientError, JudgeError};
pub use config::{JudgeConfig, JudgeConfigError, PrincipleFormat};
pub use prompt::{
    Asked, MISSING_FLOOR, Parsed, PrincipleReading, Subject, Templates, criteria_block, parse_principle_reply,
    parse_rubric_reply, principle_answer, subject_block,
};
pub use reply::{JudgeReply, TokenLogprobs};
pub use template::{ChatMessage, MessageTemplate, PlaceholderError, TemplateError};
