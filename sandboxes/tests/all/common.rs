//! The sandbox these tests share, configured as the server configures its own: the folder in
//! `REFEREE__SANDBOX__RUNTIMES_DIR` and the pool size in `REFEREE__SANDBOX__POOL_RUNS` when they
//! are set (the library reads no environment; tests are not the server, so they read it here).

use std::sync::{Arc, OnceLock};

use referee_sandbox::{Sandbox, SandboxConfig};

/// The default configuration with the two variables above applied.
fn config() -> anyhow::Result<SandboxConfig> {
    let mut config = SandboxConfig::default();
    if let Some(dir) = std::env::var_os("REFEREE__SANDBOX__RUNTIMES_DIR") {
        config.runtimes_dir = dir.into();
    }
    if let Ok(runs) = std::env::var("REFEREE__SANDBOX__POOL_RUNS") {
        config.pool_runs = runs.trim().parse()?;
    }
    Ok(config)
}

/// One sandbox per test binary, made at first use.
pub fn shared() -> anyhow::Result<Arc<Sandbox>> {
    static SHARED: OnceLock<Result<Arc<Sandbox>, String>> = OnceLock::new();
    SHARED
        .get_or_init(|| {
            let config = config().map_err(|e| format!("{e:#}"))?;
            Sandbox::new(config).map(Arc::new).map_err(|e| referee_sandbox::Chain(&e).to_string())
        })
        .clone()
        .map_err(anyhow::Error::msg)
}
