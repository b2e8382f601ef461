//! `[server]`: the HTTP listener and its limits.

use std::net::SocketAddr;

use serde::{Deserialize, Serialize};

/// The HTTP listener and its limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Address to bind; port 0 picks a free port.
    pub listen: SocketAddr,
    /// Time budget of one scoring request, in milliseconds; items still unjudged then are
    /// answered with `timeout`.
    pub request_timeout_ms: u64,
    /// Largest accepted request body, in bytes (413 above).
    pub body_limit_bytes: usize,
    /// Most items in one scoring request (413 above).
    pub max_batch_items: usize,
    /// Requests processed at once (their bodies read); more are refused with 503 and
    /// `Retry-After`, except on trainer-facing routes (`/get_reward`), which wait for room.
    /// Default: 64 per available core ([`crate::machine::Machine`]).
    pub max_concurrent_requests: usize,
    /// Bytes of request bodies held at once, taken as the bytes arrive (for the buffer that holds
    /// them, which grows by doubling up to the declared `Content-Length`), never for a length
    /// only declared; a body that outgrows what is left is refused then with 503 and
    /// `Retry-After`. Default:
    /// 1/32 of the memory available (cgroup limit or physical), at least 64 MiB, at most 128 MiB
    /// per core and 1 GiB, and never less than `body_limit_bytes`.
    pub max_inflight_body_bytes: usize,
    /// Items of scoring requests (`/v1/score`, `/v1/verifiers/{id}/score`, `/get_reward`) being
    /// scored at once, counted from the body before it is parsed; a request whose items do not
    /// fit is refused with 503 and `Retry-After` (trainer routes wait). Default: 4,096 per
    /// available core.
    pub max_inflight_items: usize,
    /// Connections open at once; the listener stops accepting beyond (the kernel's backlog
    /// holds them). Lowered at start to what the open-files limit allows.
    pub max_connections: usize,
    /// Time a client has to send a request's head, from the connection's start or the end of
    /// its previous response: also the keep-alive idle timeout. A head begun but not finished
    /// then gets 408; a connection with no byte of a next request is closed without an answer.
    pub header_read_timeout_ms: u64,
    /// Time a client has to send a request's body once its head is in; then 408 and the
    /// connection is closed. A job upload has as much again for each `body_limit_bytes` it has
    /// sent.
    pub body_read_timeout_ms: u64,
    /// Largest request head (request line and headers), in bytes; 431 above.
    pub max_header_bytes: usize,
    /// Trainer-facing requests (`/get_reward`) that may wait at once for a request slot, each
    /// until the request deadline; more are refused with 503 and `Retry-After`. A request that
    /// holds a slot then also waits, until the same deadline, for room in the queues of the
    /// scorers it needs. 0 refuses them like the general API (503 without a slot, 429 on a
    /// full scorer queue).
    pub max_waiting_requests: usize,
    /// Seconds a client is told to wait in `Retry-After` when refused for load.
    pub retry_after_secs: u32,
    /// How long shutdown waits for in-flight requests, in milliseconds.
    pub shutdown_grace_ms: u64,
    /// How much nicer (lower CPU priority, 0 to 19) than the process the threads that score
    /// run: verifier batches and the parsing of large bodies (not the sandbox, whose programs
    /// have wall-clock limits). The threads that answer connections keep the process's
    /// priority, so health probes and refusals are answered at once while every core is busy
    /// scoring. 0: all threads alike. Linux only.
    pub scoring_niceness: i32,
}

impl Default for ServerConfig {
    fn default() -> Self {
        let machine = crate::machine::Machine::detect();
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            request_timeout_ms: 30_000,
            body_limit_bytes: 64 << 20,
            max_batch_items: 16_384,
            max_concurrent_requests: 64 * machine.cores,
            max_inflight_body_bytes: machine.default_body_budget(64 << 20),
            max_inflight_items: 4096 * machine.cores,
            max_connections: 10_000,
            header_read_timeout_ms: 10_000,
            body_read_timeout_ms: 30_000,
            max_header_bytes: 128 << 10,
            max_waiting_requests: 4096,
            retry_after_secs: 1,
            shutdown_grace_ms: 30_000,
            scoring_niceness: referee_core::threads::DEFAULT_SCORING_NICENESS,
        }
    }
}
