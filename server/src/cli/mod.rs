//! The `referee` command line.

pub mod doctor;
mod local;
mod remote;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, Subcommand};

use crate::config::{Config, Overrides, SandboxOverrides, ServerOverrides};
use crate::registry::Registry;
use crate::{http, server, telemetry};

/// Referee: verifiers and reward models for RL training of language models.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about)]
pub struct Cli {
    /// A TOML configuration file (layered over the defaults, under `REFEREE__*` variables and flags).
    #[arg(long, global = true, env = "REFEREE_CONFIG")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the HTTP API.
    Serve {
        /// Address to listen on; port 0 picks a free port (default 127.0.0.1:8080).
        #[arg(long)]
        listen: Option<SocketAddr>,
        /// `sqlite://PATH` or `postgres://...` (default: a SQLite file in the data directory).
        #[arg(long)]
        database_url: Option<String>,
        /// Directory for the default SQLite database.
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// The folder holding the sandbox's runtimes (`python.wasm`): `sandbox.runtimes_dir`.
        #[arg(long)]
        runtimes_dir: Option<PathBuf>,
    },
    /// Score a JSONL file of items, locally or (with --server) as a batch job on a server;
    /// results go out as JSONL in input order.
    Score {
        /// Input file: one item per line, `{"id"?, "verifier", "input"}`.
        input: PathBuf,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Submit to this server (`http://host:port`) as a batch job instead of scoring here.
        #[arg(long)]
        server: Option<String>,
        /// API key for --server.
        #[arg(long, env = "REFEREE_API_KEY", hide_env_values = true)]
        api_key: Option<String>,
        /// Items per batch (locally) or per chunk (with --server; default: the server's).
        #[arg(long)]
        batch_size: Option<usize>,
        /// Time budget of one batch, in milliseconds.
        #[arg(long, default_value_t = 60_000)]
        timeout_ms: u64,
        /// Do not draw the progress bar.
        #[arg(long)]
        quiet: bool,
        /// The folder holding the sandbox's runtimes when scoring here: `sandbox.runtimes_dir`.
        #[arg(long)]
        runtimes_dir: Option<PathBuf>,
    },
    /// List the registered verifiers.
    Verifiers {
        /// Print the full listing, input schemas included, as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// Check this host for the configuration: the configuration itself, the database (named
    /// without its password), the sandbox's runtimes, the C/C++ compiler and its confinement,
    /// and the GPU libraries; print what works, what does not and the fix. Exits 0 when
    /// everything the configuration needs works.
    Doctor {
        /// `sqlite://PATH` or `postgres://...` (default: a SQLite file in the data directory).
        #[arg(long)]
        database_url: Option<String>,
        /// Directory for the default SQLite database.
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// The folder holding the sandbox's runtimes (`python.wasm`): `sandbox.runtimes_dir`.
        #[arg(long)]
        runtimes_dir: Option<PathBuf>,
    },
    /// Inspect the configuration.
    Config {
        #[command(subcommand)]
        action: ConfigAction,
    },
}

#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the configuration in effect, as TOML (deprecated keys where they moved, with a
    /// comment for each).
    Show,
}

/// The flags of `command` that set configuration keys.
fn overrides(command: &Command) -> Overrides {
    match command {
        Command::Serve { listen, database_url, data_dir, runtimes_dir } => Overrides {
            database_url: database_url.clone(),
            data_dir: data_dir.clone(),
            server: ServerOverrides { listen: *listen },
            sandbox: SandboxOverrides { runtimes_dir: runtimes_dir.clone() },
        },
        Command::Doctor { database_url, data_dir, runtimes_dir } => Overrides {
            database_url: database_url.clone(),
            data_dir: data_dir.clone(),
            server: ServerOverrides::default(),
            sandbox: SandboxOverrides { runtimes_dir: runtimes_dir.clone() },
        },
        Command::Score { runtimes_dir, .. } => {
            Overrides { sandbox: SandboxOverrides { runtimes_dir: runtimes_dir.clone() }, ..Overrides::default() }
        }
        Command::Verifiers { .. } | Command::Openapi | Command::Config { .. } => Overrides::default(),
    }
}

/// The scorers of a local `referee score`, with `code` on a sandbox made from `[sandbox]` as
/// `serve` makes it.
fn local_registry(config: &Config) -> anyhow::Result<Registry> {
    for note in config.deprecations() {
        eprintln!("warning: {note}");
    }
    let sandbox =
        referee_code::Sandbox::new(crate::startup::sandbox_config(config)).context("cannot start the code sandbox")?;
    let code = referee_code::CodeVerifier::new().in_sandbox(std::sync::Arc::new(sandbox));
    Ok(Registry::builtin_with(
        referee_rubric::JudgeClient::unconfigured(),
        referee_rubric::Backing::default(),
        code,
        referee_rlpr::RlprModel::default(),
    ))
}

/// Runs the command line; the process exit code follows from the result.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let overrides = overrides(&cli.command);
    if let Command::Doctor { .. } = cli.command {
        let checks = doctor::diagnose(Config::load(cli.config.as_deref(), &overrides)).await;
        print!("{}", doctor::render(&checks));
        return if doctor::healthy(&checks) {
            Ok(())
        } else {
            Err(anyhow::anyhow!("doctor: a check this configuration needs failed"))
        };
    }
    let config = Config::load(cli.config.as_deref(), &overrides)?;
    match cli.command {
        Command::Serve { .. } => {
            telemetry::init_logging(&config.log);
            let signals = server::ShutdownSignals::listen();
            server::start(&config).await?.run_until_signal(signals).await
        }
        Command::Score { input, output, server: Some(server), api_key, batch_size, timeout_ms: _, quiet, .. } => {
            let options = remote::RemoteOptions {
                chunk_size: batch_size,
                api_key,
                poll: Duration::from_millis(500),
                progress: !quiet,
            };
            let summary = remote::score_remote(&server, &input, output.as_deref(), &options).await?;
            eprintln!("scored {} items: {} correct, {} invalid", summary.items, summary.correct, summary.invalid);
            Ok(())
        }
        Command::Score { input, output, server: None, api_key: _, batch_size, timeout_ms, quiet, .. } => {
            let options = local::LocalOptions {
                batch_size: batch_size.unwrap_or(512).max(1),
                timeout: Duration::from_millis(timeout_ms),
                progress: !quiet,
            };
            let summary = local::score_file(local_registry(&config)?, &input, output.as_deref(), &options).await?;
            eprintln!("scored {} items: {} correct, {} invalid", summary.items, summary.correct, summary.invalid);
            Ok(())
        }
        Command::Verifiers { json } => {
            let listing = http::verifier_catalogue(&Registry::builtin());
            if json {
                println!("{}", serde_json::to_string_pretty(&listing)?);
            } else {
                for verifier in listing.verifiers {
                    println!("{:<20} v{:<4} {}", verifier.id, verifier.version, verifier.description);
                }
            }
            Ok(())
        }
        Command::Openapi => {
            println!("{}", crate::routes::openapi_json(&Registry::builtin()));
            Ok(())
        }
        Command::Config { action: ConfigAction::Show } => {
            print!("{}", config.to_toml());
            Ok(())
        }
        // Answered above, before the configuration had to load.
        Command::Doctor { .. } => Ok(()),
    }
}
