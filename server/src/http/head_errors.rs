//! JSON bodies for the errors hyper answers by itself, and for the two it ends a connection on
//! without answering.
//!
//! A request whose head cannot be parsed (a malformed request line or header, a head over
//! `server.max_header_bytes`, a URI too long) never reaches the application: hyper answers it
//! with 400, 431 or 414 and an empty body, then closes the connection. [`JsonHeadErrors`] wraps
//! a connection's stream and rewrites exactly that answer into the server's error shape,
//! `{"code", "message"}` with `content-type: application/json`, so that every error a client
//! can receive is JSON.
//!
//! The answer is recognised by its form, which no response of the application has: one of those
//! three statuses with `content-length: 0`, the whole head in one write (hyper writes its error
//! head at once and nothing after it). Every application error carries a JSON body.
//!
//! Two errors hyper does not answer at all: an HTTP/2 connection preface (a client speaking
//! HTTP/2 with prior knowledge to this HTTP/1.1 server) and a head that does not arrive within
//! `server.header_read_timeout_ms`. hyper drops the stream; the wrapper then hands it over
//! ([`Handoff`]) instead of closing it, and the listener answers 400 or 408 in JSON on it
//! ([`answer_unanswered`]) before closing it. A keep-alive connection left idle (no byte of a
//! next request) is closed without an answer: a client could read an answer it did not ask for
//! as the response to the request it sends next.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, ReadBuf};

use super::error::code_of_status;

/// Where a connection's stream goes when hyper drops it, so that the listener can still answer
/// an error hyper ended the connection on without a word.
#[derive(Debug)]
pub struct Handoff<S> {
    stream: Mutex<Option<S>>,
    /// Whether bytes of a request head have been read since the last response was written:
    /// a header timeout then cut a head short, rather than ending an idle keep-alive connection.
    head_started: AtomicBool,
}

impl<S> Handoff<S> {
    pub fn new() -> Arc<Self> {
        Arc::new(Handoff { stream: Mutex::new(None), head_started: AtomicBool::new(false) })
    }

    /// The stream, once hyper has dropped it.
    fn take(&self) -> Option<S> {
        self.stream.lock().ok()?.take()
    }
}

/// A connection's stream whose head-parse errors are answered in JSON.
#[derive(Debug)]
pub struct JsonHeadErrors<S> {
    /// Always there until the wrapper is dropped.
    inner: Option<S>,
    /// The rewritten answer and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
    handoff: Arc<Handoff<S>>,
}

impl<S> JsonHeadErrors<S> {
    pub fn new(inner: S, handoff: Arc<Handoff<S>>) -> Self {
        Self { inner: Some(inner), pending: None, handoff }
    }

    fn inner(&mut self) -> io::Result<Pin<&mut S>>
    where
        S: Unpin,
    {
        self.inner.as_mut().map(Pin::new).ok_or_else(|| io::ErrorKind::NotConnected.into())
    }
}

impl<S> Drop for JsonHeadErrors<S> {
    fn drop(&mut self) {
        if let (Some(stream), Ok(mut slot)) = (self.inner.take(), self.handoff.stream.lock()) {
            *slot = Some(stream);
        }
    }
}

impl<S: AsyncWrite + Unpin> JsonHeadErrors<S> {
    /// Writes what is left of a rewritten answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &self.pending {
            if *written == bytes.len() {
                self.pending = None;
                break;
            }
            let rest = bytes[*written..].to_vec();
            let n = ready!(self.inner()?.poll_write(cx, &rest))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            if let Some((_, written)) = &mut self.pending {
                *written += n;
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `head` in place of the inner stream when it is hyper's own error answer.
    fn take_error_head(&mut self, cx: &mut Context<'_>, head: &[u8]) -> Option<Poll<io::Result<usize>>> {
        let rewritten = rewrite(head)?;
        self.pending = Some((rewritten, 0));
        // The answer is taken whole; what the stream does not take now is written on the next
        // write, flush or shutdown (hyper flushes and shuts down after its error answer).
        Some(match self.poll_pending(cx) {
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            Poll::Ready(Ok(())) | Poll::Pending => Poll::Ready(Ok(head.len())),
        })
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonHeadErrors<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = self.inner()?.poll_read(cx, buf);
        if buf.filled().len() > before {
            self.handoff.head_started.store(true, Ordering::Relaxed);
        }
        read
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonHeadErrors<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        self.handoff.head_started.store(false, Ordering::Relaxed);
        if let Some(taken) = self.take_error_head(cx, buf) {
            return taken;
        }
        self.inner()?.poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        self.handoff.head_started.store(false, Ordering::Relaxed);
        if bufs.iter().find(|buf| !buf.is_empty()).is_some_and(|first| may_be_error_head(first)) {
            let head: Vec<u8> = bufs.iter().flat_map(|buf| buf.iter().copied()).collect();
            if let Some(taken) = self.take_error_head(cx, &head) {
                return taken;
            }
        }
        self.inner()?.poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.as_ref().is_some_and(S::is_write_vectored)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        self.inner()?.poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        self.inner()?.poll_shutdown(cx)
    }
}

/// How long the listener spends answering an error hyper did not answer: writing the answer,
/// then reading what the client still sends until it closes, so that the close does not reset
/// the connection under the answer.
const UNANSWERED_LINGER: Duration = Duration::from_secs(1);

/// Answers, on the stream hyper dropped, the errors it ended a connection on without an answer:
/// 400 for an HTTP/2 preface, 408 for a head cut short by `server.header_read_timeout_ms`
/// (`header_read_timeout`). Anything else (an idle keep-alive connection timing out, a reset, a
/// connection hyper answered itself) is left to close as it is.
pub async fn answer_unanswered<S>(error: &hyper::Error, handoff: &Handoff<S>, header_read_timeout: Duration)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let answer = if error.is_parse_version_h2() {
        metrics::counter!("referee_http_head_errors_total", "reason" => "http2").increment(1);
        json_answer(
            StatusCode::BAD_REQUEST,
            "this server speaks HTTP/1.1 only: an HTTP/2 connection preface (prior knowledge) was sent",
        )
    } else if error.is_timeout() && handoff.head_started.load(Ordering::Relaxed) {
        metrics::counter!("referee_http_head_errors_total", "reason" => "header_timeout").increment(1);
        let message = format!(
            "the request head did not arrive within {} ms (server.header_read_timeout_ms)",
            header_read_timeout.as_millis()
        );
        json_answer(StatusCode::REQUEST_TIMEOUT, &message)
    } else {
        return;
    };
    let Some(mut stream) = handoff.take() else { return };
    let _ = tokio::time::timeout(UNANSWERED_LINGER, async {
        stream.write_all(&answer).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<_, io::Error>(())
    })
    .await;
}

/// A whole HTTP/1.1 answer of `status` with the JSON error body, closing the connection.
fn json_answer(status: StatusCode, message: &str) -> Vec<u8> {
    let body = serde_json::json!({"code": code_of_status(status), "message": message}).to_string();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The statuses hyper answers a head it cannot parse with.
const HEAD_ERRORS: [StatusCode; 3] =
    [StatusCode::BAD_REQUEST, StatusCode::URI_TOO_LONG, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE];

/// A cheap first look: a status line with one of [`HEAD_ERRORS`].
fn may_be_error_head(bytes: &[u8]) -> bool {
    status_of(bytes).is_some()
}

fn status_of(bytes: &[u8]) -> Option<StatusCode> {
    let rest = bytes.strip_prefix(b"HTTP/1.1 ").or_else(|| bytes.strip_prefix(b"HTTP/1.0 "))?;
    let status = StatusCode::from_bytes(rest.get(..3)?).ok()?;
    (HEAD_ERRORS.contains(&status) && rest.get(3) == Some(&b' ')).then_some(status)
}

/// hyper's error answer (status line, headers, `content-length: 0`, no body) rewritten with a
/// JSON body; `None` for anything else.
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let status = status_of(head)?;
    let text = std::str::from_utf8(head).ok()?;
    let lines = text.strip_suffix("\r\n\r\n")?;
    if lines.contains("\r\n\r\n") {
        return None;
    }
    let mut lines = lines.split("\r\n");
    let status_line = lines.next()?;
    let mut headers = Vec::new();
    let mut empty_body = false;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        if name.eq_ignore_ascii_case("content-length") {
            empty_body = value.trim() == "0";
        } else if !name.eq_ignore_ascii_case("connection") && !name.eq_ignore_ascii_case("content-type") {
            headers.push(line);
        }
    }
    if !empty_body {
        return None;
    }
    let message = match status {
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => "the request head (request line and headers) is too large",
        StatusCode::URI_TOO_LONG => "the request URI is too long",
        _ => "the request is not valid HTTP/1.1: its request line or a header cannot be parsed",
    };
    let body = serde_json::json!({"code": code_of_status(status), "message": message}).to_string();
    let mut answer = format!("{status_line}\r\n");
    for header in headers {
        answer.push_str(header);
        answer.push_str("\r\n");
    }
    answer.push_str("content-type: application/json\r\nconnection: close\r\n");
    answer.push_str(&format!("content-length: {}\r\n\r\n{body}", body.len()));
    Some(answer.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_error_heads_get_a_json_body() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 10:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(rewrite(head).unwrap_or_default()).unwrap_or_default();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_default();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{head}");
        assert!(head.contains("\r\ndate: Wed, 25 Nov 2026 10:00:00 GMT"), "{head}");
        assert!(head.contains("\r\ncontent-type: application/json\r\nconnection: close"), "{head}");
        assert!(head.ends_with(&format!("content-length: {}", body.len())), "{head}");
        let body: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
        assert_eq!(body["code"], "headers_too_large");
        let bad = rewrite(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").unwrap_or_default();
        assert!(String::from_utf8_lossy(&bad).contains(r#""code":"bad_request""#));
    }

    #[test]
    fn other_writes_pass_untouched() {
        for bytes in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 51\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}",
            b"HTTP/1.1 4310 x\r\ncontent-length: 0\r\n\r\n",
            b"{\"code\":\"HTTP/1.1 400 \"}",
            b"",
        ] {
            assert!(rewrite(bytes).is_none(), "{}", String::from_utf8_lossy(bytes));
        }
    }

    /// Through the wrapper, over a stream that takes one byte per write: the whole answer lands.
    #[tokio::test]
    async fn a_slow_stream_receives_the_whole_answer() -> io::Result<()> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (client, server) = tokio::io::duplex(1);
        let mut server = JsonHeadErrors::new(server, Handoff::new());
        let reader = tokio::spawn(async move {
            let mut client = client;
            let mut answer = Vec::new();
            client.read_to_end(&mut answer).await.map(|_| answer)
        });
        server.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").await?;
        server.flush().await?;
        server.shutdown().await?;
        drop(server);
        let answer = reader.await.map_err(io::Error::other)??;
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.ends_with(r#""code":"bad_request","message":"the request is not valid HTTP/1.1: its request line or a header cannot be parsed"}"#), "{answer}");
        Ok(())
    }
}
