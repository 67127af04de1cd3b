//! The queue engine: runs the handlers of a [`Registry`] over apalis's table `apalis.jobs`.
//! Used by the `worker` binary (through `workers::run`), by `bench jobs` and by tests.
//!
//! Our own loop, not apalis's workers (README, "The job queue"): apalis 1.0 runs one worker per
//! kind, each with its own `LISTEN` connection, and a worker whose connection drops ends for
//! good while the process lives on. Here one process has:
//!
//! - one **fetcher** for all kinds: it claims up to `WORKER_FETCH_BATCH` due jobs, never more
//!   than it has free slots (`WORKER_CONCURRENCY`), in one `UPDATE … FOR UPDATE SKIP LOCKED`
//!   statement that skips paused kinds (`job_kind_pauses`), and starts them at once; the same
//!   statement records the attempts that finished since its last claim, so a busy worker
//!   spends one statement per batch of jobs, claim and finish together;
//! - one **listener** (`LISTEN` on the insert trigger's channel) that wakes the fetcher; the
//!   fetcher also polls every [`POLL`], for retries coming due and notices lost in an outage;
//! - one **completer** that records the finished attempts no claim is coming to carry (the
//!   fetcher waits for work, or [`LINGER`] passed), many per statement;
//! - a **keeper** that heartbeats (`worker_processes`, `apalis.workers`) and gives the jobs of
//!   processes that stopped beating back to the queue;
//! - one **scheduler** per periodic kind, which queues one job per period (an idempotency key
//!   per period: however many workers tick, one job runs).
//!
//! Every loop survives any database error: it backs off (up to [`BACKOFF_MAX`]) and resumes. A
//! fetcher or completer that cannot reach the database for `WORKER_GIVE_UP_SECS` ends the run
//! with an error, and the worker exits non-zero for its process manager to restart it.

use std::{
    collections::HashSet,
    future::Future,
    panic::AssertUnwindSafe,
    str::FromStr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::Context;
use chrono::{DateTime, Utc};
use domain::infra::worker_processes::{Beat, Process};
use futures::FutureExt;
use sqlx::PgPool;
use tokio::sync::{Notify, Semaphore, mpsc, oneshot, watch};

use crate::{JobContext, registry::Registry};

pub use crate::registry::{PRUNE_EXPORTS_SCHEDULE, PRUNE_SCHEDULE};

/// Retry delays start at `JOB_RETRY_BASE_MS`, double per attempt, are capped at an hour and
/// carry ±20% jitter so that failures of many jobs do not retry in lockstep.
pub const RETRY_MAX_SECS: f64 = 3600.0;

/// The fetcher looks at the queue at least this often without a notice: retries and scheduled
/// jobs come due without one.
pub const POLL: Duration = Duration::from_secs(1);

/// Reconnection backoff after a database error: from 100 ms, doubling, up to this.
pub const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// How long a busy fetcher waits for more slots to free before it claims (`gather_slots`).
const GATHER: Duration = Duration::from_millis(2);

/// Finished attempts recorded per statement at most.
const COMPLETE_BATCH: usize = 500;

/// How long at most the completer leaves finished attempts for the fetcher's next claim to
/// carry: while the fetcher is busy it claims well within it, so each job costs one statement;
/// once the fetcher waits for work (or for the database), the completer writes them at once.
const LINGER: Duration = Duration::from_millis(20);

/// How long a stopping worker waits for its running jobs before it hands them back.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(30);

/// A process silent for this many heartbeat intervals is dead: its jobs go back to the queue.
const MISSED_BEATS: u32 = 3;

/// The keeper looks for running jobs whose worker has no row at all once in this many
/// heartbeats (`reap`).
const ORPHAN_SWEEP_EVERY: u32 = 12;

/// The insert trigger's channel (apalis's), also used by Retry and Resume.
const CHANNEL: &str = "apalis::job::insert";

/// The worker name [`run_pending`] locks jobs under.
const IN_PROCESS_WORKER: &str = "in-process";

/// The engine's settings, from the configuration.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Jobs run at once, all kinds together.
    pub concurrency: usize,
    /// Jobs claimed per round trip at most (and never more than free slots).
    pub fetch_batch: usize,
    pub heartbeat: Duration,
    /// A fetcher or completer out of reach of the database this long ends the run.
    pub give_up: Duration,
    pub retry_base: Duration,
}

impl Settings {
    pub fn from_config(c: &domain::infra::config::Config) -> Self {
        Self {
            concurrency: c.worker_concurrency.max(1),
            fetch_batch: c.worker_fetch_batch.max(1),
            heartbeat: c.worker_heartbeat.max(Duration::from_millis(100)),
            give_up: c.worker_give_up,
            retry_base: c.job_retry_base,
        }
    }
}

/// The pool a worker process needs: two per running job (a handler may hold a connection while
/// it reads the job's state on another), one each for the fetcher, the completer and the
/// keeper and schedulers, bounded by `DATABASE_MAX_CONNECTIONS`. Beside it the listener holds
/// one connection of its own. Connections are opened on demand: at rest a worker holds a few.
pub fn pool_size(c: &domain::infra::config::Config) -> u32 {
    (2 * c.worker_concurrency as u32 + 3).min(c.database_max_connections.max(4))
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// The handler returned an error (it panicked, too).
    Failed,
    /// The process running it stopped beating; the job went back to the queue.
    Lost,
    /// Its payload could not be decoded (or its kind has no handler here): no handler ran.
    Undecodable,
}

/// One ended attempt, as [`attempt_ended`] reports it.
#[derive(Debug, Clone)]
pub struct AttemptEnd<'a> {
    pub kind: &'a str,
    pub job_id: &'a str,
    /// 1 for the first attempt.
    pub attempt: i32,
    pub started_at: DateTime<Utc>,
    pub duration: Duration,
    pub outcome: Outcome,
    pub error: Option<&'a str>,
}

/// Called once when any attempt ends, run here or lost with its process: the one place that
/// sees every attempt (counters, histograms and attempt history hook in here).
pub fn attempt_ended(a: &AttemptEnd<'_>) {
    let counted = match a.outcome {
        Outcome::Done => Some("done"),
        Outcome::Failed => Some("failed"),
        Outcome::Lost => Some("lost"),
        // No handler ran: nothing to time; the database keeps the attempt in its history.
        Outcome::Undecodable => None,
    };
    if let Some(outcome) = counted {
        crate::bookkeeping::observe(a.kind, outcome, a.duration);
    }
    match a.outcome {
        Outcome::Done => tracing::debug!(
            kind = a.kind,
            job = a.job_id,
            attempt = a.attempt,
            ms = a.duration.as_millis() as u64,
            "job done"
        ),
        Outcome::Failed | Outcome::Undecodable => tracing::warn!(
            kind = a.kind,
            job = a.job_id,
            attempt = a.attempt,
            error = a.error.unwrap_or_default(),
            "job failed"
        ),
        Outcome::Lost => tracing::warn!(
            kind = a.kind,
            job = a.job_id,
            attempt = a.attempt,
            "job lost with its worker; queued again"
        ),
    }
}

/// A claimed job.
struct Claimed {
    id: String,
    kind: String,
    payload: Vec<u8>,
    /// Attempts before this one.
    attempts: i32,
}

/// A finished attempt on its way to the table, or the completer's stop.
enum Finished {
    Attempt(Ended),
    Flush(oneshot::Sender<()>),
}

/// How an attempt ended, for the table.
struct Ended {
    id: String,
    /// `None`: done.
    error: Option<String>,
    /// A failure retried after the backoff; false for a payload that cannot be decoded, which
    /// is retried at once until its attempts run out.
    backoff: bool,
}

impl Ended {
    fn outcome(&self) -> Outcome {
        match (&self.error, self.backoff) {
            (None, _) => Outcome::Done,
            (Some(_), true) => Outcome::Failed,
            (Some(_), false) => Outcome::Undecodable,
        }
    }

    fn of(id: String, result: &anyhow::Result<()>) -> Self {
        match result {
            Ok(()) => Self {
                id,
                error: None,
                backoff: false,
            },
            Err(e) => Self {
                id,
                error: Some(format!("{e:#}")),
                backoff: e.downcast_ref::<crate::registry::Undecodable>().is_none(),
            },
        }
    }
}

/// The finishing update, shared by [`claim`] (as a CTE) and [`complete`]: `$1` ids, `$2`
/// errors, `$3` backoff flags, `$4` the retry base in seconds, `$5` the retry cap, `$6` the
/// worker. Done, or failed with the retry moved out by the backoff. A job no longer locked by
/// the worker (given back to the queue while this process was out of reach, and maybe taken
/// by another) is left alone.
///
/// Only the primary key may find the rows: `IS NOT DISTINCT FROM` (the same test here, as
/// neither side is null) is no index condition and implies no partial index's predicate. With
/// `=`, Postgres chose a bitmap scan of `idx_apalis_jobs_running`, which holds an entry for
/// every job run since the table's last vacuum (a bitmap scan never marks dead entries): on a
/// busy queue it read 85,000 entries to finish 142 jobs, 21 ms a statement.
macro_rules! finish_sql {
    () => {
        "UPDATE apalis.jobs j
            SET status = CASE WHEN d.error IS NULL THEN 'Done' ELSE 'Failed' END,
                attempts = j.attempts + 1,
                last_result = CASE WHEN d.error IS NULL THEN '{\"Ok\": null}'::jsonb
                                   ELSE jsonb_build_object('Err', d.error) END,
                done_at = now(),
                run_at = CASE WHEN d.error IS NULL THEN j.run_at
                              WHEN NOT d.backoff THEN now()
                              ELSE now() + LEAST($4 * power(2, j.attempts), $5) * (0.8 + random() * 0.4) * interval '1 second' END
           FROM unnest($1::text[], $2::text[], $3::bool[]) AS d(id, error, backoff)
          WHERE j.id = d.id AND j.lock_by IS NOT DISTINCT FROM $6 AND j.status IS NOT DISTINCT FROM 'Running'"
    };
}

/// The columns of finished attempts, for `unnest`.
struct FinishedCols<'a> {
    ids: Vec<&'a str>,
    errors: Vec<Option<&'a str>>,
    backoff: Vec<bool>,
}

impl<'a> FinishedCols<'a> {
    fn of(done: &'a [Ended]) -> Self {
        Self {
            ids: done.iter().map(|d| d.id.as_str()).collect(),
            errors: done.iter().map(|d| d.error.as_deref()).collect(),
            backoff: done.iter().map(|d| d.backoff).collect(),
        }
    }
}

/// Records `done` (finished attempts of `worker`'s jobs, maybe none) and claims up to `n` due
/// jobs of `kinds` (none of a paused kind) for `worker`, oldest first (by priority, then due
/// time), in one statement: a busy worker's round trip both hands back what it ran and takes
/// what it runs next, so each job costs one statement, as claiming alone would. The claim
/// reads the snapshot before the statement, so it never takes a job the same statement
/// finishes. The per-kind scans ride apalis's partial index `(job_type, priority DESC,
/// run_at)`; rows a kind's scan locked beyond the `n` taken are left as they were and
/// unlocked at the statement's end.
///
/// Written so that one plan serves every call, and Postgres plans the statement once per
/// connection rather than at every claim (planning was a fifth of its time): the limit is a
/// subquery, whose value a plan does not depend on, and the claimed rows are found by their
/// primary key from an array, however many a plan expects. With `LIMIT $8` Postgres judged a
/// plan made for the value at hand cheaper every time, and re-planned.
async fn claim(
    pool: &PgPool,
    worker: &str,
    kinds: &[String],
    n: usize,
    done: &[Ended],
    retry_base: Duration,
) -> sqlx::Result<Vec<Claimed>> {
    let f = FinishedCols::of(done);
    let rows: Vec<(String, String, Vec<u8>, i32)> = sqlx::query_as(concat!(
        "WITH finished AS (",
        finish_sql!(),
        "), kinds AS MATERIALIZED (
             SELECT kind FROM unnest($7::text[]) AS k(kind)
              WHERE NOT EXISTS (SELECT 1 FROM job_kind_pauses p WHERE p.kind = k.kind)
         ), picked AS (
             SELECT j.id
               FROM kinds
               CROSS JOIN LATERAL (
                   SELECT id, priority, run_at FROM apalis.jobs
                    WHERE job_type = kinds.kind
                      AND (status = 'Pending' OR (status = 'Failed' AND attempts < max_attempts))
                      AND run_at <= now()
                    ORDER BY priority DESC, run_at
                    LIMIT (SELECT $8)
                      FOR UPDATE SKIP LOCKED) j
              ORDER BY j.priority DESC, j.run_at
              LIMIT (SELECT $8)
         )
         UPDATE apalis.jobs t SET status = 'Running', lock_by = $6, lock_at = now()
          WHERE t.id = ANY(ARRAY(SELECT id FROM picked))
         RETURNING t.id, t.job_type, t.job, t.attempts"
    ))
    .bind(&f.ids)
    .bind(&f.errors)
    .bind(&f.backoff)
    .bind(retry_base.as_secs_f64().max(0.001))
    .bind(RETRY_MAX_SECS)
    .bind(worker)
    .bind(kinds)
    .bind(n as i64)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, kind, payload, attempts)| Claimed {
            id,
            kind,
            payload,
            attempts,
        })
        .collect())
}

/// Records finished attempts of `worker`'s jobs in one statement, when no claim carries them
/// (`finish_sql`).
async fn complete(
    pool: &PgPool,
    worker: &str,
    done: &[Ended],
    retry_base: Duration,
) -> sqlx::Result<u64> {
    let f = FinishedCols::of(done);
    Ok(sqlx::query(finish_sql!())
        .bind(&f.ids)
        .bind(&f.errors)
        .bind(&f.backoff)
        .bind(retry_base.as_secs_f64().max(0.001))
        .bind(RETRY_MAX_SECS)
        .bind(worker)
        .execute(pool)
        .await?
        .rows_affected())
}

/// Gives back to the queue the jobs locked by `worker` that it does not hold: claimed by a
/// fetch whose answer never arrived. The attempt is not counted: they never ran.
async fn unclaim_lost(pool: &PgPool, worker: &str, held: &[String]) -> sqlx::Result<u64> {
    Ok(sqlx::query(
        "UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL
          WHERE lock_by = $1 AND status = 'Running' AND NOT (id = ANY($2))",
    )
    .bind(worker)
    .bind(held)
    .execute(pool)
    .await?
    .rows_affected())
}

/// Records `worker` in apalis's worker table, which `lock_by` refers to, as alive now.
async fn beat_worker_row(pool: &PgPool, worker: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO apalis.workers (id, worker_type, storage_name, layers, last_seen)
         VALUES ($1, 'kyc-worker', 'jobs::runner', '', now())
         ON CONFLICT (id) DO UPDATE SET last_seen = now()",
    )
    .bind(worker)
    .execute(pool)
    .await?;
    Ok(())
}

/// Gives the jobs of processes silent for `dead_after` back to the queue (or fails them when
/// that was their last attempt) and reports each as a lost attempt.
///
/// The silent workers are found first, in their own small table, and only their jobs are
/// looked up: the running jobs' index holds an entry for every job run since the table's last
/// vacuum, and reading all of them at every heartbeat cost a busy queue a share of its
/// throughput. With `orphans`, it also gives back the jobs whose worker has no row in
/// apalis.workers (deleted by hand), once their lock is `dead_after` old (a live worker puts
/// its row back at its next heartbeat, well within that time); that reads every running
/// entry, so the keeper asks for it once in [`ORPHAN_SWEEP_EVERY`] heartbeats.
async fn reap(pool: &PgPool, dead_after: Duration, orphans: bool) -> sqlx::Result<usize> {
    let lost: Vec<(String, String, i32, Option<DateTime<Utc>>)> = sqlx::query_as(
        "WITH silent AS (
             SELECT j.id, j.lock_at FROM apalis.jobs j
              WHERE j.status = 'Running'
                AND j.lock_by = ANY(ARRAY(SELECT id FROM apalis.workers
                                           WHERE last_seen < now() - $1 * interval '1 second'))
                FOR UPDATE OF j SKIP LOCKED
         ), orphaned AS (
             SELECT j.id, j.lock_at FROM apalis.jobs j
              WHERE $2 AND j.status = 'Running' AND j.lock_at < now() - $1 * interval '1 second'
                AND NOT EXISTS (SELECT 1 FROM apalis.workers w WHERE w.id = j.lock_by)
                FOR UPDATE OF j SKIP LOCKED
         ), dead AS (
             SELECT * FROM silent UNION SELECT * FROM orphaned
         )
         UPDATE apalis.jobs j
            SET status = CASE WHEN j.attempts + 1 >= j.max_attempts THEN 'Failed' ELSE 'Pending' END,
                attempts = j.attempts + 1,
                done_at = CASE WHEN j.attempts + 1 >= j.max_attempts THEN now() END,
                lock_by = NULL, lock_at = NULL,
                last_result = '{\"Err\": \"the worker running it stopped\"}'::jsonb
           FROM dead WHERE j.id = dead.id
         RETURNING j.id, j.job_type, j.attempts, dead.lock_at",
    )
    .bind(dead_after.as_secs_f64())
    .bind(orphans)
    .fetch_all(pool)
    .await?;
    let now = Utc::now();
    for (id, kind, attempt, started) in &lost {
        let started_at = started.unwrap_or(now);
        attempt_ended(&AttemptEnd {
            kind,
            job_id: id,
            attempt: *attempt,
            started_at,
            duration: (now - started_at).to_std().unwrap_or_default(),
            outcome: Outcome::Lost,
            error: Some("the worker running it stopped"),
        });
    }
    Ok(lost.len())
}

/// Exponential backoff with jitter, for reconnecting.
struct Backoff(Duration);

impl Backoff {
    fn new() -> Self {
        Self(Duration::from_millis(100))
    }
    fn reset(&mut self) {
        self.0 = Duration::from_millis(100);
    }
    fn next(&mut self) -> Duration {
        let d = self.0.mul_f64(0.75 + rand::random::<f64>() * 0.5);
        self.0 = (self.0 * 2).min(BACKOFF_MAX);
        d
    }
}

/// Sleeps `d`, or less if `stop` turns true; true when stopped.
async fn pause_or_stop(d: Duration, stop: &mut watch::Receiver<bool>) -> bool {
    if *stop.borrow() {
        return true;
    }
    tokio::select! {
        _ = tokio::time::sleep(d) => {}
        _ = stop.wait_for(|s| *s) => return true,
    }
    *stop.borrow()
}

/// Since when a loop has failed without a success in between.
#[derive(Default)]
struct Failing(Mutex<Option<Instant>>);

impl Failing {
    fn ok(&self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
    /// Records a failure; how long it has been failing.
    fn failed(&self) -> Duration {
        let mut since = self.0.lock().unwrap_or_else(|e| e.into_inner());
        since.get_or_insert_with(Instant::now).elapsed()
    }
    fn for_longer_than(&self, d: Duration) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some_and(|t| t.elapsed() > d)
    }
}

struct Engine {
    ctx: JobContext,
    registry: Registry,
    kinds: Vec<String>,
    worker: String,
    settings: Settings,
    wake: Notify,
    slots: Arc<Semaphore>,
    done: mpsc::UnboundedSender<Finished>,
    fetching: Failing,
    registered: AtomicBool,
    /// Jobs this process claimed whose outcome is not written yet.
    held: Mutex<HashSet<String>>,
    /// Finished attempts not written yet: the fetcher's next claim carries them, or the
    /// completer writes them (see [`LINGER`]).
    finished: Mutex<Vec<Ended>>,
    /// The fetcher waits for work or for the database (or has stopped): no claim is coming
    /// soon to carry finished attempts. `fetcher_idles` tells the completer when it turns so.
    fetcher_idle: AtomicBool,
    fetcher_idles: Notify,
    /// A claim failed: its `UPDATE` may have committed with the answer lost on the way, which
    /// leaves jobs locked by this process that it never received.
    unsure: AtomicBool,
}

impl Engine {
    /// Claims and starts jobs until stopped; an error once the queue has been out of reach
    /// for `give_up`.
    async fn fetcher(self: Arc<Self>, stop: watch::Receiver<bool>) -> anyhow::Result<()> {
        let ended = self.clone().fetch(stop).await;
        self.set_idle(true);
        ended
    }

    /// Tells the completer whether a claim is coming to carry finished attempts.
    fn set_idle(&self, idle: bool) {
        self.fetcher_idle.store(idle, Ordering::Release);
        if idle {
            self.fetcher_idles.notify_one();
        }
    }

    async fn fetch(self: Arc<Self>, mut stop: watch::Receiver<bool>) -> anyhow::Result<()> {
        let mut backoff = Backoff::new();
        loop {
            let mut permit = tokio::select! {
                p = self.slots.clone().acquire_owned() => p?,
                _ = stop.wait_for(|s| *s) => return Ok(()),
            };
            if *stop.borrow() {
                return Ok(());
            }
            self.gather_slots(&mut permit).await;
            let n = (permit.num_permits() + self.slots.available_permits())
                .min(self.settings.fetch_batch);
            match self.claim(n).await {
                Ok(jobs) => {
                    self.fetching.ok();
                    backoff.reset();
                    let got = jobs.len();
                    for job in jobs {
                        // Only this loop takes slots, so the `n` counted free are still free.
                        let slot = match permit.split(1) {
                            Some(p) => p,
                            None => self.slots.clone().try_acquire_owned()?,
                        };
                        tokio::spawn(self.clone().execute(job, slot));
                    }
                    drop(permit);
                    // A short claim is not an empty queue: rows another worker's claim had
                    // locked were skipped. Only a claim that found nothing waits for a notice
                    // (an insert, a retry, a resume) or the poll.
                    if got == 0 {
                        self.set_idle(true);
                        tokio::select! {
                            _ = self.wake.notified() => {}
                            _ = tokio::time::sleep(POLL) => {}
                            _ = stop.wait_for(|s| *s) => return Ok(()),
                        }
                        self.set_idle(false);
                    }
                }
                Err(e) => {
                    drop(permit);
                    let failing = self.fetching.failed();
                    if failing > self.settings.give_up {
                        return Err(e.context(format!(
                            "the job queue has been out of reach for {}s",
                            failing.as_secs()
                        )));
                    }
                    tracing::warn!(error = %e, "fetching jobs failed; retrying");
                    self.set_idle(true);
                    if pause_or_stop(backoff.next(), &mut stop).await {
                        return Ok(());
                    }
                    self.set_idle(false);
                }
            }
        }
    }

    /// With every slot but a few busy, a claim would take a job or two per round trip and the
    /// fetcher would spin in step with the handlers. So it waits up to [`GATHER`] for more
    /// slots to free, until it holds a claim's worth (the fetch batch, at most half the slots).
    /// An idle worker has its slots free and claims at once; a busy one claims after at most
    /// `GATHER` whatever it holds.
    async fn gather_slots(&self, permit: &mut tokio::sync::OwnedSemaphorePermit) {
        let want = self
            .settings
            .fetch_batch
            .min(self.settings.concurrency.div_ceil(2))
            .max(1);
        let deadline = tokio::time::Instant::now() + GATHER;
        while permit.num_permits() + self.slots.available_permits() < want {
            match tokio::time::timeout_at(deadline, self.slots.clone().acquire_owned()).await {
                Ok(Ok(p)) => permit.merge(p),
                _ => return,
            }
        }
    }

    async fn claim(&self, n: usize) -> anyhow::Result<Vec<Claimed>> {
        if !self.registered.load(Ordering::Acquire) {
            beat_worker_row(&self.ctx.pool, &self.worker).await?;
            self.registered.store(true, Ordering::Release);
        }
        if self.unsure.load(Ordering::Acquire) {
            let held: Vec<String> = self.held().iter().cloned().collect();
            let n = unclaim_lost(&self.ctx.pool, &self.worker, &held).await?;
            if n > 0 {
                tracing::warn!(
                    jobs = n,
                    "jobs claimed by a fetch whose answer was lost went back to the queue"
                );
            }
            self.unsure.store(false, Ordering::Release);
        }
        let done = self.take_finished();
        match claim(
            &self.ctx.pool,
            &self.worker,
            &self.kinds,
            n,
            &done,
            self.settings.retry_base,
        )
        .await
        {
            Ok(jobs) => {
                let mut held = self.held();
                for d in &done {
                    held.remove(&d.id);
                }
                held.extend(jobs.iter().map(|j| j.id.clone()));
                Ok(jobs)
            }
            Err(e) => {
                self.unsure.store(true, Ordering::Release);
                // Writing them again is harmless: only a job still running under this worker
                // changes.
                self.finished().extend(done);
                Err(e.into())
            }
        }
    }

    /// The finished attempts waiting to be written, at most [`COMPLETE_BATCH`].
    fn take_finished(&self) -> Vec<Ended> {
        let mut finished = self.finished();
        let n = finished.len().min(COMPLETE_BATCH);
        finished.drain(..n).collect()
    }

    fn finished(&self) -> std::sync::MutexGuard<'_, Vec<Ended>> {
        self.finished.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one claimed job in its slot and hands the outcome to the completer.
    async fn execute(self: Arc<Self>, job: Claimed, slot: tokio::sync::OwnedSemaphorePermit) {
        let started_at = Utc::now();
        let clock = Instant::now();
        let run = self.registry.dispatch(&job.kind, &job.payload, &self.ctx);
        let result = match AssertUnwindSafe(run).catch_unwind().await {
            Ok(r) => r,
            Err(panic) => Err(anyhow::anyhow!(
                "the handler panicked: {}",
                panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default()
            )),
        };
        let duration = clock.elapsed();
        drop(slot);
        let ended = Ended::of(job.id, &result);
        attempt_ended(&AttemptEnd {
            kind: &job.kind,
            job_id: &ended.id,
            attempt: job.attempts + 1,
            started_at,
            duration,
            outcome: ended.outcome(),
            error: ended.error.as_deref(),
        });
        let _ = self.done.send(Finished::Attempt(ended));
    }

    /// Records finished attempts until flushed. It moves them from the handlers' channel to
    /// `finished` and, while the fetcher is busy, leaves them there (for [`LINGER`] at most)
    /// for its next claim to carry; then it writes what is left, many per statement, and
    /// retries a batch until it is written or the database has been out of reach for
    /// `give_up`.
    async fn completer(
        self: Arc<Self>,
        mut rx: mpsc::UnboundedReceiver<Finished>,
    ) -> anyhow::Result<()> {
        let mut flush: Option<oneshot::Sender<()>> = None;
        let mut closed = false;
        let mut backoff = Backoff::new();
        let failing = Failing::default();
        loop {
            if flush.is_none() && !closed && self.finished().is_empty() {
                match rx.recv().await {
                    Some(Finished::Attempt(ended)) => self.finished().push(ended),
                    Some(Finished::Flush(tx)) => flush = Some(tx),
                    None => closed = true,
                }
                let until = tokio::time::Instant::now() + LINGER;
                while flush.is_none() && !closed && !self.fetcher_idle.load(Ordering::Acquire) {
                    tokio::select! {
                        m = rx.recv() => match m {
                            Some(Finished::Attempt(ended)) => self.finished().push(ended),
                            Some(Finished::Flush(tx)) => flush = Some(tx),
                            None => closed = true,
                        },
                        _ = self.fetcher_idles.notified() => {}
                        _ = tokio::time::sleep_until(until) => break,
                    }
                }
            }
            while flush.is_none() && !closed {
                match rx.try_recv() {
                    Ok(Finished::Attempt(ended)) => self.finished().push(ended),
                    Ok(Finished::Flush(tx)) => flush = Some(tx),
                    Err(mpsc::error::TryRecvError::Empty) => break,
                    Err(mpsc::error::TryRecvError::Disconnected) => closed = true,
                }
            }
            let batch = self.take_finished();
            if !batch.is_empty() {
                match complete(
                    &self.ctx.pool,
                    &self.worker,
                    &batch,
                    self.settings.retry_base,
                )
                .await
                {
                    Ok(_) => {
                        failing.ok();
                        backoff.reset();
                        let mut held = self.held();
                        for d in &batch {
                            held.remove(&d.id);
                        }
                    }
                    Err(e) => {
                        let n = batch.len();
                        self.finished().splice(0..0, batch);
                        let for_ = failing.failed();
                        if for_ > self.settings.give_up {
                            return Err(anyhow::Error::new(e).context(format!(
                                "{n} finished jobs could not be recorded for {}s",
                                for_.as_secs()
                            )));
                        }
                        tracing::warn!(error = %e, jobs = n, "recording finished jobs failed; retrying");
                        tokio::time::sleep(backoff.next()).await;
                        continue;
                    }
                }
            }
            if self.finished().is_empty() {
                if let Some(tx) = flush.take() {
                    let _ = tx.send(());
                    return Ok(());
                }
                if closed {
                    return Ok(());
                }
            }
        }
    }

    /// Wakes the fetcher on every notice of a kind it runs, from one `LISTEN` connection,
    /// reconnecting with backoff whenever it is lost.
    async fn listener(self: Arc<Self>, mut stop: watch::Receiver<bool>) {
        let mut backoff = Backoff::new();
        loop {
            match self.listen().await {
                Ok(mut listener) => {
                    backoff.reset();
                    // Notices sent while it was away are lost: look now.
                    self.wake.notify_one();
                    loop {
                        tokio::select! {
                            n = listener.try_recv() => match n {
                                Ok(Some(n)) => {
                                    let kind = serde_json::from_str::<serde_json::Value>(n.payload())
                                        .ok()
                                        .and_then(|v| v.get("job_type").and_then(|k| k.as_str()).map(str::to_owned));
                                    if kind.is_none_or(|k| self.kinds.contains(&k)) {
                                        self.wake.notify_one();
                                    }
                                }
                                Ok(None) => self.wake.notify_one(),
                                Err(e) => {
                                    tracing::warn!(error = %e, "the queue's listener lost its connection");
                                    break;
                                }
                            },
                            _ = stop.wait_for(|s| *s) => return,
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "the queue's listener could not connect"),
            }
            if pause_or_stop(backoff.next(), &mut stop).await {
                return;
            }
        }
    }

    async fn listen(&self) -> sqlx::Result<sqlx::postgres::PgListener> {
        let options = match &self.ctx.config.database_listen_url {
            Some(url) => domain::infra::db::options(url)?,
            None => self.ctx.pool.connect_options().as_ref().clone(),
        }
        .application_name("worker");
        let mut listener = domain::infra::db::listener(options).await?;
        listener.listen(CHANNEL).await?;
        Ok(listener)
    }

    /// Heartbeats and gives dead processes' jobs back to the queue, every heartbeat.
    async fn keeper(self: Arc<Self>, process: Process, mut stop: watch::Receiver<bool>) {
        let every = self.settings.heartbeat;
        let dead_after = every * MISSED_BEATS + Duration::from_millis(500);
        let mut beats: u32 = 0;
        loop {
            let beat = Beat {
                queues: self.kinds.clone(),
                fetch_batch: self.settings.fetch_batch,
                fetching: !self.fetching.for_longer_than(every * 2),
            };
            if let Err(e) = process.heartbeat(&self.ctx.pool, &beat).await {
                tracing::warn!(error = %e, "worker heartbeat failed");
            }
            match beat_worker_row(&self.ctx.pool, &self.worker).await {
                Ok(()) => self.registered.store(true, Ordering::Release),
                Err(e) => tracing::warn!(error = %e, "worker heartbeat failed"),
            }
            let orphans = beats.is_multiple_of(ORPHAN_SWEEP_EVERY);
            beats = beats.wrapping_add(1);
            if let Err(e) = reap(&self.ctx.pool, dead_after, orphans).await {
                tracing::warn!(error = %e, "giving back the jobs of dead workers failed");
            }
            if pause_or_stop(every, &mut stop).await {
                return;
            }
        }
    }

    /// Queues one job of a periodic kind per period of its schedule. A period that comes due
    /// while the database is out of reach is queued once it is back; periods missed entirely
    /// meanwhile are skipped (one late run stands for them).
    async fn scheduler(
        self: Arc<Self>,
        periodic: crate::registry::Periodic,
        schedule: cron::Schedule,
        mut stop: watch::Receiver<bool>,
    ) {
        loop {
            let Some(at) = schedule.after(&Utc::now()).next() else {
                return;
            };
            let wait = (at - Utc::now()).to_std().unwrap_or_default();
            if pause_or_stop(wait, &mut stop).await {
                return;
            }
            let mut backoff = Backoff::new();
            loop {
                match (periodic.enqueue)(&self.ctx, at).await {
                    Ok(_) => break,
                    Err(e) => {
                        tracing::warn!(kind = periodic.kind, error = %format!("{e:#}"), "queueing a periodic job failed; retrying");
                        if pause_or_stop(backoff.next(), &mut stop).await {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Hands this process's unfinished jobs back to the queue (a stop that could not wait for
    /// them), without counting the attempt.
    async fn release(&self) -> sqlx::Result<u64> {
        Ok(sqlx::query(
            "UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL
              WHERE lock_by = $1 AND status = 'Running'",
        )
        .bind(&self.worker)
        .execute(&self.ctx.pool)
        .await?
        .rows_affected())
    }
}

/// Runs the queue of `registry` as `process` until `shutdown` resolves (then lets running jobs
/// finish, for up to 30 s) or a part of it fails for good (an error: the queue was out of
/// reach for `WORKER_GIVE_UP_SECS`, or a loop panicked).
pub async fn run(
    ctx: JobContext,
    registry: Registry,
    process: Process,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let settings = Settings::from_config(&ctx.config);
    let mut schedules = vec![];
    for p in registry.periodic_kinds() {
        let expr = (p.schedule)(&ctx.config);
        let s = cron::Schedule::from_str(&expr)
            .with_context(|| format!("the schedule of {}: {expr:?}", p.kind))?;
        schedules.push((p.clone(), s));
    }
    let (done_tx, done_rx) = mpsc::unbounded_channel();
    let engine = Arc::new(Engine {
        kinds: registry.kinds().iter().map(|k| (*k).to_owned()).collect(),
        registry,
        worker: process.id.clone(),
        slots: Arc::new(Semaphore::new(settings.concurrency)),
        settings,
        ctx,
        wake: Notify::new(),
        done: done_tx,
        fetching: Failing::default(),
        registered: AtomicBool::new(false),
        held: Mutex::new(HashSet::new()),
        finished: Mutex::new(Vec::new()),
        fetcher_idle: AtomicBool::new(false),
        fetcher_idles: Notify::new(),
        unsure: AtomicBool::new(false),
    });
    let (stop_tx, stop) = watch::channel(false);
    let mut fetcher = tokio::spawn(engine.clone().fetcher(stop.clone()));
    let mut completer = tokio::spawn(engine.clone().completer(done_rx));
    let mut helpers = vec![
        tokio::spawn(engine.clone().listener(stop.clone())),
        tokio::spawn(engine.clone().keeper(process.clone(), stop.clone())),
    ];
    for (p, s) in schedules {
        helpers.push(tokio::spawn(engine.clone().scheduler(p, s, stop.clone())));
    }
    tracing::info!(
        worker = %engine.worker,
        kinds = engine.kinds.len(),
        concurrency = engine.settings.concurrency,
        fetch_batch = engine.settings.fetch_batch,
        "queue running"
    );

    let joined = |r: Result<anyhow::Result<()>, tokio::task::JoinError>, what: &str| match r {
        Ok(Ok(())) => anyhow::anyhow!("the {what} stopped"),
        Ok(Err(e)) => e,
        Err(e) => anyhow::anyhow!("the {what} panicked: {e}"),
    };
    let mut fetcher_done = false;
    let mut completer_done = false;
    let failure = tokio::select! {
        _ = shutdown => None,
        r = &mut fetcher => { fetcher_done = true; Some(joined(r, "fetcher")) }
        r = &mut completer => { completer_done = true; Some(joined(r, "completer")) }
    };
    let _ = stop_tx.send(true);
    if !fetcher_done {
        let _ = fetcher.await;
    }
    // On a clean stop running jobs finish (bounded), then their outcomes are written
    // (bounded again). After a failure the database is out of reach: their outcomes could not
    // be written, so the process exits at once and its jobs go back to the queue with its
    // heartbeats.
    let (wait, flush) = match failure {
        None => (SHUTDOWN_WAIT, Duration::from_secs(10)),
        Some(_) => (Duration::ZERO, Duration::from_secs(1)),
    };
    let all = engine.settings.concurrency as u32;
    let drained = tokio::time::timeout(wait, engine.slots.acquire_many(all))
        .await
        .is_ok_and(|p| p.is_ok());
    if !completer_done {
        let (tx, rx) = oneshot::channel();
        let _ = engine.done.send(Finished::Flush(tx));
        let _ = tokio::time::timeout(flush, rx).await;
        completer.abort();
    }
    if !drained && failure.is_none() {
        match engine.release().await {
            Ok(n) => tracing::warn!(jobs = n, "jobs still running at shutdown were handed back"),
            Err(e) => tracing::warn!(error = %e, "could not hand back the jobs still running"),
        }
    }
    for h in helpers {
        h.abort();
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Runs every due job of the platform's kinds in this process until none is due, and returns
/// how many ran: the tests' way to drain the queue without a live worker (as crates.io's
/// `run_pending_background_jobs`). Claiming, the handlers, the retry backoff and the recorded
/// outcome are the worker's; a retry scheduled in the future is not due, so a failing job runs
/// once per call. Paused kinds wait, as they do for a worker.
pub async fn run_pending(ctx: &JobContext) -> anyhow::Result<usize> {
    let registry = crate::registry::platform();
    let kinds: Vec<String> = registry.kinds().iter().map(|k| (*k).to_owned()).collect();
    let mut ran = 0;
    loop {
        beat_worker_row(&ctx.pool, IN_PROCESS_WORKER).await?;
        let due = claim(
            &ctx.pool,
            IN_PROCESS_WORKER,
            &kinds,
            1,
            &[],
            ctx.config.job_retry_base,
        )
        .await?;
        let Some(job) = due.into_iter().next() else {
            return Ok(ran);
        };
        let started_at = Utc::now();
        let clock = Instant::now();
        let result = registry.dispatch(&job.kind, &job.payload, ctx).await;
        let ended = Ended::of(job.id, &result);
        attempt_ended(&AttemptEnd {
            kind: &job.kind,
            job_id: &ended.id,
            attempt: job.attempts + 1,
            started_at,
            duration: clock.elapsed(),
            outcome: ended.outcome(),
            error: ended.error.as_deref(),
        });
        complete(
            &ctx.pool,
            IN_PROCESS_WORKER,
            &[ended],
            ctx.config.job_retry_base,
        )
        .await?;
        ran += 1;
    }
}

/// The platform's kinds (every kind [`crate::registry::platform`] declares).
pub fn kinds() -> &'static [&'static str] {
    crate::registry::kinds()
}
