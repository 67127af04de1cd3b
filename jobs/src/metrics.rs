//! A worker process's own `/metrics` (on `WORKER_METRICS_PORT`): its job counters and run-time
//! histograms (`bookkeeping`), the process's CPU, memory and files, and its build. The queue's
//! database-wide gauges are the api's (`/metrics?scope=platform`), served once.
//!
//! A worker has no HTTP server otherwise; this is a minimal one (GET only, one request per
//! connection, a bounded head) rather than a web framework in the worker for one path.

use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

/// This worker's metrics in Prometheus text format.
pub fn render() -> String {
    let mut out = String::new();
    crate::bookkeeping::render(&mut out, crate::registry::kinds());
    domain::infra::metrics::render_process(&mut out, "kyc", "worker");
    out
}

/// Serves `GET /metrics` on `listener` until the task is dropped. With `token` the request
/// wants `Authorization: Bearer {token}`, as the api's does.
pub async fn serve(listener: TcpListener, token: Option<String>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let token = token.clone();
        tokio::spawn(async move {
            let _ = tokio::time::timeout(Duration::from_secs(10), answer(stream, token)).await;
        });
    }
}

async fn answer(mut stream: TcpStream, token: Option<String>) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await?;
        if n == 0 || head.len() > 16 * 1024 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head);
    let mut lines = head.split("\r\n");
    let request = lines.next().unwrap_or("");
    let path = request.split(' ').nth(1).unwrap_or("");
    let (status, body) = if !request.starts_with("GET ") {
        ("405 Method Not Allowed", String::new())
    } else if path != "/metrics" && !path.starts_with("/metrics?") {
        ("404 Not Found", String::new())
    } else if !authorized(lines, token.as_deref()) {
        (
            "401 Unauthorized",
            "This needs the metrics token\n".to_owned(),
        )
    } else {
        ("200 OK", render())
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(reply.as_bytes()).await?;
    stream.shutdown().await
}

fn authorized<'a>(mut headers: impl Iterator<Item = &'a str>, token: Option<&str>) -> bool {
    let Some(token) = token else { return true };
    let given = headers
        .find_map(|h| {
            let (name, value) = h.split_once(':')?;
            name.trim()
                .eq_ignore_ascii_case("authorization")
                .then(|| value.trim())
        })
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    // Compared as digests: equal length, no early exit on the secret's bytes.
    Sha256::digest(given.as_bytes()) == Sha256::digest(token.as_bytes())
}
