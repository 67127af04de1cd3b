//! One HTTP attempt of a delivery. The URL's host is resolved now and every address it gives
//! must be public (unless `WEBHOOK_ALLOW_PRIVATE`): the connection then goes to the addresses
//! checked, never to a second DNS answer (svix's `webhook_http_client.rs` does the same at
//! connect time). No redirects, no proxy; a 2xx within [`super::ATTEMPT_TIMEOUT`] succeeds.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::ATTEMPT_TIMEOUT;
use crate::infra::public_addr;

/// What an attempt's log keeps of an answer.
pub const EXCERPT_BYTES: usize = 1024;

/// What one attempt gave.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub attempted_at: DateTime<Utc>,
    /// `None` when no answer came (address refused, no connection, timeout).
    pub status_code: Option<u16>,
    pub latency_ms: i32,
    /// The answer's first 1 KB, or why there was no answer.
    pub excerpt: String,
}

impl Outcome {
    pub fn succeeded(&self) -> bool {
        matches!(self.status_code, Some(200..=299))
    }
}

/// A request to make: where, the headers' values and the body.
pub struct Request<'a> {
    pub url: &'a str,
    pub msg_id: &'a str,
    pub timestamp: i64,
    pub signature: &'a str,
    pub body: &'a [u8],
}

/// Makes the attempt; never fails: a failure is an outcome to record.
pub async fn send(req: &Request<'_>, allow_private: bool) -> Outcome {
    let attempted_at = Utc::now();
    let started = Instant::now();
    let result = attempt(req, allow_private, started).await;
    let latency_ms = started.elapsed().as_millis().min(i32::MAX as u128) as i32;
    match result {
        Ok((status, excerpt)) => Outcome {
            attempted_at,
            status_code: Some(status),
            latency_ms,
            excerpt,
        },
        Err(e) => Outcome {
            attempted_at,
            status_code: None,
            latency_ms,
            excerpt: cut(&format!("{e:#}")),
        },
    }
}

async fn attempt(
    req: &Request<'_>,
    allow_private: bool,
    started: Instant,
) -> anyhow::Result<(u16, String)> {
    let url = reqwest::Url::parse(req.url)?;
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        anyhow::bail!("the URL has no host");
    };
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs = public_addr::resolve(bare, port, Duration::from_secs(5))
        .await
        .ok_or_else(|| anyhow::anyhow!("{bare} could not be resolved"))?;
    if !allow_private && let Some(ip) = public_addr::first_non_public(&addrs) {
        anyhow::bail!("{bare} resolves to {ip}, a local or private address: refused");
    }
    let left = ATTEMPT_TIMEOUT.saturating_sub(started.elapsed());
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(left)
        .connect_timeout(left)
        // Pinned: the connection goes to an address checked above.
        .resolve_to_addrs(bare, &addrs)
        .user_agent("KYC-Platform-Webhooks/1.0")
        .build()?;
    let mut res = client
        .post(url)
        .header("content-type", "application/json")
        .header("webhook-id", req.msg_id)
        .header("webhook-timestamp", req.timestamp.to_string())
        .header("webhook-signature", req.signature)
        .body(req.body.to_vec())
        .send()
        .await
        .map_err(|e| anyhow::anyhow!("{}", describe(&e)))?;
    let status = res.status().as_u16();
    let mut head = Vec::new();
    while head.len() < EXCERPT_BYTES {
        match res.chunk().await {
            Ok(Some(bytes)) => head.extend_from_slice(&bytes),
            // An answer cut short still has its status: the excerpt is what came.
            Ok(None) | Err(_) => break,
        }
    }
    head.truncate(EXCERPT_BYTES);
    Ok((status, cut(&String::from_utf8_lossy(&head))))
}

fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        format!("no answer within {} s", ATTEMPT_TIMEOUT.as_secs())
    } else if e.is_connect() {
        "could not connect".into()
    } else {
        "the request failed".into()
    }
}

/// At most [`EXCERPT_BYTES`] bytes of `s`, cut on a character boundary.
fn cut(s: &str) -> String {
    let mut end = s.len().min(EXCERPT_BYTES);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_cut_on_characters() {
        let s = "é".repeat(600);
        let c = cut(&s);
        assert!(c.len() <= EXCERPT_BYTES && c.chars().all(|ch| ch == 'é'));
    }
}
