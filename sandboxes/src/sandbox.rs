//! The sandbox its owner makes and shares: a [`Host`] (the engine and worker threads) with the
//! guest runtimes (Python, JavaScript, C, C++, Rust and Go) loaded in it on first use, and the probes
//! of the host's compilers.

use std::path::PathBuf;
use std::sync::Arc;

use crate::engine::{Allocation, Host, SandboxConfig};
use crate::native::NativeLanguage;
use crate::setup::{Availability, GuestLanguage, Retrying};
use crate::{JavaScriptRuntime, NativeRuntime, PythonRuntime, SandboxError, YosysRuntime};

/// A wasmtime host and the runtimes loaded in it. Its owner makes one and shares it (an
/// `Arc<Sandbox>`); the runtimes are set up on first use.
#[derive(Debug)]
pub struct Sandbox {
    host: Host,
    python: Retrying<PythonRuntime>,
    javascript: Retrying<JavaScriptRuntime>,
    native: Retrying<NativeRuntime>,
    yosys: Retrying<YosysRuntime>,
    /// Whether clang compiles and links a small C, and a small C++, program here, rustc a
    /// small Rust program and the Go toolchain a small Go package with a test.
    c_toolchain: Retrying<()>,
    cpp_toolchain: Retrying<()>,
    rust_toolchain: Retrying<()>,
    go_toolchain: Retrying<()>,
}

impl Sandbox {
    /// A sandbox with its own engine, epoch ticker and worker threads. The runtimes are not
    /// loaded here: the first use of each sets it up (the first Python load precompiles).
    ///
    /// With `config.pool_runs > 0` the engine reserves a pool for that many concurrent runs; when
    /// the pool cannot be reserved (an address-space limit, say), the sandbox logs why and
    /// allocates on demand instead.
    pub fn new(config: SandboxConfig) -> Result<Sandbox, SandboxError> {
        let backoff = config.setup_backoff;
        Ok(Sandbox {
            host: Host::new(config)?,
            python: Retrying::new(backoff),
            javascript: Retrying::new(backoff),
            native: Retrying::new(backoff),
            yosys: Retrying::new(backoff),
            c_toolchain: Retrying::new(backoff),
            cpp_toolchain: Retrying::new(backoff),
            rust_toolchain: Retrying::new(backoff),
            go_toolchain: Retrying::new(backoff),
        })
    }

    /// The engine and worker threads the runtimes run on (`PythonRuntime::run_on`,
    /// `NativeRuntime::run_on`).
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The Python runtime, loaded (and precompiled if needed) on first use. A failed load is
    /// tried again after a backoff (blocking; call it off the async workers).
    pub fn python(&self) -> Result<Arc<PythonRuntime>, SandboxError> {
        self.python.get_or_try(|| {
            let loaded = PythonRuntime::load(&self.host);
            log_setup(GuestLanguage::Python, &loaded);
            loaded
        })
    }

    /// The JavaScript runtime, loaded (and precompiled if needed) on first use, retried like
    /// [`Sandbox::python`] (blocking).
    pub fn javascript(&self) -> Result<Arc<JavaScriptRuntime>, SandboxError> {
        self.javascript.get_or_try(|| {
            let loaded = JavaScriptRuntime::load(&self.host);
            log_setup(GuestLanguage::JavaScript, &loaded);
            loaded
        })
    }

    /// Yosys, loaded (and precompiled if needed: minutes, once) on first use, retried like
    /// [`Sandbox::python`] (blocking).
    pub fn yosys(&self) -> Result<Arc<YosysRuntime>, SandboxError> {
        self.yosys.get_or_try(|| {
            let loaded = YosysRuntime::load(&self.host);
            match &loaded {
                Ok(_) => tracing::info!("yosys runtime available"),
                Err(error) => tracing::warn!(reason = %error.reason(), fix = %error.fix(), "yosys runtime unavailable"),
            }
            loaded
        })
    }

    /// What the last set-up of Yosys found, without trying again.
    pub fn yosys_availability(&self) -> Availability {
        self.yosys.availability()
    }

    /// The runtime of compiled languages (C, C++, Rust, Go). It does not check the toolchain: see
    /// [`Sandbox::toolchain`].
    pub fn native(&self) -> Result<Arc<NativeRuntime>, SandboxError> {
        self.native.get_or_try(|| NativeRuntime::new(&self.host))
    }

    /// Checks, once and again after a backoff while it fails, that the host's compiler compiles
    /// and links a small program of `language` in its confinement (blocking).
    pub fn toolchain(&self, language: NativeLanguage) -> Result<(), SandboxError> {
        let (cell, guest) = match language {
            NativeLanguage::C => (&self.c_toolchain, GuestLanguage::C),
            NativeLanguage::Cpp => (&self.cpp_toolchain, GuestLanguage::Cpp),
            NativeLanguage::Rust | NativeLanguage::RustTests => (&self.rust_toolchain, GuestLanguage::Rust),
            NativeLanguage::Go | NativeLanguage::GoTests => (&self.go_toolchain, GuestLanguage::Go),
        };
        cell.get_or_try(|| {
            let probed = self.native().and_then(|native| native.probe(language, &self.runtimes_dir()));
            log_setup(guest, &probed);
            probed
        })
        .map(|_| ())
    }

    /// Sets `language` up now unless it is set up or within its backoff, and says whether it is
    /// available (blocking: the first Python load precompiles the runtime).
    pub fn check(&self, language: GuestLanguage) -> Result<(), SandboxError> {
        match language {
            GuestLanguage::Python => self.python().map(|_| ()),
            GuestLanguage::C => self.native().and_then(|_| self.toolchain(NativeLanguage::C)),
            GuestLanguage::Cpp => self.native().and_then(|_| self.toolchain(NativeLanguage::Cpp)),
            GuestLanguage::JavaScript => self.javascript().map(|_| ()),
            GuestLanguage::Rust => self.native().and_then(|_| self.toolchain(NativeLanguage::Rust)),
            GuestLanguage::Go => self.native().and_then(|_| self.toolchain(NativeLanguage::Go)),
        }
    }

    /// What the last set-up of `language` found, without trying again.
    pub fn availability(&self, language: GuestLanguage) -> Availability {
        match language {
            GuestLanguage::Python => self.python.availability(),
            GuestLanguage::C => self.c_toolchain.availability(),
            GuestLanguage::Cpp => self.cpp_toolchain.availability(),
            GuestLanguage::JavaScript => self.javascript.availability(),
            GuestLanguage::Rust => self.rust_toolchain.availability(),
            GuestLanguage::Go => self.go_toolchain.availability(),
        }
    }

    /// The runtimes folder now: see [`Host::runtimes_dir`].
    pub fn runtimes_dir(&self) -> PathBuf {
        self.host.runtimes_dir()
    }

    /// The configuration the sandbox was created with.
    pub fn config(&self) -> &SandboxConfig {
        self.host.config()
    }

    /// How the engine allocates guest instances: the pool, or on demand when the pool is off or
    /// could not be reserved.
    pub fn allocation(&self) -> Allocation {
        self.host.allocation()
    }
}

/// Logs the outcome of a set-up attempt: an available language once, an unavailable one with
/// its reason and fix at every failed attempt (the backoff bounds how often).
fn log_setup<T>(language: GuestLanguage, outcome: &Result<T, SandboxError>) {
    match outcome {
        Ok(_) => tracing::info!(language = language.as_str(), "code runtime available"),
        Err(error) => tracing::warn!(
            language = language.as_str(),
            reason = %error.reason(),
            fix = %error.fix(),
            "code runtime unavailable"
        ),
    }
}
