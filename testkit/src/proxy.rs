//! A TCP proxy between a process under test and Postgres (or any server) that a test can make
//! misbehave: cut every open connection at once (a flapping network, a pooler restart), or
//! refuse new ones for a while (a database restart, a failover).

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
};

use tokio::{
    net::{TcpListener, TcpStream},
    sync::watch,
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Accept,
    Refuse,
}

pub struct TcpProxy {
    pub port: u16,
    /// Bumped by every cut: a connection opened before it ends.
    epoch: watch::Sender<u64>,
    mode: watch::Sender<Mode>,
    open: Arc<Mutex<usize>>,
    task: tokio::task::JoinHandle<()>,
}

impl TcpProxy {
    /// A proxy on a free loopback port to `target`.
    pub async fn start(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binding the proxy");
        let port = listener.local_addr().unwrap().port();
        let (epoch, _) = watch::channel(0u64);
        let (mode, _) = watch::channel(Mode::Accept);
        let open = Arc::new(Mutex::new(0usize));
        let task = tokio::spawn(serve(
            listener,
            port,
            target,
            epoch.clone(),
            mode.subscribe(),
            open.clone(),
        ));
        Self {
            port,
            epoch,
            mode,
            open,
            task,
        }
    }

    /// A proxy to the Postgres of `database_url`, and the same URL through the proxy.
    pub async fn postgres(database_url: &str) -> (Self, String) {
        let url = url_parts(database_url);
        let target: SocketAddr = tokio::net::lookup_host(&url.host_port)
            .await
            .expect("resolving the database host")
            .next()
            .expect("an address for the database host");
        let proxy = Self::start(target).await;
        let through = format!("{}127.0.0.1:{}{}", url.before, proxy.port, url.after);
        (proxy, through)
    }

    /// Ends every open connection, as a network drop does; new ones are still accepted.
    pub fn cut(&self) {
        self.epoch.send_modify(|e| *e += 1);
    }

    /// Cuts every open connection and refuses new ones (the port is closed) until
    /// [`TcpProxy::accept`].
    pub fn refuse(&self) {
        self.mode.send_replace(Mode::Refuse);
        self.cut();
    }

    /// Accepts connections again.
    pub fn accept(&self) {
        self.mode.send_replace(Mode::Accept);
    }

    /// Connections open through the proxy now.
    pub fn open_connections(&self) -> usize {
        *self.open.lock().unwrap()
    }
}

impl Drop for TcpProxy {
    fn drop(&mut self) {
        self.task.abort();
        self.cut();
    }
}

struct UrlParts {
    before: String,
    host_port: String,
    after: String,
}

/// `postgres://user@host:port/db` → (`postgres://user@`, `host:port`, `/db`).
fn url_parts(url: &str) -> UrlParts {
    let scheme_end = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[scheme_end..];
    let path = rest.find('/').unwrap_or(rest.len());
    let authority = &rest[..path];
    let at = authority.rfind('@').map_or(0, |i| i + 1);
    let host_port = &authority[at..];
    let host_port = if host_port.contains(':') {
        host_port.to_owned()
    } else {
        format!("{host_port}:5432")
    };
    UrlParts {
        before: url[..scheme_end + at].to_owned(),
        host_port,
        after: rest[path..].to_owned(),
    }
}

async fn serve(
    first: TcpListener,
    port: u16,
    target: SocketAddr,
    epoch: watch::Sender<u64>,
    mut mode: watch::Receiver<Mode>,
    open: Arc<Mutex<usize>>,
) {
    let mut listener = Some(first);
    loop {
        if *mode.borrow_and_update() == Mode::Refuse {
            // Closing the listening socket: connecting now gets "connection refused".
            listener = None;
            if mode.wait_for(|m| *m == Mode::Accept).await.is_err() {
                return;
            }
        }
        let l = match &listener {
            Some(l) => l,
            None => loop {
                match TcpListener::bind(("127.0.0.1", port)).await {
                    Ok(l) => break listener.insert(l),
                    Err(_) => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
                }
            },
        };
        tokio::select! {
            accepted = l.accept() => {
                let Ok((client, _)) = accepted else { continue };
                let mut cut = epoch.subscribe();
                let open = open.clone();
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(target).await else { return };
                    *open.lock().unwrap() += 1;
                    let (mut client, mut server) = (client, server);
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut.changed() => {}
                    }
                    *open.lock().unwrap() -= 1;
                });
            }
            _ = mode.changed() => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_split_around_the_host() {
        let p = url_parts("postgres://postgres@127.0.0.1:5432/kyc_test_1");
        assert_eq!(
            (p.before.as_str(), p.host_port.as_str(), p.after.as_str()),
            ("postgres://postgres@", "127.0.0.1:5432", "/kyc_test_1")
        );
        let p = url_parts("postgres://localhost/db?sslmode=disable");
        assert_eq!(
            (p.before.as_str(), p.host_port.as_str(), p.after.as_str()),
            ("postgres://", "localhost:5432", "/db?sslmode=disable")
        );
    }
}
