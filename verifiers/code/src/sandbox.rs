//! The sandbox a verifier runs programs in.

use std::sync::{Arc, OnceLock};

use referee_sandbox::{Sandbox, SandboxConfig, SandboxError};

/// The sandbox given to a verifier, or one with the default configuration made at its first
/// use, so that a verifier that never runs a program (a listing, a schema) starts no threads.
/// Clones share it.
#[derive(Debug, Clone, Default)]
pub(crate) struct SandboxCell(Arc<OnceLock<Result<Arc<Sandbox>, SandboxError>>>);

impl SandboxCell {
    /// A cell holding `sandbox`.
    pub(crate) fn given(sandbox: Arc<Sandbox>) -> Self {
        SandboxCell(Arc::new(OnceLock::from(Ok(sandbox))))
    }

    /// The sandbox, made now if it was not given and not made yet (blocking: it starts the
    /// engine and the worker threads). A sandbox that cannot be made fails every use the same way.
    pub(crate) fn get(&self) -> Result<Arc<Sandbox>, SandboxError> {
        self.0.get_or_init(|| Sandbox::new(SandboxConfig::default()).map(Arc::new)).clone()
    }

    /// The sandbox if it exists, without making it.
    pub(crate) fn made(&self) -> Option<Result<Arc<Sandbox>, SandboxError>> {
        self.0.get().cloned()
    }
}
