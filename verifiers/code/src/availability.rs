//! Which languages the `code` verifier can run on this host, and why not.

use referee_sandbox::{Availability, GuestLanguage, Sandbox};

/// One language's availability, as the server reports it at start, in `GET /v1/verifiers`,
/// in `/readyz?verbose` and in `referee doctor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanguageStatus {
    /// `python`, `c` or `cpp`.
    pub language: &'static str,
    /// What the last set-up found.
    pub availability: Availability,
}

impl crate::CodeVerifier {
    /// What the last set-up of each language found, without trying again (cheap).
    pub fn availability(&self) -> Vec<LanguageStatus> {
        report(self.sandbox)
    }

    /// Sets every language up now (those not set up and not within a backoff) and reports
    /// them. Blocking: the first Python load precompiles the runtime, and C and C++ each
    /// compile a small program.
    pub fn check_languages(&self) -> Vec<LanguageStatus> {
        check(self.sandbox)
    }

    /// [`CodeVerifier::availability`] of a verifier on the process's shared sandbox.
    pub fn availability_global() -> Vec<LanguageStatus> {
        report(None)
    }

    /// [`CodeVerifier::check_languages`] on the process's shared sandbox.
    pub fn check_languages_global() -> Vec<LanguageStatus> {
        check(None)
    }
}

/// What the last set-up of each language in `sandbox` (the shared one when `None`) found.
fn report(sandbox: Option<&'static Sandbox>) -> Vec<LanguageStatus> {
    let sandbox = match sandbox {
        Some(sandbox) => Ok(sandbox),
        None => Sandbox::global(),
    };
    GuestLanguage::ALL
        .into_iter()
        .map(|language| LanguageStatus {
            language: language.as_str(),
            availability: match &sandbox {
                Ok(sandbox) => sandbox.availability(language),
                Err(error) => Availability::Unavailable {
                    reason: error.reason(),
                    fix: error.fix(),
                    retry_in: std::time::Duration::ZERO,
                },
            },
        })
        .collect()
}

/// Sets every language of `sandbox` up when due, then reports them.
fn check(sandbox: Option<&'static Sandbox>) -> Vec<LanguageStatus> {
    if let Ok(sandbox) = sandbox.map_or_else(Sandbox::global, Ok) {
        for language in GuestLanguage::ALL {
            // The outcome is recorded in the sandbox and read back below.
            let _ = sandbox.check(language);
        }
    }
    report(sandbox)
}
