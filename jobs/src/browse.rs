//! The Jobs page's lists and actions over `apalis.jobs`: jobs per kind and state, paged; one
//! job's detail with every attempt; bulk Retry and Discard of a filtered set; reviving a
//! discarded job; the periodic jobs with their last and next run; what each worker runs now.
//!
//! The states, as the page names them: *queued* (due, waiting for a worker), *scheduled* (due
//! later), *running*, *retrying* (failed, runs again after its backoff), *failed* (no attempt
//! left), *discarded* (stopped by an operator) and *done*.

use std::str::FromStr;

use chrono::{DateTime, TimeZone, Utc};
use domain::infra::{
    audit::{self, Actor},
    job_attempts::{self, Attempt},
    paging::{Page, PageRequest},
};
use serde::{Deserialize, Serialize};
use sqlx::{PgPool, Postgres, QueryBuilder};

pub const STATES: [&str; 7] = [
    "queued",
    "scheduled",
    "running",
    "retrying",
    "failed",
    "discarded",
    "done",
];

/// The SQL condition of a state.
fn condition(state: &str) -> Option<&'static str> {
    Some(match state {
        "queued" => "status IN ('Pending', 'Queued') AND run_at <= now()",
        "scheduled" => "status IN ('Pending', 'Queued') AND run_at > now()",
        "running" => "status = 'Running'",
        "retrying" => "status = 'Failed' AND attempts < max_attempts",
        "failed" => "status = 'Failed' AND attempts >= max_attempts",
        "discarded" => "status = 'Killed'",
        "done" => "status = 'Done'",
        _ => return None,
    })
}

/// The page's filter: a state, and a kind or all kinds.
#[derive(Debug, Clone, Deserialize, Serialize, utoipa::ToSchema, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Filter {
    /// queued | scheduled | running | retrying | failed | discarded | done
    pub state: String,
    /// A job kind; absent: every kind.
    pub kind: Option<String>,
}

impl Filter {
    /// `Err` names what is wrong.
    fn push_where(&self, q: &mut QueryBuilder<Postgres>) -> Result<(), String> {
        let cond = condition(&self.state)
            .ok_or_else(|| format!("state must be one of {}", STATES.join(", ")))?;
        q.push(" WHERE ").push(cond);
        if let Some(kind) = self.kind.as_deref().filter(|k| !k.is_empty()) {
            q.push(" AND job_type = ").push_bind(kind.to_owned());
        }
        Ok(())
    }
}

/// A job in a list.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct JobRow {
    pub id: String,
    pub kind: String,
    pub state: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub created_at: Option<DateTime<Utc>>,
    /// When it is (or was) due.
    pub run_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    /// The worker holding it (running, or fetched).
    pub worker: Option<String>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    job_type: String,
    status: String,
    attempts: i32,
    max_attempts: i32,
    run_at: DateTime<Utc>,
    done_at: Option<DateTime<Utc>>,
    last_result: Option<serde_json::Value>,
    lock_by: Option<String>,
}

fn state_of(status: &str, attempts: i32, max_attempts: i32, run_at: DateTime<Utc>) -> &'static str {
    match status {
        "Pending" | "Queued" if run_at > Utc::now() => "scheduled",
        "Pending" | "Queued" => "queued",
        "Running" => "running",
        "Done" => "done",
        "Killed" => "discarded",
        "Failed" if attempts < max_attempts => "retrying",
        _ => "failed",
    }
}

/// Job ids are ULIDs: their first 48 bits are the enqueue time in milliseconds.
fn created_at(id: &str) -> Option<DateTime<Utc>> {
    ulid::Ulid::from_string(id)
        .ok()
        .and_then(|u| Utc.timestamp_millis_opt(u.timestamp_ms() as i64).single())
}

impl From<Row> for JobRow {
    fn from(r: Row) -> Self {
        let state = state_of(&r.status, r.attempts, r.max_attempts, r.run_at);
        Self {
            created_at: created_at(&r.id),
            state: state.to_owned(),
            last_error: if state == "done" {
                None
            } else {
                crate::state::error_text(r.last_result.as_ref())
            },
            finished_at: matches!(state, "done" | "failed" | "discarded")
                .then_some(r.done_at)
                .flatten(),
            worker: r.lock_by.filter(|_| matches!(state, "running" | "queued")),
            id: r.id,
            kind: r.job_type,
            attempts: r.attempts,
            max_attempts: r.max_attempts,
            run_at: r.run_at,
        }
    }
}

const COLUMNS: &str = "SELECT id, job_type, status, attempts, max_attempts, run_at, done_at, last_result, lock_by FROM apalis.jobs";

/// The page `req` of the jobs matching `filter`: waiting ones by due time, the others newest
/// first. `Err(message)` for a bad filter.
pub async fn list(
    pool: &PgPool,
    filter: &Filter,
    req: PageRequest,
) -> Result<Result<Page<JobRow>, String>, sqlx::Error> {
    let mut count = QueryBuilder::new("SELECT count(*) FROM apalis.jobs");
    if let Err(e) = filter.push_where(&mut count) {
        return Ok(Err(e));
    }
    let total: i64 = count.build_query_scalar().fetch_one(pool).await?;
    let mut q = QueryBuilder::new(COLUMNS);
    let _ = filter.push_where(&mut q);
    q.push(match filter.state.as_str() {
        "queued" | "scheduled" => " ORDER BY run_at, id",
        "running" => " ORDER BY lock_at, id",
        _ => " ORDER BY done_at DESC NULLS LAST, id DESC",
    });
    q.push(" LIMIT ")
        .push_bind(req.limit())
        .push(" OFFSET ")
        .push_bind(req.offset());
    let rows: Vec<Row> = q.build_query_as().fetch_all(pool).await?;
    Ok(Ok(Page::new(
        rows.into_iter().map(JobRow::from).collect(),
        total,
        req,
    )))
}

/// One job with its arguments and every attempt.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct JobDetail {
    #[serde(flatten)]
    pub job: JobRow,
    /// The payload as queued: ids and small values, never a secret.
    pub args: serde_json::Value,
    /// When a queued, scheduled or retrying job runs next.
    pub next_run_at: Option<DateTime<Utc>>,
    /// First first.
    pub history: Vec<Attempt>,
}

pub async fn detail(pool: &PgPool, id: &str) -> Result<Option<JobDetail>, sqlx::Error> {
    let found: Option<(Vec<u8>,)> = sqlx::query_as("SELECT job FROM apalis.jobs WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?;
    let Some((payload,)) = found else {
        return Ok(None);
    };
    let row: Row = sqlx::query_as(
        "SELECT id, job_type, status, attempts, max_attempts, run_at, done_at, last_result, lock_by
           FROM apalis.jobs WHERE id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    let job = JobRow::from(row);
    let args = serde_json::from_slice(&payload).unwrap_or_else(|_| {
        serde_json::Value::String(String::from_utf8_lossy(&payload).into_owned())
    });
    let mut conn = pool.acquire().await?;
    let history = job_attempts::of_job(&mut conn, id)
        .await
        .map_err(domain_sqlx)?;
    Ok(Some(JobDetail {
        next_run_at: matches!(job.state.as_str(), "queued" | "scheduled" | "retrying")
            .then_some(job.run_at),
        job,
        args,
        history,
    }))
}

fn domain_sqlx(e: domain::Error) -> sqlx::Error {
    match e {
        domain::Error::Db(e) => e,
        other => sqlx::Error::Protocol(other.to_string()),
    }
}

/// What a bulk action does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BulkAction {
    /// Back to the queue to run now (failed, retrying or discarded jobs), with one more
    /// attempt when none is left.
    Retry,
    /// Never run again (queued, scheduled, retrying or failed jobs; not one a worker holds).
    Discard,
}

/// What a bulk action found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bulk {
    Done(u64),
    /// The filter is wrong, or names jobs this action cannot take.
    Invalid(String),
    /// `expected` was given and the set no longer has that many jobs.
    Changed(i64),
}

/// `action` on every job matching `filter`, in one statement, audited as one entry with the
/// filter and the count. With `expected` (the count the operator confirmed) nothing happens
/// unless the set still has exactly that many jobs.
pub async fn bulk(
    pool: &PgPool,
    action: BulkAction,
    filter: &Filter,
    expected: Option<i64>,
    actor: Actor,
) -> Result<Bulk, sqlx::Error> {
    let allowed: &[&str] = match action {
        BulkAction::Retry => &["retrying", "failed", "discarded"],
        BulkAction::Discard => &["queued", "scheduled", "retrying", "failed"],
    };
    if !allowed.contains(&filter.state.as_str()) {
        return Ok(Bulk::Invalid(format!(
            "{} applies to {} jobs",
            match action {
                BulkAction::Retry => "Retry",
                BulkAction::Discard => "Discard",
            },
            allowed.join(", ")
        )));
    }
    let mut tx = pool.begin().await?;
    let mut q = QueryBuilder::new(match action {
        BulkAction::Retry => {
            "UPDATE apalis.jobs SET status = 'Pending', run_at = now(), lock_by = NULL, lock_at = NULL, done_at = NULL,
                    max_attempts = GREATEST(max_attempts, attempts + 1)"
        }
        // A job a worker has fetched ('Queued') or runs is left alone: its worker owns it.
        BulkAction::Discard => {
            "UPDATE apalis.jobs SET status = 'Killed', done_at = now(), lock_by = NULL"
        }
    });
    if let Err(e) = filter.push_where(&mut q) {
        return Ok(Bulk::Invalid(e));
    }
    if action == BulkAction::Discard {
        q.push(" AND status IN ('Pending', 'Failed')");
    }
    q.push(" RETURNING job_type");
    let kinds: Vec<String> = q.build_query_scalar().fetch_all(&mut *tx).await?;
    let n = kinds.len() as i64;
    if let Some(expected) = expected
        && expected != n
    {
        tx.rollback().await?;
        return Ok(Bulk::Changed(n));
    }
    if action == BulkAction::Retry {
        let mut woken: Vec<&String> = kinds.iter().collect();
        woken.sort();
        woken.dedup();
        for kind in woken {
            // Wakes the workers listening for this kind, as an insert would (at commit).
            sqlx::query("SELECT pg_notify('apalis::job::insert', json_build_object('job_type', $1::text, 'id', '')::text)")
                .bind(kind)
                .execute(&mut *tx)
                .await?;
        }
    }
    audit::record(
        &mut tx,
        &audit::Record {
            actor,
            action: match action {
                BulkAction::Retry => "job.bulk_retry",
                BulkAction::Discard => "job.bulk_discard",
            },
            entity: "job",
            entity_id: String::new(),
            partner_id: None,
            before: None,
            after: Some(serde_json::json!({
                "state": filter.state,
                "kind": filter.kind,
                "count": n,
            })),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Bulk::Done(n as u64))
}

/// A periodic job: its schedule, its last run and its next.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Periodic {
    pub kind: String,
    /// Cron, with seconds.
    pub schedule: String,
    pub last_job_id: Option<String>,
    /// The last run's state (queued, running, done, failed…).
    pub last_state: Option<String>,
    pub last_run_at: Option<DateTime<Utc>>,
    pub next_run_at: Option<DateTime<Utc>>,
}

/// Each of `schedules` (kind, cron) with the newest job of its kind.
pub async fn periodic(
    pool: &PgPool,
    schedules: &[(&'static str, String)],
) -> Result<Vec<Periodic>, sqlx::Error> {
    let kinds: Vec<&str> = schedules.iter().map(|(k, _)| *k).collect();
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT DISTINCT ON (job_type) id, job_type, status, attempts, max_attempts, run_at, done_at, last_result, lock_by
           FROM apalis.jobs WHERE job_type = ANY($1) ORDER BY job_type, id DESC",
    )
    .bind(&kinds)
    .fetch_all(pool)
    .await?;
    Ok(schedules
        .iter()
        .map(|(kind, schedule)| {
            let last = rows.iter().find(|r| r.job_type == *kind);
            Periodic {
                kind: (*kind).to_owned(),
                schedule: schedule.clone(),
                last_job_id: last.map(|r| r.id.clone()),
                last_state: last
                    .map(|r| state_of(&r.status, r.attempts, r.max_attempts, r.run_at).to_owned()),
                last_run_at: last.map(|r| r.done_at.unwrap_or(r.run_at)),
                next_run_at: cron::Schedule::from_str(schedule)
                    .ok()
                    .and_then(|s| s.upcoming(Utc).next()),
            }
        })
        .collect())
}

/// A job a worker runs now.
#[derive(Debug, Clone, Serialize, PartialEq, sqlx::FromRow, utoipa::ToSchema)]
pub struct RunningJob {
    pub id: String,
    pub kind: String,
    /// `apalis.jobs.lock_by`: the worker (queue) holding it.
    pub worker: String,
    pub started_at: Option<DateTime<Utc>>,
}

/// Every running job, oldest first (bounded: a page shows what a person can read).
pub async fn running(pool: &PgPool) -> Result<Vec<RunningJob>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, job_type AS kind, COALESCE(lock_by, '') AS worker, lock_at AS started_at
           FROM apalis.jobs WHERE status = 'Running' ORDER BY lock_at, id LIMIT 500",
    )
    .fetch_all(pool)
    .await
}

/// Brings a discarded job back: queued to run now, with one more attempt when none is left.
/// Audited.
pub async fn revive(
    pool: &PgPool,
    id: &str,
    actor: Actor,
) -> Result<crate::overview::Outcome, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let kind: Option<String> = sqlx::query_scalar(
        "UPDATE apalis.jobs SET status = 'Pending', run_at = now(), lock_by = NULL, lock_at = NULL, done_at = NULL,
                max_attempts = GREATEST(max_attempts, attempts + 1)
          WHERE id = $1 AND status = 'Killed'
          RETURNING job_type",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(kind) = kind else {
        tx.rollback().await?;
        let found: Option<i32> = sqlx::query_scalar("SELECT 1 FROM apalis.jobs WHERE id = $1")
            .bind(id)
            .fetch_optional(pool)
            .await?;
        return Ok(if found.is_some() {
            crate::overview::Outcome::NotFailed
        } else {
            crate::overview::Outcome::NotFound
        });
    };
    sqlx::query("SELECT pg_notify('apalis::job::insert', json_build_object('job_type', $1::text, 'id', $2::text)::text)")
        .bind(&kind)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut tx,
        &audit::Record {
            actor,
            action: "job.revive",
            entity: "job",
            entity_id: id.to_owned(),
            partner_id: None,
            before: None,
            after: Some(serde_json::json!({ "kind": kind })),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(crate::overview::Outcome::Done)
}
