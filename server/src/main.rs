use clap::Parser as _;
use referee_server::cli::{Cli, run};

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
