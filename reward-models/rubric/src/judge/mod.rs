//! The LLM judge: the HTTP client and the prompt templates with their reply parsers.

mod client;
mod prompt;

pub use client::{JudgeClient, JudgeConfig, JudgeError, JudgeReply, truncate};
pub use prompt::{Asked, Parsed, Subject, parse_principle_reply, parse_rubric_reply, principle_prompt, rubric_prompt};
