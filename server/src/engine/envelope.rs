//! An item's envelope (`id`, `verifier`, `input`, `label`) read and checked before its input
//! goes to a verifier; a bad envelope is that item's `invalid_input`, never the batch's failure.

use serde_json::Value;

use super::Engine;

/// One item after its envelope (`id`, `verifier`, `input`) has been read.
pub(super) struct Envelope {
    pub(super) id: Option<String>,
    pub(super) verifier: Option<String>,
    /// The task/source label that selects a noise model.
    pub(super) label: Option<String>,
    /// The registry position of the verifier and the input, or why the item is invalid.
    pub(super) target: Result<(usize, Value), String>,
}

/// Which envelope fields an item may have.
#[derive(Debug, Clone, Copy)]
pub enum ItemShape<'a> {
    /// `{id?, verifier, input, label?}`, as in `POST /v1/score`.
    Named,
    /// `{id?, input, label?}` for the given verifier, as in `POST /v1/verifiers/{id}/score`.
    For(&'a str),
}

impl Engine {
    pub(super) fn open_envelope(&self, item: Value, shape: ItemShape<'_>) -> Envelope {
        let Value::Object(mut fields) = item else {
            return Envelope {
                id: None,
                verifier: None,
                label: None,
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
            let name = verifier?;
            if !extra.is_empty() {
                return Err(format!(
                    "unknown item field(s) {}; an item has `id`, `verifier`, `input` and `label`",
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
        Envelope { id: id.ok().flatten(), verifier: verifier_name, label: label.ok().flatten(), target }
    }
}
