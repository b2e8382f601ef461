//! Referee's HTTP service, storage, configuration and command line.
//!
//! The crate wires the plug-in crates together: [`registry`] lists the scorers, [`scoring`]
//! runs batches through them, [`api`] serves them over HTTP, [`storage`] persists the scoring
//! log and result cache, [`noise`] corrects and appeals binary verdicts, and [`cli`] is the
//! `referee` command.

pub mod api;
pub mod auth;
pub mod cli;
pub mod config;
pub mod doctor;
pub mod jobs;
pub mod local;
pub mod machine;
pub mod noise;
pub mod registry;
pub mod remote;
pub mod retention;
pub mod rlpr;
pub mod rubrics;
pub mod scoring;
pub mod server;
pub mod startup;
pub mod storage;
pub mod telemetry;

pub use config::Config;
pub use server::{RunningServer, start};
