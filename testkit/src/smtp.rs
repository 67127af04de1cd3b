//! A small but real SMTP server on loopback (RFC 5321 subset: HELO/EHLO, MAIL, RCPT, DATA,
//! RSET, NOOP, QUIT). Tests point the platform's SMTP settings at it and read what arrived.
//! `stall_first` makes it hold the first message's final reply forever, as a server would
//! when the client dies mid-delivery, so that message is never accepted.

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicBool, Ordering},
};

use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpListener,
};

#[derive(Clone, Default)]
pub struct SmtpServer {
    pub port: u16,
    received: Arc<Mutex<Vec<String>>>,
    auths: Arc<Mutex<Vec<String>>>,
    stall_next: Arc<AtomicBool>,
}

impl SmtpServer {
    pub async fn start() -> Self {
        Self::start_with(false).await
    }

    pub async fn start_with(stall_first: bool) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = SmtpServer {
            port: listener.local_addr().unwrap().port(),
            received: Default::default(),
            auths: Default::default(),
            stall_next: Arc::new(AtomicBool::new(stall_first)),
        };
        let s = server.clone();
        tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                let s = s.clone();
                tokio::spawn(async move {
                    let _ = s.session(sock).await;
                });
            }
        });
        server
    }

    /// Raw messages (headers and body) accepted so far.
    pub fn received(&self) -> Vec<String> {
        self.received.lock().unwrap().clone()
    }

    /// Whether the message `start_with(true)` stalls has arrived (and is being held).
    pub fn stalled_one(&self) -> bool {
        !self.stall_next.load(Ordering::SeqCst)
    }

    /// `user:password` of each AUTH PLAIN accepted (any credentials are accepted).
    pub fn auths(&self) -> Vec<String> {
        self.auths.lock().unwrap().clone()
    }

    async fn session(&self, sock: tokio::net::TcpStream) -> std::io::Result<()> {
        let (r, mut w) = sock.into_split();
        let mut lines = BufReader::new(r).lines();
        w.write_all(b"220 test-smtp ready\r\n").await?;
        while let Some(line) = lines.next_line().await? {
            let verb = line
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            match verb.as_str() {
                "EHLO" => {
                    w.write_all(
                        b"250-test-smtp\r\n250-8BITMIME\r\n250-AUTH PLAIN\r\n250 SIZE 10485760\r\n",
                    )
                    .await?
                }
                "AUTH" => {
                    // AUTH PLAIN <base64("\0user\0password")>, as lettre sends it.
                    use base64::Engine;
                    let arg = line.split_whitespace().nth(2).unwrap_or("");
                    let decoded = base64::engine::general_purpose::STANDARD
                        .decode(arg)
                        .unwrap_or_default();
                    let parts: Vec<String> = decoded
                        .split(|b| *b == 0)
                        .map(|p| String::from_utf8_lossy(p).into_owned())
                        .collect();
                    self.auths
                        .lock()
                        .unwrap()
                        .push(parts.get(1..).map(|p| p.join(":")).unwrap_or_default());
                    w.write_all(b"235 2.7.0 Authentication successful\r\n")
                        .await?
                }
                "HELO" | "MAIL" | "RCPT" | "RSET" | "NOOP" => w.write_all(b"250 OK\r\n").await?,
                "DATA" => {
                    w.write_all(b"354 end with <CRLF>.<CRLF>\r\n").await?;
                    let mut body = String::new();
                    while let Some(l) = lines.next_line().await? {
                        if l == "." {
                            break;
                        }
                        body.push_str(
                            l.strip_prefix('.')
                                .filter(|_| l.starts_with(".."))
                                .unwrap_or(&l),
                        );
                        body.push_str("\r\n");
                    }
                    if self.stall_next.swap(false, Ordering::SeqCst) {
                        // Never answer: the client must give up or die; nothing is accepted.
                        std::future::pending::<()>().await;
                    }
                    self.received.lock().unwrap().push(body);
                    w.write_all(b"250 OK queued\r\n").await?;
                }
                "QUIT" => {
                    w.write_all(b"221 bye\r\n").await?;
                    return Ok(());
                }
                _ => w.write_all(b"502 command not implemented\r\n").await?,
            }
        }
        Ok(())
    }
}
