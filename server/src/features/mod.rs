//! The server's features, each one folder holding its HTTP handlers, domain logic and storage;
//! the plug-in crates behind them hold what does not need the server. A feature reaches the
//! engine, the store and the HTTP layer; none of those reaches a feature except through the
//! registry of routes ([`crate::http`]) and the engine's hooks.

pub mod adapters;
pub mod console;
pub mod environments;
pub mod episodes;
pub mod jobs;
pub mod noise;
pub mod rlpr;
pub mod rubrics;
pub mod runs;
