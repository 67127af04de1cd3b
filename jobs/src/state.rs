//! The state of a job as `GET /api/v1/jobs/{id}` shows it, read from `apalis.jobs`.

use chrono::{DateTime, TimeZone, Utc};
use serde::Serialize;
use sqlx::PgPool;

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct JobState {
    pub id: String,
    pub kind: String,
    /// queued | running | retrying (failed, will run again after its backoff) | done | failed |
    /// discarded (stopped by an operator, never run again)
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub last_error: Option<String>,
    pub created_at: Option<DateTime<Utc>>,
    pub run_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    job_type: String,
    status: String,
    attempts: i32,
    max_attempts: i32,
    last_result: Option<serde_json::Value>,
    run_at: DateTime<Utc>,
    done_at: Option<DateTime<Utc>>,
}

pub async fn find(pool: &PgPool, id: &str) -> Result<Option<JobState>, sqlx::Error> {
    let row: Option<Row> = sqlx::query_as(
        "SELECT id, job_type, status, attempts, max_attempts, last_result, run_at, done_at
         FROM apalis.jobs WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|r| {
        let status = match r.status.as_str() {
            "Pending" | "Queued" => "queued",
            "Running" => "running",
            "Done" => "done",
            "Killed" => "discarded",
            "Failed" if r.attempts < r.max_attempts => "retrying",
            _ => "failed",
        };
        let last_error = error_text(r.last_result.as_ref());
        // Job ids are ULIDs: their first 48 bits are the enqueue time in milliseconds.
        let created_at = ulid::Ulid::from_string(&r.id)
            .ok()
            .and_then(|u| Utc.timestamp_millis_opt(u.timestamp_ms() as i64).single());
        JobState {
            id: r.id,
            kind: r.job_type,
            status: status.to_owned(),
            attempts: r.attempts,
            max_attempts: r.max_attempts,
            last_error,
            created_at,
            run_at: r.run_at,
            finished_at: if matches!(status, "done" | "failed" | "discarded") {
                r.done_at
            } else {
                None
            },
        }
    }))
}

/// The error of a job's last run, from apalis's `last_result` (`{"Err": …}`); `None` after a
/// success or before any run. A message that repeats itself ("X: X", as errors that print
/// their source leave it) is shown once.
pub fn error_text(last_result: Option<&serde_json::Value>) -> Option<String> {
    last_result
        .and_then(|v| v.get("Err"))
        .map(|e| match e.as_str() {
            Some(s) => domain::infra::job_attempts::unrepeated(s),
            None => e.to_string(),
        })
}

/// Whether the running attempt of job `id` is its last: a handler that fails now fails for
/// good (the attempt is counted when it ends, so `attempts` holds the earlier ones).
pub async fn is_last_attempt(pool: &PgPool, id: &str) -> Result<bool, sqlx::Error> {
    let last: Option<bool> =
        sqlx::query_scalar("SELECT attempts + 1 >= max_attempts FROM apalis.jobs WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    Ok(last.unwrap_or(true))
}
