//! Which languages the `code` verifier can run on this host, and why not.

use std::sync::Arc;

use referee_sandbox::{Availability, GuestLanguage, Sandbox, SandboxError};

/// One language's availability, as the server reports it at start, in `GET /v1/verifiers`,
/// in `/readyz?verbose` and in `referee doctor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageStatus {
    /// `python`, `c`, `cpp` or `javascript`.
    pub language: &'static str,
    /// The runtime or compiler its programs get, with its version.
    pub runtime: &'static str,
    /// What the last set-up found.
    pub availability: Availability,
}

impl crate::CodeVerifier {
    /// What the last set-up of each language found, without trying again (cheap): every
    /// language is unchecked while the verifier's sandbox has not been made.
    pub fn availability(&self) -> Vec<LanguageStatus> {
        report(self.sandbox.made())
    }

    /// Sets every language up now (those not set up and not within a backoff) and reports
    /// them. Blocking: it makes the sandbox if needed, the first Python load precompiles the
    /// runtime, and C, C++ and Rust each compile a small program.
    pub fn check_languages(&self) -> Vec<LanguageStatus> {
        let sandbox = self.sandbox.get();
        if let Ok(sandbox) = &sandbox {
            for language in GuestLanguage::ALL {
                // The outcome is recorded in the sandbox and read back below.
                let _ = sandbox.check(language);
            }
        }
        report(Some(sandbox))
    }
}

/// What the last set-up of each language in `sandbox` found: unchecked when it was not made,
/// unavailable with its error when it could not be.
fn report(sandbox: Option<Result<Arc<Sandbox>, SandboxError>>) -> Vec<LanguageStatus> {
    GuestLanguage::ALL
        .into_iter()
        .map(|language| LanguageStatus {
            language: language.as_str(),
            runtime: language.runtime(),
            availability: match &sandbox {
                None => Availability::Unchecked,
                Some(Ok(sandbox)) => sandbox.availability(language),
                Some(Err(error)) => Availability::Unavailable {
                    reason: error.reason(),
                    fix: error.fix(),
                    retry_in: std::time::Duration::ZERO,
                },
            },
        })
        .collect()
}
