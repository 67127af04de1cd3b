//! The worker binary's main loop around the queue's workers, recorded in `worker_processes`
//! (`domain::infra::worker_processes`, re-exported here) from start to clean stop.

use std::time::Duration;

use sqlx::PgPool;

pub use domain::infra::worker_processes::{Process, SHOWN_FOR, WorkerProcess, recent, running};

/// Heartbeats every `every` until the task is dropped or aborted; a failed beat is logged
/// and the next one tried.
pub async fn beat(process: Process, pool: PgPool, every: Duration) {
    let mut tick = tokio::time::interval(every.max(Duration::from_secs(1)));
    tick.tick().await;
    loop {
        tick.tick().await;
        if let Err(e) = process.heartbeat(&pool).await {
            tracing::warn!(error = %e, "worker heartbeat failed");
        }
    }
}

/// Runs every worker of the queue as `process` (`runner::run`) until `shutdown` resolves,
/// recorded in `worker_processes` from start to clean stop. The `worker` binary's main loop.
pub async fn run(
    ctx: crate::JobContext,
    process: Process,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let pool = ctx.pool.clone();
    // Shown on the super admin's Jobs page; the queue itself does not need it.
    if let Err(e) = process.register(&pool).await {
        tracing::warn!(error = %e, "could not record this worker process");
    }
    let beating = tokio::spawn(beat(
        process.clone(),
        pool.clone(),
        ctx.config.worker_heartbeat,
    ));
    let result = crate::runner::run(ctx, &process.id, shutdown).await;
    beating.abort();
    if let Err(e) = process.stopped(&pool).await {
        tracing::warn!(error = %e, "could not record this worker's stop");
    }
    result
}
