//! Referee end to end: a real server on a loopback port, over real HTTP, on SQLite and PostgreSQL.
//! One test binary, a module per area, so the server is linked once.

mod api;
mod code_availability;
mod code_http;
mod code_queue;
mod code_tests;
mod composite;
mod dashboard;
mod environments;
mod episodes;
mod grounding;
mod http_edges;
mod jobs;
mod jobs_kill;
mod keys;
mod math_http;
mod noise;
mod openrlhf;
mod process;
mod retention;
mod rlpr;
mod rlpr_local;
mod rlpr_remote;
mod rubric;
mod rubric_docs;
mod runs;
mod scoring_log;
mod slow_bodies;
mod upgrades;
mod verilog_http;
