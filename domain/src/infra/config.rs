//! Configuration from the environment (twelve-factor). A `.env` file fills in what the
//! environment does not set; the environment always wins. Every setting is read and checked
//! here, once, so a missing or malformed one stops the process with a single line naming it.

use std::{env, fmt, path::PathBuf, str::FromStr, time::Duration};

/// A setting that is missing or cannot be parsed; printed as one line naming the variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub var: &'static str,
    pub problem: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "configuration error: {} {}", self.var, self.problem)
    }
}

impl std::error::Error for ConfigError {}

/// Loads `.env` (if present) without overriding variables already in the environment.
pub fn load_dotenv() {
    let _ = dotenvy::dotenv();
}

fn raw(var: &'static str) -> Option<String> {
    env::var(var)
        .ok()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

fn required(var: &'static str) -> Result<String, ConfigError> {
    raw(var).ok_or(ConfigError {
        var,
        problem: "is not set".into(),
    })
}

fn parsed<T: FromStr>(var: &'static str, default: T) -> Result<T, ConfigError> {
    match raw(var) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| ConfigError {
            var,
            problem: format!("has an invalid value {v:?}"),
        }),
    }
}

fn one_of(var: &'static str, default: &str, allowed: &[&str]) -> Result<String, ConfigError> {
    let v = raw(var)
        .unwrap_or_else(|| default.to_owned())
        .to_lowercase();
    if allowed.contains(&v.as_str()) {
        Ok(v)
    } else {
        Err(ConfigError {
            var,
            problem: format!("must be one of {}, not {v:?}", allowed.join(", ")),
        })
    }
}

fn secret(var: &'static str, min_len: usize) -> Result<String, ConfigError> {
    let v = required(var)?;
    if v.len() < min_len {
        return Err(ConfigError {
            var,
            problem: format!("must be at least {min_len} characters"),
        });
    }
    Ok(v)
}

fn cron_expr(var: &'static str, default: &str) -> Result<String, ConfigError> {
    let v = raw(var).unwrap_or_else(|| default.to_owned());
    if v.split_whitespace().count() != 6 {
        return Err(ConfigError {
            var,
            problem: format!("must be a 6-field cron expression (with seconds), not {v:?}"),
        });
    }
    Ok(v)
}

/// `DATABASE_URL` alone: enough for `api migrate` and the seed.
pub fn database_url() -> Result<String, ConfigError> {
    let url = required("DATABASE_URL")?;
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(ConfigError {
            var: "DATABASE_URL",
            problem: "must be a postgres:// URL".into(),
        });
    }
    Ok(url)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailConfig {
    /// Every message becomes one `.eml` file in this folder.
    Outbox {
        dir: PathBuf,
    },
    Smtp(SmtpConfig),
}

#[derive(Clone, PartialEq, Eq)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub user: Option<String>,
    pub password: Option<String>,
    /// `none` (plain, for local relays), `starttls` or `tls` (implicit TLS).
    pub tls: String,
    /// The name the server's certificate must carry when `host` is an address pinned after a
    /// DNS check (a partner's server); `None`: `host` itself.
    pub tls_name: Option<String>,
}

impl fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("tls", &self.tls)
            .field("tls_name", &self.tls_name)
            .finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageConfig {
    /// A local folder; links are HMAC-signed and served by the api under /files.
    Local {
        dir: PathBuf,
    },
    S3(S3Config),
}

#[derive(Clone, PartialEq, Eq)]
pub struct S3Config {
    pub bucket: String,
    pub region: String,
    /// For S3-compatible stores (MinIO, R2, a local test server); path-style addressing.
    pub endpoint: Option<String>,
    pub access_key_id: String,
    pub secret_access_key: String,
}

impl fmt::Debug for S3Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("S3Config")
            .field("bucket", &self.bucket)
            .field("region", &self.region)
            .field("endpoint", &self.endpoint)
            .field("access_key_id", &self.access_key_id)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptchaConfig {
    Builtin,
    Recaptcha {
        secret: String,
    },
    /// Tests only: the captcha field is ignored.
    Off,
}

/// Everything `api serve` and `worker` need.
#[derive(Clone)]
pub struct Config {
    pub database_url: String,
    pub database_max_connections: u32,
    /// Where a worker's one `LISTEN` connection goes (`DATABASE_LISTEN_URL`), when
    /// `DATABASE_URL` points at a pooler in transaction mode, which cannot carry `LISTEN`;
    /// unset, `DATABASE_URL`.
    pub database_listen_url: Option<String>,
    pub redis_url: Option<String>,
    pub host: String,
    pub port: u16,
    /// Where people reach the platform, used in mailed links: `http://localhost:8080`.
    pub public_url: String,
    /// Partner sites answer at `{subdomain}.{platform_domain}`.
    pub platform_domain: String,
    pub jwt_secret: String,
    pub session_ttl: Duration,
    /// 32 bytes for AES-256-GCM, given as 64 hex characters.
    pub encryption_key: [u8; 32],
    /// Signs upload and download links of local storage.
    pub link_signing_key: String,
    pub mail: MailConfig,
    pub mail_from: String,
    /// The provider's own address: the contact form writes to it.
    pub contact_email: String,
    pub storage: StorageConfig,
    pub captcha: CaptchaConfig,
    pub web_dist: PathBuf,
    /// Jobs a worker process runs at once, all kinds together (`WORKER_CONCURRENCY`).
    pub worker_concurrency: usize,
    /// Jobs a worker fetches per round trip at most (`WORKER_FETCH_BATCH`); never more than
    /// it has free slots for, so no worker holds jobs another could start.
    pub worker_fetch_batch: usize,
    pub worker_heartbeat: Duration,
    /// A worker whose queue stays out of reach this long exits non-zero
    /// (`WORKER_GIVE_UP_SECS`), for its process manager to restart it.
    pub worker_give_up: Duration,
    /// First retry delay of a failed job; doubled per attempt.
    pub job_retry_base: Duration,
    pub upstream_timeout: Duration,
    /// The catalogue's upstream: calls go to `{base}{endpoint}` unless the partner's own API base
    /// URL is set and switched on.
    pub upstream_base_url: String,
    /// The metered gateway: calls per minute per API key, and how long a gateway transaction may
    /// stay pending before `settle_pending` refunds it (longer than any upstream call can take).
    pub gateway: GatewayConfig,
    /// Cron expression (with seconds) of the periodic `aggregate_ip_hits` job.
    pub ip_hits_schedule: String,
    /// Finished jobs (done, or failed for good) are deleted this long after they finished
    /// (`JOB_RETENTION_HOURS`, default a week), by the hourly `prune_jobs` job.
    pub job_retention: Duration,
    /// CSV exports: rows per part, how long files are kept, how long a download link lives.
    pub exports: ExportConfig,
    /// Per-IP requests per minute on the routes people could hammer.
    pub rate_limits: RateLimitConfig,
    /// Lets partners' SMTP hosts resolve to loopback, private, link-local or metadata
    /// addresses (`PARTNER_SMTP_ALLOW_PRIVATE`, default false): only for a lab or tests.
    pub partner_smtp_allow_private: bool,
    /// Lets webhook endpoint URLs resolve to loopback, private, link-local or metadata
    /// addresses (`WEBHOOK_ALLOW_PRIVATE`, default false): only for a lab or tests.
    pub webhook_allow_private: bool,
    /// Reverse proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`); empty: none,
    /// the TCP peer is the client.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// `GET /metrics` wants `Authorization: Bearer {this}` when set (`METRICS_TOKEN`); unset,
    /// it is open, for a scraper on a private network.
    pub metrics_token: Option<String>,
    /// How the api's HTTP server treats slow or greedy clients (`HTTP_*`).
    pub http: HttpConfig,
    /// Lets partners' API base URLs resolve to loopback, private, link-local or metadata
    /// addresses (`UPSTREAM_ALLOW_PRIVATE`, default false): only for a lab or tests.
    /// `UPSTREAM_BASE_URL` itself is the operator's and always trusted.
    pub upstream_allow_private: bool,
    /// Each worker serves its own `/metrics` on this port (`WORKER_METRICS_PORT`, on `HOST`);
    /// unset, it serves none.
    pub worker_metrics_port: Option<u16>,
}

/// Limits of the api's HTTP server against slow clients (slowloris) and connection floods.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpConfig {
    /// A request's line and headers must arrive within this (`HTTP_HEADER_TIMEOUT_SECS`,
    /// default 10); it also ends a kept-alive connection idle that long.
    pub header_read_timeout: Duration,
    /// A request's whole body must arrive within this after its headers
    /// (`HTTP_BODY_TIMEOUT_SECS`, default 60), else 408 and the connection closes.
    pub body_read_timeout: Duration,
    /// Open connections at once, all clients together (`HTTP_MAX_CONNECTIONS`, default 10000,
    /// lowered to fit the process's file-descriptor limit); more are closed on accept.
    pub max_connections: usize,
    /// Open connections at once from one client address (IPv6: one /64), unless it is a
    /// trusted proxy (`HTTP_MAX_CONNECTIONS_PER_IP`, default 256).
    pub max_connections_per_ip: usize,
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(60),
            max_connections: 10_000,
            max_connections_per_ip: 256,
        }
    }
}

fn positive<T: FromStr + PartialEq + Default + Copy>(
    var: &'static str,
    default: T,
) -> Result<T, ConfigError> {
    let v: T = parsed(var, default)?;
    if v == T::default() {
        return Err(ConfigError {
            var,
            problem: "must be at least 1".into(),
        });
    }
    Ok(v)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatewayConfig {
    pub rate_limit_per_minute: u32,
    pub settle_after: Duration,
    /// Cron expression (with seconds) of the periodic `settle_pending` job.
    pub settle_schedule: String,
    /// Rows per second one batch runs at (`BATCH_ROWS_PER_SECOND`): a batch must not starve the
    /// upstream or the partner's other calls.
    pub batch_rows_per_second: u32,
    /// How long a call's answer is kept, sealed, for `GET /verify/transactions/{id}`
    /// (`RESULT_RETENTION_HOURS`, default 24); zero keeps none.
    pub result_retention: Duration,
}

impl Default for GatewayConfig {
    fn default() -> Self {
        Self {
            rate_limit_per_minute: 600,
            settle_after: Duration::from_secs(120),
            settle_schedule: "30 * * * * *".into(),
            batch_rows_per_second: 20,
            result_retention: Duration::from_secs(24 * 3600),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportConfig {
    /// At most this many rows per CSV part (`EXPORT_PART_ROWS`, default 100,000): a spreadsheet
    /// opens each part, and each part is uploaded as soon as it fills.
    pub part_rows: u64,
    /// Export files (and their rows) are removed this long after the export finished
    /// (`EXPORT_RETENTION_HOURS`, default 168).
    pub retention: Duration,
    /// Lifetime of a download link (`EXPORT_LINK_TTL_SECS`, default 3600); every read of an
    /// export signs fresh ones.
    pub link_ttl: Duration,
}

impl Default for ExportConfig {
    fn default() -> Self {
        Self {
            part_rows: 100_000,
            retention: Duration::from_secs(168 * 3600),
            link_ttl: Duration::from_secs(3600),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateLimitConfig {
    pub sign_in: u32,
    pub sign_up: u32,
    pub forgot_password: u32,
    pub contact: u32,
    pub captcha: u32,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        Self {
            sign_in: 10,
            sign_up: 10,
            forgot_password: 5,
            contact: 5,
            captcha: 60,
        }
    }
}

/// Most requests a minute a limit may allow: one a microsecond, the finest spacing the limiters
/// keep.
pub const MAX_PER_MINUTE: u32 = 60_000_000;

fn per_minute(var: &'static str, default: u32) -> Result<u32, ConfigError> {
    per_minute_in_range(var, parsed(var, default)?)
}

fn per_minute_in_range(var: &'static str, n: u32) -> Result<u32, ConfigError> {
    if n == 0 || n > MAX_PER_MINUTE {
        return Err(ConfigError {
            var,
            problem: format!("must be between 1 and {MAX_PER_MINUTE} (requests per minute)"),
        });
    }
    Ok(n)
}

/// `TRUSTED_PROXIES`: addresses or CIDRs, comma separated. A bare address is a network of one.
pub fn trusted_proxies(list: &str) -> Result<Vec<ipnet::IpNet>, ConfigError> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<ipnet::IpNet>()
                .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                // `10.0.0.1/8` has host bits set; keeping them would hide a typo, so refuse it.
                .ok()
                .filter(|n| n.trunc() == *n)
                .ok_or_else(|| ConfigError { var: "TRUSTED_PROXIES", problem: format!("has an invalid address or CIDR {s:?}") })
        })
        .collect()
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Secrets stay out of logs.
        f.debug_struct("Config")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("public_url", &self.public_url)
            .field("platform_domain", &self.platform_domain)
            .field("mail", &self.mail)
            .field("storage", &self.storage)
            .field("redis", &self.redis_url.is_some())
            .field("worker_concurrency", &self.worker_concurrency)
            .field("worker_fetch_batch", &self.worker_fetch_batch)
            .field("worker_give_up", &self.worker_give_up)
            .finish_non_exhaustive()
    }
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        let port: u16 = parsed("PORT", 8080)?;
        let public_url = raw("PUBLIC_URL")
            .unwrap_or_else(|| format!("http://localhost:{port}"))
            .trim_end_matches('/')
            .to_owned();
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(ConfigError {
                var: "PUBLIC_URL",
                problem: "must start with http:// or https://".into(),
            });
        }
        let mail = match one_of("MAIL", "outbox", &["outbox", "smtp"])?.as_str() {
            "smtp" => MailConfig::Smtp(SmtpConfig {
                host: required("SMTP_HOST")?,
                port: parsed("SMTP_PORT", 587)?,
                user: raw("SMTP_USER"),
                password: raw("SMTP_PASSWORD"),
                tls: one_of("SMTP_TLS", "starttls", &["none", "starttls", "tls"])?,
                tls_name: None,
            }),
            _ => MailConfig::Outbox {
                dir: raw("MAIL_OUTBOX_DIR")
                    .unwrap_or_else(|| ".data/outbox".into())
                    .into(),
            },
        };
        let storage = match one_of("STORAGE", "local", &["local", "s3"])?.as_str() {
            "s3" => StorageConfig::S3(S3Config {
                bucket: required("S3_BUCKET")?,
                region: raw("S3_REGION").unwrap_or_else(|| "us-east-1".into()),
                endpoint: raw("S3_ENDPOINT"),
                access_key_id: required("S3_ACCESS_KEY_ID")?,
                secret_access_key: required("S3_SECRET_ACCESS_KEY")?,
            }),
            _ => StorageConfig::Local {
                dir: raw("STORAGE_DIR")
                    .unwrap_or_else(|| ".data/storage".into())
                    .into(),
            },
        };
        let captcha = match one_of("CAPTCHA", "builtin", &["builtin", "recaptcha", "off"])?.as_str()
        {
            "recaptcha" => CaptchaConfig::Recaptcha {
                secret: required("RECAPTCHA_SECRET")?,
            },
            "off" => CaptchaConfig::Off,
            _ => CaptchaConfig::Builtin,
        };
        let key_hex = required("ENCRYPTION_KEY")?;
        let encryption_key = hex::decode(&key_hex)
            .ok()
            .and_then(|b| <[u8; 32]>::try_from(b).ok())
            .ok_or(ConfigError {
                var: "ENCRYPTION_KEY",
                problem: "must be 64 hex characters (32 bytes)".into(),
            })?;
        let concurrency: usize = parsed("WORKER_CONCURRENCY", 4)?;
        if concurrency == 0 || concurrency > 256 {
            return Err(ConfigError {
                var: "WORKER_CONCURRENCY",
                problem: "must be between 1 and 256".into(),
            });
        }
        Ok(Self {
            database_url: database_url()?,
            database_listen_url: raw("DATABASE_LISTEN_URL"),
            database_max_connections: parsed("DATABASE_MAX_CONNECTIONS", 20)?,
            redis_url: raw("REDIS_URL"),
            host: raw("HOST").unwrap_or_else(|| "0.0.0.0".into()),
            port,
            public_url,
            platform_domain: raw("PLATFORM_DOMAIN")
                .unwrap_or_else(|| "localhost".into())
                .to_lowercase(),
            jwt_secret: secret("JWT_SECRET", 32)?,
            session_ttl: Duration::from_secs(60 * 60 * parsed::<u64>("SESSION_TTL_HOURS", 12)?),
            encryption_key,
            link_signing_key: secret("LINK_SIGNING_KEY", 32)?,
            mail,
            mail_from: raw("MAIL_FROM")
                .unwrap_or_else(|| "KYC Platform <no-reply@localhost>".into()),
            contact_email: raw("CONTACT_EMAIL").unwrap_or_else(|| "sales@localhost".into()),
            storage,
            captcha,
            web_dist: raw("WEB_DIST").unwrap_or_else(|| "web/dist".into()).into(),
            worker_concurrency: concurrency,
            worker_fetch_batch: {
                let batch: usize = parsed("WORKER_FETCH_BATCH", 10)?;
                if batch == 0 || batch > 1_000 {
                    return Err(ConfigError {
                        var: "WORKER_FETCH_BATCH",
                        problem: "must be between 1 and 1000".into(),
                    });
                }
                batch
            },
            worker_heartbeat: Duration::from_secs(parsed("WORKER_HEARTBEAT_SECS", 30)?),
            worker_give_up: Duration::from_secs(parsed("WORKER_GIVE_UP_SECS", 300)?),
            job_retry_base: Duration::from_millis(parsed("JOB_RETRY_BASE_MS", 2_000)?),
            upstream_timeout: Duration::from_millis(parsed("UPSTREAM_TIMEOUT_MS", 15_000)?),
            upstream_base_url: {
                let url =
                    raw("UPSTREAM_BASE_URL").unwrap_or_else(|| "http://127.0.0.1:9090".into());
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(ConfigError {
                        var: "UPSTREAM_BASE_URL",
                        problem: "must start with http:// or https://".into(),
                    });
                }
                url.trim_end_matches('/').to_owned()
            },
            gateway: {
                let d = GatewayConfig::default();
                let settle_after = Duration::from_secs(parsed(
                    "SETTLE_PENDING_AFTER_SECS",
                    d.settle_after.as_secs(),
                )?);
                GatewayConfig {
                    rate_limit_per_minute: per_minute(
                        "RATE_LIMIT_GATEWAY",
                        d.rate_limit_per_minute,
                    )?,
                    settle_after,
                    settle_schedule: cron_expr("SETTLE_PENDING_SCHEDULE", &d.settle_schedule)?,
                    batch_rows_per_second: match parsed(
                        "BATCH_ROWS_PER_SECOND",
                        d.batch_rows_per_second,
                    )? {
                        0 => {
                            return Err(ConfigError {
                                var: "BATCH_ROWS_PER_SECOND",
                                problem: "must be at least 1 (rows per second)".into(),
                            });
                        }
                        n => n,
                    },
                    result_retention: {
                        let hours: u64 = parsed(
                            "RESULT_RETENTION_HOURS",
                            d.result_retention.as_secs() / 3600,
                        )?;
                        if hours > 24 * 366 {
                            return Err(ConfigError {
                                var: "RESULT_RETENTION_HOURS",
                                problem: "must be between 0 and 8784".into(),
                            });
                        }
                        Duration::from_secs(hours * 3600)
                    },
                }
            },
            ip_hits_schedule: cron_expr("IP_HITS_SCHEDULE", "0 * * * * *")?,
            job_retention: {
                let hours: u64 = parsed("JOB_RETENTION_HOURS", 168)?;
                if hours == 0 || hours > 24 * 366 {
                    return Err(ConfigError {
                        var: "JOB_RETENTION_HOURS",
                        problem: "must be between 1 and 8784".into(),
                    });
                }
                Duration::from_secs(hours * 3600)
            },
            exports: {
                let d = ExportConfig::default();
                let part_rows: u64 = parsed("EXPORT_PART_ROWS", d.part_rows)?;
                if !(1..=1_000_000).contains(&part_rows) {
                    return Err(ConfigError {
                        var: "EXPORT_PART_ROWS",
                        problem: "must be between 1 and 1000000".into(),
                    });
                }
                let hours: u64 = parsed("EXPORT_RETENTION_HOURS", 168)?;
                if hours == 0 || hours > 24 * 366 {
                    return Err(ConfigError {
                        var: "EXPORT_RETENTION_HOURS",
                        problem: "must be between 1 and 8784".into(),
                    });
                }
                // SigV4 presigned links live a week at most.
                let ttl: u64 = parsed("EXPORT_LINK_TTL_SECS", d.link_ttl.as_secs())?;
                if ttl == 0 || ttl > 7 * 24 * 3600 {
                    return Err(ConfigError {
                        var: "EXPORT_LINK_TTL_SECS",
                        problem: "must be between 1 and 604800".into(),
                    });
                }
                ExportConfig {
                    part_rows,
                    retention: Duration::from_secs(hours * 3600),
                    link_ttl: Duration::from_secs(ttl),
                }
            },
            rate_limits: {
                let d = RateLimitConfig::default();
                RateLimitConfig {
                    sign_in: per_minute("RATE_LIMIT_SIGN_IN", d.sign_in)?,
                    sign_up: per_minute("RATE_LIMIT_SIGN_UP", d.sign_up)?,
                    forgot_password: per_minute("RATE_LIMIT_FORGOT_PASSWORD", d.forgot_password)?,
                    contact: per_minute("RATE_LIMIT_CONTACT", d.contact)?,
                    captcha: per_minute("RATE_LIMIT_CAPTCHA", d.captcha)?,
                }
            },
            partner_smtp_allow_private: parsed("PARTNER_SMTP_ALLOW_PRIVATE", false)?,
            webhook_allow_private: parsed("WEBHOOK_ALLOW_PRIVATE", false)?,
            trusted_proxies: trusted_proxies(raw("TRUSTED_PROXIES").as_deref().unwrap_or(""))?,
            metrics_token: raw("METRICS_TOKEN"),
            worker_metrics_port: match raw("WORKER_METRICS_PORT") {
                None => None,
                Some(_) => Some(parsed("WORKER_METRICS_PORT", 0u16)?),
            },
            http: {
                let d = HttpConfig::default();
                HttpConfig {
                    header_read_timeout: Duration::from_secs(positive(
                        "HTTP_HEADER_TIMEOUT_SECS",
                        d.header_read_timeout.as_secs(),
                    )?),
                    body_read_timeout: Duration::from_secs(positive(
                        "HTTP_BODY_TIMEOUT_SECS",
                        d.body_read_timeout.as_secs(),
                    )?),
                    max_connections: positive("HTTP_MAX_CONNECTIONS", d.max_connections)?,
                    max_connections_per_ip: positive(
                        "HTTP_MAX_CONNECTIONS_PER_IP",
                        d.max_connections_per_ip,
                    )?,
                }
            },
            upstream_allow_private: parsed("UPSTREAM_ALLOW_PRIVATE", false)?,
        })
    }

    /// The branded site of a partner.
    pub fn partner_site_url(&self, subdomain: &str) -> String {
        let (scheme, rest) = self
            .public_url
            .split_once("://")
            .unwrap_or(("http", &self.public_url));
        let port = rest
            .rsplit_once(':')
            .map(|(_, p)| format!(":{p}"))
            .unwrap_or_default();
        format!("{scheme}://{subdomain}.{}{port}", self.platform_domain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_is_between_one_and_one_a_microsecond() {
        assert_eq!(per_minute_in_range("RATE_LIMIT_GATEWAY", 1).unwrap(), 1);
        assert_eq!(
            per_minute_in_range("RATE_LIMIT_GATEWAY", MAX_PER_MINUTE).unwrap(),
            MAX_PER_MINUTE
        );
        for bad in [0, MAX_PER_MINUTE + 1, u32::MAX] {
            let e = per_minute_in_range("RATE_LIMIT_GATEWAY", bad).unwrap_err();
            assert_eq!(e.var, "RATE_LIMIT_GATEWAY");
            assert!(
                e.problem.contains("between 1 and 60000000"),
                "{}",
                e.problem
            );
        }
    }
}
