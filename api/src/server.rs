//! The HTTP server: hyper's HTTP/1 connections, served with limits against slow and greedy
//! clients (`HTTP_*` settings, `domain::infra::config::HttpConfig`).
//!
//! axum's own `serve` has no read timeouts and no connection cap: a client that opens
//! connections and never finishes its headers, or sends its body a byte at a time, holds a file
//! descriptor each for as long as it likes, and enough of them starve everyone (`/healthz`
//! included). Here:
//! - the request line and headers must arrive within `header_read_timeout` (hyper's own timer,
//!   which also ends a kept-alive connection idle that long);
//! - the body must arrive within `body_read_timeout` of the headers, else 408 and the
//!   connection closes;
//! - at most `max_connections` connections are open in total and `max_connections_per_ip` per
//!   client address (per /64 for IPv6; trusted proxies count only in the total): a connection
//!   beyond either is closed as soon as it is accepted, before anything is read.

use std::{
    collections::HashMap,
    convert::Infallible,
    future::Future,
    net::{IpAddr, SocketAddr},
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    Router,
    body::Body,
    extract::ConnectInfo,
    http::{Request, StatusCode},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use domain::infra::config::HttpConfig;
use http_body::{Body as HttpBody, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use ipnet::IpNet;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tower::ServiceExt;

use crate::{AppState, error::ApiError};

/// File descriptors kept back from `max_connections` for the database pool, Redis, stored
/// files, logs and the listener itself.
const FD_RESERVE: u64 = 256;

/// Raises this process's soft limit of open files to its hard limit and answers the soft limit
/// now in force. Linux starts processes at 1,024 soft, which a connection cap of thousands
/// would hit long before the cap.
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct we pass.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return None;
            }
            if lim.rlim_cur < lim.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: lim.rlim_max,
                    rlim_max: lim.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    lim = raised;
                }
            }
        }
        Some(lim.rlim_cur)
    }
    #[cfg(not(unix))]
    None
}

/// The connection cap in force: the setting, lowered so that the connections and the reserve
/// fit the file-descriptor limit (accepting past it would fail with EMFILE for everyone).
pub fn effective_max_connections(configured: usize, fd_limit: Option<u64>) -> usize {
    match fd_limit {
        Some(limit) => {
            let room = limit.saturating_sub(FD_RESERVE).max(16) as usize;
            configured.min(room)
        }
        None => configured,
    }
}

/// Open connections, in total and per client address.
struct Connections {
    total: Arc<Semaphore>,
    per_ip: Mutex<HashMap<IpAddr, usize>>,
    max_per_ip: usize,
    trusted: Vec<IpNet>,
}

/// One accepted connection's place; dropping it frees the place.
struct Slot {
    _total: OwnedSemaphorePermit,
    ip: Option<IpAddr>,
    conns: Arc<Connections>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(ip) = self.ip {
            let mut map = self.conns.per_ip.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(n) = map.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&ip);
                }
            }
        }
    }
}

impl Connections {
    fn admit(self: &Arc<Self>, peer: IpAddr) -> Option<Slot> {
        let total = self.total.clone().try_acquire_owned().ok()?;
        let peer = peer.to_canonical();
        let ip = if self.trusted.iter().any(|n| n.contains(&peer)) {
            None
        } else {
            let key = crate::client_ip::limit_key(peer);
            let mut map = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
            let n = map.entry(key).or_insert(0);
            if *n >= self.max_per_ip {
                return None;
            }
            *n += 1;
            Some(key)
        };
        Some(Slot {
            _total: total,
            ip,
            conns: self.clone(),
        })
    }
}

/// Serves `state`'s application on `listener` until `shutdown` resolves, then stops accepting,
/// lets in-flight requests finish and returns once every connection has closed.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = state.config.http.clone();
    let max = effective_max_connections(limits.max_connections, raise_fd_limit());
    if max < limits.max_connections {
        tracing::warn!(
            configured = limits.max_connections,
            in_force = max,
            "HTTP_MAX_CONNECTIONS lowered to fit the open-file limit"
        );
    }
    let conns = Arc::new(Connections {
        total: Arc::new(Semaphore::new(max)),
        per_ip: Mutex::new(HashMap::new()),
        max_per_ip: limits.max_connections_per_ip,
        trusted: state.config.trusted_proxies.clone(),
    });
    let router = crate::app(state);
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // EMFILE and the like: the cap keeps this rare; wait instead of spinning.
                    tracing::warn!(error = %e, "accepting a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let Some(slot) = conns.admit(peer.ip()) else {
            // Closing at once costs the flood its descriptor instead of ours.
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(
            stream,
            peer,
            slot,
            router.clone(),
            limits.clone(),
            stop_rx.clone(),
        ));
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(stop_rx);
    // Every connection task holds a receiver; `closed` resolves when the last one ends.
    stop_tx.closed().await;
    Ok(())
}

async fn connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    slot: Slot,
    router: Router,
    limits: HttpConfig,
    mut stop: watch::Receiver<bool>,
) {
    let body_timeout = limits.body_read_timeout;
    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
        let router = router.clone();
        async move { Ok::<_, Infallible>(handle(router, req, peer, body_timeout).await) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .serve_connection(TokioIo::new(stream), service);
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        _ = async { drop(stop.wait_for(|stop| *stop).await) } => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
    drop(slot);
}

async fn handle(
    router: Router,
    req: Request<Incoming>,
    peer: SocketAddr,
    body_timeout: Duration,
) -> Response {
    let (mut parts, body) = req.into_parts();
    parts.extensions.insert(ConnectInfo(peer));
    let timed_out = Arc::new(AtomicBool::new(false));
    let body = if body.is_end_stream() {
        Body::new(body)
    } else {
        Body::new(DeadlineBody {
            inner: body,
            deadline: Box::pin(tokio::time::sleep(body_timeout)),
            timed_out: timed_out.clone(),
        })
    };
    let res = match router.oneshot(Request::from_parts(parts, body)).await {
        Ok(res) => res,
        Err(never) => match never {},
    };
    if timed_out.load(Ordering::Relaxed) {
        return body_timeout_response();
    }
    res
}

/// 408 in the contract's error shape; `Connection: close`, since the rest of the body may
/// still be on its way.
fn body_timeout_response() -> Response {
    let mut res = ApiError::new(
        StatusCode::REQUEST_TIMEOUT,
        "request_timeout",
        "The request body did not arrive in time",
    )
    .into_response();
    res.headers_mut().insert(
        http::header::CONNECTION,
        http::HeaderValue::from_static("close"),
    );
    res
}

/// A request body that fails once its deadline passes, however the bytes trickle in.
struct DeadlineBody {
    inner: Incoming,
    deadline: Pin<Box<tokio::time::Sleep>>,
    timed_out: Arc<AtomicBool>,
}

#[derive(Debug)]
struct BodyTimedOut;

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body did not arrive in time")
    }
}

impl std::error::Error for BodyTimedOut {}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            self.timed_out.store(true, Ordering::Relaxed);
            return Poll::Ready(Some(Err(Box::new(BodyTimedOut))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conns(total: usize, per_ip: usize, trusted: &str) -> Arc<Connections> {
        Arc::new(Connections {
            total: Arc::new(Semaphore::new(total)),
            per_ip: Mutex::new(HashMap::new()),
            max_per_ip: per_ip,
            trusted: domain::infra::config::trusted_proxies(trusted).unwrap(),
        })
    }

    #[test]
    fn one_address_gets_its_share_and_frees_it_on_close() {
        let c = conns(100, 2, "");
        let a: IpAddr = "203.0.113.5".parse().unwrap();
        let first = c.admit(a).unwrap();
        let _second = c.admit(a).unwrap();
        assert!(
            c.admit(a).is_none(),
            "a third connection from one address is refused"
        );
        assert!(
            c.admit("203.0.113.6".parse().unwrap()).is_some(),
            "another address is not"
        );
        drop(first);
        assert!(c.admit(a).is_some(), "a closed connection frees its place");
    }

    #[test]
    fn ipv6_counts_per_64_and_trusted_proxies_only_in_the_total() {
        let c = conns(3, 1, "10.0.0.0/8");
        let _a = c.admit("2001:db8::1".parse().unwrap()).unwrap();
        assert!(c.admit("2001:db8::2".parse().unwrap()).is_none());
        let _p1 = c.admit("10.0.0.1".parse().unwrap()).unwrap();
        let _p2 = c.admit("10.0.0.1".parse().unwrap()).unwrap();
        assert!(
            c.admit("10.0.0.1".parse().unwrap()).is_none(),
            "the total still binds"
        );
        assert!(c.admit("198.51.100.1".parse().unwrap()).is_none());
    }

    #[test]
    fn the_cap_fits_the_descriptor_limit() {
        assert_eq!(effective_max_connections(10_000, Some(1_024)), 768);
        assert_eq!(effective_max_connections(500, Some(20_000)), 500);
        assert_eq!(effective_max_connections(500, None), 500);
    }
}
