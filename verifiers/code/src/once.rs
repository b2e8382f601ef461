//! One program run once, with no tests: what a code-execution service does for a caller that
//! judges the output itself (SandboxFusion's `/run_code`, which verl's code rewards and sandbox
//! tools call).

use std::sync::Arc;
use std::time::{Duration, Instant};

use referee_sandbox::{Chain, Compiled, Execution, JsHarness, Limits};

use crate::CodeVerifier;
use crate::input::{Language, check_source_length};
use crate::judge::{javascript_of, load_off_thread, native_language};

/// How a single run went.
#[derive(Debug, Clone)]
pub enum SingleRun {
    /// The compiler rejected the source.
    CompileError { diagnostics: String, compile_time: Duration },
    /// The program ran (and was compiled first, for C, C++, Rust and Go).
    Ran { compile_time: Option<Duration>, execution: Execution },
}

/// Why a program could not be run at all.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SingleRunError {
    /// The host lacks the language's runtime or compiler.
    #[error("{0}")]
    Unavailable(String),
    /// The sandbox itself failed.
    #[error("{0}")]
    Sandbox(String),
    /// The program cannot be run as given: it is longer than [`crate::MAX_SOURCE_CHARS`].
    #[error("{0}")]
    Refused(String),
}

impl CodeVerifier {
    /// Runs `program` once with `stdin` under `limits`, in this verifier's sandbox. It takes one
    /// place in the verifier's queue, waiting for one when the queue is full.
    pub async fn run_once(
        &self,
        language: Language,
        program: String,
        stdin: Vec<u8>,
        limits: Limits,
    ) -> Result<SingleRun, SingleRunError> {
        check_source_length("the program", &program).map_err(SingleRunError::Refused)?;
        let _place = Arc::clone(&self.queue)
            .acquire_owned()
            .await
            .map_err(|e| SingleRunError::Sandbox(format!("the code queue is closed: {e}")))?;
        let loaded = load_off_thread(self.sandbox.clone(), language, language == Language::Python).await;
        let (sandbox, python) = match loaded {
            Ok(loaded) => loaded,
            Err((needed, error)) if error.is_unavailable() => {
                return Err(SingleRunError::Unavailable(format!(
                    "{} programs cannot run on this server: {} (fix: {})",
                    needed.as_str(),
                    error.reason(),
                    error.fix()
                )));
            }
            Err((_, error)) => return Err(SingleRunError::Sandbox(Chain(&error).to_string())),
        };
        let sandbox_error = |error: referee_sandbox::SandboxError| SingleRunError::Sandbox(Chain(&error).to_string());
        if let Some(javascript) = javascript_of(&sandbox, language).await.map_err(sandbox_error)? {
            let (execution, _) = javascript
                .run_on(sandbox.host(), program, stdin, JsHarness::None, limits)
                .await
                .map_err(sandbox_error)?;
            return Ok(SingleRun::Ran { compile_time: None, execution });
        }
        let Some(native_language) = native_language(language) else {
            let python = python.ok_or_else(|| SingleRunError::Sandbox("the Python runtime was not loaded".into()))?;
            let (execution, _) = python
                .run_on(sandbox.host(), program, stdin, None, crate::judge::SEED, limits)
                .await
                .map_err(sandbox_error)?;
            return Ok(SingleRun::Ran { compile_time: None, execution });
        };
        let began = Instant::now();
        let moved = Arc::clone(&sandbox);
        let native = tokio::task::spawn_blocking(move || moved.native())
            .await
            .map_err(|e| SingleRunError::Sandbox(format!("the set-up thread failed: {e}")))?
            .map_err(sandbox_error)?;
        let compiled =
            Arc::clone(&native).compile_queued(native_language, program, None).await.map_err(sandbox_error)?;
        let compile_time = began.elapsed();
        match compiled {
            Compiled::Rejected(diagnostics) => Ok(SingleRun::CompileError { diagnostics, compile_time }),
            Compiled::Program(program) => {
                let execution = native.run_on(sandbox.host(), program, stdin, limits).await.map_err(sandbox_error)?;
                Ok(SingleRun::Ran { compile_time: Some(compile_time), execution })
            }
        }
    }
}
