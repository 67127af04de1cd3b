//! The Postgres pool and the schema migrations of `migrations/`.

use std::time::Duration;

use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};

pub async fn connect(url: &str, max_connections: u32) -> Result<PgPool, sqlx::Error> {
    PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .connect(url)
        .await
}

/// A pool whose connections show as `application_name` in `pg_stat_activity`, so that an
/// operator (or a test) can tell a process's connections apart.
pub async fn connect_as(
    url: &str,
    max_connections: u32,
    application_name: &str,
) -> Result<PgPool, sqlx::Error> {
    let options: PgConnectOptions = url.parse()?;
    PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
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
