//! Failures of the sandbox itself, typed by what failed, with their causes kept as sources.
//!
//! A failed set-up is kept for its backoff and handed to every caller in that time, so an error
//! is `Clone`: its causes are shared behind an [`Arc`].

use std::error::Error;
use std::fmt;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::sync::Arc;

/// The cause of a failure, shared between the copies of the error that carries it.
pub type Cause = Arc<dyn Error + Send + Sync>;

/// A wasmtime error as a [`Cause`], with its context chain as the sources.
pub fn wasmtime_cause(error: wasmtime::Error) -> Cause {
    Arc::from(error.into_boxed_dyn_error())
}

/// How to get the Python and JavaScript runtimes into place.
const RUNTIMES_FIX: &str = "run scripts/setup-sandbox, or set sandbox.runtimes_dir (REFEREE__SANDBOX__RUNTIMES_DIR) \
                            to a folder holding python.wasm and qjs-wasi-reactor.wasm";

/// How to install what clang needs to compile to `wasm32-wasi`.
const TOOLCHAIN_FIX: &str = "install Debian's clang lld wasi-libc libc++-dev-wasm32 libclang-rt-dev-wasm32 \
                             (scripts/setup-sandbox does)";

/// How to install what rustc needs to compile to `wasm32-wasi`.
const RUST_TOOLCHAIN_FIX: &str = "install Debian's rustc and libstd-rust-dev-wasm32 (scripts/setup-sandbox does)";

/// How to set up the Go toolchain.
const GO_TOOLCHAIN_FIX: &str =
    "run scripts/setup-sandbox (scripts/build-runtimes sets Go up in the runtimes folder's go/)";

/// What the compiler's confinement needs.
const CONFINEMENT_FIX: &str = "run as root, or allow unprivileged user namespaces \
                               (sysctl user.max_user_namespaces > 0, kernel.unprivileged_userns_clone = 1, \
                               kernel.apparmor_restrict_unprivileged_userns = 0); in a container, a seccomp and \
                               AppArmor profile that permit unshare(CLONE_NEWUSER) and mount (Go's build also \
                               mounts an overlay)";

/// What the host lacks for a runtime: the reason a language is unavailable here.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Lack {
    /// The runtime's file is in none of the folders the sandbox looked in.
    #[error("{file} is in none of: {}", folders(searched))]
    RuntimeNotFound {
        /// The file looked for (`python.wasm`).
        file: &'static str,
        /// Where the sandbox looked, in order.
        searched: Vec<PathBuf>,
    },
    /// The runtime's file is there but cannot be read.
    #[error("{} cannot be read", path.display())]
    RuntimeUnreadable { path: PathBuf, source: Arc<std::io::Error> },
    /// The compiler's confinement (`unshare`, `prlimit`) cannot be started.
    #[error("cannot start the confined compiler (unshare, util-linux)")]
    ConfinementMissing { source: Arc<std::io::Error> },
    /// The compiler, the linker or the `wasm32-wasi` libraries are missing.
    #[error("the {language} toolchain is incomplete: {diagnostics}")]
    Toolchain { language: &'static str, diagnostics: String },
    /// The kernel refuses the namespaces the compiler runs in.
    #[error("the compiler cannot be confined in namespaces: {diagnostics}")]
    Confinement { diagnostics: String },
    /// The compiler runs but cannot build the smallest program of a language.
    #[error("the compiler cannot build a minimal {language} program: {diagnostics}")]
    MinimalProgram { language: &'static str, diagnostics: String },
}

impl Lack {
    /// What to do about it.
    pub fn fix(&self) -> &'static str {
        match self {
            Lack::RuntimeNotFound { .. } | Lack::RuntimeUnreadable { .. } => RUNTIMES_FIX,
            Lack::ConfinementMissing { .. } => "install util-linux (unshare, prlimit) and clang",
            Lack::Toolchain { language: "rust", .. } | Lack::MinimalProgram { language: "rust", .. } => {
                RUST_TOOLCHAIN_FIX
            }
            Lack::Toolchain { language: "go", .. } | Lack::MinimalProgram { language: "go", .. } => GO_TOOLCHAIN_FIX,
            Lack::Toolchain { .. } | Lack::MinimalProgram { .. } => TOOLCHAIN_FIX,
            Lack::Confinement { .. } => CONFINEMENT_FIX,
        }
    }
}

fn folders(searched: &[PathBuf]) -> String {
    let mut shown: Vec<String> = searched.iter().map(|dir| dir.display().to_string()).collect();
    shown.dedup();
    shown.join(", ")
}

/// A failure of the sandbox itself: a runtime that is not available on this host, or one that
/// could not be loaded, instantiated or run. It says nothing about the program that was to run.
///
/// Its `Display` is the failure without its causes; [`Chain`] shows them too.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SandboxError {
    /// The host lacks what a runtime needs (`python.wasm` not built, no clang, no wasm32
    /// sysroot, no namespaces for the compiler's confinement): items of that language cannot be
    /// judged here until it is fixed. The set-up is tried again after a backoff.
    #[error("the {runtime} runtime is unavailable")]
    Unavailable {
        /// The language: `python`, `javascript`, `c`, `cpp`, `rust` or `go`; or `yosys`.
        runtime: &'static str,
        #[source]
        lack: Lack,
    },
    /// wasmtime refused the engine's configuration.
    #[error("cannot set up the sandbox: cannot create the wasmtime engine")]
    Engine { source: Cause },
    /// A thread of the sandbox could not be started.
    #[error("cannot set up the sandbox: cannot start the {thread}")]
    Thread { thread: &'static str, source: Arc<std::io::Error> },
    /// A runtime's WebAssembly could not be compiled.
    #[error("cannot set up the sandbox: cannot compile {}", path.display())]
    Compile { path: PathBuf, source: Cause },
    /// A precompiled artefact could not be loaded.
    #[error("cannot set up the sandbox: cannot load {}", path.display())]
    Artefact { path: PathBuf, source: Cause },
    /// WASI could not be linked into a runtime, or the runtime not prepared for instantiation.
    #[error("cannot set up the sandbox: cannot link the {runtime} runtime")]
    Link { runtime: &'static str, source: Cause },
    /// A runtime's component lacks an export the sandbox calls.
    #[error("cannot set up the sandbox: {} has no `{export}` export", path.display())]
    MissingExport { path: PathBuf, export: &'static str },
    /// clang wrote a module wasmtime does not accept.
    #[error("cannot set up the sandbox: clang produced an unusable module")]
    UnusableModule { source: Cause },
    /// The compiler process could not be waited for.
    #[error("cannot set up the sandbox: cannot wait for the compiler")]
    CompilerWait { source: Arc<std::io::Error> },
    /// The confined compiler failed for a reason that is neither the source's nor a known lack
    /// of the host.
    #[error("cannot set up the sandbox: the confined compiler failed ({status}): {diagnostics}")]
    CompilerFailed { status: ExitStatus, diagnostics: String },
    /// The sources given to the compiler are longer than it takes: refused, never cut. The
    /// caller's input is at fault; the verifiers refuse such sources before they get here.
    #[error("the source is {bytes} bytes long, over the compiler's cap of {cap} bytes")]
    SourceTooLarge { bytes: usize, cap: usize },
    /// The source uses what the sandbox cannot run as its reference toolchain would (a Rust
    /// `#[should_panic]` test written by a macro): refused rather than judged without it. The
    /// caller's input is at fault.
    #[error("{reason}")]
    Unsupported { reason: String },
    /// A run asked for a test the program does not have.
    #[error("the program has no #[should_panic] test {index}")]
    NoSuchTest { index: usize },
    /// A run's store could not be given its fuel.
    #[error("cannot set up the sandbox: cannot set the run's fuel")]
    Fuel { source: Cause },
    /// A run's scratch folder (the files a Yosys run reads) could not be made or written.
    #[error("cannot set up the sandbox: cannot write a run's files")]
    Scratch { source: Arc<std::io::Error> },
    /// A folder could not be mounted into a guest.
    #[error("cannot set up the sandbox: cannot mount {} into the guest", path.display())]
    Preopen { path: PathBuf, source: Cause },
    /// A guest could not be instantiated.
    #[error("cannot instantiate the guest")]
    Instantiate { source: Cause },
    /// An instantiated guest lacks the function the run starts at.
    #[error("cannot instantiate the guest: it has no usable `{export}`")]
    Entry { export: &'static str, source: Cause },
    /// A queue of the sandbox was closed while a run or a compilation waited in it.
    #[error("cannot set up the sandbox: the {queue} is closed")]
    QueueClosed { queue: &'static str, source: Arc<tokio::sync::AcquireError> },
    /// A task of the sandbox panicked or was cancelled.
    #[error("the run's caller stopped waiting before a worker was free")]
    Abandoned,

    #[error("cannot set up the sandbox: {task} failed")]
    TaskFailed { task: &'static str, source: Arc<tokio::task::JoinError> },
    /// An earlier set-up of the same runtime panicked.
    #[error("cannot set up the sandbox: a set-up panicked")]
    SetupPanicked,
    /// A cell was sent to a Python session whose instance an earlier cell's trap left unusable.
    #[error("the Python session ended with its last cell; start a new one")]
    SessionEnded,
}

impl SandboxError {
    /// True when the host lacks a runtime, as opposed to a runtime that failed.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, SandboxError::Unavailable { .. })
    }

    /// True when the caller's input is refused ([`SandboxError::SourceTooLarge`],
    /// [`SandboxError::Unsupported`]): the sandbox did not fail, and the program was not judged.
    pub fn is_refusal(&self) -> bool {
        matches!(self, SandboxError::SourceTooLarge { .. } | SandboxError::Unsupported { .. })
    }

    /// What is missing or broken, with its causes, without the fix.
    pub fn reason(&self) -> String {
        if let SandboxError::Unavailable { lack, .. } = self {
            Chain(lack).to_string()
        } else {
            Chain(self).to_string()
        }
    }

    /// What to do about it.
    pub fn fix(&self) -> String {
        if let SandboxError::Unavailable { lack, .. } = self {
            lack.fix().to_owned()
        } else {
            "see the server log; the set-up is tried again after a backoff".to_owned()
        }
    }
}

/// An error with its sources, `: `-separated: what a verdict, a log line or a report shows.
#[derive(Debug, Clone, Copy)]
pub struct Chain<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_shows_every_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let error = SandboxError::Unavailable {
            runtime: "python",
            lack: Lack::RuntimeUnreadable { path: "/r/python.wasm".into(), source: Arc::new(io) },
        };
        assert_eq!(error.to_string(), "the python runtime is unavailable");
        assert_eq!(
            Chain(&error).to_string(),
            "the python runtime is unavailable: /r/python.wasm cannot be read: no such file"
        );
        assert_eq!(error.reason(), "/r/python.wasm cannot be read: no such file");
        assert!(error.fix().contains("sandbox.runtimes_dir"), "{}", error.fix());
    }

    #[test]
    fn a_wasmtime_error_keeps_its_context_as_sources() {
        let inner = wasmtime::Error::msg("bad magic").context("failed to parse");
        let error = SandboxError::Compile { path: "/r/python.wasm".into(), source: wasmtime_cause(inner) };
        assert_eq!(
            Chain(&error).to_string(),
            "cannot set up the sandbox: cannot compile /r/python.wasm: failed to parse: bad magic"
        );
    }

    #[test]
    fn where_the_runtime_was_looked_for_is_named() {
        let lack = Lack::RuntimeNotFound { file: "python.wasm", searched: vec!["/a".into(), "/a".into(), "/b".into()] };
        assert_eq!(lack.to_string(), "python.wasm is in none of: /a, /b");
    }
}
