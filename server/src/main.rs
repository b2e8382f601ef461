use clap::Parser as _;
use referee_server::cli::{Cli, run};

// Request handling allocates many small, short-lived buffers across threads; glibc's allocator
// spends a large share of the time on its locks there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
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
