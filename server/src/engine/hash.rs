//! The result cache's key: a hash of the verifier id and the input in a canonical form.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// SHA-256 of the verifier id and the input in a canonical form (object keys sorted), hex.
pub fn input_hash(verifier: &str, input: &Value) -> String {
    let mut hasher = Sha256::new();
    hasher.update(verifier.as_bytes());
    hasher.update([0]);
    feed_canonical(&mut hasher, input);
    hex::encode(hasher.finalize())
}

fn feed_canonical(hasher: &mut Sha256, value: &Value) {
    match value {
        Value::Null => hasher.update(b"n"),
        Value::Bool(b) => hasher.update(if *b { b"t" } else { b"f" }),
        Value::Number(n) => {
            hasher.update(b"#");
            hasher.update(n.to_string().as_bytes());
            hasher.update(b";");
        }
        Value::String(s) => feed_string(hasher, s),
        Value::Array(items) => {
            hasher.update(b"[");
            for item in items {
                feed_canonical(hasher, item);
            }
            hasher.update(b"]");
        }
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            hasher.update(b"{");
            for key in keys {
                feed_string(hasher, key);
                feed_canonical(hasher, &fields[key]);
            }
            hasher.update(b"}");
        }
    }
}

fn feed_string(hasher: &mut Sha256, s: &str) {
    hasher.update(b"\"");
    hasher.update((s.len() as u64).to_le_bytes());
    hasher.update(s.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hash_ignores_key_order_but_not_content() {
        let a = json!({"response": "x", "reference": "y", "opts": {"a": 1, "b": [1, 2]}});
        let b = json!({"opts": {"b": [1, 2], "a": 1}, "reference": "y", "response": "x"});
        assert_eq!(input_hash("exact-match", &a), input_hash("exact-match", &b));
        assert_ne!(input_hash("exact-match", &a), input_hash("regex-match", &a));
        let c = json!({"response": "x", "reference": "y", "opts": {"a": 1, "b": [2, 1]}});
        assert_ne!(input_hash("exact-match", &a), input_hash("exact-match", &c));
        assert_ne!(input_hash("v", &json!(["ab", "c"])), input_hash("v", &json!(["a", "bc"])));
    }
}
