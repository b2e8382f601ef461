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
    let (execution, _) =
        python.run_on(sandbox.host(), program.to_owned(), stdin.as_bytes().to_vec(), None, 7, limits).await?;
    Ok(execution)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_pool_is_used_when_asked_for_and_off_at_zero() -> anyhow::Result<()> {
    assert_eq!(sandbox(6)?.allocation(), Allocation::Pooling { runs: 6, sessions: referee_sandbox::DEFAULT_SESSIONS });
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

/// The regions one `PAGEMAP_SCAN` of the patched reset reports before it must scan again
/// (vendor/wasmtime-pagemap.patch; upstream stops, and decommits the rest, after 32).
const SCAN_REGIONS: usize = 64;

#[test]
fn a_reset_scans_past_full_buffers_of_written_page_runs() -> anyhow::Result<()> {
    use wasmtime::{
        Config, Enabled, Engine, Instance, InstanceAllocationStrategy, Module, PoolingAllocationConfig, Store,
    };

    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let release = release.trim();
    // wasmtime's own probe (an empty PAGEMAP_SCAN ioctl on /proc/self/pagemap), the one that
    // decides whether a pooled memory's reset scans at all.
    if !PoolingAllocationConfig::is_pagemap_scan_available() {
        eprintln!(
            "PAGEMAP_SCAN is not available here (kernel {release}; it needs Linux 6.7 or later and a \
             readable /proc/self/pagemap): the scan path of the pooled-memory reset is not exercised, \
             pooled memories are reset without it"
        );
        return Ok(());
    }

    // Every other host page written gives runs of one page each. The memory stays below the
    // smallest transparent huge page (2 MiB with 4 KiB pages), so no write can fault in a huge
    // page that would join neighbouring runs into one.
    let page = host_page_size()?;
    let runs = 3 * SCAN_REGIONS + 8;
    let image_bytes = 64 << 10;
    let memory_bytes = (2 * runs * page).next_multiple_of(64 << 10);
    let image: Vec<u8> = (0..image_bytes).map(|i| (i % 251) as u8 + 1).collect();

    let mut pool = PoolingAllocationConfig::new();
    pool.total_component_instances(1)
        .total_core_instances(1)
        .total_memories(1)
        .total_tables(1)
        .total_stacks(1)
        .max_memory_size(memory_bytes)
        .linear_memory_keep_resident(memory_bytes)
        .pagemap_scan(Enabled::Yes);
    let mut config = Config::new();
    config.memory_init_cow(true).allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    // wasmtime's errors are its own type, not anyhow's.
    let wasm = |error: wasmtime::Error| anyhow::anyhow!("{error:#}");
    let engine = Engine::new(&config).map_err(wasm)?;
    let module = Module::new(&engine, memory_module(memory_bytes / (64 << 10), &image)).map_err(wasm)?;
    let metrics = engine.pooling_allocator_metrics().ok_or_else(|| anyhow::anyhow!("the engine has no pool"))?;

    let mut store = Store::new(&engine, ());
    let instance = Instance::new(&mut store, &module, &[]).map_err(wasm)?;
    let memory = instance.get_memory(&mut store, "m").ok_or_else(|| anyhow::anyhow!("no memory \"m\""))?;
    let base = memory.data_ptr(&store).addr();
    for run in 0..runs {
        memory.data_mut(&mut store)[2 * run * page + 1] = 0xee;
    }
    // The premise, read back from the kernel rather than assumed: this many separate runs of
    // private pages (the copies of written image pages, and fresh ones past the image).
    let written = private_pages(base, memory_bytes, page)?;
    assert_eq!(written.runs, runs, "{written:?}: every written page should be a run of its own");
    assert!(written.runs > 3 * SCAN_REGIONS, "{written:?}");
    drop(store);

    // Upstream, the reset keeps the first 32 runs and decommits everything after them. Here every
    // scan that fills its buffer is followed by another, so every written page is reset in place
    // and stays resident, and nothing is handed back to the kernel.
    assert_eq!(metrics.unused_memory_bytes_resident(), written.pages * page, "{written:?}");
    assert_eq!(private_pages(base, memory_bytes, page)?, written, "pages were decommitted");

    // The next instance in the one slot sees the image and zeros, nothing of the writes.
    let mut store = Store::new(&engine, ());
    let instance = Instance::new(&mut store, &module, &[]).map_err(wasm)?;
    let memory = instance.get_memory(&mut store, "m").ok_or_else(|| anyhow::anyhow!("no memory \"m\""))?;
    assert_eq!(memory.data_ptr(&store).addr(), base, "the pool has one memory slot");
    let data = memory.data(&store);
    assert_eq!(data.len(), memory_bytes);
    assert!(data[..image_bytes] == image[..], "the image was not restored");
    assert!(data[image_bytes..].iter().all(|&b| b == 0), "a write past the image was left behind");
    eprintln!(
        "PAGEMAP_SCAN is available (kernel {release}): {} separate runs of written pages ({} pages \
         of {page} bytes), more than {} full scans of {SCAN_REGIONS} regions, all reset in place, none \
         decommitted",
        written.runs,
        written.pages,
        written.runs / SCAN_REGIONS
    );
    Ok(())
}

/// Private (written, not file-backed) pages present in `len` bytes from `addr`, as
/// /proc/self/pagemap reports them, and how many separate runs they form.
#[derive(Debug, PartialEq)]
struct PrivatePages {
    pages: usize,
    runs: usize,
}

fn private_pages(addr: usize, len: usize, page: usize) -> std::io::Result<PrivatePages> {
    use std::os::unix::fs::FileExt;
    const PRESENT: u64 = 1 << 63;
    const FILE_OR_SHARED: u64 = 1 << 61;
    let mut bytes = vec![0; len / page * 8];
    std::fs::File::open("/proc/self/pagemap")?.read_exact_at(&mut bytes, (addr / page * 8) as u64)?;
    let mut counted = PrivatePages { pages: 0, runs: 0 };
    let mut previous = false;
    for &entry in bytes.as_chunks::<8>().0 {
        let entry = u64::from_ne_bytes(entry);
        let private = entry & PRESENT != 0 && entry & FILE_OR_SHARED == 0;
        counted.pages += usize::from(private);
        counted.runs += usize::from(private && !previous);
        previous = private;
    }
    Ok(counted)
}

/// The host's page size, from the auxiliary vector the kernel gave the process.
fn host_page_size() -> anyhow::Result<usize> {
    const AT_PAGESZ: usize = 6;
    const WORD: usize = size_of::<usize>();
    let auxv = std::fs::read("/proc/self/auxv")?;
    auxv.as_chunks::<WORD>()
        .0
        .chunks_exact(2)
        .map(|entry| (usize::from_ne_bytes(entry[0]), usize::from_ne_bytes(entry[1])))
        .find_map(|(key, value)| (key == AT_PAGESZ).then_some(value))
        .ok_or_else(|| anyhow::anyhow!("/proc/self/auxv has no AT_PAGESZ"))
}

/// A core module, in binary, with one exported memory "m" of `wasm_pages` 64 KiB pages whose
/// start is `image` (a data segment, which wasmtime maps copy-on-write as the memory's image).
fn memory_module(wasm_pages: usize, image: &[u8]) -> Vec<u8> {
    fn leb128(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }
    fn section(id: u8, payload: &[u8], out: &mut Vec<u8>) {
        out.push(id);
        leb128(payload.len(), out);
        out.extend_from_slice(payload);
    }
    let mut module = b"\0asm\x01\0\0\0".to_vec();
    // One memory, a minimum and no maximum.
    let mut memories = vec![1, 0];
    leb128(wasm_pages, &mut memories);
    section(5, &memories, &mut module);
    // Export memory 0 as "m".
    section(7, &[1, 1, b'm', 2, 0], &mut module);
    // One active segment for memory 0 at offset `i32.const 0`.
    let mut data = vec![1, 0, 0x41, 0, 0x0b];
    leb128(image.len(), &mut data);
    data.extend_from_slice(image);
    section(11, &data, &mut module);
    module
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
    let sandbox: &'static Sandbox = Box::leak(Box::new(Sandbox::new(SandboxConfig {
        workers: 2,
        pool_runs: 2,
        sessions: 0,
        ..SandboxConfig::default()
    })?));
    assert_eq!(sandbox.allocation(), Allocation::Pooling { runs: 2, sessions: 0 });
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
