//! `prune_results`: periodic (every 10 minutes). Deletes the calls' kept answers older than
//! `RESULT_RETENTION_HOURS` (all of them when it is 0), so personal data sealed at rest does not
//! outstay its retention by more than a period; reads stop at the retention on their own
//! (`domain::gateway::results`).

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PruneResults {
    /// The period this run stands for (RFC 3339); it is also the idempotency key.
    pub period: String,
}

impl Task for PruneResults {
    const KIND: &'static str = "prune_results";
    const MAX_ATTEMPTS: usize = 3;
}

impl Job for PruneResults {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let mut conn = ctx.pool.acquire().await?;
        let deleted =
            domain::gateway::results::prune(&mut conn, ctx.config.gateway.result_retention).await?;
        tracing::info!(deleted, period = %self.period, "kept call answers past their retention deleted");
        Ok(())
    }
}
