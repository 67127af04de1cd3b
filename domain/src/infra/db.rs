//! The Postgres pool and the schema migrations of `migrations/`.

use std::time::Duration;

use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};

pub async fn connect(url: &str, max_connections: u32) -> Result<PgPool, sqlx::Error> {
    let options: PgConnectOptions = url.parse()?;
    pool_options(max_connections, &options)
        .connect_with(options)
        .await
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
    let options: PgConnectOptions = url.parse()?;
    pool_options(max_connections, &options)
        .connect_with(options.application_name(application_name))
        .await
}

/// Our own migrations. They share `_sqlx_migrations` with the job queue's, so each migrator
/// ignores versions it does not know instead of refusing to run.
pub fn migrator() -> sqlx::migrate::Migrator {
    let mut m = sqlx::migrate!("../migrations");
    m.set_ignore_missing(true);
    m
}
