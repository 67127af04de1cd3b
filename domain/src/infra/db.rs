//! The Postgres pool and the schema migrations of `migrations/`.

use std::time::Duration;

use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgListener, PgPoolOptions, PgSslMode},
};

pub async fn connect(url: &str, max_connections: u32) -> Result<PgPool, sqlx::Error> {
    connect_keeping(url, max_connections, 0).await
}

/// Connections an api process keeps open while idle (sqlx's `min_connections`; fewer when its
/// pool is smaller): it starts taking calls with them made, and a burst after a quiet spell does
/// not wait for new ones. A call that waited for a new connection waited for its TCP and TLS
/// handshakes and for the backend to start.
pub const API_WARM_CONNECTIONS: u32 = 4;

/// [`connect`], opening `warm` connections before it returns and keeping that many open.
pub async fn connect_keeping(
    url: &str,
    max_connections: u32,
    warm: u32,
) -> Result<PgPool, sqlx::Error> {
    let options = options(url)?;
    pool_options(max_connections, &options)
        .min_connections(warm.min(max_connections))
        .connect_with(options)
        .await
}

/// `url` as connection options, every connection of the platform's processes made from them.
///
/// A URL that leaves TLS to sqlx's default (`sslmode=prefer`: no `sslmode` in it, no
/// `PGSSLMODE`) and names this host (`localhost`, `127.0.0.0/8`, `::1`) connects without TLS.
/// sqlx 0.9.0 makes its TCP connections with Nagle's algorithm on (see `nodelay`, which can only
/// set TCP_NODELAY once the connection is made), and the TLS handshake's last flight followed by
/// the startup message then waits for the server's delayed acknowledgement: a new connection
/// took 90 to 110 ms over TLS against 6 ms without (`bench gateway-latency`, the first call of a
/// fresh api process waiting for one). Encryption on the loopback interface protects nothing
/// that a reader of this host's memory could not read anyway; a URL that asks for TLS (any
/// `sslmode`, or `PGSSLMODE`) gets exactly what it asks for.
pub fn options(url: &str) -> Result<PgConnectOptions, sqlx::Error> {
    options_with(url, std::env::var_os("PGSSLMODE").is_some())
}

fn options_with(url: &str, pgsslmode_set: bool) -> Result<PgConnectOptions, sqlx::Error> {
    let options: PgConnectOptions = url.parse()?;
    let names_sslmode = url.split_once('?').is_some_and(|(_, query)| {
        query
            .split('&')
            .any(|pair| matches!(pair.split('=').next(), Some("sslmode" | "ssl-mode")))
    });
    let loopback = options.get_socket().is_none() && is_loopback(options.get_host());
    Ok(if loopback && !names_sslmode && !pgsslmode_set {
        options.ssl_mode(PgSslMode::Disable)
    } else {
        options
    })
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_matches(['[', ']'])
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// A connection idle for less than this is handed out without a ping.
pub(crate) const PING_IF_IDLE_FOR: Duration = Duration::from_secs(1);

/// sqlx pings every idle connection before handing it out (`test_before_acquire`): one more
/// round trip in front of every statement the pool runs, the gateway's charging group included,
/// where it measured as much as the group's own statement on a loaded machine. A connection used
/// within the last second is handed out as it is; one idle for longer (the kind a restart of
/// Postgres or a dropped link leaves broken) is still pinged, and replaced when it fails.
/// Every new connection gets TCP_NODELAY (`nodelay`).
fn pool_options(max_connections: u32, options: &PgConnectOptions) -> PgPoolOptions {
    let port = options.get_port();
    PgPoolOptions::new()
        .after_connect(move |_, _| {
            Box::pin(async move {
                super::nodelay::apply(port);
                Ok(())
            })
        })
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move {
                if meta.idle_for >= PING_IF_IDLE_FOR {
                    sqlx::Connection::ping(conn).await?;
                }
                Ok(true)
            })
        })
}

/// A pool whose connections show as `application_name` in `pg_stat_activity`, so that an
/// operator (or a test) can tell a process's connections apart.
pub async fn connect_as(
    url: &str,
    max_connections: u32,
    application_name: &str,
) -> Result<PgPool, sqlx::Error> {
    let options = options(url)?;
    pool_options(max_connections, &options)
        .connect_with(options.application_name(application_name))
        .await
}

/// A connection for `LISTEN`, in a pool of one of its own (as `PgListener::connect` makes it) that
/// never retires it; the listener does not give up when that pool closes. The gateway cache and
/// the job queue each listen on one.
pub async fn listener(options: PgConnectOptions) -> Result<PgListener, sqlx::Error> {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .min_connections(0)
        .max_lifetime(None)
        .idle_timeout(None)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await?;
    let mut listener = PgListener::connect_with(&pool).await?;
    listener.ignore_pool_close_event(true);
    Ok(listener)
}

/// Our own migrations. They share `_sqlx_migrations` with the job queue's, so each migrator
/// ignores versions it does not know instead of refusing to run.
pub fn migrator() -> sqlx::migrate::Migrator {
    let mut m = sqlx::migrate!("../migrations");
    m.set_ignore_missing(true);
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(url: &str, pgsslmode_set: bool) -> PgSslMode {
        options_with(url, pgsslmode_set).unwrap().get_ssl_mode()
    }

    #[test]
    fn this_host_left_to_the_default_connects_without_tls() {
        for url in [
            "postgres://u@127.0.0.1:5432/db",
            "postgres://u@127.0.0.2/db",
            "postgres://u@localhost/db",
            "postgres://u@LOCALHOST:5432/db?application_name=x",
            "postgres://u@[::1]:5432/db",
        ] {
            assert!(matches!(mode(url, false), PgSslMode::Disable), "{url}");
        }
    }

    #[test]
    fn another_host_or_a_chosen_mode_is_left_as_asked() {
        assert!(matches!(
            mode("postgres://u@db.internal:5432/db", false),
            PgSslMode::Prefer
        ));
        assert!(matches!(
            mode("postgres://u@10.0.0.5/db", false),
            PgSslMode::Prefer
        ));
        assert!(matches!(
            mode("postgres://u@127.0.0.1/db?sslmode=require", false),
            PgSslMode::Require
        ));
        assert!(matches!(
            mode(
                "postgres://u@localhost/db?application_name=x&ssl-mode=prefer",
                false
            ),
            PgSslMode::Prefer
        ));
        // PGSSLMODE set: sqlx has read it, and it stands.
        assert!(!matches!(
            mode("postgres://u@127.0.0.1/db", true),
            PgSslMode::Disable
        ));
    }
}
