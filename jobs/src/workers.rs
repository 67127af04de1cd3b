//! The worker binary's main loop around the queue engine (`runner::run`), recorded in
//! `worker_processes` (`domain::infra::worker_processes`, re-exported here) from start to clean
//! stop; the engine's keeper heartbeats it with the kinds it runs.

use crate::registry::Registry;

pub use domain::infra::worker_processes::{
    Beat, Process, SHOWN_FOR, WorkerProcess, recent, running,
};

/// Runs the queue of `registry` as `process` until `shutdown` resolves, recorded in
/// `worker_processes` from start to clean stop. The `worker` binary's main loop; an error when
/// the queue could not be recovered (the worker then exits non-zero).
pub async fn run(
    ctx: crate::JobContext,
    registry: Registry,
    process: Process,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let pool = ctx.pool.clone();
    // Shown on the super admin's Jobs page; the queue itself does not need it, and a process
    // started while the database is down registers with its first heartbeat.
    if let Err(e) = process.register(&pool).await {
        tracing::warn!(error = %e, "could not record this worker process");
    }
    let result = crate::runner::run(ctx, registry, process.clone(), shutdown).await;
    if result.is_ok()
        && let Err(e) = process.stopped(&pool).await
    {
        tracing::warn!(error = %e, "could not record this worker's stop");
    }
    result
}
