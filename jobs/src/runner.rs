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

use crate::{AggregateIpHits, BulkUpdatePrices, Job, JobContext, ProvisionSubdomain, SendMail, Task};

/// Retry delays start at `JOB_RETRY_BASE_MS`, double per attempt, are capped at an hour and
/// carry ±20% jitter so that failures of many jobs do not retry in lockstep.
pub const RETRY_MAX_SECS: f64 = 3600.0;

async fn handle<J: Job>(job: J, ctx: Data<JobContext>, id: TaskId) -> Result<(), BoxDynError> {
    let id = id.to_string();
    match job.run(&ctx).await {
        Ok(()) => Ok(()),
        Err(err) => {
            let moved = sqlx::query(
                "UPDATE apalis.jobs
                    SET run_at = now() + LEAST($2 * power(2, attempts), $3) * (0.8 + random() * 0.4) * interval '1 second'
                  WHERE id = $1",
            )
            .bind(&id)
            .bind(ctx.config.job_retry_base.as_secs_f64().max(0.001))
            .bind(RETRY_MAX_SECS)
            .execute(&ctx.pool)
            .await;
            if let Err(e) = moved {
                tracing::error!(job = %id, error = %e, "could not schedule the retry backoff");
            }
            tracing::warn!(job = %id, kind = J::KIND, error = %format!("{err:#}"), "job failed");
            Err(format!("{err:#}").into())
        }
    }
}

/// Enqueues one run of the periodic job `J` for the tick's period.
async fn tick<J: Job + Default>(tick: Tick, ctx: Data<JobContext>) -> Result<(), BoxDynError> {
    let period = chrono::DateTime::from_timestamp(tick.get_timestamp() as i64, 0)
        .unwrap_or_default()
        .to_rfc3339();
    let job = J::default();
    let mut value = serde_json::to_value(&job)?;
    if let Some(obj) = value.as_object_mut() {
        obj.insert("period".into(), period.clone().into());
    }
    let job: J = serde_json::from_value(value)?;
    let mut conn = ctx.pool.acquire().await?;
    let key = format!("{}:{period}", J::KIND);
    if crate::enqueue_once(&mut conn, &job, &key).await?.is_some() {
        tracing::debug!(kind = J::KIND, %period, "periodic job enqueued");
    }
    Ok(())
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

/// Every job kind and every schedule, registered in one place.
pub fn monitor(ctx: &JobContext, instance: &str) -> anyhow::Result<Monitor> {
    let m = Monitor::new();
    let m = queue_worker!(m, ctx, instance, SendMail);
    let m = queue_worker!(m, ctx, instance, ProvisionSubdomain);
    let m = queue_worker!(m, ctx, instance, AggregateIpHits);
    let m = queue_worker!(m, ctx, instance, BulkUpdatePrices);
    let m = periodic!(m, ctx, instance, AggregateIpHits, &ctx.config.ip_hits_schedule);
    Ok(m)
}

/// Runs all workers until `shutdown` resolves, then lets running jobs finish (bounded).
pub async fn run(ctx: JobContext, instance: &str, shutdown: impl std::future::Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    monitor(&ctx, instance)?
        .shutdown_timeout(Duration::from_secs(30))
        .run_with_signal(async move {
            shutdown.await;
            Ok(())
        })
        .await?;
    Ok(())
}
