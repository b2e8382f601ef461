//! `referee doctor`: what works on this host for this configuration, what does not, and the fix.

use std::path::Path;
use std::time::Duration;

use referee_code::{GuestLanguage, Sandbox};

use crate::config::{Config, ConfigError, RlprSource};
use crate::startup::{redact_url, try_connect};

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked.
    pub name: String,
    /// True when it works.
    pub ok: bool,
    /// True when the configuration needs it: a failed required check fails the doctor.
    pub required: bool,
    /// What was found.
    pub detail: String,
    /// What to do when it does not work.
    pub fix: Option<String>,
}

impl Check {
    fn ok(name: impl Into<String>, detail: impl Into<String>) -> Self {
        Check { name: name.into(), ok: true, required: true, detail: detail.into(), fix: None }
    }

    fn failed(name: impl Into<String>, detail: impl Into<String>, fix: impl Into<String>) -> Self {
        Check { name: name.into(), ok: false, required: true, detail: detail.into(), fix: Some(fix.into()) }
    }

    fn optional(mut self) -> Self {
        self.required = false;
        self
    }
}

/// True when every check the configuration needs works.
pub fn healthy(checks: &[Check]) -> bool {
    checks.iter().all(|c| c.ok || !c.required)
}

/// The report as text, one check a line, the fix under each failed one.
pub fn render(checks: &[Check]) -> String {
    let mut out = String::new();
    for check in checks {
        let mark = match (check.ok, check.required) {
            (true, _) => "ok  ",
            (false, true) => "FAIL",
            (false, false) => "warn",
        };
        out.push_str(&format!("[{mark}] {:<14} {}\n", check.name, check.detail));
        if let (false, Some(fix)) = (check.ok, &check.fix) {
            out.push_str(&format!("       {:<14} fix: {fix}\n", ""));
        }
    }
    let verdict = if healthy(checks) {
        "everything this configuration needs works"
    } else {
        "something this configuration needs does not work (see FAIL)"
    };
    out.push_str(&format!("{verdict}\n"));
    out
}

/// Runs every check for `config` (or reports why it did not load).
pub async fn diagnose(config: Result<Config, ConfigError>) -> Vec<Check> {
    let config = match config {
        Ok(config) => config,
        Err(error) => {
            return vec![Check::failed(
                "configuration",
                error.to_string(),
                "correct the key named above in the file, the REFEREE__* variable or the flag",
            )];
        }
    };
    let mut checks = vec![Check::ok("configuration", "loaded and valid")];
    checks.extend(config.deprecations().into_iter().map(|note| {
        Check::failed("deprecated key", note, "rename the key in the file or the REFEREE__* variable").optional()
    }));
    checks.push(database(&config).await);
    let sandbox_config = crate::startup::sandbox_config(&config);
    let runtimes_dir = sandbox_config.runtimes_dir.clone();
    // The sandbox `serve` would make from this configuration, set up language by language, then
    // Yosys for `verilog` (its first load compiles it to machine code: minutes, once).
    let set_up = tokio::task::spawn_blocking(move || {
        let sandbox = Sandbox::new(sandbox_config);
        let languages = GuestLanguage::ALL.map(|language| match &sandbox {
            Ok(sandbox) => {
                (language, sandbox.check(language).map(|()| sandbox.runtimes_dir()).map_err(|e| (e.reason(), e.fix())))
            }
            Err(error) => (language, Err((error.reason(), error.fix()))),
        });
        let yosys = match &sandbox {
            Ok(sandbox) => sandbox.yosys().map(|_| sandbox.runtimes_dir()).map_err(|e| (e.reason(), e.fix())),
            Err(error) => Err((error.reason(), error.fix())),
        };
        (languages, yosys)
    })
    .await
    .map_err(|e| e.to_string());
    match set_up {
        Ok((languages, yosys)) => {
            for (language, outcome) in languages {
                let name = match language {
                    GuestLanguage::Python => "python runtime",
                    GuestLanguage::C => "c compiler",
                    GuestLanguage::Cpp => "c++ compiler",
                    GuestLanguage::JavaScript => "javascript runtime",
                    GuestLanguage::Rust => "rust compiler",
                    GuestLanguage::Go => "go compiler",
                };
                checks.push(match outcome {
                    Ok(dir) if language == GuestLanguage::Python => {
                        Check::ok(name, format!("{} loads", dir.join(referee_code::PYTHON_WASM).display()))
                    }
                    Ok(dir) if language == GuestLanguage::JavaScript => {
                        Check::ok(name, format!("{} loads", dir.join(referee_code::QUICKJS_WASM).display()))
                    }
                    Ok(_) => Check::ok(
                        name,
                        format!("compiles and links to WebAssembly (WASI), confined ({})", confinement()),
                    ),
                    Err((reason, fix)) => Check::failed(name, reason, fix),
                });
            }
            checks.push(match yosys {
                Ok(dir) => {
                    Check::ok("verilog runtime", format!("{} loads", dir.join(referee_code::YOSYS_WASM).display()))
                }
                Err((reason, fix)) => Check::failed("verilog runtime", reason, fix),
            });
        }
        Err(error) => checks.push(Check::failed("sandbox", error, "see the error above")),
    }
    tracing::debug!(runtimes_dir = %runtimes_dir.display(), "runtimes folder");
    let gpu_needed =
        config.rlpr.source == RlprSource::Local && matches!(config.rlpr.device, referee_rlpr::ModelDevice::Cuda(_));
    for (name, candidates) in GPU_LIBRARIES {
        let check = match load_library(candidates) {
            Ok(found) => Check::ok(name, format!("{found} loads")),
            Err(error) => Check::failed(
                name,
                format!("none of {} loads: {error}", candidates.join(", ")),
                "install the NVIDIA driver (libcuda) and the CUDA runtime's NVRTC (libnvrtc), or put their folder \
                 on LD_LIBRARY_PATH; needed only for rlpr on a CUDA device",
            ),
        };
        checks.push(if gpu_needed { check } else { check.optional() });
    }
    checks
}

/// The GPU libraries the `cuda` build loads at run time, by the names it tries.
const GPU_LIBRARIES: [(&str, &[&str]); 2] =
    [("libcuda", &["libcuda.so.1", "libcuda.so"]), ("libnvrtc", &["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"])];

/// The first of `names` that the dynamic loader loads, or the last error.
fn load_library(names: &[&str]) -> Result<String, String> {
    let mut last = String::from("no candidates");
    for name in names {
        match open_library(name) {
            Ok(()) => return Ok((*name).to_owned()),
            Err(error) => last = error,
        }
    }
    Err(last)
}

#[allow(unsafe_code, reason = "loading a system library runs its initialisers, as the cuda build does")]
fn open_library(name: &str) -> Result<(), String> {
    // SAFETY: libcuda and libnvrtc are NVIDIA's libraries, loaded by the same names the `cuda`
    // build loads them by; nothing is called through the handle, which is closed at once.
    unsafe { libloading::Library::new(name) }.map(drop).map_err(|e| e.to_string())
}

/// How the compiler's namespaces are made: directly as root, else inside a user namespace.
fn confinement() -> &'static str {
    let root = std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            .is_some_and(|effective| effective == "0")
    });
    if root { "namespaces as root" } else { "namespaces in an unprivileged user namespace" }
}

async fn database(config: &Config) -> Check {
    let url = config.effective_database_url();
    let shown = redact_url(&url);
    match crate::store::Backend::of_url(&url) {
        Some(crate::store::Backend::Postgres) => match try_connect(&url, Duration::from_secs(5)).await {
            Ok(()) => Check::ok("database", format!("{shown} answers")),
            Err(error) => Check::failed(
                "database",
                format!("{shown}: {error:#}"),
                "start PostgreSQL or correct database_url (REFEREE__DATABASE_URL, --database-url); check host, port, \
                 user, password and that the database exists",
            ),
        },
        Some(crate::store::Backend::Sqlite) => match writable_dir(&config.data_dir) {
            Ok(()) => Check::ok("database", format!("{shown}: {} is writable", config.data_dir.display())),
            Err(error) => Check::failed(
                "database",
                format!("{shown}: {} is not writable: {error}", config.data_dir.display()),
                "give the server's user a writable data_dir (--data-dir, REFEREE__DATA_DIR)",
            ),
        },
        None => Check::failed(
            "database",
            format!("{shown} is not a sqlite: or postgres:// URL"),
            "set database_url to sqlite://PATH or postgres://USER@HOST/DB",
        ),
    }
}

/// Creates `dir` when missing and writes and deletes a file in it.
fn writable_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".referee-doctor-{}", std::process::id()));
    std::fs::write(&probe, b"")?;
    std::fs::remove_file(probe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_unreachable_database_fails_naming_the_url_without_its_password() {
        let config = Config {
            // Nothing listens on port 1.
            database_url: Some("postgres://referee:hunter2@127.0.0.1:1/referee".into()),
            ..Config::default()
        };
        let check = database(&config).await;
        assert!(!check.ok && check.required, "{check:?}");
        assert!(check.detail.contains("postgres://referee:***@127.0.0.1:1/referee"), "{}", check.detail);
        assert!(!check.detail.contains("hunter2"));
        assert!(check.fix.is_some());
    }

    #[tokio::test]
    async fn a_configuration_that_does_not_load_is_the_only_failed_check() {
        let checks = diagnose(Err(ConfigError::Invalid("server.max_batch_items must be at least 1".into()))).await;
        assert_eq!(checks.len(), 1);
        assert!(!healthy(&checks));
        assert!(render(&checks).contains("[FAIL] configuration"), "{}", render(&checks));
    }

    #[test]
    fn optional_failures_do_not_fail_the_doctor() {
        let checks = vec![
            Check::ok("configuration", "loaded"),
            Check::failed("libcuda", "not found", "install the driver").optional(),
        ];
        assert!(healthy(&checks));
        let text = render(&checks);
        assert!(text.contains("[warn] libcuda") && text.contains("fix: install the driver"), "{text}");
        let checks = vec![Check::failed("c compiler", "clang missing", "install clang")];
        assert!(!healthy(&checks));
    }
}
