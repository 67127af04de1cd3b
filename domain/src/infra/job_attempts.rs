//! The history of every job's attempts (table `job_attempts`): what the Jobs page shows in a
//! job's detail and draws its throughput chart from. apalis keeps only a job's last result;
//! the database adds a row here whenever a job's attempt is counted (a trigger on
//! `apalis.jobs`, migration `20261126160001_job_attempts`), whoever counted it.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::PgConnection;

use crate::Result;

/// One attempt of a job, as its detail shows it.
#[derive(Debug, Clone, Serialize, PartialEq, sqlx::FromRow, utoipa::ToSchema)]
pub struct Attempt {
    pub attempt: i32,
    pub started_at: DateTime<Utc>,
    pub finished_at: DateTime<Utc>,
    pub duration_ms: f64,
    /// done | retrying | failed | lost
    pub outcome: String,
    /// Shown once when it repeats itself ("X: X").
    pub error: Option<String>,
    pub worker: String,
}

/// Every recorded attempt of job `id`, first first.
pub async fn of_job(conn: &mut PgConnection, id: &str) -> Result<Vec<Attempt>> {
    let mut found: Vec<Attempt> = sqlx::query_as(
        "SELECT attempt, started_at, finished_at, duration_ms, outcome, error, worker
           FROM job_attempts WHERE job_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(conn)
    .await?;
    for a in &mut found {
        a.error = a.error.as_deref().map(unrepeated);
    }
    Ok(found)
}

/// The attempts of one kind that ended in one minute.
#[derive(Debug, Clone, Serialize, PartialEq, sqlx::FromRow, utoipa::ToSchema)]
pub struct Minute {
    /// The minute's start.
    pub minute: DateTime<Utc>,
    pub kind: String,
    pub done: i64,
    /// Attempts that failed, whether a retry follows or not.
    pub failed: i64,
}

/// `s` with any tail of the form "A: A" cut to "A", repeatedly: errors that print their
/// source, wrapped by a chain that prints it again, read once.
pub fn unrepeated(s: &str) -> String {
    let mut s = s.to_owned();
    'again: loop {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(s.match_indices(": ").map(|(i, _)| i + 2))
            .collect();
        for start in starts {
            let tail = &s[start..];
            if tail.len() < 3 || !(tail.len() - 2).is_multiple_of(2) {
                continue;
            }
            let half = (tail.len() - 2) / 2;
            if tail.is_char_boundary(half)
                && tail.is_char_boundary(half + 2)
                && &tail[half..half + 2] == ": "
                && tail[..half] == tail[half + 2..]
            {
                s.truncate(start + half);
                continue 'again;
            }
        }
        return s;
    }
}

/// Done and failed attempts per minute and kind over the last `minutes` minutes (minutes with
/// none are left out), oldest first.
pub async fn per_minute(conn: &mut PgConnection, minutes: i32) -> Result<Vec<Minute>> {
    Ok(sqlx::query_as(
        "SELECT date_trunc('minute', finished_at) AS minute, kind,
                count(*) FILTER (WHERE outcome = 'done') AS done,
                count(*) FILTER (WHERE outcome IN ('retrying', 'failed')) AS failed
           FROM job_attempts
          WHERE finished_at > date_trunc('minute', now()) - $1 * interval '1 minute'
          GROUP BY 1, 2 ORDER BY 1, 2",
    )
    .bind(minutes)
    .fetch_all(conn)
    .await?)
}

/// Deletes the attempts, older than `retention`, of jobs that are gone (pruned); returns how
/// many. A job still in the queue keeps its whole history.
pub async fn prune(conn: &mut PgConnection, retention: Duration) -> Result<u64> {
    let done = sqlx::query(
        "DELETE FROM job_attempts a
          WHERE a.finished_at < now() - $1 * interval '1 second'
            AND NOT EXISTS (SELECT 1 FROM apalis.jobs j WHERE j.id = a.job_id)",
    )
    .bind(retention.as_secs_f64())
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::unrepeated;

    #[test]
    fn repeated_errors_read_once() {
        let x = "Connection reset by peer (os error 104)";
        assert_eq!(unrepeated(&format!("{x}: {x}")), x);
        assert_eq!(
            unrepeated(&format!("sending: {x}: {x}")),
            format!("sending: {x}")
        );
        assert_eq!(unrepeated("a: b: a: b"), "a: b");
        assert_eq!(unrepeated("a: b"), "a: b");
        assert_eq!(
            unrepeated("SMTP: connection refused"),
            "SMTP: connection refused"
        );
        assert_eq!(unrepeated("x: x: x"), "x");
    }
}
