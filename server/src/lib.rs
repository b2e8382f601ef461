//! Referee's HTTP service, storage, configuration and command line, laid out by feature.
//!
//! - [`http`]: the router, authentication, limits and timeouts, errors, the OpenAPI document,
//!   health probes, and the scoring routes;
//! - [`engine`]: admission, batching and the scoring pipeline, with the hooks features plug into;
//! - [`store`]: the database, its migrations, the background writer and retention;
//! - [`features`]: jobs, noise correction, rubrics, RLPR, environments and the trainer adapters,
//!   each with its handlers, domain logic and storage together;
//! - [`registry`]: the one list of scorers; [`cli`]: the `referee` command.

pub mod cli;
pub mod config;
pub mod engine;
pub mod features;
pub mod http;
pub mod machine;
pub mod registry;
pub mod routes;
pub mod server;
pub mod startup;
pub mod store;
pub mod telemetry;

pub use config::Config;
pub use server::{RunningServer, start};
