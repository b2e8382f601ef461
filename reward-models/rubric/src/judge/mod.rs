//! The LLM judge: the HTTP client, the prompt templates and the parsing of replies.

mod client;
mod prompt;
mod template;

pub use client::{JudgeClient, JudgeConfig, JudgeError, JudgeReply, PrincipleFormat, TokenLogprobs, truncate};
pub use prompt::{
    Asked, MISSING_FLOOR, Parsed, PrincipleReading, Subject, Templates, criteria_block, parse_principle_reply,
    parse_rubric_reply, principle_answer, subject_block,
};
pub use template::{ChatMessage, MessageTemplate};
