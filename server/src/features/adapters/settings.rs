//! `[openrlhf]`: the defaults of OpenRLHF's remote reward route.

use serde::{Deserialize, Serialize};

/// `POST /get_reward`, OpenRLHF's remote reward protocol; the query string may override both.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OpenRlhfConfig {
    /// The verifier that judges the rollouts.
    pub verifier: String,
    /// The verifier input field each label fills.
    pub label_field: String,
}

impl Default for OpenRlhfConfig {
    fn default() -> Self {
        OpenRlhfConfig { verifier: "math".to_owned(), label_field: "reference".to_owned() }
    }
}
