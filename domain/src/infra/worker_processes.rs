//! Worker processes (table `worker_processes`): each `worker` records itself on start
//! (`jobs::workers::run`),
//! heartbeats every `WORKER_HEARTBEAT_SECS` and marks its clean stop. The Jobs page lists the
//! processes seen recently; a process whose heartbeats stopped without a clean stop crashed or
//! hangs, and apalis gives its jobs back to the queue.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgPool;

use crate::Result;

/// Processes not seen for this long leave the list (and, a day later, the table).
pub const SHOWN_FOR: Duration = Duration::from_secs(15 * 60);

/// This process, as it registers.
#[derive(Debug, Clone)]
pub struct Process {
    pub id: String,
    pub host: String,
    pub pid: u32,
    pub concurrency: usize,
}

impl Process {
    /// The running process: its host name and pid, which also name it (unique per process, so
    /// a restarted worker does not inherit the dead one's identity).
    pub fn current(concurrency: usize) -> Self {
        let host = std::fs::read_to_string("/etc/hostname")
            .map(|s| s.trim().to_owned())
            .ok()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "worker".into());
        let pid = std::process::id();
        Self {
            id: format!("{host}-{pid}"),
            host,
            pid,
            concurrency,
        }
    }

    pub async fn register(&self, pool: &PgPool) -> Result<()> {
        sqlx::query("DELETE FROM worker_processes WHERE last_seen_at < now() - interval '1 day'")
            .execute(pool)
            .await?;
        sqlx::query(
            "INSERT INTO worker_processes (id, host, pid, concurrency) VALUES ($1, $2, $3, $4)
             ON CONFLICT (id) DO UPDATE SET host = $2, pid = $3, concurrency = $4, started_at = now(), last_seen_at = now(), stopped_at = NULL",
        )
        .bind(&self.id)
        .bind(&self.host)
        .bind(self.pid as i32)
        .bind(self.concurrency as i32)
        .execute(pool)
        .await?;
        Ok(())
    }

    pub async fn heartbeat(&self, pool: &PgPool) -> Result<()> {
        sqlx::query("UPDATE worker_processes SET last_seen_at = now() WHERE id = $1")
            .bind(&self.id)
            .execute(pool)
            .await?;
        Ok(())
    }

    pub async fn stopped(&self, pool: &PgPool) -> Result<()> {
        sqlx::query(
            "UPDATE worker_processes SET last_seen_at = now(), stopped_at = now() WHERE id = $1",
        )
        .bind(&self.id)
        .execute(pool)
        .await?;
        Ok(())
    }
}

/// A worker process as the Jobs page shows it.
#[derive(Debug, Clone, Serialize, PartialEq, sqlx::FromRow, utoipa::ToSchema)]
pub struct WorkerProcess {
    pub id: String,
    pub host: String,
    pub pid: i32,
    pub concurrency: i32,
    pub started_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    pub stopped_at: Option<DateTime<Utc>>,
    /// running | stopped | missing (no heartbeat for two intervals and no clean stop)
    pub status: String,
}

/// The processes seen in the last [`SHOWN_FOR`], running ones first, newest first.
pub async fn recent(pool: &PgPool, heartbeat: Duration) -> Result<Vec<WorkerProcess>> {
    Ok(sqlx::query_as(
        "SELECT id, host, pid, concurrency, started_at, last_seen_at, stopped_at,
                CASE WHEN stopped_at IS NOT NULL THEN 'stopped'
                     WHEN last_seen_at < now() - 2 * $2 * interval '1 second' THEN 'missing'
                     ELSE 'running' END AS status
           FROM worker_processes
          WHERE last_seen_at > now() - $1 * interval '1 second'
          ORDER BY (stopped_at IS NULL AND last_seen_at >= now() - 2 * $2 * interval '1 second') DESC, started_at DESC, id",
    )
    .bind(SHOWN_FOR.as_secs_f64())
    .bind(heartbeat.as_secs_f64().max(1.0))
    .fetch_all(pool)
    .await?)
}

/// How many processes are running: heartbeating within two intervals, not stopped.
pub async fn running(pool: &PgPool, heartbeat: Duration) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT count(*) FROM worker_processes WHERE stopped_at IS NULL AND last_seen_at >= now() - 2 * $1 * interval '1 second'")
        .bind(heartbeat.as_secs_f64().max(1.0))
        .fetch_one(pool)
        .await?)
}
