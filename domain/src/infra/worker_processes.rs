//! Worker processes (table `worker_processes`): each `worker` records itself on start
//! (`jobs::workers::run`), heartbeats every `WORKER_HEARTBEAT_SECS` with the kinds it runs and
//! when its fetcher last reached the queue, and marks its clean stop. The Jobs page and
//! `/metrics` list the processes seen recently: one that beats while its fetcher has not reached
//! the queue for two beats is `stalled`, not running; one whose heartbeats stopped without a
//! clean stop crashed or hangs, and the live workers give its jobs back to the queue.

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

/// What a heartbeat reports besides "alive".
#[derive(Debug, Clone, Default)]
pub struct Beat {
    /// The kinds this process takes.
    pub queues: Vec<String>,
    /// Jobs fetched per round trip at most.
    pub fetch_batch: usize,
    /// Whether the fetcher reaches the queue: false once it has failed for two heartbeat
    /// intervals in a row.
    pub fetching: bool,
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
             ON CONFLICT (id) DO UPDATE SET host = $2, pid = $3, concurrency = $4, started_at = now(), last_seen_at = now(), stopped_at = NULL,
                 queues = '{}', fetched_at = NULL",
        )
        .bind(&self.id)
        .bind(&self.host)
        .bind(self.pid as i32)
        .bind(self.concurrency as i32)
        .execute(pool)
        .await?;
        Ok(())
    }

    /// Alive, with what this process runs. An upsert: a process that could not register at
    /// start (its database was down) or whose row was pruned shows up with its next beat.
    pub async fn heartbeat(&self, pool: &PgPool, beat: &Beat) -> Result<()> {
        sqlx::query(
            "INSERT INTO worker_processes (id, host, pid, concurrency, queues, fetch_batch, fetched_at)
             VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7 THEN now() END)
             ON CONFLICT (id) DO UPDATE SET last_seen_at = now(), queues = $5, fetch_batch = $6,
                 fetched_at = CASE WHEN $7 THEN now() ELSE worker_processes.fetched_at END",
        )
        .bind(&self.id)
        .bind(&self.host)
        .bind(self.pid as i32)
        .bind(self.concurrency as i32)
        .bind(&beat.queues)
        .bind(beat.fetch_batch as i32)
        .bind(beat.fetching)
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
    /// The kinds it takes (its queues).
    pub queues: Vec<String>,
    pub fetch_batch: i32,
    /// When its fetcher last reached the queue.
    pub fetched_at: Option<DateTime<Utc>>,
    /// running | stalled (beating, but its fetcher has not reached the queue for two
    /// intervals: it takes no job) | stopped | missing (no heartbeat for two intervals and no
    /// clean stop)
    pub status: String,
}

/// The status of a process, from its row: one expression for the list and the count.
const STATUS: &str = "CASE WHEN stopped_at IS NOT NULL THEN 'stopped'
                          WHEN last_seen_at < now() - 2 * $2 * interval '1 second' THEN 'missing'
                          WHEN fetched_at IS NULL AND last_seen_at > started_at THEN 'stalled'
                          WHEN fetched_at < last_seen_at THEN 'stalled'
                          ELSE 'running' END";

/// The processes seen in the last [`SHOWN_FOR`], running ones first, newest first.
pub async fn recent(pool: &PgPool, heartbeat: Duration) -> Result<Vec<WorkerProcess>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT * FROM (
             SELECT id, host, pid, concurrency, started_at, last_seen_at, stopped_at, queues,
                    fetch_batch, fetched_at, {STATUS} AS status
               FROM worker_processes
              WHERE last_seen_at > now() - $1 * interval '1 second') p
          ORDER BY status = 'running' DESC, status = 'stalled' DESC, started_at DESC, id"
    )))
    .bind(SHOWN_FOR.as_secs_f64())
    .bind(heartbeat.as_secs_f64().max(1.0))
    .fetch_all(pool)
    .await?)
}

/// How many processes are running: heartbeating within two intervals, not stopped, their
/// fetcher reaching the queue (a `stalled` one does not count).
pub async fn running(pool: &PgPool, heartbeat: Duration) -> Result<i64> {
    Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT count(*) FROM worker_processes
          WHERE last_seen_at > now() - $1 * interval '1 second' AND {STATUS} = 'running'"
    )))
    .bind(SHOWN_FOR.as_secs_f64())
    .bind(heartbeat.as_secs_f64().max(1.0))
    .fetch_one(pool)
    .await?)
}
