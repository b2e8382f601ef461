use clap::Parser as _;
use referee_server::cli::{Cli, run};

// Request handling allocates many small, short-lived buffers across threads; glibc's allocator
// spends a large share of the time on its locks there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run(Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("referee: {error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
