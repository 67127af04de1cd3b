//! The worker binary started as ops would start it, for the tests that kill it.

use std::process::{Child, Command, Stdio};

/// A worker process on `db_url`, mailing through the test SMTP server on `smtp_port`, with
/// one-second heartbeats and `extra` settings.
pub fn spawn_worker(db_url: &str, smtp_port: u16, extra: &[(&str, &str)]) -> Child {
    let dir = testkit::scratch_dir("worker-cwd");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_worker"));
    cmd.current_dir(&dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", db_url)
        .env("JWT_SECRET", "test-jwt-secret-of-at-least-32-characters")
        .env("ENCRYPTION_KEY", "2a".repeat(32))
        .env(
            "LINK_SIGNING_KEY",
            "test-link-signing-key-of-32-characters!",
        )
        .env("MAIL", "smtp")
        .env("SMTP_HOST", "127.0.0.1")
        .env("SMTP_PORT", smtp_port.to_string())
        .env("SMTP_TLS", "none")
        .env("WORKER_HEARTBEAT_SECS", "1")
        .env("JOB_RETRY_BASE_MS", "200")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // Its log, kept in its scratch folder for a failing test's post-mortem.
    if let Ok(log) = std::fs::File::create(dir.join("worker.log")) {
        if let Ok(copy) = log.try_clone() {
            cmd.stdout(copy);
        }
        cmd.stderr(log);
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd.spawn().expect("starting the worker binary")
}
