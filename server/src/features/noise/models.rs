//! What a person sets and reads of one noise model: its key, its settings, its status, and the
//! gold labels of an audit.

use referee_noise::{
    AppealRates, BinomialInterval, ConfiguredRates, CountWindow, GoldLabel, NoiseModel, NoiseSource, VerdictTally,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// Which noise model: a verifier version and an optional task/source label (`""` for none).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NoiseKey {
    pub verifier: String,
    pub version: String,
    pub label: String,
}

impl NoiseKey {
    /// The label as the API shows it: absent for the verifier-wide model.
    pub(super) fn label(&self) -> Option<String> {
        (!self.label.is_empty()).then(|| self.label.clone())
    }
}

/// What a person sets for one noise model: the body of `PUT /v1/noise/{verifier}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoiseSettings {
    /// Rates set by hand: the `configured` source.
    #[serde(default)]
    pub configured: Option<ConfiguredRates>,
    /// Online appeals: which checker re-checks which share of the verdicts (the `appeal`
    /// source).
    #[serde(default)]
    pub appeal: Option<AppealSettings>,
    /// The source whose model corrects rewards. When absent, the first of `audit`, `appeal`
    /// and `configured` that has a model.
    #[serde(default, rename = "use")]
    pub use_source: Option<NoiseSource>,
    /// Which counts the audit and appeal models are estimated from: every count (the default),
    /// the last steps, or counts decayed by their age in steps. Steps are set with
    /// `PUT /v1/noise/{verifier}/step`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<CountWindow>,
    /// The interval of audit rates: `jeffreys` (the default), `wilson` or `clopper_pearson`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit_interval: Option<BinomialInterval>,
}

/// How verdicts are appealed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealSettings {
    /// The stronger checker: the id of a registered verifier.
    pub checker: String,
    /// A JSON merge patch (RFC 7396) applied to an item's input before the checker sees it,
    /// e.g. `{"options": {"accept_rounded": true}}` to re-check `math` leniently.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub input_patch: Option<Value>,
    /// The share of verdicts 0 and of verdicts 1 re-checked.
    pub rates: AppealRates,
    /// Take ρ0 as this value instead of estimating it, and estimate only ρ1 from re-checked
    /// verdicts 0 (Cai et al.'s set-up: 0 for a rule-based verifier assumed never to pass a
    /// wrong answer). Required when `rates.positives` is 0. A verifier that does pass wrong
    /// answers gets a ρ1 that is too low and a backward reward that is too high.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0.0, exclusive_maximum = 1.0)]
    pub fixed_rho0: Option<f64>,
    /// Re-check the sampled items before answering, and report the checker's verdict as their
    /// reward: `score` becomes the checker's 0 or 1 and `details.reward.appeal` says whether it
    /// overturned the verifier. The sampled items wait for the checker (under
    /// `noise.appeal_timeout_ms` and the request's deadline).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overturn: bool,
}

/// One source's model, or why it has none.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ToSchema)]
pub struct SourceModel {
    /// The model from this source.
    pub model: Option<NoiseModel>,
    /// Why there is no model, when there is none.
    pub unavailable: Option<String>,
}

/// A noise model and everything behind it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct NoiseStatus {
    /// The verifier id.
    pub verifier: String,
    /// The verifier version the model applies to (the one this server runs).
    pub version: String,
    /// The task/source label; absent for the verifier-wide model.
    pub label: Option<String>,
    /// What was set by hand.
    pub settings: NoiseSettings,
    /// The source in use, when one has a model.
    pub source: Option<NoiseSource>,
    /// The model that corrects this verifier's rewards; absent when no source has one.
    pub model: Option<NoiseModel>,
    /// Why rewards are not corrected with `model`, when it is too uncertain to correct with.
    pub refused: Option<String>,
    /// The floor on J's lower bound in force.
    pub j_floor: f64,
    /// The current training step, which windows count back from (0 until one is set).
    pub step: u64,
    /// The model from configured rates.
    pub configured: SourceModel,
    /// The model from uploaded audits.
    pub audit: SourceModel,
    /// The model from appeals.
    pub appeal: SourceModel,
    /// The gold-labelled verdicts uploaded (within the window, when one is set).
    pub audit_counts: VerdictTally,
    /// The verdicts seen and re-checked by appeals (within the window, when one is set).
    pub appeal_counts: VerdictTally,
}

/// Every noise model of the verifiers this server runs.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NoiseList {
    pub models: Vec<NoiseStatus>,
    /// Verdicts this replica sampled for appeal whose outcome is not yet in the counts above:
    /// queued, being re-checked, or re-checked and waiting for the next write.
    pub appeals_outstanding: u64,
}

/// Gold-labelled verdicts: the body of `POST /v1/noise/{verifier}/audits`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditUpload {
    /// One row per audited response: the verifier's verdict and the true label. Pick the
    /// responses without regard to their verdicts, e.g. a random sample of rollouts.
    #[schema(min_items = 1)]
    pub labels: Vec<GoldLabel>,
    /// Start the audit tally over with these labels instead of adding them to it.
    #[serde(default)]
    pub replace: bool,
}
