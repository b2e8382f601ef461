//! The model's tokenizer (`tokenizer.json`) and chat template (`tokenizer_config.json`).

use std::path::Path;

use minijinja::{Environment, ErrorKind, context};
use serde::Deserialize;
use tokenizers::Tokenizer;

use super::ModelError;
pub use crate::source::ChatMessage;

const TEMPLATE: &str = "chat";

/// A tokenised text: the token ids, and each token's `(start, end)` byte range in the text.
pub type Encoded = (Vec<u32>, Vec<(usize, usize)>);

/// A tokenizer with its chat template and special tokens.
#[derive(Debug)]
pub struct ChatTokenizer {
    tokenizer: Tokenizer,
    templates: Environment<'static>,
    eos: String,
    bos: Option<String>,
}

#[derive(Deserialize)]
struct TokenizerConfig {
    chat_template: Option<serde_json::Value>,
    eos_token: Option<serde_json::Value>,
    bos_token: Option<serde_json::Value>,
}

/// A special token as `tokenizer_config.json` writes it: a string or `{"content": ...}`.
fn token_text(value: Option<&serde_json::Value>) -> Option<String> {
    match value? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Object(o) => o.get("content").and_then(serde_json::Value::as_str).map(str::to_owned),
        serde_json::Value::Null
        | serde_json::Value::Bool(_)
        | serde_json::Value::Number(_)
        | serde_json::Value::Array(_) => None,
    }
}

fn read(path: &Path) -> Result<String, ModelError> {
    std::fs::read_to_string(path)
        .map_err(|e| ModelError::File { path: path.display().to_string(), message: e.to_string() })
}

impl ChatTokenizer {
    /// Loads `dir/tokenizer.json` and `dir/tokenizer_config.json`. The chat template is the
    /// config's `chat_template` (a string, or the entry named `default` of a list), or
    /// `dir/chat_template.jinja` when that file exists; the end-of-sequence token is the
    /// config's `eos_token`, which must be a token of the vocabulary.
    pub fn load(dir: &Path) -> Result<ChatTokenizer, ModelError> {
        let path = dir.join("tokenizer.json");
        let tokenizer =
            Tokenizer::from_file(&path).map_err(|e| ModelError::Tokenizer(format!("{}: {e}", path.display())))?;
        let config_path = dir.join("tokenizer_config.json");
        let config: TokenizerConfig = serde_json::from_str(&read(&config_path)?)
            .map_err(|e| ModelError::Tokenizer(format!("{}: {e}", config_path.display())))?;
        let jinja = dir.join("chat_template.jinja");
        let template = if jinja.is_file() {
            read(&jinja)?
        } else {
            match config.chat_template {
                Some(serde_json::Value::String(s)) => s,
                Some(serde_json::Value::Array(entries)) => entries
                    .iter()
                    .find(|e| e.get("name").and_then(serde_json::Value::as_str) == Some("default"))
                    .and_then(|e| e.get("template"))
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| ModelError::Template("chat_template lists no template named default".to_owned()))?,
                _ => return Err(ModelError::Template("tokenizer_config.json has no chat_template".to_owned())),
            }
        };
        let eos = token_text(config.eos_token.as_ref())
            .ok_or_else(|| ModelError::Tokenizer("tokenizer_config.json has no eos_token".to_owned()))?;
        if tokenizer.token_to_id(&eos).is_none() {
            return Err(ModelError::Tokenizer(format!("the eos token {eos:?} is not in the vocabulary")));
        }
        let bos = token_text(config.bos_token.as_ref());
        Ok(ChatTokenizer { tokenizer, templates: environment(template)?, eos, bos })
    }

    /// Renders chat messages with the model's chat template, as transformers'
    /// `apply_chat_template(messages, tokenize=False, add_generation_prompt=...)` does
    /// (Jinja with `trim_blocks` and `lstrip_blocks`, Python string methods, `bos_token`,
    /// `eos_token` and `raise_exception`).
    pub fn render(&self, messages: &[ChatMessage], add_generation_prompt: bool) -> Result<String, ModelError> {
        let template = self.templates.get_template(TEMPLATE).map_err(|e| ModelError::Template(e.to_string()))?;
        template
            .render(context! {
                messages => messages,
                add_generation_prompt => add_generation_prompt,
                bos_token => self.bos.as_deref().unwrap_or_default(),
                eos_token => self.eos,
            })
            .map_err(|e| ModelError::Template(e.to_string()))
    }

    /// The end-of-sequence token's text.
    pub fn eos_token(&self) -> &str {
        &self.eos
    }

    /// The number of tokens, added ones included.
    pub fn vocab_size(&self) -> usize {
        self.tokenizer.get_vocab_size(true)
    }

    /// Tokenises `text` without adding special tokens (special tokens written in the text are
    /// still recognised): the ids, and each token's byte range in `text`.
    pub fn encode(&self, text: &str) -> Result<Encoded, ModelError> {
        let encoding = self.tokenizer.encode(text, false).map_err(|e| ModelError::Tokenizer(e.to_string()))?;
        Ok((encoding.get_ids().to_vec(), encoding.get_offsets().to_vec()))
    }
}

fn environment(template: String) -> Result<Environment<'static>, ModelError> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    env.add_function("raise_exception", |message: String| -> Result<String, minijinja::Error> {
        Err(minijinja::Error::new(ErrorKind::InvalidOperation, message))
    });
    env.add_template_owned(TEMPLATE, template).map_err(|e| ModelError::Template(e.to_string()))?;
    Ok(env)
}
