//! The instance pool: runs that reuse a pooled slot see nothing of the run before them, the
//! caps hold in pooled memory, and a sandbox without a pool (turned off, or one that cannot be
//! reserved) runs the same programs the same way.

use std::sync::OnceLock;

use referee_sandbox::{Allocation, Execution, Limits, Sandbox, SandboxConfig, Termination};

/// A sandbox with a pool of `pool_runs` runs (0: on demand), one per test binary and size.
fn sandbox(pool_runs: usize) -> anyhow::Result<&'static Sandbox> {
    static POOLED: OnceLock<Result<Sandbox, String>> = OnceLock::new();
    static ON_DEMAND: OnceLock<Result<Sandbox, String>> = OnceLock::new();
    let cell = if pool_runs == 0 { &ON_DEMAND } else { &POOLED };
    cell.get_or_init(|| {
        Sandbox::new(SandboxConfig { workers: 2, pool_runs, ..SandboxConfig::default() }).map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| anyhow::anyhow!("{e}"))
}

async fn run(sandbox: &'static Sandbox, program: &str, stdin: &str, limits: Limits) -> anyhow::Result<Execution> {
    let python = tokio::task::spawn_blocking(move || sandbox.python()).await??;
    let (execution, _) = python.run_on(sandbox, program.to_owned(), stdin.as_bytes().to_vec(), None, 7, limits).await?;
    Ok(execution)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_pool_is_used_when_asked_for_and_off_at_zero() -> anyhow::Result<()> {
    assert_eq!(sandbox(6)?.allocation(), Allocation::Pooling { runs: 6 });
    assert_eq!(sandbox(0)?.allocation(), Allocation::OnDemand);
    assert_eq!(SandboxConfig::pool_runs_for(2), 6);
    assert!(SandboxConfig::pool_runs_for(0) > 0, "a sandbox always has at least one worker");
    Ok(())
}

#[test]
fn a_pool_that_cannot_be_reserved_falls_back_to_on_demand_allocation() -> anyhow::Result<()> {
    // Eight memories of 4 GiB for each of 2^20 runs is far past a 47-bit address space.
    let sandbox = Sandbox::new(SandboxConfig { workers: 1, pool_runs: 1 << 20, ..SandboxConfig::default() })?;
    assert_eq!(sandbox.allocation(), Allocation::OnDemand);
    Ok(())
}

#[tokio::test]
async fn a_reused_slot_starts_from_the_runtime_image() -> anyhow::Result<()> {
    let pooled = sandbox(6)?;
    // The first run dirties interpreter state and a large stretch of linear memory; every later
    // run, in whichever slot it lands, must find the interpreter as the image left it.
    let dirty = "import sys\nsys.marker = 'left behind'\nblob = bytearray(b'x' * (48 << 20))\nprint(len(blob))";
    let probe = "import sys\nprint(getattr(sys, 'marker', 'clean'))\nprint(sum(bytearray(1 << 20)))";
    for _ in 0..4 {
        let first = run(pooled, dirty, "", Limits::default()).await?;
        assert_eq!((first.termination, text(&first.stdout)), (Termination::Exited, format!("{}\n", 48 << 20)));
        let second = run(pooled, probe, "", Limits::default()).await?;
        assert_eq!((second.termination, text(&second.stdout)), (Termination::Exited, "clean\n0\n".to_owned()));
    }
    Ok(())
}

#[tokio::test]
async fn a_run_that_writes_all_over_the_image_leaves_nothing_behind() -> anyhow::Result<()> {
    let pooled = sandbox(6)?;
    // An attribute on every preloaded module writes to pages scattered over the interpreter's
    // heap image: hundreds of separate runs of written pages, more than one scan of the pool's
    // dirty-page reset reports (vendor/README.md), so the reset must go on scanning to find
    // them all. Any page it missed would carry a module's attribute into the next run.
    let dirty = "import sys\nfor name, module in list(sys.modules.items()):\n    \
                 try:\n        module.__referee_dirty__ = name\n    except Exception:\n        pass\n\
                 print(sum(hasattr(m, '__referee_dirty__') for m in list(sys.modules.values())) > 100)";
    let probe = "import sys\nprint(sum(hasattr(m, '__referee_dirty__') for m in list(sys.modules.values())))";
    for _ in 0..4 {
        let first = run(pooled, dirty, "", Limits::default()).await?;
        assert_eq!((first.termination, text(&first.stdout)), (Termination::Exited, "True\n".to_owned()));
        let second = run(pooled, probe, "", Limits::default()).await?;
        assert_eq!((second.termination, text(&second.stdout)), (Termination::Exited, "0\n".to_owned()));
    }
    Ok(())
}

#[tokio::test]
async fn pooled_and_on_demand_runs_agree() -> anyhow::Result<()> {
    let program = "a, b = map(int, input().split())\nprint(a + b)";
    let bomb = "x = []\nwhile True:\n    x.append(bytearray(1 << 20))";
    let tight = Limits { memory_bytes: 64 << 20, ..Limits::default() };
    let mut runs = Vec::new();
    for pool_runs in [6, 0] {
        let sandbox = sandbox(pool_runs)?;
        let sum = run(sandbox, program, "40 2\n", Limits::default()).await?;
        let bombed = run(sandbox, bomb, "", tight).await?;
        // The bomb again, in a slot the first bomb just filled.
        let again = run(sandbox, bomb, "", tight).await?;
        runs.push((sum, bombed, again));
    }
    for (sum, bombed, again) in &runs {
        assert_eq!((&sum.termination, text(&sum.stdout)), (&Termination::Exited, "42\n".to_owned()));
        assert_eq!(bombed.termination, Termination::MemoryExhausted);
        assert_eq!(again.termination, Termination::MemoryExhausted);
        assert!(bombed.memory_peak <= 64 << 20, "{}", bombed.memory_peak);
    }
    let (pooled, on_demand) = (&runs[0], &runs[1]);
    // Fuel counts the guest's own instructions, so the allocator cannot change it.
    assert_eq!(pooled.0.fuel_used, on_demand.0.fuel_used);
    assert_eq!(pooled.1.memory_peak, on_demand.1.memory_peak);
    Ok(())
}

#[tokio::test]
async fn more_concurrent_runs_than_pool_slots_all_finish() -> anyhow::Result<()> {
    // A pool of 2 runs on 2 workers: 12 runs at once wait for a worker, never for a slot.
    let sandbox: &'static Sandbox =
        Box::leak(Box::new(Sandbox::new(SandboxConfig { workers: 2, pool_runs: 2, ..SandboxConfig::default() })?));
    assert_eq!(sandbox.allocation(), Allocation::Pooling { runs: 2 });
    let mut tasks = Vec::new();
    for i in 0..12u32 {
        tasks.push(tokio::spawn(async move {
            let execution = run(sandbox, "print(int(input()) * 2)", &format!("{i}\n"), Limits::default()).await?;
            anyhow::Ok((i, execution))
        }));
    }
    for task in tasks {
        let (i, execution) = task.await??;
        assert_eq!(execution.termination, Termination::Exited, "{}", text(&execution.stderr));
        assert_eq!(text(&execution.stdout), format!("{}\n", i * 2));
    }
    Ok(())
}
