//! Runs the handlers: one apalis worker per job kind on its Postgres queue, plus the cron
//! schedulers of the periodic jobs. Used by the `worker` binary and by tests.
//!
//! Two traps of apalis-postgres 1.0 are handled here:
//! - a failed job is fetched again at once unless its `run_at` moves, so `handle` pushes
//!   `run_at` out by an exponential backoff before reporting the failure;
//! - apalis-cron ticks in every worker process, so a tick only *enqueues* the periodic job with
//!   an idempotency key per period: however many workers tick, one job runs per period.

use std::{str::FromStr, time::Duration};

use apalis::prelude::*;
use apalis_cron::{CronScheduler, Tick};
use apalis_postgres::{Config as QueueConfig, PostgresStorage};

use crate::{
    AggregateIpHits, BulkUpdatePrices, DeliverWebhook, ExportCsv, Job, JobContext, Noop,
    ProvisionSubdomain, PruneExports, PruneJobs, RunBatch, SendMail, SettlePending, SmtpTest, Task,
};

/// Finished jobs are pruned hourly (at minute 17, away from the top-of-hour crowd).
pub const PRUNE_SCHEDULE: &str = "0 17 * * * *";

/// Old export files are removed hourly, at minute 47.
pub const PRUNE_EXPORTS_SCHEDULE: &str = "0 47 * * * *";

/// Retry delays start at `JOB_RETRY_BASE_MS`, double per attempt, are capped at an hour and
/// carry ±20% jitter so that failures of many jobs do not retry in lockstep.
pub const RETRY_MAX_SECS: f64 = 3600.0;

/// The worker name [`run_pending`] locks jobs under.
const IN_PROCESS_WORKER: &str = "in-process";

/// Runs one fetched job: its handler, then (on failure) the retry backoff. The worker and
/// [`run_pending`] both go through here; the `Err` is what `last_result` records.
async fn execute<J: Job>(job: J, ctx: &JobContext, id: &str) -> Result<(), String> {
    let clock = std::time::Instant::now();
    let result = job.run(ctx).await;
    crate::bookkeeping::observe(
        J::KIND,
        if result.is_ok() { "done" } else { "failed" },
        clock.elapsed(),
    );
    match result {
        Ok(()) => Ok(()),
        Err(err) => {
            let moved = sqlx::query(
                "UPDATE apalis.jobs
                    SET run_at = now() + LEAST($2 * power(2, attempts), $3) * (0.8 + random() * 0.4) * interval '1 second'
                  WHERE id = $1",
            )
            .bind(id)
            .bind(ctx.config.job_retry_base.as_secs_f64().max(0.001))
            .bind(RETRY_MAX_SECS)
            .execute(&ctx.pool)
            .await;
            if let Err(e) = moved {
                tracing::error!(job = %id, error = %e, "could not schedule the retry backoff");
            }
            tracing::warn!(job = %id, kind = J::KIND, error = %format!("{err:#}"), "job failed");
            Err(format!("{err:#}"))
        }
    }
}

async fn handle<J: Job>(job: J, ctx: Data<JobContext>, id: TaskId) -> Result<(), BoxDynError> {
    Ok(execute(job, &ctx, &id.to_string()).await?)
}

/// Enqueues one run of the periodic job `J` for the period starting at `at`, unless one is
/// queued for that period already (every worker process ticks). Returns the job id when this
/// call enqueued it.
pub async fn enqueue_periodic<J: Job + Default>(
    ctx: &JobContext,
    at: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<Option<String>> {
    let period = at.to_rfc3339();
    let mut value = serde_json::to_value(J::default())?;
    if let Some(obj) = value.as_object_mut() {
        obj.insert("period".into(), period.clone().into());
    }
    let job: J = serde_json::from_value(value)?;
    let mut conn = ctx.pool.acquire().await?;
    let key = format!("{}:{period}", J::KIND);
    let id = crate::enqueue_once(&mut conn, &job, &key).await?;
    if id.is_some() {
        tracing::debug!(kind = J::KIND, %period, "periodic job enqueued");
    }
    Ok(id)
}

/// Enqueues one run of the periodic job `J` for the tick's period.
async fn tick<J: Job + Default>(tick: Tick, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let at = chrono::DateTime::from_timestamp(tick.get_timestamp() as i64, 0).unwrap_or_default();
    enqueue_periodic::<J>(&ctx, at).await?;
    Ok(())
}

/// Runs every due job of every kind in this process, one at a time, until none is due, and
/// returns how many ran: the tests' way to drain the queue without a live worker (as
/// crates.io's `run_pending_background_jobs`). Fetching, the handlers, the retry backoff and
/// the recorded outcome are the worker's; a retry scheduled in the future is not due, so a
/// failing job runs once per call.
pub async fn run_pending(ctx: &JobContext) -> anyhow::Result<usize> {
    sqlx::query(
        "INSERT INTO apalis.workers (id, worker_type, storage_name, layers, last_seen)
         VALUES ($1, 'in-process', 'PostgresStorage', '', now())
         ON CONFLICT (id) DO UPDATE SET last_seen = now()",
    )
    .bind(IN_PROCESS_WORKER)
    .execute(&ctx.pool)
    .await?;
    let mut ran = 0;
    loop {
        let mut progressed = false;
        for kind in KINDS {
            let due: Vec<(String, Vec<u8>)> =
                sqlx::query_as("SELECT id, job FROM apalis.get_jobs($1, $2, 100)")
                    .bind(IN_PROCESS_WORKER)
                    .bind(kind)
                    .fetch_all(&ctx.pool)
                    .await?;
            for (id, payload) in due {
                sqlx::query(
                    "UPDATE apalis.jobs SET status = 'Running', lock_at = now() WHERE id = $1",
                )
                .bind(&id)
                .execute(&ctx.pool)
                .await?;
                let outcome = run_kind(kind, &payload, ctx, &id).await;
                // As apalis acknowledges: the attempt counted, the outcome as `{"Ok": …}` or
                // `{"Err": "…"}`, and the finish time.
                let (status, result) = match &outcome {
                    Ok(()) => ("Done", serde_json::json!({ "Ok": null })),
                    Err(e) => ("Failed", serde_json::json!({ "Err": e })),
                };
                sqlx::query(
                    "UPDATE apalis.jobs SET status = $2, attempts = attempts + 1, last_result = $3, done_at = now()
                      WHERE id = $1",
                )
                .bind(&id)
                .bind(status)
                .bind(result)
                .execute(&ctx.pool)
                .await?;
                ran += 1;
                progressed = true;
            }
        }
        if !progressed {
            return Ok(ran);
        }
    }
}

/// Every job kind's queue name, in the order [`run_pending`] drains them.
pub const KINDS: [&str; 12] = [
    SendMail::KIND,
    ProvisionSubdomain::KIND,
    AggregateIpHits::KIND,
    BulkUpdatePrices::KIND,
    SettlePending::KIND,
    SmtpTest::KIND,
    PruneJobs::KIND,
    ExportCsv::KIND,
    PruneExports::KIND,
    RunBatch::KIND,
    DeliverWebhook::KIND,
    Noop::KIND,
];

async fn run_kind(kind: &str, payload: &[u8], ctx: &JobContext, id: &str) -> Result<(), String> {
    async fn decoded<J: Job>(payload: &[u8], ctx: &JobContext, id: &str) -> Result<(), String> {
        let job: J = serde_json::from_slice(payload)
            .map_err(|e| format!("decoding the {} payload: {e}", J::KIND))?;
        execute(job, ctx, id).await
    }
    match kind {
        SendMail::KIND => decoded::<SendMail>(payload, ctx, id).await,
        ProvisionSubdomain::KIND => decoded::<ProvisionSubdomain>(payload, ctx, id).await,
        AggregateIpHits::KIND => decoded::<AggregateIpHits>(payload, ctx, id).await,
        BulkUpdatePrices::KIND => decoded::<BulkUpdatePrices>(payload, ctx, id).await,
        SettlePending::KIND => decoded::<SettlePending>(payload, ctx, id).await,
        SmtpTest::KIND => decoded::<SmtpTest>(payload, ctx, id).await,
        PruneJobs::KIND => decoded::<PruneJobs>(payload, ctx, id).await,
        ExportCsv::KIND => decoded::<ExportCsv>(payload, ctx, id).await,
        PruneExports::KIND => decoded::<PruneExports>(payload, ctx, id).await,
        RunBatch::KIND => decoded::<RunBatch>(payload, ctx, id).await,
        DeliverWebhook::KIND => decoded::<DeliverWebhook>(payload, ctx, id).await,
        Noop::KIND => decoded::<Noop>(payload, ctx, id).await,
        other => Err(format!("no handler for job kind {other}")),
    }
}

fn queue_config(ctx: &JobContext, kind: &str) -> QueueConfig {
    QueueConfig::default()
        .queue(kind)
        .heartbeat_interval(ctx.config.worker_heartbeat)
        // A worker silent for two heartbeats is dead: its running jobs go back to the queue.
        .missed_heartbeats(2)
        .batch_size(ctx.config.worker_concurrency.clamp(1, 50))
}

macro_rules! queue_worker {
    ($monitor:expr, $ctx:expr, $instance:expr, $job:ty) => {{
        let ctx = $ctx.clone();
        let instance = $instance.to_owned();
        $monitor.register(move |_| {
            let backend = PostgresStorage::<$job>::new(&ctx.pool)
                .with_config(queue_config(&ctx, <$job as Task>::KIND))
                .with_pubsub();
            WorkerBuilder::new(format!("{}@{}", <$job as Task>::KIND, instance))
                .backend(backend)
                .data(ctx.clone())
                .concurrency(ctx.config.worker_concurrency)
                .catch_panic()
                .build(handle::<$job>)
        })
    }};
}

macro_rules! periodic {
    ($monitor:expr, $ctx:expr, $instance:expr, $job:ty, $schedule:expr) => {{
        let ctx = $ctx.clone();
        let instance = $instance.to_owned();
        let schedule = cron::Schedule::from_str($schedule)?;
        $monitor.register(move |_| {
            WorkerBuilder::new(format!("cron-{}@{}", <$job as Task>::KIND, instance))
                .backend(CronScheduler::new(schedule.clone()))
                .data(ctx.clone())
                .build(tick::<$job>)
        })
    }};
}

/// Every job kind and every schedule, registered in one place (a new kind goes here, in
/// [`KINDS`] and in `run_kind`).
pub fn monitor(ctx: &JobContext, instance: &str) -> anyhow::Result<Monitor> {
    let m = Monitor::new();
    let m = queue_worker!(m, ctx, instance, SendMail);
    let m = queue_worker!(m, ctx, instance, ProvisionSubdomain);
    let m = queue_worker!(m, ctx, instance, AggregateIpHits);
    let m = queue_worker!(m, ctx, instance, BulkUpdatePrices);
    let m = queue_worker!(m, ctx, instance, SettlePending);
    let m = queue_worker!(m, ctx, instance, SmtpTest);
    let m = queue_worker!(m, ctx, instance, PruneJobs);
    let m = queue_worker!(m, ctx, instance, ExportCsv);
    let m = queue_worker!(m, ctx, instance, PruneExports);
    let m = queue_worker!(m, ctx, instance, RunBatch);
    let m = queue_worker!(m, ctx, instance, DeliverWebhook);
    let m = queue_worker!(m, ctx, instance, Noop);
    let m = periodic!(
        m,
        ctx,
        instance,
        AggregateIpHits,
        &ctx.config.ip_hits_schedule
    );
    let m = periodic!(m, ctx, instance, PruneJobs, PRUNE_SCHEDULE);
    let m = periodic!(m, ctx, instance, PruneExports, PRUNE_EXPORTS_SCHEDULE);
    let m = periodic!(
        m,
        ctx,
        instance,
        SettlePending,
        &ctx.config.gateway.settle_schedule
    );
    Ok(m)
}

/// Runs all workers until `shutdown` resolves, then lets running jobs finish (bounded).
pub async fn run(
    ctx: JobContext,
    instance: &str,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    monitor(&ctx, instance)?
        .shutdown_timeout(Duration::from_secs(30))
        .run_with_signal(async move {
            shutdown.await;
            Ok(())
        })
        .await?;
    Ok(())
}
