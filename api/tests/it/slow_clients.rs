//! Slow and greedy clients (issue 22, finding 1): headers never finished, bodies sent a byte at
//! a time and connection floods must neither hold the api's descriptors nor slow `/healthz`.

use std::{
    net::{IpAddr, SocketAddr},
    time::{Duration, Instant},
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};

use crate::common::TestApp;

fn addr(app: &TestApp) -> SocketAddr {
    app.base.trim_start_matches("http://").parse().unwrap()
}

/// A connection from `from` (any 127.0.0.0/8 address is this host on Linux), so a test can
/// play several clients.
async fn connect_from(server: SocketAddr, from: IpAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(server).await.unwrap()
}

/// Reads until the server closes the connection (or `within` passes): the bytes read, and
/// whether it closed.
async fn read_until_closed(stream: &mut TcpStream, within: Duration) -> (String, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), false),
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&got).into_owned(), true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// True while the server keeps the connection open (nothing to read, no end of stream).
fn still_open(stream: &TcpStream) -> bool {
    let mut buf = [0u8; 1];
    matches!(stream.try_read(&mut buf), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

#[tokio::test]
async fn headers_that_never_finish_are_cut_off() {
    let app = TestApp::spawn_with(|c| c.http.header_read_timeout = Duration::from_secs(1)).await;
    let server = addr(&app);
    let local: IpAddr = "127.0.0.1".parse().unwrap();

    // Silent after connecting.
    let mut idle = connect_from(server, local).await;
    // A header line every 200 ms, never the blank line that ends them.
    let mut trickle = connect_from(server, local).await;
    let writer = tokio::spawn(async move {
        trickle
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
            .await
            .unwrap();
        for i in 0..40 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if trickle
                .write_all(format!("X-Slow-{i}: a\r\n").as_bytes())
                .await
                .is_err()
            {
                return true;
            }
        }
        false
    });
    let started = Instant::now();
    let (_, closed) = read_until_closed(&mut idle, Duration::from_secs(5)).await;
    assert!(
        closed,
        "an idle connection is closed after the header timeout"
    );
    assert!(started.elapsed() < Duration::from_secs(4));
    let cut = tokio::time::timeout(Duration::from_secs(8), writer)
        .await
        .unwrap()
        .unwrap();
    assert!(cut, "trickled headers are cut off, whatever the pace");
}

#[tokio::test]
async fn a_body_sent_a_byte_at_a_time_gets_408_and_a_closed_connection() {
    let app = TestApp::spawn_with(|c| c.http.body_read_timeout = Duration::from_secs(1)).await;
    let mut stream = connect_from(addr(&app), "127.0.0.1".parse().unwrap()).await;
    stream
        .write_all(
            b"POST /api/v1/partner/login HTTP/1.1\r\nHost: localhost\r\n\
              Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{",
        )
        .await
        .unwrap();
    let (mut read, mut write) = stream.into_split();
    let writer = tokio::spawn(async move {
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(150)).await;
            if write.write_all(b" ").await.is_err() {
                break;
            }
        }
    });
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(5), read.read(&mut buf)).await {
            Err(_) => break false,
            Ok(Ok(0)) | Ok(Err(_)) => break true,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    };
    writer.abort();
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(
        text.contains(r#""code":"request_timeout""#),
        "the contract's error shape: {text}"
    );
    assert!(closed, "the connection closes after the 408");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn connections_beyond_the_per_address_cap_are_closed_on_accept() {
    let app = TestApp::spawn_with(|c| c.http.max_connections_per_ip = 5).await;
    let server = addr(&app);
    let greedy: IpAddr = "127.0.0.3".parse().unwrap();
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(connect_from(server, greedy).await);
    }
    let mut sixth = connect_from(server, greedy).await;
    let (_, closed) = read_until_closed(&mut sixth, Duration::from_secs(3)).await;
    assert!(closed, "the sixth connection from one address is closed");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(held.iter().all(still_open), "the five admitted stay open");

    // Another client is not affected, and a closed connection frees its place.
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    drop(held.pop());
    let mut again = None;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let mut s = connect_from(server, greedy).await;
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let (text, _) = read_until_closed(&mut s, Duration::from_secs(3)).await;
        if text.starts_with("HTTP/1.1 200") {
            again = Some(text);
            break;
        }
    }
    assert!(
        again.is_some(),
        "the place of a closed connection is free again"
    );
}

#[tokio::test]
async fn connections_beyond_the_total_cap_are_closed_on_accept() {
    let app = TestApp::spawn_with(|c| c.http.max_connections = 6).await;
    let server = addr(&app);
    let mut held = Vec::new();
    for i in 0..6u8 {
        held.push(connect_from(server, IpAddr::from([127, 0, 1, 10 + i])).await);
    }
    let mut seventh = connect_from(server, "127.0.1.50".parse().unwrap()).await;
    let (_, closed) = read_until_closed(&mut seventh, Duration::from_secs(3)).await;
    assert!(closed, "a seventh connection is closed whoever opens it");
    assert!(held.iter().all(still_open));
}

/// 2,000 connections held open by slow clients (half silent, half trickling header lines)
/// from ten addresses, while `/healthz` is probed every 10 ms from another.
#[tokio::test]
async fn healthz_stays_fast_while_2000_slow_connections_are_open() {
    // Client and server ends of 2,000 connections live in this one process.
    let fd_limit = api::server::raise_fd_limit().unwrap_or(0);
    assert!(
        fd_limit >= 5_000,
        "open-file limit {fd_limit} is too low for this test"
    );
    let app = TestApp::spawn_with(|c| {
        // Long enough that every slow connection stays open through the probes.
        c.http.header_read_timeout = Duration::from_secs(60);
    })
    .await;
    let server = addr(&app);
    let mut silent = Vec::new();
    let mut trickling = Vec::new();
    for i in 0..2_000u32 {
        let from = IpAddr::from([127, 0, 2, 10 + (i % 10) as u8]);
        let mut s = connect_from(server, from).await;
        if i % 2 == 0 {
            silent.push(s);
        } else {
            s.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();
            trickling.push(s);
        }
    }
    let trickler = tokio::spawn(async move {
        for round in 0..20 {
            for s in trickling.iter_mut() {
                let _ = s.write_all(format!("X-{round}: b\r\n").as_bytes()).await;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        trickling
    });

    let probe = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let url = app.url("/healthz");
    let mut times = Vec::new();
    let mut failures = 0;
    let until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < until {
        let t = Instant::now();
        match probe.get(&url).send().await {
            Ok(r) if r.status() == 200 => times.push(t.elapsed()),
            _ => failures += 1,
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let trickling = trickler.await.unwrap();
    let open = silent
        .iter()
        .chain(trickling.iter())
        .filter(|s| still_open(s))
        .count();
    times.sort();
    let p99 = times[(times.len() * 99 / 100).min(times.len() - 1)];
    let max = *times.last().unwrap();
    println!(
        "healthz under 2,000 slow connections: {} probes, p50 {:?}, p99 {p99:?}, max {max:?}, {failures} failed, {open} slow connections open",
        times.len(),
        times[times.len() / 2]
    );
    assert_eq!(open, 2_000, "the slow connections were admitted and held");
    assert_eq!(failures, 0);
    assert!(times.len() >= 50, "only {} probes in 3 s", times.len());
    assert!(p99 < Duration::from_millis(250), "p99 {p99:?}");
}
