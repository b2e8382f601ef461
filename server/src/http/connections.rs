//! The listener: connections are accepted up to `server.max_connections` and served by hyper
//! under a header-read timeout, which also closes keep-alive connections left idle; on shutdown
//! every connection finishes its request in flight and closes.
//!
//! A slow client can hold a connection (a file descriptor, a few kilobytes) for at most the
//! header-read timeout while it sends its headers (then 408, [`super::head_errors`]), and for at
//! most `server.body_read_timeout_ms` while it sends its body ([`super::admission`]); it never
//! holds a scoring slot, which is taken only once the body is in.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::head_errors::{Handoff, JsonHeadErrors, answer_unanswered};

/// The most a connection's read buffer grows to (hyper's default is about 400 KiB). Reading a
/// large body fast grows the buffer, and a keep-alive connection keeps it: with a thousand
/// clients sending large batches, 400 KiB each is 400 MB held by idle connections. 64 KiB reads
/// keep a loopback upload at full speed. A head must fit too, so the buffer is never smaller
/// than `server.max_header_bytes`.
const READ_BUFFER_BYTES: usize = 64 << 10;

/// Limits on connections, from `[server]`.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Connections open at once; the listener stops accepting at this many (the kernel's
    /// backlog holds further ones) and resumes as connections close.
    pub max_connections: usize,
    /// Time a client has to send a request's headers, counted from the connection's start or
    /// from the end of its previous response: it is also the keep-alive idle timeout.
    pub header_read_timeout: Duration,
    /// Largest request head (request line and headers) in bytes; hyper refuses a larger head
    /// with 431 and closes the connection (its answer, like its 400 for a request that is not
    /// HTTP, gets a JSON body from [`JsonHeadErrors`]: the request never reached the application).
    pub max_header_bytes: usize,
}

/// Serves `app` on `listener` until `stop` completes, then stops accepting and waits for the
/// open connections to finish the requests they are serving (the caller bounds that wait).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let capacity = limits.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let room = Arc::new(Semaphore::new(capacity));
    // Each connection's task holds a permit of `room` until its connection ends; on shutdown
    // they are told to finish the request in flight and close, and all permits coming back means
    // every connection has.
    let (stopping, stopped) = tokio::sync::watch::channel(false);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(limits.max_header_bytes)
        .max_buf_size(READ_BUFFER_BYTES.max(limits.max_header_bytes));
    let open = metrics::gauge!("referee_http_connections_open");
    tokio::pin!(stop);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&room).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut stop => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    accept_failed(&error).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "cannot set TCP_NODELAY");
        }
        // With upgrades: OpenEnv's sessions are WebSocket connections (the session then runs in
        // its own task, and the connection ends here).
        let handoff = Handoff::new();
        let connection = http
            .serve_connection(
                TokioIo::new(JsonHeadErrors::new(stream, Arc::clone(&handoff))),
                TowerToHyperService::new(app.clone()),
            )
            .with_upgrades();
        let open = open.clone();
        let mut stopped = stopped.clone();
        let header_read_timeout = limits.header_read_timeout;
        open.increment(1.0);
        tokio::spawn(async move {
            // The connection (and the stream inside it) is dropped at the end of this block: the
            // stream is then in `handoff`.
            let ended = {
                let mut connection = std::pin::pin!(connection);
                tokio::select! {
                    ended = connection.as_mut() => ended,
                    () = async { drop(stopped.wait_for(|stop| *stop).await) } => {
                        connection.as_mut().graceful_shutdown();
                        connection.await
                    }
                }
            };
            if let Err(error) = ended {
                // Timeouts, resets and malformed requests from clients: not the server's fault.
                tracing::debug!(%error, "connection ended with an error");
                answer_unanswered(&error, &handoff, header_read_timeout).await;
            }
            drop(handoff);
            open.decrement(1.0);
            drop(permit);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    let _ = room.acquire_many(u32::try_from(capacity).unwrap_or(u32::MAX)).await;
    Ok(())
}

/// Accept errors are per connection (a reset before accept) or transient (out of file
/// descriptors): log them at most once a second and keep accepting after a short pause, as a
/// failed accept must never stop the server.
async fn accept_failed(error: &std::io::Error) {
    static LAST_LOGGED: std::sync::Mutex<Option<std::time::Instant>> = std::sync::Mutex::new(None);
    metrics::counter!("referee_http_accept_errors_total").increment(1);
    let log = LAST_LOGGED.lock().map(|mut last| {
        let due = last.is_none_or(|at| at.elapsed() >= Duration::from_secs(1));
        if due {
            *last = Some(std::time::Instant::now());
        }
        due
    });
    if log.unwrap_or(true) {
        tracing::warn!(%error, "accepting a connection failed");
    }
    tokio::time::sleep(Duration::from_millis(10)).await;
}
