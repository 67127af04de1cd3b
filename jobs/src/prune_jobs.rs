//! `prune_jobs`: periodic (hourly). Deletes finished jobs older than `JOB_RETENTION_HOURS`, so
//! the queue table does not grow forever; a finished job's state stays readable
//! (`GET /api/v1/jobs/{id}`) for that long. The same hourly pass deletes the other rows that
//! only ever grow: sessions, one-time tokens and sign-in failure windows a day past their end,
//! and the gateway's idempotency keys past their 24 hours.

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PruneJobs {
    /// The period this run stands for (RFC 3339); it is also the idempotency key.
    pub period: String,
}

impl Task for PruneJobs {
    const KIND: &'static str = "prune_jobs";
    const MAX_ATTEMPTS: usize = 3;
}

impl Job for PruneJobs {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let mut conn = ctx.pool.acquire().await?;
        let pruned = domain::infra::queue::prune(&mut conn, ctx.config.job_retention).await?;
        let sessions = domain::infra::sessions::prune_expired(&mut conn).await?;
        let tokens = domain::auth::tokens::prune_expired(&mut conn).await?;
        let attempts = domain::auth::sign_in_attempts::prune_old(&mut conn).await?;
        let job_attempts =
            domain::infra::job_attempts::prune(&mut conn, ctx.config.job_retention).await?;
        let idempotency_keys = domain::gateway::idempotency::prune(&ctx.pool).await?;
        let webhook_events =
            domain::webhooks::prune(&mut conn, domain::webhooks::EVENT_RETENTION).await?;
        tracing::info!(pruned, sessions, tokens, attempts, job_attempts, idempotency_keys, webhook_events, period = %self.period, "finished jobs and expired rows pruned");
        Ok(())
    }
}
