//! The client against a real server on a loopback port, over HTTP and HTTPS.

mod retries;
mod support;
mod tls;
