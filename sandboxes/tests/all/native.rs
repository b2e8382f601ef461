//! C programs compiled by the host's clang to `wasm32-wasi` and run under the sandbox's limits.

use std::time::Duration;

use referee_sandbox::{Compiled, Execution, Limits, NativeLanguage, Termination};

use super::common;

async fn run(source: &str, stdin: &str, limits: Limits) -> anyhow::Result<Execution> {
    let sandbox = common::shared()?;
    let loading = std::sync::Arc::clone(&sandbox);
    let native = tokio::task::spawn_blocking(move || loading.native()).await??;
    let module = match std::sync::Arc::clone(&native).compile_queued(NativeLanguage::C, source.to_owned()).await? {
        Compiled::Program(module) => module,
        Compiled::Rejected(diagnostics) => anyhow::bail!("does not compile: {diagnostics}"),
    };
    Ok(native.run_on(sandbox.host(), module, stdin.as_bytes().to_vec(), limits).await?)
}

#[tokio::test]
async fn a_c_program_reads_stdin_and_exits() -> anyhow::Result<()> {
    let source = "#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a * b); return a > 5 ? 4 : 0; }";
    let ok = run(source, "3 4\n", Limits::default()).await?;
    assert_eq!((ok.termination, ok.exit_code, ok.stdout), (Termination::Exited, 0, b"12\n".to_vec()));
    let failing = run(source, "6 7\n", Limits::default()).await?;
    assert_eq!((failing.termination, failing.exit_code), (Termination::Exited, 4));
    Ok(())
}

#[tokio::test]
async fn memory_fuel_and_output_limits_hold_for_c() -> anyhow::Result<()> {
    let limits = Limits { memory_bytes: 64 << 20, wall_time: Duration::from_secs(20), ..Limits::default() };
    // The volatile global keeps clang from eliding the allocations.
    let bomb = "#include <stdlib.h>\n#include <string.h>\nchar *volatile keep;\nint main(void) { for (;;) { char *p = malloc(1 << 20); if (!p) return 3; memset(p, 1, 1 << 20); keep = p; } }";
    let run1 = run(bomb, "", limits).await?;
    assert_eq!(run1.termination, Termination::MemoryExhausted, "{run1:?}");
    assert!(run1.memory_peak <= 64 << 20);

    let limits = Limits { fuel: 100_000_000, ..Limits::default() };
    for spin in ["int main(void) { volatile unsigned long i = 0; for (;;) i++; }", "int main(void) { for (;;) {} }"] {
        let (first, second) = (run(spin, "", limits).await?, run(spin, "", limits).await?);
        assert_eq!(
            (&first.termination, &second.termination),
            (&Termination::OutOfFuel, &Termination::OutOfFuel),
            "{spin}"
        );
        assert_eq!(first.fuel_used, second.fuel_used);
    }

    let flood = "#include <stdio.h>\nint main(void) { for (;;) puts(\"yyyyyyyyyyyyyyyyyyyy\"); }";
    let limits = Limits { stdout_bytes: 1 << 16, ..Limits::default() };
    let flooded = run(flood, "", limits).await?;
    assert_eq!(flooded.termination, Termination::OutputExceeded, "{:?}", flooded.termination);
    assert_eq!(flooded.stdout.len(), 1 << 16);
    Ok(())
}
