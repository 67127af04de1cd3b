//! Test support shared by the crates' integration tests.

pub mod db;
pub mod proxy;
pub mod s3;
pub mod smtp;

use std::{path::PathBuf, sync::Arc, time::Duration};

use domain::infra::config::{CaptchaConfig, Config, MailConfig, StorageConfig};

pub use db::TestDb;
pub use proxy::TcpProxy;
pub use s3::S3Server;
pub use smtp::SmtpServer;

/// A scratch folder under `$TMPDIR/kyc-test/`, unique per call. Folders there older than a day
/// are removed once per test process, so outboxes and stored files do not pile up across runs.
pub fn scratch_dir(label: &str) -> PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let root = std::env::temp_dir().join("kyc-test");
    SWEPT.call_once(|| sweep_scratch(&root, Duration::from_secs(24 * 3600)));
    let dir = root.join(format!("{label}-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("creating a scratch dir");
    dir
}

fn sweep_scratch(root: &std::path::Path, older_than: Duration) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > older_than);
        if old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A configuration for tests: outbox mail and local storage in scratch folders, no captcha,
/// quick heartbeats and retries so that failure paths finish within seconds.
pub fn config(database_url: &str) -> Config {
    let root = scratch_dir("app");
    Config {
        database_url: database_url.to_owned(),
        database_max_connections: 10,
        database_listen_url: None,
        redis_url: None,
        host: "127.0.0.1".into(),
        port: 0,
        public_url: "http://localhost:8080".into(),
        platform_domain: "localhost".into(),
        jwt_secret: "test-jwt-secret-of-at-least-32-characters".into(),
        session_ttl: Duration::from_secs(3600),
        encryption_key: [42u8; 32],
        link_signing_key: "test-link-signing-key-of-32-characters!".into(),
        mail: MailConfig::Outbox {
            dir: root.join("outbox"),
        },
        mail_from: "KYC Platform <no-reply@localhost>".into(),
        contact_email: "sales@provider.test".into(),
        storage: StorageConfig::Local {
            dir: root.join("storage"),
        },
        captcha: CaptchaConfig::Off,
        web_dist: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/dist")),
        worker_concurrency: 4,
        worker_fetch_batch: 10,
        worker_heartbeat: Duration::from_secs(1),
        worker_give_up: Duration::from_secs(300),
        job_retry_base: Duration::from_millis(200),
        upstream_timeout: Duration::from_secs(5),
        upstream_base_url: "http://127.0.0.1:9".into(),
        gateway: Default::default(),
        ip_hits_schedule: "0 * * * * *".into(),
        job_retention: Duration::from_secs(168 * 3600),
        exports: Default::default(),
        rate_limits: Default::default(),
        partner_smtp_allow_private: false,
        webhook_allow_private: false,
        // The tests' HTTP client is on loopback and names its client address in
        // X-Forwarded-For, as a same-host reverse proxy would.
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap(), "::1/128".parse().unwrap()],
        metrics_token: None,
        worker_metrics_port: None,
        http: Default::default(),
        // Tests' fake upstreams listen on loopback.
        upstream_allow_private: true,
    }
}

pub fn shared(config: Config) -> Arc<Config> {
    Arc::new(config)
}

/// The `.eml` files in an outbox folder, oldest first.
pub fn outbox(config: &Config) -> Vec<String> {
    let MailConfig::Outbox { dir } = &config.mail else {
        return vec![];
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

/// Polls `check` every 50 ms until it returns `Some` or `timeout` passes.
pub async fn eventually<T, F, Fut>(timeout: Duration, mut check: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(v) = check().await {
            return Some(v);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One message of the outbox, decoded: recipient, subject and plain text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxMail {
    pub to: String,
    pub subject: String,
    pub text: String,
}

/// The outbox's messages (see [`outbox`]), oldest first, decoded.
pub fn outbox_mails(config: &Config) -> Vec<OutboxMail> {
    outbox(config).iter().map(|raw| parse_mail(raw)).collect()
}

/// Decodes an `.eml` as the Mail page does (`domain::mail::outbox::parse`).
pub fn parse_mail(raw: &str) -> OutboxMail {
    let m = domain::mail::outbox::parse("", raw);
    OutboxMail {
        to: m.to,
        subject: m.subject,
        text: m.text,
    }
}
