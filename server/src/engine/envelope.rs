//! An item's envelope (`id`, `verifier`, `input`, `label`, and the run fields `run`, `step`,
//! `prompt_id`, `group`) read and checked before its input goes to a verifier; a bad envelope is
//! that item's `invalid_input`, never the batch's failure.

use serde_json::{Map, Value};

use super::Engine;
use super::hooks::RunTag;

/// Longest `run`, `prompt_id` or `group`, in bytes.
pub const MAX_TAG_BYTES: usize = 256;

/// One item after its envelope (`id`, `verifier`, `input`) has been read.
pub(super) struct Envelope {
    pub(super) id: Option<String>,
    pub(super) verifier: Option<String>,
    /// The task/source label that selects a noise model.
    pub(super) label: Option<String>,
    /// The training run the item belongs to, when it names one.
    pub(super) run: Option<RunTag>,
    /// The registry position of the verifier and the input, or why the item is invalid.
    pub(super) target: Result<(usize, Value), String>,
}

/// Which envelope fields an item may have.
#[derive(Debug, Clone, Copy)]
pub enum ItemShape<'a> {
    /// `{id?, verifier, input, label?, run?, step?, prompt_id?, group?}`, as in `POST /v1/score`.
    Named,
    /// `{id?, input, label?, run?, step?, prompt_id?, group?}` for the given verifier, as in
    /// `POST /v1/verifiers/{id}/score`.
    For(&'a str),
}

impl Engine {
    pub(super) fn open_envelope(&self, item: Value, shape: ItemShape<'_>) -> Envelope {
        let Value::Object(mut fields) = item else {
            return Envelope {
                id: None,
                verifier: None,
                label: None,
                run: None,
                target: Err("an item must be a JSON object".to_owned()),
            };
        };
        let id = match fields.remove("id") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(id)) => Ok(Some(id)),
            Some(_) => Err("`id` must be a string".to_owned()),
        };
        let verifier = match shape {
            ItemShape::Named => match fields.remove("verifier") {
                Some(Value::String(name)) => Ok(name),
                Some(_) => Err("`verifier` must be a string".to_owned()),
                None => Err("missing `verifier`".to_owned()),
            },
            ItemShape::For(name) => Ok(name.to_owned()),
        };
        let label = match fields.remove("label") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(label)) => Ok(Some(label)),
            Some(_) => Err("`label` must be a string".to_owned()),
        };
        let run = run_tag(&mut fields);
        let input = fields.remove("input");
        let extra: Vec<String> = fields.keys().map(|k| format!("`{k}`")).collect();
        let verifier_name = verifier.as_ref().ok().cloned();
        let target = (|| {
            if let Err(reason) = &id {
                return Err(reason.clone());
            }
            if let Err(reason) = &label {
                return Err(reason.clone());
            }
            if let Err(reason) = &run {
                return Err(reason.clone());
            }
            let name = verifier?;
            if !extra.is_empty() {
                return Err(format!(
                    "unknown item field(s) {}; an item has `id`, `verifier`, `input`, `label`, `run`, `step`, \
                     `prompt_id` and `group`",
                    extra.join(", ")
                ));
            }
            let index = self
                .registry
                .index_of(&name)
                .ok_or_else(|| format!("no verifier is registered as `{name}`; GET /v1/verifiers lists them"))?;
            let input = input.ok_or_else(|| "missing `input`".to_owned())?;
            Ok((index, input))
        })();
        Envelope {
            id: id.ok().flatten(),
            verifier: verifier_name,
            label: label.ok().flatten(),
            run: run.ok().flatten(),
            target,
        }
    }
}

/// Takes the run fields out of `fields`: `run` (a string), `step` (a non-negative integer, 0 when
/// absent), `prompt_id` and `group` (strings, or integers taken as their decimal text). The last
/// three belong to a run and are refused without one. Items and episodes are tagged alike.
pub fn run_tag(fields: &mut Map<String, Value>) -> Result<Option<RunTag>, String> {
    let run = tag_text(fields.remove("run"), "run")?;
    let step = match fields.remove("step") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15).map(|f| f as u64))
        {
            Some(step) => Some(i64::try_from(step).map_err(|_| format!("`step` {step} is too large"))?),
            None => return Err(format!("`step` must be a non-negative integer, got {n}")),
        },
        Some(_) => return Err("`step` must be a non-negative integer".to_owned()),
    };
    let prompt_id = tag_text(fields.remove("prompt_id"), "prompt_id")?;
    let group = tag_text(fields.remove("group"), "group")?;
    match run {
        Some(run) => Ok(Some(RunTag { run, step: step.unwrap_or(0), prompt_id, group })),
        None if step.is_some() || prompt_id.is_some() || group.is_some() => {
            Err("`step`, `prompt_id` and `group` belong to a run: give `run` too (on the item or the request)"
                .to_owned())
        }
        None => Ok(None),
    }
}

fn tag_text(value: Option<Value>, name: &str) -> Result<Option<String>, String> {
    let text = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(text)) => text,
        Some(Value::Number(n)) if n.is_u64() || n.is_i64() => n.to_string(),
        Some(_) => return Err(format!("`{name}` must be a string")),
    };
    if text.is_empty() {
        return Err(format!("`{name}` is empty"));
    }
    if text.len() > MAX_TAG_BYTES {
        return Err(format!("`{name}` is longer than {MAX_TAG_BYTES} bytes"));
    }
    Ok(Some(text))
}

/// Gives every item without a `run` the request's `run`, then every item of a run without a
/// `step` the request's `step`: the per-request defaults of the scoring routes. Items that are
/// not objects are left for the envelope to refuse.
pub fn apply_run_defaults(items: &mut [Value], run: Option<&str>, step: Option<u64>) {
    if run.is_none() && step.is_none() {
        return;
    }
    for item in items {
        let Value::Object(fields) = item else { continue };
        if let Some(run) = run
            && fields.get("run").is_none_or(Value::is_null)
        {
            fields.insert("run".to_owned(), Value::String(run.to_owned()));
        }
        if let Some(step) = step
            && fields.get("run").is_some_and(|run| !run.is_null())
            && fields.get("step").is_none_or(Value::is_null)
        {
            fields.insert("step".to_owned(), Value::from(step));
        }
    }
}
