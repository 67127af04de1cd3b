//! `prune_exports`: periodic (hourly). Removes the files of exports that finished more than
//! `EXPORT_RETENTION_HOURS` ago, then their rows: files first, so a worker dying in between
//! leaves a row whose files the next run deletes again (deleting a missing file succeeds).

use serde::{Deserialize, Serialize};

use crate::{Job, JobContext, Task};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct PruneExports {
    /// The period this run stands for (RFC 3339); it is also the idempotency key.
    pub period: String,
}

impl Task for PruneExports {
    const KIND: &'static str = "prune_exports";
    const MAX_ATTEMPTS: usize = 3;
}

/// Exports handled per round trip.
const BATCH: i64 = 200;

impl Job for PruneExports {
    async fn run(self, ctx: &JobContext) -> anyhow::Result<()> {
        let before = chrono::Utc::now() - chrono::Duration::from_std(ctx.config.exports.retention)?;
        let mut conn = ctx.pool.acquire().await?;
        let mut removed = 0usize;
        loop {
            let batch = domain::exports::expired(&mut conn, before, BATCH).await?;
            if batch.is_empty() {
                break;
            }
            for e in batch {
                for key in &e.keys {
                    ctx.storage.delete(key).await?;
                }
                domain::exports::remove(&mut conn, e.id).await?;
                removed += 1;
            }
        }
        tracing::info!(removed, period = %self.period, "old exports removed");
        Ok(())
    }
}
