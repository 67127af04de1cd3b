//! The operations view of the queue (`apalis.jobs`): counts per kind, recent failures, and an
//! operator's Retry and Discard. Read by the super admin's Jobs page and by `/metrics`.
//!
//! apalis's statuses, as this view names them: `Pending`/`Queued` (fetched into a worker's
//! buffer, not started) are *queued*; `Failed` with attempts left is *retrying* (it runs again
//! once its backoff passes); `Failed` with none left is *failed*; `Killed` is what Discard
//! leaves: *discarded*, never run again, pruned like a finished job.

use chrono::{DateTime, Utc};
use domain::infra::audit::{self, Actor};
use serde::Serialize;
use sqlx::PgPool;

/// One job kind's queue.
#[derive(Debug, Clone, Default, Serialize, PartialEq, sqlx::FromRow, utoipa::ToSchema)]
pub struct KindStats {
    pub kind: String,
    /// Waiting for a worker, due or scheduled later.
    pub queued: i64,
    pub running: i64,
    /// Failed, with attempts left: runs again after its backoff.
    pub retrying: i64,
    /// Failed with no attempt left.
    pub failed: i64,
    pub discarded: i64,
    pub done_last_hour: i64,
    /// Jobs finished in the last minute: the throughput.
    pub done_last_minute: i64,
    /// How long the oldest due job has waited (since it became due), in seconds; 0 when none.
    pub oldest_queued_secs: f64,
}

/// The counts of every kind in `kinds` (a kind with no job shows zeros) and of any other kind
/// found in the table, in that order. One pass over the table.
pub async fn kinds(pool: &PgPool, kinds: &[&str]) -> Result<Vec<KindStats>, sqlx::Error> {
    let found: Vec<KindStats> = sqlx::query_as(
        "SELECT job_type AS kind,
                count(*) FILTER (WHERE status IN ('Pending', 'Queued')) AS queued,
                count(*) FILTER (WHERE status = 'Running') AS running,
                count(*) FILTER (WHERE status = 'Failed' AND attempts < max_attempts) AS retrying,
                count(*) FILTER (WHERE status = 'Failed' AND attempts >= max_attempts) AS failed,
                count(*) FILTER (WHERE status = 'Killed') AS discarded,
                count(*) FILTER (WHERE status = 'Done' AND done_at > now() - interval '1 hour') AS done_last_hour,
                count(*) FILTER (WHERE status = 'Done' AND done_at > now() - interval '1 minute') AS done_last_minute,
                COALESCE(EXTRACT(EPOCH FROM now() - min(run_at) FILTER (
                    WHERE (status IN ('Pending', 'Queued') OR (status = 'Failed' AND attempts < max_attempts))
                      AND run_at <= now())), 0)::float8 AS oldest_queued_secs
           FROM apalis.jobs
          GROUP BY job_type",
    )
    .fetch_all(pool)
    .await?;
    let mut out: Vec<KindStats> = kinds
        .iter()
        .map(|k| {
            found
                .iter()
                .find(|s| s.kind == *k)
                .cloned()
                .unwrap_or_else(|| KindStats {
                    kind: (*k).to_owned(),
                    ..Default::default()
                })
        })
        .collect();
    let mut others: Vec<KindStats> = found
        .into_iter()
        .filter(|s| !kinds.contains(&s.kind.as_str()))
        .collect();
    others.sort_by(|a, b| a.kind.cmp(&b.kind));
    out.extend(others);
    Ok(out)
}

/// A job whose last run failed.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Failure {
    pub id: String,
    pub kind: String,
    /// retrying | failed
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub last_error: String,
    /// When the last attempt ended.
    pub at: Option<DateTime<Utc>>,
    /// When a retrying job runs again.
    pub next_run_at: Option<DateTime<Utc>>,
}

/// The `limit` most recent failures, newest first; discarded jobs are left out.
pub async fn recent_failures(pool: &PgPool, limit: i64) -> Result<Vec<Failure>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        id: String,
        job_type: String,
        attempts: i32,
        max_attempts: i32,
        last_result: Option<serde_json::Value>,
        done_at: Option<DateTime<Utc>>,
        run_at: DateTime<Utc>,
    }
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, job_type, attempts, max_attempts, last_result, done_at, run_at
           FROM apalis.jobs
          WHERE status = 'Failed'
          ORDER BY done_at DESC NULLS LAST, id DESC
          LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let retrying = r.attempts < r.max_attempts;
            Failure {
                id: r.id,
                kind: r.job_type,
                status: if retrying { "retrying" } else { "failed" }.to_owned(),
                attempts: r.attempts,
                max_attempts: r.max_attempts,
                last_error: crate::state::error_text(r.last_result.as_ref()).unwrap_or_default(),
                at: r.done_at,
                next_run_at: retrying.then_some(r.run_at),
            }
        })
        .collect())
}

/// What an operator's Retry or Discard found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// The job exists but has not failed (queued, running, done or discarded).
    NotFailed,
    NotFound,
}

/// Puts a failed job (retrying or failed for good) back to run now. A job out of attempts gets
/// one more, and its allowance grows with it (so it never reads "2 of 1"); a new failure leaves
/// it failed again. The workers listening for new jobs are woken as an insert would.
pub async fn retry(pool: &PgPool, id: &str, actor: Actor) -> Result<Outcome, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let kind: Option<String> = sqlx::query_scalar(
        "UPDATE apalis.jobs SET status = 'Pending', run_at = now(), lock_by = NULL, lock_at = NULL, done_at = NULL,
                max_attempts = GREATEST(max_attempts, attempts + 1)
          WHERE id = $1 AND status = 'Failed'
          RETURNING job_type",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(kind) = kind else {
        tx.rollback().await?;
        return exists(pool, id).await;
    };
    // Delivered at commit, like the trigger's notice on insert.
    sqlx::query("SELECT pg_notify('apalis::job::insert', json_build_object('job_type', $1::text, 'id', $2::text)::text)")
        .bind(&kind)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    audited(&mut tx, actor, "job.retry", id, &kind).await?;
    tx.commit().await?;
    Ok(Outcome::Done)
}

/// Stops a failed job for good: it keeps its last error and is pruned with the finished jobs.
pub async fn discard(pool: &PgPool, id: &str, actor: Actor) -> Result<Outcome, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let kind: Option<String> =
        sqlx::query_scalar("UPDATE apalis.jobs SET status = 'Killed', done_at = now(), lock_by = NULL WHERE id = $1 AND status = 'Failed' RETURNING job_type")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some(kind) = kind else {
        tx.rollback().await?;
        return exists(pool, id).await;
    };
    audited(&mut tx, actor, "job.discard", id, &kind).await?;
    tx.commit().await?;
    Ok(Outcome::Done)
}

async fn audited(
    conn: &mut sqlx::PgConnection,
    actor: Actor,
    action: &str,
    id: &str,
    kind: &str,
) -> Result<(), sqlx::Error> {
    audit::record(
        conn,
        &audit::Record {
            actor,
            action,
            entity: "job",
            entity_id: id.to_owned(),
            partner_id: None,
            before: None,
            after: Some(serde_json::json!({ "kind": kind })),
        },
    )
    .await
}

async fn exists(pool: &PgPool, id: &str) -> Result<Outcome, sqlx::Error> {
    let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM apalis.jobs WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?;
    Ok(if found.is_some() {
        Outcome::NotFailed
    } else {
        Outcome::NotFound
    })
}
