//! The job queue's insert (table `apalis.jobs`, apalis-postgres). It lives in `domain` so that
//! a domain operation can queue its own side effect in the same transaction as its write
//! (`wallets::apply` queues the low-balance mail this way): no caller can do the one without
//! the other. The `jobs` crate's payload types implement [`Task`] and its `enqueue` helpers
//! are typed wrappers over [`push`]; the handlers and the runner stay in `jobs`.
//!
//! Payloads carry ids and small values, never a secret: finished jobs stay in the table (and
//! in backups) until they are pruned, so whatever a payload holds is readable by anyone who
//! can read the database.

use apalis::prelude::{TaskBuilder, TaskId};
use chrono::{DateTime, Utc};
use serde::Serialize;
use sqlx::{Connection, PgConnection};

use crate::{
    Error, Result,
    infra::audit::{self, Actor},
};

/// A kind of job, as the queue stores it.
pub trait Task: Serialize {
    /// The queue name in `apalis.jobs.job_type`, and the `kind` the job-state endpoint shows.
    const KIND: &'static str;
    const MAX_ATTEMPTS: usize = 8;
}

/// Queues `task` on `conn` and returns its id (a ULID: sortable by enqueue time). Pass the
/// caller's transaction to commit the job with the write that needs it.
///
/// With `key`, a job of the same kind with the same key that exists already wins: `Ok(None)`.
/// Without a key this is one statement, one round trip: the ledger's hot path queues through it.
pub async fn push<T: Task>(
    conn: &mut PgConnection,
    task: &T,
    key: Option<&str>,
) -> Result<Option<String>> {
    let id = ulid::Ulid::generate().to_string();
    let bytes = serde_json::to_vec(task)
        .map_err(|e| Error::Other(anyhow::anyhow!("encoding a {} job: {e}", T::KIND)))?;
    let mut builder = TaskBuilder::new(bytes)
        .task_id(TaskId::from(id.clone()))
        .max_attempts(T::MAX_ATTEMPTS);
    let Some(k) = key else {
        insert(conn, T::KIND, builder).await?;
        return Ok(Some(id));
    };
    builder = builder.idempotency_key(k);
    // A savepoint inside the caller's transaction (sqlx tracks the depth), so a duplicate key
    // does not abort the caller's work; on a bare connection it is its own transaction.
    let mut tx = conn.begin().await?;
    match insert(&mut tx, T::KIND, builder).await {
        Ok(()) => {
            tx.commit().await?;
            Ok(Some(id))
        }
        Err(Error::Db(sqlx::Error::Database(d))) if d.is_unique_violation() => {
            tx.rollback().await?;
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Queues `task` to run at `at` (at once when `None` or past) and returns its id: a retry
/// schedule of its own (webhook deliveries) queues each attempt for its time.
pub async fn push_at<T: Task>(
    conn: &mut PgConnection,
    task: &T,
    at: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<String> {
    let id = ulid::Ulid::generate().to_string();
    let bytes = serde_json::to_vec(task)
        .map_err(|e| Error::Other(anyhow::anyhow!("encoding a {} job: {e}", T::KIND)))?;
    let mut builder = TaskBuilder::new(bytes)
        .task_id(TaskId::from(id.clone()))
        .max_attempts(T::MAX_ATTEMPTS);
    if let Some(at) = at.filter(|at| *at > chrono::Utc::now()) {
        builder = builder.run_at_timestamp(at.timestamp().max(0) as u64);
    }
    insert(conn, T::KIND, builder).await?;
    Ok(id)
}

async fn insert(conn: &mut PgConnection, kind: &str, builder: TaskBuilder<Vec<u8>>) -> Result<()> {
    apalis_postgres::queries::push_tasks(conn, kind, vec![builder.build()])
        .await
        .map_err(|e| match e {
            apalis_postgres::Error::Database(e) => Error::Db(e),
            other => Error::Other(anyhow::anyhow!("job queue: {other}")),
        })
}

/// Deletes the jobs that finished (done, or failed with no attempt left) more than `retention`
/// ago, with their owner rows, and returns how many it deleted. Queued, running and retrying
/// jobs stay, however old.
pub async fn prune(conn: &mut PgConnection, retention: std::time::Duration) -> Result<u64> {
    let n: i64 = sqlx::query_scalar(
        "WITH gone AS (
             DELETE FROM apalis.jobs
              WHERE (status IN ('Done', 'Killed') OR (status = 'Failed' AND attempts >= max_attempts))
                AND done_at < now() - $1 * interval '1 second'
          RETURNING id
         ), owners AS (
             DELETE FROM job_owners WHERE job_id IN (SELECT id FROM gone)
         )
         SELECT count(*) FROM gone",
    )
    .bind(retention.as_secs_f64())
    .fetch_one(conn)
    .await?;
    Ok(n as u64)
}

/// A paused kind: the workers take none of its jobs until it is resumed.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, sqlx::FromRow, utoipa::ToSchema)]
pub struct Pause {
    pub kind: String,
    pub paused_at: DateTime<Utc>,
    /// Who paused it: `superadmin:{id}`, `system`, ….
    pub paused_by: String,
}

fn actor_label(actor: Actor) -> String {
    match actor.id {
        Some(id) => format!("{}:{id}", actor.kind.as_str()),
        None => actor.kind.as_str().to_owned(),
    }
}

/// Pauses `kind`: from the workers' next fetch on, no new job of it starts; the running ones
/// finish. Audited. `false` when it was paused already (the first pause is kept).
pub async fn pause(conn: &mut PgConnection, kind: &str, actor: Actor) -> Result<bool> {
    let mut tx = conn.begin().await?;
    let paused = sqlx::query(
        "INSERT INTO job_kind_pauses (kind, paused_by) VALUES ($1, $2) ON CONFLICT (kind) DO NOTHING",
    )
    .bind(kind)
    .bind(actor_label(actor))
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if paused {
        audited(&mut tx, actor, "job_kind.pause", kind).await?;
    }
    tx.commit().await?;
    Ok(paused)
}

/// Resumes `kind` and wakes the workers, which take its waiting jobs at once. Audited.
/// `false` when it was not paused.
pub async fn resume(conn: &mut PgConnection, kind: &str, actor: Actor) -> Result<bool> {
    let mut tx = conn.begin().await?;
    let resumed = sqlx::query("DELETE FROM job_kind_pauses WHERE kind = $1")
        .bind(kind)
        .execute(&mut *tx)
        .await?
        .rows_affected()
        == 1;
    if resumed {
        // The channel the insert trigger notifies on; delivered at commit.
        sqlx::query(
            "SELECT pg_notify('apalis::job::insert', json_build_object('job_type', $1::text)::text)",
        )
        .bind(kind)
        .execute(&mut *tx)
        .await?;
        audited(&mut tx, actor, "job_kind.resume", kind).await?;
    }
    tx.commit().await?;
    Ok(resumed)
}

/// The paused kinds, by kind.
pub async fn paused(conn: &mut PgConnection) -> Result<Vec<Pause>> {
    Ok(
        sqlx::query_as("SELECT kind, paused_at, paused_by FROM job_kind_pauses ORDER BY kind")
            .fetch_all(conn)
            .await?,
    )
}

async fn audited(conn: &mut PgConnection, actor: Actor, action: &str, kind: &str) -> Result<()> {
    audit::record(
        conn,
        &audit::Record {
            actor,
            action,
            entity: "job_kind",
            entity_id: kind.to_owned(),
            partner_id: None,
            before: None,
            after: None,
        },
    )
    .await?;
    Ok(())
}
