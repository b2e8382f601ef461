use clap::Parser as _;
use referee_server::cli::{Cli, run};

// Request handling allocates many small, short-lived buffers across threads; glibc's allocator
// spends a large share of the time on its locks there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Async worker threads per available core, unless `TOKIO_WORKER_THREADS` says how many. The
/// async workers answer connections, refuse what does not fit and read bodies; scoring runs on
/// other threads. With one worker per core, a worker busy for a few milliseconds (a large
/// response, a burst of refusals) delays every connection queued behind it; with two, the
/// kernel time-slices them and a health probe is answered while another worker is busy (on two
/// cores under overload, the probe's p99 fell from about 54 ms to about 32 ms: docs/benchmarks.md).
const WORKERS_PER_CORE: usize = 2;

fn main() -> std::process::ExitCode {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if std::env::var_os("TOKIO_WORKER_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        builder.worker_threads(WORKERS_PER_CORE * cores);
    }
    let runtime = match builder.enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("referee: cannot start the async runtime: {error}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(run(Cli::parse()));
    // Dropping a runtime waits for every blocking task (a verifier still scoring an abandoned
    // request); shutdown is bounded by its grace period, so the process does not wait for them.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("referee: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
