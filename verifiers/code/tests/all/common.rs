//! The verifier these tests share, on one sandbox configured as the server configures its own:
//! the runtimes folder in `REFEREE__SANDBOX__RUNTIMES_DIR` when it is set (the sandbox reads no
//! environment; tests are not the server, so they read it here), else this source tree's.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use referee_code::{Chain, CodeInput, CodeVerifier, Sandbox, SandboxConfig};
use referee_core::{Budget, RewardModel as _, Verdict};
use serde_json::Value;

/// The runtimes folder `scripts/build-runtimes` fills.
pub fn runtimes_dir() -> PathBuf {
    std::env::var_os("REFEREE__SANDBOX__RUNTIMES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../runtimes/build"))
}

/// A verifier on the sandbox of this test binary, made at first use.
pub fn verifier() -> anyhow::Result<CodeVerifier> {
    static SHARED: OnceLock<Result<Arc<Sandbox>, String>> = OnceLock::new();
    let sandbox = SHARED
        .get_or_init(|| {
            let config = SandboxConfig { runtimes_dir: runtimes_dir(), ..SandboxConfig::default() };
            Sandbox::new(config).map(Arc::new).map_err(|e| Chain(&e).to_string())
        })
        .clone()
        .map_err(anyhow::Error::msg)?;
    Ok(CodeVerifier::new().in_sandbox(sandbox))
}

/// Judges `items` in one batch on the shared verifier, without a deadline.
pub async fn judge(items: Vec<CodeInput>) -> Vec<Verdict> {
    let verifier = verifier().unwrap_or_else(|e| panic!("no sandbox: {e}"));
    verifier.score_batch(items, Budget::unlimited()).await
}

/// The string fields `names` of each row of a JSON-lines file, in that order.
pub fn jsonl_fields<const N: usize>(text: &str, names: [&str; N]) -> anyhow::Result<Vec<[String; N]>> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let row: Value = serde_json::from_str(line)?;
            let mut fields = names.map(|_| String::new());
            for (field, name) in fields.iter_mut().zip(names) {
                *field = row[name].as_str().map(str::to_owned).ok_or_else(|| anyhow::anyhow!("no {name}"))?;
            }
            Ok(fields)
        })
        .collect()
}
